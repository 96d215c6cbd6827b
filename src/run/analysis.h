/* Analysis: everything a report shows that is computed from measured
 * records rather than measured: shares of the copy roof, slowdowns against
 * each group's baseline, and the cross-device pairs with their verdicts.
 * Computed once, after the executor and before any writer, with no
 * device; a saved run read back is analysed the same way. */
#ifndef SB_ANALYSIS_H
#define SB_ANALYSIS_H

#include "result.h"
#include "run/crossapi.h"

typedef struct sb_analysis {
    const sb_run *run;
    sb_crossapi cross; /* the run's rows across its devices, and verdicts */
} sb_analysis;

/* Fill the derived fields of run's results (roof_share, slowdown) and pair
 * them across devices into *a; 0, or -1 when out of memory. */
int sb_analyse(sb_run *run, sb_analysis *a);

/* Free what sb_analyse allocated. */
void sb_analysis_free(sb_analysis *a);

#endif
