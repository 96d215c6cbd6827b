/* The lessons under each block say what the numbers say: the same rule
 * gives "padding removes the conflict: 2.19x faster" on one fixture, "but
 * not the time here" on another where the times agree, "costs time" where
 * the padded tile is slower, and names each device where they disagree;
 * the conflict ways are followed, or not, as the slowdowns say.  Every
 * format prints them at the end of the block. */
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
        cmocka_unit_test(nothing_to_say),
        cmocka_unit_test(launch_path),
        cmocka_unit_test(launch_path_explains_or_not),
        cmocka_unit_test(fma_peak_against_theory),
        cmocka_unit_test(every_format_ends_the_block_with_it),
    };
    SB_TEST_MAIN(tests);
}
