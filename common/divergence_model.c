/* The control-divergence model; see divergence_model.h for the rules. */
#include "divergence_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_divergence_warp(const sb_device_info *dev)
{
    return dev->is_gpu && dev->warp_size > 0 && dev->warp_size <= SB_DIVERGENCE_MAX_WARP
               ? dev->warp_size
               : 0;
}

static int shape_ok(const sb_lane_shape *s)
{
    return s->lanes >= 1 && s->block >= 1 && s->warp >= 0 && s->warp <= SB_DIVERGENCE_MAX_WARP;
}

/* The warps of a shape, in launch order: [*begin, *end) after each call
 * that returns 1; 0 after the last.  Start with *end = 0. */
static int next_warp(const sb_lane_shape *s, long *begin, long *end)
{
    if (*end >= s->lanes)
        return 0;
    *begin = *end;
    long block_end = (*begin / s->block + 1) * s->block;
    long warp_end = *begin + s->warp;
    *end = warp_end < block_end ? warp_end : block_end;
    if (*end > s->lanes)
        *end = s->lanes;
    return 1;
}

static int by_value(const void *pa, const void *pb)
{
    long a = *(const long *)pa, b = *(const long *)pb;
    return (a > b) - (a < b);
}

/* The distinct values among v[0..n), sorting v. */
static int distinct(long *v, long n)
{
    int all_same = 1;
    for (long i = 1; i < n && all_same; i++)
        all_same = v[i] == v[0];
    if (all_same)
        return n > 0;
    qsort(v, (size_t)n, sizeof *v, by_value);
    int count = 1;
    for (long i = 1; i < n; i++)
        count += v[i] != v[i - 1];
    return count;
}

int sb_divergence_branch(const sb_lane_shape *s, sb_lane_fn path, const void *ctx,
                         sb_divergence *out)
{
    if (!shape_ok(s) || !path)
        return -1;
    sb_divergence d;
    memset(&d, 0, sizeof d);
    d.warp = s->warp;
    d.predicts = s->warp > 0;
    if (d.predicts) {
        long lane[SB_DIVERGENCE_MAX_WARP], begin = 0, end = 0;
        double paths = 0;
        while (next_warp(s, &begin, &end)) {
            for (long i = begin; i < end; i++)
                lane[i - begin] = path(ctx, i);
            int p = distinct(lane, end - begin);
            paths += p;
            d.most_paths = p > d.most_paths ? p : d.most_paths;
            d.warps++;
        }
        d.paths_per_warp = paths / (double)d.warps;
        /* Equal work per path: the paths a warp runs are its time. */
        d.slowdown = d.paths_per_warp;
    }
    *out = d;
    return 0;
}

int sb_divergence_loop(const sb_lane_shape *s, sb_lane_fn trips, const void *ctx,
                       sb_divergence *out)
{
    if (!shape_ok(s) || !trips)
        return -1;
    sb_divergence d;
    memset(&d, 0, sizeof d);
    d.warp = s->warp;
    d.predicts = s->warp > 0;
    /* Without a warp, each lane is its own group: only the mean is kept. */
    sb_lane_shape lanes = *s;
    if (!d.predicts)
        lanes.warp = 1;
    long begin = 0, end = 0;
    double sum = 0, max_sum = 0;
    while (next_warp(&lanes, &begin, &end)) {
        long most = 0;
        for (long i = begin; i < end; i++) {
            long t = trips(ctx, i);
            if (t < 0)
                return -1;
            sum += (double)t;
            most = t > most ? t : most;
        }
        max_sum += (double)most;
        d.warps++;
    }
    d.mean_trips = sum / (double)s->lanes;
    if (d.predicts) {
        d.max_trips = max_sum / (double)d.warps;
        d.slowdown = d.mean_trips > 0 ? d.max_trips / d.mean_trips : 1.0;
    } else {
        d.warps = 0;
    }
    *out = d;
    return 0;
}

int sb_divergence_lanes_text(const sb_divergence *d, char *buf, size_t n)
{
    if (!d->predicts)
        return snprintf(buf, n, "vector lanes: no warp, no prediction");
    return snprintf(buf, n, "%d-lane warps", d->warp);
}
