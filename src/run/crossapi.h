/* Cross-API pairing and verdicts: the rows of one experiment, variant and
 * size measured on different devices (CUDA and OpenCL, or two sessions of
 * one backend) put side by side, and the one rule that says whether two
 * measurements differ.  Every report writer and `simtbench compare` use
 * this file, so the rule is stated once.
 *
 * The rule.  Let t_ref and t_other be the two median times and s_ref,
 * s_other the two runs' spreads ((max - min) / median).  The relative change
 * is d = (t_other - t_ref) / t_ref.  The two are the same when
 * |d| <= max(s_ref, s_other) + threshold; otherwise the one with the smaller
 * median is faster, by t_slow / t_fast - 1 (how much longer the slower one
 * takes).  The speed ratio other/ref is t_ref / t_other: the ratio of the
 * headline figures for GB/s and GFLOP/s, and the right way round for every
 * unit (above 1: other is faster). */
#ifndef SB_CROSSAPI_H
#define SB_CROSSAPI_H

#include <stddef.h>

#include "result.h"

/* The rule in one sentence, for every report's legend. */
#define SB_VERDICT_RULE                                                                            \
    "Verdict: \"same\" when the two median times differ by no more than the larger of the two "   \
    "spreads ((max - min) / median); otherwise the faster one, by how much longer the slower "    \
    "one takes."

typedef enum sb_verdict_kind {
    SB_VERDICT_NONE,   /* a side is missing or has no time */
    SB_VERDICT_SAME,   /* within the larger spread (plus threshold) */
    SB_VERDICT_FASTER, /* other is faster than ref */
    SB_VERDICT_SLOWER  /* other is slower than ref */
} sb_verdict_kind;

typedef struct sb_verdict {
    sb_verdict_kind kind;
    double speed_ratio; /* t_ref / t_other */
    double change;      /* (t_other - t_ref) / t_ref */
    double margin;      /* what |change| had to exceed: larger spread + threshold */
    double by;          /* t_slow / t_fast - 1; 0 when the same */
} sb_verdict;

/* The verdict on other against ref, by the rule above (threshold a fraction). */
sb_verdict sb_verdict_of(const sb_stats *ref, const sb_stats *other, double threshold);

/* "same (within M%)", "OTHER faster by P%", "REF faster by P%", or "n/a",
 * with the two names given; snprintf's return. */
int sb_verdict_text(const sb_verdict *v, const char *ref_name, const char *other_name, char *buf,
                    size_t n);

/* A short name of a run's device slot: its backend, with "#k" (1-based)
 * when the run opened that backend more than once ("opencl#2"). */
void sb_slot_label(const sb_run *run, int slot, char *buf, size_t n);

/* One variant at one size, across the devices of a run. */
typedef struct sb_cross_row {
    size_t first;                    /* a result of the row (for experiment, variant, size) */
    long result[SB_RUN_MAX_DEVICES]; /* index into run->results per device slot; -1: none */
    const sb_verdict *verdict;       /* per device slot (x->ndevices of them): that slot
                                        against the reference slot */
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
    char label[SB_RUN_MAX_DEVICES][24];   /* sb_slot_label of each slot */
    size_t nrows;
    sb_cross_row *rows;                   /* in the order the run first met each variant */
    long *row_of;                         /* per result: the row it is in; -1 for a result
                                             whose device is not one of the run's */
    size_t nexperiments;
    sb_cross_experiment *experiments;     /* in the order the run first met each */
    /* What the pointers above point into. */
    sb_verdict *verdicts;
    const char **notes;
    size_t *order;
} sb_crossapi;

/* The slot of the first device of the named backend, the reference that
 * --reference NAME asks for; 0 (the first device) for NULL, -1 when the run
 * has no device of that backend. */
int sb_crossapi_reference(const sb_run *run, const char *backend);

/* Pair the run's results against the reference slot (one out of range
 * means slot 0), and group them by experiment; 0, or -1 when out of memory
 * (x then has no rows).  Sorting, not searching, pairs them: the time
 * grows as n log n with the number of results. */
int sb_crossapi_build(const sb_run *run, int reference, sb_crossapi *x);

/* Free what sb_crossapi_build allocated. */
void sb_crossapi_free(sb_crossapi *x);

/* Whether the side-by-side layout applies: two or more devices in the run. */
int sb_crossapi_side_by_side(const sb_crossapi *x);

#endif
