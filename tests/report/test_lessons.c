/* The lessons under each block say what the numbers say: the same rule
 * gives "padding removes the conflict: 2.19x faster" on one fixture, "but
 * not the time here" on another where the times agree, "costs time" where
 * the padded tile is slower, and names each device where they disagree;
 * the conflict ways are followed, or not, as the slowdowns say;
 * privatisation pays under contention by so much and stops paying at so
 * many bins, or does not pay at all, as the fixture's times say; lane % k
 * costs k times one path and warp_index % k nothing, or the data say
 * otherwise, and a device without a warp is told to have no prediction.
 * The analysis draws them once; every format prints those records at the
 * end of the block. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/lessons.h"
#include "report/report.h"
#include "analysis/analysis.h"

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

/* The last result's repetitions: 20 of them, spread evenly over
 * median x (1 -/+ scatter), so that its noise (run/noise.h) is set. */
static void scatter_last(sb_run *run, double scatter)
{
    sb_result *r = &run->results[run->nresults - 1];
    r->samples = malloc(20 * sizeof *r->samples);
    assert_non_null(r->samples);
    r->nsamples = 20;
    for (int k = 0; k < 20; k++)
        r->samples[k] = r->ms.median * (1.0 + scatter * (2.0 * k / 19.0 - 1.0));
    assert_int_equal(sb_stats_compute(r->samples, 20, &r->ms), 0);
}

/* A noisy row teaches nothing: padded twice as fast as tiled, but with
 * repetitions scattered far beyond the tolerance, is neither faster nor
 * the same: the lesson says it is noisy and by how much, and names it;
 * with every row noisy the block's one lesson says that.  Quiet samples
 * keep the lesson as it was. */
static void no_conclusion_from_a_noisy_row(void **state)
{
    (void)state;
    sb_run run;
    transpose(&run, 1, (double[]){0.300}, (double[]){0.150});
    scatter_last(&run, 0.8);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[0], "Padding the tile to [32][33] removes the model's 32-way "
                                   "conflict; what it does to the time, this run cannot tell: "
                                   "padded against tiled is noisy (spread 37.9%).");
    assert_null(strstr(l.text[0], "faster"));
    assert_null(strstr(l.text[0], "the same"));
    assert_string_equal(l.text[1], "Noisy, so nothing here is concluded from them: padded "
                                   "(spread 37.9%).");
    sb_run_free(&run);

    transpose(&run, 1, (double[]){0.300}, (double[]){0.150});
    scatter_last(&run, 0.8);
    run.nresults--; /* padded out, tiled scattered in its place */
    free(run.results[run.nresults].samples);
    scatter_last(&run, 0.8);
    add(&run, 0, "transpose", "padded", 0.150, SB_SPACE_SHARED, 1, 0);
    scatter_last(&run, 0.8);
    l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.text[0], "No lesson from this block: 2 of its 2 rows are noisy "
                                      "(spread up to "));
    sb_run_free(&run);

    transpose(&run, 1, (double[]){0.300}, (double[]){0.150});
    scatter_last(&run, 0.01);
    l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.text[0], "padded is 2.00x faster than tiled."));
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

/* ------------------------------------------------ the memory hierarchy */

/* One row of a memory family on slot: its headline (time 1000 / value,
 * so that the verdicts compare what the headlines say; for ns/load the
 * time grows with the value), with its axis figure when axis > 0. */
static sb_result *mem_row(sb_run *run, int slot, const char *experiment, const char *variant,
                          sb_quantity q, double value, double axis)
{
    add(run, slot, experiment, variant, q == SB_QUANTITY_LATENCY ? value : 1000.0 / value,
        SB_SPACE_GLOBAL, 16, 0);
    sb_result *r = &run->results[run->nresults - 1];
    r->quantity = q;
    r->value = value;
    r->npatterns = q == SB_QUANTITY_LATENCY ? 0 : 1;
    r->prediction[0].efficiency = 1.0;
    if (axis > 0)
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures,
                                       strcmp(experiment, "dram_channels") == 0 ? "distance"
                                                                               : "chunk",
                                       axis, "B"),
                         0);
    return r;
}

/* "c32", "d4K", "ws512M": the size in the variants' names. */
static void sized(const char *prefix, double bytes, char *buf, size_t n)
{
    if (bytes >= 1073741824.0)
        snprintf(buf, n, "%s%.0fG", prefix, bytes / 1073741824.0);
    else if (bytes >= 1048576.0)
        snprintf(buf, n, "%s%.0fM", prefix, bytes / 1048576.0);
    else if (bytes >= 1024.0)
        snprintf(buf, n, "%s%.0fK", prefix, bytes / 1024.0);
    else
        snprintf(buf, n, "%s%.0f", prefix, bytes);
}

static void burst_run(sb_run *run, const double gbs[9])
{
    devices(run, 1);
    mem_row(run, 0, "dram_burst", "sequential", SB_QUANTITY_BANDWIDTH, 4000, 0);
    for (int k = 0; k < 9; k++) {
        char name[16];
        sized("c", 32.0 * (1 << k), name, sizeof name);
        mem_row(run, 0, "dram_burst", name, SB_QUANTITY_BANDWIDTH, gbs[k], 32.0 * (1 << k));
    }
}

static void burst_reaches_or_not(void **state)
{
    (void)state;
    sb_run run;
    /* c1K reaches 90% of 4000 and every larger chunk stays there; c256's
       3650 alone does not count, for c512 falls below again. */
    burst_run(&run, (double[]){800, 1500, 2600, 3650, 3500, 3700, 3850, 3900, 3950});
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Chunks of 1 KiB or more reach 90% of the same copy in place, "
                                   "4000 GB/s (c1K: 92%); 32 B chunks move at 20% of it, each "
                                   "taking the time of 160 sequential bytes, where the sector "
                                   "model sees every chunk used whole.");
    sb_run_free(&run);
    burst_run(&run, (double[]){400, 700, 1200, 1900, 2500, 2900, 3100, 3150, 3200});
    run.results[9].prediction[0].efficiency = 0.5; /* a model that sees waste */
    l = lessons(&run);
    assert_string_equal(l.text[0], "No chunk up to 8 KiB reaches 90% of the same copy in place, "
                                   "4000 GB/s (c8K: 80%); 32 B chunks move at 10% of it, each "
                                   "taking the time of 320 sequential bytes.");
    sb_run_free(&run);
}

static void channels_run(sb_run *run, double camping)
{
    devices(run, 1);
    mem_row(run, 0, "dram_channels", "random", SB_QUANTITY_BANDWIDTH, 3000, 0);
    for (int k = 0; k < 13; k++) {
        char name[16];
        double d = 256.0 * (1 << k);
        sized("d", d, name, sizeof name);
        /* the far distances slowed by `camping`, d256 faster */
        double gbs = k == 0 ? 4500 : k >= 8 ? 3000 / camping : 3000 * (1 - 0.01 * (k % 3));
        mem_row(run, 0, "dram_channels", name, SB_QUANTITY_BANDWIDTH, gbs, d);
    }
}

static void channels_camp_or_not(void **state)
{
    (void)state;
    sb_run run;
    channels_run(&run, 1.0);
    sb_lessons l = lessons(&run);
    assert_string_equal(l.text[0], "No power-of-two distance from 256 B to 1 MiB runs 10% slower "
                                   "than the same chunks at random: the address mapping spreads "
                                   "them over the channels, so no stride camps here; d256 runs "
                                   "1.50x faster than random order.");
    sb_run_free(&run);
    channels_run(&run, 2.0);
    l = lessons(&run);
    assert_string_equal(l.text[0], "5 of the 13 distances (d64K to d1M) run slower than the same "
                                   "chunks at random, up to 2.00x (d64K): those strides camp on "
                                   "few channels; d256 runs 1.50x faster than random order.");
    sb_run_free(&run);
}

/* A GPU-like chase, 16 KiB .. 4 GiB (test_plateau's curve), on a device
 * with a 60 MiB L2 at 1980 MHz; with `after`, the occupancy rows first. */
static const double chase_ns[19] = {33, 33, 34, 35, 150, 205, 208, 210, 212, 214,
                                    215, 400, 650, 670, 685, 700, 725, 745, 760};

static void latency_rows(sb_run *run, int slot, int levels)
{
    run->devices[slot].info.l2_bytes = 60 << 20;
    run->devices[slot].info.clock_mhz = 1980;
    for (int j = 0; j < levels; j++) {
        char name[16];
        sized("ws", 16384.0 * (1 << j), name, sizeof name);
        sb_result *r = mem_row(run, slot, "latency", name, SB_QUANTITY_LATENCY, chase_ns[j], 0);
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "working_set",
                                       16384.0 * (1 << j), "B"),
                         0);
    }
}

/* An H200-like chase over the family's working sets, 16 KiB .. 4 GiB with
 * 24..56 MiB between the powers of two, ns[26] at each: L1, the near L2,
 * perhaps the far partition, then DRAM. */
static void chase_rows(sb_run *run, const double *ns)
{
    static const double mib = 1 << 20;
    static const double ws[26] = {
        16384, 32768, 65536, 131072, 262144, 524288, 1 * mib, 2 * mib, 4 * mib, 8 * mib,
        16 * mib, 24 * mib, 28 * mib, 32 * mib, 36 * mib, 40 * mib, 44 * mib, 48 * mib,
        56 * mib, 64 * mib, 128 * mib, 256 * mib, 512 * mib, 1024 * mib, 2048 * mib, 4096 * mib};
    devices(run, 1);
    run->devices[0].info.l2_bytes = 60 << 20;
    run->devices[0].info.clock_mhz = 1980;
    for (int j = 0; j < 26; j++) {
        char name[16];
        sized("ws", ws[j], name, sizeof name);
        sb_result *r = mem_row(run, 0, "latency", name, SB_QUANTITY_LATENCY, ns[j], 0);
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "working_set", ws[j], "B"), 0);
    }
}

/* With `far`, the far partition from 32 to 44 MiB, a jump from the near
 * level and from DRAM (without it, the near level goes on to 44 MiB). */
static void split_l2_rows(sb_run *run, int far)
{
    double ns[26] = {17.4, 17.4, 17.5, 17.6, 60,  143, 144, 145, 146, 146, 147, 150, 152,
                     238,  243,  244,  246,  320, 335, 338, 340, 342, 350, 360, 370, 380};
    if (!far)
        for (int j = 13; j < 17; j++)
            ns[j] = 153 + (j - 13);
    chase_rows(run, ns);
}

/* The H200's own shape (run 30's chase, ns): the far partition from 36 to
 * 56 MiB and then one point on the way to DRAM, each step under 1.25x;
 * without `far`, the near level goes on to 56 MiB. */
static void h200_rows(sb_run *run, int far)
{
    double ns[26] = {16.7,  16.9,  17.4,  18.4,  82.2,  142.2, 142.1, 142.1, 142.2,
                     142.1, 142.1, 142.1, 146.3, 225.8, 255.1, 258.8, 258.9, 258.9,
                     260.9, 315.5, 332.6, 332.5, 335.0, 336.7, 337.2, 337.5};
    if (!far)
        for (int j = 13; j < 19; j++)
            ns[j] = 142.5 + 0.5 * (j - 13);
    chase_rows(run, ns);
}

static void latency_plateaus_named_from_the_data(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    latency_rows(&run, 0, 19);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Plateaus: L1 33.5 ns (66 cycles) from 16 KiB to 128 KiB; L2 "
                                   "211 ns (418 cycles) from 512 KiB to 16 MiB; DRAM 700 ns (1386 "
                                   "cycles) from 64 MiB to 4 GiB.");
    sb_run_free(&run);
    /* The same chase stopped at 256 KiB, inside the cache: no DRAM. */
    devices(&run, 1);
    latency_rows(&run, 0, 5);
    l = lessons(&run);
    assert_string_equal(l.text[0], "One plateau: level 1 33.5 ns (66 cycles) from 16 KiB to 128 "
                                   "KiB; the largest working set, 256 KiB, is within twice the 60 "
                                   "MiB the device reports as its cache, so none of them is "
                                   "DRAM's.");
    sb_run_free(&run);
}

/* A curve with a split L2 has its far partition named; the same curve
 * without one has no far level named. */
static void latency_names_far_l2_only_where_it_is(void **state)
{
    (void)state;
    sb_run run;
    split_l2_rows(&run, 1);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Plateaus: L1 17.4 ns (35 cycles) from 16 KiB to 128 KiB; near "
                                   "L2 146 ns (289 cycles) from 512 KiB to 28 MiB; far L2 244 ns "
                                   "(482 cycles) from 32 MiB to 44 MiB; DRAM 342 ns (677 cycles) "
                                   "from 48 MiB to 4 GiB.");
    sb_run_free(&run);
    split_l2_rows(&run, 0);
    l = lessons(&run);
    assert_string_equal(l.text[0], "Plateaus: L1 17.4 ns (35 cycles) from 16 KiB to 128 KiB; L2 "
                                   "148 ns (294 cycles) from 512 KiB to 44 MiB; DRAM 342 ns (677 "
                                   "cycles) from 48 MiB to 4 GiB.");
    assert_null(strstr(l.text[0], "far"));
    sb_run_free(&run);
}

/* The same on the H200's own curve, whose far level meets DRAM's through
 * a point between them: named where the curve has it, and not where the
 * curve lacks it. */
static void latency_names_the_h200s_far_l2(void **state)
{
    (void)state;
    sb_run run;
    h200_rows(&run, 1);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Plateaus: L1 16.9 ns (33 cycles) from 16 KiB to 64 KiB; near "
                                   "L2 142 ns (281 cycles) from 512 KiB to 28 MiB; far L2 259 ns "
                                   "(513 cycles) from 36 MiB to 56 MiB; DRAM 335 ns (663 cycles) "
                                   "from 64 MiB to 4 GiB.");
    sb_run_free(&run);
    h200_rows(&run, 0);
    l = lessons(&run);
    assert_string_equal(l.text[0], "Plateaus: L1 16.9 ns (33 cycles) from 16 KiB to 64 KiB; L2 "
                                   "142 ns (282 cycles) from 512 KiB to 56 MiB; DRAM 335 ns (663 "
                                   "cycles) from 64 MiB to 4 GiB.");
    assert_null(strstr(l.text[0], "far"));
    sb_run_free(&run);
}

static void working_set_run(sb_run *run, double cache)
{
    static const double gbs[18] = {90, 180, 360, 700, 1400, 2800, 6000, 6500, 6400, 6300,
                                   3000, 4100, 4150, 4140, 4120, 4130, 4150, 4160};
    devices(run, 1);
    run->devices[0].info.l2_bytes = (uint64_t)cache;
    for (int k = 0; k < 18; k++) {
        char name[16];
        double ws = 65536.0 * (1 << k);
        sized("ws", ws, name, sizeof name);
        sb_result *r = mem_row(run, 0, "dram_working_set", name, SB_QUANTITY_BANDWIDTH, gbs[k], 0);
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "working_set", ws, "B"), 0);
    }
}

static void working_set_plateaus(void **state)
{
    (void)state;
    sb_run run;
    working_set_run(&run, 60 << 20);
    sb_lessons l = lessons(&run);
    assert_string_equal(l.text[0], "The cache's: 6350 GB/s from 4 MiB to 32 MiB; DRAM's: 4140 GB/s "
                                   "from 128 MiB to 8 GiB; two buffers of four times the 60 MiB "
                                   "the device reports as its cache (ws512M) copy at 4140 GB/s, on "
                                   "the DRAM plateau: why the bandwidth experiments' default "
                                   "buffers are at least four caches.");
    sb_run_free(&run);
    /* A cache figure that is not the L2 (OpenCL's on NVIDIA): four of
       them are still on the cache's plateau. */
    working_set_run(&run, 4 << 20);
    l = lessons(&run);
    assert_non_null(strstr(l.text[0], "four times the 4 MiB the device reports as its cache "
                                      "(ws32M) copy at 6300 GB/s, not yet on the DRAM plateau."));
    sb_run_free(&run);
}

/* The occupancy rows with what each thread keeps in flight, against a
 * 4170 GB/s API copy. */
static void occupancy_rows(sb_run *run)
{
    occ(run, "memcpy", 4170, -1);
    occ(run, "b32-g1x", 284, 4224);
    occ(run, "b256-g4x", 3461, 135168);
    occ(run, "b256-g8x", 3608, 270336);
    occ(run, "b256-g32x", 3762, 270336);
    for (size_t i = run->nresults - 4; i < run->nresults; i++) {
        sb_result *r = &run->results[i];
        r->roof_share = r->value / 4170;
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "bytes_per_thread", 4, ""), 0);
    }
}

static void littles_law_predicted_or_needed(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    latency_rows(&run, 0, 19);
    occupancy_rows(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_lessons l;
    sb_lessons_of(&a, 1, &l); /* the occupancy block */
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[1], "Little's law: the copy's reads, 2085 GB/s (half its 4170), x "
                                   "the DRAM latency, 700 ns, need 1.46 MB of loads in flight, "
                                   "364875 threads of 4 B; measured, b256-g8x reaches 95% of the "
                                   "best bandwidth with 1.08 MB in flight (270336 threads in "
                                   "flight x 4 B): 0.74x the prediction.");
    assert_double_equal(a.memory[0].need_bytes, 2085.0 * 700, 1e-6);
    assert_double_equal(a.memory[0].knee_bytes, 270336.0 * 4, 0);
    sb_analysis_free(&a);
    sb_run_free(&run);
    /* No latency in the run, or measured only after: what the prediction needs. */
    for (int after = 0; after <= 1; after++) {
        devices(&run, 1);
        occupancy_rows(&run);
        if (after)
            latency_rows(&run, 0, 19);
        l = lessons(&run);
        assert_int_equal(l.n, 2);
        assert_string_equal(l.text[1], "Little's law needs the DRAM latency measured before "
                                       "this block to predict the knee (--experiment "
                                       "latency,occupancy); measured, b256-g8x reaches 95% of the "
                                       "best bandwidth with 1.08 MB in flight (270336 threads in "
                                       "flight x 4 B).");
        sb_run_free(&run);
    }
}

static void diagonal_order_pays_or_not(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    add(&run, 0, "transpose", "padded", 0.150, SB_SPACE_SHARED, 1, 0);
    add(&run, 0, "transpose", "diagonal", 0.151, SB_SPACE_SHARED, 1, 0);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "Taking the tiles in diagonal order (the fix for partition "
                                   "camping) changes nothing here: diagonal and padded run the "
                                   "same, within 2.0%.");
    run.results[1].ms.median = 0.100;
    l = lessons(&run);
    assert_string_equal(l.text[0], "Taking the tiles in diagonal order (the fix for partition "
                                   "camping) pays: diagonal is 1.50x faster than padded.");
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
/* A histogram's rows of one distribution on one device: at each bin count
 * its global atomics, its coarsened private copy and a plain private copy
 * half as fast again (ms; 0: not run), 2^18 inputs each. */
static void hist_rows(sb_run *run, int slot, const char *dist, int n, const long bins[],
                      const double global[], const double priv[])
{
    for (int k = 0; k < n; k++) {
        static const char *const method[] = {"global", "shared_coarse", "shared"};
        double ms[] = {global[k], priv[k], 1.5 * priv[k]};
        for (int m = 0; m < 3; m++) {
            if (!(ms[m] > 0))
                continue;
            char v[48];
            snprintf(v, sizeof v, "%s-b%ld-%s", method[m], bins[k], dist);
            add(run, slot, "histogram", v, ms[m], SB_SPACE_GLOBAL, 4, 0);
            run->results[run->nresults - 1].bytes = 4.0 * 262144;
        }
    }
}

/* Privatisation under full contention and with uniform bins: whether the
 * fastest private copy beats the global atomics, by how much, and at which
 * bin count it stops; the bin updates per ns beside the first factor. */
static void privatisation_pays_or_stops(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    hist_rows(&run, 0, "uniform", 4, (long[]){1, 32, 256, 4096}, (double[]){10, 1.0, 0.9, 0.9},
              (double[]){0.5, 0.6, 0.7, 0.905});
    hist_rows(&run, 0, "skewed", 3, (long[]){1, 32, 4096}, (double[]){10, 10, 10},
              (double[]){0.41, 0.5, 3.3});
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.text[0], "With every value in one bin, privatising pays at 1 bin: "
                                   "shared_coarse-b1-skewed is 24.4x faster than global atomics "
                                   "(0.639 against 0.0262 bin updates per ns); it still pays at "
                                   "4096 bins, the most measured: shared_coarse-b4096-skewed is "
                                   "3.03x faster.");
    assert_string_equal(l.text[1], "With uniform values, privatising pays at 1 bin: "
                                   "shared_coarse-b1-uniform is 20.0x faster than global atomics "
                                   "(0.524 against 0.0262 bin updates per ns); it stops paying at "
                                   "4096 bins: shared_coarse-b4096-uniform runs the same as "
                                   "global atomics, within 2.0%.");
    assert_string_equal(l.text[2], "Coarsening the private copy (32 inputs a thread) pays: "
                                   "shared_coarse-b4096-uniform is 1.50x faster than "
                                   "shared-b4096-uniform.");
    sb_run_free(&run);

    /* The other way: slower from the first bin count on. */
    devices(&run, 1);
    hist_rows(&run, 0, "uniform", 1, (long[]){32}, (double[]){1.0}, (double[]){1.3});
    l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "With uniform values, privatising does not pay even at 32 "
                                   "bins: shared_coarse-b32-uniform is 1.30x slower than global "
                                   "atomics.");
    sb_run_free(&run);

    /* Devices that disagree each say their own. */
    devices(&run, 2);
    hist_rows(&run, 0, "skewed", 1, (long[]){256}, (double[]){10}, (double[]){0.5});
    hist_rows(&run, 1, "skewed", 1, (long[]){256}, (double[]){1.0}, (double[]){1.01});
    l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "On cuda, with every value in one bin, privatising pays at "
                                   "256 bins: shared_coarse-b256-skewed is 20.0x faster than "
                                   "global atomics (0.524 against 0.0262 bin updates per ns). "
                                   "On opencl, with every value in one bin, privatising does not "
                                   "pay even at 256 bins: shared_coarse-b256-skewed runs the "
                                   "same as global atomics, within 2.0%.");
    sb_run_free(&run);

    /* No global atomics to hold the copies against: nothing said. */
    devices(&run, 1);
    hist_rows(&run, 0, "skewed", 1, (long[]){256}, (double[]){0}, (double[]){0.5});
    assert_int_equal(lessons(&run).n, 0);
    sb_run_free(&run);
}

/* The sum: per-block partial sums against an atomic per input, and their
 * coarsening, both ways. */
static void partial_sums_pay_or_not(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    add(&run, 0, "sum", "global", 3.0, SB_SPACE_GLOBAL, 4, 1.0);
    add(&run, 0, "sum", "block", 0.1, SB_SPACE_GLOBAL, 4, 0);
    add(&run, 0, "sum", "block_coarse", 0.1005, SB_SPACE_GLOBAL, 4, 0);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.text[0], "Summing per block before one atomic pays: block is 30.0x "
                                   "faster than global.");
    assert_string_equal(l.text[1], "Coarsening the per-block sums (32 inputs a thread) changes "
                                   "nothing here: block_coarse and block run the same, within "
                                   "2.0%.");
    run.results[1].ms.median = 3.6;
    l = lessons(&run);
    assert_string_equal(l.text[0], "Summing per block before one atomic costs time here: block "
                                   "is 1.20x slower than global.");
    sb_run_free(&run);
}

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

/* A launch-family row: device and host-observed medians (2% spread each),
 * launches per second, and the bytes it moves. */
static void launch_row(sb_run *run, int slot, const char *experiment, const char *variant,
                       double device_ms, double host_ms, double per_s, double bytes)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", run->devices[slot].backend);
    r.device_slot = slot;
    snprintf(r.experiment, sizeof r.experiment, "%s", experiment);
    snprintf(r.family, sizeof r.family, "launch");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.rows = 33554432;
    r.cols = 1;
    r.size_kind = SB_SIZE_ELEMENTS;
    r.ms = (sb_stats){.n = 20, .median = device_ms, .min = 0.99 * device_ms,
                      .max = 1.01 * device_ms, .spread = 0.02};
    r.host_observed = (sb_stats){.n = 20, .median = host_ms, .min = 0.99 * host_ms,
                                 .max = 1.01 * host_ms, .spread = 0.02};
    r.launches_per_s = per_s;
    r.queued_launches = 1000;
    r.bytes = bytes;
    r.quantity = SB_QUANTITY_LAUNCH;
    r.value = 1e3 * device_ms;
    r.occupancy = r.regs = -1;
    r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
    r.verified = 1;
    assert_int_equal(sb_run_add(run, &r), 0);
}

/* The empty kernel: each device's time per launch on its events and on
 * the host's clock, the launches per second, and what the host sees
 * beyond the kernel, whatever the figures. */
static void launch_path(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 2);
    launch_row(&run, 0, "launch_small", "empty", 0.0021, 0.0043, 232558, 0);
    launch_row(&run, 1, "launch_small", "empty", 0.0019, 0.0079, 126582, 0);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "The launch path of an empty kernel: device 2.1 us, "
                                   "host-observed 4.3 us a launch on cuda (232558 a second "
                                   "queued back to back); device 1.9 us, host-observed 7.9 us on "
                                   "opencl (126582 a second): a host-timed benchmark sees 2.2 us "
                                   "on cuda, 6.0 us on opencl more than the kernel per launch.");
    sb_run_free(&run);
    devices(&run, 1);
    launch_row(&run, 0, "launch_small", "empty", 0.0050, 0.0051, 0, 0);
    l = lessons(&run);
    assert_string_equal(l.text[0], "The launch path of an empty kernel: device 5.0 us, "
                                   "host-observed 5.1 us a launch: a host-timed benchmark sees "
                                   "0.1 us more than the kernel per launch.");
    sb_run_free(&run);
}

/* The copy: what a host-timed benchmark loses on each device, and whether
 * the launch path is what makes the devices differ: it is where only the
 * host's times differ, it is not where the kernels' do, and neither
 * where nothing does. */
static void launch_path_explains_or_not(void **state)
{
    (void)state;
    const double bytes = 2.0 * 4 * 33554432; /* 268 435 456 */
    sb_run run;
    devices(&run, 2);
    launch_row(&run, 0, "launch_large", "copy", 0.1000, 0.1020, 9000, bytes);
    launch_row(&run, 1, "launch_large", "copy", 0.1000, 0.1200, 8000, bytes);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "At 33 554 432 elements, a host-timed benchmark of the copy "
                                   "reports less bandwidth than the kernel delivers by 2.0% on "
                                   "cuda (2632 against 2684 GB/s), 16.7% on opencl (2237 against "
                                   "2684 GB/s). opencl against cuda, host-observed: cuda faster "
                                   "by 17.6%; on the device: same (within 2.0%): the launch "
                                   "path, not the kernel, makes the difference.");
    sb_run_free(&run);
    devices(&run, 2);
    launch_row(&run, 0, "launch_large", "copy", 0.1000, 0.1020, 9000, bytes);
    launch_row(&run, 1, "launch_large", "copy", 0.1200, 0.1220, 8000, bytes);
    l = lessons(&run);
    assert_non_null(strstr(l.text[0], "on the device: cuda faster by 20.0%: the kernels' own "
                                      "times differ, not the launch path alone."));
    sb_run_free(&run);
    devices(&run, 2);
    launch_row(&run, 0, "launch_large", "copy", 0.1000, 0.1020, 9000, bytes);
    launch_row(&run, 1, "launch_large", "copy", 0.1005, 0.1021, 8000, bytes);
    l = lessons(&run);
    assert_non_null(strstr(l.text[0], "by 2.0% on cuda (2632 against 2684 GB/s), 1.6% on "
                                      "opencl"));
    assert_non_null(strstr(l.text[0], ": neither the launch path nor the kernel makes them "
                                      "differ here."));
    sb_run_free(&run);
    /* Rows the host did not time: no lesson. */
    devices(&run, 1);
    launch_row(&run, 0, "launch_large", "copy", 0.1, 0.1, 0, bytes);
    run.results[0].host_observed.n = 0;
    assert_int_equal(lessons(&run).n, 0);
    sb_run_free(&run);
}

/* An FMA row of the compute family on slot, at GFLOP/s for a 2 ms launch. */
static void fma_row(sb_run *run, int slot, const char *variant, double ms, double gflops)
{
    add(run, slot, "compute", variant, ms, SB_SPACE_GLOBAL, 4, 0);
    sb_result *r = &run->results[run->nresults - 1];
    r->quantity = SB_QUANTITY_FLOPS;
    r->npatterns = 0;
    r->value = gflops;
}

/* The FMA peak against the theoretical peak the device's figures give,
 * or the reason there is none; one chain a thread the same, or slower,
 * as the times say. */
static void fma_peak_against_theory(void **state)
{
    (void)state;
    sb_run run;
    devices(&run, 1);
    sb_device_info *in = &run.devices[0].info;
    snprintf(in->arch, sizeof in->arch, "sm_90");
    in->compute_units = 132;
    in->clock_mhz = 1980;
    fma_row(&run, 0, "fma_chains8", 2.000, 61200.0);
    fma_row(&run, 0, "fma_chains1", 2.010, 60895.5);
    sb_lessons l = lessons(&run);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.text[0], "FMA peak 61.2 TFLOP/s, 91% of the theoretical 66.9 "
                                   "TFLOP/s; one chain a thread runs the same, within 2.0%: the "
                                   "threads in flight hide the FMA's latency without the "
                                   "chains.");
    sb_run_free(&run);
    devices(&run, 1);
    snprintf(run.devices[0].info.arch, sizeof run.devices[0].info.arch, "OpenCL C 1.2 PoCL");
    fma_row(&run, 0, "fma_chains8", 10.0, 13.3);
    fma_row(&run, 0, "fma_chains1", 73.0, 1.8);
    l = lessons(&run);
    assert_string_equal(l.text[0], "FMA peak 13.3 GFLOP/s, with no theoretical peak to hold it "
                                   "against (the FP32 lanes of OpenCL C 1.2 PoCL are not known); "
                                   "one chain a thread is 7.30x slower: without independent "
                                   "chains the FMA's latency is not hidden.");
    sb_run_free(&run);
}

/* The lessons are analysis: sb_analyse_saved draws them once into the
 * analysis, and every writer prints those records rather than drawing its
 * own (a record changed after the analysis is what each format prints). */
static void drawn_once_before_any_writer(void **state)
{
    (void)state;
    sb_run run;
    transpose(&run, 1, (double[]){0.327}, (double[]){0.149});
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_non_null(a.lessons);
    assert_true(a.lessons[0].n >= 1);
    assert_non_null(strstr(a.lessons[0].text[0], "Padding the tile to [32][33]"));
    sb_lessons l;
    sb_lessons_of(&a, 0, &l);
    assert_int_equal(l.n, a.lessons[0].n);
    assert_string_equal(l.text[0], a.lessons[0].text[0]);
    sb_lessons_of(&a, a.cross.nexperiments, &l);
    assert_int_equal(l.n, 0); /* out of range: none */
    snprintf(a.lessons[0].text[0], sizeof a.lessons[0].text[0], "The record the analysis drew.");
    static const sb_format formats[] = {SB_FORMAT_TABLE, SB_FORMAT_MARKDOWN, SB_FORMAT_HTML,
                                        SB_FORMAT_JSON};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        char *buf = NULL, err[256];
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_non_null(out);
        assert_int_equal(sb_report_write_to(formats[f], &a, out, err, sizeof err), 0);
        fclose(out);
        assert_non_null(strstr(buf, "The record the analysis drew."));
        assert_null(strstr(buf, "Padding the tile to [32][33]"));
        free(buf);
    }
    sb_analysis_free(&a);
    assert_null(a.lessons);
    sb_run_free(&run);
}

int main(void)
{
    setenv("GNUPLOT", "", 1); /* the HTML without plots */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(padding_pays_or_not),
        cmocka_unit_test(no_conclusion_from_a_noisy_row),
        cmocka_unit_test(without_a_model_saving),
        cmocka_unit_test(conflict_ways_followed_or_not),
        cmocka_unit_test(sector_efficiency),
        cmocka_unit_test(coarsening_pays_or_not),
        cmocka_unit_test(matmul_tiling_and_coarsening),
        cmocka_unit_test(agreeing_devices_one_sentence),
        cmocka_unit_test(threads_in_flight_or_not),
        cmocka_unit_test(privatisation_pays_or_stops),
        cmocka_unit_test(partial_sums_pay_or_not),
        cmocka_unit_test(burst_reaches_or_not),
        cmocka_unit_test(channels_camp_or_not),
        cmocka_unit_test(latency_plateaus_named_from_the_data),
        cmocka_unit_test(latency_names_far_l2_only_where_it_is),
        cmocka_unit_test(latency_names_the_h200s_far_l2),
        cmocka_unit_test(working_set_plateaus),
        cmocka_unit_test(littles_law_predicted_or_needed),
        cmocka_unit_test(diagonal_order_pays_or_not),
        cmocka_unit_test(granularity_of_the_condition),
        cmocka_unit_test(sorted_against_random),
        cmocka_unit_test(predicated_and_loops),
        cmocka_unit_test(nothing_to_say),
        cmocka_unit_test(launch_path),
        cmocka_unit_test(launch_path_explains_or_not),
        cmocka_unit_test(fma_peak_against_theory),
        cmocka_unit_test(every_format_ends_the_block_with_it),
        cmocka_unit_test(drawn_once_before_any_writer),
    };
    SB_TEST_MAIN(tests);
}
