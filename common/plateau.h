/* Plateaus of a sweep: a figure measured at growing sizes (the latency of
 * a pointer chase, or a copy's bandwidth, against its working set) stays
 * level while the working set fits one level of the memory hierarchy and
 * moves when it leaves it.  These rules find the levels from the data
 * alone, with no cache size assumed:
 *
 *   - a run is a stretch of neighbouring points that all lie within a
 *     factor SB_PLATEAU_JUMP of each other: it ends at the first point that
 *     would make it span more (a jump from the run), however small each
 *     step to it was, so that a level followed by a gradual transition
 *     (the far partition of a split L2, then a point or two on the way to
 *     DRAM) ends where the curve leaves it and is not dragged into the
 *     next level's figure;
 *   - a run of one point is a transition between levels, not a level;
 *   - neighbouring runs whose levels (the median of their points) are
 *     within a factor SB_PLATEAU_MERGE of each other are one level, with
 *     the points between them: a point of noise is no transition, and a
 *     slow climb (more TLB misses as a working set grows) that outgrows
 *     one run's span stays one level.  The far partition of a split L2,
 *     further from the near one and from DRAM than that, is a level of
 *     its own, as it costs its own latency.
 *
 * Plain C, no device: tested against hand-worked curves. */
#ifndef SB_PLATEAU_H
#define SB_PLATEAU_H

#define SB_PLATEAU_JUMP 1.10
#define SB_PLATEAU_MERGE 1.25

/* The most points a sweep may have, and the most plateaus it can give. */
#define SB_PLATEAU_POINTS_MAX 256
#define SB_PLATEAUS_MAX 16

/* One level: points first..last of the sweep (indices, inclusive). */
typedef struct sb_plateau {
    int first, last;
    double level; /* the median of the points' values */
} sb_plateau;

/* The plateaus of y[0..n) (points in order of growing x, every y > 0; a
 * point that is not is a transition), in order, into out[0..max); their
 * count.  Fewer than two points, or more than SB_PLATEAU_POINTS_MAX, give
 * none. */
int sb_plateaus(const double *y, int n, sb_plateau *out, int max);

/* The first index i of y[0..n) from which every point is at least
 * threshold (the smallest size that reaches a share of a roof and stays
 * there, so that one lucky point does not count); -1 when the last point
 * does not reach it. */
int sb_sweep_reaches(const double *y, int n, double threshold);

#endif
