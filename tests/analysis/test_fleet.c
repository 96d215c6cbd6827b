/* The fleet and its outlier rule (run/fleet.h) on runs made here: like
 * devices are grouped by backend and name, the group's median, fastest and
 * slowest are its figures', and a device is named an outlier exactly when
 * it is more than 5% and more than 3 scaled MADs below its peers' median
 * speed and the verdict from both sides' repetitions finds it slower; a
 * faster device, a noisy fleet and a difference the repetitions cannot
 * show are not.  The labels that name the devices: the index where a
 * backend has several, the host where a merged run spans hosts. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/crossapi.h"
#include "analysis/fleet.h"

#define REPS 12

static void add_device(sb_run *run, const char *backend, const char *name, int index)
{
    sb_run_device *d = &run->devices[run->ndevices++];
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "%s", backend);
    snprintf(d->info.name, sizeof d->info.name, "%s", name);
    d->info.device_index = index;
}

/* A result of one variant on slot, REPS repetitions around median ms,
 * each jitter apart in turn (so that the median is median). */
static void add_result(sb_run *run, int slot, const char *variant, double median, double jitter)
{
    sb_result r;
    double samples[REPS];
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", run->devices[slot].backend);
    snprintf(r.experiment, sizeof r.experiment, "copyish");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.device_slot = slot;
    r.rows = r.cols = 64;
    r.quantity = SB_QUANTITY_BANDWIDTH;
    r.bytes = 1e6;
    for (int i = 0; i < REPS; i++)
        samples[i] = median * (1.0 + jitter * ((i % 3) - 1));
    assert_int_equal(sb_stats_compute(samples, REPS, &r.ms), 0);
    r.value = r.bytes / (r.ms.median * 1e6);
    r.samples = samples;
    r.nsamples = REPS;
    r.reps = REPS;
    assert_int_equal(sb_run_add(run, &r), 0);
}

static sb_run *new_run(void)
{
    sb_run *run = calloc(1, sizeof *run);
    assert_non_null(run);
    snprintf(run->host, sizeof run->host, "node1");
    return run;
}

static void analyse(sb_run *run, sb_analysis *a)
{
    assert_int_equal(sb_analyse_saved(run, NULL, a), 0);
}

/* The fleet row of variant v's group on slot 0's backend, or NULL. */
static const sb_fleet_row *row_of(const sb_analysis *a, const char *v, int first)
{
    for (size_t j = 0; j < a->fleet.nrows; j++) {
        const sb_fleet_row *fr = &a->fleet.rows[j];
        if (strcmp(a->run->results[a->cross.rows[fr->row].first].variant, v) == 0 &&
            fr->first == first)
            return fr;
    }
    return NULL;
}

/* Eight like GPUs, one 20% slow on one variant: it alone is named, with
 * how far below, and the verdict against the peer nearest the median. */
static void one_slow_of_eight(void **state)
{
    (void)state;
    sb_run *run = new_run();
    for (int d = 0; d < 8; d++)
        add_device(run, "b", "GPU X", d);
    static const double ms[8] = {1.00, 1.01, 0.99, 1.00, 1.02, 1.25, 0.995, 1.005};
    for (int d = 0; d < 8; d++) {
        add_result(run, d, "copy", ms[d], 0.002);
        add_result(run, d, "even", 1.0 + 0.001 * d, 0.002);
    }
    sb_analysis a;
    analyse(run, &a);
    const sb_fleet_row *fr = row_of(&a, "copy", 0);
    assert_non_null(fr);
    assert_int_equal(fr->ndevices, 8);
    assert_int_equal(fr->fastest, 2);
    assert_int_equal(fr->slowest, 5);
    assert_int_equal(fr->noutliers, 1);
    const sb_outlier *o = &a.fleet.outliers[fr->outlier];
    assert_int_equal(o->slot, 5);
    /* Peers' median speed: of the seven others, 1 / 1.00. */
    assert_double_equal(o->below, 1.0 - 1.0 / 1.25, 1e-9);
    assert_true(o->mads > SB_OUTLIER_MADS);
    assert_int_equal(o->verdict.kind, SB_VERDICT_SLOWER);
    assert_true(o->against == 0 || o->against == 3); /* both at the median, 1.00 ms */
    double values[8];
    for (int d = 0; d < 8; d++)
        values[d] = 1.0 / ms[d];
    assert_double_equal(fr->median_value, sb_median_of(values, 8), 1e-9);
    const sb_fleet_row *even = row_of(&a, "even", 0);
    assert_non_null(even);
    assert_int_equal(even->noutliers, 0);
    assert_int_equal((int)a.fleet.noutliers, 1);
    sb_analysis_free(&a);
    sb_run_free(run);
    free(run);
}

/* The thresholds: 4% below is not enough; 6% is, where the peers agree;
 * a fleet whose peers spread widely must be left further behind. */
static void thresholds(void **state)
{
    (void)state;
    static const struct {
        double slow;   /* the device's median, the peers' being 1.00 */
        double spread; /* how far apart the peers' medians are */
        int flagged;
    } cases[] = {
        {1.0 / 0.96, 0.0, 0}, {1.0 / 0.94, 0.0, 1}, {1.0 / 0.94, 0.04, 0}, {1.0 / 0.70, 0.04, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sb_run *run = new_run();
        for (int d = 0; d < 5; d++)
            add_device(run, "b", "GPU X", d);
        for (int d = 0; d < 4; d++)
            add_result(run, d, "v", 1.0 + cases[c].spread * (d - 1.5), 0.001);
        add_result(run, 4, "v", cases[c].slow, 0.001);
        sb_analysis a;
        analyse(run, &a);
        const sb_fleet_row *fr = row_of(&a, "v", 0);
        assert_non_null(fr);
        if (fr->noutliers != (size_t)cases[c].flagged)
            fail_msg("case %zu: %zu outliers, expected %d", c, fr->noutliers, cases[c].flagged);
        if (cases[c].flagged)
            assert_int_equal(a.fleet.outliers[fr->outlier].slot, 4);
        sb_analysis_free(&a);
        sb_run_free(run);
        free(run);
    }
}

/* Two devices: the slower by more than 5% is named, never the faster; a
 * difference that noisy repetitions do not show is not. */
static void pairs(void **state)
{
    (void)state;
    sb_run *run = new_run();
    add_device(run, "b", "GPU X", 0);
    add_device(run, "b", "GPU X", 1);
    add_result(run, 0, "clear", 1.00, 0.001);
    add_result(run, 1, "clear", 1.10, 0.001);
    add_result(run, 0, "noisy", 1.00, 0.40);
    add_result(run, 1, "noisy", 1.10, 0.40);
    sb_analysis a;
    analyse(run, &a);
    const sb_fleet_row *clear = row_of(&a, "clear", 0), *noisy = row_of(&a, "noisy", 0);
    assert_non_null(clear);
    assert_non_null(noisy);
    assert_int_equal(clear->noutliers, 1);
    assert_int_equal(a.fleet.outliers[clear->outlier].slot, 1);
    assert_int_equal(a.fleet.outliers[clear->outlier].against, 0);
    assert_double_equal(a.fleet.outliers[clear->outlier].mads, 0.0, 0); /* one peer: no MAD */
    assert_int_equal(noisy->noutliers, 0);
    sb_analysis_free(&a);
    sb_run_free(run);
    free(run);
}

/* Peers share a backend and a name: CUDA and OpenCL on one GPU, or two
 * models, are groups of their own, and a group of one has no row. */
static void groups(void **state)
{
    (void)state;
    sb_run *run = new_run();
    add_device(run, "b", "GPU X", 0);
    add_device(run, "c", "GPU X", 0);
    add_device(run, "b", "GPU X", 1);
    add_device(run, "b", "GPU Y", 2);
    add_device(run, "c", "GPU X", 1);
    for (int d = 0; d < 5; d++)
        add_result(run, d, "v", d == 4 ? 2.0 : 1.0, 0.001);
    sb_analysis a;
    analyse(run, &a);
    assert_int_equal((int)a.fleet.nrows, 2);
    const sb_fleet_row *b = row_of(&a, "v", 0), *c = row_of(&a, "v", 1);
    assert_non_null(b);
    assert_non_null(c);
    assert_int_equal(b->ndevices, 2); /* slots 0 and 2, not the GPU Y */
    assert_int_equal(c->ndevices, 2);
    assert_int_equal(b->noutliers, 0);
    assert_int_equal(c->noutliers, 1);
    assert_int_equal(a.fleet.outliers[c->outlier].slot, 4);
    assert_true(sb_fleet_possible(run));
    sb_analysis_free(&a);
    run->ndevices = 2; /* b and c: no two alike */
    assert_false(sb_fleet_possible(run));
    sb_run_free(run);
    free(run);
}

/* One device a run opened twice is not a fleet of two; the same device in
 * two runs merged is. */
static void twice_and_merged(void **state)
{
    (void)state;
    sb_run *run = new_run();
    add_device(run, "b", "GPU X", 0);
    add_device(run, "b", "GPU X", 0);
    add_result(run, 0, "v", 1.0, 0.001);
    add_result(run, 1, "v", 1.5, 0.001);
    assert_false(sb_fleet_possible(run));
    sb_analysis a;
    analyse(run, &a);
    assert_int_equal((int)a.fleet.nrows, 0);
    sb_analysis_free(&a);
    run->sources = calloc(2, sizeof *run->sources);
    assert_non_null(run->sources);
    run->nsources = 2;
    run->devices[1].source = 1;
    assert_true(sb_fleet_possible(run));
    analyse(run, &a);
    assert_int_equal((int)a.fleet.nrows, 1);
    assert_int_equal(a.fleet.rows[0].ndevices, 2);
    assert_int_equal(a.fleet.rows[0].noutliers, 1);
    assert_int_equal(a.fleet.outliers[0].slot, 1);
    signed char states[2];
    sb_fleet_result_states(run, &a.fleet, &a.cross, states);
    assert_int_equal(states[0], 0);
    assert_int_equal(states[1], 1);
    sb_analysis_free(&a);
    sb_run_free(run);
    free(run);
}

/* Labels: a backend alone where it has one device; with its index where
 * it has several; the host first where the devices span hosts; "#k" where
 * two would still read the same. */
static void labels(void **state)
{
    (void)state;
    sb_run *run = new_run();
    add_device(run, "b", "GPU X", 0);
    add_device(run, "c", "GPU X", 0);
    add_device(run, "b", "GPU X", 1);
    char (*l)[SB_SLOT_LABEL] = calloc(SB_RUN_MAX_DEVICES, sizeof *l);
    assert_non_null(l);
    sb_slot_labels(run, l);
    assert_string_equal(l[0], "b:0");
    assert_string_equal(l[1], "c");
    assert_string_equal(l[2], "b:1");
    add_device(run, "c", "GPU X", 0); /* c's device opened again */
    sb_slot_labels(run, l);
    assert_string_equal(l[1], "c#1");
    assert_string_equal(l[3], "c#2");
    /* Merged from two hosts. */
    run->sources = calloc(2, sizeof *run->sources);
    assert_non_null(run->sources);
    run->nsources = 2;
    snprintf(run->sources[0].host, sizeof run->sources[0].host, "gpu01");
    snprintf(run->sources[1].host, sizeof run->sources[1].host, "gpu02");
    run->devices[2].source = 1;
    run->devices[3].source = 1;
    sb_slot_labels(run, l);
    assert_string_equal(l[0], "gpu01/b");
    assert_string_equal(l[1], "gpu01/c");
    assert_string_equal(l[2], "gpu02/b");
    assert_string_equal(l[3], "gpu02/c");
    char one[SB_SLOT_LABEL];
    sb_slot_label(run, 2, one, sizeof one);
    assert_string_equal(one, "gpu02/b");
    /* Two tasks bound to a GPU each: both device 0, told by address. */
    run->devices[3] = run->devices[2];
    snprintf(run->devices[2].info.pci_bus_id, sizeof run->devices[2].info.pci_bus_id,
             "0000:3b:00.0");
    snprintf(run->devices[3].info.pci_bus_id, sizeof run->devices[3].info.pci_bus_id,
             "0001:86:00.0");
    sb_slot_labels(run, l);
    assert_string_equal(l[2], "gpu02/b@3b:00.0");
    assert_string_equal(l[3], "gpu02/b@0001:86:00.0");
    free(l);
    sb_run_free(run);
    free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_slow_of_eight), cmocka_unit_test(thresholds),
        cmocka_unit_test(pairs),             cmocka_unit_test(groups),
        cmocka_unit_test(twice_and_merged), cmocka_unit_test(labels),
    };
    SB_TEST_MAIN(tests);
}
