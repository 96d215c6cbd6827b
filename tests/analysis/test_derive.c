/* What analysis derives from the executor's raw records, on a fixture run
 * with no device: headline figures at the median and the fastest time
 * (a latency in cycles too), threads in flight, the model's predictions,
 * each device's copy roofs and the shares of them. */
#include "test_util.h"

#include <string.h>

#include "experiments/experiment.h"
#include "model.h"
#include "result.h"
#include "analysis/analysis.h"

#define UNITS 132

static sb_result row(const char *variant, sb_role role, sb_quantity q, double median, double min)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "fixture");
    snprintf(r.experiment, sizeof r.experiment, "fixture");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.role = (int)role;
    r.quantity = q;
    r.ms.median = median;
    r.ms.min = min;
    r.occupancy = -1;
    r.block[0] = 256;
    r.block[1] = r.block[2] = 1;
    r.grid[0] = 1000;
    r.grid[1] = r.grid[2] = 1;
    return r;
}

static void fixture(sb_run *run)
{
    memset(run, 0, sizeof *run);
    run->ndevices = 1;
    run->devices[0].info.compute_units = UNITS;
    run->devices[0].info.clock_mhz = 1980;
    sb_result api = row("memcpy", SB_ROLE_API_COPY, SB_QUANTITY_BANDWIDTH, 1.0, 0.5);
    api.bytes = 2e9;
    sb_result roof = row("copy", SB_ROLE_COPY_ROOF, SB_QUANTITY_BANDWIDTH, 1.0, 1.0);
    roof.bytes = 1e9;
    sb_result kernel = row("strided", SB_ROLE_KERNEL, SB_QUANTITY_BANDWIDTH, 1.0, 0.8);
    kernel.bytes = 5e8;
    kernel.occupancy = 2;
    kernel.npatterns = 1;
    kernel.pattern[0] = sb_pattern_default();
    kernel.pattern[0].space = SB_SPACE_GLOBAL;
    kernel.pattern[0].stride = 2;
    sb_result flops = row("matmul", SB_ROLE_KERNEL, SB_QUANTITY_FLOPS, 2.0, 2.0);
    flops.flops = 1e9;
    flops.intensity = 1.0;
    flops.occupancy = 100; /* more resident than launched */
    sb_result access = row("shared", SB_ROLE_KERNEL, SB_QUANTITY_ACCESS, 1.0, 0.5);
    access.accesses = 1e6;
    sb_result chase = row("ws16K", SB_ROLE_KERNEL, SB_QUANTITY_LATENCY, 0.5, 0.4);
    chase.accesses = 1000;
    assert_int_equal(sb_figure_add(chase.figure, &chase.nfigures, "working_set", 16384, "B"), 0);
    const sb_result rows[] = {api, roof, kernel, flops, access, chase};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(sb_run_add(run, &rows[i]), 0);
}

static void headlines_and_roofs(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    const sb_result *r = run.results;
    assert_double_equal(r[0].value, 2000.0, 1e-9);      /* 2e9 B in 1 ms */
    assert_double_equal(r[0].value_best, 4000.0, 1e-9); /* in 0.5 ms */
    assert_double_equal(r[1].value, 1000.0, 1e-9);
    assert_double_equal(r[2].value, 500.0, 1e-9);
    assert_double_equal(r[2].value_best, 625.0, 1e-9);
    assert_double_equal(r[3].value, 500.0, 1e-9); /* 1e9 FLOP in 2 ms */
    /* 1 ms on each of UNITS multiprocessors over 1e6 accesses */
    assert_double_equal(r[4].value, 1e6 * UNITS / 1e6, 1e-9);
    assert_double_equal(r[4].value_best, 0.5e6 * UNITS / 1e6, 1e-9);
    /* 0.5 ms over 1000 dependent loads; at 1980 MHz, 990 cycles each. */
    assert_double_equal(r[5].value, 500.0, 1e-9);
    assert_double_equal(r[5].value_best, 400.0, 1e-9);
    assert_true(r[5].roof_share == 0.0);
    assert_int_equal(r[5].nfigures, 2);
    assert_string_equal(r[5].figure[1].name, "cycles_per_load");
    assert_double_equal(r[5].figure[1].value, 990.0, 1e-9);
    assert_string_equal(r[5].figure[1].unit, "cycles");
    /* The API copy is the roof where there is one; the copy kernel is kept. */
    assert_double_equal(run.devices[0].memcpy_gbs, 2000.0, 1e-9);
    assert_double_equal(run.devices[0].copy_gbs, 1000.0, 1e-9);
    assert_double_equal(r[2].roof_share, 0.25, 1e-12);
    assert_double_equal(r[3].roof_share, 500.0 / (1.0 * 2000.0), 1e-12);
    sb_analysis_free(&a);
    /* Analysed again, the cycles are set again, not added. */
    run.results[5].ms.median = 1.0;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    assert_int_equal(r[5].nfigures, 2);
    assert_double_equal(r[5].figure[1].value, 1980.0, 1e-9);
    assert_string_equal(sb_quantity_unit(r[5].quantity), "ns/load");
    sb_quantity q;
    assert_int_equal(sb_quantity_parse("ns/load", &q), 0);
    assert_int_equal(q, SB_QUANTITY_LATENCY);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static void threads_in_flight_and_predictions(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    const sb_result *r = run.results;
    assert_int_equal(r[0].threads_in_flight, -1); /* no occupancy: unknown */
    /* resident: 256 threads x 2 blocks x UNITS, fewer than 256 x 1000 launched */
    assert_int_equal(r[2].threads_in_flight, 256L * 2 * UNITS);
    assert_int_equal(r[3].threads_in_flight, 256L * 1000); /* all launched are resident */
    sb_prediction want;
    assert_int_equal(sb_predict(&r[2].pattern[0], &want), 0);
    assert_int_equal(r[2].prediction[0].sectors, want.sectors);
    assert_int_equal(r[2].prediction[0].sectors, 8); /* stride 2 of 4-byte words */
    assert_double_equal(r[2].prediction[0].efficiency, want.efficiency, 1e-12);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* A run read back carries no roles: the roofs it was saved with stay. */
static void saved_roofs_are_kept(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    for (size_t i = 0; i < run.nresults; i++)
        run.results[i].role = SB_ROLE_KERNEL;
    run.devices[0].memcpy_gbs = 2500.0;
    run.devices[0].copy_gbs = 1200.0;
    sb_analysis a;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    assert_double_equal(run.devices[0].memcpy_gbs, 2500.0, 1e-9);
    assert_double_equal(run.devices[0].copy_gbs, 1200.0, 1e-9);
    assert_double_equal(run.results[2].roof_share, 500.0 / 2500.0, 1e-12);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* One bandwidth row of experiment exp. */
static sb_result exp_row(const char *exp, const char *variant, sb_role role, double bytes)
{
    sb_result r = row(variant, role, SB_QUANTITY_BANDWIDTH, 1.0, 1.0);
    snprintf(r.experiment, sizeof r.experiment, "%s", exp);
    r.bytes = bytes;
    r.rows = r.cols = 64;
    return r;
}

/* Each row's roof depends only on its experiment and the rows before it, so
   that a block printed when it is measured is the block of the whole run:
   an experiment's own API copy where it has one (not a faster one measured
   later), else the fastest measured before it. */
static void roofs_from_the_rows_before(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    run.devices[0].info.compute_units = UNITS;
    const sb_result rows[] = {
        exp_row("early", "kernel", SB_ROLE_KERNEL, 1e9),   /* no copy measured yet */
        exp_row("a", "memcpy", SB_ROLE_API_COPY, 2e9),
        exp_row("a", "kernel", SB_ROLE_KERNEL, 1e9),
        exp_row("b", "kernel", SB_ROLE_KERNEL, 1.5e9),     /* its own copy comes after it */
        exp_row("b", "memcpy", SB_ROLE_API_COPY, 3e9),
        exp_row("c", "kernel", SB_ROLE_KERNEL, 1.5e9),     /* no copy of its own */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(sb_run_add(&run, &rows[i]), 0);
    sb_analysis a;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    const sb_result *r = run.results;
    assert_true(r[0].roof_share == 0.0);                       /* nothing to share */
    assert_double_equal(r[2].roof_share, 1000.0 / 2000.0, 1e-12); /* a's own, not b's */
    assert_double_equal(r[3].roof_share, 1500.0 / 3000.0, 1e-12); /* b's own */
    assert_double_equal(r[5].roof_share, 1500.0 / 3000.0, 1e-12); /* the fastest before */
    /* The device's figure is the fastest of the run. */
    assert_double_equal(run.devices[0].memcpy_gbs, 3000.0, 1e-9);
    sb_analysis_free(&a);
    /* Analysed again, as a streamed run is after each experiment: the same. */
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    assert_true(r[0].roof_share == 0.0);
    assert_double_equal(r[2].roof_share, 1000.0 / 2000.0, 1e-12);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* A GFLOP/s row that implies no memory traffic is held against the
 * device's theoretical FP32 peak, the FMA peak kernel is the device's
 * measured compute roof, and a launch row's headline is microseconds per
 * launch. */
static void compute_roof_and_launch(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    sb_device_info *info = &run.devices[0].info;
    snprintf(info->arch, sizeof info->arch, "sm_90");
    info->compute_units = 132;
    info->clock_mhz = 1980; /* 66 908.16 GFLOP/s */
    sb_result fma = row("fma_chains8", SB_ROLE_COMPUTE_ROOF, SB_QUANTITY_FLOPS, 2.0, 1.9);
    fma.flops = 2.0 * 61.2e9; /* 61 200 GFLOP/s at 2 ms */
    sb_result one = row("fma_chains1", SB_ROLE_KERNEL, SB_QUANTITY_FLOPS, 4.0, 4.0);
    one.flops = fma.flops;
    sb_result gemm = row("tiled32", SB_ROLE_KERNEL, SB_QUANTITY_FLOPS, 1.0, 1.0);
    gemm.flops = 1e9;
    gemm.intensity = 8; /* no copy roof measured: no share */
    sb_result empty = row("empty", SB_ROLE_KERNEL, SB_QUANTITY_LAUNCH, 0.0021, 0.0020);
    const sb_result rows[] = {fma, one, gemm, empty};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(sb_run_add(&run, &rows[i]), 0);
    sb_analysis a;
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    const sb_result *r = run.results;
    assert_double_equal(r[0].value, 61200.0, 1e-6);
    assert_double_equal(r[0].roof_share, 61200.0 / 66908.16, 1e-12);
    assert_double_equal(r[1].roof_share, 30600.0 / 66908.16, 1e-12);
    assert_true(r[2].roof_share == 0.0);
    assert_double_equal(run.devices[0].fma_gflops, 61200.0, 1e-6);
    assert_double_equal(r[3].value, 2.1, 1e-9);
    assert_double_equal(r[3].value_best, 2.0, 1e-9);
    sb_analysis_free(&a);
    /* An architecture without lanes in the table: no share, the roof kept. */
    snprintf(info->arch, sizeof info->arch, "OpenCL C 1.2 PoCL");
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    assert_true(r[0].roof_share == 0.0);
    assert_double_equal(run.devices[0].fma_gflops, 61200.0, 1e-6);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(headlines_and_roofs),
        cmocka_unit_test(threads_in_flight_and_predictions),
        cmocka_unit_test(saved_roofs_are_kept),
        cmocka_unit_test(roofs_from_the_rows_before),
        cmocka_unit_test(compute_roof_and_launch),
    };
    SB_TEST_MAIN(tests);
}
