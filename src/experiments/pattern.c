/* The pattern family (issue 29): the user's own index expression, one
 * row per --index, in global memory (GB/s of the bytes the lanes ask for)
 * or shared memory (ns per warp-wide access), loads or stores, with an
 * optional mask of the lanes taking part.
 *
 * The host never evaluates the expression: common/kernels/pattern.cl
 * does, in a trace pass that writes the sampled warps' indices, from
 * which the model counts (pattern_model.c), and in the timed kernel,
 * which writes the index each thread used; the check holds the output
 * against the input at those indices, and the indices against the trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/pattern.h"
#include "experiments/variant.h"

#define BLOCK (SB_PATTERN_BLOCK_X * SB_PATTERN_BLOCK_Y)
#define WARPS (BLOCK / SB_WARP_LANES)

typedef struct pattern_knobs {
    int row;        /* which --index */
    sb_space space;
    int word;
    int store;
} pattern_knobs;
SB_KNOBS(pattern_knobs)

typedef struct pattern_host {
    long threads;
    long in_words;
    uint32_t *in;
} pattern_host;

static sb_pattern_request request;

void sb_pattern_configure(const sb_pattern_request *r)
{
    if (r)
        request = *r;
    else
        memset(&request, 0, sizeof request);
}

const sb_pattern_request *sb_pattern_configured(void)
{
    return &request;
}

long sb_pattern_elements(const sb_pattern_request *r, long threads)
{
    int word = r->word ? r->word : 4;
    return r->space == SB_SPACE_SHARED ? SB_PATTERN_SHARED_BYTES / word : threads;
}

/* The variant's name: the expression without white space where it fits. */
static void row_name(const char *expr, int index, char *out, size_t n)
{
    size_t k = 0;
    for (const char *c = expr; *c && k + 1 < n; c++)
        if (*c != ' ' && *c != '\t')
            out[k++] = *c;
    out[k] = '\0';
    if (strlen(expr) >= n)
        snprintf(out, n, "index-%d", index + 1);
}

int sb_pattern_variant(const sb_pattern_request *r, int index, sb_variant *v, char *err,
                       size_t n)
{
    int word = r->word ? r->word : 4, map[SB_DEFINE_LEN];
    char name[48];
    row_name(r->index[index], index, name, sizeof name);
    sb_variant_init(v, name, "pattern_access", SB_PATTERN_BLOCK_X, SB_PATTERN_BLOCK_Y, 1);
    if (sb_pattern_define("INDEX", r->index[index], v->defines[0], sizeof v->defines[0], map,
                          SB_DEFINE_LEN)) {
        snprintf(err, n, "--index '%s': too long once made a definition", r->index[index]);
        return -1;
    }
    v->ndefines = 1;
    if (r->mask[0]) {
        if (sb_pattern_define("MASK", r->mask, v->defines[1], sizeof v->defines[1], map,
                              SB_DEFINE_LEN)) {
            snprintf(err, n, "--mask '%s': too long once made a definition", r->mask);
            return -1;
        }
        v->ndefines = 2;
    }
    sb_variant_define(v, "SPACE=%d", r->space == SB_SPACE_SHARED);
    sb_variant_define(v, "WORD=%d", word);
    sb_variant_define(v, "STORE=%d", r->store != 0);
    if (r->space == SB_SPACE_SHARED) {
        sb_variant_define(v, "NELEM=%ld", sb_pattern_elements(r, 0));
        sb_variant_define(v, "ITERS=%d", SB_PATTERN_ITERS);
    }
    pattern_knobs k = {.row = index, .space = r->space, .word = word, .store = r->store != 0};
    set_knobs(v, &k);
    v->in_default = 1;
    v->baseline = index == 0;
    return 0;
}

static int variants_in(sb_space space, sb_variant *out, int max)
{
    if (request.space != space)
        return 0;
    int n = 0;
    char err[256];
    for (int i = 0; i < request.nindex && n < max; i++)
        if (sb_pattern_variant(&request, i, &out[n], err, sizeof err) == 0)
            n++;
    return n;
}

static int global_variants(sb_variant *out, int max)
{
    return variants_in(SB_SPACE_GLOBAL, out, max);
}

static int shared_variants(sb_variant *out, int max)
{
    return variants_in(SB_SPACE_SHARED, out, max);
}

/* ---------------------------------------------------------- sizes, data */

static void pattern_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = 1;
    p->cols = dev->is_gpu ? sb_stream_elements(dev) / 4 : 4096;
}

static int pattern_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    pattern_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->threads = p->rows * p->cols;
    long words = h->threads * 4; /* 16-byte words of every thread */
    if (words < SB_PATTERN_SHARED_BYTES / 4)
        words = SB_PATTERN_SHARED_BYTES / 4;
    h->in_words = words;
    h->in = sb_host_alloc((size_t)words * sizeof *h->in, err, n);
    if (!h->in) {
        free(h);
        return -1;
    }
    sb_random_words(h->in, (size_t)words, seed);
    *host = h;
    return 0;
}

static void pattern_release(void *host)
{
    pattern_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

/* ----------------------------------------------------------------- plan */

static int pattern_plan(void *host, const sb_problem *p, const sb_variant *v,
                        const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    pattern_host *h = host;
    (void)p;
    pattern_knobs k = knobs_of(v);
    long blocks = (h->threads + BLOCK - 1) / BLOCK;
    size_t word = (size_t)k.word, threads = (size_t)h->threads;
    size_t elems = (size_t)(k.space == SB_SPACE_SHARED ? SB_PATTERN_SHARED_BYTES / k.word
                                                       : h->threads);
    if (k.space == SB_SPACE_SHARED && dev->local_mem_bytes &&
        SB_PATTERN_SHARED_BYTES > dev->local_mem_bytes) {
        snprintf(err, n, "needs %d bytes of shared memory per block; the device has %llu",
                 SB_PATTERN_SHARED_BYTES, (unsigned long long)dev->local_mem_bytes);
        return -1;
    }
    plan->nbuffers = 3;
    plan->buffer[0].bytes = elems * word;
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = k.space == SB_SPACE_SHARED && k.store
                                ? (size_t)blocks * elems * word : threads * word;
    plan->buffer[1].init = NULL;
    plan->buffer[2].bytes = threads * sizeof(int32_t);
    plan->buffer[2].init = NULL;
    plan->nargs = 5;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)h->threads;
    plan->arg[1].kind = SB_PLAN_INT;
    plan->arg[1].i = 0; /* `zero`: keeps the repeated access in the loop */
    for (int a = 2; a < 5; a++) {
        plan->arg[a].kind = SB_PLAN_BUFFER;
        plan->arg[a].buffer = a - 2;
    }
    plan->geometry = (sb_launch){{(unsigned)blocks, 1, 1},
                                 {SB_PATTERN_BLOCK_X, SB_PATTERN_BLOCK_Y, 1}};
    /* What the lanes ask for, and the accesses, once the trace says
       which lanes take part (pattern_traced). */
    plan->bytes = (double)threads * (double)word;
    plan->accesses = k.space == SB_SPACE_SHARED ? (double)blocks * WARPS * SB_PATTERN_ITERS : 0;
    return 0;
}

/* ----------------------------------------------------- from the trace */

/* The timed kernel's index of every sampled lane must be the trace's. */
static int same_indices(const pattern_host *h, const int32_t *trace, const int32_t *where,
                        char *err, size_t n)
{
    long warps = (h->threads + SB_WARP_LANES - 1) / SB_WARP_LANES;
    for (int s = 0; s < SB_PATTERN_SAMPLES; s++) {
        long w = sb_pattern_sample_warp(s, warps);
        for (int l = 0; l < SB_WARP_LANES; l++) {
            long i = w * SB_WARP_LANES + l;
            int32_t t = trace[s * SB_WARP_LANES + l];
            int32_t want = t < 0 ? -1 : t & ~SB_PATTERN_REDUCED;
            if (i >= h->threads || where[i] == want)
                continue;
            snprintf(err, n, "the expression takes different values in the trace pass and the "
                     "timed kernel (warp %ld, lane %d: %d, then %d): an index must depend on "
                     "the thread's coordinates alone; refused", w, l, want, where[i]);
            return -1;
        }
    }
    return 0;
}

/* A dense walk of `count` elements, `times` over. */
static void declare_dense(sb_plan *plan, const char *label, sb_access_kind kind, sb_space space,
                          int word, long count, double times)
{
    sb_plan_declare_walk(plan, &(sb_access){label, kind, sb_dense(space, word), 0,
                                            SB_SITES_COMPILER, 0}, count, times);
}

/* The traced request of sample s, `requests` times; a copy in global
   memory where the kernel reads its value there first (shared stores). */
static void declare_sample(sb_plan *plan, const pattern_knobs *k, const sb_pattern_traced *t,
                           int s, double warps)
{
    sb_access_kind kind = k->store ? SB_ACCESS_STORE : SB_ACCESS_LOAD;
    double iters = k->space == SB_SPACE_SHARED ? SB_PATTERN_ITERS : 1;
    sb_plan_declare(plan, &(sb_access){k->store ? "store" : "load", kind, t->pattern[s],
                                       warps * iters, SB_SITES_COMPILER, 1});
    sb_pattern lanes = sb_dense(SB_SPACE_GLOBAL, k->word);
    lanes.active = t->pattern[s].active;
    if (k->space == SB_SPACE_GLOBAL && !k->store)
        sb_plan_declare(plan, &(sb_access){"out store", SB_ACCESS_STORE, lanes, warps, 1, 0});
    if (k->space == SB_SPACE_SHARED && k->store) {
        long idx[SB_WARP_LANES];
        for (int l = 0; l < SB_WARP_LANES; l++)
            idx[l] = t->pattern[s].lane_index[l];
        sb_pattern g = sb_global_request(k->word, idx, t->pattern[s].active);
        sb_plan_declare(plan, &(sb_access){"value load", SB_ACCESS_LOAD, g, warps, 1, 0});
    }
}

static void declare_others(sb_plan *plan, const pattern_knobs *k, long threads)
{
    long blocks = (threads + BLOCK - 1) / BLOCK;
    long elems = SB_PATTERN_SHARED_BYTES / k->word;
    declare_dense(plan, "where store", SB_ACCESS_STORE, SB_SPACE_GLOBAL, 4, threads, 1);
    if (k->space == SB_SPACE_GLOBAL)
        return;
    if (!k->store) {
        declare_dense(plan, "fill load", SB_ACCESS_LOAD, SB_SPACE_GLOBAL, k->word, elems, blocks);
        declare_dense(plan, "fill store", SB_ACCESS_STORE, SB_SPACE_SHARED, k->word, elems,
                      blocks);
        declare_dense(plan, "out store", SB_ACCESS_STORE, SB_SPACE_GLOBAL, k->word, threads, 1);
        return;
    }
    declare_dense(plan, "zero store", SB_ACCESS_STORE, SB_SPACE_SHARED, k->word, elems, blocks);
    declare_dense(plan, "dump load", SB_ACCESS_LOAD, SB_SPACE_SHARED, k->word, elems, blocks);
    declare_dense(plan, "dump store", SB_ACCESS_STORE, SB_SPACE_GLOBAL, k->word, elems, blocks);
}

/* Each sampled warp stands for an equal share of the launch's warps (all
   of them where there are no more warps than samples). */
static int pattern_traced(void *host, const sb_problem *p, const sb_variant *v,
                          const int32_t *trace, void *const *outputs, sb_plan *plan, char *err,
                          size_t n)
{
    pattern_host *h = host;
    (void)p;
    pattern_knobs k = knobs_of(v);
    sb_pattern_traced t;
    if (same_indices(h, trace, outputs[1], err, n) ||
        sb_pattern_from_trace(trace, h->threads, k.space, k.word, &t, err, n))
        return -1;
    double warps = (double)((h->threads + SB_WARP_LANES - 1) / SB_WARP_LANES);
    double share = warps / (t.nsamples + t.idle), lanes = 0;
    for (int s = 0; s < t.nsamples; s++) {
        declare_sample(plan, &k, &t, s, share);
        lanes += t.lanes[s] * share;
    }
    declare_others(plan, &k, h->threads);
    plan->bytes = lanes * k.word;
    plan->accesses = k.space == SB_SPACE_SHARED ? share * t.nsamples * SB_PATTERN_ITERS : 0;
    sb_figure_add(plan->figure, &plan->nfigures, "worst_warp", (double)t.warp[t.worst], "");
    sb_figure_add(plan->figure, &plan->nfigures, "sampled_warps", t.nsamples + t.idle, "");
    sb_figure_add(plan->figure, &plan->nfigures, "reduced_lanes", t.reduced, "lanes");
    return 0;
}

/* ---------------------------------------------------------------- check */

/* Component c of the word a global store writes at element e (STORED and
   SET_WORD of pattern.cl). */
static uint32_t stored_word(long e, int c)
{
    uint32_t x = (uint32_t)e * 2654435761u ^ 0x9e3779b9u;
    return c == 0 ? x : c == 1 ? ~x : c == 2 ? x ^ 0x5a5a5a5au : x + 1u;
}

static int mismatch(char *err, size_t n, const char *what, long i, int c, uint32_t got,
                    uint32_t want, long e)
{
    snprintf(err, n, "%s[%ld].%d = 0x%08x, expected 0x%08x (index %ld)%s", what, i, c, got,
             want, e, got == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* Every thread's index in range; what each output word must be. */
static int check_where(const pattern_host *h, long elems, const int32_t *where, char *err,
                       size_t n)
{
    for (long i = 0; i < h->threads; i++)
        if (where[i] < -1 || where[i] >= elems) {
            snprintf(err, n, "where[%ld] = %d: outside the buffer of %ld elements", i, where[i],
                     elems);
            return -1;
        }
    return 0;
}

static int verify_global(const pattern_host *h, const pattern_knobs *k, const uint32_t *out,
                         const int32_t *where, char *err, size_t n)
{
    int per = k->word / 4;
    if (k->store) {
        for (long e = 0; e < h->threads; e++)
            for (int c = 0; c < per; c++) {
                uint32_t got = out[e * per + c];
                if (got != SB_POISON_WORD && got != stored_word(e, c))
                    return mismatch(err, n, "out", e, c, got, stored_word(e, c), e);
            }
        for (long i = 0; i < h->threads; i++)
            if (where[i] >= 0 && out[(long)where[i] * per] != stored_word(where[i], 0))
                return mismatch(err, n, "out", where[i], 0, out[(long)where[i] * per],
                                stored_word(where[i], 0), where[i]);
        return 0;
    }
    for (long i = 0; i < h->threads; i++)
        for (int c = 0; c < per; c++) {
            uint32_t want = where[i] < 0 ? SB_POISON_WORD : h->in[(long)where[i] * per + c];
            if (out[i * per + c] != want)
                return mismatch(err, n, "out", i, c, out[i * per + c], want, where[i]);
        }
    return 0;
}

static int verify_shared(const pattern_host *h, const pattern_knobs *k, const uint32_t *out,
                         const int32_t *where, char *err, size_t n)
{
    int per = k->word / 4;
    long elems = SB_PATTERN_SHARED_BYTES / k->word;
    if (!k->store) {
        for (long i = 0; i < h->threads; i++)
            for (int c = 0; c < per; c++) {
                uint32_t want =
                    where[i] < 0 ? 0 : SB_PATTERN_ITERS * h->in[(long)where[i] * per + c];
                if (out[i * per + c] != want)
                    return mismatch(err, n, "out", i, c, out[i * per + c], want, where[i]);
            }
        return 0;
    }
    long blocks = (h->threads + BLOCK - 1) / BLOCK;
    for (long j = 0; j < blocks * elems * per; j++) {
        uint32_t got = out[j], in = h->in[j % (elems * per)];
        if (got != 0 && got != in)
            return mismatch(err, n, "dump", j / per, (int)(j % per), got, in, j % (elems * per) / per);
    }
    for (long i = 0; i < h->threads; i++) {
        long at = (i / BLOCK * elems + where[i]) * per;
        if (where[i] >= 0 && out[at] != h->in[(long)where[i] * per])
            return mismatch(err, n, "dump", at / per, 0, out[at], h->in[(long)where[i] * per],
                            where[i]);
    }
    return 0;
}

static int pattern_verify(void *host, const sb_problem *p, const sb_variant *v,
                          void *const *outputs, char *err, size_t n)
{
    pattern_host *h = host;
    (void)p;
    pattern_knobs k = knobs_of(v);
    long elems = k.space == SB_SPACE_SHARED ? SB_PATTERN_SHARED_BYTES / k.word : h->threads;
    const int32_t *where = outputs[1];
    if (check_where(h, elems, where, err, n))
        return -1;
    return k.space == SB_SPACE_SHARED ? verify_shared(h, &k, outputs[0], where, err, n)
                                      : verify_global(h, &k, outputs[0], where, err, n);
}

/* The expression (or mask) that would not compile, in the user's words. */
static void pattern_build_failed(const sb_variant *v, const char *api, const char *log,
                                 char *out, size_t n)
{
    pattern_knobs k = knobs_of(v);
    const char *expr = k.row < request.nindex ? request.index[k.row] : v->name;
    if (request.mask[0] && strstr(log, "MASK"))
        sb_pattern_build_message("--mask", request.mask, api, log, out, n);
    else
        sb_pattern_build_message("--index", expr, api, log, out, n);
}

/* ------------------------------------------------------ the experiments */

/* The lesson a block of expressions draws: its worst warp, and why. */
static const sb_lesson_rule pattern_lessons[] = {{.kind = SB_LESSON_WORST_WARP}, {0}};

#define PATTERN_COMMON                                                                         \
    .family = "pattern", .source = "pattern.cl", .size_kind = SB_SIZE_THREADS,                 \
    .in_default = 0, .test_sizes = "1x300,1x1024", .default_size = pattern_default_size,      \
    .prepare = pattern_prepare, .release = pattern_release, .plan = pattern_plan,              \
    .verify = pattern_verify, .trace_kernel = "pattern_trace", .traced = pattern_traced,              \
    .build_failed = pattern_build_failed, .lessons = pattern_lessons

const sb_experiment sb_exp_pattern_global = {
    .name = "pattern_global",
    .summary = "your own index expression (--index EXPR --space global): GB/s of the bytes "
               "the lanes ask for, beside the model of the traced addresses",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .variants = global_variants,
    PATTERN_COMMON,
};

const sb_experiment sb_exp_pattern_shared = {
    .name = "pattern_shared",
    .summary = "your own index expression (--index EXPR --space shared): ns per warp-wide "
               "access, beside the model of the traced addresses",
    .quantity = SB_QUANTITY_ACCESS,
    .variants = shared_variants,
    PATTERN_COMMON,
};
