#include "analysis/lessons_pattern.h"

#include <stdio.h>
#include <string.h>

#include "model.h"

/* The studied pattern of r that costs the most (its worst sampled warp),
   its index, or -1. */
static int worst_pattern(const sb_result *r, int *cost)
{
    int best = -1;
    for (int i = 0; i < r->npatterns; i++) {
        sb_prediction p;
        if (r->pattern_extra[i] || sb_predict(&r->pattern[i], &p))
            continue;
        int c = r->pattern[i].space == SB_SPACE_SHARED ? p.wavefronts : p.sectors;
        if (best < 0 || c > *cost) {
            best = i;
            *cost = c;
        }
    }
    return best;
}

/* Shared: the lanes of the busiest bank's distinct words, in the first
   phase that has the most. */
static int why_shared(const sb_pattern *p, const sb_prediction *pr, char *buf, size_t n)
{
    uint64_t addr[SB_WARP_LANES];
    if (sb_pattern_addresses(p, addr))
        return 0;
    int lanes_per_phase = SB_WARP_LANES / (p->word_bytes / SB_BANK_BYTES > 1 ? 2 : 1);
    int best_bank = -1, best_count = 0, best_phase = 0;
    for (int ph = 0; ph < SB_WARP_LANES / lanes_per_phase; ph++)
        for (int b = 0; b < SB_BANKS; b++) {
            int count = 0;
            for (int l = ph * lanes_per_phase; l < (ph + 1) * lanes_per_phase; l++)
                count += (!p->active || (p->active >> l & 1u)) && sb_bank_of(addr[l]) == b;
            if (count > best_count) {
                best_count = count;
                best_bank = b;
                best_phase = ph;
            }
        }
    if (pr->ways <= 1)
        return snprintf(buf, n, "no bank holds two of its words%s",
                        pr->broadcast ? " (one word for all: a broadcast)" : "");
    int w = snprintf(buf, n, "lanes");
    int shown = 0;
    for (int l = best_phase * lanes_per_phase;
         l < (best_phase + 1) * lanes_per_phase && w > 0 && (size_t)w < n; l++)
        if ((!p->active || (p->active >> l & 1u)) && sb_bank_of(addr[l]) == best_bank &&
            shown++ < 6)
            w += snprintf(buf + w, n - (size_t)w, "%s %d", shown > 1 ? "," : "", l);
    if (w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, "%s share bank %d: %d-way, %d wavefronts",
                 shown > 6 ? " ..." : "", best_bank, pr->ways, pr->wavefronts);
    return 1;
}

int sb_lesson_pattern(const sb_analysis *a, const sb_cross_experiment *x, char *buf, size_t n)
{
    const sb_result *worst = NULL;
    int worst_cost = -1, worst_i = -1;
    for (size_t k = 0; k < x->nresults; k++) {
        const sb_result *r = &a->run->results[x->results[k]];
        int cost = 0, i;
        if ((i = worst_pattern(r, &cost)) < 0)
            continue;
        if (cost > worst_cost) {
            worst = r;
            worst_cost = cost;
            worst_i = i;
        }
    }
    if (!worst)
        return 0;
    const sb_pattern *p = &worst->pattern[worst_i];
    const sb_figure *wf = sb_figure_find(worst->figure, worst->nfigures, "worst_warp");
    const sb_figure *red = sb_figure_find(worst->figure, worst->nfigures, "reduced_lanes");
    sb_prediction pr;
    sb_predict(p, &pr);
    char why[320];
    if (p->space == SB_SPACE_SHARED)
        why_shared(p, &pr, why, sizeof why);
    else
        snprintf(why, sizeof why, "its %d lanes ask for %d bytes and move %d sectors (%d bytes): "
                 "%.0f%% of what moves is used", pr.lanes, pr.requested_bytes, pr.sectors,
                 pr.transferred_bytes, 100.0 * pr.efficiency);
    int w = snprintf(buf, n,
                     "The expression %s costs the most: its worst sampled warp, warp %.0f, %s",
                     worst->variant, wf ? wf->value : 0.0, why);
    if (red && red->value > 0 && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, "; %.0f sampled lanes' index was reduced into the "
                 "buffer, so that row is not quite the access written", red->value);
    return 1;
}
