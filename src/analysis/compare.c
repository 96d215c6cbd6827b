/* A comparison of two saved runs (compare.h). */
#include "analysis/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sb_compare_changed(const sb_compare_match *m)
{
    return m->old_i >= 0 && m->new_i >= 0 &&
           (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER);
}

int sb_compare_noisy(const sb_compare_match *m)
{
    return m->old_i >= 0 && m->new_i >= 0 && m->v.kind == SB_VERDICT_NOISY;
}

/* The counters both sides of a matched row counted that moved by more
 * than the counters' tolerance, into which[0..max): how many. */
static int counters_moved(const sb_run *o, const sb_run *n, const sb_compare_match *m, int *which,
                          int max)
{
    if (m->old_i < 0 || m->new_i < 0)
        return 0;
    const sb_result *a = &o->results[m->old_i], *b = &n->results[m->new_i];
    int k = 0;
    for (int c = 0; a->counted && b->counted && c < SB_COUNTER_COUNT && k < max; c++) {
        double x = a->counts[c], y = b->counts[c];
        double top = x > y ? x : y;
        if (isfinite(x) && isfinite(y) && top > 0 && fabs(x - y) > SB_COUNTER_TOLERANCE * top)
            which[k++] = c;
    }
    return k;
}

static sb_compare_tally count(const sb_compare_match *m, size_t nm)
{
    sb_compare_tally t = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < nm; i++) {
        if (m[i].old_i < 0)
            t.only_new++;
        else if (m[i].new_i < 0)
            t.only_old++;
        else {
            t.matched++;
            t.changed += sb_compare_changed(&m[i]);
            t.noisy += sb_compare_noisy(&m[i]);
        }
    }
    return t;
}

int sb_compare_analyse(const sb_run *o, const char *old_path, const sb_run *n,
                       const char *new_path, double threshold, int all, sb_comparison *c)
{
    memset(c, 0, sizeof *c);
    c->old_run = o;
    c->new_run = n;
    c->old_path = old_path;
    c->new_path = new_path;
    c->threshold = threshold;
    c->all = all;
    c->rows = sb_compare_match_rows(o, n, threshold, &c->nrows);
    c->moved = c->rows ? calloc(c->nrows ? c->nrows : 1, sizeof *c->moved) : NULL;
    if (!c->rows || !c->moved) {
        sb_comparison_free(c);
        return -1;
    }
    for (size_t i = 0; i < c->nrows; i++)
        c->moved[i].n = counters_moved(o, n, &c->rows[i], c->moved[i].which, SB_COUNTER_COUNT);
    c->ndifferences = sb_compare_differences(o, n, c->differences, SB_COMPARE_MAX_DIFFERENCES);
    c->tally = count(c->rows, c->nrows);
    return 0;
}

void sb_comparison_free(sb_comparison *c)
{
    free(c->rows);
    free(c->moved);
    memset(c, 0, sizeof *c);
}
