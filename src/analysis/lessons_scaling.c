#include "config.h"

#include "analysis/lessons_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "analysis/lessons_noise.h"
#include "experiments/variant.h"

/* A threads rule's "near the best": within 5% of the best bandwidth. */
#define NEAR_BEST 0.95

/* The coarsening factors a coarsen rule walks, at most. */
#define COARSE_MAX 16

/* The bin counts a private rule walks, at most. */
#define BINS_MAX 16

/* ---------------------------------------------------------------- coarsening */

typedef struct coarse_step {
    int factor;
    const sb_result *r;
} coarse_step;

/* Slot s's rows named the rule's tried prefix and a factor N ("coarse4"),
 * at the first one's size, in ascending N; their count. */
static int coarse_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                       const char *prefix, coarse_step *c)
{
    size_t len = strlen(prefix);
    int nc = 0;
    const sb_result *like = NULL;
    for (size_t j = 0; j < e->nrows && nc < COARSE_MAX; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strncmp(r->variant, prefix, len) != 0 || r->ms.median <= 0)
            continue;
        char *end;
        long f = strtol(r->variant + len, &end, 10);
        if (end == r->variant + len || *end || f < 1 || f > 1 << 20 ||
            (like && (r->rows != like->rows || r->cols != like->cols)))
            continue;
        like = like ? like : r;
        int k = nc++;
        for (; k > 0 && c[k - 1].factor > f; k--)
            c[k] = c[k - 1];
        c[k] = (coarse_step){(int)f, r};
    }
    return nc;
}

/* Where coarsening stops paying on slot s: walking the factors upwards,
 * each is held against the best so far by the verdict, and the first that
 * is not faster ends the walk ("coarsening by 4 pays 1.26x over coarse1;
 * by 8 no more: the same as by 4, within 2.0%"). */
int sb_lesson_coarse_clause(const sb_analysis *a, const sb_cross_experiment *e,
                            const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    coarse_step c[COARSE_MAX];
    int nc = coarse_rows(a, e, s, rule->tried, c), best = 0, k = 1;
    if (nc < 2)
        return 0;
    sb_verdict stop = {.kind = SB_VERDICT_NONE};
    for (; k < nc; k++) {
        sb_verdict v = sb_lesson_judge(a, c[best].r, c[k].r, 0.0);
        if (v.kind != SB_VERDICT_FASTER) {
            stop = v;
            break;
        }
        best = k;
    }
    if (best == 0 && stop.kind == SB_VERDICT_NONE)
        return 0;
    char f[32];
    buf[0] = '\0';
    if (best == 0)
        sb_lesson_add(buf, n, "coarsening does not pay here: %s is fastest", c[0].r->variant);
    else {
        sb_lesson_factor(c[0].r->ms.median / c[best].r->ms.median, f, sizeof f);
        sb_lesson_add(buf, n, "coarsening by %d pays %s over %s", c[best].factor, f,
                      c[0].r->variant);
    }
    if (stop.kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(&stop, "", "", why, sizeof why);
        sb_lesson_add(buf, n, "; %s against %s is %s: no further conclusion", c[k].r->variant,
            c[best].r->variant, why);
    } else if (stop.kind == SB_VERDICT_SAME && best == 0) {
        sb_lesson_add(buf, n, "; %s runs the same, within %.1f%%", c[k].r->variant,
            100.0 * sb_verdict_within(&stop));
    } else if (stop.kind == SB_VERDICT_SAME) {
        sb_lesson_add(buf, n, "; by %d no more: the same as by %d, within %.1f%%", c[k].factor,
            c[best].factor, 100.0 * sb_verdict_within(&stop));
    } else if (stop.kind == SB_VERDICT_SLOWER) {
        sb_lesson_factor(stop.by + 1.0, f, sizeof f);
        if (best == 0)
            sb_lesson_add(buf, n, "; %s is %s slower", c[k].r->variant, f);
        else
            sb_lesson_add(buf, n, "; by %d it is %s slower than by %d", c[k].factor, f,
                          c[best].factor);
    } else if (best > 1) {
        sb_lesson_factor(c[best - 1].r->ms.median / c[best].r->ms.median, f, sizeof f);
        sb_lesson_add(buf, n, ", %s more than by %d", f, c[best - 1].factor);
    }
    return 1;
}

/* ---------------------------------------------------------------- threads */

/* The threads a configuration keeps busy: those in flight, or, where the
 * API does not say (in_flight 0), those it launches. */
static double threads_of(const sb_result *r, int in_flight)
{
    if (in_flight)
        return (double)r->threads_in_flight;
    return (double)r->grid[0] * r->grid[1] * r->grid[2] * r->block[0] * r->block[1] *
           r->block[2];
}

/* Slot s's configurations (every row but the rule's against, the copy
 * reference): the best bandwidth, the most starved, and whether all say
 * their threads in flight; 0 with fewer than two. */
static int threads_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                        const char *reference, const sb_result **best,
                        const sb_result **worst, int *in_flight)
{
    int nr = 0;
    *best = *worst = NULL;
    *in_flight = 1;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strcmp(r->variant, reference) == 0 || r->value <= 0)
            continue;
        nr++;
        *in_flight &= r->threads_in_flight > 0;
        if (!*best || r->value > (*best)->value)
            *best = r;
        if (!*worst || r->value < (*worst)->value)
            *worst = r;
    }
    return nr >= 2;
}

/* Bandwidth against threads on slot s: the fewest threads within 5% of
 * the best, and what the most starved launch loses; or that the
 * configurations do not differ beyond 5% and the noise. */
int sb_lesson_threads_clause(const sb_analysis *a, const sb_cross_experiment *e,
                             const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    const sb_result *best, *worst, *fewest = NULL;
    int in_flight;
    if (!threads_rows(a, e, s, rule->against, &best, &worst, &in_flight))
        return 0;
    const char *unit = sb_quantity_unit(best->quantity);
    sb_verdict v = sb_lesson_judge(a, best, worst, 0.0);
    buf[0] = '\0';
    if (v.kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(&v, "", "", why, sizeof why);
        sb_lesson_add(buf, n,
                      "whether the threads matter, this run cannot tell: %s against %s is %s",
                      worst->variant, best->variant, why);
        return 1;
    }
    if (worst->value >= NEAR_BEST * best->value || v.kind != SB_VERDICT_SLOWER) {
        sb_lesson_add(buf, n,
                      "the threads do not matter here: every configuration is within %.0f%% of "
                      "the best, %s's %.0f %s",
                      100.0 * (1.0 - worst->value / best->value) + 0.5, best->variant, best->value,
                      unit);
        return 1;
    }
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strcmp(r->variant, rule->against) == 0 || r->value < NEAR_BEST * best->value)
            continue;
        if (!fewest || threads_of(r, in_flight) < threads_of(fewest, in_flight))
            fewest = r;
    }
    char f[32];
    sb_lesson_factor(best->value / worst->value, f, sizeof f);
    sb_lesson_add(buf, n,
                  "about %.0f threads %s (%s) reach %.0f%% of the best bandwidth, %s's %.0f %s; "
                  "the most starved, %s with %.0f, loses %s",
                  threads_of(fewest, in_flight), in_flight ? "in flight" : "launched",
                  fewest->variant, floor(100.0 * fewest->value / best->value), best->variant,
                  best->value, unit, worst->variant, threads_of(worst, in_flight), f);
    return 1;
}

/* ---------------------------------------------------------------- privatisation */

/* One bin count of a histogram: its shared baseline (the rule's against
 * method, global atomics) and the fastest of its private copies. */
typedef struct bins_step {
    long bins;
    const sb_result *global, *best;
} bins_step;

/* Slot s's histogram rows of the rule's distribution, at the first one's
 * size, by bin count ascending; their count. */
static int bins_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                     const sb_lesson_rule *rule, bins_step *st)
{
    int ns = 0;
    const sb_result *like = NULL;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        char method[48], d[24];
        long bins;
        if (!r || r->ms.median <= 0 ||
            sb_bins_variant(r->variant, method, sizeof method, &bins, d, sizeof d) ||
            strcmp(d, rule->dist) != 0 ||
            (like && (r->rows != like->rows || r->cols != like->cols)))
            continue;
        like = like ? like : r;
        int k = 0;
        while (k < ns && st[k].bins < bins)
            k++;
        if (k == ns || st[k].bins != bins) {
            if (ns == BINS_MAX)
                continue;
            memmove(&st[k + 1], &st[k], sizeof st[0] * (size_t)(ns - k));
            st[k] = (bins_step){bins, NULL, NULL};
            ns++;
        }
        if (strcmp(method, rule->against) == 0)
            st[k].global = r;
        else if (!st[k].best || r->ms.median < st[k].best->ms.median)
            st[k].best = r;
    }
    return ns;
}

/* Bin updates per ns: one per 4-byte input. */
static double updates_per_ns(const sb_result *r)
{
    return r->bytes / 4.0 / (r->ms.median * 1e6);
}

/* "at 1 bin", "at 4096 bins". */
static void at_bins(long bins, char *buf, size_t n)
{
    snprintf(buf, n, "at %ld bin%s", bins, bins == 1 ? "" : "s");
}

/* Where privatising stops paying: "X runs the same as global atomics,
 * within 2.0%" or "X is 1.30x slower than global atomics". */
static void no_pay(const sb_result *best, const sb_verdict *v, char *buf, size_t n)
{
    char f[64];
    if (v->kind == SB_VERDICT_NOISY) {
        sb_verdict_text(v, "", "", f, sizeof f);
        sb_lesson_add(buf, n, "%s against global atomics is %s", best->variant, f);
    } else if (v->kind == SB_VERDICT_SAME) {
        sb_lesson_add(buf, n, "%s runs the same as global atomics, within %.1f%%", best->variant,
            100.0 * sb_verdict_within(v));
    } else {
        sb_lesson_factor(v->by + 1.0, f, sizeof f);
        sb_lesson_add(buf, n, "%s is %s slower than global atomics", best->variant, f);
    }
}

/* Privatisation on slot s for one distribution: walking the bin counts
 * upwards, the fastest private copy held against the global atomics by the
 * verdict; the first that is not faster is where it stops paying. */
int sb_lesson_private_clause(const sb_analysis *a, const sb_cross_experiment *e,
                             const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    bins_step st[BINS_MAX];
    int ns = bins_rows(a, e, s, rule, st), m = 0;
    sb_verdict v[BINS_MAX];
    for (int k = 0; k < ns; k++)
        if (st[k].global && st[k].best &&
            (v[m] = sb_lesson_judge(a, st[k].global, st[k].best, 0.0)).kind != SB_VERDICT_NONE)
            st[m++] = st[k];
    if (m == 0)
        return 0;
    int stop = 0;
    while (stop < m && v[stop].kind == SB_VERDICT_FASTER)
        stop++;
    char f[32], at[32];
    buf[0] = '\0';
    sb_lesson_add(buf, n, "%s, ", rule->what);
    at_bins(st[0].bins, at, sizeof at);
    if (stop == 0) {
        sb_lesson_add(buf, n, "privatising does not pay even %s: ", at);
        no_pay(st[0].best, &v[0], buf, n);
        return 1;
    }
    sb_lesson_factor(v[0].by + 1.0, f, sizeof f);
    sb_lesson_add(buf, n,
                  "privatising pays %s: %s is %s faster than global atomics (%.3g against %.3g "
                  "bin updates per ns)",
                  at, st[0].best->variant, f, updates_per_ns(st[0].best),
                  updates_per_ns(st[0].global));
    if (stop < m) {
        at_bins(st[stop].bins, at, sizeof at);
        sb_lesson_add(buf, n, "; it stops paying %s: ", at);
        no_pay(st[stop].best, &v[stop], buf, n);
    } else if (m > 1) {
        sb_lesson_factor(v[m - 1].by + 1.0, f, sizeof f);
        at_bins(st[m - 1].bins, at, sizeof at);
        sb_lesson_add(buf, n, "; it still pays %s, the most measured: %s is %s faster", at,
            st[m - 1].best->variant, f);
    }
    return 1;
}
