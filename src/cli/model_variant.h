/* A variant's declared accesses without a device: what `simtbench model
 * --variant` prints.  The experiment's own prepare and plan, at a size,
 * for a stand-in device of a given number of multiprocessors. */
#ifndef SB_MODEL_VARIANT_H
#define SB_MODEL_VARIANT_H

#include <stddef.h>

#include "experiments/experiment.h"

/* What was planned: the variant, its size and its plan. */
typedef struct sb_model_variant {
    const sb_experiment *experiment;
    sb_variant variant;
    sb_problem size;
    sb_plan plan;
} sb_model_variant;

/* Plans "EXPERIMENT/VARIANT" at rows x cols (0 x 0: the experiment's size
 * for a CPU device, as a PoCL run gets) for a device of `units`
 * multiprocessors; 0, or -1 with one line in err (an unknown name, a size
 * the experiment refuses, a variant with no kernel of its own). */
int sb_model_variant_plan(const char *name, long rows, long cols, int units, sb_model_variant *out,
                          char *err, size_t n);

#endif
