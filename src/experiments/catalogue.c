#include "experiments/catalogue.h"

#include <string.h>

/* Every experiment, in catalogue order (the order of --list and of a run).
 * Adding one: write src/experiments/NAME.c defining
 * `const sb_experiment sb_exp_NAME` (its kernels in common/kernels/, its
 * lessons and plots as tables in the same file: offers.h), add X(NAME)
 * here, and add the file to EXPERIMENT_SOURCES in Makefile.am. */
#define SB_EXPERIMENTS(X)                                                                      \
    X(transpose)                                                                               \
    X(matmul)                                                                                  \
    X(vecadd)                                                                                  \
    X(latency)                                                                                 \
    X(occupancy)                                                                               \
    X(global_stride)                                                                           \
    X(global_offset)                                                                           \
    X(global_perm)                                                                             \
    X(global_broadcast)                                                                        \
    X(global_walk)                                                                             \
    X(shared_stride)                                                                           \
    X(shared_broadcast)                                                                        \
    X(shared_tile)                                                                             \
    X(pattern_global)                                                                          \
    X(pattern_shared)                                                                          \
    X(histogram)                                                                               \
    X(sum)                                                                                     \
    X(dram_burst)                                                                              \
    X(dram_channels)                                                                           \
    X(dram_working_set)                                                                        \
    X(dram_read_set)                                                                           \
    X(launch_small)                                                                            \
    X(launch_large)                                                                            \
    X(compute)                                                                                 \
    X(divergence_split)                                                                        \
    X(divergence_branch)                                                                       \
    X(divergence_predication)                                                                  \
    X(divergence_loop)

#define SB_DECLARE_EXPERIMENT(name) extern const sb_experiment sb_exp_##name;
SB_EXPERIMENTS(SB_DECLARE_EXPERIMENT)

#define SB_LIST_EXPERIMENT(name) &sb_exp_##name,
static const sb_experiment *const catalogue[] = {SB_EXPERIMENTS(SB_LIST_EXPERIMENT)};

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

const sb_experiment *sb_catalogue_find(const char *name)
{
    for (int i = 0; i < sb_catalogue_count(); i++)
        if (strcmp(catalogue[i]->name, name) == 0)
            return catalogue[i];
    return NULL;
}
