/* What the lessons do with noise (run/noise.h): a verdict that knows each
 * row's noise, and the block whose rows are too noisy for any lesson. */
#ifndef SB_LESSONS_NOISE_H
#define SB_LESSONS_NOISE_H

#include <stddef.h>

#include "analysis/analysis.h"

/* The verdict on other against ref, both of a's run: as
 * sb_verdict_judge, so SB_VERDICT_NOISY where either row is noisy. */
sb_verdict sb_lesson_judge(const sb_analysis *a, const sb_result *ref, const sb_result *other,
                           double threshold);

/* How many of block e's rows are noisy. */
size_t sb_lesson_noisy_rows(const sb_analysis *a, const sb_cross_experiment *e);

/* Where most of block e's rows are noisy, the one lesson it gets, saying
 * so and by how much, into buf; 1 then, else 0 (buf untouched). */
int sb_lesson_noisy_block(const sb_analysis *a, const sb_cross_experiment *e, char *buf,
                          size_t n);

/* Where some (not most) of block e's rows are noisy, a lesson naming
 * them and their spread, so that no reader takes their figures for
 * conclusions; 1 then, else 0. */
int sb_lesson_noisy_rows_named(const sb_analysis *a, const sb_cross_experiment *e, char *buf,
                               size_t n);

#endif
