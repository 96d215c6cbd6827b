#include "analysis/compare_match.h"
#include "analysis/crossapi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A result with what it is matched on: its device's label, experiment,
 * variant and size; then its place in its run. */
typedef struct keyed {
    char label[SB_SLOT_LABEL];
    const sb_result *r;
    size_t i;
} keyed;

static int key_order(const keyed *a, const keyed *b)
{
    int c = strcmp(a->label, b->label);
    if (!c)
        c = strcmp(a->r->experiment, b->r->experiment);
    if (!c)
        c = strcmp(a->r->variant, b->r->variant);
    if (!c)
        c = (a->r->rows > b->r->rows) - (a->r->rows < b->r->rows);
    if (!c)
        c = (a->r->cols > b->r->cols) - (a->r->cols < b->r->cols);
    return c;
}

static int by_key(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = key_order(a, b);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The run's results keyed and sorted; NULL out of memory. */
static keyed *sorted_keys(const sb_run *run)
{
    keyed *k = malloc((run->nresults + 1) * sizeof *k);
    char (*labels)[SB_SLOT_LABEL] = malloc(sizeof *labels * SB_RUN_MAX_DEVICES);
    if (!k || !labels) {
        free(k);
        free(labels);
        return NULL;
    }
    sb_slot_labels(run, labels); /* once, not once a result */
    for (size_t i = 0; i < run->nresults; i++) {
        k[i].r = &run->results[i];
        k[i].i = i;
        int slot = k[i].r->device_slot;
        snprintf(k[i].label, sizeof k[i].label, "%s",
                 slot >= 0 && slot < run->ndevices ? labels[slot] : k[i].r->backend);
    }
    free(labels);
    qsort(k, run->nresults, sizeof *k, by_key);
    return k;
}

/* Where the new results of old result ko's key start in nk (sorted), or
 * nn when there are none. */
static size_t first_of_key(const keyed *nk, size_t nn, const keyed *ko)
{
    size_t lo = 0, hi = nn;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_order(&nk[mid], ko) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nn && key_order(&nk[lo], ko) == 0 ? lo : nn;
}

/* Within one key the new rows are taken in run order, so each key keeps
 * a cursor. */
sb_compare_match *sb_compare_match_rows(const sb_run *o, const sb_run *n, double threshold,
                                        size_t *count)
{
    sb_compare_match *m = calloc(o->nresults + n->nresults + 1, sizeof *m);
    char *taken = calloc(n->nresults + 1, 1);
    size_t *cursor = malloc((n->nresults + 1) * sizeof *cursor);
    keyed *ok = sorted_keys(o), *nk = sorted_keys(n);
    size_t k = 0;
    if (m && taken && cursor && ok && nk) {
        for (size_t j = 0; j < n->nresults; j++)
            cursor[j] = j;
        for (size_t i = 0; i < o->nresults; i++) {
            const keyed *key = &ok[i];
            size_t at = first_of_key(nk, n->nresults, key);
            size_t next = at < n->nresults ? cursor[at] : at;
            sb_compare_match *x = &m[key->i];
            x->old_i = (long)key->i;
            x->new_i = -1;
            if (next < n->nresults && key_order(&nk[next], key) == 0) {
                cursor[at] = next + 1;
                taken[nk[next].i] = 1;
                x->new_i = (long)nk[next].i;
                x->v = sb_verdict_judge(o, key->r, n, nk[next].r, threshold);
            }
        }
        k = o->nresults;
        for (size_t j = 0; j < n->nresults; j++)
            if (!taken[j])
                m[k++] = (sb_compare_match){-1, (long)j, {0}};
    } else {
        free(m);
        m = NULL;
    }
    free(taken);
    free(cursor);
    free(ok);
    free(nk);
    *count = k;
    return m;
}
