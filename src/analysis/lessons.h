/* The lessons of an experiment's block: one or two sentences saying what
 * its numbers show, chosen by rules over the analysed rows and never
 * written in advance.  The rules are the family's: each family declares
 * them in its own file (experiments/offers.h: a pair of variants and what
 * the change does, the model's cost the times are held against, the
 * coarseN factors walked up until one no longer pays, the threads kept
 * busy against bandwidth, private copies against atomics by bin count,
 * the host-observed time beside the device's, the FMA peak against the
 * FP32 peak, slowdowns against the model's predicted ones, the memory
 * hierarchy's plateaus and knees in lessons_memory.h); this code names no
 * experiment.  The sentence says whatever the measurements say, per
 * device: faster, the same, or slower, with the factor, and whether the
 * model's prediction was borne out.  Two variants are compared by the
 * verdict of analysis/crossapi.h, so "the same" means what it means
 * everywhere else.  The table, Markdown, HTML and JSON writers print them
 * at the end of each block. */
#ifndef SB_LESSONS_H
#define SB_LESSONS_H

#include <stddef.h>

#include "analysis/analysis.h"

#define SB_LESSONS_MAX 4
#define SB_LESSON_BYTES 1024 /* a lesson of two devices, each its own clause */

/* The lessons of one block, in the order of the rules. */
typedef struct sb_lessons {
    int n;
    char text[SB_LESSONS_MAX][SB_LESSON_BYTES];
} sb_lessons;

/* Draw every block's lessons into a->lessons, one record per experiment
 * of a->cross (the last step of sb_analyse, analysis.h); 0, or -1 out of
 * host memory.  A run of no experiments has none to draw. */
int sb_lessons_draw(sb_analysis *a);

/* The lessons of experiment e of the analysis (an index into
 * a->cross.experiments), as sb_lessons_draw drew them: one per rule of its
 * family whose variants the run measured; none for an experiment without
 * rules, an e out of range, or an analysis not drawn. */
void sb_lessons_of(const sb_analysis *a, size_t e, sb_lessons *out);

#endif
