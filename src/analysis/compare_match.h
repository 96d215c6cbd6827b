/* The rows of two saved runs matched for `simtbench compare`: on device
 * label (backend, numbered when a run opened one twice), experiment,
 * variant and size, each matched pair with its verdict. */
#ifndef SB_COMPARE_MATCH_H
#define SB_COMPARE_MATCH_H

#include <stddef.h>

#include "result.h"
#include "analysis/verdict.h"

/* One matched, or unmatched, row. */
typedef struct sb_compare_match {
    long old_i, new_i; /* -1 where the row is only in the other run */
    sb_verdict v;
} sb_compare_match;

/* Old rows in order, each with the first new row of its key that no
 * earlier old row took (and the verdict on the pair with the threshold
 * as a fraction); then the new rows nobody took.  *count rows; NULL out
 * of host memory. */
sb_compare_match *sb_compare_match_rows(const sb_run *o, const sb_run *n, double threshold,
                                        size_t *count);

#endif
