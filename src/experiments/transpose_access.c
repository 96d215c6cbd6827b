/* The transpose family's accesses, block by block (see transpose_access.h).
 *
 * Every request is found the way the hardware meets it: for each warp of
 * a block and each trip of the kernel's loop, the lanes the guard lets
 * through and the element each takes.  A warp none of whose lanes passes
 * makes no request.  A tile's corner is a multiple of 32 elements from
 * the matrix's first element in both dimensions, so each row's place in
 * its sectors (and each tile's in the banks) is the same in every block
 * of a class; indices are taken from the block's corner. */
#include "experiments/transpose_access.h"

#include <stdlib.h>

#include "experiments/variant.h"

/* What the declarations of one launch share: the plan, the tally that
 * adds up identical requests, how many blocks the current class has, and
 * which of the kernel's accesses have been declared once (the first
 * declaration of each carries its static instructions and, for the one
 * under study, the studied flag). */
typedef struct planner {
    sb_plan *plan;
    sb_tally *tally;
    double blocks;
    int sites;     /* static instructions of each access (its loop's copies once unrolled) */
    unsigned studied; /* bit i: access i is what the variant is about */
    unsigned seen; /* bit i: access i declared once */
} planner;

enum { A_LOAD, A_STORE, A_SMEM_ROW, A_SMEM_COL, A_COUNT };
static const char *const tile_label[A_COUNT] = {"load", "store", "smem row", "smem col"};
static const sb_access_kind tile_kind[A_COUNT] = {SB_ACCESS_LOAD, SB_ACCESS_STORE,
                                                  SB_ACCESS_STORE, SB_ACCESS_LOAD};

/* One request of access `which`, made once by each block of the class. */
static void request(planner *pl, const char *const *label, const sb_access_kind *kind, int which,
                    sb_pattern pat)
{
    int first = !(pl->seen >> which & 1u);
    pl->seen |= 1u << which;
    sb_access a = {label[which], kind[which], pat, pl->blocks, first ? pl->sites : 0,
                   first && (pl->studied >> which & 1u)};
    sb_tally_add(pl->tally, pl->plan, &a);
}

/* A dense run of 32 elements from element `first` (of the block's corner). */
static sb_pattern dense_run(long first, uint32_t active)
{
    long idx[SB_WARP_LANES];
    for (int l = 0; l < SB_WARP_LANES; l++)
        idx[l] = first + l;
    return sb_global_request(4, idx, active);
}

/* 32 elements `stride` apart from element `first`. */
static sb_pattern strided_run(long first, long stride, uint32_t active)
{
    long idx[SB_WARP_LANES];
    for (int l = 0; l < SB_WARP_LANES; l++)
        idx[l] = first + l * stride;
    return sb_global_request(4, idx, active);
}

/* The shared tile [TILE][TILE + PAD] walked by a warp along row r from
   column c0 (walk SB_WALK_ROW) or down column r from row c0. */
static sb_pattern tile_walk(const sb_tile_shape *s, sb_walk walk, int r, int c0)
{
    sb_pattern p = sb_dense(SB_SPACE_SHARED, 4);
    p.tile_rows = p.tile_cols = s->tile;
    p.pad = s->pad;
    p.swizzle = s->swizzle;
    p.walk = walk;
    p.walk_index = r;
    p.offset = walk == SB_WALK_ROW ? c0 : (long)c0 * (s->tile + s->pad);
    return p;
}

/* The loop's trip j of the warp whose lanes are tx0..tx0+31 of thread
 * row ty, in a block of the class b: the first loop of each kernel, where
 * thread (tx, ty) takes element (row ty + j, column tx) of its tile (of
 * a; transpose_naive_write's tiles run along a's columns, so its tile's
 * rows are a's columns).  The guard: both inside the data. */
static void first_loop(planner *pl, const sb_problem *p, const sb_tile_shape *s,
                       const sb_block_class *b, int tx0, int r)
{
    if (r >= b->inside_y || tx0 >= b->inside_x)
        return;
    uint32_t on = sb_lanes_between(0, (int)(b->inside_x - tx0));
    const char *const *lb = tile_label;
    const sb_access_kind *kd = tile_kind;
    long rows = p->rows, cols = p->cols;
    switch (s->kernel) {
    case SB_TILE_COPY: /* c[y][x] = a[y][x] */
        request(pl, lb, kd, A_LOAD, dense_run(r * cols + tx0, on));
        request(pl, lb, kd, A_STORE, dense_run(r * cols + tx0, on));
        break;
    case SB_TILE_NAIVE_READ: /* c[x][y] = a[y][x] */
        request(pl, lb, kd, A_LOAD, dense_run(r * cols + tx0, on));
        request(pl, lb, kd, A_STORE, strided_run(tx0 * rows + r, rows, on));
        break;
    case SB_TILE_NAIVE_WRITE: /* c[y][x] = a[x][y], x a row of a */
        request(pl, lb, kd, A_LOAD, strided_run(tx0 * cols + r, cols, on));
        request(pl, lb, kd, A_STORE, dense_run(r * rows + tx0, on));
        break;
    case SB_TILE_TILED: /* tile[y][x] = a[y][x] */
        request(pl, lb, kd, A_LOAD, dense_run(r * cols + tx0, on));
    {
        sb_pattern row = tile_walk(s, SB_WALK_ROW, r, tx0);
        row.active = on;
        request(pl, lb, kd, A_SMEM_ROW, row);
        break;
    }
    }
}

/* transpose_tiled's second loop: thread (tx, ty) at trip j reads the
   tile's column ty + j from row tx and stores it to c's row bx + ty + j;
   the guard: row tx of the tile inside a's rows, column ty + j inside
   a's columns. */
static void second_loop(planner *pl, const sb_problem *p, const sb_tile_shape *s,
                        const sb_block_class *b, int tx0, int r)
{
    if (r >= b->inside_x || tx0 >= b->inside_y)
        return;
    uint32_t on = sb_lanes_between(0, (int)(b->inside_y - tx0));
    sb_pattern col = tile_walk(s, SB_WALK_COLUMN, r, tx0);
    col.active = on;
    request(pl, tile_label, tile_kind, A_SMEM_COL, col);
    request(pl, tile_label, tile_kind, A_STORE, dense_run(r * p->rows + tx0, on));
}

/* Every warp of one block of class b, every trip of its loops. */
static void tile_block(planner *pl, const sb_problem *p, const sb_tile_shape *s,
                       const sb_block_class *b)
{
    int warps = s->tile * s->block_rows / SB_WARP_LANES;
    for (int w = 0; w < warps; w++) {
        int tx0 = w * SB_WARP_LANES % s->tile, ty = w * SB_WARP_LANES / s->tile;
        for (int j = 0; j < s->tile; j += s->block_rows)
            first_loop(pl, p, s, b, tx0, ty + j);
    }
    if (s->kernel != SB_TILE_TILED)
        return;
    for (int w = 0; w < warps; w++) {
        int tx0 = w * SB_WARP_LANES % s->tile, ty = w * SB_WARP_LANES / s->tile;
        for (int j = 0; j < s->tile; j += s->block_rows)
            second_loop(pl, p, s, b, tx0, ty + j);
    }
}

void sb_transpose_declare_tiles(const sb_problem *p, const sb_tile_shape *s, sb_plan *plan)
{
    static const int studied_of[] = {
        [SB_TILE_COPY] = A_LOAD, [SB_TILE_NAIVE_READ] = A_STORE,
        [SB_TILE_NAIVE_WRITE] = A_LOAD, [SB_TILE_TILED] = A_SMEM_COL};
    planner pl = {plan, calloc(1, sizeof(sb_tally)), 0, s->tile / s->block_rows,
                  1u << studied_of[s->kernel], 0};
    /* The grid's x runs along a's columns, but transpose_naive_write's
       along a's rows. */
    int along_rows = s->kernel == SB_TILE_NAIVE_WRITE;
    sb_block_class cls[4];
    int n = sb_block_classes(along_rows ? p->rows : p->cols, along_rows ? p->cols : p->rows,
                             s->tile, s->tile, cls);
    for (int i = 0; i < n; i++) {
        pl.blocks = cls[i].count;
        tile_block(&pl, p, s, &cls[i]);
    }
    sb_tally_flush(pl.tally, plan);
    free(pl.tally);
}

/* ------------------------------------------------------ transpose_vec4 */

/* transpose_vec4's shape and the matrix it runs over. */
typedef struct vec4_shape {
    int vr, vc, vt, vq; /* VR, VC, VT and VQ = VR / 4 float4 chunks a row of the tile */
    long rows, cols;
} vec4_shape;

enum { V_LOAD, V_SMEM_ST, V_SMEM_LD, V_STORE, E_LOAD, E_SMEM_ST, E_SMEM_LD, E_STORE, V_COUNT };
static const char *const vec4_label[V_COUNT] = {"load", "smem st", "smem ld", "store",
                                                "edge load", "edge smem st", "edge smem ld",
                                                "edge store"};
static const sb_access_kind vec4_kind[V_COUNT] = {
    SB_ACCESS_LOAD, SB_ACCESS_STORE, SB_ACCESS_LOAD, SB_ACCESS_STORE,
    SB_ACCESS_LOAD, SB_ACCESS_STORE, SB_ACCESS_LOAD, SB_ACCESS_STORE};

/* VPOS(j, q): where the kernel keeps chunk q of the transposed tile's row j. */
static long vpos(const vec4_shape *v, long j, long q)
{
    return j * v->vq + (q ^ ((j >> 2) & (v->vq < 8 ? v->vq - 1 : 7)));
}

/* A global request of `word`-byte elements, lane l at element idx[l]
   (from a 128-byte boundary), always as a list walk: the float4 path's
   lanes, which the reports show lane by lane. */
static sb_pattern global_list(int word, const long idx[SB_WARP_LANES], uint32_t active)
{
    sb_pattern p = sb_dense(SB_SPACE_GLOBAL, word);
    long line = SB_SEGMENT_BYTES / word, low = idx[0];
    for (int l = 1; l < SB_WARP_LANES; l++)
        low = idx[l] < low ? idx[l] : low;
    p.walk = SB_WALK_LIST;
    p.active = active;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p.lane_index[l] = (int32_t)(idx[l] - low / line * line);
    return p;
}

/* A shared request of `word`-byte elements, lane l at element idx[l]. */
static sb_pattern shared_list(int word, const long idx[SB_WARP_LANES], uint32_t active)
{
    sb_pattern p = sb_dense(SB_SPACE_SHARED, word);
    p.walk = SB_WALK_LIST;
    p.active = active;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p.lane_index[l] = (int32_t)idx[l];
    return p;
}

static void vrequest(planner *pl, int which, sb_pattern pat)
{
    request(pl, vec4_label, vec4_kind, which, pat);
}

/* The float4 path of a whole tile of an aligned matrix: unit u of a thread
 * loads the 4 x 4 block (rows 4 rb .. 4 rb + 3, float4 column cb) and
 * stores its four transposed rows into the tile; then each thread stores
 * VR x VC / 16 / VT x 4 chunks of the tile to c.  Indices in float4s. */
static void vec4_whole_tile(planner *pl, const vec4_shape *v)
{
    int across = v->vc / 4, units = v->vq * across / v->vt;
    long a4 = v->cols / 4, c4 = v->rows / 4, ga[SB_WARP_LANES], sh[SB_WARP_LANES];
    for (int w = 0; w < v->vt / SB_WARP_LANES; w++)
        for (int i = 0; i < units; i++)
            for (int k = 0; k < 4; k++) {
                for (int l = 0; l < SB_WARP_LANES; l++) {
                    long u = (long)w * SB_WARP_LANES + l + (long)i * v->vt;
                    long cb = u % across, rb = u / across;
                    ga[l] = (4 * rb + k) * a4 + cb;
                    sh[l] = vpos(v, 4 * cb + k, rb);
                }
                vrequest(pl, V_LOAD, global_list(16, ga, 0));
                vrequest(pl, V_SMEM_ST, shared_list(16, sh, 0));
            }
    for (int w = 0; w < v->vt / SB_WARP_LANES; w++)
        for (int i = 0; i < units * 4; i++) {
            for (int l = 0; l < SB_WARP_LANES; l++) {
                long e = (long)w * SB_WARP_LANES + l + (long)i * v->vt, q = e % v->vq,
                     j = e / v->vq;
                sh[l] = vpos(v, j, q);
                ga[l] = j * c4 + q;
            }
            vrequest(pl, V_SMEM_LD, shared_list(16, sh, 0));
            vrequest(pl, V_STORE, global_list(16, ga, 0));
        }
}

/* The element path of a tile of which rows_in x cols_in lie inside the
 * matrix: element e = tid + i VT of the tile, row e / VC and column
 * e % VC, goes from a into the float tile at 4 VPOS(column, row / 4) +
 * row % 4; then element e, row e % VR of column e / VR of a, comes back
 * out to c.  A warp's 32 elements share a row (VC a multiple of 32), then
 * a column (VR a multiple of 32).  Indices in floats. */
static void vec4_element_tile(planner *pl, const vec4_shape *v, long rows_in, long cols_in)
{
    long ga[SB_WARP_LANES], sh[SB_WARP_LANES];
    for (long e0 = 0; e0 < (long)v->vr * v->vc; e0 += SB_WARP_LANES) {
        long r = e0 / v->vc, c0 = e0 % v->vc;
        if (r >= rows_in || c0 >= cols_in)
            continue;
        for (int l = 0; l < SB_WARP_LANES; l++) {
            ga[l] = r * v->cols + c0 + l;
            sh[l] = 4 * vpos(v, c0 + l, r >> 2) + (r & 3);
        }
        uint32_t on = sb_lanes_between(0, (int)(cols_in - c0));
        vrequest(pl, E_LOAD, sb_global_request(4, ga, on));
        vrequest(pl, E_SMEM_ST, shared_list(4, sh, on));
    }
    for (long e0 = 0; e0 < (long)v->vr * v->vc; e0 += SB_WARP_LANES) {
        long j = e0 / v->vr, r0 = e0 % v->vr;
        if (j >= cols_in || r0 >= rows_in)
            continue;
        for (int l = 0; l < SB_WARP_LANES; l++) {
            long r = r0 + l;
            sh[l] = 4 * vpos(v, j, r >> 2) + (r & 3);
            ga[l] = j * v->rows + r;
        }
        uint32_t on = sb_lanes_between(0, (int)(rows_in - r0));
        vrequest(pl, E_SMEM_LD, shared_list(4, sh, on));
        vrequest(pl, E_STORE, sb_global_request(4, ga, on));
    }
}

void sb_transpose_declare_vec4(const sb_problem *p, int vr, int vc, int vt, sb_plan *plan)
{
    vec4_shape v = {vr, vc, vt, vr / 4, p->rows, p->cols};
    int aligned = p->rows % 4 == 0 && p->cols % 4 == 0;
    int units = vr / 4 * (vc / 4) / vt;
    /* The variant is about its 16-byte global loads and stores. */
    planner pl = {plan, calloc(1, sizeof(sb_tally)), 0, 4 * units,
                  1u << V_LOAD | 1u << V_STORE, 0};
    sb_block_class cls[4];
    int n = sb_block_classes(p->cols, p->rows, vc, vr, cls);
    for (int i = 0; i < n; i++) {
        pl.blocks = cls[i].count;
        if (aligned && cls[i].inside_x == vc && cls[i].inside_y == vr) {
            vec4_whole_tile(&pl, &v);
            continue;
        }
        pl.sites = SB_SITES_COMPILER; /* loops of VR x VC / VT trips, unrolled as it likes */
        vec4_element_tile(&pl, &v, cls[i].inside_y, cls[i].inside_x);
        pl.sites = 4 * units;
    }
    sb_tally_flush(pl.tally, plan);
    free(pl.tally);
}
