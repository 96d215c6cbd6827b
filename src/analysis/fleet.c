/* The fleet and its outliers (fleet.h). */
#include "analysis/fleet.h"
#include "analysis/crossapi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double sb_median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Whether two devices are peers: one backend, one device name, and not
   one device that one run opened twice (--backend opencl,opencl); the
   same device in two runs merged is two members of the fleet. */
static int peers(const sb_run_device *a, const sb_run_device *b)
{
    int twice = a->source == b->source && a->info.platform_index == b->info.platform_index &&
                a->info.device_index == b->info.device_index;
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->info.name, b->info.name) == 0 &&
           !twice;
}

int sb_fleet_possible(const sb_run *run)
{
    for (int i = 0; i < run->ndevices; i++)
        for (int j = i + 1; j < run->ndevices; j++)
            if (peers(&run->devices[i], &run->devices[j]))
                return 1;
    return 0;
}

/* One group of a row: its slots, and each one's result and speed. */
typedef struct group {
    int n;
    int slot[SB_RUN_MAX_DEVICES];
    const sb_result *r[SB_RUN_MAX_DEVICES];
    double speed[SB_RUN_MAX_DEVICES];
} group;

/* The peers of slot first in row (the slots after it not taken yet),
   marking them taken; only results with a time count. */
static void gather(const sb_run *run, const sb_crossapi *x, const sb_cross_row *row, int first,
                   int *taken, group *g)
{
    g->n = 0;
    for (int s = first; s < x->ndevices; s++) {
        if (taken[s] || row->result[s] < 0 ||
            (s != first && !peers(&run->devices[first], &run->devices[s])))
            continue;
        const sb_result *r = &run->results[row->result[s]];
        if (!(r->ms.median > 0) || !isfinite(r->ms.median))
            continue;
        taken[s] = 1;
        g->slot[g->n] = s;
        g->r[g->n] = r;
        g->speed[g->n++] = 1.0 / r->ms.median;
    }
}

/* Whether member i of g is an outlier by the rule, into *o. */
static int judge_member(const group *g, int i, sb_outlier *o)
{
    double others[SB_RUN_MAX_DEVICES], dev[SB_RUN_MAX_DEVICES];
    int m = 0;
    for (int k = 0; k < g->n; k++)
        if (k != i)
            others[m++] = g->speed[k];
    double median = sb_median_of(others, (size_t)m);
    for (int k = 0; k < m; k++)
        dev[k] = fabs(others[k] - median);
    double mad = SB_MAD_SCALE * sb_median_of(dev, (size_t)m);
    double short_by = median - g->speed[i];
    if (!(g->speed[i] < median * (1.0 - SB_OUTLIER_BELOW)) || !(short_by > SB_OUTLIER_MADS * mad))
        return 0;
    int nearest = -1;
    for (int k = 0; k < g->n; k++)
        if (k != i && (nearest < 0 || fabs(g->speed[k] - median) <
                                          fabs(g->speed[nearest] - median)))
            nearest = k;
    o->slot = g->slot[i];
    o->below = 1.0 - g->speed[i] / median;
    o->mads = mad > 0 ? short_by / mad : 0.0;
    o->against = g->slot[nearest];
    /* Far outside the peers' own spread already (the MADs above): the
       noise of a row's repetitions does not withhold this verdict. */
    o->verdict = sb_verdict_of_times(g->r[nearest], g->r[i], 0.0);
    return o->verdict.kind == SB_VERDICT_SLOWER;
}

/* Room for one more of n items of size bytes in *p, which holds *have. */
static int grow(void **p, size_t *have, size_t n, size_t size)
{
    if (n < *have)
        return 0;
    size_t want = *have ? 2 * *have : 16;
    void *q = realloc(*p, want * size);
    if (!q)
        return -1;
    *p = q;
    *have = want;
    return 0;
}

/* g as row j's next fleet row, with its outliers; 0 or -1 out of memory. */
static int add_group(const group *g, size_t j, sb_fleet *f, size_t *rows_have,
                     size_t *outliers_have)
{
    if (grow((void **)&f->rows, rows_have, f->nrows, sizeof *f->rows))
        return -1;
    sb_fleet_row *fr = &f->rows[f->nrows++];
    double values[SB_RUN_MAX_DEVICES];
    int fastest = 0, slowest = 0;
    for (int k = 0; k < g->n; k++) {
        values[k] = g->r[k]->value;
        fastest = g->speed[k] > g->speed[fastest] ? k : fastest;
        slowest = g->speed[k] < g->speed[slowest] ? k : slowest;
    }
    *fr = (sb_fleet_row){j, g->slot[0], g->n, sb_median_of(values, (size_t)g->n),
                         g->slot[fastest], g->slot[slowest], f->noutliers, 0};
    for (int k = 0; k < g->n; k++) {
        sb_outlier o;
        if (!judge_member(g, k, &o))
            continue;
        if (grow((void **)&f->outliers, outliers_have, f->noutliers, sizeof *f->outliers))
            return -1;
        f->outliers[f->noutliers++] = o;
        fr->noutliers++;
    }
    return 0;
}

int sb_fleet_build(const sb_run *run, const sb_crossapi *x, sb_fleet *f)
{
    memset(f, 0, sizeof *f);
    size_t rows_have = 0, outliers_have = 0;
    f->first_of = calloc(x->nrows + 1, sizeof *f->first_of);
    f->count_of = calloc(x->nrows + 1, sizeof *f->count_of);
    group *g = malloc(sizeof *g);
    int rc = f->first_of && f->count_of && g ? 0 : -1, possible = sb_fleet_possible(run);
    for (size_t j = 0; rc == 0 && possible && j < x->nrows; j++) {
        int taken[SB_RUN_MAX_DEVICES] = {0};
        f->first_of[j] = f->nrows;
        for (int s = 0; rc == 0 && s < x->ndevices; s++) {
            if (taken[s] || x->rows[j].result[s] < 0)
                continue;
            gather(run, x, &x->rows[j], s, taken, g);
            if (g->n >= 2)
                rc = add_group(g, j, f, &rows_have, &outliers_have);
        }
        f->count_of[j] = f->nrows - f->first_of[j];
    }
    free(g);
    if (rc)
        sb_fleet_free(f);
    return rc;
}

void sb_fleet_free(sb_fleet *f)
{
    free(f->rows);
    free(f->first_of);
    free(f->count_of);
    free(f->outliers);
    memset(f, 0, sizeof *f);
}

void sb_fleet_result_states(const sb_run *run, const sb_fleet *f, const sb_crossapi *x,
                            signed char *state)
{
    memset(state, -1, run->nresults);
    for (size_t j = 0; j < f->nrows; j++) {
        const sb_fleet_row *fr = &f->rows[j];
        const sb_cross_row *row = &x->rows[fr->row];
        for (int s = 0; s < x->ndevices; s++)
            if (row->result[s] >= 0 && (s == fr->first ||
                                        peers(&run->devices[fr->first], &run->devices[s])))
                state[row->result[s]] = 0;
        for (size_t k = 0; k < fr->noutliers; k++)
            state[row->result[f->outliers[fr->outlier + k].slot]] = 1;
    }
}
