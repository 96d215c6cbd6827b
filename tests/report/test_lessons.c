/* The lessons under each block say what the numbers say: the same rule
 * gives "padding removes the conflict: 2.19x faster" on one fixture, "but
 * not the time here" on another where the times agree, "costs time" where
 * the padded tile is slower, and names each device where they disagree;
 * the conflict ways are followed, or not, as the slowdowns say; lane % k
 * costs k times one path and warp_index % k nothing, or the data say
 * otherwise, and a device without a warp is told to have no prediction.
 * Every format prints them at the end of the block. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/lessons.h"
#include "report/report.h"
#include "run/analysis.h"

static void devices(sb_run *run, int ndevices)
{
    memset(run, 0, sizeof *run);
    const char *backends[2] = {"cuda", "opencl"};
    run->ndevices = ndevices;
    for (int d = 0; d < ndevices; d++)
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "%s", backends[d]);
}

/* One result: its median, a 2% spread, one declared access of the given
 * space with the model's ways (shared) or sectors and efficiency (global),
 * and its slowdown against its group's baseline (0: none). */
static void add(sb_run *run, int slot, const char *experiment, const char *variant, double ms,
                sb_space space, int ways_or_sectors, double slowdown)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", run->devices[slot].backend);
    r.device_slot = slot;
    snprintf(r.experiment, sizeof r.experiment, "%s", experiment);
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.rows = r.cols = 1024;
    r.ms.median = ms;
    r.ms.min = 0.99 * ms;
    r.ms.max = 1.01 * ms;
    r.ms.spread = 0.02;
    r.quantity = SB_QUANTITY_BANDWIDTH;
    r.value = 1.0 / ms;
    r.slowdown = slowdown;
    r.occupancy = r.regs = -1;
    r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
    r.npatterns = 1;
    snprintf(r.pattern_label[0], sizeof r.pattern_label[0], "smem col");
    r.pattern[0] = sb_pattern_default();
    r.pattern[0].space = space;
    r.prediction[0].space = (int)space;
    if (space == SB_SPACE_SHARED) {
        r.prediction[0].ways = ways_or_sectors;
        r.prediction[0].wavefronts = ways_or_sectors;
    } else {
        r.prediction[0].sectors = ways_or_sectors;
        r.prediction[0].efficiency = 4.0 / ways_or_sectors;
    }
    r.verified = 1;
    assert_int_equal(sb_run_add(run, &r), 0);
}

/* The lessons of the run's first experiment. */
static sb_lessons lessons(const sb_run *run)
{
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    sb_lessons l;
    sb_lessons_of(&a, 0, &l);
    sb_analysis_free(&a);
    return l;
}

/* tiled and padded on each device, at the times given. */
static void transpose(sb_run *run, int ndevices, const double tiled[], const double padded[])
{
    devices(run, ndevices);
    for (int d = 0; d < ndevices; d++) {
        add(run, d, "transpose", "tiled", tiled[d], SB_SPACE_SHARED, 32, 0);
        add(run, d, "transpose", "padded", padded[d], SB_SPACE_SHARED, 1, 0);
    }
}

static void padding_pays_or_not(void **state)
{
    (void)state;
    sb_run run;
    transpose(&run, 2, (double[]){0.327, 0.330}, (double[]){0.149, 0.151});
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1); /* the swizzle and naive rows are not in this run */
    assert_string_equal(l.text[0], "Padding the tile to [32][33] removes the model's 32-way "
                                   "conflict: padded is 2.19x faster than tiled on cuda, 2.19x "
                                   "on opencl.");
    sb_run_free(&run);

    /* The data say otherwise: so does the sentence. */
    transpose(&run, 2, (double[]){0.150, 0.150}, (double[]){0.151, 0.149});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Padding the tile to [32][33] removes the model's 32-way "
                                   "conflict, but not the time here: padded and tiled run the "
                                   "same, within 2.0% on cuda, 2.0% on opencl.");
    sb_run_free(&run);

    transpose(&run, 1, (double[]){0.100}, (double[]){0.120});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Padding the tile to [32][33] removes the model's 32-way "
                                   "conflict, yet costs time here: padded is 1.20x slower than "
                                   "tiled.");
    sb_run_free(&run);

    /* The devices disagree: each says its own. */
    transpose(&run, 2, (double[]){0.327, 0.150}, (double[]){0.149, 0.151});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Padding the tile to [32][33] removes the model's 32-way "
                                   "conflict: on cuda, padded is 2.19x faster than tiled; on "
                                   "opencl, padded and tiled run the same, within 2.0%.");
    sb_run_free(&run);
}

/* A pair where the model predicts no saving: it pays, or changes nothing. */
static void without_a_model_saving(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    add(&run, 0, "transpose", "naive_read", 0.968, SB_SPACE_GLOBAL, 32, 0);
    add(&run, 0, "transpose", "naive_write", 0.400, SB_SPACE_GLOBAL, 32, 0);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Coalescing the reads rather than the writes pays: "
                                   "naive_write is 2.42x faster than naive_read.");
    run.results[1].ms.median = 0.970;
    l = lessons(&run);
    assert_string_equal(l.text[0], "Coalescing the reads rather than the writes changes nothing "
                                   "here: naive_write and naive_read run the same, within 2.0%.");
    sb_run_free(&run);
    /* Global sectors, in the model's words. */
    devices(&run, 1);
    add(&run, 0, "global_walk", "row", 0.07, SB_SPACE_GLOBAL, 4, 1.0);
    add(&run, 0, "global_walk", "column", 0.27, SB_SPACE_GLOBAL, 32, 3.9);
    l = lessons(&run);
    assert_string_equal(l.text[0], "Walking rows instead of columns cuts the model's sectors per "
                                   "request from 32 to 4: row is 3.86x faster than column.");
    sb_run_free(&run);
}

/* shared_stride: the strides' slowdowns against the model's ways. */
static void stride_run(sb_run *run, double s32_slowdown)
{
    devices(run, 2);
    for (int d = 0; d < 2; d++) {
        add(run, d, "shared_stride", "w4-s1-load", 0.27, SB_SPACE_SHARED, 1, 1.0);
        add(run, d, "shared_stride", "w4-s2-load", 0.54, SB_SPACE_SHARED, 2, 2.0);
        add(run, d, "shared_stride", "w4-s32-load", 0.27 * s32_slowdown, SB_SPACE_SHARED, 32,
            d ? s32_slowdown * 1.01 : s32_slowdown);
    }
}

static void conflict_ways_followed_or_not(void **state)
{
    (void)state;
    sb_run run;
    stride_run(&run, 31.1);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "The time follows the model's conflict ways: w4-s32-load "
                                   "(32-way in the model) takes 31.1x as long as its baseline on "
                                   "cuda, 31.4x on opencl.");
    sb_run_free(&run);
    stride_run(&run, 1.01);
    l = lessons(&run);
    assert_string_equal(l.text[0], "The time grows less than the model's conflict ways: "
                                   "w4-s32-load (32-way in the model) takes 1.01x as long as its "
                                   "baseline on cuda, 1.02x on opencl.");
    sb_run_free(&run);
    stride_run(&run, 64.0);
    run.results[5].slowdown = 31.0; /* opencl follows, cuda does not */
    l = lessons(&run);
    assert_string_equal(l.text[0], "The time grows more than the model's conflict ways: "
                                   "w4-s32-load (32-way in the model) takes 64.0x as long as its "
                                   "baseline on cuda; the time follows the model's conflict "
                                   "ways: w4-s32-load (32-way in the model) takes 31.0x as long "
                                   "as its baseline on opencl.");
    sb_run_free(&run);
}

/* global_stride: the slowdown against the traffic 1 / efficiency implies. */
static void sector_efficiency(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    add(&run, 0, "global_stride", "w4-s1-load", 0.13, SB_SPACE_GLOBAL, 4, 1.0);
    add(&run, 0, "global_stride", "w4-s8-load", 0.54, SB_SPACE_GLOBAL, 32, 4.2);
    sb_lessons l = lessons(&run);
    assert_string_equal(l.text[0], "The time grows less than the traffic the model's sector "
                                   "efficiency implies: w4-s8-load (12.5% of each fetched byte "
                                   "used in the model) takes 4.20x as long as its baseline.");
    run.results[1].slowdown = 8.1;
    l = lessons(&run);
    assert_non_null(strstr(l.text[0], "The time follows the traffic"));
    sb_run_free(&run);
}

/* vecadd's or matmul's coarseN rows at the times given (0: not run). */
static void coarse_run(sb_run *run, const char *experiment, const double ms[4])
{
    static const char *const names[] = {"coarse1", "coarse2", "coarse4", "coarse8"};
    devices(run, 1);
    if (strcmp(experiment, "vecadd") == 0)
        add(run, 0, experiment, "memcpy", 0.3, SB_SPACE_GLOBAL, 4, 0);
    for (int k = 0; k < 4; k++)
        if (ms[k] > 0)
            add(run, 0, experiment, names[k], ms[k], SB_SPACE_GLOBAL, 4, 0);
}

/* The coarsening factor that pays, where it stops paying, or that it does
 * not pay at all: each step held against the best so far by the verdict. */
static void coarsening_pays_or_not(void **state)
{
    (void)state;
    sb_run run;
    coarse_run(&run, "vecadd", (double[]){1.0, 0.9, 0.8, 0.795});
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Coarsening by 4 pays 1.25x over coarse1; by 8 no more: the "
                                   "same as by 4, within 2.0%.");
    sb_run_free(&run);
    /* the largest factor still pays */
    coarse_run(&run, "vecadd", (double[]){1.0, 0.8, 0.7, 0.6});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Coarsening by 8 pays 1.67x over coarse1, 1.17x more than "
                                   "by 4.");
    sb_run_free(&run);
    /* past the best it costs */
    coarse_run(&run, "vecadd", (double[]){1.0, 0.8, 0.9, 0});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Coarsening by 2 pays 1.25x over coarse1; by 4 it is 1.12x "
                                   "slower than by 2.");
    sb_run_free(&run);
    /* the opposite: coarse1 is fastest */
    coarse_run(&run, "vecadd", (double[]){0.8, 0.9, 1.0, 0});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Coarsening does not pay here: coarse1 is fastest; coarse2 "
                                   "is 1.12x slower.");
    sb_run_free(&run);
    coarse_run(&run, "vecadd", (double[]){0.8, 0.805, 0, 0});
    l = lessons(&run);
    assert_string_equal(l.text[0], "Coarsening does not pay here: coarse1 is fastest; coarse2 "
                                   "runs the same, within 2.0%.");
    sb_run_free(&run);
    /* one factor alone says nothing */
    coarse_run(&run, "vecadd", (double[]){0.8, 0, 0, 0});
    assert_int_equal(lessons(&run).n, 0);
    sb_run_free(&run);
}

/* matmul: tiling against simple, then coarsening, each device its own
 * sentence; the same rule says "changes nothing" where tiling does not pay. */
static void matmul_tiling_and_coarsening(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 2);
    const double coarse[2][4] = {{1.0, 0.8, 0.7, 0.69}, {1.0, 1.01, 0.99, 1.0}};
    for (int d = 0; d < 2; d++) {
        add(&run, d, "matmul", "simple", 1.63, SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "matmul", "tiled32", d ? 1.62 : 1.0, SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "matmul", "coarse1", coarse[d][0], SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "matmul", "coarse2", coarse[d][1], SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "matmul", "coarse4", coarse[d][2], SB_SPACE_GLOBAL, 4, 0);
    }
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[0], "Tiling through shared memory: on cuda, tiled32 is 1.63x "
                                   "faster than simple; on opencl, tiled32 and simple run the "
                                   "same, within 2.0%.");
    assert_string_equal(l.text[1], "On cuda, coarsening by 4 pays 1.43x over coarse1, 1.14x "
                                   "more than by 2. On opencl, coarsening does not pay here: "
                                   "coarse1 is fastest; coarse2 runs the same, within 2.0%.");
    sb_run_free(&run);
}

/* Two devices whose clauses read the same, figure for figure: one sentence
   for both, not the same words twice. */
static void agreeing_devices_one_sentence(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 2);
    for (int d = 0; d < 2; d++) {
        add(&run, d, "vecadd", "coarse1", 1.0, SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "vecadd", "coarse2", 0.8, SB_SPACE_GLOBAL, 4, 0);
        add(&run, d, "vecadd", "coarse4", 0.7, SB_SPACE_GLOBAL, 4, 0);
    }
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "On every device of the run, coarsening by 4 pays 1.43x over "
                                   "coarse1, 1.14x more than by 2.");
    sb_run_free(&run);
}

/* occupancy: b32-g1x starves the device; b256-g8x, with 270336 threads in
 * flight, is within 5% of the best (value: the bandwidth, its time 1000 /
 * value). */
static void occ(sb_run *run, const char *variant, double gbs, long in_flight)
{
    add(run, 0, "occupancy", variant, 1000.0 / gbs, SB_SPACE_GLOBAL, 4, 0);
    run->results[run->nresults - 1].value = gbs;
    run->results[run->nresults - 1].threads_in_flight = in_flight;
    run->results[run->nresults - 1].grid[0] = (unsigned)(in_flight > 0 ? in_flight / 256 : 16);
    run->results[run->nresults - 1].grid[1] = run->results[run->nresults - 1].grid[2] = 1;
    run->results[run->nresults - 1].block[0] = 256;
    run->results[run->nresults - 1].block[1] = run->results[run->nresults - 1].block[2] = 1;
}

static void threads_in_flight_or_not(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    occ(&run, "memcpy", 4170, -1);
    occ(&run, "b32-g1x", 284, 4224);
    occ(&run, "b256-g4x", 3461, 135168);
    occ(&run, "b256-g8x", 3608, 270336);
    occ(&run, "b256-g32x", 3762, 270336);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "About 270336 threads in flight (b256-g8x) reach 95% of the "
                                   "best bandwidth, b256-g32x's 3762 GB/s; the most starved, "
                                   "b32-g1x with 4224, loses 13.2x.");
    /* Where the API does not say what is in flight, the threads launched. */
    for (size_t i = 0; i < run.nresults; i++)
        run.results[i].threads_in_flight = -1;
    l = lessons(&run);
    assert_non_null(strstr(l.text[0], "About 270336 threads launched (b256-g8x) reach 95%"));
    sb_run_free(&run);
    /* The opposite: the starved launch keeps up (within 5%). */
    devices(&run, 1);
    occ(&run, "b32-g1x", 3700, 4224);
    occ(&run, "b256-g4x", 3750, 135168);
    occ(&run, "b256-g32x", 3762, 270336);
    l = lessons(&run);
    assert_string_equal(l.text[0], "The threads do not matter here: every configuration is "
                                   "within 2% of the best, b256-g32x's 3762 GB/s.");
    sb_run_free(&run);
}

/* A divergence row: its time, slowdown against its group's base (base: it
 * is the base), and the model's predicted slowdown (0: none, as on a CPU). */
static void div_row(sb_run *run, int slot, const char *experiment, const char *variant,
                    double ms, double predicted, int group, int base)
{
    add(run, slot, experiment, variant, ms, SB_SPACE_GLOBAL, 4, 0);
    sb_result *r = &run->results[run->nresults - 1];
    r->quantity = SB_QUANTITY_ELEMENT;
    r->group = group;
    r->baseline = base;
    if (predicted > 0)
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "predicted_slowdown",
                                       predicted, "x"),
                         0);
}

/* lane-k1..k8 and warp-k1..k8 at the lane and warp slowdowns given, the
 * model's k and 1 beside them where predicts is set; slowdowns against
 * lane-k1 (its time 1 ms), as the analysis makes them. */
static void split_run(sb_run *run, int slot, const double lane[4], const double warp[4],
                      int predicts)
{
    for (int by_warp = 0; by_warp < 2; by_warp++)
        for (int i = 0, k = 1; i < 4; i++, k *= 2) {
            char name[16];
            snprintf(name, sizeof name, "%s-k%d", by_warp ? "warp" : "lane", k);
            double slowdown = by_warp ? warp[i] : lane[i];
            div_row(run, slot, "divergence_split", name, slowdown,
                    predicts ? (by_warp ? 1.0 : k) : 0, 0, !by_warp && k == 1);
            run->results[run->nresults - 1].slowdown = slowdown;
        }
}

static void granularity_of_the_condition(void **state)
{
    (void)state;
    sb_run run;
    const double follows[4] = {1.0, 1.98, 3.95, 7.9}, flat[4] = {1.0, 1.01, 1.0, 1.01};
    devices(&run, 1);
    split_run(&run, 0, follows, flat, 1);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Lane % k: 8 paths cost 7.90x the uniform warp, the model's "
                                   "8x, every k within 25% of the model; warp_index % k: 8 paths "
                                   "cost nothing, 1.01x, the model's 1x: the condition's "
                                   "granularity matters, not the number of paths.");
    sb_run_free(&run);

    /* The data say otherwise: the lane split levels off at k = 4, and the
       warp split costs time of its own. */
    const double levels[4] = {1.0, 1.9, 2.2, 2.3}, costs[4] = {1.0, 1.3, 1.3, 1.4};
    devices(&run, 1);
    split_run(&run, 0, levels, costs, 1);
    l = lessons(&run);
    assert_string_equal(l.text[0], "Lane % k: 8 paths cost 2.30x the uniform warp, the model's "
                                   "8x; at k = 4 the time grows less than the model's 4x: 2.20x; "
                                   "warp_index % k: 8 paths cost 1.40x, the model's 1x: the "
                                   "condition's granularity matters, not the number of paths.");
    sb_run_free(&run);

    /* A CPU beside a GPU: no warp, no prediction, and here the two splits
       are the same. */
    devices(&run, 2);
    split_run(&run, 0, follows, flat, 1);
    split_run(&run, 1, flat, flat, 0);
    l = lessons(&run);
    assert_string_equal(l.text[0], "On cuda, lane % k: 8 paths cost 7.90x the uniform warp, the "
                                   "model's 8x, every k within 25% of the model; warp_index % k: "
                                   "8 paths cost nothing, 1.01x, the model's 1x: the condition's "
                                   "granularity matters, not the number of paths. On opencl, "
                                   "lane % k: 8 paths cost 1.01x the uniform case; warp_index % "
                                   "k: 8 paths cost nothing, 1.01x: the two splits run the same "
                                   "here, within 2.0% (no warp: vector lanes, and the model "
                                   "predicts nothing).");
    sb_run_free(&run);
}

/* A branch over uniform, sorted and random input (ms = slowdown, the
 * uniform input's time 1 ms), with the model's paths per warp. */
static void branch_run(sb_run *run, double sorted, double random)
{
    devices(run, 1);
    div_row(run, 0, "divergence_branch", "uniform", 1.0, 1.0, 0, 1);
    div_row(run, 0, "divergence_branch", "sorted", sorted, 1.0001, 0, 0);
    div_row(run, 0, "divergence_branch", "random", random, 2.0, 0, 0);
    for (size_t i = 0; i < run->nresults; i++)
        run->results[i].slowdown = run->results[i].ms.median;
}

static void sorted_against_random(void **state)
{
    (void)state;
    sb_run run;
    branch_run(&run, 1.0, 1.97);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[0], "Random costs 1.97x the uniform input (the model's 2x: the "
                                   "distinct paths per warp), sorted 1.00x (the model's 1x): the "
                                   "time follows the model.");
    assert_string_equal(l.text[1], "Sorting the input cuts the model's predicted slowdown from "
                                   "2x to 1x: sorted is 1.97x faster than random.");
    sb_run_free(&run);
    /* No divergence cost where the model expects one. */
    branch_run(&run, 1.0, 1.01);
    l = lessons(&run);
    assert_string_equal(l.text[0], "Random costs 1.01x the uniform input (the model's 2x: the "
                                   "distinct paths per warp), sorted 1.00x (the model's 1x): "
                                   "random grows less than the model says.");
    assert_string_equal(l.text[1], "Sorting the input cuts the model's predicted slowdown from "
                                   "2x to 1x, but not the time here: sorted and random run the "
                                   "same, within 2.0%.");
    sb_run_free(&run);
    /* A CPU: no prediction to hold the times against. */
    branch_run(&run, 1.0, 1.01);
    for (size_t i = 0; i < run.nresults; i++)
        run.results[i].nfigures = 0;
    l = lessons(&run);
    assert_string_equal(l.text[0], "Random costs 1.01x the uniform input, sorted 1.00x: no warp "
                                   "(vector lanes), so the model predicts nothing.");
    assert_string_equal(l.text[1], "Sorting the input changes nothing here: sorted and random "
                                   "run the same, within 2.0%.");
    sb_run_free(&run);
}

static void predicated_and_loops(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    div_row(&run, 0, "divergence_predication", "branch-uniform", 1.0, 1.0, 0, 1);
    div_row(&run, 0, "divergence_predication", "branch-random", 1.98, 2.0, 0, 0);
    div_row(&run, 0, "divergence_predication", "predicated-uniform", 1.01, 1.0, 1, 1);
    div_row(&run, 0, "divergence_predication", "predicated-random", 1.01, 1.0, 1, 0);
    run.results[0].slowdown = run.results[2].slowdown = 1.0;
    run.results[1].slowdown = 1.98;
    run.results[3].slowdown = 1.0;
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[0], "Branch-random costs 1.98x its uniform input (the model's "
                                   "2x: the paths per warp, one where the sides only choose "
                                   "constants), predicated-random 1.00x (the model's 1x): the "
                                   "time follows the model.");
    assert_string_equal(l.text[1], "Letting the compiler predicate the branch cuts the model's "
                                   "predicted slowdown from 2x to 1x: predicated-random is 1.96x "
                                   "faster than branch-random.");
    sb_run_free(&run);

    devices(&run, 1);
    div_row(&run, 0, "divergence_loop", "uniform", 1.0, 1.0, 0, 1);
    div_row(&run, 0, "divergence_loop", "sorted", 1.3, 1.0039, 0, 0);
    div_row(&run, 0, "divergence_loop", "random", 1.9, 1.9375, 0, 0);
    for (size_t i = 0; i < run.nresults; i++)
        run.results[i].slowdown = run.results[i].ms.median;
    l = lessons(&run);
    assert_string_equal(l.text[0], "Random costs 1.90x the uniform loop (the model's 1.94x: each "
                                   "warp's longest trip count over the mean), sorted 1.30x (the "
                                   "model's 1x): sorted grows more than the model says.");
    assert_string_equal(l.text[1], "Sorting the trip counts cuts the model's predicted slowdown "
                                   "from 1.94x to 1x: sorted is 1.46x faster than random.");
    sb_run_free(&run);
}

/* No rule for the experiment, or its variants not in the run: nothing. */
static void nothing_to_say(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    add(&run, 0, "matmul", "tiled", 1.0, SB_SPACE_SHARED, 1, 0);
    add(&run, 0, "matmul", "padded", 0.5, SB_SPACE_SHARED, 1, 0);
    assert_int_equal(lessons(&run).n, 0);
    sb_run_free(&run);
    devices(&run, 1);
    add(&run, 0, "transpose", "padded", 0.5, SB_SPACE_SHARED, 1, 0);
    assert_int_equal(lessons(&run).n, 0);
    sb_run_free(&run);
    /* an experiment index past the run's */
    sb_analysis a;
    devices(&run, 1);
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_lessons l;
    sb_lessons_of(&a, 3, &l);
    assert_int_equal(l.n, 0);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static char *render(sb_format f, const sb_run *run)
{
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write_to(f, &a, out, err, sizeof err), 0);
    fclose(out);
    sb_analysis_free(&a);
    return buf;
}

/* The table's line that starts at `at`, with the lines it was folded
 * into (indented four spaces) joined again. */
static void unfolded(const char *at, char *buf, size_t n)
{
    size_t used = 0;
    for (const char *p = at; *p && used + 1 < n; p++) {
        if (*p == '\n' && strncmp(p + 1, "    ", 4) == 0 && p[5] != ' ') {
            buf[used++] = ' ';
            p += 4;
        } else if (*p == '\n') {
            break;
        } else {
            buf[used++] = *p;
        }
    }
    buf[used] = '\0';
}

static void every_format_ends_the_block_with_it(void **state)
{
    (void)state;
    sb_run run;
    transpose(&run, 2, (double[]){0.327, 0.330}, (double[]){0.149, 0.151});
    add(&run, 0, "global_walk", "row", 0.07, SB_SPACE_GLOBAL, 4, 1.0);
    add(&run, 0, "global_walk", "column", 0.27, SB_SPACE_GLOBAL, 32, 3.9);
    const char *lesson = "Padding the tile to [32][33] removes the model's 32-way conflict: "
                         "padded is 2.19x faster than tiled on cuda, 2.19x on opencl.";
    const char *alone = "Padding the tile to [32][33] removes the model's 32-way conflict: "
                        "padded is 2.19x faster than tiled.";
    for (int side = 1; side >= 0; side--) {
        if (!side)
            run.ndevices = 1, run.nresults = 2; /* one device: the single table */
        char *t = render(SB_FORMAT_TABLE, &run), want[512], got[512];
        snprintf(want, sizeof want, "  Lesson: %s", side ? lesson : alone);
        const char *at = strstr(t, "  Lesson: Padding the tile");
        assert_non_null(at);
        unfolded(at, got, sizeof got);
        assert_string_equal(got, want);
        /* at the end of the transpose block, before the next one */
        assert_true(at < strstr(t, "\nglobal_walk") || !side);
        free(t);
        t = render(SB_FORMAT_MARKDOWN, &run);
        snprintf(want, sizeof want, "\n**Lesson:** %s\n", side ? lesson : alone);
        assert_non_null(strstr(t, want));
        free(t);
        t = render(SB_FORMAT_HTML, &run);
        assert_non_null(strstr(t, "<p class=\"lesson\"><b>Lesson:</b> Padding the tile"));
        free(t);
    }
    run.ndevices = 2;
    run.nresults = 6;
    char *t = render(SB_FORMAT_JSON, &run);
    json_t *root = json_loads(t, 0, NULL);
    assert_non_null(root);
    json_t *all = json_object_get(root, "lessons");
    assert_int_equal(json_array_size(all), 2);
    json_t *first = json_array_get(all, 0), *second = json_array_get(all, 1);
    assert_string_equal(json_string_value(json_object_get(first, "experiment")), "transpose");
    assert_string_equal(json_string_value(json_object_get(first, "text")), lesson);
    assert_string_equal(json_string_value(json_object_get(second, "experiment")), "global_walk");
    json_decref(root);
    free(t);
    sb_run_free(&run);
}

int main(void)
{
    setenv("GNUPLOT", "", 1); /* the HTML without plots */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(padding_pays_or_not),
        cmocka_unit_test(without_a_model_saving),
        cmocka_unit_test(conflict_ways_followed_or_not),
        cmocka_unit_test(sector_efficiency),
        cmocka_unit_test(coarsening_pays_or_not),
        cmocka_unit_test(matmul_tiling_and_coarsening),
        cmocka_unit_test(agreeing_devices_one_sentence),
        cmocka_unit_test(threads_in_flight_or_not),
        cmocka_unit_test(granularity_of_the_condition),
        cmocka_unit_test(sorted_against_random),
        cmocka_unit_test(predicated_and_loops),
        cmocka_unit_test(nothing_to_say),
        cmocka_unit_test(every_format_ends_the_block_with_it),
    };
    SB_TEST_MAIN(tests);
}
