/* A comparison: the analysis of two saved runs for `simtbench compare`,
 * done once before any writer runs.  The rows of the old and the new run
 * matched (compare_match.h) with their verdicts, what differs between the
 * runs besides their timings (compare_diff.h), the counts a header
 * quotes, and per matched row the hardware counters that moved.  The
 * compare writers (report/compare.h) only format it; part of the
 * analysis's public API for writers. */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include <stddef.h>

#include "analysis/compare_diff.h"
#include "analysis/compare_match.h"
#include "analysis/counter_check.h"
#include "result.h"
#include "slot_label.h"

#define SB_COMPARE_MAX_DIFFERENCES 64

/* How many rows matched, changed, were noisy or are in one run only. */
typedef struct sb_compare_tally {
    size_t matched, changed, only_old, only_new, noisy;
} sb_compare_tally;

/* The counters a matched row's two sides both counted that moved by more
 * than SB_COUNTER_TOLERANCE. */
typedef struct sb_compare_moved {
    int n;
    int which[SB_COUNTER_COUNT];
} sb_compare_moved;

typedef struct sb_comparison {
    const sb_run *old_run, *new_run;
    const char *old_path, *new_path; /* the files, as the command line named them */
    double threshold;                /* a fraction, added to the tolerance */
    int all;                         /* the writers list every matched row */
    sb_compare_match *rows;          /* old rows in order, then the new rows nobody took */
    size_t nrows;
    sb_compare_moved *moved;         /* per row */
    sb_difference differences[SB_COMPARE_MAX_DIFFERENCES];
    int ndifferences;
    sb_compare_tally tally;
} sb_comparison;

/* Analyse old run o (from old_path) against new run n: match, judge with
 * threshold, count; 0, or -1 out of host memory (c then holds nothing to
 * free).  The runs and paths must outlive c. */
int sb_compare_analyse(const sb_run *o, const char *old_path, const sb_run *n,
                       const char *new_path, double threshold, int all, sb_comparison *c);

/* Free what sb_compare_analyse allocated. */
void sb_comparison_free(sb_comparison *c);

/* Whether the matched row m changed: faster or slower. */
int sb_compare_changed(const sb_compare_match *m);

/* Whether the matched row m is noisy in either run. */
int sb_compare_noisy(const sb_compare_match *m);

#endif
