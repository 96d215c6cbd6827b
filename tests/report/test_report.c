/* The report writers on fixed result records: every format, escaping, and
 * the empty and one-row cases. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/crossapi.h"
#include "report/json_read.h"
#include "report/describe.h"
#include "report/plot.h"
#include "report/report.h"

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
    /* what the OpenCL backend calls the cache it reports */
    snprintf(d->info.cache_name, sizeof d->info.cache_name, "global memory cache");
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
        r.size_kind = SB_SIZE_MATRIX;
        r.reps = 20;
        r.ms.median = 0.15;
        r.ms.min = 0.149;
        r.ms.max = 0.152;
        r.ms.spread = 0.02;
        r.bytes = 2.0 * 8192 * 8192 * 4;
        r.quantity = SB_QUANTITY_BANDWIDTH;
        r.value = 3579.14;
        r.value_best = 3603.16;
        r.roof_share = r.value / 4000.0;
        r.occupancy = -1;
        /* The first row's compiler said what it allocated, the second's did not. */
        r.regs = i == 0 ? 32 : -1;
        r.shared_bytes = i == 0 ? 8192 : -1;
        r.private_bytes = i == 0 ? 0 : -1;
        r.verified = 1;
        r.host_ms = 812.25;
        r.verify_ms = 540.5;
        r.npatterns = 1;
        snprintf(r.pattern_label[0], sizeof r.pattern_label[0], "smem col");
        r.pattern[0] = sb_pattern_default();
        r.pattern[0].tile_rows = r.pattern[0].tile_cols = 32;
        r.pattern[0].walk = SB_WALK_COLUMN;
        assert_int_equal(sb_predict(&r.pattern[0], &r.prediction[0]), 0);
        assert_int_equal(sb_run_add(run, &r), 0);
    }
}

/* The run paired against the first device of backend `reference` (NULL:
 * the first device) and written in format f.  The fixtures' figures are
 * set by hand, so they are paired, not derived. */
static char *render_against(sb_format f, const sb_run *run, const char *reference)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, reference, &a), 0);
    assert_int_equal(sb_report_write(f, &a, out), 0);
    sb_analysis_free(&a);
    fclose(out);
    return buf;
}

static char *render(sb_format f, const sb_run *run)
{
    return render_against(f, run, NULL);
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
    assert_non_null(strstr(t, "transpose  8192 x 8192 floats  (20 reps"));
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
    /* The second line has what the first lacks: an intensity, a slowdown
       and an occupancy, and no roof share. */
    run.results[1].flops = 1e9;
    run.results[1].intensity = 0.25;
    run.results[1].slowdown = 2.5;
    run.results[1].occupancy = 4;
    run.results[1].roof_share = 0.0;
    char *t = render(SB_FORMAT_CSV, &run);
    assert_non_null(strstr(t, "\"we\"\"ird,name\""));
    assert_non_null(strstr(t, "\"Test \"\"GPU\"\", rev 2\""));
    int header = csv_columns(t), lines = 0;
    for (char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (*line == '#') /* the run's summary, after the rows */
            continue;
        assert_int_equal(csv_columns(line), header);
        lines++;
    }
    assert_int_equal(lines, 3);
    /* The host time and its check share, then the compiler's allocation,
       empty where unknown. */
    assert_non_null(strstr(t, ",ptx_vs_reference,host_ms,verify_ms,registers,shared_bytes,"
                              "private_bytes,f1_name,"));
    /* then the family's figures, then the model's totals, empty for results
       without them */
    assert_non_null(strstr(t, ",f6_unit,total_global_ld_requests,"));
    assert_non_null(strstr(t, ",total_shared_st_wavefronts_per_request,host,device_index,pci_bus_id,uuid,outlier,"));
    /* and last what the host's clock saw, the launch family's */
    assert_non_null(strstr(t, ",outlier,host_observed_ms,host_observed_min_ms,launches_per_s,"
                              "queued_launches,host_speed_ratio,host_verdict,"));
    /* and after it the noise analysis's (noise.h) */
    assert_non_null(strstr(t, ",host_verdict,noise_spread,noisy,noisy_because,roof_noisy,"
                              "device_drift,run_interrupted\n"));
    char tail[256] = ",812.250,540.500,32,8192,0";
    for (int f = 0; f < 3 * SB_MAX_FIGURES; f++)
        strcat(tail, ",");
    for (size_t f = 0; sb_access_totals_field_at(f); f++)
        strcat(tail, ",");
    assert_non_null(strstr(t, tail));
    /* Then which device on which host (the PCI address and UUID empty
       where the API gave none), no peer to be an outlier among, and no
       host-observed times: six empty cells; then no samples to judge noise
       by and no drift check: quiet, with the spread and the drift empty;
       and the run was not interrupted. */
    assert_non_null(strstr(t, ",0,,,,,,,,,,,0,,0,,0\n"));
    /* Where the JSON writes null the cell is empty, not a 0 or a -1:
       intensity, roof share, slowdown, occupancy. */
    assert_non_null(strstr(t, ",536870912,0,,GB/s,3579.1400,3603.1600,0.89"));
    assert_non_null(strstr(t, ",,,1,\"smem col:"));
    assert_non_null(strstr(t, ",536870912,1000000000,0.2500,GB/s,3579.1400,3603.1600,,2.5000,4,1,"));
    assert_null(strstr(t, ",-1,"));
    strcpy(tail, ",812.250,540.500,,,"); /* unknown allocation, then no figures or totals */
    for (int f = 0; f < 3 * SB_MAX_FIGURES; f++)
        strcat(tail, ",");
    for (size_t f = 0; sb_access_totals_field_at(f); f++)
        strcat(tail, ",");
    assert_non_null(strstr(t, tail));
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
    assert_int_equal(json_integer_value(json_object_get(r0, "registers")), 32);
    assert_int_equal(json_integer_value(json_object_get(r0, "shared_bytes")), 8192);
    assert_int_equal(json_integer_value(json_object_get(r0, "private_bytes")), 0);
    json_t *r1 = json_array_get(results, 1);
    assert_true(json_is_null(json_object_get(r1, "registers")));
    assert_true(json_is_null(json_object_get(r1, "shared_bytes")));
    assert_true(json_is_null(json_object_get(r1, "private_bytes")));
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


/* A result that declares its kernel's other accesses and their requests:
 * the text under its row gives the studied one and the totals, the CSV
 * and the JSON every access and the totals, and the JSON reads back. */
static void model_totals_written(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 1);
    sb_result *r = &run.results[0];
    r->npatterns = 3;
    r->pattern_requests[0] = 60; /* the column walk: 32 wavefronts */
    r->pattern_kind[0] = SB_ACCESS_LOAD;
    snprintf(r->pattern_label[1], sizeof r->pattern_label[1], "smem row");
    r->pattern[1] = r->pattern[0];
    r->pattern[1].walk = SB_WALK_ROW;
    r->pattern_kind[1] = SB_ACCESS_STORE;
    r->pattern_requests[1] = 64;
    r->pattern_extra[1] = 1;
    snprintf(r->pattern_label[2], sizeof r->pattern_label[2], "smem col");
    r->pattern[2] = r->pattern[0];
    r->pattern[2].active = 0x1fu; /* an edge: 5 lanes, 5 wavefronts */
    r->pattern_requests[2] = 4;
    r->pattern_extra[2] = 1;
    for (int i = 1; i < 3; i++)
        assert_int_equal(sb_predict(&r->pattern[i], &r->prediction[i]), 0);
    assert_int_equal(sb_access_totals_of(r->pattern, r->pattern_requests, r->pattern_kind, 3,
                                         &r->totals), 0);
    r->has_totals = 1;

    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "model: smem col: 32-way, 32 wavefronts; whole kernel: shared ld "
                              "30.31 wavefronts/req, st 1.00"));
    assert_null(strstr(t, "smem row"));
    free(t);
    t = render(SB_FORMAT_CSV, &run);
    assert_non_null(strstr(t, ",m3_label,m3_kind,m3_requests,m3_studied,"));
    assert_non_null(strstr(t, ",smem row,store,64,0,"));
    assert_non_null(strstr(t, ",smem col,load,4,0,"));
    /* shared ld: 60 x 32 + 4 x 5 wavefronts, 60 x 31 + 4 x 4 conflicts; st: the rows */
    assert_non_null(strstr(t, ",64,1940,1876,64,64,0,"));
    free(t);

    char path[] = "/tmp/simtbench-totals-XXXXXX", err[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    t = render(SB_FORMAT_JSON, &run);
    assert_true(write(fd, t, strlen(t)) == (ssize_t)strlen(t));
    close(fd);
    json_t *root = json_loads(t, 0, NULL);
    json_t *r0 = json_array_get(json_object_get(root, "results"), 0);
    json_t *totals = json_object_get(r0, "model_totals");
    assert_int_equal(json_integer_value(json_object_get(totals, "shared_ld_wavefronts")), 1940);
    assert_true(json_is_null(json_object_get(totals, "global_ld_sectors_per_request")));
    json_t *edge = json_array_get(json_object_get(r0, "model"), 2);
    assert_true(json_is_false(json_object_get(edge, "studied")));
    assert_int_equal(json_integer_value(json_object_get(edge, "requests")), 4);
    assert_string_equal(json_string_value(json_object_get(edge, "kind")), "load");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(edge, "pattern"),
                                                        "active")), 0x1f);
    json_decref(root);
    free(t);
    sb_run back;
    assert_int_equal(sb_run_read_json(path, &back, err, sizeof err), 0);
    unlink(path);
    const sb_result *b = &back.results[0];
    assert_int_equal(b->npatterns, 3);
    assert_int_equal(b->has_totals, 1);
    assert_memory_equal(&b->totals, &r->totals, sizeof b->totals);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(b->pattern_kind[i], r->pattern_kind[i]);
        assert_true(b->pattern_requests[i] == r->pattern_requests[i]);
        assert_int_equal(b->pattern_extra[i], r->pattern_extra[i]);
        assert_memory_equal(&b->pattern[i], &r->pattern[i], sizeof b->pattern[i]);
    }
    sb_run_free(&back);
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
    r->quantity = SB_QUANTITY_FLOPS;
    r->intensity = 12.8;
    r->occupancy = 2;
    r->threads_in_flight = 8448;
    r->roof_share = 0.5;
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "12.8 FLOP/B"));
    assert_non_null(strstr(t, "occ 2 blk/unit, 8448 in flight"));
    assert_non_null(strstr(t, "roof% = GFLOP/s over FLOP/B"));
    assert_non_null(strstr(t, "global memory cache size unknown")); /* an OpenCL device */
    assert_null(strstr(t, "L2 0.0"));
    assert_null(strstr(t, "cache 0.0"));
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
    for (char *line = csv; *line; line = strchr(line, '\n') + 1)
        lines += *line != '#';
    assert_int_equal(lines, 2); /* the header and the row; then the summary's comments */
    assert_non_null(strstr(csv, "\n# summary: roof (API copy): 4000.0 GB/s on opencl\n"));
    free(csv);
    sb_run_free(&run);
}

/* ------------------------------------------------------------ two devices */

/* The same three variants on cuda and opencl: "copy" alike within the
 * spread, "tiled" 25% slower on opencl, "padded" 20% faster on opencl, and
 * "cuda_only" measured on one side.  The names carry characters every
 * format must escape. */
static void fixture2(sb_run *run)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "9.9.9");
    snprintf(run->date, sizeof run->date, "2026-11-30T00:00:00Z");
    snprintf(run->host, sizeof run->host, "testhost");
    run->ndevices = 2;
    const char *backends[2] = {"cuda", "opencl"};
    for (int d = 0; d < 2; d++) {
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "%s", backends[d]);
        snprintf(run->devices[d].info.name, sizeof run->devices[d].info.name,
                 "NVIDIA <H200> & \"friends\" | x");
        run->devices[d].memcpy_gbs = 4000.0;
    }
    const struct {
        const char *variant;
        double cuda_ms, opencl_ms;
        const char *cuda_ptx, *opencl_ptx;
        int regs[2];
        long smem[2];
    } rows[] = {
        {"copy", 0.100, 0.101, "1 x ld.global.nc.f32, 1 x st.global.f32",
         "1 x ld.global.nc.f32, 1 x st.global.f32", {8, 8}, {0, 0}},
        {"tiled<b>&\"q\"|", 0.200, 0.250, "1 x bar.sync, 4 x ld.global.nc.f32",
         "1 x bar.sync, 4 x ld.global.f32", {32, 31}, {8192, 8196}},
        {"padded", 0.300, 0.250, "", "", {-1, 30}, {4224, 4224}},
    };
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            sb_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.backend, sizeof r.backend, "%s", backends[d]);
            r.device_slot = d;
            snprintf(r.experiment, sizeof r.experiment, "transpose");
            snprintf(r.variant, sizeof r.variant, "%s", rows[i].variant);
            r.rows = r.cols = 1024;
            r.size_kind = SB_SIZE_MATRIX;
            r.reps = 20;
            r.ms.median = d ? rows[i].opencl_ms : rows[i].cuda_ms;
            r.ms.min = r.ms.median * 0.99;
            r.ms.max = r.ms.median * 1.01;
            r.ms.spread = 0.02;
            r.quantity = SB_QUANTITY_BANDWIDTH;
            r.value = 8.0 / r.ms.median;
            r.roof_share = r.value / 4000.0;
            r.occupancy = -1;
            r.regs = rows[i].regs[d];
            r.shared_bytes = rows[i].smem[d];
            r.private_bytes = -1;
            r.verified = 1;
            snprintf(r.ptx_memory, sizeof r.ptx_memory, "%s",
                     d ? rows[i].opencl_ptx : rows[i].cuda_ptx);
            assert_int_equal(sb_run_add(run, &r), 0);
        }
    sb_result only;
    memset(&only, 0, sizeof only);
    snprintf(only.backend, sizeof only.backend, "cuda");
    snprintf(only.experiment, sizeof only.experiment, "transpose");
    snprintf(only.variant, sizeof only.variant, "cuda_only");
    only.rows = only.cols = 1024;
    only.reps = 20; /* as every measured result has */
    only.ms.median = 0.5;
    only.quantity = SB_QUANTITY_BANDWIDTH;
    only.value = 16.0;
    only.occupancy = -1;
    only.verified = 1;
    assert_int_equal(sb_run_add(run, &only), 0);
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The line of text holding needle, copied into buf. */
static const char *line_with(const char *text, const char *needle, char *buf, size_t n)
{
    const char *p = strstr(text, needle);
    if (!p)
        return NULL;
    while (p > text && p[-1] != '\n')
        p--;
    size_t len = strcspn(p, "\n");
    snprintf(buf, n, "%.*s", (int)len, p);
    return buf;
}

static void verdict_rule(void **state)
{
    (void)state;
    sb_stats a = {0}, b = {0};
    a.median = 1.0;
    a.spread = 0.05;
    b.median = 1.04;
    b.spread = 0.01;
    sb_verdict v = sb_verdict_of(&a, &b, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_SAME); /* 4% < the larger spread, 5% */
    b.median = 1.25;
    v = sb_verdict_of(&a, &b, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_SLOWER);
    assert_double_equal(v.by, 0.25, 1e-12);
    assert_double_equal(v.speed_ratio, 0.8, 1e-12);
    char text[96];
    sb_verdict_text(&v, "cuda", "opencl", text, sizeof text);
    assert_string_equal(text, "cuda faster by 25.0%");
    v = sb_verdict_of(&a, &b, 0.30); /* a threshold widens the margin */
    assert_int_equal(v.kind, SB_VERDICT_SAME);
    b.median = 0.8;
    v = sb_verdict_of(&a, &b, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_FASTER);
    sb_verdict_text(&v, "cuda", "opencl", text, sizeof text);
    assert_string_equal(text, "opencl faster by 25.0%");
    b.median = 0.0;
    v = sb_verdict_of(&a, &b, 0.0);
    assert_int_equal(v.kind, SB_VERDICT_NONE);
}

static void pairing_and_labels(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    sb_crossapi x;
    assert_int_equal(sb_crossapi_build(&run, sb_crossapi_reference(&run, NULL), &x), 0);
    assert_int_equal(x.reference, 0);
    assert_int_equal(x.nrows, 4);
    assert_int_equal(x.rows[0].verdict[1].kind, SB_VERDICT_SAME);
    assert_int_equal(x.rows[1].verdict[1].kind, SB_VERDICT_SLOWER);
    assert_int_equal(x.rows[2].verdict[1].kind, SB_VERDICT_FASTER);
    assert_int_equal(x.rows[3].result[1], -1);
    assert_string_equal(x.rows[0].ptx[1], "same memory instructions");
    /* What the compilers allocated, where both sides know it and it differs. */
    assert_string_equal(x.rows[1].ptx[1], "cuda: 4 x ld.global.nc.f32; opencl: 4 x ld.global.f32"
                                          "; registers: cuda 32, opencl 31"
                                          "; shared bytes: cuda 8192, opencl 8196");
    assert_string_equal(x.rows[2].ptx[1], "");
    sb_crossapi_free(&x);
    /* One backend opened twice is two numbered slots. */
    snprintf(run.devices[0].backend, sizeof run.devices[0].backend, "opencl");
    char label[24];
    sb_slot_label(&run, 0, label, sizeof label);
    assert_string_equal(label, "opencl#1");
    sb_slot_label(&run, 1, label, sizeof label);
    assert_string_equal(label, "opencl#2");
    /* Two sessions of one backend: the first slot is the reference. */
    assert_int_equal(sb_crossapi_build(&run, sb_crossapi_reference(&run, NULL), &x), 0);
    assert_int_equal(x.reference, 0);
    sb_crossapi_free(&x);
    sb_run_free(&run);
}

static void table_side_by_side(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    char *t = render(SB_FORMAT_TABLE, &run);
    char line[1024];
    assert_non_null(strstr(t, "opencl/cuda"));
    assert_non_null(line_with(t, "  copy ", line, sizeof line));
    assert_non_null(strstr(line, "same (within 2.0%)"));
    assert_non_null(strstr(line, "0.1000"));
    assert_non_null(strstr(line, "0.1010"));
    assert_non_null(line_with(t, "  padded ", line, sizeof line));
    assert_non_null(strstr(line, "opencl faster by 20.0%"));
    assert_non_null(strstr(line, "1.200"));
    assert_non_null(line_with(t, "  tiled", line, sizeof line));
    assert_non_null(strstr(line, "cuda faster by 25.0%"));
    assert_non_null(strstr(t, "PTX opencl vs cuda: cuda: 4 x ld.global.nc.f32; opencl: 4 x "
                              "ld.global.f32"));
    assert_non_null(strstr(t, "PTX opencl vs cuda: same memory instructions"));
    assert_non_null(line_with(t, "  cuda_only ", line, sizeof line));
    assert_non_null(strstr(line, "n/a"));
    assert_int_equal(count_of(t, "transpose  1024 x 1024 floats  (20 reps"), 1);
    free(t);
    sb_run_free(&run);
}

static void markdown_tables_and_escaping(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    char *t = render(SB_FORMAT_MARKDOWN, &run);
    assert_non_null(strstr(t, "## Devices"));
    assert_non_null(strstr(t, "| NVIDIA &lt;H200&gt; &amp; \"friends\" \\| x |"));
    assert_non_null(strstr(t, "## transpose 1024x1024"));
    assert_non_null(strstr(t, "| opencl/cuda | verdict |"));
    assert_non_null(strstr(t, "| tiled&lt;b&gt;&amp;\"q\"\\| |"));
    assert_non_null(strstr(t, "| 1.200 | opencl faster by 20.0% |"));
    /* Every row of the experiment's table has as many cells as its header. */
    const char *table = strstr(t, "| variant |");
    assert_non_null(table);
    char header[2048];
    line_with(table, "| variant |", header, sizeof header);
    size_t cells = count_of(header, " |");
    int rows = 0;
    for (const char *p = table; *p == '|'; p = strchr(p, '\n') + 1) {
        char line[2048];
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        size_t pipes = 0;
        for (const char *c = line; *c; c++)
            pipes += *c == '|' && (c == line || c[-1] != '\\');
        assert_int_equal(pipes, cells + 1);
        rows++;
    }
    assert_int_equal(rows, 2 + 4);
    free(t);
    sb_run_free(&run);
}

static void markdown_one_device_one_row(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 1);
    char *t = render(SB_FORMAT_MARKDOWN, &run);
    assert_non_null(strstr(t, "| variant | backend | median ms |"));
    assert_non_null(strstr(t, "| we\"ird,name | opencl | 0.1500 |"));
    assert_null(strstr(t, "verdict"));
    free(t);
    sb_run_free(&run);
}

/* The backends a default run left out, under the devices in Markdown and
 * HTML, each with its reason, escaped; nothing when there are none. */
static void unavailable_under_the_devices(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 1);
    run.nunavailable = 1;
    snprintf(run.unavailable[0].backend, sizeof run.unavailable[0].backend, "cuda");
    snprintf(run.unavailable[0].reason, sizeof run.unavailable[0].reason,
             "CUDA driver libcuda.so.1 not found: no <NVIDIA> driver | is installed");
    char *t = render(SB_FORMAT_MARKDOWN, &run);
    const char *devices = strstr(t, "## Devices");
    const char *left = strstr(t, "\nNot run here:\n\n- cuda: CUDA driver libcuda.so.1 not found: "
                                 "no &lt;NVIDIA&gt; driver \\| is installed\n");
    assert_non_null(devices);
    assert_non_null(left);
    assert_true(left > devices);
    assert_true(left < strstr(t, "## transpose"));
    free(t);
    t = render(SB_FORMAT_HTML, &run);
    left = strstr(t, "<p>Not run here:</p>\n<ul>\n<li>cuda: CUDA driver libcuda.so.1 not found: "
                     "no &lt;NVIDIA&gt; driver | is installed</li>\n</ul>\n");
    assert_non_null(left);
    assert_true(left > strstr(t, "<h2>Devices</h2>"));
    free(t);
    run.nunavailable = 0;
    t = render(SB_FORMAT_MARKDOWN, &run);
    assert_null(strstr(t, "Not run here"));
    free(t);
    t = render(SB_FORMAT_HTML, &run);
    assert_null(strstr(t, "Not run here"));
    free(t);
    sb_run_free(&run);
}

static void html_escaping_and_plots(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    setenv("GNUPLOT", "", 1);
    char *t = render(SB_FORMAT_HTML, &run);
    assert_true(strncmp(t, "<!DOCTYPE html>", 15) == 0);
    assert_non_null(strstr(t, "</html>"));
    assert_non_null(strstr(t, "<style>"));
    assert_non_null(strstr(t, "NVIDIA &lt;H200&gt; &amp; &quot;friends&quot; | x"));
    assert_non_null(strstr(t, "tiled&lt;b&gt;&amp;&quot;q&quot;|"));
    assert_null(strstr(t, "<H200>"));
    assert_null(strstr(t, "<b>"));
    assert_non_null(strstr(t, "class=\"faster\">opencl faster by 20.0%"));
    assert_non_null(strstr(t, "No charts are shown: GNUPLOT is set but empty"));
    assert_null(strstr(t, "<svg"));
    free(t);
    unsetenv("GNUPLOT");
    char gp[4096];
    if (sb_plot_find_gnuplot(gp, sizeof gp) == 0) {
        t = render(SB_FORMAT_HTML, &run);
        assert_non_null(strstr(t, "<svg"));
        assert_null(strstr(t, "<?xml"));
        assert_null(strstr(t, "No charts are shown"));
        free(t);
    }
    sb_run_free(&run);
}

static void json_comparisons(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    char *t = render(SB_FORMAT_JSON, &run);
    json_t *root = json_loads(t, 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), SB_RESULT_SCHEMA);
    json_t *c = json_object_get(root, "comparisons");
    assert_int_equal(json_array_size(c), 3); /* cuda_only has no partner */
    json_t *tiled = json_array_get(c, 1);
    assert_string_equal(json_string_value(json_object_get(tiled, "variant")), "tiled<b>&\"q\"|");
    assert_string_equal(json_string_value(json_object_get(tiled, "verdict")), "slower");
    assert_string_equal(json_string_value(json_object_get(tiled, "faster")), "cuda");
    assert_double_equal(json_real_value(json_object_get(tiled, "speed_ratio")), 0.8, 1e-9);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(tiled, "other"), "device")), "opencl");
    assert_non_null(strstr(json_string_value(json_object_get(tiled, "ptx")), "ld.global.f32"));
    json_t *copy = json_array_get(c, 0);
    assert_string_equal(json_string_value(json_object_get(copy, "verdict")), "same");
    assert_true(json_is_null(json_object_get(copy, "faster")));
    json_t *r0 = json_array_get(json_object_get(root, "results"), 0);
    assert_string_equal(json_string_value(json_object_get(r0, "ptx_memory")),
                        "1 x ld.global.nc.f32, 1 x st.global.f32");
    json_decref(root);
    free(t);
    sb_run_free(&run);
}

static void csv_cross_columns(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    char *t = render(SB_FORMAT_CSV, &run);
    int header = csv_columns(t), lines = 0;
    for (char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (*line == '#') /* the run's summary, after the rows */
            continue;
        assert_int_equal(csv_columns(line), header);
        lines++;
    }
    assert_int_equal(lines, 1 + 7);
    assert_non_null(strstr(t, ",speed_ratio,verdict,"));
    assert_non_null(strstr(t, ",opencl,cuda,1.2000,opencl faster by 20.0%,"));
    free(t);
    sb_run_free(&run);
}

static void empty_two_devices(void **state)
{
    (void)state;
    sb_run run;
    fixture2(&run);
    run.nresults = 0;
    for (sb_format f = SB_FORMAT_TABLE; f <= SB_FORMAT_HTML; f++) {
        char *t = render(f, &run);
        assert_non_null(t);
        if (f == SB_FORMAT_JSON) {
            json_t *root = json_loads(t, 0, NULL);
            assert_int_equal(json_array_size(json_object_get(root, "comparisons")), 0);
            json_decref(root);
        }
        free(t);
    }
    sb_run_free(&run);
}

/* The writer table: names, the alias, the message's list, an unknown row. */
static void format_names(void **state)
{
    (void)state;
    sb_format f = -1;
    assert_int_equal(sb_report_find("csv", &f), 0);
    assert_int_equal(f, SB_FORMAT_CSV);
    assert_int_equal(sb_report_find("md", &f), 0);
    assert_int_equal(f, SB_FORMAT_MARKDOWN);
    assert_int_equal(sb_report_find("markdown", &f), 0);
    assert_int_equal(f, SB_FORMAT_MARKDOWN);
    assert_int_equal(sb_report_find("xml", &f), -1);
    char names[128];
    sb_report_names(names, sizeof names);
    assert_string_equal(names, "table, csv, json, markdown or html");
    sb_run run;
    fixture(&run, 1);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    assert_int_equal(sb_report_write(SB_FORMAT_HTML + 100, &a, null), -1);
    fclose(null);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* fixture2 with the devices the other way round, as --backend opencl,cuda
 * opens them: OpenCL in slot 0. */
static void fixture2_opencl_first(sb_run *run)
{
    fixture2(run);
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "opencl");
    snprintf(run->devices[1].backend, sizeof run->devices[1].backend, "cuda");
    for (size_t i = 0; i < run->nresults; i++)
        snprintf(run->results[i].backend, sizeof run->results[i].backend, "%s",
                 run->devices[run->results[i].device_slot].backend);
}

/* The reference is the run's first device, whatever its backend, unless
 * one is named; a name the run has no device of is refused. */
static void reference_first_or_named(void **state)
{
    (void)state;
    sb_run run;
    fixture2_opencl_first(&run);
    assert_int_equal(sb_crossapi_reference(&run, NULL), 0);
    assert_int_equal(sb_crossapi_reference(&run, "opencl"), 0);
    assert_int_equal(sb_crossapi_reference(&run, "cuda"), 1);
    assert_int_equal(sb_crossapi_reference(&run, "metal"), -1);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(a.cross.reference, 0);
    sb_analysis_free(&a);
    assert_int_equal(sb_analyse_saved(&run, "cuda", &a), 0);
    assert_int_equal(a.cross.reference, 1);
    assert_int_equal(a.cross.rows[1].verdict[0].kind, SB_VERDICT_FASTER);
    sb_analysis_free(&a);
    assert_int_equal(sb_analyse_saved(&run, "metal", &a), SB_ANALYSIS_NO_REFERENCE);
    sb_analysis_free(&a);
    assert_int_equal(sb_analyse(&run, "metal", &a), SB_ANALYSIS_NO_REFERENCE);
    sb_analysis_free(&a);
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "Side by side against opencl"));
    assert_non_null(strstr(t, "cuda/opencl"));
    free(t);
    t = render_against(SB_FORMAT_TABLE, &run, "cuda");
    assert_non_null(strstr(t, "Side by side against cuda"));
    assert_non_null(strstr(t, "opencl/cuda"));
    free(t);
    /* A run that opened no device has no reference to miss. */
    run.ndevices = 0;
    run.nresults = 0;
    assert_int_equal(sb_analyse(&run, "metal", &a), 0);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* A saved run is paired again and keeps its figures; a measured one gets
 * them derived. */
static void saved_figures_kept(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run, 2);
    run.results[0].roof_share = 0.25; /* not value / roof: as saved */
    run.results[1].slowdown = 3.0;
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_double_equal(run.results[0].roof_share, 0.25, 1e-12);
    assert_double_equal(run.results[1].slowdown, 3.0, 1e-12);
    sb_analysis_free(&a);
    assert_int_equal(sb_analyse(&run, NULL, &a), 0);
    assert_double_equal(run.results[0].roof_share, run.results[0].value / 4000.0, 1e-12);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The JSON names the reference, and reading it back returns it: from the
 * field, or from the comparisons of a file that predates it. */
static void json_reference_round_trip(void **state)
{
    (void)state;
    sb_run run;
    fixture2_opencl_first(&run);
    char *t = render_against(SB_FORMAT_JSON, &run, "cuda");
    json_t *root = json_loads(t, 0, NULL);
    assert_non_null(root);
    json_t *ref = json_object_get(root, "reference");
    assert_int_equal(json_integer_value(json_object_get(ref, "slot")), 1);
    assert_string_equal(json_string_value(json_object_get(ref, "device")), "cuda");
    json_t *c0 = json_array_get(json_object_get(root, "comparisons"), 0);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(c0, "reference"), "device")), "cuda");
    char dir[] = "/tmp/simtbench-report-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/saved.json", dir);
    write_file(path, t);
    sb_run back;
    int slot;
    char err[512];
    assert_int_equal(sb_run_read_saved(path, &back, &slot, err, sizeof err), 0);
    assert_int_equal(slot, 1);
    sb_run_free(&back);
    /* Without the field, the comparisons still say which it was. */
    json_object_del(root, "reference");
    char *old = json_dumps(root, 0);
    write_file(path, old);
    assert_int_equal(sb_run_read_saved(path, &back, &slot, err, sizeof err), 0);
    assert_int_equal(slot, 1);
    sb_run_free(&back);
    free(old);
    /* A reference that is no device of the run is a malformed file. */
    json_object_set_new(root, "reference", json_pack("{s:i, s:s}", "slot", 7, "device", "x"));
    char *bad = json_dumps(root, 0);
    write_file(path, bad);
    assert_int_equal(sb_run_read_saved(path, &back, &slot, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed simtbench result: \"reference\""));
    free(bad);
    unlink(path);
    rmdir(dir);
    json_decref(root);
    free(t);
    sb_run_free(&run);
}

/* Each size kind's words, numbers of five digits up grouped. */
static void sizes_with_their_units(void **state)
{
    (void)state;
    static const struct {
        sb_size_kind kind;
        long rows, cols;
        const char *text;
    } cases[] = {
        {SB_SIZE_MATRIX, 8192, 8192, "8192 x 8192 floats"},
        {SB_SIZE_MATRIX, 16384, 33, "16 384 x 33 floats"},
        {SB_SIZE_ELEMENTS, 67108864, 1, "67 108 864 elements"},
        {SB_SIZE_ELEMENTS, 1000, 1, "1000 elements"},
        {SB_SIZE_WORDS, 8192, 8192, "67 108 864 4-byte words"},
        {SB_SIZE_THREADS, 1056, 2048, "2 162 688 threads"},
        {SB_SIZE_THREADS, 1, 512, "512 threads"},
        {SB_SIZE_WALKS, 256, 270336, "270 336 threads, 256 words each"},
        {SB_SIZE_UNKNOWN, 64, 4096, "64x4096"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_result r;
        memset(&r, 0, sizeof r);
        r.size_kind = cases[i].kind;
        r.rows = cases[i].rows;
        r.cols = cases[i].cols;
        char text[64];
        sb_result_size_text(&r, text, sizeof text);
        assert_string_equal(text, cases[i].text);
    }
    /* A variant at another size than its block's says so, in its units. */
    sb_run run;
    fixture(&run, 2);
    run.results[1].rows = run.results[1].cols = 64;
    char *t = render(SB_FORMAT_TABLE, &run);
    assert_non_null(strstr(t, "\n  padded@64 x 64 floats "));
    free(t);
    sb_run_free(&run);
}

/* A family's figures in the model text, in words a reader takes in: bytes
 * in binary units where they are whole ones, counts whole, the rest to
 * four figures; a factor's "x" without a space. */
static void figures_in_words(void **state)
{
    (void)state;
    sb_result r;
    memset(&r, 0, sizeof r);
    sb_figure_add(r.figure, &r.nfigures, "working_set", 16384, "B");
    sb_figure_add(r.figure, &r.nfigures, "lines", 128, "");
    sb_figure_add(r.figure, &r.nfigures, "chunk", 96, "B");
    sb_figure_add(r.figure, &r.nfigures, "distance", 3 << 20, "B");
    sb_figure_add(r.figure, &r.nfigures, "cycles_per_load", 1188.4, "cycles");
    sb_figure_add(r.figure, &r.nfigures, "slowdown", 7.5, "x");
    char text[256];
    sb_result_model_text(&r, text, sizeof text);
    assert_string_equal(text, "working set 16 KiB; lines 128; chunk 96 B; distance 3 MiB; "
                              "cycles per load 1188 cycles; slowdown 7.5x");
}

int main(void)
{
    unsetenv("COLUMNS"); /* the table's lines at their width of 100 */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_rows_and_device),
        cmocka_unit_test(csv_quotes_and_shape),
        cmocka_unit_test(json_round_trip),
        cmocka_unit_test(model_totals_written),
        cmocka_unit_test(empty_run),
        cmocka_unit_test(one_row),
        cmocka_unit_test(flops_row_notes_and_unknowns),
        cmocka_unit_test(verdict_rule),
        cmocka_unit_test(pairing_and_labels),
        cmocka_unit_test(table_side_by_side),
        cmocka_unit_test(markdown_tables_and_escaping),
        cmocka_unit_test(markdown_one_device_one_row),
        cmocka_unit_test(unavailable_under_the_devices),
        cmocka_unit_test(html_escaping_and_plots),
        cmocka_unit_test(json_comparisons),
        cmocka_unit_test(csv_cross_columns),
        cmocka_unit_test(empty_two_devices),
        cmocka_unit_test(format_names),
        cmocka_unit_test(reference_first_or_named),
        cmocka_unit_test(saved_figures_kept),
        cmocka_unit_test(json_reference_round_trip),
        cmocka_unit_test(sizes_with_their_units),
        cmocka_unit_test(figures_in_words),
    };
    SB_TEST_MAIN(tests);
}
