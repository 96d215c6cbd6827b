/* The tiling family, matrix multiply (seed 001): the simple kernel, tiling
 * with 16 x 16 and 32 x 32 tiles, thread coarsening by 1, 2, 4 and 8, and
 * corner turning for a b stored column-major.  Reports GFLOP/s and the
 * arithmetic intensity each variant's loads imply.
 *
 * Size rows x cols: c (rows x cols) = a (rows x cols) * b (cols x cols),
 * so m = rows, n = k = cols; a plain N is the square case.
 *
 * Verification: a host product in double precision.  An element passes when
 * |c - ref| <= MATMUL_REL_TOL * sum over i of |a||b|.  For random inputs in
 * [-1, 1) the float32 accumulation error relative to that sum is about the
 * unit roundoff (6e-8) whatever k is, so the bound leaves a wide margin while
 * one missing or doubled product is still caught.  Every element is scanned
 * for NaN, which the poison is; values are checked everywhere while
 * m * n * k <= MATMUL_FULL_CHECK, else on every element of a deterministic
 * sample of rows (edges included) and of columns, which keeps the
 * single-threaded host reference to about a second at 4096. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "dram.h"
#include "host_data.h"
#include "variant.h"

#define MATMUL_REL_TOL 1e-5
#define MATMUL_FULL_CHECK (1L << 30)
#define MATMUL_SAMPLES 32 /* rows and columns checked beyond the full limit */

enum { KIND_SIMPLE, KIND_TILED, KIND_COLMAJOR }; /* param[0] */
enum { GROUP_TILING, GROUP_COARSENING, GROUP_CORNER }; /* slowdowns compare within */

typedef struct matmul_host {
    long m, n, k;
    float *a;        /* m x k */
    float *b;        /* k x n, row-major */
    float *bt;       /* the same b column-major: bt[col * k + i] */
    int nrows, ncols;/* rows and columns whose every element is checked */
    long *rows, *cols;
    double *row_ref, *row_tol; /* nrows x n */
    double *col_ref, *col_tol; /* ncols x m */
} matmul_host;

static int add(sb_variant *out, int n, int max, const char *name, const char *kernel,
               int kind, int tile, int coarse, int turn, int pad, int group, int baseline)
{
    if (n >= max)
        return n;
    sb_variant *v = &out[n];
    sb_variant_init(v, name, kernel, (unsigned)tile, (unsigned)tile, 1);
    sb_variant_define(v, "TILE=%d", tile);
    if (kind != KIND_SIMPLE)
        sb_variant_define(v, "COARSE=%d", coarse);
    if (kind == KIND_COLMAJOR) {
        sb_variant_define(v, "TURN=%d", turn);
        sb_variant_define(v, "PAD=%d", pad);
    }
    v->param[0] = kind;
    v->param[1] = tile;
    v->param[2] = coarse;
    v->param[3] = turn;
    v->param[4] = pad;
    v->group = group;
    v->baseline = baseline;
    return n + 1;
}

static int matmul_variants(sb_variant *out, int max)
{
    int n = 0;
    n = add(out, n, max, "simple", "matmul_simple", KIND_SIMPLE, 16, 1, 0, 0, GROUP_TILING, 1);
    n = add(out, n, max, "tiled16", "matmul_tiled", KIND_TILED, 16, 1, 0, 0, GROUP_TILING, 0);
    n = add(out, n, max, "tiled32", "matmul_tiled", KIND_TILED, 32, 1, 0, 0, GROUP_TILING, 0);
    /* coarse1 is tiled32 again, on purpose: the sweep's own control. */
    for (int c = 1; c <= 8; c *= 2) {
        char name[16];
        snprintf(name, sizeof name, "coarse%d", c);
        n = add(out, n, max, name, "matmul_tiled", KIND_TILED, 32, c, 0, 0, GROUP_COARSENING,
                c == 1);
    }
    n = add(out, n, max, "colmajor_naive", "matmul_colmajor", KIND_COLMAJOR, 32, 1, 0, 0,
            GROUP_CORNER, 1);
    n = add(out, n, max, "corner_turning", "matmul_colmajor", KIND_COLMAJOR, 32, 1, 1, 0,
            GROUP_CORNER, 0);
    n = add(out, n, max, "corner_turn_pad", "matmul_colmajor", KIND_COLMAJOR, 32, 1, 1, 1,
            GROUP_CORNER, 0);
    return n;
}

static void matmul_default_size(const sb_device_info *dev, sb_problem *p)
{
    /* On a GPU, 4096 gives even the slowest variant tens of milliseconds and
       the most coarsened one (256 x 32 outputs per block) 2048 blocks, so the
       last partial wave does not blur the coarsening sweep.  On a CPU, small
       enough that the whole suite takes seconds. */
    long n = dev->is_gpu ? 4096 : 128;
    p->rows = p->cols = n;
}

/* Rows (or columns) to check in 0..extent: all of them, or a spread that
 * includes both edges and lands on every offset within a 32-wide tile. */
static int choose_lines(long extent, int all, long *out)
{
    if (all) {
        for (long i = 0; i < extent; i++)
            out[i] = i;
        return (int)extent;
    }
    int n = 0;
    out[n++] = 0;
    out[n++] = extent - 1;
    for (int s = 0; s < MATMUL_SAMPLES; s++) {
        long at = (long)((double)extent * s / MATMUL_SAMPLES) + (s * 7) % 32;
        out[n++] = at < extent ? at : extent - 1;
    }
    return n;
}

/* The reference of whole rows: k outer, columns inner, so the loop walks b
 * by rows and vectorises. */
static void reference_rows(matmul_host *h)
{
    for (int r = 0; r < h->nrows; r++) {
        double *ref = h->row_ref + (size_t)r * (size_t)h->n;
        double *tol = h->row_tol + (size_t)r * (size_t)h->n;
        const float *arow = h->a + (size_t)h->rows[r] * (size_t)h->k;
        for (long j = 0; j < h->n; j++)
            ref[j] = tol[j] = 0.0;
        for (long i = 0; i < h->k; i++) {
            double av = arow[i], aa = fabs(av);
            const float *brow = h->b + (size_t)i * (size_t)h->n;
            for (long j = 0; j < h->n; j++) {
                ref[j] += av * brow[j];
                tol[j] += aa * fabs((double)brow[j]);
            }
        }
    }
}

/* The reference of whole columns, through the column-major copy of b. */
static void reference_cols(matmul_host *h)
{
    for (int s = 0; s < h->ncols; s++) {
        const float *bcol = h->bt + (size_t)h->cols[s] * (size_t)h->k;
        double *ref = h->col_ref + (size_t)s * (size_t)h->m;
        double *tol = h->col_tol + (size_t)s * (size_t)h->m;
        for (long r = 0; r < h->m; r++) {
            const float *arow = h->a + (size_t)r * (size_t)h->k;
            double sum = 0.0, abs_sum = 0.0;
            for (long i = 0; i < h->k; i++) {
                double p = (double)arow[i] * bcol[i];
                sum += p;
                abs_sum += fabs(p);
            }
            ref[r] = sum;
            tol[r] = abs_sum;
        }
    }
}

static void matmul_release(void *host)
{
    matmul_host *h = host;
    if (!h)
        return;
    free(h->a);
    free(h->b);
    free(h->bt);
    free(h->rows);
    free(h->cols);
    free(h->row_ref);
    free(h->row_tol);
    free(h->col_ref);
    free(h->col_tol);
    free(h);
}

static int matmul_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    if ((double)p->cols * (double)p->cols > (double)INT_MAX) {
        snprintf(err, n, "matmul %ldx%ld: b is cols x cols, which must stay below 2^31 "
                         "elements; use fewer columns",
                 p->rows, p->cols);
        return -1;
    }
    matmul_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->m = p->rows;
    h->n = h->k = p->cols;
    size_t mk = (size_t)h->m * (size_t)h->k, kn = (size_t)h->k * (size_t)h->n;
    int all = (double)h->m * (double)h->n * (double)h->k <= (double)MATMUL_FULL_CHECK;
    size_t max_rows = all ? (size_t)h->m : MATMUL_SAMPLES + 2;
    size_t max_cols = all ? 0 : MATMUL_SAMPLES + 2;
    h->a = sb_host_alloc(mk * sizeof(float), err, n);
    h->b = h->a ? sb_host_alloc(kn * sizeof(float), err, n) : NULL;
    h->bt = h->b ? sb_host_alloc(kn * sizeof(float), err, n) : NULL;
    h->rows = h->bt ? sb_host_alloc(max_rows * sizeof(long), err, n) : NULL;
    h->cols = h->rows ? sb_host_alloc((max_cols ? max_cols : 1) * sizeof(long), err, n) : NULL;
    size_t row_elems = max_rows * (size_t)h->n, col_elems = max_cols * (size_t)h->m;
    h->row_ref = h->cols ? sb_host_alloc(row_elems * sizeof(double), err, n) : NULL;
    h->row_tol = h->row_ref ? sb_host_alloc(row_elems * sizeof(double), err, n) : NULL;
    h->col_ref = h->row_tol ? sb_host_alloc(col_elems * sizeof(double), err, n) : NULL;
    h->col_tol = h->col_ref ? sb_host_alloc(col_elems * sizeof(double), err, n) : NULL;
    if (!h->col_tol) {
        matmul_release(h);
        return -1;
    }
    /* Different seeds for a and b, so that b is not a copy of a. */
    sb_random_floats(h->a, mk, seed);
    sb_random_floats(h->b, kn, (uint64_t)seed * 2654435761u + 1);
    for (size_t i = 0; i < (size_t)h->k; i++)
        for (size_t j = 0; j < (size_t)h->n; j++)
            h->bt[j * (size_t)h->k + i] = h->b[i * (size_t)h->n + j];
    h->nrows = choose_lines(h->m, all, h->rows);
    h->ncols = all ? 0 : choose_lines(h->n, 0, h->cols);
    reference_rows(h);
    reference_cols(h);
    *host = h;
    return 0;
}

static void declare_global(sb_plan *plan, const char *label, long stride)
{
    int i = plan->npatterns++;
    plan->pattern[i] = sb_pattern_default();
    plan->pattern[i].space = SB_SPACE_GLOBAL;
    plan->pattern[i].stride = stride;
    snprintf(plan->pattern_label[i], sizeof plan->pattern_label[i], "%s", label);
}

static int matmul_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    matmul_host *h = host;
    (void)p;
    (void)dev;
    (void)err;
    (void)n;
    int kind = (int)v->param[0], tile = (int)v->param[1], coarse = (int)v->param[2];
    size_t a_bytes = (size_t)h->m * (size_t)h->k * sizeof(float);
    size_t b_bytes = (size_t)h->k * (size_t)h->n * sizeof(float);
    size_t c_bytes = (size_t)h->m * (size_t)h->n * sizeof(float);
    plan->nbuffers = 3;
    plan->buffer[0].bytes = a_bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = b_bytes;
    plan->buffer[1].init = kind == KIND_COLMAJOR ? h->bt : h->b;
    plan->buffer[2].bytes = c_bytes;
    plan->buffer[2].init = NULL;
    plan->nargs = 6;
    const int32_t dims[3] = {(int32_t)h->m, (int32_t)h->n, (int32_t)h->k};
    for (int i = 0; i < 3; i++) {
        plan->arg[i].kind = SB_PLAN_INT;
        plan->arg[i].i = dims[i];
        plan->arg[3 + i].kind = SB_PLAN_BUFFER;
        plan->arg[3 + i].buffer = i;
    }
    sb_grid_2d(&plan->geometry, v, h->n, h->m, (long)tile * coarse, tile);
    plan->flops = 2.0 * (double)h->m * (double)h->n * (double)h->k;
    /* Useful bytes: each matrix once, the least any kernel must move. */
    plan->bytes = (double)(a_bytes + b_bytes + c_bytes);
    plan->intensity = kind == KIND_SIMPLE ? sb_matmul_intensity(1, 1)
                                          : sb_matmul_intensity(tile, coarse);

    /* The load each variant is about, declared to the model. */
    if (kind == KIND_SIMPLE) {
        declare_global(plan, "a load", 0); /* one element for a row of threads */
        declare_global(plan, "b load", 1);
    } else if (kind == KIND_TILED) {
        declare_global(plan, "a load", 1);
        declare_global(plan, "b load", 1);
    } else {
        int turn = (int)v->param[3];
        declare_global(plan, "b load", turn ? 1 : h->k);
        /* The shared tile's store: by columns when corner-turned. */
        int i = plan->npatterns++;
        sb_pattern *pat = &plan->pattern[i];
        *pat = sb_pattern_default();
        pat->tile_rows = tile;
        pat->tile_cols = tile;
        pat->pad = (int)v->param[4];
        pat->walk = turn ? SB_WALK_COLUMN : SB_WALK_ROW;
        snprintf(plan->pattern_label[i], sizeof plan->pattern_label[i], "smem st");
    }
    return 0;
}

static int mismatch(char *err, size_t n, long row, long col, float got, double want, double tol)
{
    snprintf(err, n, "c[%ld][%ld] = %.9g, expected %.9g (|error| %.3g > bound %.3g)", row, col,
             got, want, fabs(got - want), tol);
    return -1;
}

static int matmul_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    matmul_host *h = host;
    const float *c = outputs[0];
    (void)p;
    (void)v;
    size_t total = (size_t)h->m * (size_t)h->n;
    for (size_t e = 0; e < total; e++)
        if (!isfinite(c[e])) {
            uint32_t bits;
            memcpy(&bits, &c[e], 4);
            snprintf(err, n, "c[%zu][%zu] = %g (0x%08x)%s", e / (size_t)h->n, e % (size_t)h->n,
                     c[e], bits, bits == SB_POISON_WORD ? ": never written" : ": not finite");
            return -1;
        }
    /* !(x <= bound) so that a NaN can never pass. */
    for (int r = 0; r < h->nrows; r++) {
        const float *crow = c + (size_t)h->rows[r] * (size_t)h->n;
        const double *ref = h->row_ref + (size_t)r * (size_t)h->n;
        const double *tol = h->row_tol + (size_t)r * (size_t)h->n;
        for (long j = 0; j < h->n; j++)
            if (!(fabs(crow[j] - ref[j]) <= MATMUL_REL_TOL * tol[j]))
                return mismatch(err, n, h->rows[r], j, crow[j], ref[j], MATMUL_REL_TOL * tol[j]);
    }
    for (int s = 0; s < h->ncols; s++) {
        const double *ref = h->col_ref + (size_t)s * (size_t)h->m;
        const double *tol = h->col_tol + (size_t)s * (size_t)h->m;
        for (long r = 0; r < h->m; r++) {
            float got = c[(size_t)r * (size_t)h->n + (size_t)h->cols[s]];
            if (!(fabs(got - ref[r]) <= MATMUL_REL_TOL * tol[r]))
                return mismatch(err, n, r, h->cols[s], got, ref[r], MATMUL_REL_TOL * tol[r]);
        }
    }
    return 0;
}

const sb_experiment sb_exp_matmul = {
    .name = "matmul",
    .family = "tiling",
    .source = "matmul.cl",
    .summary = "matrix multiply fp32: simple, tiled 16/32, coarsened x1/2/4/8, corner turning "
               "(GFLOP/s and FLOP/B)",
    .quantity = SB_QUANTITY_FLOPS,
    .in_default = 1,
    .test_sizes = "1,33,64,100,33x47,47x33",
    .variants = matmul_variants,
    .default_size = matmul_default_size,
    .prepare = matmul_prepare,
    .release = matmul_release,
    .plan = matmul_plan,
    .verify = matmul_verify,
};
