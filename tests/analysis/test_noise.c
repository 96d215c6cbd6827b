/* The noise rule (run/noise.h) on fixtures both ways, the drift check's
 * fields through JSON and back, and the saved quiet H200 suite, which
 * must have no noisy row. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json_read.h"
#include "report/report.h"
#include "analysis/analysis.h"
#include "analysis/noise.h"

#define REPS 20

/* A result of n samples around ms, each k-th one scaled by (1 + scatter)
 * in turn from -scatter to +scatter: the spread is set by scatter alone,
 * with no draw to make a test depend on its seed. */
static sb_result timed(double *t, size_t n, double ms, double scatter)
{
    for (size_t k = 0; k < n; k++)
        t[k] = ms * (1.0 + scatter * (2.0 * (double)k / (double)(n - 1) - 1.0));
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "opencl");
    snprintf(r.experiment, sizeof r.experiment, "transpose");
    snprintf(r.variant, sizeof r.variant, "v");
    r.rows = r.cols = 1024;
    r.reps = (int)n;
    r.samples = t;
    r.nsamples = n;
    assert_int_equal(sb_stats_compute(t, n, &r.ms), 0);
    r.quantity = SB_QUANTITY_BANDWIDTH;
    r.bytes = 8.0 * 1024 * 1024;
    r.value = r.bytes / (r.ms.median * 1e6);
    r.occupancy = r.regs = -1;
    r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
    r.verified = 1;
    return r;
}

/* A run of one device: a quiet API copy (the roof), a quiet kernel and a
 * kernel whose repetitions scatter by scatter. */
static void fixture(sb_run *run, double scatter)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "0.1.0");
    run->ndevices = 1;
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "opencl");
    snprintf(run->devices[0].info.name, sizeof run->devices[0].info.name, "fixture");
    double t[REPS];
    const char *names[3] = {"memcpy", "tiled", "padded"};
    for (int i = 0; i < 3; i++) {
        sb_result r = timed(t, REPS, 1.0 + i, i == 2 ? scatter : 0.005);
        snprintf(r.variant, sizeof r.variant, "%s", names[i]);
        snprintf(r.kernel, sizeof r.kernel, "%s", i == 0 ? "(API copy)" : names[i]);
        r.roof_share = i == 0 ? 1.0 : 1.0 / (1.0 + i);
        assert_int_equal(sb_run_add(run, &r), 0);
    }
}

/* A 1% scatter is quiet, a 100% one noisy; the rule's margin is the
 * verdict tolerance, and a threshold widens it. */
static void the_rule_both_ways(void **state)
{
    (void)state;
    double t[REPS];
    sb_result quiet = timed(t, REPS, 1.0, 0.01);
    double s = sb_noise_spread(&quiet);
    assert_true(s >= 0 && s <= SB_VERDICT_TOLERANCE);
    sb_result noisy = timed(t, REPS, 1.0, 1.0 - 1e-9);
    assert_true(sb_noise_spread(&noisy) > SB_VERDICT_TOLERANCE);

    sb_run run;
    sb_noise n;
    fixture(&run, 0.5);
    assert_int_equal(sb_noise_build(&run, 0.0, &n), 0);
    assert_int_equal(n.rows[0].noisy, 0);
    assert_int_equal(n.rows[1].noisy, 0);
    assert_int_equal(n.rows[2].noisy, SB_NOISY_SPREAD);
    assert_int_equal(sb_noise_count(&n), 1);
    assert_false(sb_noise_mostly(&n));
    char text[96];
    sb_noise_text(&n.rows[2], text, sizeof text);
    assert_non_null(strstr(text, "noisy (spread "));
    sb_noise_free(&n);
    /* A threshold as wide as the scatter makes it quiet again. */
    assert_int_equal(sb_noise_build(&run, 1.0, &n), 0);
    assert_int_equal(sb_noise_count(&n), 0);
    sb_noise_free(&n);
    sb_run_free(&run);
}

/* Fewer than 5 samples: no spread, never noisy by it; the cell shows the
 * saved (max - min) / median marked "~". */
static void few_samples_judge_nothing(void **state)
{
    (void)state;
    double t[3];
    sb_result r = timed(t, 3, 1.0, 0.9);
    assert_true(sb_noise_spread(&r) < 0);
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    assert_int_equal(sb_run_add(&run, &r), 0);
    sb_noise n;
    assert_int_equal(sb_noise_build(&run, 0.0, &n), 0);
    assert_int_equal(sb_noise_count(&n), 0);
    assert_int_equal(n.judged, 0);
    char spread[48], roof[48];
    sb_noise_cells(&n, 0, &run.results[0], spread, roof, sizeof spread);
    assert_int_equal(spread[0], '~');
    sb_noise_free(&n);
    sb_run_free(&run);
}

/* A device whose roof moved by more than the margin between the start
 * and the end makes every row of it noisy, and its roof% no fact; a run
 * of such rows is mostly noisy and says so. */
static void drift_makes_every_row_noisy(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 0.005);
    run.devices[0].roof_start_gbs = 100;
    run.devices[0].roof_end_gbs = 101;
    sb_noise n;
    assert_int_equal(sb_noise_build(&run, 0.0, &n), 0);
    assert_int_equal(sb_noise_count(&n), 0);
    assert_double_equal(n.drift[0], 0.01, 1e-12);
    sb_noise_free(&n);
    run.devices[0].roof_end_gbs = 150;
    assert_int_equal(sb_noise_build(&run, 0.0, &n), 0);
    assert_int_equal(sb_noise_count(&n), 3);
    assert_true(sb_noise_mostly(&n));
    for (int i = 0; i < 3; i++) {
        assert_true(n.rows[i].noisy & SB_NOISY_DRIFT);
        assert_true(n.rows[i].roof_noisy);
    }
    char line[400];
    assert_true(sb_noise_summary(&n, line, sizeof line) > 0);
    assert_non_null(strstr(line, "3 of 3 rows are noisy"));
    sb_noise_free(&n);
    /* The other way round too: the larger over the smaller. */
    run.devices[0].roof_start_gbs = 150;
    run.devices[0].roof_end_gbs = 100;
    assert_double_equal(sb_noise_drift(&run.devices[0]), 0.5, 1e-12);
    sb_run_free(&run);
}

/* A noisy roof (the API copy row) withholds every share taken against it. */
static void noisy_roof_withholds_the_shares(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 0.005);
    double *t = run.results[0].samples;
    for (int k = 0; k < REPS; k++)
        t[k] = 1.0 + (k % 2 ? 1.0 : 0.0) * k / REPS;
    sb_stats_compute(t, REPS, &run.results[0].ms);
    sb_noise n;
    assert_int_equal(sb_noise_build(&run, 0.0, &n), 0);
    assert_true(n.rows[0].noisy);
    assert_false(n.rows[1].noisy);
    assert_true(n.rows[1].roof_noisy);
    char spread[48], roof[48];
    sb_noise_cells(&n, 1, &run.results[1], spread, roof, sizeof spread);
    assert_string_equal(roof, "noisy roof");
    sb_noise_free(&n);
    sb_run_free(&run);
}

/* The drift check's two roofs are saved and read back, the drift and the
 * rows' noise written with them (and derived again on reading); a file
 * without them reads as not measured. */
static void json_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 0.5);
    run.devices[0].roof_start_gbs = 100;
    run.devices[0].roof_end_gbs = 150;
    char path[] = "/tmp/simtbench-noise-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(sb_report_write(SB_FORMAT_JSON, &a, f), 0);
    sb_analysis_free(&a);
    fclose(f);
    sb_run back;
    char err[1024];
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_double_equal(back.devices[0].roof_start_gbs, 100, 1e-9);
    assert_double_equal(back.devices[0].roof_end_gbs, 150, 1e-9);
    sb_noise n;
    assert_int_equal(sb_noise_build(&back, 0.0, &n), 0);
    assert_int_equal(sb_noise_count(&n), 3);
    sb_noise_free(&n);
    sb_run_free(&back);
    /* What the file says about it, in its own words. */
    FILE *in = fopen(path, "r");
    char text[65536];
    size_t got = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[got] = '\0';
    assert_non_null(strstr(text, "\"drift\": {"));
    assert_non_null(strstr(text, "\"noisy_rows\": 3"));
    assert_non_null(strstr(text, "\"mostly_noisy\": true"));
    assert_non_null(strstr(text, "\"because\": \"spread and drift\""));
    unlink(path);
    sb_run_free(&run);
}

/* The saved run of the H200, a quiet one: none of its rows is noisy. */
static void saved_h200_suite_is_quiet(void **state)
{
    (void)state;
    const char *top = getenv("SB_TOP_SRCDIR");
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/h200/suite.json", top ? top : ".");
    if (access(path, R_OK) != 0) {
        fail_msg("%s is not here", path);
    }
    sb_run run;
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), 0);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(a.noise.judged, run.nresults);
    if (sb_noise_count(&a.noise) != 0)
        fail_msg("%zu of %zu rows of the quiet H200 run are noisy", sb_noise_count(&a.noise),
                 run.nresults);
    assert_false(sb_noise_mostly(&a.noise));
    for (size_t i = 0; i < run.nresults; i++)
        assert_false(a.noise.rows[i].roof_noisy);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rule_both_ways),
        cmocka_unit_test(few_samples_judge_nothing),
        cmocka_unit_test(drift_makes_every_row_noisy),
        cmocka_unit_test(noisy_roof_withholds_the_shares),
        cmocka_unit_test(json_round_trip),
        cmocka_unit_test(saved_h200_suite_is_quiet),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
