/* Pairing by sorting gives the rows that searching gave: on random runs
 * (devices, repeats of one variant on one device, sizes, results of a
 * device the run does not have) the rows, their order and each
 * experiment's results and rows match a plain search written out here;
 * and a run of more experiments than a report once had room for keeps
 * every one. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "analysis/analysis.h"
#include "analysis/crossapi.h"

static void random_run(sb_run *run, unsigned seed, size_t n, int ndevices)
{
    memset(run, 0, sizeof *run);
    srand(seed);
    run->ndevices = ndevices;
    for (int d = 0; d < ndevices; d++)
        snprintf(run->devices[d].backend, sizeof run->devices[d].backend, "b%d", d % 2);
    for (size_t i = 0; i < n; i++) {
        sb_result r;
        memset(&r, 0, sizeof r);
        /* now and then a slot out of the run's range, which pairs with nothing */
        r.device_slot = rand() % 23 == 0 ? ndevices : rand() % ndevices;
        snprintf(r.backend, sizeof r.backend, "b%d", r.device_slot % 2);
        snprintf(r.experiment, sizeof r.experiment, "e%d", rand() % 4);
        snprintf(r.variant, sizeof r.variant, "v%d", rand() % 5);
        r.rows = 64 << (rand() % 2);
        r.cols = 64;
        r.ms.median = 0.1 + (rand() % 100) / 100.0;
        r.quantity = SB_QUANTITY_BANDWIDTH;
        assert_int_equal(sb_run_add(run, &r), 0);
    }
}

static int same_row(const sb_result *a, const sb_result *b)
{
    return strcmp(a->experiment, b->experiment) == 0 && strcmp(a->variant, b->variant) == 0 &&
           a->rows == b->rows && a->cols == b->cols;
}

/* The rule, by search: each result joins the first row of its variant
 * and size that has no result yet on its device, else starts one. */
static size_t search_rows(const sb_run *run, sb_cross_row *rows, long *pool)
{
    size_t nrows = 0;
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (r->device_slot < 0 || r->device_slot >= run->ndevices)
            continue;
        sb_cross_row *row = NULL;
        for (size_t j = 0; j < nrows && !row; j++)
            if (same_row(&run->results[rows[j].first], r) && rows[j].result[r->device_slot] < 0)
                row = &rows[j];
        if (!row) {
            row = &rows[nrows++];
            row->first = i;
            row->result = pool + (nrows - 1) * SB_RUN_MAX_DEVICES;
            for (int s = 0; s < SB_RUN_MAX_DEVICES; s++)
                row->result[s] = -1;
        }
        row->result[r->device_slot] = (long)i;
    }
    return nrows;
}

static void check_experiments(const sb_run *run, const sb_crossapi *x)
{
    size_t seen = 0;
    for (size_t i = 0; i < run->nresults; i++) {
        int known = 0;
        for (size_t e = 0; e < seen; e++)
            known |= strcmp(run->results[x->experiments[e].first].experiment,
                            run->results[i].experiment) == 0;
        if (known)
            continue;
        assert_true(seen < x->nexperiments);
        const sb_cross_experiment *e = &x->experiments[seen++];
        assert_int_equal(e->first, i);
        size_t k = 0, rows = 0;
        for (size_t m = i; m < run->nresults; m++)
            if (strcmp(run->results[m].experiment, run->results[i].experiment) == 0)
                assert_int_equal(e->results[k++], m);
        assert_int_equal(e->nresults, k);
        for (size_t j = 0; j < x->nrows; j++)
            if (strcmp(run->results[x->rows[j].first].experiment, run->results[i].experiment) ==
                0)
                assert_int_equal(e->rows[rows++], j);
        assert_int_equal(e->nrows, rows);
    }
    assert_int_equal(x->nexperiments, seen);
}

static void sorted_pairs_match_searched_pairs(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 40; seed++) {
        sb_run run;
        int ndevices = 1 + (int)(seed % 4);
        random_run(&run, seed, 50 + 13 * seed, ndevices);
        sb_cross_row *want = calloc(run.nresults, sizeof *want);
        long *pool = calloc(run.nresults * SB_RUN_MAX_DEVICES, sizeof *pool);
        size_t nwant = search_rows(&run, want, pool);
        sb_crossapi x;
        assert_int_equal(sb_crossapi_build(&run, 0, &x), 0);
        assert_int_equal(x.nrows, nwant);
        for (size_t j = 0; j < nwant; j++) {
            assert_int_equal(x.rows[j].first, want[j].first);
            for (int s = 0; s < ndevices; s++) {
                assert_int_equal(x.rows[j].result[s], want[j].result[s]);
                if (want[j].result[s] >= 0)
                    assert_int_equal(x.row_of[want[j].result[s]], j);
            }
        }
        check_experiments(&run, &x);
        sb_crossapi_free(&x);
        free(want);
        free(pool);
        sb_run_free(&run);
    }
}

/* Experiment after experiment, one result each: every one is reported. */
static void every_experiment_is_reported(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    snprintf(run.devices[0].backend, sizeof run.devices[0].backend, "b0");
    for (int e = 0; e < 100; e++) {
        sb_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.backend, sizeof r.backend, "b0");
        snprintf(r.experiment, sizeof r.experiment, "exp%03d", e);
        snprintf(r.variant, sizeof r.variant, "v");
        r.rows = r.cols = 16;
        r.ms.median = 1;
        assert_int_equal(sb_run_add(&run, &r), 0);
    }
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(a.cross.nexperiments, 100);
    for (sb_format f = SB_FORMAT_TABLE; f <= SB_FORMAT_MARKDOWN; f++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_int_equal(sb_report_write(f, &a, out), 0);
        fclose(out);
        assert_non_null(strstr(buf, "exp099"));
        free(buf);
    }
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorted_pairs_match_searched_pairs),
        cmocka_unit_test(every_experiment_is_reported),
    };
    SB_TEST_MAIN(tests);
}
