/* The transpose family (seed 000): the copy roofs, naive transposes that
 * coalesce only one side, tiled ones that stage through shared memory with
 * no padding, [32][33] padding, an XOR swizzle, and coarsening, tiles in
 * grouped or diagonal order (partition camping, seed 001's channels), and
 * vector transposes with 16-byte accesses on both sides. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/transpose_access.h"
#include "experiments/variant.h"

/* The kernel a variant runs: it decides the grid, the access declared to
   the model and what the output must be. */
typedef enum transpose_kernel {
    KERNEL_NONE,        /* no kernel of ours: the API's copy or the vendor's transpose */
    KERNEL_COPY,        /* transpose_copy: a tiled copy, the kernels' roof */
    KERNEL_COPY_VEC,    /* transpose_copy_vec: a flat copy of float4s */
    KERNEL_NAIVE_READ,  /* transpose_naive_read: coalesced reads only */
    KERNEL_NAIVE_WRITE, /* transpose_naive_write: coalesced writes only */
    KERNEL_TILED,       /* transpose_tiled: through a shared tile read by columns */
    KERNEL_VEC4         /* transpose_vec4: 4 x 4 register transposes of float4s */
} transpose_kernel;

static const char *const kernel_name[] = {
    [KERNEL_NONE] = "",
    [KERNEL_COPY] = "transpose_copy",
    [KERNEL_COPY_VEC] = "transpose_copy_vec",
    [KERNEL_NAIVE_READ] = "transpose_naive_read",
    [KERNEL_NAIVE_WRITE] = "transpose_naive_write",
    [KERNEL_TILED] = "transpose_tiled",
    [KERNEL_VEC4] = "transpose_vec4",
};

#define COPY_VEC_THREADS 256 /* threads per block of the vector copy */

/* What the plan and the check need of a variant. */
typedef struct transpose_knobs {
    transpose_kernel kernel;
    int tile;       /* TILE: the side of a square tile */
    int pad;        /* PAD: columns added to each row of the shared tile */
    int items;      /* ITEMS: float4s per thread of the vector copy */
    int vec_rows;   /* VR: rows of a's tile (transpose_vec4) */
    int vec_cols;   /* VC: columns of a's tile (transpose_vec4) */
    bool swizzle;   /* SWIZZLE: the shared tile's columns XOR-swizzled */
    bool walk_rows; /* VORDER: block x walks down a's tile rows, not along its columns */
} transpose_knobs;
SB_KNOBS(transpose_knobs)

typedef struct transpose_host {
    long rows, cols;
    float *a;
} transpose_host;

/* One row of the catalogue but the vector transposes.  The tile kernels
   move TILE x TILE tiles with TILE x block_rows threads (GROUP: blocks take
   tiles in groups of that many); the vector copy moves `items` float4s per
   thread. */
typedef struct transpose_entry {
    const char *name;
    transpose_kernel kernel;
    int tile, block_rows, pad, group;
    bool swizzle, diagonal;
    int items;
    sb_role role;
    sb_vendor_call vendor;
    int in_default;
} transpose_entry;

static const transpose_entry transpose_table[] = {
    /* The roofs: the API's own copy, then kernels that move the same bytes. */
    {.name = "memcpy", .role = SB_ROLE_API_COPY, .in_default = 1},
    {.name = "copy", .kernel = KERNEL_COPY, .tile = 32, .block_rows = 8,
     .role = SB_ROLE_COPY_ROOF, .in_default = 1},
    /* One float4 per thread comes closest to the API's copy; more per
       thread falls behind it. */
    {.name = "copy_vec4", .kernel = KERNEL_COPY_VEC, .items = 1, .in_default = 1},
    {.name = "copy_vec4_i2", .kernel = KERNEL_COPY_VEC, .items = 2},
    {.name = "copy_vec4_i4", .kernel = KERNEL_COPY_VEC, .items = 4},
    {.name = "copy_vec4_i8", .kernel = KERNEL_COPY_VEC, .items = 8},
    /* The vendor library's transpose, where the backend has one
       (cublasSgeam, CLBlastSomatcopy): the reference to beat. */
    {.name = "vendor", .role = SB_ROLE_VENDOR, .vendor = SB_VENDOR_TRANSPOSE, .in_default = 1},
    /* The seed's kernels: one element per thread, 32 x 32 threads. */
    {.name = "naive_read", .kernel = KERNEL_NAIVE_READ, .tile = 32, .block_rows = 32,
     .in_default = 1},
    {.name = "naive_write", .kernel = KERNEL_NAIVE_WRITE, .tile = 32, .block_rows = 32,
     .in_default = 1},
    {.name = "tiled_32x32", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 32,
     .in_default = 1},
    {.name = "padded_32x32", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 32, .pad = 1,
     .in_default = 1},
    /* The usual shape: 32 x 8 threads, four elements each. */
    {.name = "tiled", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .in_default = 1},
    {.name = "padded", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .pad = 1,
     .in_default = 1},
    {.name = "swizzled", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .swizzle = 1,
     .in_default = 1},
    {.name = "coarsened", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 4, .pad = 1,
     .in_default = 1},
    /* The tuned one: 64 x 64 tiles moved by 64 x 4 threads (16 elements
       each, 8 blocks per multiprocessor), ahead of the vendor's transpose
       in both APIs. */
    {.name = "tuned", .kernel = KERNEL_TILED, .tile = 64, .block_rows = 4, .pad = 1,
     .in_default = 1},
    /* Tuning candidates: tile and thread shapes, and grouped tile order
       (slower than the plain order, kept to show it). */
    {.name = "t64x2", .kernel = KERNEL_TILED, .tile = 64, .block_rows = 2, .pad = 1},
    {.name = "t32x2", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 2, .pad = 1},
    {.name = "t64x8", .kernel = KERNEL_TILED, .tile = 64, .block_rows = 8, .pad = 1},
    {.name = "t64x16", .kernel = KERNEL_TILED, .tile = 64, .block_rows = 16, .pad = 1},
    {.name = "t32x8_g8", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .pad = 1,
     .group = 8},
    {.name = "t32x8_g16", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .pad = 1,
     .group = 16},
    {.name = "t32x8_g32", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .pad = 1,
     .group = 32},
    {.name = "t32x4_g16", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 4, .pad = 1,
     .group = 16},
    {.name = "t64x8_g16", .kernel = KERNEL_TILED, .tile = 64, .block_rows = 8, .pad = 1,
     .group = 16},
    /* padded with the tiles in diagonal order: NVIDIA's fix for partition
       camping, to see whether a GPU that hashes addresses over its
       channels still needs it. */
    {.name = "diagonal", .kernel = KERNEL_TILED, .tile = 32, .block_rows = 8, .pad = 1,
     .diagonal = 1},
};

/* The vector transposes: 16-byte accesses on both global sides (4 x 4
   register transposes, a float4-swizzled shared tile), moving tiles of
   vec_rows x vec_cols elements of a with `threads` threads.  They come
   closest to the API's copy of all the transposes. */
typedef struct vec4_entry {
    const char *name;
    int vec_rows, vec_cols, threads;
    bool walk_rows;
    int in_default;
} vec4_entry;

static const vec4_entry vec4_table[] = {
    {.name = "vec64x64", .vec_rows = 64, .vec_cols = 64, .threads = 256, .in_default = 1},
    {.name = "vec64x64_t128", .vec_rows = 64, .vec_cols = 64, .threads = 128},
    {.name = "vec64x64_t64", .vec_rows = 64, .vec_cols = 64, .threads = 64},
    {.name = "vec128x64", .vec_rows = 128, .vec_cols = 64, .threads = 256},
    {.name = "vec64x128", .vec_rows = 64, .vec_cols = 128, .threads = 256},
    {.name = "vec128x32", .vec_rows = 128, .vec_cols = 32, .threads = 256},
    {.name = "vec32x128", .vec_rows = 32, .vec_cols = 128, .threads = 256},
    {.name = "vec32x32", .vec_rows = 32, .vec_cols = 32, .threads = 64},
    {.name = "vec128x64_t128", .vec_rows = 128, .vec_cols = 64, .threads = 128},
    {.name = "vec128x64_t512", .vec_rows = 128, .vec_cols = 64, .threads = 512},
    {.name = "vec64x128_t512", .vec_rows = 64, .vec_cols = 128, .threads = 512},
    {.name = "vec64x32", .vec_rows = 64, .vec_cols = 32, .threads = 128},
    {.name = "vec32x64", .vec_rows = 32, .vec_cols = 64, .threads = 128},
    /* The same tiles, block x walking down a's tile rows instead, so that
       the blocks in flight write whole rows of c: the best of the family. */
    {.name = "vec64x64_cm", .vec_rows = 64, .vec_cols = 64, .threads = 256, .walk_rows = 1,
     .in_default = 1},
    {.name = "vec64x128_t512_cm", .vec_rows = 64, .vec_cols = 128, .threads = 512,
     .walk_rows = 1},
    {.name = "vec128x64_t512_cm", .vec_rows = 128, .vec_cols = 64, .threads = 512,
     .walk_rows = 1},
};

/* The variant of one catalogue row: its block shape and definitions. */
static void variant_of(sb_variant *v, const transpose_entry *e)
{
    const char *kernel = kernel_name[e->kernel];
    if (e->kernel == KERNEL_NONE) {
        sb_variant_init(v, e->name, NULL, 1, 1, 1);
    } else if (e->kernel == KERNEL_COPY_VEC) {
        sb_variant_init(v, e->name, kernel, COPY_VEC_THREADS, 1, 1);
        sb_variant_define(v, "ITEMS=%d", e->items);
    } else {
        sb_variant_init(v, e->name, kernel, (unsigned)e->tile, (unsigned)e->block_rows, 1);
        sb_variant_define(v, "TILE=%d", e->tile);
        sb_variant_define(v, "BLOCK_ROWS=%d", e->block_rows);
        if (e->pad)
            sb_variant_define(v, "PAD=%d", e->pad);
        if (e->swizzle)
            sb_variant_define(v, "SWIZZLE=1");
        if (e->group)
            sb_variant_define(v, "GROUP=%d", e->group);
        if (e->diagonal)
            sb_variant_define(v, "DIAGONAL=1");
    }
    transpose_knobs k = {.kernel = e->kernel, .tile = e->tile, .pad = e->pad,
                         .items = e->items, .swizzle = e->swizzle};
    set_knobs(v, &k);
    v->role = e->role;
    v->vendor = e->vendor;
    v->in_default = e->in_default;
}

/* The variant of one vector transpose. */
static void vec4_variant_of(sb_variant *v, const vec4_entry *e)
{
    sb_variant_init(v, e->name, kernel_name[KERNEL_VEC4], (unsigned)e->threads, 1, 1);
    sb_variant_define(v, "VR=%d", e->vec_rows);
    sb_variant_define(v, "VC=%d", e->vec_cols);
    sb_variant_define(v, "VT=%d", e->threads);
    if (e->walk_rows)
        sb_variant_define(v, "VORDER=1");
    transpose_knobs k = {.kernel = KERNEL_VEC4, .vec_rows = e->vec_rows,
                         .vec_cols = e->vec_cols, .walk_rows = e->walk_rows};
    set_knobs(v, &k);
    v->in_default = e->in_default;
}

static int transpose_variants(sb_variant *out, int max)
{
    int n = 0;
    for (size_t i = 0; i < sizeof transpose_table / sizeof transpose_table[0] && n < max; i++)
        variant_of(&out[n++], &transpose_table[i]);
    for (size_t i = 0; i < sizeof vec4_table / sizeof vec4_table[0] && n < max; i++)
        vec4_variant_of(&out[n++], &vec4_table[i]);
    return n;
}

static void transpose_default_size(const sb_device_info *dev, sb_problem *p)
{
    long n = 1024;
    if (dev->is_gpu) {
        /* At least four times the L2, so DRAM and not the cache is measured. */
        double want = dev->l2_bytes ? 4.0 * (double)dev->l2_bytes : 256.0 * 1048576.0;
        n = 2048;
        while ((double)n * (double)n * 4.0 < want && n < 32768)
            n *= 2;
    }
    p->rows = p->cols = n;
}

static int transpose_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    transpose_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->rows = p->rows;
    h->cols = p->cols;
    h->a = sb_host_alloc((size_t)p->rows * (size_t)p->cols * sizeof(float), err, n);
    if (!h->a) {
        free(h);
        return -1;
    }
    sb_random_floats(h->a, (size_t)p->rows * (size_t)p->cols, seed);
    *host = h;
    return 0;
}

static void transpose_release(void *host)
{
    transpose_host *h = host;
    if (h)
        free(h->a);
    free(h);
}

/* Blocks over the matrix: each kernel covers its own share per block. */
static void plan_geometry(const sb_problem *p, const sb_variant *v, sb_launch *g)
{
    transpose_knobs k = knobs_of(v);
    switch (k.kernel) {
    case KERNEL_NONE:
        break;
    case KERNEL_COPY_VEC: {
        long n4 = p->rows * p->cols / 4, per_block = (long)v->block[0] * k.items;
        sb_grid_2d(g, v, n4 > 0 ? n4 : 1, 1, per_block, 1);
        break;
    }
    case KERNEL_VEC4:
        if (k.walk_rows)
            sb_grid_2d(g, v, p->rows, p->cols, k.vec_rows, k.vec_cols);
        else
            sb_grid_2d(g, v, p->cols, p->rows, k.vec_cols, k.vec_rows);
        break;
    case KERNEL_NAIVE_WRITE:
        sb_grid_2d(g, v, p->rows, p->cols, k.tile, k.tile);
        break;
    case KERNEL_COPY:
    case KERNEL_NAIVE_READ:
    case KERNEL_TILED:
        sb_grid_2d(g, v, p->cols, p->rows, k.tile, k.tile);
        break;
    }
}

/* -------------------------------------------- the accesses, declared */

/* Declares `times` walks of warps of 32 consecutive threads over `count`
   elements, the last warp of each partial where count is not a multiple
   of 32; `studied` marks what the variant is about. */
static void walk(sb_plan *plan, const char *label, sb_access_kind kind, sb_pattern p, int sites,
                 int studied, long count, double times)
{
    sb_plan_declare_walk(plan, &(sb_access){label, kind, p, 0, sites, studied}, count, times);
}

/* The flat float4 copy: n / 4 float4s, then the last n % 4 floats by the
   first lanes of one warp. */
static void declare_copy_vec(const sb_problem *p, const transpose_knobs *k, sb_plan *plan)
{
    long n = p->rows * p->cols, n4 = n / 4;
    sb_pattern vec = sb_dense(SB_SPACE_GLOBAL, 16), rest = sb_dense(SB_SPACE_GLOBAL, 4);
    walk(plan, "load", SB_ACCESS_LOAD, vec, k->items, 1, n4, 1);
    walk(plan, "store", SB_ACCESS_STORE, vec, k->items, 0, n4, 1);
    rest.offset = 4 * n4 % SB_WARP_LANES; /* only its place in a 128-byte line matters */
    walk(plan, "tail load", SB_ACCESS_LOAD, rest, 1, 0, n - 4 * n4, 1);
    walk(plan, "tail store", SB_ACCESS_STORE, rest, 1, 0, n - 4 * n4, 1);
}

/* The tile kernels' shape, for the block-by-block declaration. */
static sb_tile_shape tile_shape(const sb_variant *v, const transpose_knobs *k)
{
    static const sb_tile_kernel of[] = {
        [KERNEL_COPY] = SB_TILE_COPY, [KERNEL_NAIVE_READ] = SB_TILE_NAIVE_READ,
        [KERNEL_NAIVE_WRITE] = SB_TILE_NAIVE_WRITE, [KERNEL_TILED] = SB_TILE_TILED};
    return (sb_tile_shape){of[k->kernel], k->tile, (int)v->block[1], k->pad, k->swizzle};
}

/* Every global and shared access each variant's kernel executes. */
static void declare_accesses(const sb_problem *p, const sb_variant *v, sb_plan *plan)
{
    transpose_knobs k = knobs_of(v);
    switch (k.kernel) {
    case KERNEL_NONE:
        return;
    case KERNEL_COPY_VEC:
        declare_copy_vec(p, &k, plan);
        return;
    case KERNEL_VEC4:
        sb_transpose_declare_vec4(p, k.vec_rows, k.vec_cols, (int)v->block[0], plan);
        return;
    default: {
        sb_tile_shape s = tile_shape(v, &k);
        sb_transpose_declare_tiles(p, &s, plan);
        return;
    }
    }
}

static int transpose_plan(void *host, const sb_problem *p, const sb_variant *v,
                          const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    transpose_host *h = host;
    (void)dev;
    (void)err;
    (void)n;
    size_t bytes = (size_t)p->rows * (size_t)p->cols * sizeof(float);
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = bytes;
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
    plan->bytes = 2.0 * (double)bytes;
    plan_geometry(p, v, &plan->geometry);
    declare_accesses(p, v, plan);
    return 0;
}

/* Whether c must be a copy of a rather than its transpose. */
static bool output_is_copy(const sb_variant *v)
{
    transpose_kernel kernel = knobs_of(v).kernel;
    return v->role == SB_ROLE_API_COPY || kernel == KERNEL_COPY || kernel == KERNEL_COPY_VEC;
}

/* The summary's headline is the best transpose: not a copy beside them. */
static int is_transpose(const sb_variant *v)
{
    return v->role == SB_ROLE_KERNEL && !output_is_copy(v);
}

static int mismatch(char *err, size_t n, long row, long col, uint32_t got, uint32_t want)
{
    float fw, fg;
    memcpy(&fw, &want, 4);
    memcpy(&fg, &got, 4);
    snprintf(err, n, "c[%ld][%ld] = %g (0x%08x), expected %g (0x%08x)%s", row, col, fg, got, fw,
             want, got == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The transposed check walks the matrices in 64 x 64 blocks: a comparison
 * that strides through c a whole row at a time misses the cache on every
 * element, which at GPU sizes makes the check far slower than the run.
 * Blocks are the items of the parallel search, in the order the serial
 * walk takes them (block rows of a, then block columns); inside a block,
 * columns of a then rows. */
#define CHECK_BLOCK 64

typedef struct transpose_scan {
    const uint32_t *a, *c;
    long rows, cols;
    long blocks_across; /* blocks in a row of a */
} transpose_scan;

/* The key of a's element (i, j), in block b whose corner is (i0, j0): its
   place in the serial walk. */
static long block_key(long b, long i, long j, long i0, long j0)
{
    return b * CHECK_BLOCK * CHECK_BLOCK + (j - j0) * CHECK_BLOCK + (i - i0);
}

static long scan_blocks(const void *ctx, long begin, long end)
{
    const transpose_scan *t = ctx;
    const long rows = t->rows, cols = t->cols, B = CHECK_BLOCK;
    for (long b = begin; b < end; b++) {
        long i0 = b / t->blocks_across * B, j0 = b % t->blocks_across * B;
        long i1 = i0 + B < rows ? i0 + B : rows, j1 = j0 + B < cols ? j0 + B : cols;
        for (long j = j0; j < j1; j++)
            for (long i = i0; i < i1; i++)
                if (t->c[j * rows + i] != t->a[i * cols + j])
                    return block_key(b, i, j, i0, j0);
    }
    return SB_NO_MISMATCH;
}

static int transpose_verify(void *host, const sb_problem *p, const sb_variant *v,
                            void *const *outputs, char *err, size_t n)
{
    transpose_host *h = host;
    const uint32_t *a = (const uint32_t *)h->a;
    const uint32_t *c = outputs[0];
    const long rows = p->rows, cols = p->cols, B = CHECK_BLOCK;
    if (output_is_copy(v)) {
        long i = sb_first_word_mismatch(c, a, rows * cols);
        return i == SB_NO_MISMATCH ? 0 : mismatch(err, n, i / cols, i % cols, c[i], a[i]);
    }
    transpose_scan t = {a, c, rows, cols, (cols + B - 1) / B};
    long nblocks = (rows + B - 1) / B * t.blocks_across;
    long key = sb_first_mismatch(nblocks, SB_SCAN_GRAIN / (B * B), scan_blocks, &t);
    if (key == SB_NO_MISMATCH)
        return 0;
    long b = key / (B * B), in_block = key % (B * B);
    long i = b / t.blocks_across * B + in_block % B, j = b % t.blocks_across * B + in_block / B;
    return mismatch(err, n, j, i, c[j * rows + i], a[i * cols + j]);
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule transpose_lessons[] = {
    {.kind = SB_LESSON_PAIR, .tried = "padded", .against = "tiled",
     .what = "padding the tile to [32][33]"},
    {.kind = SB_LESSON_PAIR, .tried = "swizzled", .against = "tiled",
     .what = "an XOR swizzle of the tile"},
    {.kind = SB_LESSON_PAIR, .tried = "naive_write",
     .against = "naive_read", .what = "coalescing the reads rather than the writes"},
    {.kind = SB_LESSON_PAIR, .tried = "diagonal", .against = "padded",
     .what = "taking the tiles in diagonal order (the fix for partition camping)"},
    {0},
};

const sb_experiment sb_exp_transpose = {
    .name = "transpose",
    .family = "transpose",
    .source = "transpose.cl",
    .summary = "matrix transpose: copy roof, naive, tiled [32][32], padded [32][33], "
               "XOR-swizzled, coarsened, 16-byte vector tiles and block order (grouped, diagonal)",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_MATRIX,
    .in_default = 1,
    .test_sizes = "1x1,31x33,33x31,1000x1,1x1000,64,132x200",
    .variants = transpose_variants,
    .default_size = transpose_default_size,
    .prepare = transpose_prepare,
    .release = transpose_release,
    .plan = transpose_plan,
    .verify = transpose_verify,
    .headline = {SB_HEADLINE_BEST_SHARE, .ranks = is_transpose},
    .lessons = transpose_lessons,
};
