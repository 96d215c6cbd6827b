/* The global-memory (coalescing) family (seed 000): stride
 * sweeps for 4-, 8- and 16-byte words, misaligned starts, permutations
 * inside a segment and spread over segments, broadcast reads, and the row
 * versus column walk of a row-major matrix.
 *
 * Every variant copies a buffer of a few L2 sizes through one declared
 * access (see common/kernels/access_global.cl for the layout), and counts as useful
 * bytes what the program asked for: every element read plus every element
 * written.  The access is described once, as its global_knobs; the kernel's
 * -D definitions and the model's pattern are both made from it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define BLOCK 256          /* threads per block: 8 warps */
#define UNROLL 4           /* elements per thread, as UNROLL in access_global.cl */
#define MAX_OFFSET_WORDS 128 /* room after the buffer: OFFSET up to 32 16-byte words */
#define MAX_WORDS (1L << 29) /* 2 GiB: indices stay in int */

typedef enum global_dir { DIR_LOAD, DIR_STORE } global_dir;
/* WALK of access_global.cl; WALK_NONE for the access experiments. */
typedef enum global_walk { WALK_NONE, WALK_ROW, WALK_COLUMN } global_walk;

/* One declared access (or, for global_walk, the walk): the single source
 * of the kernel's definitions and of the model's pattern. */
typedef struct global_knobs {
    int word;          /* WORD: bytes per lane */
    int stride;        /* STRIDE: elements between lanes */
    int offset;        /* OFFSET: elements after a 128-byte boundary */
    int same;          /* SAME: lanes per element */
    sb_perm perm;      /* PERM: the lanes' order inside their slot */
    unsigned perm_arg; /* PERM_ARG: XOR mask or random seed */
    bool spread;       /* SPREAD: one 128-byte segment per lane */
    global_dir dir;    /* the access is the read (global_load) or the write (global_store) */
    global_walk walk;  /* global_walk: how each thread walks the matrix */
} global_knobs;
SB_KNOBS(global_knobs)

typedef struct global_host {
    long words;                  /* 4-byte words of the buffer: the problem size */
    uint32_t *in;                /* words + MAX_OFFSET_WORDS random words */
    int32_t perm[SB_WARP_LANES]; /* lane table of the variant last planned */
} global_host;

/* ------------------------------------------------------------ the access */

/* A dense read of `word`-byte elements. */
static global_knobs access_default(int word)
{
    global_knobs a = {.word = word, .stride = 1, .same = 1, .perm = SB_PERM_NONE,
                      .dir = DIR_LOAD};
    return a;
}

/* The variant: kernel, definitions (only those that differ from the
   kernel's defaults, so that the report's params say what matters) and
   the knobs. */
static int add_access(sb_variant *out, int n, int max, const char *name, const global_knobs *a,
                      int in_default, int group, int baseline)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, a->dir == DIR_STORE ? "global_store" : "global_load", BLOCK, 1, 1);
    sb_variant_define(v, "WORD=%d", a->word);
    if (a->stride != 1)
        sb_variant_define(v, "STRIDE=%d", a->stride);
    if (a->spread)
        sb_variant_define(v, "SPREAD=1");
    if (a->offset)
        sb_variant_define(v, "OFFSET=%d", a->offset);
    if (a->perm != SB_PERM_NONE)
        sb_variant_define(v, "PERM=%d", (int)a->perm);
    if (a->perm == SB_PERM_XOR || a->perm == SB_PERM_RANDOM)
        sb_variant_define(v, "PERM_ARG=%u", a->perm_arg);
    if (a->same != 1)
        sb_variant_define(v, "SAME=%d", a->same);
    set_knobs(v, a);
    v->in_default = in_default;
    v->group = group;
    v->baseline = baseline;
    return n + 1;
}

static sb_pattern pattern_of(const global_knobs *a)
{
    sb_pattern p = sb_pattern_default();
    p.space = SB_SPACE_GLOBAL;
    p.word_bytes = a->word;
    p.stride = a->stride;
    p.spread = a->spread;
    p.offset = a->offset;
    p.perm = a->perm;
    p.perm_arg = a->perm_arg;
    p.same = a->same;
    return p;
}

static long step_of(const global_knobs *a)
{
    return a->spread ? 128 / a->word : a->stride;
}

/* PHASE_WORD of access_global.cl: the word of its slot a lane takes in the
   k-th phase issued. */
static long phase_word(long step, int word, long k)
{
    long sector_words = 32 / word;
    long rows = step / sector_words, long_cols = step % sector_words;
    long long_count = long_cols * (rows + 1), short_rows = rows > 0 ? rows : 1;
    long col = k < long_count ? k / (rows + 1) : long_cols + (k - long_count) / short_rows;
    long row = k < long_count ? k % (rows + 1) : (k - long_count) % short_rows;
    return row * sector_words + col;
}

static int lane_pos(const global_knobs *a, const int32_t perm[SB_WARP_LANES], int lane)
{
    switch (a->perm) {
    case SB_PERM_REVERSE: return 31 - lane;
    case SB_PERM_XOR: return lane ^ (int)a->perm_arg;
    case SB_PERM_RANDOM: return perm[lane];
    default: return lane;
    }
}

/* ----------------------------------------------------------- variants */

static const char *const dir_name[] = {[DIR_LOAD] = "load", [DIR_STORE] = "store"};
static const int words[] = {4, 8, 16};

/* The default suite's share of the sweep (the host checks every
 * GPU-sized variant, which adds up): loads where the sector count changes,
 * stores at the ends, wider words at 1 and 4; --variant all for the rest. */
static int is_default_stride(int word, int stride, global_dir dir)
{
    static const int loads[] = {1, 2, 3, 4, 8, 32}, stores[] = {1, 2, 8, 32};
    const int *set = dir == DIR_LOAD ? loads : stores;
    size_t n = dir == DIR_LOAD ? sizeof loads / sizeof loads[0] : sizeof stores / sizeof stores[0];
    if (word != 4)
        return dir == DIR_LOAD && (stride == 1 || stride == 4);
    for (size_t i = 0; i < n; i++)
        if (set[i] == stride)
            return 1;
    return 0;
}

static int stride_variants(sb_variant *out, int max)
{
    int n = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (global_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
            for (int s = 1; s <= 64; s++) {
                global_knobs a = access_default(words[w]);
                a.stride = s;
                a.dir = dir;
                char name[48];
                snprintf(name, sizeof name, "w%d-s%d-%s", words[w], s, dir_name[dir]);
                n = add_access(out, n, max, name, &a, is_default_stride(words[w], s, dir),
                               (int)w * 2 + dir, s == 1);
            }
    return n;
}

static int offset_variants(sb_variant *out, int max)
{
    static const int shown[] = {0, 1, 4, 8, 16, 31, 32};
    int n = 0;
    for (global_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
        for (int k = 0; k <= 32; k++) {
            global_knobs a = access_default(4);
            a.offset = k;
            a.dir = dir;
            int in_default = 0;
            for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
                in_default |= shown[i] == k;
            char name[48];
            snprintf(name, sizeof name, "w4-k%d-%s", k, dir_name[dir]);
            n = add_access(out, n, max, name, &a, in_default, dir, k == 0);
        }
    return n;
}

static int perm_variants(sb_variant *out, int max)
{
    /* XOR 9 sends lanes across sector boundaries (lane 0 to word 9); XOR
       31 would only repeat the reversal. */
    static const struct {
        const char *name;
        sb_perm perm;
        unsigned arg;
    } perms[] = {{"identity", SB_PERM_NONE, 0},
                 {"reverse", SB_PERM_REVERSE, 0},
                 {"xor9", SB_PERM_XOR, 9},
                 {"random1", SB_PERM_RANDOM, 1}};
    int n = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (global_dir dir = DIR_LOAD; dir <= DIR_STORE; dir++)
            for (int spread = 0; spread <= 1; spread++)
                for (size_t p = 0; p < sizeof perms / sizeof perms[0]; p++) {
                    global_knobs a = access_default(words[w]);
                    a.perm = perms[p].perm;
                    a.perm_arg = perms[p].arg;
                    a.spread = spread;
                    a.dir = dir;
                    char name[48];
                    snprintf(name, sizeof name, "w%d-%s%s-%s", words[w], perms[p].name,
                             spread ? "-spread" : "", dir_name[dir]);
                    n = add_access(out, n, max, name, &a, words[w] == 4, (int)w * 2 + dir,
                                   p == 0 && !spread);
                }
    return n;
}

static int broadcast_variants(sb_variant *out, int max)
{
    int n = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (int same = 1; same <= 32; same *= 2) {
            global_knobs a = access_default(words[w]);
            a.same = same;
            char name[48];
            if (same == 32)
                snprintf(name, sizeof name, "w%d-broadcast", words[w]);
            else
                snprintf(name, sizeof name, "w%d-same%d", words[w], same);
            n = add_access(out, n, max, name, &a, words[w] == 4 || same == 1 || same == 32, (int)w,
                           same == 1);
        }
    return n;
}

/* -------------------------------------------------- sizes and host data */

/* Four L2 sizes at least, so that DRAM and not the cache is measured, and
 * never under 256 MiB: OpenCL's "global memory cache size" is not the L2
 * on every platform (NVIDIA's is smaller), and CUDA and OpenCL must get the
 * same default size to be compared.  A power of two, at most 1 GiB. */
static long gpu_buffer_bytes(const sb_device_info *dev)
{
    double want = 4.0 * (double)dev->l2_bytes;
    long bytes = 256L << 20;
    while ((double)bytes < want && bytes < (1L << 30))
        bytes *= 2;
    return bytes;
}

static void global_default_size(const sb_device_info *dev, sb_problem *p)
{
    if (!dev->is_gpu) {
        /* A CPU device: a small buffer, so that the suite takes seconds. */
        p->rows = p->cols = 512;
        return;
    }
    long bytes = gpu_buffer_bytes(dev);
    p->rows = 8192;
    p->cols = bytes / 4 / 8192;
}

static int global_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long words = p->rows * p->cols;
    if (words > MAX_WORDS) {
        snprintf(err, n, "size %ldx%ld is %ld words; at most %ld (2 GiB) so that indices fit "
                         "in int", p->rows, p->cols, words, MAX_WORDS);
        return -1;
    }
    global_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->words = words;
    size_t total = (size_t)words + MAX_OFFSET_WORDS;
    h->in = sb_host_alloc(total * sizeof *h->in, err, n);
    if (!h->in) {
        free(h);
        return -1;
    }
    sb_random_words(h->in, total, seed);
    *host = h;
    return 0;
}

static void global_release(void *host)
{
    global_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

/* Elements of the variant's word in the buffer. */
static long elements(const global_host *h, const global_knobs *a)
{
    return h->words * 4 / a->word;
}

/* The variant's lane table, as the kernel gets it: 0, or -1 for a
   permutation the model does not know. */
static int lane_table(const global_knobs *a, int32_t perm[SB_WARP_LANES])
{
    int t[SB_WARP_LANES];
    if (a->perm == SB_PERM_RANDOM || a->perm == SB_PERM_XOR || a->perm == SB_PERM_REVERSE) {
        if (sb_perm_table(a->perm, a->perm_arg, t))
            return -1;
    } else {
        for (int l = 0; l < SB_WARP_LANES; l++)
            t[l] = l;
    }
    for (int l = 0; l < SB_WARP_LANES; l++)
        perm[l] = t[l];
    return 0;
}

/* Warps of one phase that get as far as their slot (and the lane table):
   those of the first nblocks warp positions, 8 in each block of threads
   and 32 positions (UNROLL blocks' worth) in each block of the grid. */
static double working_warps(long nblocks)
{
    long per_grid_block = UNROLL * BLOCK / 32, warps = BLOCK / 32;
    long rest = nblocks % per_grid_block;
    return (double)(nblocks / per_grid_block * warps + (rest < warps ? rest : warps));
}

/* Every access of global_load / global_store, per launch: the declared
 * access and its dense partner (one request a warp for each of the nblocks
 * warps of each of the step phases), the lane table a random permutation
 * reads (one 32-word request per working warp and phase), and the dense
 * copy of the tail.  Every phase has the cost of the first (the model's
 * pattern): a phase only moves the lanes inside their slot. */
static void declare_copy(sb_plan *plan, const global_knobs *a, long nblocks, long step, long tail)
{
    bool store = a->dir == DIR_STORE;
    sb_access_kind mine = store ? SB_ACCESS_STORE : SB_ACCESS_LOAD;
    sb_access_kind other = store ? SB_ACCESS_LOAD : SB_ACCESS_STORE;
    double requests = (double)nblocks * (double)step;
    global_knobs plain = access_default(a->word);
    sb_pattern dense = pattern_of(&plain), offset = dense;
    offset.offset = a->offset;
    sb_plan_declare(plan, &(sb_access){store ? "store" : "load", mine, pattern_of(a), requests,
                                       UNROLL, 1});
    sb_plan_declare(plan, &(sb_access){store ? "load" : "store", other, dense, requests,
                                       UNROLL, 1});
    if (a->perm == SB_PERM_RANDOM) {
        sb_pattern table = sb_dense(SB_SPACE_GLOBAL, 4); /* 32 ints, lane l's at l */
        sb_plan_declare(plan, &(sb_access){"lane table", SB_ACCESS_LOAD, table,
                                           working_warps(nblocks) * (double)step, 1, 0});
    }
    /* The tail is copied in order, the offset on the declared side. */
    sb_plan_declare_walk(plan, &(sb_access){"tail load", SB_ACCESS_LOAD, store ? dense : offset,
                                            0, UNROLL, 0}, tail, 1);
    sb_plan_declare_walk(plan, &(sb_access){"tail store", SB_ACCESS_STORE,
                                            store ? offset : dense, 0, UNROLL, 0}, tail, 1);
}

static int global_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    global_host *h = host;
    (void)p;
    (void)dev;
    global_knobs a = knobs_of(v);
    bool store = a.dir == DIR_STORE;
    long count = elements(h, &a);
    if (count < 1) { /* the variants of smaller words still run: no error */
        snprintf(err, n, "%ld words hold no %d-byte element", h->words, a.word);
        return SB_PLAN_LEFT_OUT;
    }
    if (lane_table(&a, h->perm)) {
        snprintf(err, n, "bad permutation %d/%u", (int)a.perm, a.perm_arg);
        return -1;
    }
    long step = step_of(&a);
    long nblocks = count / (32 * step), lanes = nblocks * 32;
    long tail = count - lanes * step;
    long extent = lanes > tail ? lanes : tail;
    size_t word = (size_t)a.word;

    plan->nbuffers = 3;
    plan->buffer[0].bytes = (size_t)(count + (store ? 0 : a.offset)) * word;
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = (size_t)(count + (store ? a.offset : 0)) * word;
    plan->buffer[1].init = NULL;
    plan->buffer[2].bytes = sizeof h->perm;
    plan->buffer[2].init = h->perm;
    plan->nargs = 5;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)count;
    plan->arg[1].kind = SB_PLAN_INT;
    plan->arg[1].i = (int32_t)nblocks;
    for (int i = 0; i < 3; i++) {
        plan->arg[2 + i].kind = SB_PLAN_BUFFER;
        plan->arg[2 + i].buffer = i;
    }
    /* x covers the lanes of one phase (or the tail), y the phases in issue
       order, then the tail. */
    plan->geometry.grid[0] = (unsigned)((extent + UNROLL * BLOCK - 1) / (UNROLL * BLOCK));
    if (plan->geometry.grid[0] == 0)
        plan->geometry.grid[0] = 1;
    plan->geometry.grid[1] = (unsigned)(step + (tail > 0));
    plan->geometry.grid[2] = 1;
    memcpy(plan->geometry.block, v->block, sizeof plan->geometry.block);
    plan->bytes = 2.0 * (double)count * (double)word;

    declare_copy(plan, &a, nblocks, step, tail);
    return 0;
}

static const char *const component = "xyzw";

/* Compares element `got_at` of out with element `want_at` of in. */
static int check_element(const global_knobs *a, const uint32_t *out, long got_at,
                         const uint32_t *in, long want_at, char *err, size_t n)
{
    int per = a->word / 4;
    for (int c = 0; c < per; c++) {
        uint32_t got = out[got_at * per + c], want = in[want_at * per + c];
        if (got != want) {
            char comp[4] = "";
            if (per > 1)
                snprintf(comp, sizeof comp, ".%c", component[c]);
            snprintf(err, n, "out[%ld]%s = 0x%08x, expected in[%ld]%s = 0x%08x%s", got_at, comp,
                     got, want_at, comp, want, got == SB_POISON_WORD ? ": never written" : "");
            return -1;
        }
    }
    return 0;
}

/* Whether element got_at of out differs from element want_at of in. */
static int differs(const uint32_t *out, long got_at, const uint32_t *in, long want_at, int per)
{
    for (int c = 0; c < per; c++)
        if (out[got_at * per + c] != in[want_at * per + c])
            return 1;
    return 0;
}

/* Bytes of the strided side a tile of the check covers: a few hundred KiB,
   which stay in the cache while every phase visits them. */
#define CHECK_TILE_BYTES (256L << 10)

/* The kernel's mapping: dense position g = k * lanes + x takes element
 * ELEMENT(x, k) of access_global.cl, and the tail maps onto itself.  A
 * check that walked g in order, phase by phase, would sweep the whole
 * strided side once per phase (`step` times over a GPU-sized buffer for
 * the widest strides); this one walks a tile of warps through every phase
 * before moving on, so that each side is read from memory once.  g stays
 * the key, so that the mismatch reported is the one with the smallest g,
 * as a serial walk would find it (and no division per element: GPU-sized
 * buffers hold tens of millions of elements). */
typedef struct global_scan {
    const global_knobs *a;
    const uint32_t *in, *out;
    long step, lanes, tile_lanes;
    long lane_at[SB_WARP_LANES]; /* element of lane l in its warp's slot */
} global_scan;

static long scan_tiles(const void *ctx, long begin, long end)
{
    const global_scan *s = ctx;
    const global_knobs *a = s->a;
    const int per = a->word / 4;
    long first = SB_NO_MISMATCH;
    for (long t = begin; t < end; t++) {
        long x0 = t * s->tile_lanes;
        long x1 = x0 + s->tile_lanes < s->lanes ? x0 + s->tile_lanes : s->lanes;
        /* Later phases only hold larger keys than a mismatch already found. */
        for (long k = 0; k < s->step && k * s->lanes + x0 < first; k++) {
            long base = phase_word(s->step, a->word, k) + a->offset;
            for (long x = x0, g = k * s->lanes + x0; x < x1; x++, g++) {
                long e = (x >> 5) * 32 * s->step + s->lane_at[x & 31] + base;
                if (a->dir == DIR_STORE ? differs(s->out, e, s->in, g, per)
                                        : differs(s->out, g, s->in, e, per)) {
                    first = g < first ? g : first;
                    break;
                }
            }
        }
    }
    return first;
}

static int global_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    global_host *h = host;
    (void)p;
    global_knobs a = knobs_of(v);
    bool store = a.dir == DIR_STORE;
    const uint32_t *out = outputs[0];
    long count = elements(h, &a);
    int per = a.word / 4;
    if (store)
        for (long i = 0; i < (long)a.offset * per; i++)
            if (out[i] != SB_POISON_WORD) {
                snprintf(err, n, "out word %ld = 0x%08x, before the first element the store "
                                 "may write (offset %d)", i, out[i], a.offset);
                return -1;
            }
    global_scan s = {&a, h->in, out, step_of(&a), 0, 0, {0}};
    s.lanes = count / (32 * s.step) * 32;
    long tile_warps = CHECK_TILE_BYTES / (32 * s.step * a.word);
    s.tile_lanes = 32 * (tile_warps > 0 ? tile_warps : 1);
    /* The table of this variant, not h->perm: the next variant's plan may
       be rewriting that while this one is checked. */
    int32_t perm[SB_WARP_LANES];
    if (lane_table(&a, perm)) {
        snprintf(err, n, "bad permutation %d/%u", (int)a.perm, a.perm_arg);
        return -1;
    }
    for (int l = 0; l < SB_WARP_LANES; l++)
        s.lane_at[l] = lane_pos(&a, perm, l) / a.same * s.step;
    long tiles = (s.lanes + s.tile_lanes - 1) / s.tile_lanes;
    long g = sb_first_mismatch(tiles, 1, scan_tiles, &s);
    /* The tail, under 32 * step elements, after every phase. */
    for (long t = s.lanes * s.step; g == SB_NO_MISMATCH && t < count; t++)
        if (store ? differs(out, t + a.offset, h->in, t, per)
                  : differs(out, t, h->in, t + a.offset, per))
            g = t;
    if (g == SB_NO_MISMATCH)
        return 0;
    long e = g + a.offset;
    if (g < s.lanes * s.step) {
        long k = g / s.lanes, x = g % s.lanes;
        e = (x >> 5) * 32 * s.step + s.lane_at[x & 31] + phase_word(s.step, a.word, k) +
            a.offset;
    }
    return store ? check_element(&a, out, e, h->in, g, err, n)
                 : check_element(&a, out, g, h->in, e, err, n);
}

/* ------------------------------------------------------------ the walks */

static int walk_variants(sb_variant *out, int max)
{
    static const char *const names[] = {"", "row", "column"};
    int n = 0;
    for (int w = WALK_ROW; w <= WALK_COLUMN && n < max; w++) {
        sb_variant *v = &out[n++];
        sb_variant_init(v, names[w], "global_walk", BLOCK, 1, 1);
        sb_variant_define(v, "WALK=%d", w);
        global_knobs k = {.walk = (global_walk)w};
        set_knobs(v, &k);
        v->baseline = w == WALK_ROW;
    }
    return n;
}

/* rows = the length of each thread's walk, cols = the threads. */
static void walk_default_size(const sb_device_info *dev, sb_problem *p)
{
    if (!dev->is_gpu) {
        p->rows = 64;
        p->cols = 4096;
        return;
    }
    /* One thread per column and one full wave of threads (2048 per
       multiprocessor); walks long enough for the buffer size above. */
    long threads = (dev->compute_units > 0 ? dev->compute_units : 132) * 2048L;
    long bytes = gpu_buffer_bytes(dev);
    long rows = 64;
    while (rows * threads * 4 < bytes)
        rows += 64;
    p->rows = rows;
    p->cols = threads;
}

/* The walk's loads: warp w of the threads, at step k of the walk, reads
 * 32 neighbouring words from k * cols + 32 w (row walk) or 32 words
 * `rows` apart from 32 w * rows + k (column walk); the last warp has
 * cols % 32 lanes.  Where a request lies in its sectors depends on k
 * alone, through k * cols or k modulo 32 words: the steps are taken in
 * those 32 classes. */
static void declare_walk_loads(sb_plan *plan, const sb_problem *p, int row)
{
    long classes = p->rows < SB_WARP_LANES ? p->rows : SB_WARP_LANES;
    sb_warp_split w = sb_warps_of(p->cols);
    for (long c = 0; c < classes; c++) {
        double steps = (double)((p->rows - c + SB_WARP_LANES - 1) / SB_WARP_LANES);
        long idx[SB_WARP_LANES];
        for (int l = 0; l < SB_WARP_LANES; l++)
            idx[l] = row ? c * p->cols % SB_WARP_LANES + l : c + l * p->rows;
        sb_pattern full = sb_global_request(4, idx, 0);
        full.same = 1; /* as pattern_of says "no sharing" */
        sb_plan_declare(plan, &(sb_access){"load", SB_ACCESS_LOAD, full, steps * (double)w.full,
                                           c == 0 ? SB_SITES_COMPILER : 0, c == 0});
        sb_pattern part = full;
        part.active = sb_first_lanes(w.tail_lanes);
        int first = c == 0 && w.full == 0; /* no full warp to carry the sites */
        sb_plan_declare(plan, &(sb_access){"load", SB_ACCESS_LOAD, part,
                                           w.tail_lanes ? steps : 0,
                                           first ? SB_SITES_COMPILER : 0, first});
    }
}

static int walk_plan(void *host, const sb_problem *p, const sb_variant *v,
                     const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    global_host *h = host;
    (void)dev;
    (void)err;
    (void)n;
    size_t bytes = (size_t)p->rows * (size_t)p->cols * 4;
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = (size_t)p->cols * 4;
    plan->buffer[1].init = NULL;
    plan->nargs = 4;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)p->rows;
    plan->arg[1].kind = SB_PLAN_INT;
    plan->arg[1].i = (int32_t)p->cols;
    plan->arg[2].kind = SB_PLAN_BUFFER;
    plan->arg[2].buffer = 0;
    plan->arg[3].kind = SB_PLAN_BUFFER;
    plan->arg[3].buffer = 1;
    sb_grid_2d(&plan->geometry, v, p->cols, 1, BLOCK, 1);
    plan->bytes = (double)bytes + (double)p->cols * 4.0;
    declare_walk_loads(plan, p, knobs_of(v).walk == WALK_ROW);
    global_knobs sum = access_default(4);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, pattern_of(&sum), 0, 1, 0},
                         p->cols, 1);
    return 0;
}

/* Threads per item of the walk check: one stack buffer of sums. */
#define WALK_CHECK_THREADS 4096

typedef struct walk_scan {
    const uint32_t *m, *out;
    long rows, cols;
    int row;
} walk_scan;

/* The sum thread t's walk must give: of M[k * cols + t] (row walk) or of
   M[t * rows + k] (column walk) over k < rows. */
static uint32_t walk_sum(const walk_scan *w, long t)
{
    uint32_t sum = 0;
    for (long k = 0; k < w->rows; k++)
        sum += w->row ? w->m[k * w->cols + t] : w->m[t * w->rows + k];
    return sum;
}

/* Sums in memory order: a GPU-sized matrix walked by columns on the host
   would miss the cache at every word.  The sums wrap, so their order does
   not change them. */
static long scan_walks(const void *ctx, long begin, long end)
{
    const walk_scan *w = ctx;
    uint32_t sum[WALK_CHECK_THREADS];
    long threads = end - begin;
    for (long t = 0; t < threads; t++)
        sum[t] = w->row ? 0 : walk_sum(w, begin + t);
    for (long k = 0; w->row && k < w->rows; k++) {
        const uint32_t *m = w->m + k * w->cols + begin;
        for (long t = 0; t < threads; t++)
            sum[t] += m[t];
    }
    for (long t = 0; t < threads; t++)
        if (w->out[begin + t] != sum[t])
            return begin + t;
    return SB_NO_MISMATCH;
}

static int walk_verify(void *host, const sb_problem *p, const sb_variant *v,
                       void *const *outputs, char *err, size_t n)
{
    global_host *h = host;
    walk_scan w = {h->in, outputs[0], p->rows, p->cols, knobs_of(v).walk == WALK_ROW};
    long t = sb_first_mismatch(p->cols, WALK_CHECK_THREADS, scan_walks, &w);
    if (t == SB_NO_MISMATCH)
        return 0;
    uint32_t got = w.out[t], want = walk_sum(&w, t);
    snprintf(err, n, "out[%ld] = 0x%08x, expected 0x%08x, the sum of M[%s]%s", t, got, want,
             w.row ? "k * cols + t" : "t * rows + k", got == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* ------------------------------------------------------ the experiments */

#define GLOBAL_COMMON                                                                          \
    .family = "global", .source = "access_global.cl", .quantity = SB_QUANTITY_BANDWIDTH,       \
    .size_kind = SB_SIZE_WORDS, .default_size = global_default_size,                           \
    .prepare = global_prepare, .release = global_release, .plan = global_plan,                 \
    .verify = global_verify

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule global_stride_lessons[] = {
    {.kind = SB_LESSON_TRACK, .cost = SB_COST_TRAFFIC},
    {0},
};

const sb_experiment sb_exp_global_stride = {
    .in_default = 1,
    .name = "global_stride",
    .summary = "lane i touches element i*S, S = 1..64, 4/8/16-byte words, reads and writes; "
               "GB/s of bytes asked for (read + written), size in 4-byte words",
    .test_sizes = "33x1,100x100",
    .variants = stride_variants,
    GLOBAL_COMMON,
    .headline = {SB_HEADLINE_WORST_SHARE},
    .lessons = global_stride_lessons,
};

const sb_experiment sb_exp_global_offset = {
    .in_default = 0,
    .name = "global_offset",
    .summary = "consecutive 4-byte words starting k = 0..32 words after a 128-byte boundary, "
               "reads and writes; GB/s of bytes asked for",
    .test_sizes = "100x100",
    .variants = offset_variants,
    GLOBAL_COMMON,
    .headline = {SB_HEADLINE_WORST_SHARE},
};

const sb_experiment sb_exp_global_perm = {
    .in_default = 0,
    .name = "global_perm",
    .summary = "lanes take one segment's words reversed, XOR-shuffled or at random, against "
               "the same order spread over 32 segments; GB/s of bytes asked for",
    .test_sizes = "100x100",
    .variants = perm_variants,
    GLOBAL_COMMON,
    .headline = {SB_HEADLINE_WORST_SHARE},
};

const sb_experiment sb_exp_global_broadcast = {
    .in_default = 0,
    .name = "global_broadcast",
    .summary = "groups of 1..32 lanes read one word (32: the whole warp); GB/s of bytes "
               "asked for (every lane's read counts)",
    .test_sizes = "100x100",
    .variants = broadcast_variants,
    GLOBAL_COMMON,
    .headline = {SB_HEADLINE_WORST_SHARE},
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule global_walk_lessons[] = {
    {.kind = SB_LESSON_PAIR, .tried = "row", .against = "column",
     .what = "walking rows instead of columns"},
    {0},
};

const sb_experiment sb_exp_global_walk = {
    .name = "global_walk",
    .family = "global",
    .source = "access_global.cl",
    .summary = "each thread sums a row walk M[k*cols+t] or a column walk M[t*rows+k] of a "
               "rows x cols matrix (corner turning); GB/s of bytes asked for",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_WALKS,
    .in_default = 1,
    .test_sizes = "1x1,7x33,33x300",
    .variants = walk_variants,
    .default_size = walk_default_size,
    .prepare = global_prepare,
    .release = global_release,
    .plan = walk_plan,
    .verify = walk_verify,
    .lessons = global_walk_lessons,
};
