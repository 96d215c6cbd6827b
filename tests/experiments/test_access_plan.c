/* The access patterns the global and shared experiments declare to the
 * model, read back through their own variants() and plan(): the figures of
 * the seeds (stride 8 of 4-byte words moves 32 sectors at 12.5%, stride 2
 * is a 2-way conflict, [32][33] removes the column walk's 32 ways, ...),
 * the agreement between each variant's -D definitions and its pattern, and
 * the slowdown groups; the privatisation family's figures of the atomics
 * model and the variants it leaves out where shared memory is short.
 * Where the CUDA backend loads, the PTX NVRTC makes
 * of the shared kernels is also checked: the repeated access must stay in
 * the loop. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "atomics_model.h"
#include "experiments/catalogue.h"
#include "plan/kernel_source.h"
#include "exec/registry.h"
#include "experiments/variant.h"

/* ---- helpers --------------------------------------------------------- */

/* The catalogue's experiment called `name`. */
static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

/* A CPU-like device with 48 KiB of shared memory per block. */
static sb_device_info small_device(void)
{
    sb_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 2;
    d.local_mem_bytes = 48 * 1024;
    return d;
}

/* All variants of an experiment, malloc'd; *n gets their count. */
static sb_variant *variants_of(const sb_experiment *e, int *n)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    *n = e->variants(vs, SB_MAX_VARIANTS);
    assert_true(*n > 0 && *n < SB_MAX_VARIANTS);
    return vs;
}

static const sb_variant *find(const sb_variant *vs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(vs[i].name, name) == 0)
            return &vs[i];
    fail_msg("no variant %s", name);
    return NULL;
}

/* Plans one variant at rows x cols into *plan and predicts its declared
   patterns: 0, or SB_PLAN_LEFT_OUT where the size leaves it out. */
static int plan_or_left_out(const sb_experiment *e, const sb_variant *v, long rows, long cols,
                            sb_prediction pred[SB_MAX_PATTERNS], sb_plan *plan)
{
    sb_problem p = {rows, cols};
    sb_device_info dev = small_device();
    void *host = NULL;
    char err[512] = "";
    memset(plan, 0, sizeof *plan);
    if (e->prepare(&p, 1, &host, err, sizeof err))
        fail_msg("%s: prepare: %s", e->name, err);
    int rc = e->plan(host, &p, v, &dev, plan, err, sizeof err);
    e->release(host);
    if (rc == SB_PLAN_LEFT_OUT)
        return rc;
    if (rc)
        fail_msg("%s/%s: plan: %s", e->name, v->name, err);
    assert_true(plan->npatterns <= SB_MAX_PATTERNS);
    if (plan->npatterns < 1 && v->role == SB_ROLE_KERNEL)
        fail_msg("%s/%s: a kernel that declares no access", e->name, v->name);
    for (int i = 0; i < plan->npatterns; i++)
        if (sb_predict(&plan->pattern[i], &pred[i]))
            fail_msg("%s/%s: the model rejects pattern %d: %s", e->name, v->name, i,
                     sb_pattern_check(&plan->pattern[i]));
    return 0;
}

/* Plans one variant at rows x cols and predicts its declared patterns. */
static sb_plan plan_of(const sb_experiment *e, const sb_variant *v, long rows, long cols,
                       sb_prediction pred[SB_MAX_PATTERNS])
{
    sb_plan plan;
    if (plan_or_left_out(e, v, rows, cols, pred, &plan))
        fail_msg("%s/%s: left out at %ldx%ld", e->name, v->name, rows, cols);
    return plan;
}

static sb_prediction predict(const sb_experiment *e, const char *name)
{
    int n;
    sb_variant *vs = variants_of(e, &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    plan_of(e, find(vs, n, name), 100, 100, pred);
    free(vs);
    return pred[0];
}

/* The integer value of definition NAME, or `absent` when not defined. */
static long define_value(const sb_variant *v, const char *name, long absent)
{
    size_t len = strlen(name);
    for (int i = 0; i < v->ndefines; i++)
        if (strncmp(v->defines[i], name, len) == 0 && v->defines[i][len] == '=')
            return strtol(v->defines[i] + len + 1, NULL, 10);
    return absent;
}

/* ---- global memory --------------------------------------------------- */

/* Seed 000: lanes 32 bytes apart or more each need their own sector. */
static void global_stride_8_is_32_sectors(void **state)
{
    (void)state;
    sb_prediction p = predict(experiment("global_stride"), "w4-s8-load");
    assert_int_equal(p.space, SB_SPACE_GLOBAL);
    assert_int_equal(p.sectors, 32);
    assert_int_equal(p.transferred_bytes, 1024);
    assert_double_equal(p.efficiency, 0.125, 1e-12);
    p = predict(experiment("global_stride"), "w4-s8-store");
    assert_int_equal(p.sectors, 32);
}

static void global_stride_1_is_coalesced(void **state)
{
    (void)state;
    sb_prediction p = predict(experiment("global_stride"), "w4-s1-load");
    assert_int_equal(p.sectors, 4);
    assert_double_equal(p.efficiency, 1.0, 1e-12);
    p = predict(experiment("global_stride"), "w16-s1-load");
    assert_int_equal(p.sectors, 16);
    p = predict(experiment("global_stride"), "w16-s2-load");
    assert_int_equal(p.sectors, 32);
    assert_double_equal(p.efficiency, 0.5, 1e-12);
}

/* The copy's other side is declared too, and is always dense; so is the
   tail, copied in order, its last warp partial: 100 x 100 words are 5000
   8-byte elements, two blocks of 32 x 64 and a tail of 904 = 28 x 32 + 8. */
static void global_dense_side_declared(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("global_stride"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("global_stride"), find(vs, n, "w8-s64-store"), 100, 100, pred);
    assert_int_equal(plan.npatterns, 6);
    assert_string_equal(plan.pattern_label[0], "store");
    assert_string_equal(plan.pattern_label[1], "load");
    assert_true(plan.studied[0] && plan.studied[1]);
    assert_int_equal(plan.kind[0], SB_ACCESS_STORE);
    assert_int_equal(plan.kind[1], SB_ACCESS_LOAD);
    assert_int_equal(pred[1].sectors, 8);
    assert_double_equal(pred[1].efficiency, 1.0, 1e-12);
    /* one request a warp: 2 blocks of 32 lanes, 64 phases */
    assert_double_equal(plan.requests[0], 2.0 * 64, 0.0);
    assert_double_equal(plan.requests[1], 2.0 * 64, 0.0);
    double tail_full = 0, tail_part = 0;
    for (int i = 2; i < plan.npatterns; i++) {
        assert_false(plan.studied[i]);
        assert_int_equal(plan.pattern[i].stride, 1);
        if (plan.pattern[i].active == 0)
            tail_full += plan.requests[i];
        else {
            assert_int_equal(plan.pattern[i].active, 0xffu);
            assert_int_equal(pred[i].lanes, 8);
            assert_int_equal(pred[i].sectors, 2);
            tail_part += plan.requests[i];
        }
    }
    assert_double_equal(tail_full, 2.0 * 28, 0.0); /* the tail's load and store */
    assert_double_equal(tail_part, 2.0, 0.0);
    free(vs);
}

/* Every variant's pattern carries exactly the word, stride, offset,
   permutation and sharing of its definitions. */
static void global_patterns_match_defines(void **state)
{
    (void)state;
    const sb_experiment *exps[] = {experiment("global_stride"), experiment("global_offset"),
                                   experiment("global_perm"), experiment("global_broadcast")};
    for (size_t x = 0; x < sizeof exps / sizeof exps[0]; x++) {
        int n;
        sb_variant *vs = variants_of(exps[x], &n);
        for (int i = 0; i < n; i++) {
            sb_prediction pred[SB_MAX_PATTERNS];
            /* a size with a whole block of 32 x the step for every variant */
            sb_plan plan = plan_of(exps[x], &vs[i], 100, 100, pred);
            const sb_pattern *p = &plan.pattern[0];
            assert_int_equal(p->space, SB_SPACE_GLOBAL);
            assert_int_equal(p->word_bytes, define_value(&vs[i], "WORD", -1));
            assert_int_equal(p->stride, define_value(&vs[i], "STRIDE", 1));
            assert_int_equal(p->spread, define_value(&vs[i], "SPREAD", 0));
            assert_int_equal(p->offset, define_value(&vs[i], "OFFSET", 0));
            assert_int_equal(p->perm, define_value(&vs[i], "PERM", 0));
            assert_int_equal(p->perm_arg, define_value(&vs[i], "PERM_ARG", 0));
            assert_int_equal(p->same, define_value(&vs[i], "SAME", 1));
            assert_string_equal(plan.pattern_label[0],
                                strcmp(vs[i].kernel, "global_store") ? "load" : "store");
            /* useful bytes: every element read once and written once */
            assert_true(plan.bytes > 0);
        }
        free(vs);
    }
}

/* Misalignment: k words after a 128-byte boundary cross into a fifth
   sector unless k is a whole number of sectors. */
static void global_offset_sectors(void **state)
{
    (void)state;
    for (int k = 0; k <= 32; k++) {
        char name[32];
        snprintf(name, sizeof name, "w4-k%d-load", k);
        sb_prediction p = predict(experiment("global_offset"), name);
        assert_int_equal(p.sectors, k % 8 == 0 ? 4 : 5);
        assert_int_equal(p.unique_bytes, 128);
    }
}

/* Seed 000: a permutation inside the segment still coalesces; the same
   order spread one segment per lane does not. */
static void global_perm_inside_and_spread(void **state)
{
    (void)state;
    static const char *const perms[] = {"identity", "reverse", "xor9", "random1"};
    for (size_t i = 0; i < sizeof perms / sizeof perms[0]; i++) {
        char name[48];
        snprintf(name, sizeof name, "w4-%s-load", perms[i]);
        sb_prediction p = predict(experiment("global_perm"), name);
        assert_int_equal(p.sectors, 4);
        assert_double_equal(p.efficiency, 1.0, 1e-12);
        snprintf(name, sizeof name, "w4-%s-spread-store", perms[i]);
        p = predict(experiment("global_perm"), name);
        assert_int_equal(p.sectors, 32);
        assert_int_equal(p.segments, 32);
        assert_double_equal(p.efficiency, 0.125, 1e-12);
    }
}

/* The random permutation the host uploads is the model's. */
static void global_perm_table_is_the_models(void **state)
{
    (void)state;
    int n;
    const sb_experiment *perm = experiment("global_perm");
    sb_variant *vs = variants_of(perm, &n);
    const sb_variant *v = find(vs, n, "w4-random1-load");
    sb_problem p = {100, 100};
    sb_device_info dev = small_device();
    void *host = NULL;
    char err[256];
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    assert_int_equal(perm->prepare(&p, 1, &host, err, sizeof err), 0);
    assert_int_equal(perm->plan(host, &p, v, &dev, &plan, err, sizeof err), 0);
    int want[SB_WARP_LANES];
    assert_int_equal(sb_perm_table(SB_PERM_RANDOM, 1, want), 0);
    assert_int_equal(plan.buffer[2].bytes, sizeof(int32_t) * SB_WARP_LANES);
    const int32_t *table = plan.buffer[2].init;
    for (int l = 0; l < SB_WARP_LANES; l++)
        assert_int_equal(table[l], want[l]);
    perm->release(host);
    free(vs);
}

static void global_broadcast_one_sector(void **state)
{
    (void)state;
    sb_prediction p = predict(experiment("global_broadcast"), "w4-broadcast");
    assert_int_equal(p.sectors, 1);
    assert_int_equal(p.unique_bytes, 4);
    p = predict(experiment("global_broadcast"), "w4-same4");
    assert_int_equal(p.sectors, 1);
    assert_int_equal(p.unique_bytes, 32);
}

/* Corner turning: the column walk's lanes are `rows` words apart. */
static void global_walk_row_and_column(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("global_walk"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("global_walk"), find(vs, n, "row"), 64, 4096, pred);
    assert_int_equal(pred[0].sectors, 4);
    plan = plan_of(experiment("global_walk"), find(vs, n, "column"), 64, 4096, pred);
    assert_int_equal(plan.pattern[0].stride, 64);
    assert_int_equal(pred[0].sectors, 32);
    assert_double_equal(pred[0].efficiency, 0.125, 1e-12);
    free(vs);
}

/* ---- shared memory --------------------------------------------------- */

/* Seed 000/002: stride 1 none, 2 two-way, 3 none, 2^k 2^k-way, 32 and
   64 32-way. */
static void shared_stride_ways(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int ways, wavefronts;
    } cases[] = {{"w4-s1-load", 1, 1},   {"w4-s2-load", 2, 2},   {"w4-s3-load", 1, 1},
                 {"w4-s4-store", 4, 4},  {"w4-s8-load", 8, 8},   {"w4-s16-load", 16, 16},
                 {"w4-s32-load", 32, 32}, {"w4-s64-store", 32, 32}, {"w4-s6-load", 2, 2},
                 {"w8-s1-load", 1, 2},   {"w8-s2-load", 2, 4},   {"w16-s1-load", 1, 4},
                 {"w16-s2-store", 2, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_prediction p = predict(experiment("shared_stride"), cases[i].name);
        assert_int_equal(p.space, SB_SPACE_SHARED);
        if (p.ways != cases[i].ways || p.wavefronts != cases[i].wavefronts)
            fail_msg("%s: %d-way, %d wavefronts; expected %d-way, %d", cases[i].name, p.ways,
                     p.wavefronts, cases[i].ways, cases[i].wavefronts);
    }
}

/* Seed 002 section 7: a 16-byte element needs 4 wavefronts even without
   conflict, an 8-byte one 2. */
static void shared_wide_elements_phases(void **state)
{
    (void)state;
    sb_prediction p = predict(experiment("shared_stride"), "w16-s1-load");
    assert_int_equal(p.wavefronts, 4);
    assert_int_equal(p.ideal_wavefronts, 4);
    assert_int_equal(p.conflicts, 0);
    p = predict(experiment("shared_stride"), "w8-s1-store");
    assert_int_equal(p.wavefronts, 2);
    assert_int_equal(p.conflicts, 0);
}

static void shared_tiles(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int ways;
    } cases[] = {{"32x32-row-load", 1},      {"32x32-column-load", 32},
                 {"32x33-row-load", 1},      {"32x33-column-load", 1},
                 {"32x32-xor-row-store", 1}, {"32x32-xor-column-store", 1},
                 {"32x32-column-store", 32}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_prediction p = predict(experiment("shared_tile"), cases[i].name);
        if (p.ways != cases[i].ways)
            fail_msg("%s: %d-way, expected %d", cases[i].name, p.ways, cases[i].ways);
    }
    int n;
    sb_variant *vs = variants_of(experiment("shared_tile"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("shared_tile"), find(vs, n, "32x33-column-load"), 1, 1, pred);
    assert_int_equal(plan.pattern[0].tile_rows, 32);
    assert_int_equal(plan.pattern[0].tile_cols, 32);
    assert_int_equal(plan.pattern[0].pad, 1);
    assert_int_equal(plan.pattern[0].walk, SB_WALK_COLUMN);
    assert_int_equal(define_value(find(vs, n, "32x33-column-load"), "PAD", -1), 1);
    assert_int_equal(define_value(find(vs, n, "32x32-xor-row-load"), "SWIZZLE", 0), 1);
    free(vs);
}

/* Same word: free; distinct words of one bank: one pass each. */
static void shared_broadcast_and_same_bank(void **state)
{
    (void)state;
    sb_prediction p = predict(experiment("shared_broadcast"), "w4-broadcast-load");
    assert_int_equal(p.broadcast, 1);
    assert_int_equal(p.wavefronts, 1);
    for (int same = 1; same <= 16; same *= 2) {
        char name[48];
        snprintf(name, sizeof name, "w4-same%d-s1-load", same);
        assert_int_equal(predict(experiment("shared_broadcast"), name).ways, 1);
        snprintf(name, sizeof name, "w4-same%d-s32-store", same);
        assert_int_equal(predict(experiment("shared_broadcast"), name).ways, 32 / same);
    }
}

/* The stride the pattern declares is the STRIDE definition; the
   accesses counted are every launched warp's ITERS. */
static void shared_patterns_match_defines(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("shared_stride"), &n);
    for (int i = 0; i < n; i++) {
        sb_prediction pred[SB_MAX_PATTERNS];
        sb_plan plan = plan_of(experiment("shared_stride"), &vs[i], 1, 300, pred);
        assert_int_equal(plan.pattern[0].word_bytes, define_value(&vs[i], "WORD", -1));
        assert_int_equal(plan.pattern[0].stride, define_value(&vs[i], "STRIDE", -1));
        assert_int_equal(plan.pattern[0].same, define_value(&vs[i], "SAME", 1));
        long iters = define_value(&vs[i], "ITERS", -1);
        assert_true(iters > 0 && iters % 8 == 0);
        /* 300 threads: two blocks of 8 warps */
        assert_double_equal(plan.accesses, 2.0 * 8.0 * (double)iters, 0.0);
        assert_int_equal(plan.geometry.grid[0], 2);
    }
    free(vs);
}


/* ---- every access, counted ----------------------------------------------- */

/* The model's totals over a plan's declared accesses. */
static sb_access_totals totals_of(const sb_plan *plan)
{
    sb_access_totals t;
    assert_int_equal(sb_access_totals_of(plan->pattern, plan->requests, plan->kind,
                                         plan->npatterns, &t), 0);
    return t;
}

/* Issue 15: w4-random1-spread-load reads its lane table, one 4-sector
 * request per warp beside its four 32-sector data loads, so the kernel's
 * loads average (4 x 32 + 4) / 5 = 26.4 sectors a request.  256 x 128
 * words are 32 blocks of 32 lanes x 32 phases, no tail: each of the 8
 * warps of the one block of threads makes 4 data loads per phase. */
static void global_lane_table_declared(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("global_perm"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("global_perm"), find(vs, n, "w4-random1-spread-load"), 256,
                           128, pred);
    assert_int_equal(plan.npatterns, 3);
    assert_string_equal(plan.pattern_label[2], "lane table");
    assert_false(plan.studied[2]);
    assert_int_equal(pred[0].sectors, 32);
    assert_int_equal(pred[2].sectors, 4);
    assert_double_equal(plan.requests[0], 32.0 * 32, 0.0);
    assert_double_equal(plan.requests[2], 8.0 * 32, 0.0);
    sb_access_totals t = totals_of(&plan);
    assert_double_equal(t.global_ld_sectors_per_request, 26.4, 1e-12);
    assert_double_equal(t.global_st_sectors_per_request, 4.0, 1e-12);
    /* without the table (any other permutation) the loads are the pattern's */
    plan = plan_of(experiment("global_perm"), find(vs, n, "w4-xor9-spread-load"), 256, 128, pred);
    assert_int_equal(plan.npatterns, 2);
    assert_double_equal(totals_of(&plan).global_ld_sectors_per_request, 32.0, 1e-12);
    free(vs);
}

/* The shared kernels: the fill of the buffer (whole warps: SPAN is made a
 * multiple of 32), every warp's ITERS accesses, and the output. */
static void shared_accesses_counted(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("shared_tile"), &n);
    const sb_variant *v = find(vs, n, "32x32-column-store");
    long span = define_value(v, "SPAN", -1), iters = define_value(v, "ITERS", -1);
    assert_true(span > 0 && span % SB_WARP_LANES == 0);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("shared_tile"), v, 1, 300, pred); /* 2 blocks */
    assert_string_equal(plan.pattern_label[0], "store");
    assert_double_equal(plan.requests[0], 2.0 * 8 * (double)iters, 0.0);
    sb_access_totals t = totals_of(&plan);
    double fill = 2.0 * (double)span / SB_WARP_LANES;
    assert_double_equal(t.shared_st_requests, plan.requests[0] + fill, 0.0);
    assert_double_equal(t.shared_st_wavefronts, plan.requests[0] * 32 + fill, 0.0);
    assert_double_equal(t.shared_ld_requests, fill, 0.0); /* the dump */
    /* global: the fill, the slots' values (8 per warp), the dump */
    assert_double_equal(t.global_ld_requests, fill + 2.0 * 8 * 8, 0.0);
    assert_double_equal(t.global_st_requests, fill, 0.0);
    /* a column of [32][32]: each warp's column, 32 words 128 bytes apart */
    assert_double_equal(t.global_ld_sectors, 4 * fill + 2.0 * 8 * 8 * 32, 0.0);
    free(vs);
    /* a padded row walk's value loads: warp w reads 32 words w x 33 in, in
       5 sectors but for warp 0's 4 */
    vs = variants_of(experiment("shared_tile"), &n);
    plan = plan_of(experiment("shared_tile"), find(vs, n, "32x33-row-store"), 1, 256, pred);
    double slot4 = 0, slot5 = 0;
    for (int i = 0; i < plan.npatterns; i++)
        if (strcmp(plan.pattern_label[i], "slot load") == 0)
            *(pred[i].sectors == 4 ? &slot4 : &slot5) += plan.requests[i];
    assert_double_equal(slot4, 8.0, 0.0);
    assert_double_equal(slot5, 7.0 * 8, 0.0);
    free(vs);
}

/* The transposes at 64 x 96: a's rows are 3 warps each, c's 2. */
static void transpose_accesses_counted(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("transpose"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("transpose"), find(vs, n, "tiled"), 64, 96, pred);
    sb_access_totals t = totals_of(&plan);
    assert_string_equal(plan.pattern_label[0], "smem col");
    assert_double_equal(t.global_ld_requests, 64.0 * 3, 0.0);
    assert_double_equal(t.shared_st_requests, 64.0 * 3, 0.0);
    assert_double_equal(t.shared_ld_requests, 96.0 * 2, 0.0);
    assert_double_equal(t.global_st_requests, 96.0 * 2, 0.0);
    assert_double_equal(t.shared_ld_wavefronts_per_request, 32.0, 1e-12);
    assert_double_equal(t.shared_ld_conflicts, 96.0 * 2 * 31, 0.0);
    assert_double_equal(t.global_ld_sectors_per_request, 4.0, 1e-12);
    /* the naive read's stores: one sector a lane */
    plan = plan_of(experiment("transpose"), find(vs, n, "naive_read"), 64, 96, pred);
    assert_string_equal(plan.pattern_label[0], "store");
    assert_double_equal(totals_of(&plan).global_st_sectors_per_request, 32.0, 1e-12);
    /* 16-byte vectors in 64 x 64 tiles: 4 tiles of 32 requests of each
       access, conflict-free through the kernel's swizzle */
    plan = plan_of(experiment("transpose"), find(vs, n, "vec64x64"), 128, 128, pred);
    t = totals_of(&plan);
    assert_int_equal(plan.npatterns, 4);
    assert_double_equal(t.global_ld_requests, 4.0 * 32, 0.0);
    assert_double_equal(t.shared_st_wavefronts_per_request, 4.0, 1e-12);
    assert_double_equal(t.shared_ld_wavefronts_per_request, 4.0, 1e-12);
    assert_double_equal(t.shared_st_conflicts + t.shared_ld_conflicts, 0.0, 0.0);
    assert_double_equal(t.global_st_sectors_per_request, 16.0, 1e-12);
    /* at 100 x 100 only the element path runs: its tile store meets the
       float4 swizzle four lanes to a bank */
    plan = plan_of(experiment("transpose"), find(vs, n, "vec64x64"), 100, 100, pred);
    for (int i = 0; i < plan.npatterns; i++)
        if (strcmp(plan.pattern_label[i], "edge smem st") == 0 && plan.pattern[i].active == 0)
            assert_int_equal(pred[i].ways, 4);
    free(vs);
}

/* Every variant of every experiment, at every size its tests run that
 * does not leave it out: all its accesses fit, each has requests, the
 * studied ones come first, and the totals add up. */
static void every_variant_declares_its_accesses(void **state)
{
    (void)state;
    for (int x = 0; x < sb_catalogue_count(); x++) {
        const sb_experiment *e = sb_catalogue_get(x);
        if (e->trace_kernel)
            continue; /* declared from the kernel's trace: tests/experiments/pattern.sh */
        int n;
        sb_variant *vs = variants_of(e, &n);
        char sizes[128];
        snprintf(sizes, sizeof sizes, "%s", e->test_sizes);
        for (char *save = NULL, *size = strtok_r(sizes, ",", &save); size;
             size = strtok_r(NULL, ",", &save)) {
            long rows = strtol(size, NULL, 10), cols = rows;
            if (strchr(size, 'x'))
                cols = strtol(strchr(size, 'x') + 1, NULL, 10);
            for (int i = 0; i < n; i++) {
                if (!vs[i].in_default && strcmp(e->name, "global_stride") == 0 && i % 5)
                    continue; /* a fifth of the stride sweep is enough */
                sb_device_info dev = small_device();
                char why[256];
                if (e->fits && e->fits(&vs[i], &dev, why, sizeof why))
                    continue; /* left out of a run: no plan */
                sb_prediction pred[SB_MAX_PATTERNS];
                sb_plan plan;
                if (plan_or_left_out(e, &vs[i], rows, cols, pred, &plan))
                    continue; /* a working set larger than the size */
                if (plan.undeclared)
                    fail_msg("%s/%s: %d accesses over %d", e->name, vs[i].name,
                             plan.undeclared, SB_MAX_PATTERNS);
                for (int k = 0; k < plan.npatterns; k++) {
                    if (!(plan.requests[k] > 0))
                        fail_msg("%s/%s: access %d (%s) with no requests", e->name, vs[i].name,
                                 k, plan.pattern_label[k]);
                    assert_non_null(sb_access_kind_name(plan.kind[k]));
                    if (k > 0 && plan.studied[k] && !plan.studied[k - 1])
                        fail_msg("%s/%s: a studied access after another", e->name, vs[i].name);
                }
                sb_access_totals t = totals_of(&plan);
                assert_true(plan.npatterns == 0 ||
                            t.global_ld_requests + t.global_st_requests + t.shared_ld_requests +
                                    t.shared_st_requests > 0);
            }
        }
        free(vs);
    }
}

/* ---- groups ---------------------------------------------------------- */

/* Every slowdown group has exactly one baseline, and it is the
   conflict-free or coalesced case. */
static void one_clean_baseline_per_group(void **state)
{
    (void)state;
    const sb_experiment *exps[] = {experiment("global_stride"),    experiment("global_offset"),
                                   experiment("global_perm"),      experiment("global_broadcast"),
                                   experiment("global_walk"),      experiment("shared_stride"),
                                   experiment("shared_broadcast"), experiment("shared_tile")};
    for (size_t x = 0; x < sizeof exps / sizeof exps[0]; x++) {
        int n;
        sb_variant *vs = variants_of(exps[x], &n);
        for (int i = 0; i < n; i++) {
            int bases = 0;
            for (int j = 0; j < n; j++)
                bases += vs[j].group == vs[i].group && vs[j].baseline;
            if (bases != 1)
                fail_msg("%s/%s: %d baselines in its group", exps[x]->name, vs[i].name, bases);
            for (int j = i + 1; j < n; j++)
                if (strcmp(vs[i].name, vs[j].name) == 0)
                    fail_msg("%s: two variants named %s", exps[x]->name, vs[i].name);
            /* a default variant's baseline is in the default set too */
            if (vs[i].in_default)
                for (int j = 0; j < n; j++)
                    if (vs[j].group == vs[i].group && vs[j].baseline && !vs[j].in_default)
                        fail_msg("%s/%s runs by default without its baseline %s",
                                 exps[x]->name, vs[i].name, vs[j].name);
            if (!vs[i].baseline)
                continue;
            sb_prediction pred[SB_MAX_PATTERNS];
            plan_of(exps[x], &vs[i], 64, 64, pred);
            if (pred[0].space == SB_SPACE_GLOBAL)
                assert_double_equal(pred[0].efficiency, 1.0, 1e-12);
            else
                assert_int_equal(pred[0].conflicts, 0);
        }
        free(vs);
    }
}

/* ---- privatisation --------------------------------------------------- */

/* The figure called `name` of a plan; fails when it has none. */
static double figure_of(const sb_plan *plan, const char *name)
{
    for (int i = 0; i < plan->nfigures; i++)
        if (strcmp(plan->figure[i].name, name) == 0)
            return plan->figure[i].value;
    fail_msg("no figure %s", name);
    return 0;
}

/* The declaration of plan labelled `label`, of kind `kind`; fails when
   there is none. */
static int access_named(const sb_plan *plan, const char *label, sb_access_kind kind)
{
    for (int i = 0; i < plan->npatterns; i++)
        if (strcmp(plan->pattern_label[i], label) == 0 && plan->kind[i] == kind)
            return i;
    fail_msg("no %s access \"%s\"", sb_access_kind_name(kind), label);
    return -1;
}

/* Each histogram variant declares the input's coalesced load, and carries
 * the atomics model's figures for its bins and distribution: 32 updates on
 * one address when skewed, one global atomic per input for global atomics
 * and fewer for a private copy, none shared for a thread's own counters;
 * one global-atomics baseline per (bins, distribution). */
static void histogram_plans_carry_the_atomics_model(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("histogram");
    assert_string_equal(e->family, "privatization");
    int n;
    sb_variant *vs = variants_of(e, &n);
    for (int i = 0; i < n; i++) {
        const sb_variant *v = &vs[i];
        if (v->role != SB_ROLE_KERNEL)
            continue;
        long bins = define_value(v, "BINS", -1);
        sb_bin_dist dist = strstr(v->name, "-skewed") ? SB_BINS_SKEWED : SB_BINS_UNIFORM;
        char stem[48];
        snprintf(stem, sizeof stem, "-b%ld-%s", bins, sb_bin_dist_name(dist));
        assert_non_null(strstr(v->name, stem));
        int bases = 0;
        for (int j = 0; j < n; j++)
            bases += vs[j].group == v->group && vs[j].baseline &&
                     strncmp(vs[j].name, "global-", 7) == 0 && strstr(vs[j].name, stem);
        assert_int_equal(bases, 1);
        sb_device_info dev = small_device();
        char why[256];
        if (e->fits(v, &dev, why, sizeof why))
            continue;
        sb_prediction pred[SB_MAX_PATTERNS];
        sb_plan plan = plan_of(e, v, 3000, 1, pred);
        assert_int_equal(plan.pattern[0].space, SB_SPACE_GLOBAL);
        assert_double_equal(pred[0].efficiency, 1.0, 0);
        double per_input = figure_of(&plan, "global_atomics_per_input");
        if (strncmp(v->name, "thread-", 7) == 0) {
            int c = access_named(&plan, "count smem ld", SB_ACCESS_LOAD);
            assert_int_equal(plan.pattern[c].space, SB_SPACE_SHARED);
            assert_int_equal(pred[c].ways, 1);
            assert_int_equal(pred[access_named(&plan, "count smem st", SB_ACCESS_STORE)].ways, 1);
            assert_double_equal(figure_of(&plan, "bank_ways"), 1.0, 0);
            assert_double_equal(figure_of(&plan, "same_address_per_warp"), 1.0, 0);
        } else {
            assert_double_equal(figure_of(&plan, "same_address_per_warp"),
                                sb_atomic_same_address(bins, dist), 1e-12);
        }
        if (strncmp(v->name, "global-", 7) == 0)
            assert_double_equal(per_input, 1.0, 0);
        else
            assert_true(per_input > 0 && per_input < 1.0);
        if (dist == SB_BINS_SKEWED)
            assert_true(strncmp(v->name, "thread-", 7) == 0 ||
                        figure_of(&plan, "same_address_per_warp") == 32.0);
    }
    free(vs);
}

/* 48 KiB of shared memory per block holds every private copy but the
 * per-block one of 65536 bins (256 KiB); the plan refuses it too, and a
 * device that does not say its shared memory is not second-guessed. */
static void histogram_left_out_where_shared_memory_is_short(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("histogram");
    int n, refused = 0;
    sb_variant *vs = variants_of(e, &n);
    sb_device_info dev = small_device(), unknown = small_device();
    unknown.local_mem_bytes = 0;
    for (int i = 0; i < n; i++) {
        char why[256] = "";
        int big = strstr(vs[i].name, "shared") && strstr(vs[i].name, "-b65536-");
        assert_int_equal(e->fits(&vs[i], &dev, why, sizeof why) != 0, big);
        assert_int_equal(e->fits(&vs[i], &unknown, why, sizeof why), 0);
        if (!big)
            continue;
        refused++;
        assert_non_null(strstr(why, "262148 bytes of shared memory per block"));
        sb_problem p = {100, 1};
        void *host = NULL;
        sb_plan plan;
        memset(&plan, 0, sizeof plan);
        assert_int_equal(e->prepare(&p, 1, &host, why, sizeof why), 0);
        assert_int_not_equal(e->plan(host, &p, &vs[i], &dev, &plan, why, sizeof why), 0);
        e->release(host);
    }
    assert_int_equal(refused, 4); /* shared and shared_coarse, uniform and skewed */
    free(vs);
}

/* The sum: one global atomic per input on one address against one per
 * block of 256 threads (of 32 inputs each when coarsened). */
static void sum_plans_carry_the_atomics_model(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("sum");
    int n;
    sb_variant *vs = variants_of(e, &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan g = plan_of(e, find(vs, n, "global"), 3000, 1, pred);
    assert_double_equal(figure_of(&g, "same_address_per_warp"), 32.0, 0);
    assert_double_equal(figure_of(&g, "global_atomics_per_input"), 1.0, 0);
    /* 3000 inputs: 12 blocks of 256, or one block of 32 x 256. */
    sb_plan b = plan_of(e, find(vs, n, "block"), 3000, 1, pred);
    assert_double_equal(figure_of(&b, "global_atomics_per_input"), 12.0 / 3000, 1e-15);
    assert_int_equal(pred[access_named(&b, "part smem ld", SB_ACCESS_LOAD)].ways, 1);
    sb_plan c = plan_of(e, find(vs, n, "block_coarse"), 3000, 1, pred);
    assert_double_equal(figure_of(&c, "global_atomics_per_input"), 1.0 / 3000, 1e-15);
    c = plan_of(e, find(vs, n, "block_coarse"), 8192, 4, pred);
    assert_double_equal(figure_of(&c, "global_atomics_per_input"), 1.0 / 8192, 1e-15);
    assert_true(find(vs, n, "global")->baseline);
    free(vs);
}

/* Issue 15 for the privatisation family: every access of a launch at the
 * test size of 20000 inputs, 625 warps of them in blocks of BLOCK threads
 * (the last short).  Every kernel keeps the books: thread 0 of each block
 * reads the epoch (a one-lane global load) for its warps (a shared
 * broadcast each) and counts its block done (a one-lane atomic), the last
 * block stores two words, and the grid publishes the other half of BINS
 * bins (a load and two stores a warp of 32). */
static void histogram_accesses_counted(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("histogram");
    int nv;
    sb_variant *vs = variants_of(e, &nv);
    const sb_variant *v = find(vs, nv, "global-b1-skewed");
    const long n = 20000, warps = (n + 31) / 32, block = define_value(v, "BLOCK", -1);
    const double blocks = (double)((n + block - 1) / block), per_block = (double)block / 32;
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(e, v, n, 1, pred);
    sb_access_totals t = totals_of(&plan);
    assert_string_equal(plan.pattern_label[0], "input load");
    assert_true(plan.studied[0] && !plan.studied[1]);
    assert_double_equal(t.global_ld_requests, warps + blocks + 1, 0);
    assert_double_equal(t.global_ld_sectors, 4.0 * warps + blocks + 1, 0);
    assert_double_equal(t.global_st_requests, 2 + 2, 0);
    assert_double_equal(t.global_st_sectors, 2 + 2, 0);
    /* an atomic a warp of inputs, all on bin 0: one sector */
    assert_double_equal(t.global_atom_requests, warps + blocks, 0);
    assert_double_equal(t.global_atom_sectors, warps + blocks, 0);
    assert_double_equal(t.shared_ld_requests, per_block * blocks, 0);
    assert_double_equal(t.shared_ld_wavefronts, per_block * blocks, 0);
    assert_double_equal(t.shared_st_requests, blocks, 0);
    assert_double_equal(t.shared_atom_requests, 0, 0);

    /* A private copy of 256 bins: cleared and read back by every warp of
       every block, an atomic a warp of inputs, a merge request for each
       32 bins a block filled: all 8 of a full block (but once in 10^14),
       at least one of the last. */
    v = find(vs, nv, "shared-b256-uniform");
    long bins = define_value(v, "BINS", -1), groups = bins / 32;
    plan = plan_of(e, v, n, 1, pred);
    t = totals_of(&plan);
    assert_double_equal(t.global_ld_requests, warps + blocks + groups, 0);
    assert_double_equal(t.global_st_requests, 2.0 * groups + 2, 0);
    assert_double_equal(t.global_st_sectors, 4 * 2.0 * groups + 2, 0);
    assert_double_equal(t.shared_st_requests, blocks + blocks * groups, 0);
    assert_double_equal(t.shared_ld_requests, per_block * blocks + blocks * groups, 0);
    assert_double_equal(t.shared_ld_conflicts + t.shared_st_conflicts, 0, 0);
    assert_double_equal(t.shared_atom_requests, warps, 0);
    double merge = t.global_atom_requests - blocks;
    assert_true(merge >= (blocks - 1) * groups + 1 && merge <= blocks * groups);
    /* the inputs' own busiest banks, near the atomics model's expectation */
    double ways = t.shared_atom_wavefronts / t.shared_atom_requests;
    assert_double_equal(ways, sb_atomic_bank_ways(bins, SB_BINS_UNIFORM), 0.1);
    assert_double_equal(t.shared_atom_conflicts, t.shared_atom_wavefronts - warps, 0);

    /* skewed: one merge request a block, every update on one word */
    plan = plan_of(e, find(vs, nv, "shared-b256-skewed"), n, 1, pred);
    t = totals_of(&plan);
    assert_double_equal(t.global_atom_requests, 2 * blocks, 0);
    assert_double_equal(t.shared_atom_wavefronts, 32.0 * warps, 0);
    free(vs);
}

/* The sums at 20000 inputs: one atomic a warp of inputs on one word, or
 * each block's tree in shared memory (its threads' sums stored, then at
 * step s = BLOCK / 2 .. 1 the first s threads' two loads and a store, then
 * thread 0's load of the total) and one atomic a block. */
static void sum_accesses_counted(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("sum");
    int nv;
    sb_variant *vs = variants_of(e, &nv);
    const sb_variant *v = find(vs, nv, "block");
    const long n = 20000, warps = (n + 31) / 32, block = define_value(v, "BLOCK", -1);
    const double blocks = (double)((n + block - 1) / block), per_block = (double)block / 32;
    double steps = 0; /* warp instructions of one access over the tree's steps */
    for (long s = block / 2; s > 0; s /= 2)
        steps += (double)((s + 31) / 32);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(e, v, n, 1, pred);
    sb_access_totals t = totals_of(&plan);
    assert_double_equal(t.global_ld_requests, warps + blocks + 1, 0);
    assert_double_equal(t.global_st_requests, 2 + 2, 0);
    assert_double_equal(t.global_atom_requests, 2 * blocks, 0);
    assert_double_equal(t.shared_st_requests, blocks * (1 + per_block + steps), 0);
    assert_double_equal(t.shared_ld_requests, blocks * (per_block + 2 * steps + 1), 0);
    assert_double_equal(t.shared_ld_wavefronts, t.shared_ld_requests, 0);
    assert_double_equal(t.shared_st_wavefronts, t.shared_st_requests, 0);
    plan = plan_of(e, find(vs, nv, "global"), n, 1, pred);
    t = totals_of(&plan);
    assert_double_equal(t.global_atom_requests, warps + blocks, 0);
    assert_double_equal(t.global_atom_sectors, warps + blocks, 0);
    free(vs);
}

/* ---- the PTX of the shared kernels ------------------------------------- */

/* Occurrences of `what` in [from, to). */
static int count_between(const char *from, const char *to, const char *what)
{
    int n = 0;
    for (const char *p = strstr(from, what); p && p < to; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The most `op` instructions inside one loop of the kernel `entry`: a loop
   is the text from a label to a later branch back to it. */
static int most_in_a_loop(const char *ptx, const char *entry, const char *op)
{
    const char *k = strstr(ptx, entry);
    assert_non_null(k);
    const char *end = strstr(k + 1, ".entry");
    if (!end)
        end = k + strlen(k);
    int most = 0;
    for (const char *b = strstr(k, "bra"); b && b < end; b = strstr(b + 1, "bra")) {
        const char *t = strstr(b, "$L");
        const char *eol = strchr(b, '\n');
        if (!t || (eol && t > eol))
            continue;
        char label[64];
        size_t len = strcspn(t, "; \t\n");
        if (len + 2 > sizeof label)
            continue;
        memcpy(label, t, len);
        label[len] = ':';
        label[len + 1] = '\0';
        const char *at = strstr(k, label);
        if (at && at < b) {
            int c = count_between(at, b, op);
            if (c > most)
                most = c;
        }
    }
    return most;
}

/* The repeated access must stay inside the loop, all UNROLL (8) of each
   trip: a compiler that hoisted the loads out of the loop, or merged the
   stores, would leave fewer, or none, there. */
static void shared_ptx_keeps_the_repeated_access(void **state)
{
    (void)state;
    sb_backend_slot slot;
    memset(&slot, 0, sizeof slot);
    sb_registry_load("cuda", &slot);
    if (!slot.vt || !slot.vt->compile_offline) {
        printf("# the cuda backend is not built: no PTX to check\n");
        return;
    }
    char err[512];
    const sb_experiment *stride = experiment("shared_stride");
    char *source = sb_kernel_source(slot.vt->prelude, stride->source, err, sizeof err);
    assert_non_null(source);
    int n;
    sb_variant *vs = variants_of(stride, &n);
    static const char *const names[] = {"w4-s1-load", "w8-s2-load", "w16-s3-load"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const sb_variant *v = find(vs, n, names[i]);
        const char *defs[SB_MAX_DEFINES];
        for (int d = 0; d < v->ndefines; d++)
            defs[d] = v->defines[d];
        char *ptx = NULL;
        if (slot.vt->compile_offline(source, defs, v->ndefines, "sm_90", &ptx)) {
            /* A CUDA module built where no toolkit is (it needs none to
               build) has no NVRTC to compile with: nothing to check. */
            if (strstr(slot.vt->last_error(), "NVRTC not found")) {
                /* As for a build without the module: cmocka's skip() is a
                   "not ok" in TAP. */
                printf("# no PTX to check: %s\n", slot.vt->last_error());
                free(source);
                free(vs);
                sb_registry_unload(&slot);
                return;
            }
            fail_msg("%s: %s", names[i], slot.vt->last_error());
        }
        int loads = most_in_a_loop(ptx, ".entry shared_load(", "ld.shared");
        int stores = most_in_a_loop(ptx, ".entry shared_store(", "st.shared");
        if (loads < 8 || stores < 8)
            fail_msg("%s: at most %d loads and %d stores in a loop; the repeated access was "
                     "taken out of it", names[i], loads, stores);
        free(ptx);
    }
    free(vs);
    free(source);
    sb_registry_unload(&slot);
}

/* ---- the dram and latency families ------------------------------------ */

/* Warps of a 16-byte-a-lane walk over `bytes`: 512 bytes each. */
static double warps_over(double bytes)
{
    return bytes / (SB_WARP_LANES * 16.0);
}

/* The gathers at 512 x 1024 words (2 MiB, a power of two: all of it is
 * gathered): one thread per 16-byte word, each one load of its chunk and
 * one dense store, 16 sectors a request whatever the chunk, as far apart
 * as the chunks lie. */
static void dram_gathers_counted(void **state)
{
    (void)state;
    const char *const exps[] = {"dram_burst", "dram_burst", "dram_channels"};
    const char *const names[] = {"c128", "c4K", "d4K"};
    for (int x = 0; x < 3; x++) {
        int n;
        sb_variant *vs = variants_of(experiment(exps[x]), &n);
        sb_prediction pred[SB_MAX_PATTERNS];
        sb_plan plan = plan_of(experiment(exps[x]), find(vs, n, names[x]), 512, 1024, pred);
        assert_int_equal(plan.npatterns, 2);
        assert_string_equal(plan.pattern_label[0], "chunks");
        assert_true(plan.studied[0] && !plan.studied[1]);
        assert_int_equal(plan.kind[1], SB_ACCESS_STORE);
        assert_int_equal(pred[0].sectors, 16);
        assert_double_equal(pred[0].efficiency, 1.0, 1e-12);
        sb_access_totals t = totals_of(&plan);
        double warps = warps_over(4.0 * 512 * 1024);
        assert_double_equal(t.global_ld_requests, warps, 0.0);
        assert_double_equal(t.global_st_requests, warps, 0.0);
        assert_double_equal(t.global_ld_sectors, 16 * warps, 0.0);
        assert_double_equal(t.global_st_sectors, 16 * warps, 0.0);
        assert_double_equal(t.shared_ld_requests + t.shared_st_requests, 0.0, 0.0);
        free(vs);
    }
}

/* The working-set copy at 256 x 512 words on a CPU: ws64K's buffers of 32
 * KiB are copied 2 MiB / 32 KiB = 64 times in the launch, every pass a
 * load and a store per warp of 512 bytes; ws1M's 512 KiB four times. */
static void dram_working_set_counted(void **state)
{
    (void)state;
    const char *const names[] = {"ws64K", "ws1M"};
    const double buffer[] = {32 << 10, 512 << 10}, passes[] = {64, 4};
    int n;
    sb_variant *vs = variants_of(experiment("dram_working_set"), &n);
    for (int x = 0; x < 2; x++) {
        sb_prediction pred[SB_MAX_PATTERNS];
        sb_plan plan = plan_of(experiment("dram_working_set"), find(vs, n, names[x]), 256, 512,
                               pred);
        assert_int_equal(plan.npatterns, 2);
        assert_double_equal(figure_of(&plan, "passes"), passes[x], 0.0);
        sb_access_totals t = totals_of(&plan);
        double warps = passes[x] * warps_over(buffer[x]);
        assert_double_equal(t.global_ld_requests, warps, 0.0);
        assert_double_equal(t.global_st_requests, warps, 0.0);
        assert_double_equal(t.global_ld_sectors_per_request, 16.0, 1e-12);
        assert_double_equal(t.global_st_sectors_per_request, 16.0, 1e-12);
        /* the grid's threads walk every pass's words once */
        long threads = (long)plan.geometry.grid[0] * plan.geometry.block[0];
        assert_int_equal((long)warps * SB_WARP_LANES % threads, 0);
    }
    free(vs);
}

/* The chase at 256 x 256 words: lane 0 alone, one sector a request; its
 * dependent loads (the figure's loads per launch), the three words of
 * state read, and the three written back to the state and to the output. */
static void latency_chase_counted(void **state)
{
    (void)state;
    int n;
    sb_variant *vs = variants_of(experiment("latency"), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    sb_plan plan = plan_of(experiment("latency"), find(vs, n, "ws16K"), 256, 256, pred);
    assert_string_equal(plan.pattern_label[0], "chase");
    assert_true(plan.studied[0]);
    assert_int_equal(plan.pattern[0].active, 1u);
    assert_int_equal(pred[0].lanes, 1);
    assert_int_equal(pred[0].sectors, 1);
    assert_double_equal(pred[0].efficiency, 8.0 / 32, 1e-12); /* an 8-byte link */
    double loads = figure_of(&plan, "loads_per_launch");
    assert_true(loads > 0);
    assert_double_equal(plan.requests[0], loads, 0.0);
    sb_access_totals t = totals_of(&plan);
    assert_double_equal(t.global_ld_requests, loads + 3, 0.0);
    assert_double_equal(t.global_ld_sectors, loads + 3, 0.0);
    assert_double_equal(t.global_st_requests, 6.0, 0.0);
    assert_double_equal(t.global_st_sectors, 6.0, 0.0);
    /* a ws larger than the size is left out, not planned */
    sb_plan out;
    assert_int_equal(plan_or_left_out(experiment("latency"), find(vs, n, "ws1M"), 256, 256, pred,
                                      &out),
                     SB_PLAN_LEFT_OUT);
    free(vs);
}

/* ---- the launch, compute and divergence families --------------------- */

/* Totals of `name` of experiment `exp` at rows x cols. */
static sb_access_totals totals_at(const char *exp, const char *name, long rows, long cols,
                                  sb_plan *plan)
{
    int n;
    sb_variant *vs = variants_of(experiment(exp), &n);
    sb_prediction pred[SB_MAX_PATTERNS];
    *plan = plan_of(experiment(exp), find(vs, n, name), rows, cols, pred);
    free(vs);
    return totals_of(plan);
}

/* A dense walk of 4-byte words over `elements` threads, one access each:
 * the full warps at 4 sectors a request, and the last one's lanes at one
 * sector per 8 of them. */
static void assert_walk(double requests, double sectors, long elements)
{
    long full = elements / SB_WARP_LANES, lanes = elements % SB_WARP_LANES;
    assert_double_equal(requests, (double)full + (lanes > 0), 0.0);
    assert_double_equal(sectors, 4.0 * (double)full + (double)((lanes + 7) / 8), 0.0);
}

/* The empty kernel stores its mark from one lane; the copy at 4097
 * elements (128 warps and one lane) loads and stores each element once,
 * and at 1000 floats (31 warps and 8 lanes) in launch_large too, where
 * the double copy moves as many bytes. */
static void launch_accesses_counted(void **state)
{
    (void)state;
    sb_plan plan;
    sb_access_totals t = totals_at("launch_small", "empty", 1, 1, &plan);
    assert_int_equal(plan.npatterns, 1);
    assert_int_equal(plan.kind[0], SB_ACCESS_STORE);
    assert_double_equal(t.global_st_requests, 1.0, 0.0);
    assert_double_equal(t.global_st_sectors, 1.0, 0.0);
    assert_double_equal(t.global_ld_requests, 0.0, 0.0);
    t = totals_at("launch_small", "copy_float", 4097, 1, &plan);
    assert_string_equal(plan.pattern_label[0], "load");
    assert_true(plan.studied[0]);
    assert_walk(t.global_ld_requests, t.global_ld_sectors, 4097);
    assert_walk(t.global_st_requests, t.global_st_sectors, 4097);
    /* BabelStream's grid: 4097 / 4 elements over 256-thread blocks. */
    assert_int_equal(plan.geometry.block[0], 256);
    assert_int_equal(plan.geometry.grid[0], 4);
    /* The default double: 8-byte elements, 8 sectors a full warp. */
    t = totals_at("launch_small", "copy", 4097, 1, &plan);
    assert_double_equal(t.global_ld_requests, 129, 0.0);
    assert_double_equal(t.global_ld_sectors, 128 * 8 + 1, 0.0);
    assert_double_equal(plan.bytes, 2.0 * 8 * 4097, 0.0);
    t = totals_at("launch_large", "copy_float", 1000, 1, &plan);
    assert_walk(t.global_ld_requests, t.global_ld_sectors, 1000);
    assert_walk(t.global_st_requests, t.global_st_sectors, 1000);
    /* At 1 GiB a buffer whatever the element: 500 doubles for 1000 floats. */
    t = totals_at("launch_large", "copy", 1000, 1, &plan);
    assert_double_equal(t.global_st_requests, 16, 0.0);
    assert_double_equal(t.global_st_sectors, 15 * 8 + 5, 0.0);
    assert_double_equal(plan.bytes, 2.0 * 4000, 0.0);
    assert_double_equal(t.shared_ld_requests + t.shared_st_requests, 0.0, 0.0);
}

/* The FMA kernel's one access, the sum each thread stores: at 300 threads
 * the launch is two blocks of 256, every thread of both stores, no load. */
static void compute_accesses_counted(void **state)
{
    (void)state;
    sb_plan plan;
    sb_access_totals t = totals_at("compute", "fma_chains8", 300, 1, &plan);
    long threads = (long)plan.geometry.grid[0] * plan.geometry.block[0];
    assert_int_equal(threads, 2 * 256);
    assert_int_equal(plan.npatterns, 1);
    assert_int_equal(plan.kind[0], SB_ACCESS_STORE);
    assert_walk(t.global_st_requests, t.global_st_sectors, threads);
    assert_double_equal(t.global_ld_requests, 0.0, 0.0);
    assert_double_equal(t.global_st_sectors_per_request, 4.0, 1e-12);
}

/* Each divergence kernel loads its word and stores its float once per
 * element whatever its paths: the threads past n of the last block make
 * neither, the lanes below n of the last warp a partial request. */
static void divergence_accesses_counted(void **state)
{
    (void)state;
    const char *const exps[] = {"divergence_split", "divergence_branch",
                                "divergence_predication", "divergence_loop"};
    const char *const names[] = {"lane-k8", "random", "predicated-random", "random"};
    const long sizes[] = {1000, 4097, 1, 1000};
    /* full warps and the partial last one, a declaration each (the last
       costs fewer sectors), of the load and the store; one lane alone:
       only the partial one */
    const int accesses[] = {4, 4, 2, 4};
    for (int x = 0; x < 4; x++) {
        sb_plan plan;
        sb_access_totals t = totals_at(exps[x], names[x], sizes[x], 1, &plan);
        assert_int_equal(plan.npatterns, accesses[x]);
        assert_int_equal(plan.kind[0], SB_ACCESS_LOAD);
        assert_walk(t.global_ld_requests, t.global_ld_sectors, sizes[x]);
        assert_walk(t.global_st_requests, t.global_st_sectors, sizes[x]);
        assert_double_equal(t.shared_ld_requests + t.shared_st_requests, 0.0, 0.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(global_stride_8_is_32_sectors),
        cmocka_unit_test(global_stride_1_is_coalesced),
        cmocka_unit_test(global_dense_side_declared),
        cmocka_unit_test(global_patterns_match_defines),
        cmocka_unit_test(global_offset_sectors),
        cmocka_unit_test(global_perm_inside_and_spread),
        cmocka_unit_test(global_perm_table_is_the_models),
        cmocka_unit_test(global_broadcast_one_sector),
        cmocka_unit_test(global_walk_row_and_column),
        cmocka_unit_test(shared_stride_ways),
        cmocka_unit_test(shared_wide_elements_phases),
        cmocka_unit_test(shared_tiles),
        cmocka_unit_test(shared_broadcast_and_same_bank),
        cmocka_unit_test(shared_patterns_match_defines),
        cmocka_unit_test(global_lane_table_declared),
        cmocka_unit_test(shared_accesses_counted),
        cmocka_unit_test(transpose_accesses_counted),
        cmocka_unit_test(every_variant_declares_its_accesses),
        cmocka_unit_test(one_clean_baseline_per_group),
        cmocka_unit_test(histogram_plans_carry_the_atomics_model),
        cmocka_unit_test(histogram_left_out_where_shared_memory_is_short),
        cmocka_unit_test(histogram_accesses_counted),
        cmocka_unit_test(sum_plans_carry_the_atomics_model),
        cmocka_unit_test(sum_accesses_counted),
        cmocka_unit_test(shared_ptx_keeps_the_repeated_access),
        cmocka_unit_test(dram_gathers_counted),
        cmocka_unit_test(dram_working_set_counted),
        cmocka_unit_test(latency_chase_counted),
        cmocka_unit_test(launch_accesses_counted),
        cmocka_unit_test(compute_accesses_counted),
        cmocka_unit_test(divergence_accesses_counted),
    };
    SB_TEST_MAIN(tests);
}
