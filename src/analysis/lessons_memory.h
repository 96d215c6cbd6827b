/* The lessons of the memory hierarchy's blocks (issue 17), one device at a
 * time, for lessons.c to put together as it does every per-device rule:
 *
 *   dram_burst        the smallest chunk that reaches 90% of the same
 *                     copy in place, and what the smallest chunk costs in
 *                     sequential bytes, against the sector model
 *   dram_channels     whether any power-of-two distance runs slower than
 *                     the same chunks in random order (camping)
 *   latency           the plateaus found in the data, named L1, L2 and
 *                     DRAM where the sweep went past the device's cache
 *   dram_working_set  the cache's plateau and DRAM's, and where a copy of
 *                     two buffers of four cache sizes lands
 *   occupancy         Little's law: the knee the DRAM latency predicts
 *                     beside the knee measured, or what the prediction
 *                     needs when the run has no DRAM latency before it
 *
 * Each writes one device's clause (lower case, no full stop) into buf and
 * returns 1, or returns 0 when the device lacks the rows it needs. */
#ifndef SB_LESSONS_MEMORY_H
#define SB_LESSONS_MEMORY_H

#include <stddef.h>

#include "analysis/analysis.h"

/* dram_burst: the 90% chunk, against the copy in place, row in_place. */
int sb_lesson_burst(const sb_analysis *a, const sb_cross_experiment *e, int s,
                    const char *in_place, char *buf, size_t n);

/* dram_channels: camping or not, against the chunks in random order, row
   random. */
int sb_lesson_channels(const sb_analysis *a, const sb_cross_experiment *e, int s,
                       const char *random, char *buf, size_t n);

/* latency: the plateaus. */
int sb_lesson_latency(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                      size_t n);

/* dram_working_set: the cache's plateau, DRAM's, and four cache sizes. */
int sb_lesson_working_set(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                          size_t n);

/* occupancy: Little's law. */
int sb_lesson_littles_law(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                          size_t n);

#endif
