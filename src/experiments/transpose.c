/* The transpose family (seed 000): the copy roof, naive transposes that
 * coalesce only one side, and tiled ones that stage through shared memory
 * with no padding, [32][33] padding, an XOR swizzle, and coarsening. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "run/host_data.h"
#include "experiments/variant.h"

/* param[0]: the grid; GRID_VEC tiles are param[3] rows x param[5] columns,
   walked by block x along a's tile columns (param[2] = 0) or rows (1) */
enum { GRID_BY_COLS = 0, GRID_BY_ROWS = 1, GRID_LINEAR = 2, GRID_VEC = 3 };
enum { SMEM_NONE = 0, SMEM_TILE = 1 };  /* param[1]: the tile is read by columns */
enum { SHAPE_TRANSPOSE = 0, SHAPE_COPY = 1 }; /* param[4]: what the output must be */

typedef struct transpose_host {
    long rows, cols;
    float *a;
} transpose_host;

/* A tiled-kernel variant: TILE x TILE tiles moved by TILE x block_rows threads. */
static int add(sb_variant *out, int n, int max, const char *name, const char *kernel, int tile,
               unsigned block_rows, int pad, int swizzle, int group, int in_default)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, kernel, (unsigned)tile, block_rows, 1);
    sb_variant_define(v, "TILE=%d", tile);
    sb_variant_define(v, "BLOCK_ROWS=%u", block_rows);
    if (pad)
        sb_variant_define(v, "PAD=%d", pad);
    if (swizzle)
        sb_variant_define(v, "SWIZZLE=1");
    if (group)
        sb_variant_define(v, "GROUP=%d", group);
    v->param[0] = strcmp(kernel, "transpose_naive_write") == 0 ? GRID_BY_ROWS : GRID_BY_COLS;
    v->param[1] = strcmp(kernel, "transpose_tiled") == 0 ? SMEM_TILE : SMEM_NONE;
    v->param[2] = pad;
    v->param[3] = swizzle;
    v->param[4] = strcmp(kernel, "transpose_copy") == 0 ? SHAPE_COPY : SHAPE_TRANSPOSE;
    v->param[5] = tile;
    v->in_default = in_default;
    return n + 1;
}

static int add_vector_copy(sb_variant *out, int n, int max, const char *name, int items,
                           int in_default)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, "transpose_copy_vec", 256, 1, 1);
    sb_variant_define(v, "ITEMS=%d", items);
    v->param[0] = GRID_LINEAR;
    v->param[4] = SHAPE_COPY;
    v->param[5] = items;
    v->in_default = in_default;
    return n + 1;
}

/* A vector-transpose variant: vr x vc tiles of a moved as 4 x 4 blocks of
 * float4s by vt threads (transpose_vec4). */
static int add_vec(sb_variant *out, int n, int max, const char *name, int vr, int vc, int vt,
                   int order, int in_default)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, "transpose_vec4", (unsigned)vt, 1, 1);
    sb_variant_define(v, "VR=%d", vr);
    sb_variant_define(v, "VC=%d", vc);
    sb_variant_define(v, "VT=%d", vt);
    if (order)
        sb_variant_define(v, "VORDER=1");
    v->param[0] = GRID_VEC;
    v->param[1] = SMEM_NONE;
    v->param[2] = order;
    v->param[3] = vr;
    v->param[4] = SHAPE_TRANSPOSE;
    v->param[5] = vc;
    v->in_default = in_default;
    return n + 1;
}

static int transpose_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[0], "memcpy", NULL, 1, 1, 1);
        out[0].role = SB_ROLE_API_COPY;
        out[0].param[4] = SHAPE_COPY;
        n = 1;
    }
    /* The roofs: the API's own copy, then kernels that move the same bytes. */
    n = add(out, n, max, "copy", "transpose_copy", 32, 8, 0, 0, 0, 1);
    if (n > 1)
        out[n - 1].role = SB_ROLE_COPY_ROOF;
    /* One float4 per thread measured 99.5% of cuMemcpyDtoD on the H200
       (4062 vs 4082 GB/s); 2, 4 or 8 per thread only about 96%. */
    n = add_vector_copy(out, n, max, "copy_vec4", 1, 1);
    n = add_vector_copy(out, n, max, "copy_vec4_i2", 2, 0);
    n = add_vector_copy(out, n, max, "copy_vec4_i4", 4, 0);
    n = add_vector_copy(out, n, max, "copy_vec4_i8", 8, 0);
    /* The vendor library's transpose, where the backend has one
       (cublasSgeam, CLBlastSomatcopy): the reference to beat. */
    if (n < max) {
        sb_variant_init(&out[n], "vendor", NULL, 1, 1, 1);
        out[n].role = SB_ROLE_VENDOR;
        n++;
    }
    /* The seed's kernels: one element per thread, 32 x 32 threads. */
    n = add(out, n, max, "naive_read", "transpose_naive_read", 32, 32, 0, 0, 0, 1);
    n = add(out, n, max, "naive_write", "transpose_naive_write", 32, 32, 0, 0, 0, 1);
    n = add(out, n, max, "tiled_32x32", "transpose_tiled", 32, 32, 0, 0, 0, 1);
    n = add(out, n, max, "padded_32x32", "transpose_tiled", 32, 32, 1, 0, 0, 1);
    /* The usual shape: 32 x 8 threads, four elements each. */
    n = add(out, n, max, "tiled", "transpose_tiled", 32, 8, 0, 0, 0, 1);
    n = add(out, n, max, "padded", "transpose_tiled", 32, 8, 1, 0, 0, 1);
    n = add(out, n, max, "swizzled", "transpose_tiled", 32, 8, 0, 1, 0, 1);
    n = add(out, n, max, "coarsened", "transpose_tiled", 32, 4, 1, 0, 0, 1);
    /* The tuned one: 64 x 64 tiles moved by 64 x 4 threads (16 elements
       each, 8 blocks per multiprocessor): 3803 GB/s in CUDA and 3836 in
       OpenCL at 8192^2 on the H200, against cuBLAS's 3703. */
    n = add(out, n, max, "tuned", "transpose_tiled", 64, 4, 1, 0, 0, 1);
    /* Tuning candidates (issue 5): tile and thread shapes, and grouped
       tile order (which measured slower: 3287-3321 GB/s in CUDA). */
    n = add(out, n, max, "t64x2", "transpose_tiled", 64, 2, 1, 0, 0, 0);
    n = add(out, n, max, "t32x2", "transpose_tiled", 32, 2, 1, 0, 0, 0);
    n = add(out, n, max, "t64x8", "transpose_tiled", 64, 8, 1, 0, 0, 0);
    n = add(out, n, max, "t64x16", "transpose_tiled", 64, 16, 1, 0, 0, 0);
    n = add(out, n, max, "t32x8_g8", "transpose_tiled", 32, 8, 1, 0, 8, 0);
    n = add(out, n, max, "t32x8_g16", "transpose_tiled", 32, 8, 1, 0, 16, 0);
    n = add(out, n, max, "t32x8_g32", "transpose_tiled", 32, 8, 1, 0, 32, 0);
    n = add(out, n, max, "t32x4_g16", "transpose_tiled", 32, 4, 1, 0, 16, 0);
    n = add(out, n, max, "t64x8_g16", "transpose_tiled", 64, 8, 1, 0, 16, 0);
    /* 16-byte accesses on both global sides (4 x 4 register transposes,
       a float4-swizzled shared tile): tile rows x columns, threads.  On the
       H200 at 8192^2 (run 7 in RESULTS.md) 64 x 64 tiles by 256 threads
       reached 3967 / 3960 GB/s (CUDA / OpenCL), 95.3% of the API copy;
       walking the blocks down a's tile rows, so that the blocks in flight
       write whole rows of c, 4032 / 4037 GB/s (96.8%, 97.2%). */
    n = add_vec(out, n, max, "vec64x64", 64, 64, 256, 0, 1);
    n = add_vec(out, n, max, "vec64x64_t128", 64, 64, 128, 0, 0);
    n = add_vec(out, n, max, "vec64x64_t64", 64, 64, 64, 0, 0);
    n = add_vec(out, n, max, "vec128x64", 128, 64, 256, 0, 0);
    n = add_vec(out, n, max, "vec64x128", 64, 128, 256, 0, 0);
    n = add_vec(out, n, max, "vec128x32", 128, 32, 256, 0, 0);
    n = add_vec(out, n, max, "vec32x128", 32, 128, 256, 0, 0);
    n = add_vec(out, n, max, "vec32x32", 32, 32, 64, 0, 0);
    n = add_vec(out, n, max, "vec128x64_t128", 128, 64, 128, 0, 0);
    n = add_vec(out, n, max, "vec128x64_t512", 128, 64, 512, 0, 0);
    n = add_vec(out, n, max, "vec64x128_t512", 64, 128, 512, 0, 0);
    n = add_vec(out, n, max, "vec64x32", 64, 32, 128, 0, 0);
    n = add_vec(out, n, max, "vec32x64", 32, 64, 128, 0, 0);
    /* The same tiles, block x walking down a's tile rows instead. */
    n = add_vec(out, n, max, "vec64x64_cm", 64, 64, 256, 1, 1);
    n = add_vec(out, n, max, "vec64x128_t512_cm", 64, 128, 512, 1, 0);
    n = add_vec(out, n, max, "vec128x64_t512_cm", 128, 64, 512, 1, 0);
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
    long tile = v->param[5];
    if (v->role == SB_ROLE_API_COPY || v->role == SB_ROLE_VENDOR) {
        /* no kernel of ours: the API's copy or the vendor's transpose */
    } else if (v->param[0] == GRID_LINEAR) {
        long n4 = p->rows * p->cols / 4, per_block = (long)v->block[0] * v->param[5];
        sb_grid_2d(&plan->geometry, v, n4 > 0 ? n4 : 1, 1, per_block, 1);
    } else if (v->param[0] == GRID_VEC) {
        if (v->param[2])
            sb_grid_2d(&plan->geometry, v, p->rows, p->cols, v->param[3], v->param[5]);
        else
            sb_grid_2d(&plan->geometry, v, p->cols, p->rows, v->param[5], v->param[3]);
    } else if (v->param[0] == GRID_BY_ROWS) {
        sb_grid_2d(&plan->geometry, v, p->rows, p->cols, tile, tile);
    } else {
        sb_grid_2d(&plan->geometry, v, p->cols, p->rows, tile, tile);
    }

    /* The access each variant is about, declared to the model. */
    sb_pattern *pat = &plan->pattern[0];
    *pat = sb_pattern_default();
    if (v->role == SB_ROLE_API_COPY || v->role == SB_ROLE_VENDOR) {
        plan->npatterns = 0;
    } else if (strcmp(v->kernel, "transpose_naive_read") == 0) {
        pat->space = SB_SPACE_GLOBAL;
        pat->stride = p->rows;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "store");
        plan->npatterns = 1;
    } else if (strcmp(v->kernel, "transpose_naive_write") == 0) {
        pat->space = SB_SPACE_GLOBAL;
        pat->stride = p->cols;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "load");
        plan->npatterns = 1;
    } else if (v->param[1] == SMEM_TILE) {
        pat->space = SB_SPACE_SHARED;
        pat->tile_rows = (int)tile;
        pat->tile_cols = (int)tile;
        pat->pad = (int)v->param[2];
        pat->swizzle = (int)v->param[3];
        pat->walk = SB_WALK_COLUMN;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "smem col");
        plan->npatterns = 1;
    } else {
        pat->space = SB_SPACE_GLOBAL;
        pat->stride = 1;
        if (v->param[0] == GRID_LINEAR || v->param[0] == GRID_VEC)
            pat->word_bytes = 16;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "load");
        plan->npatterns = 1;
    }
    return 0;
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
 * element, which at 8192 x 8192 costs seconds per check.  Blocks are the
 * items of the parallel search, in the order the serial walk takes them
 * (block rows of a, then block columns); inside a block, columns of a then
 * rows. */
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
    if ((v->role == SB_ROLE_API_COPY) || v->param[4] == SHAPE_COPY) {
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

const sb_experiment sb_exp_transpose = {
    .name = "transpose",
    .family = "transpose",
    .source = "transpose.cl",
    .summary = "matrix transpose: copy roof, naive, tiled [32][32], padded [32][33], "
               "XOR-swizzled, coarsened, 16-byte vector tiles and block order",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .in_default = 1,
    .test_sizes = "1x1,31x33,33x31,1000x1,1x1000,64,512,132x200",
    .variants = transpose_variants,
    .default_size = transpose_default_size,
    .prepare = transpose_prepare,
    .release = transpose_release,
    .plan = transpose_plan,
    .verify = transpose_verify,
};
