/* The report writers on fixed result records: every format, escaping, and
 * the empty and one-row cases. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void fixture(sb_run *run, int nresults)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "9.9.9");
    snprintf(run->date, sizeof run->date, "2026-11-30T00:00:00Z");
    snprintf(run->host, sizeof run->host, "testhost");
    run->ndevices = 1;
    sb_run_device *d = &run->devices[0];
    snprintf(d->backend, sizeof d->backend, "opencl");
    snprintf(d->info.name, sizeof d->info.name, "Test \"GPU\", rev 2");
    snprintf(d->info.platform, sizeof d->info.platform, "Plat");
    d->info.bus_width_bits = 6016;
    d->info.mem_clock_mhz = 3201;
    d->memcpy_gbs = 4000.0;
    for (int i = 0; i < nresults; i++) {
        sb_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.backend, sizeof r.backend, "opencl");
        snprintf(r.experiment, sizeof r.experiment, "transpose");
        snprintf(r.variant, sizeof r.variant, i == 0 ? "we\"ird,name" : "padded");
        snprintf(r.kernel, sizeof r.kernel, "transpose_tiled");
        snprintf(r.params, sizeof r.params, "TILE=32 PAD=1");
        r.rows = r.cols = 8192;
        r.reps = 20;
        r.ms.median = 0.15;
        r.ms.min = 0.149;
        r.ms.max = 0.152;
        r.ms.spread = 0.02;
        r.bytes = 2.0 * 8192 * 8192 * 4;
        r.unit = "GB/s";
        r.value = 3579.14;
        r.value_best = 3603.16;
        r.roof_share = r.value / 4000.0;
        r.occupancy = -1;
        r.verified = 1;
        r.npatterns = 1;
        snprintf(r.pattern_label[0], sizeof r.pattern_label[0], "smem col");
        r.pattern[0] = sb_pattern_default();
        r.pattern[0].tile_rows = r.pattern[0].tile_cols = 32;
        r.pattern[0].walk = SB_WALK_COLUMN;
        assert_int_equal(sb_predict(&r.pattern[0], &r.prediction[0]), 0);
        assert_int_equal(sb_run_add(run, &r), 0);
    }
}

static char *render(sb_format f, const sb_run *run)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write(f, run, out), 0);
    fclose(out);
    return buf;
}

/* Columns of one CSV line, honouring quotes. */
static int csv_columns(const char *line)
{
    int cols = 1, quoted = 0;
    for (const char *p = line; *p && *p != '\n'; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted)
            cols++;
    }
    return cols;
}

static void table_rows_and_device(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 2);
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "theoretical peak 4814 GB/s"));
    assert_non_null(strstr(t, "transpose  8192x8192"));
    assert_non_null(strstr(t, "padded"));
    assert_non_null(strstr(t, "3579.14"));
    assert_non_null(strstr(t, "89.5")); /* share of the 4000 GB/s roof */
    assert_non_null(strstr(t, "32-way"));
    free(t);
    sb_run_free(&run);
}

static void csv_quotes_and_shape(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 2);
    char *t = render(SB_FORMAT_CSV, &run);
    assert_non_null(strstr(t, "\"we\"\"ird,name\""));
    assert_non_null(strstr(t, "\"Test \"\"GPU\"\", rev 2\""));
    int header = csv_columns(t), lines = 0;
    for (char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        assert_int_equal(csv_columns(line), header);
        lines++;
    }
    assert_int_equal(lines, 3);
    free(t);
    sb_run_free(&run);
}

static void json_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 2);
    char *t = render(SB_FORMAT_JSON, &run);
    json_error_t e;
    json_t *root = json_loads(t, 0, &e);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), SB_RESULT_SCHEMA);
    json_t *results = json_object_get(root, "results");
    assert_int_equal(json_array_size(results), 2);
    json_t *r0 = json_array_get(results, 0);
    assert_string_equal(json_string_value(json_object_get(r0, "variant")), "we\"ird,name");
    assert_double_equal(json_real_value(json_object_get(r0, "value")), 3579.14, 1e-6);
    json_t *median = json_object_get(json_object_get(r0, "time_ms"), "median");
    assert_double_equal(json_real_value(median), 0.15, 1e-12);
    json_t *model = json_array_get(json_object_get(r0, "model"), 0);
    json_t *ways = json_object_get(json_object_get(model, "prediction"), "ways");
    assert_int_equal(json_integer_value(ways), 32);
    json_t *dev = json_array_get(json_object_get(root, "devices"), 0);
    assert_string_equal(json_string_value(json_object_get(dev, "name")), "Test \"GPU\", rev 2");
    assert_double_equal(json_real_value(json_object_get(dev, "theoretical_peak_gbs")), 4814.3,
                        0.1);
    json_decref(root);
    free(t);
    sb_run_free(&run);
}

/* A GFLOP/s row prints its intensity, the API's occupancy with the threads
 * in flight, and what its roof% means; an unknown L2 is said, not printed
 * as 0. */
static void flops_row_notes_and_unknowns(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 1);
    run.devices[0].info.l2_bytes = 0;
    run.devices[0].info.compute_units = 132;
    sb_result *r = &run.results[0];
    snprintf(r->experiment, sizeof r->experiment, "matmul");
    r->unit = "GFLOP/s";
    r->intensity = 12.8;
    r->occupancy = 2;
    r->threads_in_flight = 8448;
    r->roof_share = 0.5;
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "12.8 FLOP/B"));
    assert_non_null(strstr(t, "occ 2 blk/unit, 8448 in flight"));
    assert_non_null(strstr(t, "roof% = GFLOP/s over FLOP/B"));
    assert_non_null(strstr(t, "L2 size unknown"));
    assert_null(strstr(t, "L2/cache 0.0"));
    free(t);
    char *js = render(SB_FORMAT_JSON, &run);
    json_t *root = json_loads(js, 0, NULL);
    assert_non_null(root);
    json_t *r0 = json_array_get(json_object_get(root, "results"), 0);
    assert_int_equal(json_integer_value(json_object_get(r0, "threads_in_flight")), 8448);
    assert_double_equal(json_real_value(json_object_get(r0, "intensity")), 12.8, 1e-12);
    json_decref(root);
    free(js);
    sb_run_free(&run);
}

static void empty_run(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 0);
    char *csv = render(SB_FORMAT_CSV, &run);
    assert_null(strchr(strchr(csv, '\n') + 1, '\n')); /* the header alone */
    free(csv);
    char *js = render(SB_FORMAT_JSON, &run);
    json_t *root = json_loads(js, 0, NULL);
    assert_non_null(root);
    assert_int_equal(json_array_size(json_object_get(root, "results")), 0);
    json_decref(root);
    free(js);
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "Devices"));
    free(t);
    sb_run_free(&run);
}

static void one_row(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 1);
    char *csv = render(SB_FORMAT_CSV, &run);
    int lines = 0;
    for (char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 2);
    free(csv);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_rows_and_device), cmocka_unit_test(csv_quotes_and_shape),
        cmocka_unit_test(json_round_trip),       cmocka_unit_test(empty_run),
        cmocka_unit_test(one_row),               cmocka_unit_test(flops_row_notes_and_unknowns),
    };
    SB_TEST_MAIN(tests);
}
