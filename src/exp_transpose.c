/* The transpose family (seed 000): the copy roof, naive transposes that
 * coalesce only one side, and tiled ones that stage through shared memory
 * with no padding, [32][33] padding, an XOR swizzle, and coarsening. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "host_data.h"
#include "variant.h"

enum { GRID_BY_COLS = 0, GRID_BY_ROWS = 1 }; /* param[0]: which extent the x blocks cover */
enum { SMEM_NONE = 0, SMEM_TILE = 1 };       /* param[1]: the tile is read by columns */

typedef struct transpose_host {
    long rows, cols;
    float *a;
} transpose_host;

static int add(sb_variant *out, int n, int max, const char *name, const char *kernel,
               unsigned block_rows, int pad, int swizzle, int grid, const char *extra)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, kernel, 32, block_rows, 1);
    sb_variant_define(v, "TILE=%d", 32);
    sb_variant_define(v, "BLOCK_ROWS=%u", block_rows);
    if (pad)
        sb_variant_define(v, "PAD=%d", pad);
    if (swizzle)
        sb_variant_define(v, "SWIZZLE=1");
    if (extra)
        sb_variant_define(v, "%s", extra);
    v->param[0] = grid;
    v->param[1] = strcmp(kernel, "transpose_tiled") == 0 ? SMEM_TILE : SMEM_NONE;
    v->param[2] = pad;
    v->param[3] = swizzle;
    return n + 1;
}

static int transpose_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[0], "memcpy", NULL, 1, 1, 1);
        out[0].api_copy = 1;
        n = 1;
    }
    n = add(out, n, max, "copy", "transpose_copy", 8, 0, 0, GRID_BY_COLS, NULL);
    n = add(out, n, max, "naive_read", "transpose_naive_read", 32, 0, 0, GRID_BY_COLS, NULL);
    n = add(out, n, max, "naive_write", "transpose_naive_write", 32, 0, 0, GRID_BY_ROWS, NULL);
    n = add(out, n, max, "tiled", "transpose_tiled", 32, 0, 0, GRID_BY_COLS, NULL);
    n = add(out, n, max, "padded", "transpose_tiled", 32, 1, 0, GRID_BY_COLS, NULL);
    n = add(out, n, max, "swizzled", "transpose_tiled", 32, 0, 1, GRID_BY_COLS, NULL);
    n = add(out, n, max, "coarsened", "transpose_tiled", 8, 1, 0, GRID_BY_COLS, NULL);
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
    if (v->param[0] == GRID_BY_ROWS)
        sb_grid_2d(&plan->geometry, v, p->rows, p->cols, 32, 32);
    else
        sb_grid_2d(&plan->geometry, v, p->cols, p->rows, 32, 32);

    /* The access each variant is about, declared to the model. */
    sb_pattern *pat = &plan->pattern[0];
    *pat = sb_pattern_default();
    if (v->api_copy) {
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
        pat->tile_rows = 32;
        pat->tile_cols = 32;
        pat->pad = (int)v->param[2];
        pat->swizzle = (int)v->param[3];
        pat->walk = SB_WALK_COLUMN;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "smem col");
        plan->npatterns = 1;
    } else {
        pat->space = SB_SPACE_GLOBAL;
        pat->stride = 1;
        snprintf(plan->pattern_label[0], sizeof plan->pattern_label[0], "load");
        plan->npatterns = 1;
    }
    return 0;
}

static int transpose_verify(void *host, const sb_problem *p, const sb_variant *v,
                            void *const *outputs, char *err, size_t n)
{
    transpose_host *h = host;
    const uint32_t *a = (const uint32_t *)h->a;
    const uint32_t *c = outputs[0];
    int is_copy = v->api_copy || strcmp(v->kernel, "transpose_copy") == 0;
    for (long i = 0; i < p->rows; i++)
        for (long j = 0; j < p->cols; j++) {
            uint32_t want = a[i * p->cols + j];
            uint32_t got = is_copy ? c[i * p->cols + j] : c[j * p->rows + i];
            if (got != want) {
                float fw, fg;
                memcpy(&fw, &want, 4);
                memcpy(&fg, &got, 4);
                snprintf(err, n, "%s[%ld][%ld] = %g (0x%08x), expected %g (0x%08x)%s",
                         "c", is_copy ? i : j, is_copy ? j : i, fg, got, fw,
                         want, got == SB_POISON_WORD ? ": never written" : "");
                return -1;
            }
        }
    return 0;
}

const sb_experiment sb_exp_transpose = {
    .name = "transpose",
    .family = "transpose",
    .source = "transpose.cl",
    .summary = "matrix transpose: copy roof, naive, tiled [32][32], padded [32][33], "
               "XOR-swizzled, coarsened",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .in_default = 1,
    .test_sizes = "1x1,31x33,33x31,1000x1,1x1000,64,512",
    .variants = transpose_variants,
    .default_size = transpose_default_size,
    .prepare = transpose_prepare,
    .release = transpose_release,
    .plan = transpose_plan,
    .verify = transpose_verify,
};
