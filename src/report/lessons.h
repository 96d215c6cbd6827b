/* The lesson of an experiment's block: one or two sentences saying what its
 * numbers show, chosen by rules over the results and never written in
 * advance, for every default family.  A rule names the variants it
 * compares (padded against tiled, the 32x33 tile's column against the
 * 32x32's), the model's figure it holds the times against (conflict ways,
 * sector efficiency), the coarseN factors it walks up until one no longer
 * pays (matmul, vecadd), the threads each configuration keeps busy
 * against its bandwidth (occupancy: the fewest within 5% of the best), a
 * histogram's fastest private copy against its global atomics, bin counts
 * walked upwards until privatising no longer pays, the host-observed time
 * beside the device's (launch: what a host-timed benchmark sees beyond the
 * kernel, and whether the launch path is what makes two devices differ),
 * the FMA peak against the theoretical FP32 peak (compute), or the
 * divergence model's predicted slowdowns (lane % k against warp_index % k;
 * sorted, random and predicated branches; loops); the sentence then says
 * whatever the measurements say, per device: faster,
 * the same, or slower, with the factor, and whether the model's
 * prediction was borne out.  Two variants are compared by the verdict of
 * run/crossapi.h, so "the same" means what it means everywhere else.  The
 * table, Markdown, HTML and JSON writers print them at the end of each
 * block.  The memory hierarchy's blocks (the dram and latency families,
 * and Little's law under occupancy) have rules of their own in
 * lessons_memory.h. */
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

/* The lessons of experiment e of the analysis (an index into
 * a->cross.experiments): one per rule of that experiment whose variants the
 * run measured; none for an experiment without rules. */
void sb_lessons_of(const sb_analysis *a, size_t e, sb_lessons *out);

#endif
