/* Merging runs (run/merge.h): each run's devices follow the ones before,
 * keeping the run they came from; results move with their devices; a
 * merged result merges again without losing a run; the same run twice,
 * and more devices than a result holds, are refused with nothing changed.
 * And --save's escapes (run/launcher.h), which name each task's file. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "plan/launcher.h"
#include "analysis/merge.h"

/* A run on host of ndevices devices, one result each, started at date. */
static sb_run *one_run(const char *host, const char *date, int ndevices)
{
    sb_run *run = calloc(1, sizeof *run);
    assert_non_null(run);
    snprintf(run->host, sizeof run->host, "%s", host);
    snprintf(run->date, sizeof run->date, "%s", date);
    snprintf(run->tool_version, sizeof run->tool_version, "9.9");
    snprintf(run->provenance.revision, sizeof run->provenance.revision, "rev-%s", host);
    snprintf(run->provenance.command, sizeof run->provenance.command, "simtbench --device all");
    for (int d = 0; d < ndevices; d++) {
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "b");
        run->devices[d].info.device_index = d;
        sb_result r;
        memset(&r, 0, sizeof r);
        r.device_slot = d;
        snprintf(r.variant, sizeof r.variant, "v%d", d);
        double samples[3] = {1, 2, 3};
        r.samples = samples;
        r.nsamples = 3;
        assert_int_equal(sb_run_add(run, &r), 0);
    }
    run->ndevices = ndevices;
    snprintf(run->unavailable[0].backend, sizeof run->unavailable[0].backend, "c");
    snprintf(run->unavailable[0].reason, sizeof run->unavailable[0].reason, "no driver");
    run->nunavailable = 1;
    return run;
}

static void drop(sb_run *run)
{
    sb_run_free(run);
    free(run);
}

static void devices_keep_their_run(void **state)
{
    (void)state;
    sb_run *into = calloc(1, sizeof *into), *a = one_run("gpu01", "D1", 2),
           *b = one_run("gpu02", "D2", 3);
    char err[512];
    assert_int_equal(sb_run_merge(into, a, "a.json", err, sizeof err), 0);
    assert_int_equal(sb_run_merge(into, b, "b.json", err, sizeof err), 0);
    assert_int_equal(into->ndevices, 5);
    assert_int_equal(into->nsources, 2);
    assert_string_equal(into->sources[0].file, "a.json");
    assert_string_equal(into->sources[1].host, "gpu02");
    assert_string_equal(into->sources[1].provenance.revision, "rev-gpu02");
    assert_string_equal(into->sources[1].date, "D2");
    assert_int_equal((int)into->nresults, 5);
    for (size_t i = 0; i < into->nresults; i++) {
        const sb_result *r = &into->results[i];
        int d = r->device_slot;
        assert_int_equal(into->devices[d].source, d < 2 ? 0 : 1);
        /* each result still on the device it was measured on */
        char want[8];
        snprintf(want, sizeof want, "v%d", into->devices[d].info.device_index);
        assert_string_equal(r->variant, want);
        assert_int_equal((int)r->nsamples, 3);
        assert_double_equal(r->samples[2], 3, 0);
    }
    assert_string_equal(sb_run_device_host(into, 4), "gpu02");
    assert_int_equal(into->nunavailable, 2);
    assert_non_null(strstr(into->unavailable[1].reason, "gpu02"));

    /* A merged result merged again keeps its runs apart. */
    sb_run *again = calloc(1, sizeof *again), *c = one_run("gpu03", "D3", 1);
    assert_int_equal(sb_run_merge(again, c, "c.json", err, sizeof err), 0);
    assert_int_equal(sb_run_merge(again, into, "ab.json", err, sizeof err), 0);
    assert_int_equal(again->nsources, 3);
    assert_string_equal(again->sources[1].file, "a.json");
    assert_int_equal(again->devices[1].source, 1);
    assert_int_equal(again->devices[5].source, 2);
    assert_string_equal(sb_run_device_host(again, 5), "gpu02");

    /* The same run twice is refused, naming both files. */
    assert_int_equal(sb_run_merge(again, b, "b-copy.json", err, sizeof err), -1);
    assert_non_null(strstr(err, "b-copy.json"));
    assert_non_null(strstr(err, "b.json"));
    assert_int_equal(again->ndevices, 6);
    assert_int_equal(again->nsources, 3);
    drop(a);
    drop(b);
    drop(c);
    drop(into);
    drop(again);
}

static void no_more_than_a_result_holds(void **state)
{
    (void)state;
    sb_run *into = calloc(1, sizeof *into);
    char err[512];
    for (int i = 0; i < SB_RUN_MAX_DEVICES / 8; i++) {
        char date[16];
        snprintf(date, sizeof date, "D%d", i);
        sb_run *r = one_run("h", date, 8);
        assert_int_equal(sb_run_merge(into, r, "r.json", err, sizeof err), 0);
        drop(r);
    }
    sb_run *one = one_run("h", "last", 1);
    assert_int_equal(sb_run_merge(into, one, "one.json", err, sizeof err), -1);
    assert_non_null(strstr(err, "more than a result holds"));
    assert_int_equal(into->ndevices, SB_RUN_MAX_DEVICES);
    assert_int_equal((int)into->nresults, SB_RUN_MAX_DEVICES);
    drop(one);
    drop(into);
}

static const char *expand(const char *pattern, const sb_save_values *v)
{
    static char out[256], err[512];
    if (sb_save_expand(pattern, v, out, sizeof out, err, sizeof err))
        return err;
    return out;
}

static void save_escapes(void **state)
{
    (void)state;
    sb_save_values v = {.host = "gpu07", .device = "3", .job = "4242", .task = "11"};
    assert_string_equal(expand("run-%h-%d-%j-%t.json", &v), "run-gpu07-3-4242-11.json");
    assert_string_equal(expand("100%%/%h", &v), "100%/gpu07");
    assert_string_equal(expand("plain.json", &v), "plain.json");
    v.host = "a/b";
    assert_string_equal(expand("dir/%h.json", &v), "dir/a_b.json"); /* a value adds no folder */
    assert_non_null(strstr(expand("r-%x.json", &v), "unknown escape '%x'"));
    assert_non_null(strstr(expand("r-%", &v), "lone '%'"));
    v.job = NULL;
    assert_non_null(strstr(expand("r-%j.json", &v), "SLURM_JOB_ID"));
    v.task = NULL;
    assert_non_null(strstr(expand("r-%t.json", &v), "SLURM_PROCID"));
    char small[8], err[128];
    assert_int_equal(sb_save_expand("run-%d.json", &v, small, sizeof small, err, sizeof err), -1);
    assert_non_null(strstr(err, "too long"));

    /* This process's values: the task from the first launcher variable set. */
    char host[64], job[64], task[64];
    unsetenv("SLURM_PROCID");
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv("PMI_RANK", "5", 1);
    setenv("SLURM_JOB_ID", "77", 1);
    sb_save_values_here(&v, "all", host, job, task, sizeof host);
    assert_string_equal(v.task, "5");
    assert_string_equal(v.job, "77");
    assert_string_equal(v.device, "all");
    assert_non_null(v.host);
    setenv("SLURM_PROCID", "2", 1);
    sb_save_values_here(&v, "all", host, job, task, sizeof host);
    assert_string_equal(v.task, "2");
    setenv("SLURM_PROCID", "two", 1);
    sb_save_values_here(&v, "all", host, job, task, sizeof host);
    assert_null(v.task);
    unsetenv("SLURM_PROCID");
    unsetenv("PMI_RANK");
    unsetenv("SLURM_JOB_ID");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(devices_keep_their_run),
        cmocka_unit_test(no_more_than_a_result_holds),
        cmocka_unit_test(save_escapes),
    };
    SB_TEST_MAIN(tests);
}
