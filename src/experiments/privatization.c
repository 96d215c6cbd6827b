/* The privatisation family (seed 001): a histogram of N 32-bit values into
 * B = 1, 32, 256, 4096 and 65536 bins, with uniform inputs and with every
 * input in one bin (the worst contention), and a sum; each with one global
 * atomic per input against private copies merged once per block.  The
 * seed's rule: privatising spends shared memory and a merge to relieve the
 * global atomics, so it pays only where their contention is the
 * bottleneck.  Beside each row, the atomics model (atomics_model.h): the
 * same-address updates per warp instruction, the private copy's bank ways
 * and the global atomics left per input.
 *
 * Size rows x cols: n = rows * cols inputs.  The figure is input GB/s (4
 * bytes an input); every input is one bin update, so updates per ns are
 * that figure over 4.  Verified exactly: every bin, and the sum modulo
 * 2^32, against the host's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomics_model.h"
#include "run/host_data.h"
#include "experiments/variant.h"

#define BLOCK 256
#define COARSE_FACTOR 32 /* inputs per thread of the coarsened variants */
#define MAX_BINS 65536
#define NBINS 5
#define SKEW_MASK 0xffff0000u /* skewed inputs: multiples of MAX_BINS, all in bin 0 */
#define WARPS (BLOCK / SB_WARP_LANES)
/* Words of the scratch `acc` (privatization.cl): a 128-byte line for the
   epoch and the done count, then two halves of the bins, each from a line
   of its own. */
#define ACC_LINE 32
#define ACC_WORDS(bins) (ACC_LINE + 2 * (((bins) + ACC_LINE - 1) / ACC_LINE * ACC_LINE))

static const long bin_counts[NBINS] = {1, 32, 256, 4096, 65536};

/* How a histogram variant counts. */
typedef enum hist_method { M_GLOBAL, M_SHARED, M_SHARED_COARSE, M_WARP, M_THREAD } hist_method;

static const struct method {
    const char *name, *kernel;
    int coarse;
    long max_bins; /* the kernel exists up to this many bins (privatization.cl) */
} methods[] = {
    [M_GLOBAL] = {"global", "hist_global", 1, MAX_BINS},
    [M_SHARED] = {"shared", "hist_shared", 1, MAX_BINS},
    [M_SHARED_COARSE] = {"shared_coarse", "hist_shared", COARSE_FACTOR, MAX_BINS},
    [M_WARP] = {"warp", "hist_warp", COARSE_FACTOR, 256},
    [M_THREAD] = {"thread", "hist_thread", COARSE_FACTOR, 32},
};
#define NMETHODS (int)(sizeof methods / sizeof methods[0])

/* What the plan needs of a variant: the histogram's, or the sum's (bins 1,
 * method M_GLOBAL for sum_global, M_SHARED and M_SHARED_COARSE for
 * sum_block). */
typedef struct priv_knobs {
    hist_method method;
    int coarse;        /* COARSE */
    long bins;         /* BINS */
    sb_bin_dist dist;  /* the histogram's inputs */
    int bin_index;     /* into bin_counts */
} priv_knobs;
SB_KNOBS(priv_knobs)

/* Inputs and references: both distributions, and every bin count's
 * histogram of each. */
typedef struct hist_host {
    long n;
    uint32_t *in[2];                /* by sb_bin_dist */
    uint32_t *want[2][NBINS];       /* the host's histograms */
    uint32_t *zeros;                /* the scratch `acc` as uploaded: ACC_WORDS(MAX_BINS) */
} hist_host;

typedef struct sum_host {
    long n;
    uint32_t *in;
    uint32_t total;                 /* modulo 2^32 */
    uint32_t zeros[ACC_WORDS(1)];   /* the scratch `acc` of one bin */
} sum_host;

/* ------------------------------------------------------------ variants */

static sb_variant *api_copy(sb_variant *out)
{
    sb_variant_init(out, "memcpy", NULL, 1, 1, 1);
    out->role = SB_ROLE_API_COPY;
    out->group = 0; /* the roof is no one's baseline */
    out->in_default = 1;
    return out;
}

/* One kernel variant with the family's definitions. */
static void priv_variant(sb_variant *v, const char *name, const char *kernel,
                         const priv_knobs *k, int private_copy)
{
    sb_variant_init(v, name, kernel, BLOCK, 1, 1);
    sb_variant_define(v, "BINS=%ld", k->bins);
    sb_variant_define(v, "BLOCK=%d", BLOCK);
    sb_variant_define(v, "COARSE=%d", k->coarse);
    if (private_copy)
        sb_variant_define(v, "PRIVATE=1");
    set_knobs(v, k);
    v->in_default = 1;
}

/* Every method at every bin count it exists for, uniform then skewed;
 * the slowdowns of each (bins, distribution) against its global atomics. */
static int hist_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0)
        api_copy(&out[n++]);
    for (int d = SB_BINS_UNIFORM; d <= SB_BINS_SKEWED; d++)
        for (int b = 0; b < NBINS; b++)
            for (int m = 0; m < NMETHODS && n < max; m++) {
                if (bin_counts[b] > methods[m].max_bins)
                    continue;
                priv_knobs k = {.method = (hist_method)m, .coarse = methods[m].coarse,
                                .bins = bin_counts[b], .dist = (sb_bin_dist)d, .bin_index = b};
                char name[48];
                snprintf(name, sizeof name, "%s-b%ld-%s", methods[m].name, k.bins,
                         sb_bin_dist_name(k.dist));
                sb_variant *v = &out[n++];
                priv_variant(v, name, methods[m].kernel, &k, m != M_GLOBAL);
                v->group = 1 + d * NBINS + b;
                v->baseline = m == M_GLOBAL;
            }
    return n;
}

static int sum_variants(sb_variant *out, int max)
{
    static const struct {
        const char *name, *kernel;
        hist_method method;
        int coarse;
    } sums[] = {{"global", "sum_global", M_GLOBAL, 1},
                {"block", "sum_block", M_SHARED, 1},
                {"block_coarse", "sum_block", M_SHARED_COARSE, COARSE_FACTOR}};
    int n = 0;
    if (max > 0)
        api_copy(&out[n++]);
    for (size_t s = 0; s < sizeof sums / sizeof sums[0] && n < max; s++) {
        priv_knobs k = {.method = sums[s].method, .coarse = sums[s].coarse, .bins = 1};
        sb_variant *v = &out[n++];
        priv_variant(v, sums[s].name, sums[s].kernel, &k, 0);
        v->group = 1;
        v->baseline = s == 0;
    }
    return n;
}

/* Shared memory a histogram variant's block declares, in bytes. */
static long shared_bytes_of(const priv_knobs *k)
{
    long words = 1; /* the epoch */
    if (k->method == M_SHARED || k->method == M_SHARED_COARSE)
        words += k->bins;
    else if (k->method == M_WARP)
        words += k->bins * WARPS;
    else if (k->method == M_THREAD)
        words += k->bins * BLOCK + BLOCK;
    return 4 * words;
}

static int hist_fits(const sb_variant *v, const sb_device_info *dev, char *why, size_t n)
{
    if (v->role != SB_ROLE_KERNEL)
        return 0;
    priv_knobs k = knobs_of(v);
    long need = shared_bytes_of(&k);
    if (dev->local_mem_bytes == 0 || (uint64_t)need <= dev->local_mem_bytes)
        return 0;
    snprintf(why, n, "its private histogram needs %ld bytes of shared memory per block; the "
                     "device has %llu",
             need, (unsigned long long)dev->local_mem_bytes);
    return -1;
}

static void priv_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = sb_stream_elements(dev);
    p->cols = 1;
}

/* ------------------------------------------------------------ host data */

/* n inputs, or -1 with the reason: room for the last block's indices. */
static long inputs_of(const sb_problem *p, const char *what, char *err, size_t n)
{
    long elems = p->rows * p->cols;
    long most = INT_MAX - (long)BLOCK * COARSE_FACTOR;
    if (elems < 1 || elems > most) {
        snprintf(err, n, "%s: %ld inputs; it takes 1 to %ld", what, elems, most);
        return -1;
    }
    return elems;
}

static void hist_release(void *host)
{
    hist_host *h = host;
    if (!h)
        return;
    for (int d = 0; d < 2; d++) {
        free(h->in[d]);
        for (int b = 0; b < NBINS; b++)
            free(h->want[d][b]);
    }
    free(h->zeros);
    free(h);
}

/* The histograms of one distribution's inputs: the finest by counting,
 * each coarser one (its bins dividing MAX_BINS) by folding it. */
static void reference(hist_host *h, int d)
{
    uint32_t *fine = h->want[d][NBINS - 1];
    memset(fine, 0, MAX_BINS * sizeof *fine);
    for (long i = 0; i < h->n; i++)
        fine[h->in[d][i] % MAX_BINS]++;
    for (int b = 0; b < NBINS - 1; b++) {
        long bins = bin_counts[b];
        memset(h->want[d][b], 0, (size_t)bins * sizeof(uint32_t));
        for (long f = 0; f < MAX_BINS; f++)
            h->want[d][b][f % bins] += fine[f];
    }
}

static int hist_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = inputs_of(p, "histogram", err, n);
    if (elems < 0)
        return -1;
    hist_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    int ok = (h->zeros = calloc(ACC_WORDS(MAX_BINS), sizeof *h->zeros)) != NULL;
    for (int d = 0; d < 2 && ok; d++) {
        ok = (h->in[d] = sb_host_alloc((size_t)elems * 4, err, n)) != NULL;
        for (int b = 0; b < NBINS && ok; b++)
            ok = (h->want[d][b] = sb_host_alloc((size_t)bin_counts[b] * 4, err, n)) != NULL;
    }
    if (!ok) {
        if (!h->zeros)
            snprintf(err, n, "out of host memory");
        hist_release(h);
        return -1;
    }
    sb_random_words(h->in[SB_BINS_UNIFORM], (size_t)elems, seed);
    /* Skewed: random high halves, so the input stays incompressible. */
    sb_random_words(h->in[SB_BINS_SKEWED], (size_t)elems, (uint64_t)seed * 2654435761u + 7);
    for (long i = 0; i < elems; i++)
        h->in[SB_BINS_SKEWED][i] &= SKEW_MASK;
    reference(h, SB_BINS_UNIFORM);
    reference(h, SB_BINS_SKEWED);
    *host = h;
    return 0;
}

static void sum_release(void *host)
{
    sum_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

static int sum_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = inputs_of(p, "sum", err, n);
    if (elems < 0)
        return -1;
    sum_host *h = calloc(1, sizeof *h);
    if (!h || !(h->in = sb_host_alloc((size_t)elems * 4, err, n))) {
        if (!h)
            snprintf(err, n, "out of host memory");
        free(h);
        return -1;
    }
    h->n = elems;
    sb_random_words(h->in, (size_t)elems, seed);
    for (long i = 0; i < elems; i++)
        h->total += h->in[i];
    *host = h;
    return 0;
}

/* ------------------------------------------------------------ plans */

/* The API copy of the n inputs: buffer 0 into buffer 1. */
static void plan_copy(const uint32_t *in, long n, sb_plan *plan)
{
    size_t bytes = (size_t)n * 4;
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = in;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    plan->bytes = 2.0 * (double)bytes;
}

/* The kernel's buffers and arguments: (n, [mask,] in, acc, out), out of
 * `bins` words, the histograms' bin mask among them; the grid covers the
 * inputs at COARSE a thread; the input's coalesced load declared. */
static void plan_kernel(const uint32_t *in, long n, const uint32_t *zeros, const sb_variant *v,
                        int with_mask, sb_plan *plan)
{
    priv_knobs k = knobs_of(v);
    plan->nbuffers = 3;
    plan->buffer[0].bytes = (size_t)n * 4;
    plan->buffer[0].init = in;
    /* Small (at most ACC_WORDS(MAX_BINS)): uploaded, zero, for each variant. */
    plan->buffer[1].bytes = (size_t)ACC_WORDS(k.bins) * 4;
    plan->buffer[1].init = zeros;
    plan->buffer[2].bytes = (size_t)k.bins * 4;
    plan->buffer[2].init = NULL;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)n;
    plan->nargs = 1;
    if (with_mask) {
        plan->arg[1].kind = SB_PLAN_INT;
        plan->arg[1].i = (int32_t)(k.bins - 1);
        plan->nargs = 2;
    }
    for (int i = 0; i < 3; i++) {
        plan->arg[plan->nargs].kind = SB_PLAN_BUFFER;
        plan->arg[plan->nargs++].buffer = i;
    }
    sb_grid_2d(&plan->geometry, v, n, 1, (long)BLOCK * k.coarse, 1);
    plan->bytes = (double)n * 4; /* the inputs: the histogram's few bytes are not the point */
    plan->npatterns = 1;
    plan->pattern[0] = sb_pattern_default();
    plan->pattern[0].space = SB_SPACE_GLOBAL;
    snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "load");
}

/* A second declared access: a warp's 32 consecutive words, in global
 * memory (the merge's atomics to consecutive bins) or shared (per-thread
 * counters, the sum's tree). */
static void plan_dense(sb_plan *plan, sb_space space, const char *label)
{
    plan->npatterns = 2;
    plan->pattern[1] = sb_pattern_default();
    plan->pattern[1].space = space;
    snprintf(plan->pattern_label[1], sizeof plan->pattern_label[1], "%s", label);
}

/* The atomics model's figures for a histogram variant of n inputs. */
static void hist_figures(const priv_knobs *k, long n, sb_plan *plan)
{
    long per_block = (long)BLOCK * k->coarse;
    double distinct = sb_atomic_distinct_addresses(k->bins, k->dist);
    double same = sb_atomic_same_address(k->bins, k->dist);
    double ways = sb_atomic_bank_ways(k->bins, k->dist);
    if (k->method == M_THREAD) {
        /* Each lane its own counter, 32 consecutive words: the model of
           the declared access says the ways. */
        sb_prediction pr;
        distinct = SB_WARP_LANES;
        same = 1;
        ways = sb_predict(&plan->pattern[1], &pr) == 0 ? pr.ways : -1;
    }
    sb_figure_add(plan->figure, &plan->nfigures, "same_address_per_warp", same, "");
    sb_figure_add(plan->figure, &plan->nfigures, "distinct_addresses", distinct, "");
    if (k->method != M_GLOBAL)
        sb_figure_add(plan->figure, &plan->nfigures, "bank_ways", ways, "");
    sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input",
                  k->method == M_GLOBAL
                      ? 1.0
                      : sb_private_atomics_per_input(k->bins, k->dist, per_block, n),
                  "");
}

static int hist_plan(void *host, const sb_problem *p, const sb_variant *v,
                     const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    hist_host *h = host;
    (void)p;
    if (v->role == SB_ROLE_API_COPY) {
        plan_copy(h->in[SB_BINS_UNIFORM], h->n, plan);
        return 0;
    }
    if (hist_fits(v, dev, err, n))
        return -1;
    priv_knobs k = knobs_of(v);
    plan_kernel(h->in[k.dist], h->n, h->zeros, v, 1, plan);
    if (k.method == M_THREAD)
        plan_dense(plan, SB_SPACE_SHARED, "count");
    else if (k.method != M_GLOBAL && k.bins >= SB_WARP_LANES)
        plan_dense(plan, SB_SPACE_GLOBAL, "merge");
    hist_figures(&k, h->n, plan);
    return 0;
}

static int sum_plan(void *host, const sb_problem *p, const sb_variant *v,
                    const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    sum_host *h = host;
    (void)p;
    (void)dev;
    (void)err;
    (void)n;
    if (v->role == SB_ROLE_API_COPY) {
        plan_copy(h->in, h->n, plan);
        return 0;
    }
    priv_knobs k = knobs_of(v);
    plan_kernel(h->in, h->n, h->zeros, v, 0, plan);
    if (k.method == M_GLOBAL) {
        sb_figure_add(plan->figure, &plan->nfigures, "same_address_per_warp", SB_WARP_LANES, "");
        sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input", 1.0, "");
    } else {
        plan_dense(plan, SB_SPACE_SHARED, "tree");
        sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input",
                      sb_private_atomics_per_input(1, SB_BINS_SKEWED, (long)BLOCK * k.coarse,
                                                   h->n),
                      "");
    }
    return 0;
}

/* ------------------------------------------------------------ checks */

static int verify_copy(const uint32_t *in, long n, const uint32_t *out, char *err, size_t en)
{
    long i = sb_first_word_mismatch(out, in, n);
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, en, "copy[%ld] = 0x%08x, expected 0x%08x%s", i, out[i], in[i],
             out[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* Why a published histogram of zeros is wrong in a way of its own. */
static const char *all_zero_note(const uint32_t *out, long bins)
{
    for (long b = 0; b < bins; b++)
        if (out[b] != 0)
            return "";
    return ": every bin is 0, and a launch publishes the histogram of the launch before it "
           "(privatization.cl), so one launch alone leaves zeros";
}

static int hist_verify(void *host, const sb_problem *p, const sb_variant *v,
                       void *const *outputs, char *err, size_t n)
{
    hist_host *h = host;
    (void)p;
    const uint32_t *out = outputs[0];
    if (v->role == SB_ROLE_API_COPY)
        return verify_copy(h->in[SB_BINS_UNIFORM], h->n, out, err, n);
    priv_knobs k = knobs_of(v);
    const uint32_t *want = h->want[k.dist][k.bin_index];
    long b = sb_first_word_mismatch(out, want, k.bins);
    if (b == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "bin %ld of %ld = %u, expected %u%s", b, k.bins, out[b], want[b],
             out[b] == SB_POISON_WORD ? ": never written" : all_zero_note(out, k.bins));
    return -1;
}

static int sum_verify(void *host, const sb_problem *p, const sb_variant *v,
                      void *const *outputs, char *err, size_t n)
{
    sum_host *h = host;
    (void)p;
    const uint32_t *out = outputs[0];
    if (v->role == SB_ROLE_API_COPY)
        return verify_copy(h->in, h->n, out, err, n);
    if (out[0] == h->total)
        return 0;
    snprintf(err, n, "sum = %u, expected %u (modulo 2^32)%s", out[0], h->total,
             out[0] == SB_POISON_WORD ? ": never written" : all_zero_note(out, 1));
    return -1;
}

const sb_experiment sb_exp_histogram = {
    .name = "histogram",
    .family = "privatization",
    .source = "privatization.cl",
    .summary = "histogram into 1..65536 bins, uniform and all in one bin: global atomics "
               "against private copies in shared memory (per block, warp, thread); input GB/s",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 0,
    .test_sizes = "1,20000x1",
    .variants = hist_variants,
    .default_size = priv_default_size,
    .prepare = hist_prepare,
    .release = hist_release,
    .plan = hist_plan,
    .verify = hist_verify,
    .fits = hist_fits,
};

const sb_experiment sb_exp_sum = {
    .name = "sum",
    .family = "privatization",
    .source = "privatization.cl",
    .summary = "sum of 32-bit words: a global atomic per input against per-block partial "
               "sums; input GB/s",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 0,
    .test_sizes = "1,20000x1",
    .variants = sum_variants,
    .default_size = priv_default_size,
    .prepare = sum_prepare,
    .release = sum_release,
    .plan = sum_plan,
    .verify = sum_verify,
};
