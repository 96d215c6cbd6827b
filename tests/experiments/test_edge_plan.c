/* The model's totals per launch where the size is no multiple of a tile:
 * edge tiles, partial warps and grids that do not divide the size, worked
 * out by hand below from the kernels in common/kernels/ and held against
 * the plans the families make.  Sizes are rows x cols of a (transpose:
 * c = a^T is cols x rows).
 *
 * The rules used by hand: a warp none of whose lanes passes the kernel's
 * guard makes no request; 32 consecutive floats from word o of a sector
 * take ceil((o + lanes) / 8) sectors; lanes 8 or more words apart take a
 * sector each; a shared request of 4-byte words takes as many wavefronts
 * as the most distinct words one bank gives. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/variant.h"

/* What a launch makes: requests and sectors (global), requests and
   wavefronts (shared), loads and stores. */
typedef struct launch_counts {
    double ld_req, ld_sectors, st_req, st_sectors;
    double sld_req, sld_wavefronts, sst_req, sst_wavefronts;
} launch_counts;

static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

/* The variant `name` of e. */
static sb_variant variant_named(const sb_experiment *e, const char *name)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    int n = e->variants(vs, SB_MAX_VARIANTS);
    for (int i = 0; i < n; i++)
        if (strcmp(vs[i].name, name) == 0) {
            sb_variant v = vs[i];
            free(vs);
            return v;
        }
    free(vs);
    fail_msg("%s has no variant %s", e->name, name);
    return (sb_variant){0};
}

/* v of e planned at rows x cols for a small GPU-less device. */
static void plan_at(const sb_experiment *e, const sb_variant *v, long rows, long cols,
                    sb_plan *plan)
{
    sb_problem p = {rows, cols};
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 2;
    dev.warp_size = 32;
    dev.local_mem_bytes = 48 * 1024;
    void *host = NULL;
    char err[512] = "";
    memset(plan, 0, sizeof *plan);
    if (e->prepare(&p, 1, &host, err, sizeof err))
        fail_msg("%s: prepare: %s", e->name, err);
    int rc = e->plan(host, &p, v, &dev, plan, err, sizeof err);
    e->release(host);
    if (rc)
        fail_msg("%s/%s at %ldx%ld: plan: %s", e->name, v->name, rows, cols, err);
    if (plan->undeclared || plan->npatterns > SB_MAX_PATTERNS)
        fail_msg("%s/%s at %ldx%ld: more than %d kinds of access", e->name, v->name, rows, cols,
                 SB_MAX_PATTERNS);
}

static sb_access_totals totals_at(const char *exp, const char *variant, long rows, long cols)
{
    const sb_experiment *e = experiment(exp);
    sb_variant v = variant_named(e, variant);
    sb_plan *plan = malloc(sizeof *plan);
    assert_non_null(plan);
    plan_at(e, &v, rows, cols, plan);
    sb_access_totals t;
    assert_int_equal(sb_access_totals_of(plan->pattern, plan->requests, plan->kind,
                                         plan->npatterns, &t), 0);
    free(plan);
    return t;
}

/* The plan's totals of exp/variant at rows x cols are `want`. */
static void expect(const char *exp, const char *variant, long rows, long cols, launch_counts want)
{
    sb_access_totals t = totals_at(exp, variant, rows, cols);
    const double got[8] = {t.global_ld_requests, t.global_ld_sectors, t.global_st_requests,
                           t.global_st_sectors, t.shared_ld_requests, t.shared_ld_wavefronts,
                           t.shared_st_requests, t.shared_st_wavefronts};
    const double w[8] = {want.ld_req, want.ld_sectors, want.st_req, want.st_sectors,
                         want.sld_req, want.sld_wavefronts, want.sst_req, want.sst_wavefronts};
    static const char *const what[8] = {"global ld requests", "global ld sectors",
                                        "global st requests", "global st sectors",
                                        "shared ld requests", "shared ld wavefronts",
                                        "shared st requests", "shared st wavefronts"};
    for (int i = 0; i < 8; i++)
        if (got[i] != w[i])
            fail_msg("%s/%s at %ldx%ld: %s %.0f, worked out by hand %.0f", exp, variant, rows,
                     cols, what[i], got[i], w[i]);
}

/* ---- transpose at 33 x 31 ---------------------------------------------
 *
 * a: 33 rows of 31 floats; row y starts at word 31 y, 31 y = -y mod 8.
 * A warp takes one row of a (its 31 columns: one warp of 31 lanes, as the
 * tile is 32 wide); from word o = -y mod 8 its 31 floats take 4 sectors
 * where o is 0 or 1 (y = 0 or 7 mod 8: y = 0, 8, 16, 24, 32, 7, 15, 23,
 * 31, nine rows) and 5 elsewhere (24 rows): 9 x 4 + 24 x 5 = 156 sectors
 * in 33 requests.
 *
 * c: 31 rows of 33 floats; row y starts at word 33 y = y mod 8.  Its 33
 * columns are a warp of 32 lanes (c's columns 0..31, a's rows of the
 * first tile row) and one of 1 lane (column 32, from the second tile
 * row, the bottom edge): 4 sectors where y = 0 mod 8 (y = 0, 8, 16, 24),
 * 5 for the 27 others, and 1 for each 1-lane warp:
 * 4 x 4 + 27 x 5 + 31 = 182 sectors in 62 requests.
 *
 * The tiled kernels (32 x 8 threads, tile [32][32 + PAD]): the shared
 * row stores are a's rows, 33 requests of one wavefront; the column
 * reads are c's rows, 62 requests: the 31 of 32 lanes are a column of
 * [32][32], one bank, 32 ways, the 31 of one lane 1 wavefront:
 * 31 x 32 + 31 = 1023 wavefronts; [32][33] puts a column's rows in 32
 * banks: 62.
 *
 * naive_read stores a's row y to c's column y: 31 lanes 33 words apart,
 * a sector each: 33 x 31 = 1023 sectors.  naive_write reads a's column
 * by lanes 31 words apart (a sector each) for each row of c, 32 lanes
 * and then 1: 31 x (32 + 1) = 1023 sectors in 62 requests; its stores
 * are c's rows as above.
 *
 * vec64x64: 33 x 31 is no multiple of 4 floats, so the one (corner) tile
 * goes element by element: a's rows and c's rows as above; its tile
 * store t[4 VPOS(cc, r / 4) + r % 4] puts lanes cc = 4 m .. 4 m + 3 (rows
 * 64 words apart, one XOR group) in one bank: 4 ways, 4 wavefronts for
 * each of 33 requests (the last group has 3 lanes, the worst bank still
 * 4): 132; its tile reads along c's rows take 32 consecutive words
 * (chunks permuted by the XOR): 1 wavefront each, 62. */
static void transpose_33x31(void **state)
{
    (void)state;
    expect("transpose", "naive_read", 33, 31, (launch_counts){33, 156, 33, 1023, 0, 0, 0, 0});
    expect("transpose", "naive_write", 33, 31, (launch_counts){62, 1023, 62, 182, 0, 0, 0, 0});
    expect("transpose", "tiled", 33, 31, (launch_counts){33, 156, 62, 182, 62, 1023, 33, 33});
    expect("transpose", "tiled_32x32", 33, 31,
           (launch_counts){33, 156, 62, 182, 62, 1023, 33, 33});
    expect("transpose", "padded", 33, 31, (launch_counts){33, 156, 62, 182, 62, 62, 33, 33});
    expect("transpose", "swizzled", 33, 31, (launch_counts){33, 156, 62, 182, 62, 62, 33, 33});
    expect("transpose", "vec64x64", 33, 31, (launch_counts){33, 156, 62, 182, 62, 62, 33, 132});
}

/* ---- transpose at 100 x 70 --------------------------------------------
 *
 * a: 100 rows of 70 floats, row y at word 70 y = 6 y mod 8: words 0, 6,
 * 4, 2 of a sector for y = 0, 1, 2, 3 mod 4, 25 rows each.  A row is two
 * warps of 32 lanes (4 sectors from word 0, else 5) and one of 6 (columns
 * 64..69: 1 sector from words 0 and 2, 2 from 4 and 6):
 * 25 x 2 x 4 + 75 x 2 x 5 + 25 x (1 + 2 + 2 + 1) = 200 + 750 + 150 = 1100
 * sectors in 300 requests.
 *
 * c: 70 rows of 100 floats, row y at word 100 y = 4 y mod 8: even rows on
 * a sector, odd ones 4 words in.  A row is three warps of 32 lanes and
 * one of 4 (a's rows 96..99, the bottom edge tiles), which stays in one
 * sector from word 0 or 4: 35 x 3 x 4 + 35 x 3 x 5 + 70 = 1015 sectors in
 * 280 requests.
 *
 * Tiled: 300 row stores of 1 wavefront; 280 column reads, 210 of 32 lanes
 * (32 ways in [32][32], 1 wavefront in [32][33]) and 70 of 4 lanes (4
 * ways, or 1): 210 x 32 + 70 x 4 = 7000, or 280.  tuned's [64][65] tiles
 * of 64 x 4 threads make the same requests (a warp is half a thread row)
 * and are conflict-free: as padded.
 *
 * naive_read: c's columns, a lane 100 words from the next, a sector each:
 * 100 rows x (32 + 32 + 6) = 7000 sectors.  naive_write: a's columns, 70
 * words apart: 70 x (3 x 32 + 4) = 7000 sectors in 280 requests.
 *
 * vec64x64: 70 is no multiple of 4, so every tile goes element by element
 * (tiles of 64 x 64: one whole, a right edge 64 x 6, a bottom edge 36 x 64,
 * a corner 36 x 6): the same global requests as tiled, a's rows 64 wide
 * in two warps; the tile stores 4 ways (the 6-lane warps too: lanes 0..3
 * share a bank), 300 x 4 = 1200 wavefronts; the reads 1 each, 280. */
static void transpose_100x70(void **state)
{
    (void)state;
    expect("transpose", "naive_read", 100, 70,
           (launch_counts){300, 1100, 300, 7000, 0, 0, 0, 0});
    expect("transpose", "naive_write", 100, 70,
           (launch_counts){280, 7000, 280, 1015, 0, 0, 0, 0});
    expect("transpose", "tiled", 100, 70,
           (launch_counts){300, 1100, 280, 1015, 280, 7000, 300, 300});
    expect("transpose", "padded", 100, 70,
           (launch_counts){300, 1100, 280, 1015, 280, 280, 300, 300});
    expect("transpose", "coarsened", 100, 70,
           (launch_counts){300, 1100, 280, 1015, 280, 280, 300, 300});
    expect("transpose", "tuned", 100, 70,
           (launch_counts){300, 1100, 280, 1015, 280, 280, 300, 300});
    expect("transpose", "vec64x64", 100, 70,
           (launch_counts){300, 1100, 280, 1015, 280, 280, 300, 1200});
}

/* ---- the vector transpose's float4 path beside an edge: 68 x 64 ----------
 *
 * Rows of 4-float multiples: the whole tile (a's rows 0..63) takes the
 * float4 path, the bottom edge tile (rows 64..67) the element path.
 * Whole tile: 64 x 64 / 128 = 32 requests of each access.  A load warp
 * takes two 16-float4 runs of a's rows (256 bytes each, on a sector): 16
 * sectors; a store warp two runs of c's rows, c's pitch 68 floats = 272
 * bytes, 16 mod 32: one run on a sector (8), the next 16 bytes in (9):
 * 17 sectors.  The shared tile: 16-byte words in 4 phases, no conflict,
 * 4 wavefronts a request.
 * Edge tile: 4 rows of a, two 32-lane warps each, on a sector: 8 requests,
 * 32 sectors, tile stores 4 ways (32 wavefronts); then 64 columns of c,
 * one 4-lane warp each (c's row j from word 68 j + 64 = 4 j mod 8: one
 * sector): 64 requests, 64 sectors, one wavefront each.
 * Totals: loads 40 requests, 512 + 32 = 544 sectors; stores 96, 544 + 64
 * = 608; shared stores 40, 128 + 32 = 160; shared loads 96, 128 + 64. */
static void transpose_vec4_beside_an_edge(void **state)
{
    (void)state;
    expect("transpose", "vec64x64", 68, 64,
           (launch_counts){40, 544, 96, 608, 96, 192, 40, 160});
}

/* ---- below one block: 1 x 1 and the row walk of 7 x 33 -------------------
 *
 * A 1 x 1 transpose is one lane of one warp everywhere: one request of one
 * sector (or wavefront) of each access.
 *
 * global_walk at 7 x 33: 33 threads walk 7 steps; warp 0 has 32 lanes,
 * warp 1 one.  Row walk: step k reads from word 33 k = k mod 8, 4 sectors
 * for k = 0 and 5 for k = 1..6, and lane 32 one sector: 4 + 30 + 7 = 41
 * in 14 requests.  Column walk: lanes 7 words apart, from word k (k < 7):
 * words k .. k + 217, sectors 0..27: 28 a step, and lane 32's one:
 * 7 x 28 + 7 = 203.  The sums' store: 33 words, 4 + 1 sectors. */
static void below_one_block(void **state)
{
    (void)state;
    const char *const tiles[] = {"tiled", "padded", "swizzled", "tuned", "coarsened", "vec64x64",
                                 "vec32x128"};
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++)
        expect("transpose", tiles[i], 1, 1, (launch_counts){1, 1, 1, 1, 1, 1, 1, 1});
    expect("transpose", "naive_read", 1, 1, (launch_counts){1, 1, 1, 1, 0, 0, 0, 0});
    expect("global_walk", "row", 7, 33, (launch_counts){14, 41, 2, 5, 0, 0, 0, 0});
    expect("global_walk", "column", 7, 33, (launch_counts){14, 203, 2, 5, 0, 0, 0, 0});
}

/* The global figures alone of exp/variant at rows x cols are `want`'s
   (the matrix multiply's shared loads follow rules of their own). */
static void expect_global(const char *exp, const char *variant, long rows, long cols,
                          launch_counts want)
{
    sb_access_totals t = totals_at(exp, variant, rows, cols);
    if (t.global_ld_requests != want.ld_req || t.global_ld_sectors != want.ld_sectors ||
        t.global_st_requests != want.st_req || t.global_st_sectors != want.st_sectors)
        fail_msg("%s/%s at %ldx%ld: global ld %.0f requests, %.0f sectors; st %.0f, %.0f; "
                 "worked out by hand %.0f, %.0f; %.0f, %.0f",
                 exp, variant, rows, cols, t.global_ld_requests, t.global_ld_sectors,
                 t.global_st_requests, t.global_st_sectors, want.ld_req, want.ld_sectors,
                 want.st_req, want.st_sectors);
}

/* ---- the matrix multiply's edges: m x n = 33 x 47 (k = n), 7 x 5 -------
 *
 * tiled32 (32 x 32 threads, a warp a thread row): a is 33 rows of 47,
 * row r at word 47 r = -r mod 8; each row is a 32-lane warp (4 sectors
 * where r = 0 mod 8: 5 rows; else 5) and a 15-lane one from column 32
 * (2 sectors from word 0 or 1 of a sector, r = 0 or 7 mod 8: 9 rows;
 * else 3), read by both block columns (47 = 32 + 15 columns of c):
 * 2 x (5 x 4 + 28 x 5 + 9 x 2 + 24 x 3) = 500 sectors in 132 requests.
 * b is 47 rows of 47, read by both block rows: 6 rows on a sector (0, 8,
 * .., 40), 11 with the 15-lane warp on two sectors:
 * 2 x (6 x 4 + 41 x 5 + 11 x 2 + 36 x 3) = 718 in 188.  c: 33 rows of 47
 * stored once, as a's rows: 250 sectors in 66 requests.
 *
 * simple at 7 x 5 (16 x 16 threads, a warp two thread rows, 5 columns
 * and 7 rows inside: warps of rows 0-1, 2-3, 4-5 and 6 alone), k = 5
 * steps.  a[row 5 + i]: a thread row's one word, the two rows' 5 words
 * apart: rows 0-1 share a sector for i = 0..2 (1), not for 3, 4 (2): 7;
 * rows 2-3, words 10 + i and 15 + i: 1, then 2, 2, 2, 2: 9; rows 4-5,
 * 20 + i and 25 + i: 2, 2, 2, 2, 1: 9; row 6: 5: 30 sectors in 20
 * requests.  b[5 i + col], both thread rows one run of 5 words: 1, 2,
 * 1, 2, 2 sectors for i = 0..4, 8 a warp: 32 in 20.  c: each warp's
 * rows 10 words from 0, 10, 20, 30: 2 sectors each, 8 in 4. */
static void matmul_edges(void **state)
{
    (void)state;
    expect_global("matmul", "tiled32", 33, 47, (launch_counts){320, 1218, 66, 250, 0, 0, 0, 0});
    expect_global("matmul", "simple", 7, 5, (launch_counts){40, 62, 4, 8, 0, 0, 0, 0});
}

/* Bytes the requests of one space and kind ask for: their lanes over the
   launch times the word size. */
static double asked(const sb_plan *plan, sb_space space, sb_access_kind kind)
{
    double bytes = 0;
    for (int i = 0; i < plan->npatterns; i++)
        if (plan->pattern[i].space == space && plan->kind[i] == kind)
            bytes += plan->lanes[i] * plan->pattern[i].word_bytes;
    return bytes;
}

/* Every transpose kernel reads each element of a once and writes each of c
 * once, and the tiled and vector ones store each into their tile once and
 * read it back once: the lanes of the declared requests, added over the
 * launch, are the matrix, at sizes of every shape (odd sides, rectangles
 * both ways, below one tile, one row, one column).  This holds the edge
 * tiles' and partial warps' lanes to what the kernels' guards let through. */
static void transpose_lanes_cover_the_matrix(void **state)
{
    (void)state;
    static const long sizes[][2] = {{1, 1},   {33, 31},  {31, 33},   {100, 70}, {70, 100},
                                    {68, 64}, {5, 200},  {1, 1000},  {1000, 1}, {132, 200},
                                    {777, 1000}, {129, 65}, {4, 4}, {64, 68}, {260, 132}};
    const sb_experiment *e = experiment("transpose");
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    sb_plan *plan = malloc(sizeof *plan);
    assert_non_null(vs);
    assert_non_null(plan);
    int n = e->variants(vs, SB_MAX_VARIANTS);
    for (int i = 0; i < n; i++) {
        if (!vs[i].kernel[0])
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            long rows = sizes[s][0], cols = sizes[s][1];
            double matrix = 4.0 * (double)rows * (double)cols;
            plan_at(e, &vs[i], rows, cols, plan);
            double ld = asked(plan, SB_SPACE_GLOBAL, SB_ACCESS_LOAD),
                   st = asked(plan, SB_SPACE_GLOBAL, SB_ACCESS_STORE),
                   sst = asked(plan, SB_SPACE_SHARED, SB_ACCESS_STORE),
                   sld = asked(plan, SB_SPACE_SHARED, SB_ACCESS_LOAD);
            if (ld != matrix || st != matrix || sst != sld || (sst != 0 && sst != matrix))
                fail_msg("transpose/%s at %ldx%ld: bytes asked: global ld %.0f, st %.0f, "
                         "shared st %.0f, ld %.0f; the matrix is %.0f",
                         vs[i].name, rows, cols, ld, st, sst, sld, matrix);
        }
    }
    free(plan);
    free(vs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transpose_33x31),
        cmocka_unit_test(transpose_100x70),
        cmocka_unit_test(transpose_vec4_beside_an_edge),
        cmocka_unit_test(below_one_block),
        cmocka_unit_test(matmul_edges),
        cmocka_unit_test(transpose_lanes_cover_the_matrix),
    };
    SB_TEST_MAIN(tests);
}
