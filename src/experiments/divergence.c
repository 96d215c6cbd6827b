/* The control-divergence family (seed 001: minimising control
 * divergence): threads of one warp that take different paths of equal
 * work, which the warp runs one after another.
 *
 *   divergence_split        lane % k against warp_index % k, k = 1..32:
 *                           the same k paths, inside every warp or one
 *                           per warp (the condition's granularity)
 *   divergence_branch       a branch on the data over uniform, sorted and
 *                           random input
 *   divergence_predication  the same branch written so that the compiler
 *                           predicates it (it only chooses constants)
 *                           against the real one, uniform and random input
 *   divergence_loop         loops whose trip count varies per lane,
 *                           uniform, sorted and random: the warp's maximum
 *                           is what it costs, not the mean
 *
 * The kernels are in common/kernels/divergence.cl: one 4-byte word in and
 * one float out per element, and WORK dependent FMAs per path, so that
 * the time is the paths' compute and the memory traffic is the same in
 * every variant.  Each row carries the divergence model's figures
 * (common/divergence_model.h) for its own inputs, on the warp size the
 * device reports; a CPU device gets none of those that need a warp.
 * Slowdowns are against the uniform variant of each group.
 *
 * Size rows x cols: n = rows * cols elements (threads).  Verified bit for
 * bit: the host runs the same FMAs, tabulated once per path and starting
 * value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "divergence_model.h"
#include "dram.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define DIV_BLOCK 256
#define DIV_WARP 32        /* WARP in divergence.cl: the kernels' lane groups */
#define DIV_WORK 1024      /* WORK: FMAs per path */
#define DIV_TRIP_WORK 8    /* TRIP_WORK: FMAs per loop trip */
#define DIV_PATHS 32       /* paths split_by_lane and split_by_warp have code for */
#define DIV_STARTS 256     /* starting values: START(word) takes the word's low 8 bits */
#define DIV_TRIPS 128      /* the loops' mean trip count */
#define TRIP_SHIFT 8       /* loops: the trip count is word >> 8, above the start */
#define DIV_MAX_TRIPS 255  /* the most trips a lane makes: 8 bits above the start's 8 */
#define DIV_MAX_ELEMENTS (1L << 30)

/* What a variant's threads do. */
typedef enum div_kind {
    SPLIT_LANE, /* split_by_lane: path lane % k */
    SPLIT_WARP, /* split_by_warp: path warp_index % k */
    BRANCH,     /* branch_on_key: a real branch on the word's top bit */
    SELECT,     /* select_on_key: the same choice, predicated */
    LOOP        /* loop_trips: word >> 8 trips */
} div_kind;

/* The inputs a variant reads (branches and loops). */
typedef enum div_input { INPUT_RANDOM, INPUT_SORTED, INPUT_UNIFORM, INPUT_KINDS } div_input;

typedef struct divergence_knobs {
    div_kind kind;
    int k;           /* splits: the paths, a power of two up to DIV_PATHS */
    div_input input; /* branches and loops */
} divergence_knobs;
SB_KNOBS(divergence_knobs)

/* One size's inputs and the host's results to check against. */
typedef struct divergence_host {
    long n;
    uint32_t *input[INPUT_KINDS];   /* splits: only the random one */
    float *path_result;             /* [DIV_PATHS][DIV_STARTS]: WORK FMAs of path p */
    float *trip_result;             /* loops: [DIV_MAX_TRIPS + 1][DIV_STARTS] after t trips */
} divergence_host;

/* ------------------------------------------------------------ arithmetic */

/* Path p's constants and a word's starting value, as divergence.cl has
 * them (every one exact in binary). */
static float path_a(int p)
{
    return 1.0f - (float)(p + 1) / 16384.0f;
}

static float path_b(int p)
{
    return (float)(p + 1) / 64.0f;
}

static float start_of(uint32_t word)
{
    return 1.0f + (float)(word & (DIV_STARTS - 1)) * (1.0f / DIV_STARTS);
}

static float chain(float x, int p, int n)
{
    float a = path_a(p), b = path_b(p);
    for (int j = 0; j < n; j++)
        x = fmaf(x, a, b);
    return x;
}

/* Which starting values the words use, so that only those are tabulated. */
static void starts_used(const uint32_t *w, long n, unsigned char used[DIV_STARTS])
{
    memset(used, 0, DIV_STARTS);
    for (long i = 0; i < n; i++)
        used[w[i] & (DIV_STARTS - 1)] = 1;
}

/* path_result for paths 0..paths-1 at the used starts. */
static void tabulate_paths(divergence_host *h, int paths, const unsigned char *used)
{
#pragma omp parallel for schedule(dynamic)
    for (int e = 0; e < paths * DIV_STARTS; e++) {
        int p = e / DIV_STARTS, s = e % DIV_STARTS;
        if (used[s])
            h->path_result[e] = chain(start_of((uint32_t)s), p, DIV_WORK);
    }
}

/* trip_result[t][s]: path 0's chain after t trips, for every t at once. */
static void tabulate_trips(divergence_host *h, const unsigned char *used)
{
#pragma omp parallel for schedule(dynamic)
    for (int s = 0; s < DIV_STARTS; s++) {
        if (!used[s])
            continue;
        float x = start_of((uint32_t)s);
        for (int t = 0; t <= DIV_MAX_TRIPS; t++) {
            h->trip_result[(long)t * DIV_STARTS + s] = x;
            x = chain(x, 0, DIV_TRIP_WORK);
        }
    }
}

/* ------------------------------------------------------------ inputs */

static int by_word(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* xorshift64*, for the shuffle of the trip counts. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Random trip counts in 1..DIV_MAX_TRIPS whose mean is exactly DIV_TRIPS
 * (pairs t and 2 x DIV_TRIPS - t, shuffled apart; an odd last lane makes
 * DIV_TRIPS), above the random words' starts. */
static void random_trips(uint32_t *w, long n, uint64_t seed)
{
    for (long i = 0; i + 1 < n; i += 2) {
        uint32_t t = 1 + (w[i] >> TRIP_SHIFT) % DIV_MAX_TRIPS;
        w[i] = (w[i] & (DIV_STARTS - 1)) | t << TRIP_SHIFT;
        w[i + 1] = (w[i + 1] & (DIV_STARTS - 1)) | (2 * DIV_TRIPS - t) << TRIP_SHIFT;
    }
    if (n % 2)
        w[n - 1] = (w[n - 1] & (DIV_STARTS - 1)) | DIV_TRIPS << TRIP_SHIFT;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull | 1;
    for (long i = n - 1; i > 0; i--) {
        long j = (long)(next_random(&s) % (uint64_t)(i + 1));
        uint32_t ti = w[i] >> TRIP_SHIFT, tj = w[j] >> TRIP_SHIFT;
        w[i] = (w[i] & (DIV_STARTS - 1)) | tj << TRIP_SHIFT;
        w[j] = (w[j] & (DIV_STARTS - 1)) | ti << TRIP_SHIFT;
    }
}

/* The sorted and uniform inputs from the random one: for branches the
 * top bit cleared (every lane path 0), for loops DIV_TRIPS everywhere. */
static void derived_inputs(divergence_host *h, int loop)
{
    long n = h->n;
    memcpy(h->input[INPUT_SORTED], h->input[INPUT_RANDOM], (size_t)n * sizeof(uint32_t));
    qsort(h->input[INPUT_SORTED], (size_t)n, sizeof(uint32_t), by_word);
    for (long i = 0; i < n; i++) {
        uint32_t w = h->input[INPUT_RANDOM][i];
        h->input[INPUT_UNIFORM][i] =
            loop ? (w & (DIV_STARTS - 1)) | DIV_TRIPS << TRIP_SHIFT : w & 0x7fffffffu;
    }
}

static void divergence_release(void *host)
{
    divergence_host *h = host;
    if (!h)
        return;
    for (int i = 0; i < INPUT_KINDS; i++)
        free(h->input[i]);
    free(h->path_result);
    free(h->trip_result);
    free(h);
}

/* The inputs of one experiment: random words (splits), with their sorted
 * and uniform versions (branches), as trip counts (loops); and the
 * results of the paths they take. */
static int divergence_prepare(const sb_problem *p, unsigned seed, void **host, div_kind kind,
                              char *err, size_t n)
{
    long elems = p->rows * p->cols;
    if (elems < 1 || elems > DIV_MAX_ELEMENTS) {
        snprintf(err, n, "divergence: %ld elements is out of range; 1 to %ld", elems,
                 DIV_MAX_ELEMENTS);
        return -1;
    }
    divergence_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    int inputs = kind == SPLIT_LANE ? 1 : INPUT_KINDS, loop = kind == LOOP;
    size_t bytes = (size_t)elems * sizeof(uint32_t);
    int ok = 1;
    for (int i = 0; i < inputs && ok; i++)
        ok = (h->input[i] = sb_host_alloc(bytes, err, n)) != NULL;
    size_t table = loop ? (size_t)(DIV_MAX_TRIPS + 1) * DIV_STARTS : (size_t)DIV_PATHS * DIV_STARTS;
    float **result = loop ? &h->trip_result : &h->path_result;
    if (!ok || !(*result = sb_host_alloc(table * sizeof(float), err, n))) {
        divergence_release(h);
        return -1;
    }
    sb_random_words(h->input[INPUT_RANDOM], (size_t)elems, seed);
    if (loop)
        random_trips(h->input[INPUT_RANDOM], elems, seed);
    if (inputs > 1)
        derived_inputs(h, loop);
    unsigned char used[DIV_STARTS];
    starts_used(h->input[INPUT_RANDOM], elems, used);
    if (loop)
        tabulate_trips(h, used);
    else
        tabulate_paths(h, kind == SPLIT_LANE ? DIV_PATHS : 2, used);
    *host = h;
    return 0;
}

static int split_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    return divergence_prepare(p, seed, host, SPLIT_LANE, err, n);
}

static int branch_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    return divergence_prepare(p, seed, host, BRANCH, err, n);
}

static int loop_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    return divergence_prepare(p, seed, host, LOOP, err, n);
}

static void divergence_default_size(const sb_device_info *dev, sb_problem *p)
{
    /* On a GPU enough warps to fill every multiprocessor many times over
       and a uniform launch of a few tenths of a millisecond; on a CPU a
       suite of seconds. */
    p->rows = dev->is_gpu ? 1L << 22 : 1L << 14;
    p->cols = 1;
}

/* ------------------------------------------------------------ variants */

/* What every variant shares: the definitions, so that one program serves
 * the whole experiment. */
static sb_variant *add_variant(sb_variant *out, int *n, int max, const char *name,
                               const divergence_knobs *k, int group, int baseline)
{
    static const char *const kernels[] = {[SPLIT_LANE] = "split_by_lane",
                                          [SPLIT_WARP] = "split_by_warp",
                                          [BRANCH] = "branch_on_key",
                                          [SELECT] = "select_on_key", [LOOP] = "loop_trips"};
    if (*n >= max)
        return NULL;
    sb_variant *v = &out[(*n)++];
    sb_variant_init(v, name, kernels[k->kind], DIV_BLOCK, 1, 1);
    sb_variant_define(v, "WORK=%d", DIV_WORK);
    sb_variant_define(v, "TRIP_WORK=%d", DIV_TRIP_WORK);
    sb_variant_define(v, "WARP=%d", DIV_WARP);
    set_knobs(v, k);
    v->group = group;
    v->baseline = baseline;
    return v;
}

static const char *const input_names[] = {[INPUT_RANDOM] = "random", [INPUT_SORTED] = "sorted",
                                          [INPUT_UNIFORM] = "uniform"};

/* lane-k1..lane-k32, then warp-k1..warp-k32; lane-k1 (one path) the base. */
static int split_variants(sb_variant *out, int max)
{
    int n = 0;
    for (int by_warp = 0; by_warp < 2; by_warp++)
        for (int k = 1; k <= DIV_PATHS; k *= 2) {
            char name[16];
            snprintf(name, sizeof name, "%s-k%d", by_warp ? "warp" : "lane", k);
            divergence_knobs kn = {by_warp ? SPLIT_WARP : SPLIT_LANE, k, INPUT_RANDOM};
            add_variant(out, &n, max, name, &kn, 0, !by_warp && k == 1);
        }
    return n;
}

/* uniform (the base), sorted, random, of one kernel. */
static int input_variants(sb_variant *out, int max, div_kind kind)
{
    int n = 0;
    static const div_input order[] = {INPUT_UNIFORM, INPUT_SORTED, INPUT_RANDOM};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        divergence_knobs kn = {kind, 0, order[i]};
        add_variant(out, &n, max, input_names[order[i]], &kn, 0, order[i] == INPUT_UNIFORM);
    }
    return n;
}

static int branch_variants(sb_variant *out, int max)
{
    return input_variants(out, max, BRANCH);
}

static int loop_variants(sb_variant *out, int max)
{
    return input_variants(out, max, LOOP);
}

/* The real branch and the predicated one, each over uniform input (its
 * group's base) and random input. */
static int predication_variants(sb_variant *out, int max)
{
    int n = 0;
    for (int predicated = 0; predicated < 2; predicated++)
        for (int random = 0; random < 2; random++) {
            char name[32];
            snprintf(name, sizeof name, "%s-%s", predicated ? "predicated" : "branch",
                     random ? "random" : "uniform");
            divergence_knobs kn = {predicated ? SELECT : BRANCH, 0,
                                   random ? INPUT_RANDOM : INPUT_UNIFORM};
            add_variant(out, &n, max, name, &kn, predicated, !random);
        }
    return n;
}

/* ------------------------------------------------------------ the model */

/* What lane i does under a variant, for the model and the check. */
typedef struct lane_ctx {
    const divergence_knobs *k;
    const uint32_t *word;
} lane_ctx;

static int path_of(const divergence_knobs *k, const uint32_t *word, long i)
{
    switch (k->kind) {
    case SPLIT_LANE: return (int)((i % DIV_WARP) & (k->k - 1));
    case SPLIT_WARP: return (int)((i / DIV_WARP) & (k->k - 1));
    case BRANCH: return (int)(word[i] >> 31);
    case SELECT: return 0; /* the sides only choose constants: one path for every lane */
    case LOOP: return 0;
    }
    return 0;
}

static long lane_path(const void *ctx, long i)
{
    const lane_ctx *c = ctx;
    return path_of(c->k, c->word, i);
}

static long lane_trips(const void *ctx, long i)
{
    const lane_ctx *c = ctx;
    return (long)(c->word[i] >> TRIP_SHIFT);
}

/* The model's figures for the variant on this device: the warp it groups
 * by, what each warp runs, and the predicted slowdown where it has one. */
static int model_figures(const divergence_host *h, const divergence_knobs *k,
                         const uint32_t *word, const sb_device_info *dev, sb_plan *plan,
                         char *err, size_t n)
{
    sb_lane_shape shape = {h->n, DIV_BLOCK, sb_divergence_warp(dev)};
    lane_ctx c = {k, word};
    sb_divergence d;
    int loop = k->kind == LOOP;
    if ((loop ? sb_divergence_loop(&shape, lane_trips, &c, &d)
              : sb_divergence_branch(&shape, lane_path, &c, &d))) {
        snprintf(err, n, "divergence: the model refused %ld lanes", h->n);
        return -1;
    }
    sb_figure *f = plan->figure;
    int *nf = &plan->nfigures;
    sb_figure_add(f, nf, "warp_size", d.warp, "lanes");
    if (k->kind == SPLIT_LANE || k->kind == SPLIT_WARP)
        sb_figure_add(f, nf, "split_paths", k->k, "");
    if (loop) {
        sb_figure_add(f, nf, "mean_trips", d.mean_trips, "");
        if (d.predicts)
            sb_figure_add(f, nf, "max_trips", d.max_trips, "");
        sb_figure_add(f, nf, "work_per_trip", DIV_TRIP_WORK, "FMA");
    } else {
        if (d.predicts)
            sb_figure_add(f, nf, "paths_per_warp", d.paths_per_warp, "");
        sb_figure_add(f, nf, "work_per_path", DIV_WORK, "FMA");
    }
    if (d.predicts)
        sb_figure_add(f, nf, "predicted_slowdown", d.slowdown, "x");
    return 0;
}

/* ------------------------------------------------------------ plan */

static const uint32_t *input_of(const divergence_host *h, const divergence_knobs *k)
{
    return k->kind == SPLIT_LANE || k->kind == SPLIT_WARP ? h->input[INPUT_RANDOM]
                                                          : h->input[k->input];
}

/* Every kernel's two accesses, the same in every variant: each thread
 * below n loads its word (the loops' trip count is in it: no other load)
 * before its path and stores its float after the paths have joined, 32
 * consecutive elements a warp; the threads past n (the last block's)
 * return before either, and the lanes below n of the last warp make a
 * partial request.  Not what the variants are about: the paths are. */
static void divergence_declare(sb_plan *plan, long n)
{
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, (int)sizeof(uint32_t));
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0, 1, 0}, n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, dense, 0, 1, 0}, n, 1);
}

static int divergence_plan(void *host, const sb_problem *p, const sb_variant *v,
                           const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    divergence_host *h = host;
    (void)p;
    divergence_knobs k = knobs_of(v);
    const uint32_t *word = input_of(h, &k);
    size_t bytes = (size_t)h->n * sizeof(uint32_t);
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = word;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    int split = k.kind == SPLIT_LANE || k.kind == SPLIT_WARP, a = 0;
    plan->arg[a].kind = SB_PLAN_INT;
    plan->arg[a++].i = (int32_t)h->n;
    if (split) {
        plan->arg[a].kind = SB_PLAN_INT;
        plan->arg[a++].i = k.k;
    }
    for (int b = 0; b < 2; b++) {
        plan->arg[a].kind = SB_PLAN_BUFFER;
        plan->arg[a++].buffer = b;
    }
    plan->nargs = a;
    sb_grid_2d(&plan->geometry, v, h->n, 1, DIV_BLOCK, 1);
    plan->bytes = 2.0 * (double)bytes;
    double fmas = k.kind == LOOP ? (double)DIV_TRIPS * DIV_TRIP_WORK : DIV_WORK;
    plan->flops = 2.0 * fmas * (double)h->n;
    plan->intensity = sb_intensity(plan->flops, plan->bytes);
    divergence_declare(plan, h->n);
    return model_figures(h, &k, word, dev, plan, err, n);
}

/* ------------------------------------------------------------ check */

/* What element i must be, bit for bit. */
static float want_of(const divergence_host *h, const divergence_knobs *k, const uint32_t *word,
                     long i)
{
    uint32_t start = word[i] & (DIV_STARTS - 1);
    if (k->kind == LOOP)
        return h->trip_result[(long)(word[i] >> TRIP_SHIFT) * DIV_STARTS + start];
    int path = k->kind == SELECT ? (int)(word[i] >> 31) : path_of(k, word, i);
    return h->path_result[(long)path * DIV_STARTS + start];
}

typedef struct div_scan {
    const divergence_host *h;
    const divergence_knobs *k;
    const uint32_t *word;
    const float *out;
} div_scan;

static long scan_elements(const void *ctx, long begin, long end)
{
    const div_scan *s = ctx;
    for (long i = begin; i < end; i++) {
        float want = want_of(s->h, s->k, s->word, i);
        if (memcmp(&want, &s->out[i], sizeof want) != 0)
            return i;
    }
    return SB_NO_MISMATCH;
}

static int divergence_verify(void *host, const sb_problem *p, const sb_variant *v,
                             void *const *outputs, char *err, size_t n)
{
    divergence_host *h = host;
    (void)p;
    divergence_knobs k = knobs_of(v);
    div_scan s = {h, &k, input_of(h, &k), outputs[0]};
    long i = sb_first_mismatch(h->n, SB_SCAN_GRAIN, scan_elements, &s);
    if (i == SB_NO_MISMATCH)
        return 0;
    float want = want_of(h, &k, s.word, i);
    uint32_t wb, gb;
    memcpy(&wb, &want, 4);
    memcpy(&gb, &s.out[i], 4);
    snprintf(err, n, "out[%ld] = %g (0x%08x), expected %g (0x%08x)%s", i, s.out[i], gb, want,
             wb, gb == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* ------------------------------------------------------------ the experiments */

#define DIVERGENCE_COMMON                                                                      \
    .family = "divergence", .source = "divergence.cl", .quantity = SB_QUANTITY_ELEMENT,        \
    .size_kind = SB_SIZE_ELEMENTS, .in_default = 0, .test_sizes = "1,4097x1",                  \
    .default_size = divergence_default_size, .release = divergence_release,                    \
    .plan = divergence_plan, .verify = divergence_verify

/* The split's plot: the slowdown against the paths k, the model dashed. */
static const sb_plot_offer split_plots[] = {
    {.kind = SB_PLOT_FIGURE,
     .name = "paths",
     .title = "slowdown against the paths k the threads are split into; dashed: the divergence "
              "model's prediction",
     .x = "split_paths",
     .model = "predicted_slowdown",
     .extra = "paths_per_warp",
     .xlabel = "k: paths the threads are split into (lane % k: k paths per warp)",
     .ylabel = "slowdown (x): median time / the one-path base row median time",
     .columns = "paths k, measured slowdown, the model's predicted slowdown ('?': no warp, no "
                "prediction), the model's paths per warp"},
    {0},
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule divergence_split_lessons[] = {
    {.kind = SB_LESSON_SPLIT, .tried = "lane-k", .against = "warp-k"},
    {0},
};

const sb_experiment sb_exp_divergence_split = {
    .name = "divergence_split",
    .summary = "k = 1..32 paths of equal work chosen by lane % k (every warp diverges) against "
               "warp_index % k (none does); ns per element, slowdown against one path",
    .variants = split_variants,
    .prepare = split_prepare,
    DIVERGENCE_COMMON,
    .headline = {SB_HEADLINE_WORST},
    .plots = split_plots,
    .lessons = divergence_split_lessons,
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule divergence_branch_lessons[] = {
    {.kind = SB_LESSON_FOLLOW, .rows = {"random", "sorted"},
     .base = "the uniform input", .why = "the distinct paths per warp"},
    {.kind = SB_LESSON_PAIR, .tried = "sorted",
     .against = "random", .what = "sorting the input"},
    {0},
};

const sb_experiment sb_exp_divergence_branch = {
    .name = "divergence_branch",
    .summary = "a two-way branch on the input over uniform, sorted and random input; ns per "
               "element, slowdown against uniform",
    .variants = branch_variants,
    .prepare = branch_prepare,
    DIVERGENCE_COMMON,
    .headline = {SB_HEADLINE_WORST},
    .lessons = divergence_branch_lessons,
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule divergence_predication_lessons[] = {
    {.kind = SB_LESSON_FOLLOW,
     .rows = {"branch-random", "predicated-random"}, .base = "its uniform input",
     .why = "the paths per warp, one where the sides only choose constants"},
    {.kind = SB_LESSON_PAIR, .tried = "predicated-random",
     .against = "branch-random", .what = "letting the compiler predicate the branch"},
    {0},
};

const sb_experiment sb_exp_divergence_predication = {
    .name = "divergence_predication",
    .summary = "the same branch with each side its own loop, against one that only chooses "
               "constants (predicated), uniform and random input",
    .variants = predication_variants,
    .prepare = branch_prepare,
    DIVERGENCE_COMMON,
    .headline = {SB_HEADLINE_WORST},
    .lessons = divergence_predication_lessons,
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule divergence_loop_lessons[] = {
    {.kind = SB_LESSON_FOLLOW, .rows = {"random", "sorted"},
     .base = "the uniform loop", .why = "each warp's longest trip count over the mean"},
    {.kind = SB_LESSON_PAIR, .tried = "sorted", .against = "random",
     .what = "sorting the trip counts"},
    {0},
};

const sb_experiment sb_exp_divergence_loop = {
    .name = "divergence_loop",
    .summary = "loops of 128 trips on average, the same in every lane, sorted or random per "
               "lane: a warp runs its longest lane's; slowdown against uniform",
    .variants = loop_variants,
    .prepare = loop_prepare,
    DIVERGENCE_COMMON,
    .headline = {SB_HEADLINE_WORST},
    .lessons = divergence_loop_lessons,
};
