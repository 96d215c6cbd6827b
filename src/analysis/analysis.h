/* Analysis: everything a report shows that is computed from measured
 * records rather than measured: shares of the copy roof, slowdowns against
 * each group's baseline, the cross-device pairs with their verdicts, and
 * the fleet of like devices with its outliers (fleet.h), and across
 * experiments the memory hierarchy (latency plateaus, Little's law), and
 * the run's closing summary.
 * Computed once, after the executor and before any writer, with no
 * device.  A saved run read back keeps the figures it was saved with and
 * is only paired again (sb_analyse_saved).
 *
 * The analysis's public API for writers (src/report/), the only headers
 * of src/analysis/ a writer includes (tests/arch.sh holds it): this one,
 * verdict.h (a verdict and its words), cross_pairs.h (the rows across
 * devices), the records it holds: counter_check.h, fleet.h,
 * memory_levels.h, noise.h, summary.h, lessons.h (the lessons drawn, read
 * with sb_lessons_of), and a comparison of two runs
 * (compare.h, with the row and difference types of compare_match.h and
 * compare_diff.h).  The rest (crossapi.h: pairing and judging; drift.h;
 * merge.h) is analysis's own, and a writer's object uses no symbol that
 * they, analysis.c or the matching and differencing of compare_match.c
 * and compare_diff.c define. */
#ifndef SB_ANALYSIS_H
#define SB_ANALYSIS_H

#include "result.h"
#include "analysis/cross_pairs.h"
#include "analysis/counter_check.h"
#include "analysis/fleet.h"
#include "analysis/memory_levels.h"
#include "analysis/summary.h"
#include "analysis/noise.h"

struct sb_lessons;

typedef struct sb_analysis {
    const sb_run *run;
    sb_crossapi cross; /* the run's rows across its devices, and verdicts */
    sb_fleet fleet;    /* the groups of like devices in those rows, and outliers */
    sb_memory_levels memory[SB_RUN_MAX_DEVICES]; /* per device slot: its plateaus, its DRAM
                                                    latency and Little's law (memory_levels.h) */
    sb_counter_check *checks; /* per result: the model against the counters (counter_check.h) */
    sb_summary summary;       /* what the run found, in a few lines (summary.h) */
    sb_noise noise;           /* per result: its spread and whether it is noisy (noise.h) */
    struct sb_lessons *lessons; /* per cross experiment: its lessons (lessons.h), drawn once
                                   when the rest is done and before any writer runs */
} sb_analysis;

/* What sb_analyse and sb_analyse_saved return besides 0. */
enum {
    SB_ANALYSIS_NO_MEMORY = -1,   /* out of host memory */
    SB_ANALYSIS_NO_REFERENCE = -2 /* the run has no device of the reference backend */
};

/* Fill the derived fields of run's results (roof_share, slowdown) and pair
 * them across devices into *a, against the first device of the backend
 * named reference (NULL: the run's first device); 0 or an SB_ANALYSIS_
 * code.  A run without devices has no reference to miss. */
int sb_analyse(sb_run *run, const char *reference, sb_analysis *a);

/* A saved run read back: pair it as sb_analyse does, leaving every figure
 * as it was saved; 0 or an SB_ANALYSIS_ code. */
int sb_analyse_saved(const sb_run *run, const char *reference, sb_analysis *a);

/* Free what sb_analyse or sb_analyse_saved allocated. */
void sb_analysis_free(sb_analysis *a);

#endif
