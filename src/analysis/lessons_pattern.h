/* The worst-warp lesson (SB_LESSON_WORST_WARP, the pattern family's): of the block's rows, the one whose
 * worst sampled warp costs the most, named with that warp and why: which
 * lanes share its busiest bank, or how much of the sectors it moves its
 * lanes use.  Computed from the recorded patterns and figures alone. */
#ifndef SB_LESSONS_PATTERN_H
#define SB_LESSONS_PATTERN_H

#include <stddef.h>

#include "analysis/analysis.h"

/* The lesson of block x into buf from its rows' traced patterns:
   1, else 0 (buf untouched): rows without traced patterns say nothing. */
int sb_lesson_pattern(const sb_analysis *a, const sb_cross_experiment *x, char *buf, size_t n);

#endif
