/* `simtbench compare` on files the test writes into a temporary directory:
 * a planted 20% slowdown is flagged and nothing else, what differs between
 * the runs is named in the header, unmatched rows are listed, and a
 * missing, malformed or foreign file gives exit 5 and one line.  Runs with
 * every repetition saved are judged by the interval: two simulated runs of
 * one distribution are at least 90% "same", a row slowed by 20% is flagged
 * with an interval that excludes 1; runs without (the fixture's) fall back
 * to the spread rule and say so. */
#include "test_util.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_compare.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/json_read.h"
#include "analysis/analysis.h"

static char dir[] = "/tmp/simtbench-compare-XXXXXX";
static char old_path[256], new_path[256];

static void run_fixture(sb_run *run)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "0.1.0");
    snprintf(run->date, sizeof run->date, "2026-11-01T00:00:00Z");
    snprintf(run->host, sizeof run->host, "gpu1");
    run->ndevices = 2;
    const char *backends[2] = {"cuda", "opencl"};
    for (int d = 0; d < 2; d++) {
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "%s", backends[d]);
        snprintf(run->devices[d].info.name, sizeof run->devices[d].info.name, "NVIDIA H200");
        snprintf(run->devices[d].info.driver, sizeof run->devices[d].info.driver, "580.65");
    }
    const char *variants[] = {"copy", "naive_read", "naive_write", "tiled", "padded"};
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 5; i++) {
            sb_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.backend, sizeof r.backend, "%s", backends[d]);
            r.device_slot = d;
            snprintf(r.experiment, sizeof r.experiment, "transpose");
            snprintf(r.family, sizeof r.family, "transpose");
            snprintf(r.variant, sizeof r.variant, "%s", variants[i]);
            r.rows = r.cols = 8192;
            r.reps = 20;
            r.ms.median = 0.1 * (i + 1) * (d ? 1.05 : 1.0);
            r.ms.min = r.ms.median * 0.99;
            r.ms.max = r.ms.median * 1.01;
            r.ms.spread = 0.02;
            r.quantity = SB_QUANTITY_BANDWIDTH;
            r.value = 1.0 / r.ms.median;
            r.occupancy = -1;
            /* tiled: NVIDIA's OpenCL reserves 4 shared bytes of its own */
            r.regs = i == 3 ? (d ? 31 : 32) : -1;
            r.shared_bytes = i == 3 ? (d ? 8196 : 8192) : -1;
            r.private_bytes = i == 3 ? 0 : -1;
            r.verified = 1;
            r.host_ms = 100.0 + i;
            r.verify_ms = 40.5 + i;
            assert_int_equal(sb_run_add(run, &r), 0);
        }
}

static void save(const sb_run *run, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    assert_int_equal(sb_report_write(SB_FORMAT_JSON, &a, f), 0);
    sb_analysis_free(&a);
    assert_int_equal(fclose(f), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Run the command; stdout and stderr into malloc'd strings. */
static int compare(char **out, char **err, int argc, ...)
{
    char *argv[16];
    va_list ap;
    va_start(ap, argc);
    argv[0] = "compare";
    for (int i = 1; i <= argc && i < 15; i++)
        argv[i] = va_arg(ap, char *);
    va_end(ap);
    argv[argc + 1] = NULL;
    size_t ol = 0, el = 0;
    FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);
    int rc = sb_cmd_compare_to(argc + 1, argv, o, e);
    fclose(o);
    fclose(e);
    return rc;
}

/* How many lines of s hold needle. */
static int count_lines_with(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; n++) {
        const char *nl = strchr(p, '\n');
        p = nl ? strstr(nl, needle) : NULL;
    }
    return n;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(old_path, sizeof old_path, "%s/old.json", dir);
    snprintf(new_path, sizeof new_path, "%s/new.json", dir);
    sb_run run;
    run_fixture(&run);
    save(&run, old_path);
    /* The plant: opencl's tiled 20% slower; every other row moves by less
       than its 2% spread. */
    for (size_t i = 0; i < run.nresults; i++) {
        sb_result *r = &run.results[i];
        if (r->device_slot == 1 && strcmp(r->variant, "tiled") == 0)
            r->ms.median *= 1.20;
        else
            r->ms.median *= (i % 2) ? 1.01 : 0.99;
    }
    snprintf(run.date, sizeof run.date, "2026-11-30T00:00:00Z");
    save(&run, new_path);
    sb_run_free(&run);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"old.json",       "new.json",     "bad.json",        "foreign.json",
                           "other.json",     "noresults.json", "untimed.json", "noresources.json",
                           "sampled-old.json", "sampled-new.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[300];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
    return 0;
}

static void round_trip(void **state)
{
    (void)state;
    sb_run run;
    char err[512];
    assert_int_equal(sb_run_read_json(old_path, &run, err, sizeof err), 0);
    assert_int_equal(run.ndevices, 2);
    assert_int_equal(run.nresults, 10);
    assert_string_equal(run.results[3].variant, "tiled");
    assert_double_equal(run.results[3].ms.median, 0.4, 1e-9);
    assert_double_equal(run.results[3].ms.spread, 0.02, 1e-9);
    assert_string_equal(sb_quantity_unit(run.results[3].quantity), "GB/s");
    assert_string_equal(run.devices[1].info.driver, "580.65");
    assert_double_equal(run.results[3].host_ms, 103.0, 1e-9);
    assert_double_equal(run.results[3].verify_ms, 43.5, 1e-9);
    assert_int_equal(run.results[3].regs, 32);
    assert_int_equal(run.results[3].shared_bytes, 8192);
    assert_int_equal(run.results[3].private_bytes, 0);
    assert_int_equal(run.results[8].regs, 31);
    assert_int_equal(run.results[8].shared_bytes, 8196);
    /* null in the file: unknown */
    assert_int_equal(run.results[2].regs, -1);
    assert_int_equal(run.results[2].shared_bytes, -1);
    assert_int_equal(run.results[2].private_bytes, -1);
    sb_run_free(&run);
}

/* Files written before the compiler's allocation was recorded read it as
 * unknown (-1), not as 0. */
static void without_kernel_resources(void **state)
{
    (void)state;
    json_t *root = json_load_file(old_path, 0, NULL);
    assert_non_null(root);
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(root, "results"), i, r)
    {
        assert_int_equal(json_object_del(r, "registers"), 0);
        assert_int_equal(json_object_del(r, "shared_bytes"), 0);
        assert_int_equal(json_object_del(r, "private_bytes"), 0);
    }
    char path[300];
    snprintf(path, sizeof path, "%s/noresources.json", dir);
    assert_int_equal(json_dump_file(root, path, JSON_INDENT(2)), 0);
    json_decref(root);
    sb_run run;
    char err[512];
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), 0);
    assert_int_equal(run.nresults, 10);
    assert_int_equal(run.results[3].regs, -1);
    assert_int_equal(run.results[3].shared_bytes, -1);
    assert_int_equal(run.results[3].private_bytes, -1);
    sb_run_free(&run);
}

/* Files written before the host-time fields still read, with 0 for them. */
static void without_host_times(void **state)
{
    (void)state;
    json_t *root = json_load_file(old_path, 0, NULL);
    assert_non_null(root);
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(root, "results"), i, r)
    {
        assert_int_equal(json_object_del(r, "host_ms"), 0);
        assert_int_equal(json_object_del(r, "verify_ms"), 0);
    }
    char path[300];
    snprintf(path, sizeof path, "%s/untimed.json", dir);
    assert_int_equal(json_dump_file(root, path, JSON_INDENT(2)), 0);
    json_decref(root);
    sb_run run;
    char err[512];
    assert_int_equal(sb_run_read_json(path, &run, err, sizeof err), 0);
    assert_int_equal(run.nresults, 10);
    assert_double_equal(run.results[3].ms.median, 0.4, 1e-9);
    assert_double_equal(run.results[3].host_ms, 0.0, 0.0);
    assert_double_equal(run.results[3].verify_ms, 0.0, 0.0);
    sb_run_free(&run);
}

static void planted_slowdown_and_nothing_else(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(compare(&out, &err, 2, old_path, new_path), SB_EXIT_OK);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "1 of 10 matched rows changed; 0 only in old, 0 only in new."));
    const char *row = strstr(out, "  transpose/tiled  ");
    assert_non_null(row);
    assert_non_null(strstr(row, "  opencl  "));
    assert_non_null(strstr(row, "+20.0%  slower by 20.0%"));
    assert_null(strstr(out, "faster by"));
    assert_null(strstr(strstr(out, "slower by") + 1, "slower by"));
    /* The only thing that differs is the date, and the header says so. */
    assert_non_null(strstr(out, "(same host, devices, drivers and tool version)"));
    assert_non_null(strstr(out, "date"));
    free(out);
    free(err);

    assert_int_equal(compare(&out, &err, 4, "--format", "json", old_path, new_path), SB_EXIT_OK);
    json_t *root = json_loads(out, 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtbench-compare/1");
    json_t *sum = json_object_get(root, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "changed")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "matched")), 10);
    size_t i;
    json_t *r;
    int slower = 0, other = 0;
    json_array_foreach(json_object_get(root, "rows"), i, r)
    {
        const char *v = json_string_value(json_object_get(r, "verdict"));
        if (strcmp(v, "slower") == 0) {
            slower++;
            assert_string_equal(json_string_value(json_object_get(r, "device")), "opencl");
            assert_string_equal(json_string_value(json_object_get(r, "variant")), "tiled");
            assert_double_equal(json_real_value(json_object_get(r, "change")), 0.2, 1e-6);
        } else {
            other += strcmp(v, "same") != 0;
        }
    }
    assert_int_equal(slower, 1);
    assert_int_equal(other, 0);
    json_decref(root);
    free(out);
    free(err);

    /* A threshold above the change silences it. */
    assert_int_equal(compare(&out, &err, 4, "--threshold", "25", old_path, new_path), SB_EXIT_OK);
    assert_non_null(strstr(out, "0 of 10 matched rows changed"));
    free(out);
    free(err);

    /* Markdown: a pipe table holding the one changed row. */
    assert_int_equal(compare(&out, &err, 4, "--format", "markdown", old_path, new_path),
                     SB_EXIT_OK);
    assert_non_null(strstr(out, "| opencl | transpose | tiled | 8192x8192 |"));
    assert_non_null(strstr(out, "| slower by 20.0% |"));
    free(out);
    free(err);
}

static void header_names_what_differs(void **state)
{
    (void)state;
    sb_run run;
    char path[300], *out, *err, why[256];
    assert_int_equal(sb_run_read_json(old_path, &run, why, sizeof why), 0);
    snprintf(run.devices[1].info.driver, sizeof run.devices[1].info.driver, "590.10");
    snprintf(run.devices[0].info.name, sizeof run.devices[0].info.name, "NVIDIA A100");
    snprintf(run.tool_version, sizeof run.tool_version, "0.2.0");
    run.nresults = 9; /* drops opencl's padded */
    snprintf(path, sizeof path, "%s/other.json", dir);
    save(&run, path);
    sb_run_free(&run);
    assert_int_equal(compare(&out, &err, 2, old_path, path), SB_EXIT_OK);
    assert_non_null(strstr(out, "tool version       0.1.0  ->  0.2.0"));
    assert_non_null(strstr(out, "opencl driver      580.65  ->  590.10"));
    assert_non_null(strstr(out, "cuda device        NVIDIA H200  ->  NVIDIA A100"));
    assert_null(strstr(out, "same host, devices"));
    assert_non_null(strstr(out, "0 of 9 matched rows changed; 1 only in old, 0 only in new."));
    assert_non_null(strstr(out, "Unmatched rows:"));
    assert_non_null(strstr(out, "only in old"));
    free(out);
    free(err);
}

static void bad_files_give_one_line(void **state)
{
    (void)state;
    char bad[300], foreign[300], missing[300], empty[300], *out, *err;
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    snprintf(foreign, sizeof foreign, "%s/foreign.json", dir);
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    snprintf(empty, sizeof empty, "%s/noresults.json", dir);
    write_text(bad, "{\"schema\": \"simtbench-result/1\", \"results\": [");
    write_text(foreign, "{\"schema\": \"other-tool/3\", \"results\": []}");
    write_text(empty, "{\"schema\": \"simtbench-result/1\", \"devices\": [], \"results\": "
                      "[{\"backend\": \"cuda\"}]}");
    struct {
        const char *path, *says;
    } cases[] = {{bad, "not valid JSON"},
                 {foreign, "not a simtbench result (schema \"other-tool/3\""},
                 {missing, "cannot read"},
                 {empty, "malformed simtbench result: results[0]"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int side = 0; side < 2; side++) {
            int rc = side ? compare(&out, &err, 2, old_path, cases[i].path)
                          : compare(&out, &err, 2, cases[i].path, old_path);
            assert_int_equal(rc, SB_EXIT_IO);
            assert_string_equal(out, "");
            assert_int_equal(lines(err), 1);
            assert_true(strncmp(err, "simtbench compare: ", 19) == 0);
            assert_non_null(strstr(err, cases[i].path));
            if (!strstr(err, cases[i].says))
                fail_msg("expected '%s' in: %s", cases[i].says, err);
            free(out);
            free(err);
        }
    }
}

/* ---------------------------------------------------------------- samples */

/* splitmix64 and Box-Muller: the same draws everywhere for a seed. */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double normal(uint64_t *state)
{
    double u1 = ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
    double u2 = ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#define SIM_ROWS 200
#define SIM_REPS 20

/* A run of SIM_ROWS variants of 20 repetitions each, lognormal noise of
 * sigma around fixed medians, drawn from seed; "v017" slower by `slow`;
 * "v100" with only 3 repetitions saved. */
static void scattered_run(sb_run *run, uint64_t seed, double slow, double sigma)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "0.1.0");
    run->ndevices = 1;
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "cuda");
    for (int i = 0; i < SIM_ROWS; i++) {
        double t[SIM_REPS], ms = (0.05 + 0.01 * (i % 37)) * (i == 17 ? slow : 1.0);
        size_t n = i == 100 ? 3 : SIM_REPS;
        for (size_t k = 0; k < n; k++)
            t[k] = ms * exp(sigma * normal(&seed));
        sb_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.backend, sizeof r.backend, "cuda");
        snprintf(r.experiment, sizeof r.experiment, "sim");
        snprintf(r.variant, sizeof r.variant, "v%03d", i);
        r.rows = r.cols = 1024;
        r.reps = (int)n;
        r.samples = t;
        r.nsamples = n;
        assert_int_equal(sb_stats_compute(t, n, &r.ms), 0);
        r.quantity = SB_QUANTITY_BANDWIDTH;
        r.value = 1.0 / r.ms.median;
        r.occupancy = r.regs = -1;
        r.threads_in_flight = r.shared_bytes = r.private_bytes = -1;
        r.verified = 1;
        assert_int_equal(sb_run_add(run, &r), 0);
    }
}

/* As scattered_run with the 2% of a quiet GPU. */
static void sampled_run(sb_run *run, uint64_t seed, double slow)
{
    scattered_run(run, seed, slow, 0.02);
}

/* Two simulated runs of one distribution, the second with v017 20% slower:
 * v017 is flagged, its interval above 1; of the others at least 90% are
 * "same" (the rule needs a change beyond the tolerance, so all are); v100,
 * with 3 repetitions, is judged by the spread rule and says so. */
static void sampled_runs_judged_by_the_interval(void **state)
{
    (void)state;
    char o[300], n[300], *out, *err;
    snprintf(o, sizeof o, "%s/sampled-old.json", dir);
    snprintf(n, sizeof n, "%s/sampled-new.json", dir);
    sb_run run;
    sampled_run(&run, 1, 1.0);
    save(&run, o);
    sb_run_free(&run);
    sampled_run(&run, 2, 1.2);
    save(&run, n);
    sb_run_free(&run);

    assert_int_equal(compare(&out, &err, 4, "--format", "json", o, n), SB_EXIT_OK);
    json_t *root = json_loads(out, 0, NULL);
    assert_non_null(root);
    assert_non_null(strstr(json_string_value(json_object_get(root, "rule")),
                           "lies wholly beyond the tolerance, 2.0%"));
    size_t i;
    json_t *r;
    int same = 0, others = 0;
    json_array_foreach(json_object_get(root, "rows"), i, r)
    {
        const char *variant = json_string_value(json_object_get(r, "variant"));
        const char *verdict = json_string_value(json_object_get(r, "verdict"));
        const char *basis = json_string_value(json_object_get(r, "basis"));
        if (strcmp(variant, "v017") == 0) {
            assert_string_equal(verdict, "slower");
            assert_string_equal(basis, "interval");
            double low = json_real_value(json_object_get(r, "ci_low"));
            double high = json_real_value(json_object_get(r, "ci_high"));
            assert_true(low > 1.0 && low < 1.2 && high > 1.2);
            continue;
        }
        if (strcmp(variant, "v100") == 0) {
            assert_string_equal(basis, "spread rule (3 samples)");
            assert_true(json_is_null(json_object_get(r, "ci_low")));
            continue;
        }
        assert_string_equal(basis, "interval");
        others++;
        same += strcmp(verdict, "same") == 0;
    }
    assert_int_equal(others, SIM_ROWS - 2);
    if (same < others * 9 / 10)
        fail_msg("%d of %d rows same", same, others);
    json_decref(root);
    free(out);
    free(err);

    /* The table: the interval beside the change, on the flagged row. */
    assert_int_equal(compare(&out, &err, 2, o, n), SB_EXIT_OK);
    const char *row = strstr(out, "  sim/v017  ");
    assert_non_null(row);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row, "\n"), row);
    assert_non_null(strstr(line, "slower by "));
    assert_non_null(strstr(line, "[+"));
    assert_non_null(strstr(out, "Rule: a row is faster or slower when the 95% interval"));
    free(out);
    free(err);
}

/* Two runs whose repetitions scatter as a shared CPU's do, v017 20%
 * slower in the second: no row is called faster or slower (not even
 * v017, which the scatter hides), each is said to be noisy with its
 * spread, and the table says that most rows are. */
static void noisy_runs_call_nothing_changed(void **state)
{
    (void)state;
    char o[300], n[300], *out, *err;
    snprintf(o, sizeof o, "%s/noisy-old.json", dir);
    snprintf(n, sizeof n, "%s/noisy-new.json", dir);
    sb_run run;
    scattered_run(&run, 3, 1.0, 0.7);
    save(&run, o);
    sb_run_free(&run);
    scattered_run(&run, 4, 1.2, 0.7);
    save(&run, n);
    sb_run_free(&run);

    assert_int_equal(compare(&out, &err, 4, "--format", "json", o, n), SB_EXIT_OK);
    json_t *root = json_loads(out, 0, NULL);
    assert_non_null(root);
    size_t i;
    json_t *r;
    int noisy = 0;
    json_array_foreach(json_object_get(root, "rows"), i, r)
    {
        const char *verdict = json_string_value(json_object_get(r, "verdict"));
        assert_string_not_equal(verdict, "faster");
        assert_string_not_equal(verdict, "slower");
        if (strcmp(verdict, "noisy") == 0) {
            noisy++;
            assert_true(json_real_value(json_object_get(r, "noise")) > SB_VERDICT_TOLERANCE);
        }
    }
    /* every row but v100, whose 3 samples judge no noise */
    assert_int_equal(noisy, SIM_ROWS - 1);
    json_t *sum = json_object_get(root, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "changed")), 0);
    assert_int_equal(json_integer_value(json_object_get(sum, "noisy")), SIM_ROWS - 1);
    assert_true(json_is_true(json_object_get(sum, "mostly_noisy")));
    json_decref(root);
    free(out);
    free(err);

    assert_int_equal(compare(&out, &err, 2, o, n), SB_EXIT_OK);
    assert_non_null(strstr(out, "0 of 200 matched rows changed;"));
    assert_non_null(strstr(out, "199 of 200 matched rows noisy: most rows are"));
    const char *row = strstr(out, "sim/v017 ");
    assert_non_null(row);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row, "\n"), row);
    assert_non_null(strstr(line, "noisy (spread "));
    assert_null(strstr(line, "slower"));
    free(out);
    free(err);
}

/* Runs without samples (files that predate them): every row is judged by
 * the spread rule, and its interval column says so. */
static void without_samples_the_spread_rule(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(compare(&out, &err, 3, "--all", old_path, new_path), SB_EXIT_OK);
    assert_int_equal(count_lines_with(out, "spread rule (no samples)"), 10);
    free(out);
    free(err);
    assert_int_equal(compare(&out, &err, 4, "--format", "markdown", old_path, new_path),
                     SB_EXIT_OK);
    assert_non_null(strstr(out, "| spread rule (no samples) | +20.0% | slower by 20.0% |"));
    free(out);
    free(err);
}

/* Two runs with --counters whose times agree: a row whose counts moved
 * past 2% (sectors per request doubled: a code change the time may hide)
 * is listed with both counts, in the table and the JSON; one that moved
 * less is not. */
static void counters_that_moved(void **state)
{
    (void)state;
    sb_run o, n;
    run_fixture(&o);
    run_fixture(&n);
    for (size_t i = 0; i < o.nresults; i++) {
        for (int c = 0; c < SB_COUNTER_COUNT; c++)
            o.results[i].counts[c] = n.results[i].counts[c] = NAN;
        o.results[i].counted = n.results[i].counted = o.results[i].device_slot == 0;
        o.results[i].counts[SB_COUNTER_GLOBAL_LD_SECTORS] = 1048576;
        n.results[i].counts[SB_COUNTER_GLOBAL_LD_SECTORS] = 1048576 * 1.01;
    }
    n.results[1].counts[SB_COUNTER_GLOBAL_LD_SECTORS] = 2097152; /* cuda naive_read */
    save(&o, old_path);
    save(&n, new_path);
    char *out, *err;
    int rc = compare(&out, &err, 2, old_path, new_path);
    if (rc)
        fail_msg("compare: %d: %s", rc, err);
    assert_non_null(strstr(out, "Counters that moved by more than 2% (--counters in both runs):"));
    assert_non_null(strstr(out, "/naive_read on cuda: global_ld_sectors 1048576 -> 2097152"));
    assert_int_equal(count_lines_with(out, "global_ld_sectors "), 1);
    free(out);
    free(err);
    assert_int_equal(compare(&out, &err, 4, "--format", "json", old_path, new_path), 0);
    json_t *root = json_loads(out, 0, NULL);
    assert_non_null(root);
    size_t i;
    json_t *row, *moved = NULL;
    json_array_foreach(json_object_get(root, "rows"), i, row)
        if (json_object_get(row, "counters_moved"))
            moved = json_object_get(json_object_get(row, "counters_moved"), "global_ld_sectors");
    assert_non_null(moved);
    assert_double_equal(json_number_value(json_array_get(moved, 1)), 2097152, 0);
    json_decref(root);
    free(out);
    free(err);
    sb_run_free(&o);
    sb_run_free(&n);
}

static void usage_errors(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(compare(&out, &err, 1, old_path), SB_EXIT_USAGE);
    assert_int_equal(lines(err), 1);
    assert_string_equal(out, "");
    free(out);
    free(err);
    assert_int_equal(compare(&out, &err, 4, "--threshold", "-3", old_path, new_path),
                     SB_EXIT_USAGE);
    assert_int_equal(lines(err), 1);
    free(out);
    free(err);
    assert_int_equal(compare(&out, &err, 4, "--format", "xml", old_path, new_path), SB_EXIT_USAGE);
    free(out);
    free(err);
    assert_int_equal(compare(&out, &err, 1, "--help"), SB_EXIT_OK);
    assert_non_null(strstr(out, "Usage: simtbench compare"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(without_host_times),
        cmocka_unit_test(without_kernel_resources),
        cmocka_unit_test(planted_slowdown_and_nothing_else),
        cmocka_unit_test(header_names_what_differs),
        cmocka_unit_test(bad_files_give_one_line),
        cmocka_unit_test(sampled_runs_judged_by_the_interval),
        cmocka_unit_test(noisy_runs_call_nothing_changed),
        cmocka_unit_test(without_samples_the_spread_rule),
        cmocka_unit_test(counters_that_moved),
        cmocka_unit_test(usage_errors),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
