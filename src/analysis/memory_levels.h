/* The memory hierarchy across one run's experiments (issue 17), per device:
 *
 *   - a sweep: an experiment's rows in order of their axis, the first
 *     figure a row gives in bytes (a chunk, a distance, a working set);
 *   - the latency sweep's plateaus (plateau.h), and its DRAM latency: the
 *     last plateau's, when the sweep goes past twice the cache the device
 *     reports (a sweep that stays inside it never saw DRAM);
 *   - Little's law against the rows that declare what each thread keeps
 *     in flight ("bytes_per_thread": the occupancy family): the bytes in
 *     flight the DRAM latency asks for, a copy's reads (half its bytes, at
 *     the rows' copy roof) x the latency, beside the knee measured, the
 *     fewest bytes in flight within 5% of the best bandwidth.  The latency
 *     taken is that of rows measured before the occupancy rows, as every
 *     roof is (analysis.h), so a block printed as it is measured says what
 *     the whole run's report says.
 *
 * Computed from the records alone, for a run measured and one read back. */
#ifndef SB_MEMORY_LEVELS_H
#define SB_MEMORY_LEVELS_H

#include <stddef.h>

#include "plateau.h"
#include "result.h"

/* Within this share of the best bandwidth a configuration is at the knee. */
#define SB_KNEE_NEAR_BEST 0.95

/* A sweep's points, by growing axis. */
typedef struct sb_sweep {
    int n;
    double x[SB_PLATEAU_POINTS_MAX];   /* the axis: bytes */
    double y[SB_PLATEAU_POINTS_MAX];   /* the headline figure */
    size_t row[SB_PLATEAU_POINTS_MAX]; /* the results, indices into the run */
} sb_sweep;

/* A row's place on a sweep's axis: its first figure whose unit is "B";
 * 0 when it has none (a reference row: the copy in place, random order). */
double sb_sweep_axis(const sb_result *r);

/* The rows of experiment `experiment` on device slot, among the run's
 * first `before` results, that have an axis and a headline, by growing
 * axis (run order among equals); their count (at most
 * SB_PLATEAU_POINTS_MAX). */
int sb_sweep_of(const sb_run *run, const char *experiment, int slot, size_t before,
                sb_sweep *out);

/* The bytes a row keeps in flight: its "bytes_per_thread" figure x its
 * threads in flight (in_flight 1), or x the threads it launched (0: where
 * the API gives no occupancy, an upper bound); 0 for a row without the
 * figure or, in_flight 1, without its threads in flight. */
double sb_bytes_in_flight(const sb_result *r, int in_flight);

/* One plateau, on the sweep's axis. */
typedef struct sb_memory_level {
    double from_bytes, to_bytes; /* the working sets it spans */
    double level;                /* the median of its points */
    int points;
} sb_memory_level;

typedef struct sb_memory_levels {
    /* The latency sweep: the run's first experiment of ns/load rows with
       an axis ("" when none). */
    char latency[32];
    size_t latency_first;         /* its first row in the run */
    int npoints;
    double largest_bytes;         /* its largest working set */
    int nlevels;
    sb_memory_level level[SB_PLATEAUS_MAX];
    int past_cache;               /* it went past twice the device's reported cache */
    double dram_ns;               /* the last plateau's level when past_cache; else 0 */
    /* Little's law: the run's first experiment whose rows declare bytes
       per thread ("" when none). */
    char inflight[32];
    int latency_before;           /* dram_ns was measured before those rows */
    double copy_gbs;              /* the rows' copy roof (value / roof_share); 0 if none */
    double need_bytes;            /* copy_gbs / 2 x dram_ns when both are known and
                                     latency_before; else 0 */
    double bytes_per_thread;      /* what each thread keeps in flight */
    long knee_row;                /* the fewest bytes within 5% of the best; -1 none */
    double knee_bytes, best_gbs;
    int in_flight;                /* 1: threads in flight known; 0: threads launched */
} sb_memory_levels;

/* What the run's rows on device slot say of its memory hierarchy. */
void sb_memory_levels_of(const sb_run *run, int slot, sb_memory_levels *out);

#endif
