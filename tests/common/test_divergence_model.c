/* The control-divergence model against cases worked by hand: a warp split
 * by lane % k runs k paths and takes k times as long, the same split by
 * warp index runs one; a data-dependent branch costs the paths each warp
 * actually meets; a loop costs the warp's largest trip count, not the
 * mean (seed 001: minimising control divergence); warps never span two
 * blocks, the last one may be partial, and a device without a warp gets
 * no prediction. */
#include "test_util.h"

#include <string.h>

#include "divergence_model.h"

/* The split of a launch into k paths: by the lane within a 32-thread
 * group (lane % k), or by the index of that group (warp_index % k). */
typedef struct split {
    long k;
    int by_group;
} split;

static long split_path(const void *ctx, long i)
{
    const split *s = ctx;
    return s->by_group ? (i / 32) % s->k : (i % 32) % s->k;
}

static sb_divergence branch(long lanes, long block, int warp, sb_lane_fn f, const void *ctx)
{
    sb_lane_shape s = {lanes, block, warp};
    sb_divergence d;
    assert_int_equal(sb_divergence_branch(&s, f, ctx, &d), 0);
    return d;
}

static void lane_split_runs_k_paths(void **state)
{
    (void)state;
    for (long k = 1; k <= 32; k *= 2) {
        split s = {k, 0};
        sb_divergence d = branch(1024, 256, 32, split_path, &s);
        assert_int_equal(d.predicts, 1);
        assert_int_equal(d.warps, 32);
        assert_double_equal(d.paths_per_warp, (double)k, 0);
        assert_int_equal(d.most_paths, (int)k);
        assert_double_equal(d.slowdown, (double)k, 0);
    }
    /* More paths than lanes: a warp cannot run more paths than it has lanes. */
    split wide = {64, 0};
    sb_divergence d = branch(1024, 256, 32, split_path, &wide);
    assert_double_equal(d.slowdown, 32.0, 0);
}

static void warp_split_runs_one(void **state)
{
    (void)state;
    for (long k = 1; k <= 32; k *= 2) {
        split s = {k, 1};
        sb_divergence d = branch(4096, 256, 32, split_path, &s);
        assert_double_equal(d.paths_per_warp, 1.0, 0);
        assert_double_equal(d.slowdown, 1.0, 0);
    }
    /* On 64-lane warps, two 32-thread groups share a warp: the split by
       group index now diverges in two, and the lane split is unchanged. */
    split s = {4, 1};
    assert_double_equal(branch(4096, 256, 64, split_path, &s).slowdown, 2.0, 0);
    s.by_group = 0;
    assert_double_equal(branch(4096, 256, 64, split_path, &s).slowdown, 4.0, 0);
}

/* A data-dependent branch: halves of 16 lanes (a random-looking input at
 * its worst: both paths in every warp), and a threshold at lane 100 (a
 * sorted input: only the warp that straddles it runs both). */
static long halves(const void *ctx, long i)
{
    (void)ctx;
    return (i >> 4) & 1;
}

static long threshold(const void *ctx, long i)
{
    return i >= *(const long *)ctx;
}

static void data_branch_costs_the_paths_met(void **state)
{
    (void)state;
    assert_double_equal(branch(256, 256, 32, halves, NULL).slowdown, 2.0, 0);
    long at = 100;
    sb_divergence d = branch(256, 256, 32, threshold, &at);
    assert_int_equal(d.warps, 8);
    assert_double_equal(d.paths_per_warp, 9.0 / 8.0, 1e-12); /* lanes 96..127 run both */
    assert_int_equal(d.most_paths, 2);
    at = 96; /* on a warp boundary: no warp runs both */
    assert_double_equal(branch(256, 256, 32, threshold, &at).slowdown, 1.0, 0);
}

static void partial_warps_and_blocks(void **state)
{
    (void)state;
    /* 40 lanes: a full warp of 16 paths and a partial one of 8 lanes. */
    split s = {16, 0};
    sb_divergence d = branch(40, 256, 32, split_path, &s);
    assert_int_equal(d.warps, 2);
    assert_double_equal(d.paths_per_warp, 12.0, 0);
    /* Blocks of 48: warps [0,32) [32,48) [48,80) [80,96), and the path
       changes at lane 40, inside the second: one warp of four runs both. */
    long at = 40;
    d = branch(96, 48, 32, threshold, &at);
    assert_int_equal(d.warps, 4);
    assert_double_equal(d.paths_per_warp, 5.0 / 4.0, 0);
}

/* Loops: lane 0 of each warp makes 32 trips and the rest none; trips
 * i % 32; and every lane the same. */
static long first_lane_only(const void *ctx, long i)
{
    (void)ctx;
    return i % 32 == 0 ? 32 : 0;
}

static long ramp(const void *ctx, long i)
{
    (void)ctx;
    return i % 32;
}

static long constant(const void *ctx, long i)
{
    (void)i;
    return *(const long *)ctx;
}

static sb_divergence loop(long lanes, int warp, sb_lane_fn f, const void *ctx)
{
    sb_lane_shape s = {lanes, 256, warp};
    sb_divergence d;
    assert_int_equal(sb_divergence_loop(&s, f, ctx, &d), 0);
    return d;
}

static void loop_costs_the_warps_maximum(void **state)
{
    (void)state;
    sb_divergence d = loop(1024, 32, first_lane_only, NULL);
    assert_double_equal(d.mean_trips, 1.0, 0);
    assert_double_equal(d.max_trips, 32.0, 0);
    assert_double_equal(d.slowdown, 32.0, 0); /* the mean says 1 trip, the warp runs 32 */
    d = loop(1024, 32, ramp, NULL);
    assert_double_equal(d.mean_trips, 15.5, 0);
    assert_double_equal(d.max_trips, 31.0, 0);
    assert_double_equal(d.slowdown, 2.0, 0);
    long same = 128;
    assert_double_equal(loop(1000, 32, constant, &same).slowdown, 1.0, 0);
    same = 0; /* nothing runs either way */
    assert_double_equal(loop(1000, 32, constant, &same).slowdown, 1.0, 0);
}

static void no_warp_no_prediction(void **state)
{
    (void)state;
    sb_device_info gpu, cpu, silent;
    memset(&gpu, 0, sizeof gpu);
    gpu.is_gpu = 1;
    gpu.warp_size = 32;
    cpu = gpu;
    cpu.is_gpu = 0;
    silent = gpu;
    silent.warp_size = 0;
    assert_int_equal(sb_divergence_warp(&gpu), 32);
    assert_int_equal(sb_divergence_warp(&cpu), 0);
    assert_int_equal(sb_divergence_warp(&silent), 0);

    split s = {8, 0};
    sb_divergence d = branch(1024, 256, 0, split_path, &s);
    assert_int_equal(d.predicts, 0);
    assert_double_equal(d.slowdown, 0.0, 0);
    assert_double_equal(d.paths_per_warp, 0.0, 0);
    char text[64];
    sb_divergence_lanes_text(&d, text, sizeof text);
    assert_string_equal(text, "vector lanes: no warp, no prediction");
    /* A loop's mean is the device's own; its maximum needs a warp. */
    d = loop(1024, 0, ramp, NULL);
    assert_double_equal(d.mean_trips, 15.5, 0);
    assert_double_equal(d.slowdown, 0.0, 0);
    d = loop(1024, 32, ramp, NULL);
    sb_divergence_lanes_text(&d, text, sizeof text);
    assert_string_equal(text, "32-lane warps");
}

static long negative(const void *ctx, long i)
{
    (void)ctx;
    return i == 7 ? -1 : 3;
}

static void bad_shapes_are_refused(void **state)
{
    (void)state;
    sb_divergence d;
    memset(&d, 0x5a, sizeof d);
    sb_divergence before = d;
    const sb_lane_shape bad[] = {
        {0, 256, 32}, {-5, 256, 32}, {64, 0, 32}, {64, 256, -1},
        {64, 256, SB_DIVERGENCE_MAX_WARP + 1},
    };
    split s = {2, 0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sb_divergence_branch(&bad[i], split_path, &s, &d), -1);
        assert_int_equal(sb_divergence_loop(&bad[i], ramp, NULL, &d), -1);
    }
    sb_lane_shape ok = {64, 256, 32};
    assert_int_equal(sb_divergence_branch(&ok, NULL, NULL, &d), -1);
    assert_int_equal(sb_divergence_loop(&ok, negative, NULL, &d), -1);
    assert_memory_equal(&d, &before, sizeof d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lane_split_runs_k_paths),
        cmocka_unit_test(warp_split_runs_one),
        cmocka_unit_test(data_branch_costs_the_paths_met),
        cmocka_unit_test(partial_warps_and_blocks),
        cmocka_unit_test(loop_costs_the_warps_maximum),
        cmocka_unit_test(no_warp_no_prediction),
        cmocka_unit_test(bad_shapes_are_refused),
    };
    SB_TEST_MAIN(tests);
}
