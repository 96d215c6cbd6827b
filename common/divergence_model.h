/* The control-divergence model: what a warp must execute when its lanes
 * take different paths (seed 001's "minimising control divergence").
 *
 * A warp of W lanes issues each instruction once for all of them.  Where
 * its lanes branch apart, it runs every distinct path among them in turn,
 * the lanes on the other paths masked off; a loop runs until the warp's
 * last lane leaves it.  So, with equal work per path or per trip:
 *   a branch's time over the uniform case (every lane one path) is the
 *     mean over the warps of the distinct paths each runs;
 *   a loop's time over the uniform case (every lane the mean trip count)
 *     is the mean over the warps of the largest trip count in each, over
 *     the mean trip count of all the lanes: the warp's maximum, not its
 *     mean.
 * Both are enumerated from what each lane actually does (the inputs a run
 * generated), never by a closed formula.  Warps are formed as the
 * hardware forms them: consecutive threads of one block, never across
 * two blocks.
 *
 * A device that reports no warp (a CPU, whose work-items are vector lanes
 * or run one after another, or a GPU whose API does not say) gets no
 * prediction: the model says so rather than guess a width.
 *
 * Plain C11, no GPU. */
#ifndef SB_DIVERGENCE_MODEL_H
#define SB_DIVERGENCE_MODEL_H

#include <stddef.h>

#include "backend.h"

/* The widest warp the model groups lanes into. */
#define SB_DIVERGENCE_MAX_WARP 1024

/* What lane i of the launch does: the path it takes (an id: lanes with
 * the same id run the same code) or its loop's trip count. */
typedef long (*sb_lane_fn)(const void *ctx, long lane);

/* How the lanes are grouped: lanes 0..lanes-1 in blocks of `block`
 * threads (the last one may be partial), each block's threads in warps of
 * `warp` consecutive ones. */
typedef struct sb_lane_shape {
    long lanes; /* threads with work, at least 1 */
    long block; /* threads per block, at least 1 */
    int warp;   /* lanes per warp; 0 where the device reports none */
} sb_lane_shape;

/* What the model says about one branch or loop. */
typedef struct sb_divergence {
    int predicts;          /* 1: grouped in warps of `warp` lanes; 0: vector lanes, no
                              prediction (the fields below that need a warp are 0) */
    int warp;              /* the lanes per warp it grouped by; 0 without a warp */
    long warps;            /* warps with at least one lane */
    double paths_per_warp; /* branch: the mean distinct paths a warp runs */
    int most_paths;        /* branch: the most distinct paths any warp runs */
    double mean_trips;     /* loop: the mean trip count over the lanes (with or without a warp) */
    double max_trips;      /* loop: the mean over the warps of each one's largest trip count */
    double slowdown;       /* the predicted time over the uniform case; 0 without a prediction */
} sb_divergence;

/* The lanes per warp the model groups a device's threads by: the warp
 * size it reports when it is a GPU; 0 for a CPU (its work-items are vector
 * lanes) or a GPU whose API reports none. */
int sb_divergence_warp(const sb_device_info *dev);

/* A branch whose paths do equal work, path(ctx, i) the path of lane i:
 * the distinct paths per warp and the predicted slowdown (their mean); 0,
 * or -1 (out untouched) for a bad shape. */
int sb_divergence_branch(const sb_lane_shape *s, sb_lane_fn path, const void *ctx,
                         sb_divergence *out);

/* A loop whose trips do equal work, trips(ctx, i) >= 0 the trip count of
 * lane i: the mean and the warps' largest trip counts and the predicted
 * slowdown (1 where no lane makes a trip); 0, or -1 (out untouched) for a
 * bad shape or a negative trip count. */
int sb_divergence_loop(const sb_lane_shape *s, sb_lane_fn trips, const void *ctx,
                       sb_divergence *out);

/* What the model grouped the lanes into: "32-lane warps", or "vector
 * lanes: no warp, no prediction"; snprintf's return. */
int sb_divergence_lanes_text(const sb_divergence *d, char *buf, size_t n);

#endif
