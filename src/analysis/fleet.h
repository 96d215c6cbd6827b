/* The fleet: like devices measuring the same thing, and the slow ones
 * among them.  Devices are peers when they ran one variant at one size
 * through one backend and have one device name (eight H200s through CUDA;
 * CUDA and OpenCL on one GPU are two groups of one), but for one device
 * that one run opened twice (the same GPU in two runs merged is two
 * peers).  For each row of the
 * cross-device pairing (crossapi.h) and each group of two or more peers:
 * the median of their headline figures, the fastest and the slowest, and
 * the outliers.
 *
 * The outlier rule, on speeds (1 / median time, so that it reads the same
 * for every unit): device i's peers are the others of its group; m their
 * median speed, and MAD the median of |s_j - m| over them, scaled by 1.4826
 * (so that it estimates a standard deviation where the speeds are
 * normal).  Device i is an outlier when
 *   - its speed is more than SB_OUTLIER_BELOW below m (s_i < m (1 - 0.05)),
 *   - and more than SB_OUTLIER_MADS scaled MADs below it (m - s_i > 3 MAD;
 *     with two devices, or peers that agree exactly, MAD is 0 and only the
 *     first test counts),
 *   - and the cross-device verdict of crossapi.h, i against the peer whose
 *     speed is nearest m, says i is slower: the difference is beyond the
 *     verdict's tolerance at 95% confidence from both devices' repetitions
 *     (the spread rule where either saved too few).
 * The first two are robust to the outlier itself (it is not among its own
 * peers) and to a second slow device; the third keeps a noisy pair of
 * medians from naming a device.  Only slowness is flagged: a device faster
 * than its peers is the fastest, not an outlier. */
#ifndef SB_FLEET_H
#define SB_FLEET_H

#include <stddef.h>

#include "result.h"
#include "analysis/cross_pairs.h"

#define SB_OUTLIER_BELOW 0.05 /* a fraction of the peers' median speed */
#define SB_OUTLIER_MADS 3.0   /* scaled MADs of the peers' speeds */
#define SB_MAD_SCALE 1.4826   /* MAD to a normal distribution's standard deviation */

/* The rule in one sentence, for every report's legend. */
#define SB_OUTLIER_RULE                                                                            \
    "Outlier: a device whose speed (1 / median time) for a variant is more than 5% below the "  \
    "median of its peers (the other devices of its backend and name that ran it) and more "     \
    "than 3 scaled MADs (1.4826 x the median absolute deviation of the peers' speeds) below "  \
    "it, and which the verdict from both sides' repetitions finds slower than the peer "       \
    "nearest that median."

/* One device that the rule flags, for one fleet row. */
typedef struct sb_outlier {
    int slot;           /* the device */
    double below;       /* 1 - its speed / its peers' median speed */
    double mads;        /* (peers' median - its speed) / scaled MAD; 0 where the MAD is 0 */
    int against;        /* the peer nearest the peers' median: the verdict's reference */
    sb_verdict verdict; /* the device against that peer (crossapi.h's rule) */
} sb_outlier;

/* One group of two or more peers in one cross-device row. */
typedef struct sb_fleet_row {
    size_t row;             /* index into the pairing's rows */
    int first;              /* the group's first slot: its backend and name are the group's */
    int ndevices;
    double median_value;    /* the median of the group's headline figures */
    int fastest, slowest;   /* slots: the smallest and the largest median time */
    size_t outlier;         /* its outliers: outliers[outlier .. outlier + noutliers) */
    size_t noutliers;
} sb_fleet_row;

typedef struct sb_fleet {
    size_t nrows;
    sb_fleet_row *rows;     /* by pairing row, then by the group's first slot */
    size_t *first_of;       /* per pairing row: its first fleet row; count_of how many */
    size_t *count_of;
    size_t noutliers;
    sb_outlier *outliers;
} sb_fleet;

/* The fleet rows of the run paired in x; 0, or -1 out of host memory (f
 * then empty).  A run with no two peers has none. */
int sb_fleet_build(const sb_run *run, const sb_crossapi *x, sb_fleet *f);

/* Free what sb_fleet_build allocated. */
void sb_fleet_free(sb_fleet *f);

/* Whether two of the run's devices are peers (one backend, one name):
 * whether a fleet table can have a row. */
int sb_fleet_possible(const sb_run *run);

/* Each of the run's results as the fleet f of its pairing x sees it, into
 * state[0..run->nresults): -1 with no peer in its row, 0 among peers, 1 an
 * outlier. */
void sb_fleet_result_states(const sb_run *run, const sb_fleet *f, const sb_crossapi *x,
                            signed char *state);

/* The median of v[0..n) (n >= 1), reordering v. */
double sb_median_of(double *v, size_t n);

#endif
