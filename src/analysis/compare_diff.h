/* What differs between two saved runs besides their timings, for the
 * header of `simtbench compare`: tool version, host, date, and each
 * device's name, platform, API, driver and architecture, matched on the
 * device's label. */
#ifndef SB_COMPARE_DIFF_H
#define SB_COMPARE_DIFF_H

#include "result.h"

typedef struct sb_difference {
    char what[64];
    char old_value[160], new_value[160]; /* "(none)" for a value one run lacks */
} sb_difference;

/* The differences between old run o and new run n into d[0..max): how many. */
int sb_compare_differences(const sb_run *o, const sb_run *n, sb_difference *d, int max);

#endif
