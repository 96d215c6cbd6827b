/* The experiment catalogue: every experiment simtbench can run (the list
 * itself is in catalogue.c). */
#ifndef SB_CATALOGUE_H
#define SB_CATALOGUE_H

#include "experiments/experiment.h"

/* Number of experiments in the catalogue. */
int sb_catalogue_count(void);

/* The i-th experiment, in catalogue order. */
const sb_experiment *sb_catalogue_get(int i);

/* Experiments whose name or family is `name`, in catalogue order, into
 * out[0..max); returns how many (0: unknown name). */
int sb_catalogue_select(const char *name, const sb_experiment **out, int max);

/* The experiment called exactly `name`; NULL where the catalogue has none
 * (a saved run from another version, a name from a hostile file). */
const sb_experiment *sb_catalogue_find(const char *name);

#endif
