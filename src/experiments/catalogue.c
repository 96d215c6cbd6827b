#include "experiments/catalogue.h"

#include <string.h>

/* Adding an experiment: a kernel file in common/, an exp_*.c file defining
 * its sb_experiment, and one line here. */
static const sb_experiment *const catalogue[] = {
    &sb_exp_transpose,
    &sb_exp_matmul,
    &sb_exp_vecadd,
    &sb_exp_occupancy,
    &sb_exp_global_stride,
    &sb_exp_global_offset,
    &sb_exp_global_perm,
    &sb_exp_global_broadcast,
    &sb_exp_global_walk,
    &sb_exp_shared_stride,
    &sb_exp_shared_broadcast,
    &sb_exp_shared_tile,
};

int sb_catalogue_count(void)
{
    return (int)(sizeof catalogue / sizeof catalogue[0]);
}

const sb_experiment *sb_catalogue_get(int i)
{
    return i >= 0 && i < sb_catalogue_count() ? catalogue[i] : NULL;
}

int sb_catalogue_select(const char *name, const sb_experiment **out, int max)
{
    int n = 0;
    for (int i = 0; i < sb_catalogue_count() && n < max; i++)
        if (strcmp(catalogue[i]->name, name) == 0 || strcmp(catalogue[i]->family, name) == 0)
            out[n++] = catalogue[i];
    return n;
}
