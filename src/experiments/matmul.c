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
 * sample of rows (edges included) and of columns, which keeps the host
 * reference short next to the run at GPU sizes. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define MATMUL_REL_TOL 1e-5
#define MATMUL_FULL_CHECK (1L << 30)
#define MATMUL_SAMPLES 32 /* rows and columns checked beyond the full limit */

/* The kernel a variant runs. */
typedef enum matmul_kind {
    KIND_SIMPLE,   /* matmul_simple: one output per thread, straight from global memory */
    KIND_TILED,    /* matmul_tiled: a and b staged in shared tiles, COARSE outputs per thread */
    KIND_COLMAJOR, /* matmul_colmajor: the same with b stored column-major */
    KIND_VENDOR    /* no kernel of ours: the vendor library's SGEMM on the row-major b */
} matmul_kind;

static const char *const kernel_name[] = {
    [KIND_SIMPLE] = "matmul_simple",
    [KIND_TILED] = "matmul_tiled",
    [KIND_COLMAJOR] = "matmul_colmajor",
    [KIND_VENDOR] = "",
};

/* Slowdowns compare within a group. */
typedef enum matmul_group { GROUP_TILING, GROUP_COARSENING, GROUP_CORNER } matmul_group;

/* What the plan needs of a variant. */
typedef struct matmul_knobs {
    matmul_kind kind;
    int tile;         /* TILE: the side of the shared tiles and of the block */
    int coarse;       /* COARSE: outputs per thread, along a row */
    int pad;          /* PAD: columns added to each row of b's shared tile */
    bool corner_turn; /* TURN: b's column-major tile loaded by columns */
    int smem_align;   /* SMEM_ALIGN: the shared tiles' alignment, 0 for the kernel's 16 */
} matmul_knobs;
SB_KNOBS(matmul_knobs)

/* One row of the catalogue.  smem_align 4 declares the shared tiles only
   4-byte aligned (a float's alignment) instead of 16. */
typedef struct matmul_entry {
    const char *name;
    matmul_kind kind;
    int tile, coarse, pad;
    bool corner_turn;
    int smem_align;
    matmul_group group;
    int baseline, in_default;
} matmul_entry;

static const matmul_entry matmul_table[] = {
    {.name = "simple", .kind = KIND_SIMPLE, .tile = 16, .coarse = 1,
     .group = GROUP_TILING, .baseline = 1, .in_default = 1},
    {.name = "tiled16", .kind = KIND_TILED, .tile = 16, .coarse = 1,
     .group = GROUP_TILING, .in_default = 1},
    {.name = "tiled32", .kind = KIND_TILED, .tile = 32, .coarse = 1,
     .group = GROUP_TILING, .in_default = 1},
    /* coarse1 is tiled32 again, on purpose: the sweep's own control. */
    {.name = "coarse1", .kind = KIND_TILED, .tile = 32, .coarse = 1,
     .group = GROUP_COARSENING, .baseline = 1, .in_default = 1},
    {.name = "coarse2", .kind = KIND_TILED, .tile = 32, .coarse = 2,
     .group = GROUP_COARSENING, .in_default = 1},
    {.name = "coarse4", .kind = KIND_TILED, .tile = 32, .coarse = 4,
     .group = GROUP_COARSENING, .in_default = 1},
    {.name = "coarse8", .kind = KIND_TILED, .tile = 32, .coarse = 8,
     .group = GROUP_COARSENING, .in_default = 1},
    {.name = "colmajor_naive", .kind = KIND_COLMAJOR, .tile = 32, .coarse = 1,
     .group = GROUP_CORNER, .baseline = 1, .in_default = 1},
    {.name = "corner_turning", .kind = KIND_COLMAJOR, .tile = 32, .coarse = 1,
     .corner_turn = 1, .group = GROUP_CORNER, .in_default = 1},
    {.name = "corner_turn_pad", .kind = KIND_COLMAJOR, .tile = 32, .coarse = 1,
     .corner_turn = 1, .pad = 1, .group = GROUP_CORNER, .in_default = 1},
    /* The shared tiles above are declared 16-byte aligned.  NVIDIA's
       OpenCL compiler reserves a few bytes of shared memory of its own
       ahead of them, so tiles declared only 4-byte aligned lose their
       16-byte shared loads there, and with them a good share of their
       speed, in OpenCL only: the cross-API lesson. */
    {.name = "tiled32_a4", .kind = KIND_TILED, .tile = 32, .coarse = 1, .smem_align = 4,
     .group = GROUP_TILING, .in_default = 1},
    {.name = "tiled16_a4", .kind = KIND_TILED, .tile = 16, .coarse = 1, .smem_align = 4,
     .group = GROUP_TILING},
    {.name = "coarse2_a4", .kind = KIND_TILED, .tile = 32, .coarse = 2, .smem_align = 4,
     .group = GROUP_COARSENING},
    {.name = "coarse4_a4", .kind = KIND_TILED, .tile = 32, .coarse = 4, .smem_align = 4,
     .group = GROUP_COARSENING},
    {.name = "corner_turn_pad_a4", .kind = KIND_COLMAJOR, .tile = 32, .coarse = 1,
     .corner_turn = 1, .pad = 1, .smem_align = 4, .group = GROUP_CORNER},
    /* The vendor library's SGEMM (cublasSgemm, CLBlastSgemm), where the
       backend has one: the reference to beat, held against the FP32 peak. */
    {.name = "vendor", .kind = KIND_VENDOR, .group = GROUP_TILING},
};

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

/* The variant of one catalogue row: its block shape and definitions. */
static void variant_of(sb_variant *v, const matmul_entry *e)
{
    if (e->kind == KIND_VENDOR) {
        sb_variant_init(v, e->name, NULL, 1, 1, 1);
        matmul_knobs k = {.kind = KIND_VENDOR};
        set_knobs(v, &k);
        v->role = SB_ROLE_VENDOR;
        v->vendor = SB_VENDOR_SGEMM;
        v->group = e->group;
        v->in_default = e->in_default;
        return;
    }
    sb_variant_init(v, e->name, kernel_name[e->kind], (unsigned)e->tile, (unsigned)e->tile, 1);
    sb_variant_define(v, "TILE=%d", e->tile);
    if (e->kind != KIND_SIMPLE)
        sb_variant_define(v, "COARSE=%d", e->coarse);
    if (e->kind == KIND_COLMAJOR) {
        sb_variant_define(v, "TURN=%d", e->corner_turn);
        sb_variant_define(v, "PAD=%d", e->pad);
    }
    if (e->smem_align)
        sb_variant_define(v, "SMEM_ALIGN=%d", e->smem_align);
    matmul_knobs k = {.kind = e->kind, .tile = e->tile, .coarse = e->coarse, .pad = e->pad,
                      .corner_turn = e->corner_turn, .smem_align = e->smem_align};
    set_knobs(v, &k);
    v->group = e->group;
    v->baseline = e->baseline;
    v->in_default = e->in_default;
}

static int matmul_variants(sb_variant *out, int max)
{
    int n = 0;
    for (size_t i = 0; i < sizeof matmul_table / sizeof matmul_table[0] && n < max; i++)
        variant_of(&out[n++], &matmul_table[i]);
    return n;
}

static void matmul_default_size(const sb_device_info *dev, sb_problem *p)
{
    /* On a GPU, 4096 gives even the slowest variant a launch long enough to
       time well and the most coarsened one (256 x 32 outputs per block) 2048
       blocks, so the last partial wave does not blur the coarsening sweep.
       On a CPU, small enough that the whole suite takes seconds. */
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

/* The reference of whole rows, in tiles of REF_ROWS rows by REF_COLS
 * columns, in parallel: k outer, so that the loop walks b by rows and
 * vectorises, and b is read once per REF_ROWS rows rather than once per
 * row.  Each element still sums its products in order of k, on one
 * thread: the same figures whatever the thread count. */
#define REF_ROWS 32
#define REF_COLS 256

static void reference_rows(matmul_host *h)
{
    const long row_tiles = (h->nrows + REF_ROWS - 1) / REF_ROWS;
    const long col_tiles = (h->n + REF_COLS - 1) / REF_COLS;
#pragma omp parallel for schedule(dynamic)
    for (long tile = 0; tile < row_tiles * col_tiles; tile++) {
        long r0 = tile / col_tiles * REF_ROWS, j0 = tile % col_tiles * REF_COLS;
        long r1 = r0 + REF_ROWS < h->nrows ? r0 + REF_ROWS : h->nrows;
        long j1 = j0 + REF_COLS < h->n ? j0 + REF_COLS : h->n;
        for (long r = r0; r < r1; r++)
            for (long j = j0; j < j1; j++)
                h->row_ref[r * h->n + j] = h->row_tol[r * h->n + j] = 0.0;
        for (long i = 0; i < h->k; i++) {
            const float *brow = h->b + (size_t)i * (size_t)h->n;
            for (long r = r0; r < r1; r++) {
                double av = h->a[(size_t)h->rows[r] * (size_t)h->k + (size_t)i], aa = fabs(av);
                double *ref = h->row_ref + (size_t)r * (size_t)h->n;
                double *tol = h->row_tol + (size_t)r * (size_t)h->n;
                for (long j = j0; j < j1; j++) {
                    ref[j] += av * brow[j];
                    tol[j] += aa * fabs((double)brow[j]);
                }
            }
        }
    }
}

/* The reference of whole columns, through the column-major copy of b: rows
 * of a in parallel, every sampled column for each, so that a is read once
 * and the sampled columns stay in the cache. */
static void reference_cols(matmul_host *h)
{
#pragma omp parallel for schedule(static) if (h->ncols > 0)
    for (long r = 0; r < h->m; r++) {
        const float *arow = h->a + (size_t)r * (size_t)h->k;
        for (int s = 0; s < h->ncols; s++) {
            const float *bcol = h->bt + (size_t)h->cols[s] * (size_t)h->k;
            double sum = 0.0, abs_sum = 0.0;
            for (long i = 0; i < h->k; i++) {
                double p = (double)arow[i] * bcol[i];
                sum += p;
                abs_sum += fabs(p);
            }
            h->col_ref[(size_t)s * (size_t)h->m + (size_t)r] = sum;
            h->col_tol[(size_t)s * (size_t)h->m + (size_t)r] = abs_sum;
        }
    }
}

/* bt = b column-major, in parallel by blocks of columns (each a run of
   bt's rows written in order). */
static void transpose_b(matmul_host *h)
{
    const long k = h->k, n = h->n, B = 64;
#pragma omp parallel for schedule(static)
    for (long j0 = 0; j0 < n; j0 += B)
        for (long i = 0; i < k; i++)
            for (long j = j0; j < j0 + B && j < n; j++)
                h->bt[j * k + i] = h->b[i * n + j];
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
    transpose_b(h);
    h->nrows = choose_lines(h->m, all, h->rows);
    h->ncols = all ? 0 : choose_lines(h->n, 0, h->cols);
    reference_rows(h);
    reference_cols(h);
    *host = h;
    return 0;
}

/* ------------------------------------------------ the accesses, declared */

/* One warp's request in a block of tile x tile threads: its lanes are
   32 / tile thread rows of `tile` columns, lane l at row l / tile, column
   l % tile, taking element row x row_pitch + column x col_step. */
static sb_pattern lanes_at(sb_space space, int word, int tile, long row_pitch, long col_step)
{
    sb_pattern p = sb_dense(space, word);
    p.walk = SB_WALK_LIST;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p.lane_index[l] = (int32_t)(l / tile * row_pitch + l % tile * col_step);
    return p;
}

/* Where a warp's request starts, in words: base = r0 x rp + x0 x cs +
 * i x ss for the warp of thread row r0 and thread column x0 (of the
 * whole launch), on trip i of the loop that repeats it (a step of
 * matmul_simple's k loop; 0 where the trips re-read the same elements,
 * as other blocks do).  Only base modulo 32 words (a 128-byte line) says
 * which sectors it takes, so warps are counted by that residue. */
typedef struct area_steps {
    long rp, cs, ss;
} area_steps;

#define RESIDUES 32

/* hist[(q x step) mod 32] counts the q in [first, first + count). */
static void residues_of(long first, long count, long step, double hist[RESIDUES])
{
    memset(hist, 0, RESIDUES * sizeof *hist);
    for (long q0 = 0; q0 < RESIDUES && q0 < count; q0++) {
        long r = ((first + q0) % RESIDUES) * (step % RESIDUES) % RESIDUES;
        hist[r] += (double)((count - q0 + RESIDUES - 1) / RESIDUES);
    }
}

/* out = the cyclic convolution of a and b: the residues of sums. */
static void convolve(const double a[RESIDUES], const double b[RESIDUES], double out[RESIDUES])
{
    double t[RESIDUES] = {0};
    for (int i = 0; i < RESIDUES; i++)
        for (int j = 0; j < RESIDUES && a[i] > 0; j++)
            t[(i + j) % RESIDUES] += a[i] * b[j];
    memcpy(out, t, sizeof t);
}

/* Declares the requests of warps of which `rows` thread rows and the
   first `cols` columns of each take part, `hist[o]` of them starting o
   words into a line; the first full warps carry the sites. */
static void declare_warps(sb_plan *plan, const sb_access *a, int tile, int rows, int cols,
                          const double hist[RESIDUES], int *first)
{
    uint32_t mask = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            mask |= 1u << (r * tile + c);
    int full = rows * tile == SB_WARP_LANES && cols == tile;
    for (int o = 0; o < RESIDUES; o++) {
        if (!(hist[o] > 0))
            continue;
        sb_access w = *a;
        w.pattern.active = full ? 0u : mask;
        w.pattern.offset = o;
        w.requests = hist[o];
        w.sites = *first ? a->sites : 0;
        w.studied = *first && full && a->studied; /* the matrix's edges are not the lesson */
        *first = 0;
        sb_plan_declare(plan, &w);
    }
}

/* An access made `times` over an area of thread columns x thread rows of
 * which the first x_extent columns and the first y_extent rows take part
 * (the matrix's edge): the whole warps, and those the edges cut, each
 * where its start falls in its line (st). */
static void declare_area(sb_plan *plan, const sb_access *a, int tile, long x_extent,
                         long y_extent, double times, area_steps st)
{
    int per_warp = SB_WARP_LANES / tile;
    long xw = x_extent / tile, yw = y_extent / per_warp;
    int xr = (int)(x_extent % tile), yr = (int)(y_extent % per_warp);
    double trips[RESIDUES], xs[2][RESIDUES], ys[2][RESIDUES], hist[RESIDUES];
    residues_of(0, (long)times, st.ss, trips);
    residues_of(0, xw, (long)tile * st.cs, xs[0]);
    residues_of(xw, xr > 0, (long)tile * st.cs, xs[1]);
    residues_of(0, yw, (long)per_warp * st.rp, ys[0]);
    residues_of(yw, yr > 0, (long)per_warp * st.rp, ys[1]);
    const int rows[2] = {per_warp, yr}, cols[2] = {tile, xr};
    int first = 1;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) {
            convolve(xs[x], ys[y], hist);
            convolve(hist, trips, hist);
            declare_warps(plan, a, tile, rows[y], cols[x], hist, &first);
        }
}

/* The shared tiles' accesses of the tiled kernels, every thread in every
 * phase: a's and b's elements stored (b by columns when corner-turned),
 * then per step of the product a's row element, which NVRTC reads four at
 * a time as one 16-byte load where the tile is 16-byte aligned (one
 * address for a thread row: a broadcast), and b's row elements. */
static void declare_smem(sb_plan *plan, const matmul_knobs *k, double warp_phases)
{
    /* Declared as NVRTC compiles it, the API the counters judge: it places
       a __shared__ tile on a 16-byte boundary whatever the alignment the
       source declares, so the _a4 tiles still get 16-byte row reads (on
       the H200 their shared loads counted 5 requests where 8 4-byte ones
       were declared, as many as the 16-aligned tiles).  NVIDIA's OpenCL
       keeps 4-byte reads there (its PTX), which no counter judges. */
    int t = k->tile, c = k->coarse, vec = 1;
    long pitch = k->kind == KIND_COLMAJOR ? t + k->pad : t;
    sb_pattern b_store = lanes_at(SB_SPACE_SHARED, 4, t, pitch, 1);
    if (k->kind == KIND_COLMAJOR && k->corner_turn)
        b_store = lanes_at(SB_SPACE_SHARED, 4, t, 1, pitch);
    int turned = k->kind == KIND_COLMAJOR;
    sb_plan_declare(plan, &(sb_access){"a smem st", SB_ACCESS_STORE,
                                       lanes_at(SB_SPACE_SHARED, 4, t, t, 1), warp_phases, 1, 0});
    sb_plan_declare(plan, &(sb_access){turned ? "smem st" : "b smem st", SB_ACCESS_STORE,
                                       b_store, warp_phases * c, c, turned});
    sb_plan_declare(plan, &(sb_access){"a smem ld", SB_ACCESS_LOAD,
                                       vec ? lanes_at(SB_SPACE_SHARED, 16, t, t / 4, 0)
                                           : lanes_at(SB_SPACE_SHARED, 4, t, t, 0),
                                       warp_phases * (vec ? t / 4 : t), SB_SITES_COMPILER, 0});
    sb_plan_declare(plan, &(sb_access){"b smem ld", SB_ACCESS_LOAD,
                                       lanes_at(SB_SPACE_SHARED, 4, t, 0, 1),
                                       warp_phases * t * c, SB_SITES_COMPILER, 0});
}

/* Every global and shared access of the variant's kernel.  Global loads
 * are made by the threads whose element lies inside the matrix (the others
 * take 0), and every block row or column re-reads its operand: a once per
 * block column, b once per block row (the redundancy tiling and
 * coarsening cut).  b's columns (colmajor) come as rows of bt.  Each
 * warp's request is declared where it starts in its line: where a row of
 * a matrix is not a whole number of sectors long, rows start in other
 * places of their sectors and may take one more. */
static void declare_accesses(const matmul_host *h, const matmul_knobs *k, sb_plan *plan)
{
    int t = k->tile, c = k->coarse;
    long m = h->m, n = h->n, kk = h->k;
    double gx = (double)((n + (long)t * c - 1) / ((long)t * c)), gy = (double)((m + t - 1) / t);
    double phases = (double)((kk + t - 1) / t);
    sb_access a = {"a load", SB_ACCESS_LOAD, lanes_at(SB_SPACE_GLOBAL, 4, t, kk, 1), 0, 1,
                   k->kind != KIND_COLMAJOR}; /* colmajor is about b's loads */
    sb_access b = {"b load", SB_ACCESS_LOAD, lanes_at(SB_SPACE_GLOBAL, 4, t, n, 1), 0, c, 1};
    sb_access out = {"c store", SB_ACCESS_STORE, lanes_at(SB_SPACE_GLOBAL, 4, t, n, 1), 0, c, 0};
    if (k->kind == KIND_SIMPLE) {
        a.pattern = lanes_at(SB_SPACE_GLOBAL, 4, t, kk, 0); /* a thread row's one element */
        b.pattern = lanes_at(SB_SPACE_GLOBAL, 4, t, 0, 1);  /* both thread rows, one b row */
        a.sites = b.sites = SB_SITES_COMPILER;
        declare_area(plan, &a, t, n, m, (double)kk, (area_steps){kk, 0, 1});
        declare_area(plan, &b, t, n, m, (double)kk, (area_steps){0, 1, n});
        declare_area(plan, &out, t, n, m, 1, (area_steps){n, 1, 0});
        return;
    }
    declare_area(plan, &a, t, kk, m, gx, (area_steps){kk, 1, 0});
    if (k->kind == KIND_TILED) {
        declare_area(plan, &b, t, n, kk, gy, (area_steps){n, 1, 0});
    } else if (k->corner_turn) {
        b.pattern = lanes_at(SB_SPACE_GLOBAL, 4, t, kk, 1); /* a row of bt per thread row */
        declare_area(plan, &b, t, kk, n, gy, (area_steps){kk, 1, 0});
    } else {
        b.pattern = lanes_at(SB_SPACE_GLOBAL, 4, t, 1, kk); /* across bt's rows */
        declare_area(plan, &b, t, n, kk, gy, (area_steps){1, kk, 0});
    }
    declare_area(plan, &out, t, n, m, 1, (area_steps){n, 1, 0});
    declare_smem(plan, k, gx * gy * phases * (double)(t * t / SB_WARP_LANES));
}

static int matmul_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    matmul_host *h = host;
    (void)p;
    (void)dev;
    (void)err;
    (void)n;
    matmul_knobs knobs = knobs_of(v);
    matmul_kind kind = knobs.kind;
    int tile = knobs.tile, coarse = knobs.coarse;
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
    plan->flops = 2.0 * (double)h->m * (double)h->n * (double)h->k;
    /* Useful bytes: each matrix once, the least any kernel must move. */
    plan->bytes = (double)(a_bytes + b_bytes + c_bytes);
    /* The vendor's tiling is its own: no intensity, no declared access;
       its share is of the FP32 peak. */
    if (kind == KIND_VENDOR)
        return 0;
    sb_grid_2d(&plan->geometry, v, h->n, h->m, (long)tile * coarse, tile);
    plan->intensity = kind == KIND_SIMPLE ? sb_matmul_intensity(1, 1)
                                          : sb_matmul_intensity(tile, coarse);

    declare_accesses(h, &knobs, plan);
    return 0;
}

static int mismatch(char *err, size_t n, long row, long col, float got, double want, double tol)
{
    snprintf(err, n, "c[%ld][%ld] = %.9g, expected %.9g (|error| %.3g > bound %.3g)", row, col,
             got, want, fabs(got - want), tol);
    return -1;
}

/* The checks, each a parallel search in the order the serial one walked:
 * every element for NaN (key: its index), the checked rows (key: the row's
 * place in the list x n + column), then the checked columns (key: the
 * column's place x m + row).  !(x <= bound) so that a NaN never passes. */
typedef struct matmul_scan {
    const matmul_host *h;
    const float *c;
} matmul_scan;

static long scan_finite(const void *ctx, long begin, long end)
{
    const matmul_scan *s = ctx;
    for (long e = begin; e < end; e++)
        if (!isfinite(s->c[e]))
            return e;
    return SB_NO_MISMATCH;
}

static long scan_rows(const void *ctx, long begin, long end)
{
    const matmul_scan *s = ctx;
    const matmul_host *h = s->h;
    for (long r = begin; r < end; r++) {
        const float *crow = s->c + (size_t)h->rows[r] * (size_t)h->n;
        const double *ref = h->row_ref + (size_t)r * (size_t)h->n;
        const double *tol = h->row_tol + (size_t)r * (size_t)h->n;
        for (long j = 0; j < h->n; j++)
            if (!(fabs(crow[j] - ref[j]) <= MATMUL_REL_TOL * tol[j]))
                return r * h->n + j;
    }
    return SB_NO_MISMATCH;
}

static long scan_cols(const void *ctx, long begin, long end)
{
    const matmul_scan *s = ctx;
    const matmul_host *h = s->h;
    for (long q = begin; q < end; q++) {
        const double *ref = h->col_ref + (size_t)q * (size_t)h->m;
        const double *tol = h->col_tol + (size_t)q * (size_t)h->m;
        for (long r = 0; r < h->m; r++) {
            float got = s->c[(size_t)r * (size_t)h->n + (size_t)h->cols[q]];
            if (!(fabs(got - ref[r]) <= MATMUL_REL_TOL * tol[r]))
                return q * h->m + r;
        }
    }
    return SB_NO_MISMATCH;
}

/* Lines (rows or columns) of `length` elements per chunk of a scan. */
static long line_grain(long length)
{
    return length > 0 && length < SB_SCAN_GRAIN ? SB_SCAN_GRAIN / length : 1;
}

static int matmul_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    matmul_host *h = host;
    const float *c = outputs[0];
    (void)p;
    (void)v;
    matmul_scan s = {h, c};
    long e = sb_first_mismatch(h->m * h->n, SB_SCAN_GRAIN, scan_finite, &s);
    if (e != SB_NO_MISMATCH) {
        uint32_t bits;
        memcpy(&bits, &c[e], 4);
        snprintf(err, n, "c[%ld][%ld] = %g (0x%08x)%s", e / h->n, e % h->n, c[e], bits,
                 bits == SB_POISON_WORD ? ": never written" : ": not finite");
        return -1;
    }
    long key = sb_first_mismatch(h->nrows, line_grain(h->n), scan_rows, &s);
    if (key != SB_NO_MISMATCH) {
        long r = key / h->n, j = key % h->n;
        size_t at = (size_t)r * (size_t)h->n + (size_t)j;
        return mismatch(err, n, h->rows[r], j, c[(size_t)h->rows[r] * (size_t)h->n + (size_t)j],
                        h->row_ref[at], MATMUL_REL_TOL * h->row_tol[at]);
    }
    key = sb_first_mismatch(h->ncols, line_grain(h->m), scan_cols, &s);
    if (key != SB_NO_MISMATCH) {
        long q = key / h->m, r = key % h->m;
        size_t at = (size_t)q * (size_t)h->m + (size_t)r;
        return mismatch(err, n, r, h->cols[q], c[(size_t)r * (size_t)h->n + (size_t)h->cols[q]],
                        h->col_ref[at], MATMUL_REL_TOL * h->col_tol[at]);
    }
    return 0;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule matmul_lessons[] = {
    {.kind = SB_LESSON_PAIR, .tried = "tiled32", .against = "simple",
     .what = "tiling through shared memory"},
    {.kind = SB_LESSON_COARSEN, .tried = "coarse"},
    {.kind = SB_LESSON_PAIR, .tried = "corner_turning",
     .against = "colmajor_naive", .what = "corner turning the column-major operand"},
    {.kind = SB_LESSON_PAIR, .tried = "corner_turn_pad",
     .against = "corner_turning", .what = "padding the corner-turned tile"},
    {0},
};

const sb_experiment sb_exp_matmul = {
    .name = "matmul",
    .family = "tiling",
    .source = "matmul.cl",
    .summary = "matrix multiply fp32: simple, tiled 16/32, coarsened x1/2/4/8, corner turning "
               "(GFLOP/s and FLOP/B)",
    .quantity = SB_QUANTITY_FLOPS,
    .size_kind = SB_SIZE_MATRIX,
    .in_default = 1,
    .test_sizes = "1,33,64,100,33x47,47x33",
    .variants = matmul_variants,
    .default_size = matmul_default_size,
    .prepare = matmul_prepare,
    .release = matmul_release,
    .plan = matmul_plan,
    .verify = matmul_verify,
    .headline = {SB_HEADLINE_BEST},
    .lessons = matmul_lessons,
};
