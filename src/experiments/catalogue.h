/* The experiment catalogue: every experiment simtbench can run. */
#ifndef SB_CATALOGUE_H
#define SB_CATALOGUE_H

#include "experiments/experiment.h"

extern const sb_experiment sb_exp_transpose;
extern const sb_experiment sb_exp_matmul;
extern const sb_experiment sb_exp_vecadd;
extern const sb_experiment sb_exp_occupancy;
extern const sb_experiment sb_exp_global_stride;
extern const sb_experiment sb_exp_global_offset;
extern const sb_experiment sb_exp_global_perm;
extern const sb_experiment sb_exp_global_broadcast;
extern const sb_experiment sb_exp_global_walk;
extern const sb_experiment sb_exp_shared_stride;
extern const sb_experiment sb_exp_shared_broadcast;
extern const sb_experiment sb_exp_shared_tile;

/* Number of experiments in the catalogue. */
int sb_catalogue_count(void);

/* The i-th experiment, in catalogue order. */
const sb_experiment *sb_catalogue_get(int i);

/* Experiments whose name or family is `name`, in catalogue order, into
 * out[0..max); returns how many (0: unknown name). */
int sb_catalogue_select(const char *name, const sb_experiment **out, int max);

#endif
