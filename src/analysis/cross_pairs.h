/* The cross-device pairs of a run, as analysis hands them to the writers:
 * one row per variant and size with a result and a verdict per device
 * slot, grouped by experiment.  Part of the analysis's public API for
 * writers (analysis.h lists it); analysis/crossapi.h builds them. */
#ifndef SB_CROSS_PAIRS_H
#define SB_CROSS_PAIRS_H

#include <stddef.h>

#include "analysis/verdict.h"
#include "result.h"
#include "slot_label.h"

struct sb_noise;

/* One variant at one size, across the devices of a run. */
typedef struct sb_cross_row {
    size_t first;                    /* a result of the row (for experiment, variant, size) */
    long *result;                    /* per device slot (x->ndevices of them): the index
                                        into run->results; -1: none */
    const sb_verdict *verdict;       /* per device slot (x->ndevices of them): that slot
                                        against the reference slot */
    const sb_verdict *host_verdict;  /* per device slot: that slot's host-observed times
                                        (result.h) against the reference's, by the spread
                                        rule; SB_VERDICT_NONE where a side has none */
    const char *const *ptx;          /* per device slot: its PTX against the reference's:
                                        "same memory instructions", the difference, or ""
                                        (no PTX); then, where both compilers' allocations
                                        are known and differ, "; registers: REF R, OTHER O",
                                        "; shared bytes: ...", "; private bytes: ..." */
} sb_cross_row;

/* One experiment of a run: its results and its rows, each in run order. */
typedef struct sb_cross_experiment {
    size_t first;          /* its first result */
    const size_t *results; /* indices into run->results */
    size_t nresults;
    const size_t *rows;    /* indices into x->rows */
    size_t nrows;
} sb_cross_experiment;

typedef struct sb_crossapi {
    int ndevices;
    int reference;                        /* the slot others are compared with: the
                                             first device of the run unless asked for
                                             another (sb_crossapi_reference) */
    char label[SB_RUN_MAX_DEVICES][SB_SLOT_LABEL]; /* sb_slot_label of each slot */
    size_t nrows;
    sb_cross_row *rows;                   /* in the order the run first met each variant */
    long *row_of;                         /* per result: the row it is in; -1 for a result
                                             whose device is not one of the run's */
    size_t nexperiments;
    sb_cross_experiment *experiments;     /* in the order the run first met each */
    /* What the pointers above point into. */
    sb_verdict *verdicts, *host_verdicts;
    const char **notes;
    size_t *order;
    long *slots;                          /* the rows' results, ndevices a row */
    const struct sb_noise *noise;         /* the run's noise (noise.h) the verdicts were
                                             judged with; NULL: judged row by row */
} sb_crossapi;

/* Whether the side-by-side layout applies: two or more devices in the run. */
static inline int sb_crossapi_side_by_side(const sb_crossapi *x)
{
    return x->ndevices >= 2;
}

#endif
