/* The closing summary of a run (run/summary.h): on the saved H200 suite,
 * its exact lines, each figure computed from that file (the roofs, the
 * best transpose's share, the worst conflict and its fix, the verdict
 * counts); on a short PoCL run, the same kinds of line from what the run
 * measured; at most 15 lines, each within 100 columns, however many
 * families and devices, with the failures and the backends not run last;
 * and the same lines in every format. */
#include "test_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/json_read.h"
#include "report/report.h"
#include "experiments/catalogue.h"
#include "analysis/analysis.h"
#include "analysis/summary.h"

/* A saved run read back and analysed as `simtbench report` does. */
static void analyse_saved(const char *path, sb_run *run, sb_analysis *a)
{
    char err[1024];
    int reference;
    if (sb_run_read_saved(path, run, &reference, err, sizeof err))
        fail_msg("%s", err);
    const char *backend = reference >= 0 ? run->devices[reference].backend : NULL;
    assert_int_equal(sb_analyse_saved(run, backend, a), 0);
}

static char *render(sb_format f, const sb_analysis *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write(f, a, out), 0);
    fclose(out);
    return buf;
}

/* The table's summary: "Summary" and its lines, the last of the output,
 * at most SB_SUMMARY_LINES of them and each within 100 columns (COLUMNS
 * is unset by make check). */
static void table_has_summary(const sb_analysis *a)
{
    char *t = render(SB_FORMAT_TABLE, a);
    const char *s = strstr(t, "\nSummary\n");
    assert_non_null(s);
    int lines = 0;
    for (const char *line = s + 1; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        assert_true(end - line <= 100);
        lines++;
    }
    assert_true(lines <= SB_SUMMARY_LINES);
    assert_int_equal(lines, 1 + a->summary.n); /* no item folds at 100 columns */
    for (int i = 0; i < a->summary.n; i++) {
        char want[SB_SUMMARY_BYTES + 4];
        snprintf(want, sizeof want, "\n  %s\n", a->summary.item[i].text);
        assert_non_null(strstr(s, want));
    }
    free(t);
}

/* Every other format holds each item as its own line or element. */
static void formats_have_summary(const sb_analysis *a)
{
    char *md = render(SB_FORMAT_MARKDOWN, a), *html = render(SB_FORMAT_HTML, a);
    char *csv = render(SB_FORMAT_CSV, a), *js = render(SB_FORMAT_JSON, a);
    assert_non_null(strstr(md, "\n## Summary\n"));
    assert_non_null(strstr(html, "<h2>Summary</h2>"));
    json_t *root = json_loads(js, 0, NULL);
    assert_non_null(root);
    json_t *lines = json_object_get(json_object_get(root, "summary"), "lines");
    assert_int_equal(json_array_size(lines), a->summary.n);
    for (int i = 0; i < a->summary.n; i++) {
        const sb_summary_item *it = &a->summary.item[i];
        char want[SB_SUMMARY_BYTES + 32];
        snprintf(want, sizeof want, "\n- %s\n", it->text);
        assert_non_null(strstr(md, want));
        snprintf(want, sizeof want, "<li>%s</li>", it->text);
        assert_non_null(strstr(html, want));
        snprintf(want, sizeof want, "\n# summary: %s\n", it->text);
        assert_non_null(strstr(csv, want));
        json_t *o = json_array_get(lines, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(o, "text")), it->text);
        assert_string_equal(json_string_value(json_object_get(o, "topic")),
                            sb_summary_topic_name(it->topic));
    }
    json_decref(root);
    free(md), free(html), free(csv), free(js);
}

/* ------------------------------------------------------------ H200 */

static void h200_suite(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/h200/suite.json", getenv("SB_TOP_SRCDIR"));
    if (access(path, R_OK) != 0) {
        fail_msg("%s is not here", path);
    }
    sb_run run;
    sb_analysis a;
    analyse_saved(path, &run, &a);
    /* From the file: each device's memcpy_gbs; vec64x64_cm the transpose
       (not a copy, not the vendor's) of the largest roof_share on both;
       w4-s32-store the global stride of the smallest; 32x32-column-load
       the first 32-way tile walk, [32][33] its 1-way fix, 31.0x as the
       block's lesson says; the comparisons' verdicts 91 same, 1 opencl
       faster, 3 cuda faster. */
    static const char *const want[] = {
        "roof (API copy): 4174.5 GB/s on cuda, 4172.4 GB/s on opencl",
        "transpose: fastest vec64x64_cm, 96.9% of the roof on cuda, 97.1% on opencl",
        "matmul: fastest coarse8, 12751.1 GFLOP/s on cuda, 12714.1 on opencl",
        "vecadd: fastest coarse8, 103.0% of the roof on cuda, 102.8% on opencl",
        "occupancy: fastest b256-g32x, 90.1% of the roof on cuda, 89.9% on opencl",
        "global_stride: slowest w4-s32-store, 4.3% of the roof on each of 2 devices; "
        "model 32 sectors/req",
        "shared_tile: 32x32-column-load 32-way; padding [32][33] makes it 1 way, 31.0x faster "
        "on cuda",
        "opencl against cuda: 91 of 95 rows the same, opencl faster in 1, slower in 3",
        "checks: every one of the 190 rows verified against its host reference",
    };
    static const sb_summary_topic topic[] = {
        SB_SUMMARY_ROOF,     SB_SUMMARY_HEADLINE, SB_SUMMARY_HEADLINE,
        SB_SUMMARY_HEADLINE, SB_SUMMARY_HEADLINE, SB_SUMMARY_HEADLINE,
        SB_SUMMARY_HEADLINE, SB_SUMMARY_VERDICTS, SB_SUMMARY_CHECKS};
    assert_int_equal(a.summary.n, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < a.summary.n; i++) {
        assert_string_equal(a.summary.item[i].text, want[i]);
        assert_int_equal(a.summary.item[i].topic, topic[i]);
    }
    assert_string_equal(a.summary.item[1].experiment, "transpose");
    assert_string_equal(a.summary.item[6].experiment, "shared_tile");
    table_has_summary(&a);
    formats_have_summary(&a);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* ------------------------------------------------------------ PoCL */

/* Whether s starts with prefix. */
static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The item quoting experiment, or NULL. */
static const sb_summary_item *headline_of(const sb_summary *s, const char *experiment)
{
    for (int i = 0; i < s->n; i++)
        if (s->item[i].topic == SB_SUMMARY_HEADLINE &&
            strcmp(s->item[i].experiment, experiment) == 0)
            return &s->item[i];
    return NULL;
}

static void pocl_run(void **state)
{
    sb_run run;
    sb_analysis a;
    analyse_saved(*state, &run, &a);
    const sb_summary *s = &a.summary;
    assert_true(s->n >= 5 && s->n <= SB_SUMMARY_MAX);
    assert_int_equal(s->item[0].topic, SB_SUMMARY_ROOF);
    assert_true(starts(s->item[0].text, "roof (API copy): "));
    assert_non_null(strstr(s->item[0].text, " GB/s on opencl"));
    /* The best transpose is a transpose, not one of the copies or the
       vendor's row. */
    const sb_summary_item *t = headline_of(s, "transpose");
    assert_non_null(t);
    assert_true(starts(t->text, "transpose: fastest "));
    assert_non_null(strstr(t->text, "% of the roof on opencl"));
    assert_false(starts(t->text, "transpose: fastest copy") ||
                 starts(t->text, "transpose: fastest memcpy") ||
                 starts(t->text, "transpose: fastest vendor"));
    const sb_summary_item *v = headline_of(s, "vecadd");
    assert_non_null(v);
    /* Which variant a CPU runs fastest is its business, not the test's. */
    assert_true(starts(v->text, "vecadd: fastest "));
    /* The ways are the model's, whatever the CPU's times. */
    const sb_summary_item *sh = headline_of(s, "shared_tile");
    assert_non_null(sh);
    assert_true(starts(sh->text, "shared_tile: 32x32-column-load 32-way; padding [32][33] "
                                 "makes it 1 way, "));
    assert_non_null(strstr(sh->text, " on opencl"));
    /* One device: no verdicts; every row of a run is verified. */
    char checks[128];
    snprintf(checks, sizeof checks,
             "checks: every one of the %zu rows verified against its host reference",
             run.nresults);
    assert_string_equal(s->item[s->n - 1].text, checks);
    for (int i = 0; i < s->n; i++) {
        assert_true(s->item[i].topic != SB_SUMMARY_VERDICTS);
        assert_true(strlen(s->item[i].text) <= SB_SUMMARY_WIDTH);
    }
    table_has_summary(&a);
    formats_have_summary(&a);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* ------------------------------------------------------------ many */

/* One row of every experiment in the catalogue on each of five devices:
 * more families than lines, and more devices than verdict lines. */
static void many_families_and_devices(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 5;
    for (int d = 0; d < run.ndevices; d++) {
        snprintf(run.devices[d].backend, sizeof run.devices[d].backend, "opencl");
        run.devices[d].info.device_index = d;
        run.devices[d].memcpy_gbs = 1000.0 + d;
    }
    run.failures = 2;
    run.nunavailable = 1;
    snprintf(run.unavailable[0].backend, sizeof run.unavailable[0].backend, "cuda");
    for (int e = 0; e < sb_catalogue_count(); e++)
        for (int d = 0; d < run.ndevices; d++) {
            const sb_experiment *x = sb_catalogue_get(e);
            sb_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.backend, sizeof r.backend, "opencl");
            r.device_slot = d;
            snprintf(r.experiment, sizeof r.experiment, "%s", x->name);
            snprintf(r.family, sizeof r.family, "%s", x->family);
            snprintf(r.variant, sizeof r.variant, "a-variant-no-catalogue-has");
            r.rows = r.cols = 64;
            r.ms.median = r.ms.min = r.ms.max = 1.0 + 0.01 * d;
            r.quantity = x->quantity;
            r.value = 100.0 + d;
            r.roof_share = 0.5;
            r.verified = 1;
            r.npatterns = 1;
            r.pattern[0] = sb_pattern_default();
            r.prediction[0].space = SB_SPACE_SHARED;
            r.prediction[0].ways = 2;
            assert_int_equal(sb_run_add(&run, &r), 0);
        }
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    const sb_summary *s = &a.summary;
    assert_int_equal(s->n, SB_SUMMARY_MAX);
    int verdicts = 0, others = 0;
    for (int i = 0; i < s->n; i++) {
        verdicts += s->item[i].topic == SB_SUMMARY_VERDICTS;
        others += s->item[i].topic == SB_SUMMARY_OTHERS;
        assert_true(strlen(s->item[i].text) <= SB_SUMMARY_WIDTH);
    }
    assert_int_equal(verdicts, 1); /* the four others against the reference, in one */
    assert_int_equal(others, 1);   /* the families there was no room for */
    assert_true(starts(s->item[0].text, "roof (API copy): from 1000.0 GB/s on "));
    assert_true(starts(s->item[s->n - 3].text, "checks: every one of the "));
    assert_string_equal(s->item[s->n - 2].text,
                        "failed: 2 reported on stderr, each leaving no figure");
    assert_string_equal(s->item[s->n - 1].text,
                        "not run here: cuda (the Devices section says why)");
    table_has_summary(&a);
    formats_have_summary(&a);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* A name read back with control characters reaches no terminal or CSV
 * line as they are. */
static void control_characters(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    snprintf(run.devices[0].backend, sizeof run.devices[0].backend, "opencl");
    run.devices[0].memcpy_gbs = 100.0;
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "opencl");
    snprintf(r.experiment, sizeof r.experiment, "transpose");
    snprintf(r.family, sizeof r.family, "transpose");
    snprintf(r.variant, sizeof r.variant, "evil\x1b[2J\nline");
    r.rows = r.cols = 64;
    r.ms.median = r.ms.min = r.ms.max = 1.0;
    r.quantity = SB_QUANTITY_BANDWIDTH;
    r.value = 50.0;
    r.roof_share = 0.5;
    r.verified = 1;
    assert_int_equal(sb_run_add(&run, &r), 0);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_string_equal(a.summary.item[1].text,
                        "transpose: fastest evil\x1b[2J\nline, 50.0% of the roof on opencl");
    char *t = render(SB_FORMAT_TABLE, &a), *csv = render(SB_FORMAT_CSV, &a);
    /* (the block's rows are the table's own to escape) */
    assert_null(strchr(strstr(t, "\nSummary\n"), '\x1b'));
    assert_non_null(strstr(t, "\n  transpose: fastest evil?[2J?line, 50.0% of the roof"));
    assert_non_null(strstr(csv, "\n# summary: transpose: fastest evil?[2J?line, 50.0%"));
    free(t), free(csv);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* A short fixed-seed PoCL run, saved into path; 0, 77 with no PoCL (the
 * test is then skipped), else 1. */
static int pocl_save(char *path)
{
    const char *prog = getenv("SIMTBENCH");
    const char *pocl = "/etc/OpenCL/vendors/pocl.icd";
    if (!prog || access(pocl, R_OK) != 0)
        return 77;
    setenv("OCL_ICD_VENDORS", pocl, 1);
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --backend opencl --experiment transpose,vecadd,shared_tile "
             "--size 64 --reps 5 --warmup 0 --seed 7 --quiet --save '%s' >/dev/null", prog,
             path);
    int rc = system(cmd);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 3)
        return 77;
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : 1;
}

int main(void)
{
    if (!getenv("SB_TOP_SRCDIR"))
        return sb_test_skip_all("SB_TOP_SRCDIR is set by make check");
    static char saved[] = "/tmp/simtbench-summary-XXXXXX";
    int pocl = pocl_save(saved);
    const struct CMUnitTest with_pocl[] = {
        cmocka_unit_test(h200_suite),
        cmocka_unit_test(many_families_and_devices),
        cmocka_unit_test(control_characters),
        cmocka_unit_test_prestate(pocl_run, saved),
    };
    const struct CMUnitTest without[] = {
        cmocka_unit_test(h200_suite),
        cmocka_unit_test(many_families_and_devices),
        cmocka_unit_test(control_characters),
    };
    /* Without PoCL the PoCL run is left out, and said; a run that
       failed is a failure. */
    if (pocl == 77)
        printf("# no PoCL: the PoCL run's summary is not tested here\n");
    if (pocl == 1)
        printf("# the PoCL run failed\n");
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = pocl == 0 ? cmocka_run_group_tests(with_pocl, NULL, NULL)
                           : cmocka_run_group_tests(without, NULL, NULL);
    unlink(saved);
    return failed || pocl == 1;
}
