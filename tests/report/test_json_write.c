/* The JSON writer loses nothing: a figure that is not finite is written as
 * null with a reason, a string jansson refuses makes the report an error
 * naming the record (and nothing is written), and a report written to a
 * file replaces it only when complete. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/describe.h"
#include "report/json_read.h"
#include "report/report.h"
#include "analysis/analysis.h"

static char dir[] = "/tmp/simtbench-json-write-XXXXXX";

/* Two devices, four results: what `report -f json` of a saved run holds. */
static void fixture(sb_run *run)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "9.9.9");
    snprintf(run->host, sizeof run->host, "testhost");
    run->ndevices = 2;
    for (int d = 0; d < 2; d++) {
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "b%d", d);
        snprintf(run->devices[d].info.name, sizeof run->devices[d].info.name, "GPU %d", d);
    }
    const char *variants[] = {"copy", "tiled"};
    for (int d = 0; d < 2; d++)
        for (int v = 0; v < 2; v++) {
            sb_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.backend, sizeof r.backend, "b%d", d);
            r.device_slot = d;
            snprintf(r.experiment, sizeof r.experiment, "transpose");
            snprintf(r.variant, sizeof r.variant, "%s", variants[v]);
            r.rows = r.cols = 64;
            r.reps = 20; /* as every measured result has */
            r.ms.median = 0.1 * (v + 1);
            r.ms.spread = 0.01;
            r.quantity = SB_QUANTITY_BANDWIDTH;
            r.value = 10.0;
            r.occupancy = r.regs = -1;
            r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
            assert_int_equal(sb_run_add(run, &r), 0);
        }
}

/* The run written as JSON into a string; the writer's status in *rc. */
static char *write_json(const sb_run *run, int *rc, char *err, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    *rc = sb_report_write_to(SB_FORMAT_JSON, &a, out, err, n);
    sb_analysis_free(&a);
    fclose(out);
    return buf;
}

static void not_finite_is_null_with_a_reason(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    run.results[1].value = NAN;
    run.results[2].ms.stddev = INFINITY;
    run.results[3].bytes = -INFINITY;
    run.results[3].intensity = INFINITY;
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *results = json_object_get(root, "results");
    assert_int_equal(json_array_size(results), 4); /* none dropped */
    json_t *r1 = json_array_get(results, 1);
    assert_true(json_is_null(json_object_get(r1, "value")));
    assert_string_equal(json_string_value(json_object_get(r1, "value_reason")), "not a number");
    json_t *t2 = json_object_get(json_array_get(results, 2), "time_ms");
    assert_true(json_is_null(json_object_get(t2, "stddev")));
    assert_string_equal(json_string_value(json_object_get(t2, "stddev_reason")), "not finite");
    json_t *r3 = json_array_get(results, 3);
    assert_true(json_is_null(json_object_get(r3, "bytes")));
    assert_non_null(json_object_get(r3, "intensity_reason"));
    /* every comparison is there too */
    assert_int_equal(json_array_size(json_object_get(root, "comparisons")), 2);
    json_decref(root);
    /* and the file reads back, the lost figures unknown */
    char path[128];
    snprintf(path, sizeof path, "%s/nan.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.nresults, 4);
    assert_true(isnan(back.results[1].value));
    assert_true(isnan(back.results[2].ms.stddev));
    sb_run_free(&back);
    unlink(path);
    free(text);
    sb_run_free(&run);
}

static void invalid_utf8_is_an_error_naming_the_record(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    /* the end of a name cut inside a two-byte character */
    snprintf(run.results[2].variant, sizeof run.results[2].variant, "tiled-\xc3");
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, SB_REPORT_REFUSED);
    assert_string_equal(text, ""); /* nothing half-written */
    assert_non_null(strstr(err, "results[2]"));
    assert_non_null(strstr(err, "b1 transpose/tiled-\\xC3"));
    assert_non_null(strstr(err, "variant is not valid UTF-8"));
    assert_null(strchr(err, '\n'));
    free(text);
    /* the old entry point says so too */
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(sb_report_write(SB_FORMAT_JSON, &a, null), SB_REPORT_REFUSED);
    fclose(null);
    sb_analysis_free(&a);
    sb_run_free(&run);
    /* a device's name */
    fixture(&run);
    snprintf(run.devices[1].info.name, sizeof run.devices[1].info.name, "\xe2\x82");
    text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, SB_REPORT_REFUSED);
    assert_string_equal(text, "");
    assert_non_null(strstr(err, "devices[1] (b1, \"\\xE2\\x82\"): its name is not valid UTF-8"));
    free(text);
    sb_run_free(&run);
}

/* Every repetition's time is written in run order, one result a line,
 * and reads back as it was; the run keeps its own copy of what it is
 * given, and a result without samples writes none. */
static void samples_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    double times[3] = {0.25, 0.125, 0.5};
    sb_result r = run.results[0];
    r.reps = 3;
    r.samples = times;
    r.nsamples = 3;
    snprintf(r.variant, sizeof r.variant, "sampled");
    assert_int_equal(sb_run_add(&run, &r), 0);
    assert_ptr_not_equal(run.results[4].samples, times);
    times[0] = 99.0; /* the caller's array stays the caller's */
    assert_double_equal(run.results[4].samples[0], 0.25, 0.0);
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    const char *line = strstr(text, "\"variant\": \"sampled\"");
    assert_non_null(line);
    const char *samples = strstr(line, "\"samples_ms\": [0.25, 0.125, 0.5]");
    assert_non_null(samples);
    assert_true(strchr(line, '\n') > samples); /* on the record's line */
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *results = json_object_get(root, "results");
    assert_null(json_object_get(json_array_get(results, 0), "samples_ms"));
    assert_int_equal(json_array_size(json_object_get(json_array_get(results, 4), "samples_ms")), 3);
    json_decref(root);
    char path[128];
    snprintf(path, sizeof path, "%s/samples.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.nresults, 5);
    assert_int_equal(back.results[0].nsamples, 0);
    assert_null(back.results[0].samples);
    assert_int_equal(back.results[4].nsamples, 3);
    assert_double_equal(back.results[4].samples[0], 0.25, 0.0);
    assert_double_equal(back.results[4].samples[1], 0.125, 0.0);
    assert_double_equal(back.results[4].samples[2], 0.5, 0.0);
    sb_run_free(&back);
    unlink(path);
    free(text);
    sb_run_free(&run);
}

/* A family's model figures are written in order, read back as written,
 * shown in the model's text and as CSV columns; a seventh is refused. */
static void figures_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_result *r = &run.results[1];
    assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "paths_per_warp", 8, ""), 0);
    assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "predicted_slowdown", 7.5, "x"), 0);
    for (int i = 2; i < SB_MAX_FIGURES; i++)
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "latency", i, "ns"), 0);
    assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "one_too_many", 1, ""), -1);
    assert_int_equal(r->nfigures, SB_MAX_FIGURES);
    assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "", 1, ""), -1);
    char model[256];
    sb_result_model_text(r, model, sizeof model);
    assert_non_null(strstr(model, "paths per warp 8; predicted slowdown 7.5x; latency 2 ns"));
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *results = json_object_get(root, "results");
    assert_null(json_object_get(json_array_get(results, 0), "figures"));
    json_t *figs = json_object_get(json_array_get(results, 1), "figures");
    assert_int_equal(json_array_size(figs), SB_MAX_FIGURES);
    assert_string_equal(json_string_value(json_object_get(json_array_get(figs, 1), "unit")), "x");
    json_decref(root);
    char path[128];
    snprintf(path, sizeof path, "%s/figures.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.results[0].nfigures, 0);
    assert_int_equal(back.results[1].nfigures, SB_MAX_FIGURES);
    assert_string_equal(back.results[1].figure[0].name, "paths_per_warp");
    assert_double_equal(back.results[1].figure[1].value, 7.5, 0.0);
    assert_string_equal(back.results[1].figure[5].unit, "ns");
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&back, NULL, &a), 0);
    assert_int_equal(sb_report_write_to(SB_FORMAT_CSV, &a, out, err, sizeof err), 0);
    sb_analysis_free(&a);
    fclose(out);
    assert_non_null(strstr(csv, ",f6_name,f6_value,f6_unit,total_global_ld_requests,"));
    assert_non_null(strstr(csv, ",paths_per_warp,8,,predicted_slowdown,7.5,x,"));
    free(csv);
    sb_run_free(&back);
    /* a figure without a finite value is refused when read */
    char *bad = strstr(text, "\"value\": 7.5");
    assert_non_null(bad);
    memcpy(bad, "\"value\": \"x\"", 12);
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    assert_int_not_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_non_null(strstr(err, "figures[1]"));
    unlink(path);
    free(text);
    sb_run_free(&run);
}

/* A device's clocks at the start and end are written, read back as
 * written, and the table names the start's; unknown ones are null with
 * the reason. */
static void clocks_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    run.devices[0].sm_mhz_start = 1980;
    run.devices[0].mem_mhz_start = 3201;
    run.devices[0].sm_mhz_end = 1755;
    run.devices[0].mem_mhz_end = 3201;
    snprintf(run.devices[1].clocks_note, sizeof run.devices[1].clocks_note, "no NVML here");
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/clocks.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.devices[0].sm_mhz_start, 1980);
    assert_int_equal(back.devices[0].mem_mhz_start, 3201);
    assert_int_equal(back.devices[0].sm_mhz_end, 1755);
    assert_int_equal(back.devices[1].sm_mhz_start, 0);
    assert_string_equal(back.devices[1].clocks_note, "no NVML here");
    assert_non_null(strstr(text, "\"clocks_mhz_reason\": \"no NVML here\""));
    char *table = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&table, &len);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&back, NULL, &a), 0);
    assert_int_equal(sb_report_write_to(SB_FORMAT_TABLE, &a, out, err, sizeof err), 0);
    sb_analysis_free(&a);
    fclose(out);
    assert_non_null(strstr(table, "clocks at the start, from the driver: SM 1980 MHz, memory 3201 MHz"));
    assert_int_equal(strstr(strstr(table, "SM 1980") + 1, "clocks at the start") == NULL, 1);
    free(table);
    sb_run_free(&back);
    unlink(path);
    free(text);
    sb_run_free(&run);
}

/* The launch family's host-observed times, launches per second and queue
 * length are written where measured (and only there), read back as
 * written, and compared across the devices; the device's FMA peak and
 * FP32 peak are written, the FMA peak read back; launches per second
 * without host-observed times is refused when read. */
static void host_observed_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    snprintf(run.devices[0].info.arch, sizeof run.devices[0].info.arch, "sm_90");
    run.devices[0].info.compute_units = 132;
    run.devices[0].info.clock_mhz = 1980;
    run.devices[0].fma_gflops = 61200.0;
    for (int d = 0; d < 2; d++) {
        sb_result *r = &run.results[2 * d];
        r->quantity = SB_QUANTITY_LAUNCH;
        r->host_observed = (sb_stats){.n = 20, .median = 0.0043 + 0.0036 * d, .min = 0.004,
                                      .max = 0.009, .mean = 0.005, .stddev = 0.001,
                                      .spread = 0.05, .fastest = 3, .slowest = 7};
        r->launches_per_s = 250000.0 - 100000.0 * d;
        r->queued_launches = 1000;
    }
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *results = json_object_get(root, "results");
    json_t *first = json_array_get(results, 0);
    assert_string_equal(json_string_value(json_object_get(first, "unit")), "us/launch");
    assert_true(json_real_value(json_object_get(json_object_get(first, "host_observed_ms"),
                                                "median")) == 0.0043);
    assert_null(json_object_get(json_array_get(results, 1), "host_observed_ms"));
    assert_null(json_object_get(json_array_get(results, 1), "launches_per_s"));
    json_t *dev = json_array_get(json_object_get(root, "devices"), 0);
    assert_true(json_real_value(json_object_get(dev, "fma_peak_gflops")) == 61200.0);
    assert_double_equal(json_real_value(json_object_get(dev, "fp32_peak_gflops")), 66908.16,
                        1e-6);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(root, "devices"), 1),
                                             "fp32_peak_gflops")));
    json_t *host = json_object_get(json_array_get(json_object_get(root, "comparisons"), 0),
                                   "host_observed");
    assert_non_null(host);
    assert_true(json_real_value(json_object_get(host, "other_ms")) == 0.0079);
    assert_string_equal(json_string_value(json_object_get(host, "verdict")), "slower");
    assert_non_null(json_object_get(json_object_get(root, "units"), "us/launch"));
    json_decref(root);
    char path[128];
    snprintf(path, sizeof path, "%s/host.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.results[0].quantity, SB_QUANTITY_LAUNCH);
    assert_int_equal((int)back.results[0].host_observed.n, 20);
    assert_true(back.results[0].host_observed.median == 0.0043);
    assert_true(back.results[0].host_observed.max == 0.009);
    assert_true(back.results[2].launches_per_s == 150000.0);
    assert_int_equal(back.results[2].queued_launches, 1000);
    assert_int_equal((int)back.results[1].host_observed.n, 0);
    assert_true(back.devices[0].fma_gflops == 61200.0);
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&back, NULL, &a), 0);
    assert_int_equal(sb_report_write_to(SB_FORMAT_CSV, &a, out, err, sizeof err), 0);
    sb_analysis_free(&a);
    fclose(out);
    assert_non_null(strstr(csv, ",host_observed_ms,host_observed_min_ms,launches_per_s,"
                                "queued_launches,host_speed_ratio,host_verdict,noise_spread,"));
    /* the noise analysis's columns follow (run/noise.h) */
    assert_non_null(strstr(csv, ",0.004300,0.004000,250000.0,1000,,,"));
    assert_non_null(strstr(csv, ",0.007900,0.004000,150000.0,1000,0.5443,b0 faster by 83.7%,"));
    if (!strstr(csv, ",,,,,,,,0,,0,,0\n"))
        fail_msg("%s", csv);
    free(csv);
    sb_run_free(&back);
    /* launches per second without the host-observed times they go with */
    char *cut = strstr(text, "\"host_observed_ms\"");
    assert_non_null(cut);
    memcpy(cut, "\"host_observed_xx\"", 18);
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    assert_int_not_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_non_null(strstr(err, "host_observed_ms"));
    unlink(path);
    free(text);
    sb_run_free(&run);
}

/* The backends a default run left out: one a line after the devices, a
 * reason's bytes that are not UTF-8 as \xNN (a message is never worth
 * the report), and read back as written; none is an empty array. */
static void unavailable_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    int rc;
    char err[512] = "";
    char *text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(text, "\n  ],\n  \"unavailable\": [],\n  \"results\": [\n"));
    free(text);
    run.nunavailable = 2;
    snprintf(run.unavailable[0].backend, sizeof run.unavailable[0].backend, "b2");
    snprintf(run.unavailable[0].reason, sizeof run.unavailable[0].reason, "no driver");
    snprintf(run.unavailable[1].backend, sizeof run.unavailable[1].backend, "b3");
    snprintf(run.unavailable[1].reason, sizeof run.unavailable[1].reason,
             "damaged: /tmp/\377/lib (not an ELF file)");
    text = write_json(&run, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    const char *want = "  \"unavailable\": [\n"
                       "    {\"backend\": \"b2\", \"reason\": \"no driver\"},\n"
                       "    {\"backend\": \"b3\", \"reason\": \"damaged: /tmp/\\\\xFF/lib (not an ELF "
                       "file)\"}\n"
                       "  ],\n";
    if (!strstr(text, want))
        fail_msg("no\n%s\nin\n%s", want, text);
    char path[128];
    snprintf(path, sizeof path, "%s/unavailable.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    assert_int_equal(back.nunavailable, 2);
    assert_string_equal(back.unavailable[0].backend, "b2");
    assert_string_equal(back.unavailable[0].reason, "no driver");
    assert_string_equal(back.unavailable[1].backend, "b3");
    assert_string_equal(back.unavailable[1].reason, "damaged: /tmp/\\xFF/lib (not an ELF file)");
    sb_run_free(&back);
    unlink(path);
    free(text);
    sb_run_free(&run);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    size_t got = fread(buf, 1, (1 << 16) - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* Files in dir: the target alone, no temporary left behind. */
static int entries(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", dir);
    return system(cmd) == 0;
}

static void failed_write_keeps_the_old_file(void **state)
{
    (void)state;
    char path[128], err[1024] = "";
    snprintf(path, sizeof path, "%s/report.json", dir);
    FILE *f = fopen(path, "w");
    fputs("the old report\n", f);
    fclose(f);
    sb_run run;
    fixture(&run);
    snprintf(run.results[0].experiment, sizeof run.results[0].experiment, "\xff");
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(sb_report_write_file(SB_FORMAT_JSON, &a, path, err, sizeof err),
                     SB_REPORT_REFUSED);
    assert_non_null(strstr(err, "cannot write "));
    assert_non_null(strstr(err, "report.json: results[0]"));
    char *kept = slurp(path);
    assert_string_equal(kept, "the old report\n");
    free(kept);
    assert_true(entries());
    sb_analysis_free(&a);
    sb_run_free(&run);
    /* a good report replaces it, in every format */
    fixture(&run);
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    for (sb_format fmt = SB_FORMAT_TABLE; fmt <= SB_FORMAT_MARKDOWN; fmt++) {
        assert_int_equal(sb_report_write_file(fmt, &a, path, err, sizeof err), 0);
        char *now = slurp(path);
        assert_non_null(strstr(now, "tiled"));
        free(now);
        assert_true(entries());
    }
    sb_analysis_free(&a);
    sb_run_free(&run);
    unlink(path);
}

static void full_disk_is_an_error(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) {
        print_message("# no /dev/full: not exercised\n");
        return;
    }
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char err[1024] = "";
    for (sb_format fmt = SB_FORMAT_TABLE; fmt <= SB_FORMAT_HTML; fmt++) {
        setenv("GNUPLOT", "", 1); /* the HTML without plots */
        err[0] = '\0';
        assert_int_equal(sb_report_write_file(fmt, &a, "/dev/full", err, sizeof err),
                         SB_REPORT_IO_ERROR);
        assert_non_null(strstr(err, "/dev/full"));
    }
    unsetenv("GNUPLOT");
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot make a temporary directory");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_finite_is_null_with_a_reason),
        cmocka_unit_test(invalid_utf8_is_an_error_naming_the_record),
        cmocka_unit_test(samples_round_trip),
        cmocka_unit_test(unavailable_round_trip),
        cmocka_unit_test(figures_round_trip),
        cmocka_unit_test(clocks_round_trip),
        cmocka_unit_test(host_observed_round_trip),
        cmocka_unit_test(failed_write_keeps_the_old_file),
        cmocka_unit_test(full_disk_is_an_error),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
