#include "analysis/memory_levels.h"

#include <stdio.h>
#include <string.h>

#include "dram.h"

double sb_sweep_axis(const sb_result *r)
{
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(r->figure[i].unit, "B") == 0)
            return r->figure[i].value > 0 ? r->figure[i].value : 0.0;
    return 0.0;
}

int sb_sweep_of(const sb_run *run, const char *experiment, int slot, size_t before,
                sb_sweep *out)
{
    out->n = 0;
    for (size_t i = 0; i < before && i < run->nresults && out->n < SB_PLATEAU_POINTS_MAX; i++) {
        const sb_result *r = &run->results[i];
        double x = sb_sweep_axis(r);
        if (r->device_slot != slot || strcmp(r->experiment, experiment) != 0 || !(x > 0) ||
            !(r->value > 0))
            continue;
        int k = out->n++;
        for (; k > 0 && out->x[k - 1] > x; k--) {
            out->x[k] = out->x[k - 1];
            out->y[k] = out->y[k - 1];
            out->row[k] = out->row[k - 1];
        }
        out->x[k] = x;
        out->y[k] = r->value;
        out->row[k] = i;
    }
    return out->n;
}

double sb_bytes_in_flight(const sb_result *r, int in_flight)
{
    const sb_figure *f = sb_figure_find(r->figure, r->nfigures, "bytes_per_thread");
    if (!f || !(f->value > 0))
        return 0.0;
    if (in_flight)
        return r->threads_in_flight > 0 ? (double)r->threads_in_flight * f->value : 0.0;
    return (double)r->grid[0] * r->grid[1] * r->grid[2] * r->block[0] * r->block[1] *
           r->block[2] * f->value;
}

/* The first row of slot whose quantity is q (any when q < 0) with an axis
   (want_axis) or a bytes-per-thread figure; -1 when there is none. */
static long first_row(const sb_run *run, int slot, int q, int want_axis)
{
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (r->device_slot != slot || (q >= 0 && (int)r->quantity != q))
            continue;
        if (want_axis ? sb_sweep_axis(r) > 0
                      : sb_figure_find(r->figure, r->nfigures, "bytes_per_thread") != NULL)
            return (long)i;
    }
    return -1;
}

/* The latency sweep's plateaus, and its DRAM latency when it went past the
   device's cache. */
static void latency_levels(const sb_run *run, int slot, sb_memory_levels *m)
{
    long first = first_row(run, slot, SB_QUANTITY_LATENCY, 1);
    if (first < 0)
        return;
    const sb_result *f = &run->results[first];
    snprintf(m->latency, sizeof m->latency, "%s", f->experiment);
    m->latency_first = (size_t)first;
    static _Thread_local sb_sweep sw;
    sb_sweep_of(run, m->latency, slot, run->nresults, &sw);
    sb_plateau p[SB_PLATEAUS_MAX];
    m->npoints = sw.n;
    m->largest_bytes = sw.n ? sw.x[sw.n - 1] : 0.0;
    m->nlevels = sb_plateaus(sw.y, sw.n, p, SB_PLATEAUS_MAX);
    for (int k = 0; k < m->nlevels; k++)
        m->level[k] = (sb_memory_level){sw.x[p[k].first], sw.x[p[k].last], p[k].level,
                                        p[k].last - p[k].first + 1};
    double cache = (double)run->devices[slot].info.l2_bytes;
    m->past_cache = cache > 0 ? m->largest_bytes > 2.0 * cache : m->nlevels >= 3;
    if (m->past_cache && m->nlevels >= 2)
        m->dram_ns = m->level[m->nlevels - 1].level;
}

/* The knee of the rows that declare bytes per thread, and Little's law's. */
static void inflight_knee(const sb_run *run, int slot, sb_memory_levels *m)
{
    long first = first_row(run, slot, SB_QUANTITY_BANDWIDTH, 0);
    if (first < 0)
        return;
    snprintf(m->inflight, sizeof m->inflight, "%s", run->results[first].experiment);
    m->in_flight = 1;
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (r->device_slot == slot && strcmp(r->experiment, m->inflight) == 0 &&
            sb_figure_find(r->figure, r->nfigures, "bytes_per_thread") && r->value > 0) {
            m->in_flight &= r->threads_in_flight > 0;
            m->best_gbs = r->value > m->best_gbs ? r->value : m->best_gbs;
        }
    }
    m->knee_row = -1;
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        double bytes = sb_bytes_in_flight(r, m->in_flight);
        if (r->device_slot != slot || strcmp(r->experiment, m->inflight) != 0 || !(bytes > 0) ||
            r->value < SB_KNEE_NEAR_BEST * m->best_gbs)
            continue;
        if (m->knee_row < 0 || bytes < m->knee_bytes) {
            m->knee_row = (long)i;
            m->knee_bytes = bytes;
        }
    }
    if (m->knee_row < 0)
        return;
    const sb_result *k = &run->results[m->knee_row];
    m->bytes_per_thread = sb_figure_find(k->figure, k->nfigures, "bytes_per_thread")->value;
    m->copy_gbs = k->roof_share > 0 ? k->value / k->roof_share : 0.0;
    m->latency_before = m->latency[0] && m->latency_first < (size_t)first;
    /* The threads wait on their loads; a copy's loads are half its bytes. */
    if (m->latency_before)
        m->need_bytes = sb_littles_bytes(m->copy_gbs / 2.0, m->dram_ns);
}

void sb_memory_levels_of(const sb_run *run, int slot, sb_memory_levels *out)
{
    memset(out, 0, sizeof *out);
    out->knee_row = -1;
    latency_levels(run, slot, out);
    inflight_knee(run, slot, out);
}
