/* The cross-device comparisons as JSON, one record at a time (json.c
 * writes them as its "comparisons" array and "reference" member). */
#ifndef SB_JSON_COMPARISONS_H
#define SB_JSON_COMPARISONS_H

#include <jansson.h>

#include "analysis/cross_pairs.h"
#include "report/json_build.h"
#include "result.h"

/* Whether row compares slot s with the reference. */
int sb_json_compared(const sb_crossapi *x, const sb_cross_row *row, int s);

/* Row's comparison of slot s with the reference: the side-by-side report
 * as data.  "verdict" is the other device's against the reference
 * ("faster": the other is faster), "results" index run's results. */
json_t *sb_json_comparison(const sb_run *run, const sb_crossapi *x, const sb_cross_row *row, int s,
                           sb_json_builder *b);

/* The device the others are compared with: its slot and label, or null
 * in a run without devices. */
json_t *sb_json_reference(const sb_crossapi *x, sb_json_builder *b);

#endif
