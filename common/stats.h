/* Summary statistics of repeated timings. */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stddef.h>

typedef struct sb_stats {
    size_t n;
    double median, min, max, mean, stddev;
    double spread; /* (max - min) / median: the run-to-run spread */
    size_t fastest, slowest; /* which repetitions (0-based, in run order) were the min and max */
} sb_stats;

/* Summarise n samples (n >= 1); the samples are left unchanged.
 * Returns 0, or -1 when n is 0 or a sample is not finite. */
int sb_stats_compute(const double *samples, size_t n, sb_stats *out);

#endif
