/* The shared/local-memory (bank) family (seeds 000 and 002):
 * stride sweeps for 4-, 8- and 16-byte elements, broadcast and several
 * lanes on one address, and row and column walks of [32][32], [32][33]
 * and an XOR-swizzled [32][32].
 *
 * Each thread repeats its access ITERS times inside the kernel (see
 * common/kernels/access_shared.cl), so the launch time is shared-memory time; the
 * figure is the time one multiprocessor spends per warp-wide access, and
 * the slowdown column compares each variant with the conflict-free one of
 * its element size and direction.  The access is described once, as its
 * shared_knobs; definitions and the model's pattern are both made from it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define BLOCK 256        /* threads per block: 8 warps */
#define WARPS (BLOCK / SB_WARP_LANES)
#define ITERS 1024       /* accesses per thread: enough for shared memory to dominate */
#define UNROLL 8         /* as UNROLL in access_shared.cl */
#define TILE 32
#define IN_WORDS 16384   /* 4-byte words of input: more than any variant's buffer */

/* WALK, as in the kernel: a linear access, or a row or column of a tile. */
typedef enum shared_walk { WALK_LINEAR, WALK_ROW, WALK_COLUMN } shared_walk;
typedef enum shared_dir { DIR_LOAD, DIR_STORE } shared_dir;

/* One declared access: the single source of definitions and pattern. */
typedef struct shared_knobs {
    int word;         /* WORD: bytes per element */
    int stride;       /* STRIDE (linear) */
    int same;         /* SAME (linear) */
    shared_walk walk; /* WALK */
    int pad;          /* PAD (tile walks) */
    bool swizzle;     /* SWIZZLE (tile walks) */
    shared_dir dir;   /* shared_load or shared_store */
} shared_knobs;
SB_KNOBS(shared_knobs)

typedef struct shared_host {
    long threads;
    uint32_t *in; /* IN_WORDS random words */
} shared_host;

static shared_knobs access_linear(int word, int stride, int same, shared_dir dir)
{
    shared_knobs a = {.word = word, .stride = stride, .same = same, .walk = WALK_LINEAR,
                      .dir = dir};
    return a;
}

static long shift_of(const shared_knobs *a)
{
    return 128 / a->word;
}

/* SLOT of access_shared.cl: the element lane `lane` of warp `warp` of a block takes. */
static long slot_of(const shared_knobs *a, int lane, int warp)
{
    if (a->walk == WALK_LINEAR)
        return (long)(lane / a->same) * a->stride;
    int r = a->walk == WALK_ROW ? warp : lane;
    int c = a->walk == WALK_ROW ? lane : warp;
    if (a->swizzle)
        c ^= r & (TILE - 1);
    return (long)r * (TILE + a->pad) + c;
}

/* Elements of the shared buffer: the furthest slot any lane of any warp
   takes, plus the unrolled accesses' shifts, rounded up to whole warps so
   that the fill and the dump move whole, aligned warps' worth (the dump's
   stores of block b start b x SPAN elements in). */
static long span_of(const shared_knobs *a)
{
    long last = 0;
    for (int w = 0; w < WARPS; w++)
        for (int l = 0; l < SB_WARP_LANES; l++) {
            long s = slot_of(a, l, w);
            if (s > last)
                last = s;
        }
    long span = last + 1 + (UNROLL - 1) * shift_of(a);
    return (span + SB_WARP_LANES - 1) / SB_WARP_LANES * SB_WARP_LANES;
}

static int add_access(sb_variant *out, int n, int max, const char *name, const shared_knobs *a,
                      int in_default, int group, int baseline)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, a->dir == DIR_STORE ? "shared_store" : "shared_load", BLOCK, 1, 1);
    sb_variant_define(v, "WORD=%d", a->word);
    sb_variant_define(v, "ITERS=%d", ITERS);
    sb_variant_define(v, "SPAN=%ld", span_of(a));
    if (a->walk == WALK_LINEAR) {
        sb_variant_define(v, "STRIDE=%d", a->stride);
        if (a->same != 1)
            sb_variant_define(v, "SAME=%d", a->same);
    } else {
        sb_variant_define(v, "WALK=%d", a->walk);
        sb_variant_define(v, "TILE=%d", TILE);
        sb_variant_define(v, "PAD=%d", a->pad);
        if (a->swizzle)
            sb_variant_define(v, "SWIZZLE=1");
    }
    set_knobs(v, a);
    v->in_default = in_default;
    v->group = group;
    v->baseline = baseline;
    return n + 1;
}

static sb_pattern pattern_of(const shared_knobs *a)
{
    sb_pattern p = sb_pattern_default();
    p.space = SB_SPACE_SHARED;
    p.word_bytes = a->word;
    if (a->walk == WALK_LINEAR) {
        p.stride = a->stride;
        p.same = a->same;
    } else {
        p.tile_rows = TILE;
        p.tile_cols = TILE;
        p.pad = a->pad;
        p.swizzle = a->swizzle;
        p.walk = a->walk == WALK_ROW ? SB_WALK_ROW : SB_WALK_COLUMN;
        p.walk_index = 0; /* warp 0; warp w walks row or column w at the same cost */
    }
    return p;
}

/* ----------------------------------------------------------- variants */

static const char *const dir_name[] = {[DIR_LOAD] = "load", [DIR_STORE] = "store"};

static int is_default_stride(int word, int stride, shared_dir dir)
{
    static const int w4[] = {1, 2, 3, 4, 8, 16, 32, 64};
    if (word == 4) {
        for (size_t i = 0; i < sizeof w4 / sizeof w4[0]; i++)
            if (w4[i] == stride)
                return 1;
        return 0;
    }
    return dir == DIR_LOAD && (stride == 1 || stride == 2 || stride == 4 || stride == 8);
}

static int stride_variants(sb_variant *out, int max)
{
    static const int words[] = {4, 8, 16};
    int n = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (shared_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
            for (int s = 1; s <= 64; s++) {
                shared_knobs a = access_linear(words[w], s, 1, dir);
                char name[48];
                snprintf(name, sizeof name, "w%d-s%d-%s", words[w], s, dir_name[dir]);
                n = add_access(out, n, max, name, &a, is_default_stride(words[w], s, dir),
                               (int)w * 2 + dir, s == 1);
            }
    return n;
}

/* Groups of `same` lanes on one word: groups one bank apart (stride 1)
   share nothing but their word, groups 32 words apart all fall in bank 0,
   where only the distinct words (32 / same of them) serialise. */
static int broadcast_variants(sb_variant *out, int max)
{
    int n = 0;
    for (shared_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
        for (int stride = 1; stride <= 32; stride += 31)
            for (int same = 1; same <= 32; same *= 2) {
                if (same == 32 && stride != 1)
                    continue; /* one word: the stride does not matter */
                shared_knobs a = access_linear(4, stride, same, dir);
                char name[48];
                if (same == 32)
                    snprintf(name, sizeof name, "w4-broadcast-%s", dir_name[dir]);
                else
                    snprintf(name, sizeof name, "w4-same%d-s%d-%s", same, stride, dir_name[dir]);
                n = add_access(out, n, max, name, &a, 1, dir, same == 1 && stride == 1);
            }
    return n;
}

static int tile_variants(sb_variant *out, int max)
{
    static const struct {
        const char *name;
        int pad;
        bool swizzle;
    } tiles[] = {{"32x32", 0, 0}, {"32x33", 1, 0}, {"32x32-xor", 0, 1}};
    int n = 0;
    for (shared_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
        for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
            for (shared_walk walk = WALK_ROW; walk <= WALK_COLUMN; walk++) {
                shared_knobs a = {.word = 4, .stride = 1, .same = 1, .walk = walk,
                                  .pad = tiles[t].pad, .swizzle = tiles[t].swizzle, .dir = dir};
                char name[48];
                snprintf(name, sizeof name, "%s-%s-%s", tiles[t].name,
                         walk == WALK_ROW ? "row" : "column", dir_name[dir]);
                n = add_access(out, n, max, name, &a, 1, dir, t == 0 && walk == WALK_ROW);
            }
    return n;
}

/* The closing summary's fix for a tile walk's conflict: the same walk of
 * the tile padded to [32][33], whose columns fall in distinct banks. */
static int tile_fix(const char *variant, char *fixed, size_t n, const char **how)
{
    static const char plain[] = "32x32-";
    if (strncmp(variant, plain, sizeof plain - 1) != 0 || strstr(variant, "-xor-"))
        return -1;
    int w = snprintf(fixed, n, "32x33-%s", variant + sizeof plain - 1);
    *how = "padding [32][33]";
    return w >= 0 && (size_t)w < n ? 0 : -1;
}

/* -------------------------------------------------- sizes and host data */

/* rows x cols threads. */
static void shared_default_size(const sb_device_info *dev, sb_problem *p)
{
    if (!dev->is_gpu) {
        /* Two blocks: enough to check, quick on a CPU. */
        p->rows = 1;
        p->cols = 512;
        return;
    }
    /* Eight waves of full multiprocessors (2048 threads each): long enough
       to time even the conflict-free 4-byte loads, and the last, partial
       wave matters little. */
    p->rows = 8L * (dev->compute_units > 0 ? dev->compute_units : 132);
    p->cols = 2048;
}

static int shared_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    shared_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->threads = p->rows * p->cols;
    h->in = sb_host_alloc(IN_WORDS * sizeof *h->in, err, n);
    if (!h->in) {
        free(h);
        return -1;
    }
    sb_random_words(h->in, IN_WORDS, seed);
    *host = h;
    return 0;
}

static void shared_release(void *host)
{
    shared_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

/* The global reads shared_store makes of its slots' values, before the
   barrier: UNROLL per warp, each warp its own slot (a tile's row or column
   w, whose alignment in global memory differs by warp). */
static void declare_slot_loads(sb_plan *plan, const shared_knobs *a, long blocks)
{
    for (int w = 0; w < WARPS; w++) {
        sb_pattern p = pattern_of(a);
        p.space = SB_SPACE_GLOBAL;
        if (a->walk != WALK_LINEAR)
            p.walk_index = w;
        sb_plan_declare(plan, &(sb_access){"slot load", SB_ACCESS_LOAD, p,
                                           (double)blocks * UNROLL, w == 0 ? UNROLL : 0, 0});
    }
}

/* Every access of shared_load / shared_store, per launch: the fill of the
 * buffer (SPAN elements per block, read from global memory and stored),
 * the ITERS accesses of every warp launched (each warp's at the cost of
 * warp 0's, which the model is given: a warp's row or column of a tile
 * sits in the banks as warp 0's does), and the output: one element per
 * thread (loads), or the block's buffer loaded back and dumped (stores).
 * The loops of the fill, the dump and the ITERS are unrolled as the
 * compiler likes. */
static void declare_accesses(sb_plan *plan, const shared_knobs *a, long blocks, long threads)
{
    bool store = a->dir == DIR_STORE;
    long span = span_of(a);
    sb_pattern gdense = sb_dense(SB_SPACE_GLOBAL, a->word);
    sb_pattern sdense = sb_dense(SB_SPACE_SHARED, a->word);
    sb_plan_declare_walk(plan, &(sb_access){"fill load", SB_ACCESS_LOAD, gdense, 0,
                                            SB_SITES_COMPILER, 0}, span, (double)blocks);
    sb_plan_declare_walk(plan, &(sb_access){"fill store", SB_ACCESS_STORE, sdense, 0,
                                            SB_SITES_COMPILER, 0}, span, (double)blocks);
    if (store)
        declare_slot_loads(plan, a, blocks);
    sb_plan_declare(plan, &(sb_access){store ? "store" : "load",
                                       store ? SB_ACCESS_STORE : SB_ACCESS_LOAD, pattern_of(a),
                                       (double)blocks * WARPS * ITERS, SB_SITES_COMPILER, 1});
    if (!store) {
        sb_plan_declare_walk(plan, &(sb_access){"out store", SB_ACCESS_STORE, gdense, 0, 1, 0},
                             threads, 1);
        return;
    }
    sb_plan_declare_walk(plan, &(sb_access){"dump load", SB_ACCESS_LOAD, sdense, 0,
                                            SB_SITES_COMPILER, 0}, span, (double)blocks);
    sb_plan_declare_walk(plan, &(sb_access){"dump store", SB_ACCESS_STORE, gdense, 0,
                                            SB_SITES_COMPILER, 0}, span, (double)blocks);
}

static int shared_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    shared_host *h = host;
    (void)p;
    shared_knobs a = knobs_of(v);
    long span = span_of(&a);
    size_t word = (size_t)a.word;
    if (span * (long)word > (long)IN_WORDS * 4) {
        snprintf(err, n, "a shared buffer of %ld elements exceeds the input", span);
        return -1;
    }
    if (dev->local_mem_bytes && (uint64_t)span * word > dev->local_mem_bytes) {
        snprintf(err, n, "needs %ld bytes of shared memory per block; the device has %llu",
                 span * (long)word, (unsigned long long)dev->local_mem_bytes);
        return -1;
    }
    long blocks = (h->threads + BLOCK - 1) / BLOCK;
    plan->nbuffers = 2;
    plan->buffer[0].bytes = (size_t)span * word;
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = a.dir == DIR_STORE ? (size_t)blocks * (size_t)span * word
                                    : (size_t)h->threads * word;
    plan->buffer[1].init = NULL;
    plan->nargs = 4;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)h->threads;
    plan->arg[1].kind = SB_PLAN_INT;
    plan->arg[1].i = 0; /* `zero`: keeps the repeated access in the loop */
    plan->arg[2].kind = SB_PLAN_BUFFER;
    plan->arg[2].buffer = 0;
    plan->arg[3].kind = SB_PLAN_BUFFER;
    plan->arg[3].buffer = 1;
    sb_grid_2d(&plan->geometry, v, h->threads, 1, BLOCK, 1);
    /* Every warp launched repeats the access, the last block's extra
       threads included; the fill and the dump are a few accesses more. */
    plan->accesses = (double)blocks * WARPS * ITERS;
    declare_accesses(plan, &a, blocks, h->threads);
    return 0;
}

static const char *const component = "xyzw";

/* What a block's outputs must be depends on the thread's place in its
 * block and not on the block: each check computes one block's worth once
 * and compares the output, every block, with it, in the output's order. */

/* Loads: the sum thread i of a block (lane i % 32 of warp i / 32) reads
   from its slot and the UNROLL - 1 after it, ITERS / UNROLL times. */
static uint32_t load_want(const shared_host *h, const shared_knobs *a, int i, int c)
{
    int per = a->word / 4;
    long slot = slot_of(a, i % SB_WARP_LANES, i / SB_WARP_LANES), shift = shift_of(a);
    uint32_t sum = 0;
    for (int u = 0; u < UNROLL; u++)
        sum += h->in[(slot + u * shift) * per + c];
    return (uint32_t)(ITERS / UNROLL) * sum;
}

static int verify_load(const shared_host *h, const shared_knobs *a, const uint32_t *out,
                       char *err, size_t n)
{
    int per = a->word / 4;
    uint32_t want[BLOCK * 4];
    for (int i = 0; i < BLOCK; i++)
        for (int c = 0; c < per; c++)
            want[i * per + c] = load_want(h, a, i, c);
    long at = sb_first_periodic_mismatch(out, want, (long)BLOCK * per, h->threads * per);
    if (at == SB_NO_MISMATCH)
        return 0;
    long g = at / per;
    int c = (int)(at % per);
    char comp[4] = "";
    if (per > 1)
        snprintf(comp, sizeof comp, ".%c", component[c]);
    snprintf(err, n, "out[%ld]%s = 0x%08x, expected 0x%08x (%d times the sum of slot %ld and "
                     "the %d after it, %ld elements apart)%s",
             g, comp, out[at], want[at % (BLOCK * per)], ITERS / UNROLL,
             slot_of(a, (int)(g % SB_WARP_LANES), (int)(g % BLOCK / SB_WARP_LANES)), UNROLL - 1,
             shift_of(a), out[at] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* Stores: each block dumps its whole shared buffer, in[i] where a lane
   stored and ~in[i] (the fill) where none did. */
static int verify_store(const shared_host *h, const shared_knobs *a, const uint32_t *out,
                        char *err, size_t n)
{
    long span = span_of(a), shift = shift_of(a);
    long blocks = (h->threads + BLOCK - 1) / BLOCK;
    int per = a->word / 4;
    char *stored = calloc((size_t)span, 1);
    uint32_t *want = calloc((size_t)(span * per), sizeof *want);
    if (!stored || !want) {
        free(stored);
        free(want);
        snprintf(err, n, "out of host memory");
        return -1;
    }
    for (int w = 0; w < WARPS; w++)
        for (int l = 0; l < SB_WARP_LANES; l++)
            for (int u = 0; u < UNROLL; u++)
                stored[slot_of(a, l, w) + u * shift] = 1;
    for (long i = 0; i < span * per; i++)
        want[i] = stored[i / per] ? h->in[i] : ~h->in[i];
    long at = sb_first_periodic_mismatch(out, want, span * per, blocks * span * per);
    int rc = 0;
    if (at != SB_NO_MISMATCH) {
        long b = at / (span * per), i = at % (span * per) / per;
        int c = (int)(at % per);
        uint32_t got = out[at];
        char comp[4] = "";
        if (per > 1)
            snprintf(comp, sizeof comp, ".%c", component[c]);
        snprintf(err, n, "block %ld: buf[%ld]%s = 0x%08x, expected 0x%08x (%s)%s", b, i, comp,
                 got, want[at % (span * per)],
                 stored[i] ? "in[i]: a slot the warps store" : "~in[i]: a slot no lane stores",
                 got == SB_POISON_WORD ? ": never written" : "");
        rc = -1;
    }
    free(stored);
    free(want);
    return rc;
}

static int shared_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    (void)p;
    shared_knobs a = knobs_of(v);
    return a.dir == DIR_STORE ? verify_store(host, &a, outputs[0], err, n)
                   : verify_load(host, &a, outputs[0], err, n);
}

/* ------------------------------------------------------ the experiments */

#define SHARED_COMMON                                                                          \
    .family = "shared", .source = "access_shared.cl", .quantity = SB_QUANTITY_ACCESS,          \
    .size_kind = SB_SIZE_THREADS,                                                              \
    .default_size = shared_default_size,           \
    .prepare = shared_prepare, .release = shared_release, .plan = shared_plan,                 \
    .verify = shared_verify

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule shared_stride_lessons[] = {
    {.kind = SB_LESSON_TRACK, .cost = SB_COST_WAYS},
    {0},
};

const sb_experiment sb_exp_shared_stride = {
    .in_default = 1,
    .name = "shared_stride",
    .summary = "lane i touches element i*S, S = 1..64, 4/8/16-byte elements, loads and "
               "stores; ns per warp-wide access per multiprocessor, size in threads",
    .test_sizes = "1x300",
    .variants = stride_variants,
    SHARED_COMMON,
    .lessons = shared_stride_lessons,
};

const sb_experiment sb_exp_shared_broadcast = {
    .in_default = 0,
    .name = "shared_broadcast",
    .summary = "all lanes on one word, and groups of 2..16 lanes on one word in distinct "
               "banks or all in one bank; ns per warp-wide access",
    .test_sizes = "1x1,1x300",
    .variants = broadcast_variants,
    SHARED_COMMON,
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule shared_tile_lessons[] = {
    {.kind = SB_LESSON_PAIR, .tried = "32x33-column-load",
     .against = "32x32-column-load", .what = "[32][33] padding"},
    {.kind = SB_LESSON_PAIR, .tried = "32x32-xor-column-load",
     .against = "32x32-column-load", .what = "an XOR swizzle"},
    {0},
};

const sb_experiment sb_exp_shared_tile = {
    .in_default = 1,
    .name = "shared_tile",
    .summary = "row and column walks of tile[32][32], [32][33] and an XOR-swizzled "
               "[32][32]; ns per warp-wide access",
    .test_sizes = "1x1,1x300",
    .variants = tile_variants,
    SHARED_COMMON,
    .headline = {SB_HEADLINE_WORST_WAYS, .fix = tile_fix},
    .lessons = shared_tile_lessons,
};
