/* Cross-API pairing and verdicts: the rows of one experiment, variant and
 * size measured on different devices (CUDA and OpenCL, or two sessions of
 * one backend) put side by side, and the one rule that says whether two
 * measurements differ.  Every report writer and `simtbench compare` use
 * this file, so the rule is stated once.
 *
 * The rule, where both sides saved at least SB_VERDICT_MIN_SAMPLES
 * repetitions.  The point estimate is the ratio of the median times,
 * other/ref.  Its 95% interval is that of the Hodges-Lehmann estimate of
 * the shift between the log times: of the m x n differences
 * log(t_other,j) - log(t_ref,i), the estimate is their median and the
 * interval runs from the k-th smallest to the k-th largest, with k the
 * Mann-Whitney critical rank for a two-sided 95% (exact for m x n up to
 * SB_VERDICT_EXACT_PAIRS, the normal approximation with a continuity
 * correction above); exponentiated, a ratio of times.  It is
 * distribution-free: it assumes only that the two sides' log times have
 * the same shape, one shifted from the other (a ratio of times), and
 * nothing about that shape, which for GPU timings is skewed and often
 * bimodal; no resampling, so no seed, and the same for the same data.
 * Chosen over a bootstrap of the ratio of medians because the median of a
 * few repetitions takes few values, which makes a bootstrap interval
 * lumpy and too short for the 5 to 20 repetitions a run saves.
 *
 * The two are "same" unless the whole interval lies beyond the tolerance
 * (SB_VERDICT_TOLERANCE plus any threshold, t) either way: above 1 + t or
 * below 1 / (1 + t).  So a verdict other than "same" says that the
 * difference is larger than the tolerance with 95% confidence, and "same"
 * says that no difference larger than it was shown, with the interval to
 * say how closely.  An interval that merely excludes 1 is not enough:
 * repetitions within one run do not see what moves between runs (clocks,
 * temperature, placement), so long runs would flag sub-percent drifts
 * that the next run reverses.  Otherwise the one with the smaller median
 * is faster, by t_slow / t_fast - 1 (how much longer the slower one
 * takes).
 *
 * The spread rule, where a side has fewer repetitions saved (files that
 * predate them have none): let s_ref, s_other be the two runs' spreads
 * ((max - min) / median) and d = (t_other - t_ref) / t_ref; the two are
 * the same when |d| <= max(s_ref, s_other) + threshold; otherwise as
 * above.  The speed ratio other/ref is t_ref / t_other: the ratio of the
 * headline figures for GB/s and GFLOP/s, and the right way round for every
 * unit (above 1: other is faster). */
#ifndef SB_CROSSAPI_H
#define SB_CROSSAPI_H

#include <stddef.h>

#include "result.h"

/* The fewest repetitions per side the interval is computed from. */
#define SB_VERDICT_MIN_SAMPLES 5

/* The tolerance, a fraction: a difference no larger is never flagged. */
#define SB_VERDICT_TOLERANCE 0.02

/* Up to this many pairs (m x n) the Mann-Whitney rank is exact. */
#define SB_VERDICT_EXACT_PAIRS 2500

/* The rule in one sentence, for every report's legend. */
#define SB_VERDICT_RULE                                                                            \
    "Verdict: from both sides' repetitions, the 95% interval of the time ratio other/ref "      \
    "(Hodges-Lehmann shift of the log times with its distribution-free Mann-Whitney "          \
    "interval); \"same\" unless the whole interval lies beyond 2% either way (above 1.02 or "  \
    "below 1/1.02), so any other verdict is a difference larger than 2% at 95% confidence, "    \
    "2% being what drifts between runs that one run's repetitions do not see; otherwise the "  \
    "faster one, by how much longer the slower one's median takes.  Where a side saved fewer " \
    "than 5 repetitions (older files: none), the spread rule, as its row says: \"same\" when "  \
    "the two median times differ by no more than the larger of the two spreads "             \
    "((max - min) / median).  A row noisy on either side (its spread or its device's drift "  \
    "beyond the tolerance) gets no verdict but \"noisy\", with how much."

typedef enum sb_verdict_kind {
    SB_VERDICT_NONE,   /* a side is missing or has no time */
    SB_VERDICT_SAME,   /* no difference beyond the tolerance shown (or within the spread) */
    SB_VERDICT_FASTER, /* other is faster than ref */
    SB_VERDICT_SLOWER, /* other is slower than ref */
    SB_VERDICT_NOISY   /* a side is noisy (run/noise.h): neither same nor different */
} sb_verdict_kind;

/* What a verdict was reached by. */
typedef enum sb_verdict_basis {
    SB_BASIS_NONE,     /* no verdict */
    SB_BASIS_INTERVAL, /* the interval of both sides' repetitions */
    SB_BASIS_SPREAD    /* the spread rule: a side has too few usable repetitions */
} sb_verdict_basis;

typedef struct sb_verdict {
    sb_verdict_kind kind;
    sb_verdict_basis basis;
    double speed_ratio; /* t_ref / t_other, of the medians */
    double change;      /* (t_other - t_ref) / t_ref, of the medians */
    double margin;      /* the interval's: the tolerance it had to clear; the spread
                           rule's: what |change| had to exceed, larger spread + threshold */
    double by;          /* t_slow / t_fast - 1 of the medians; 0 when the same */
    double ratio_low, ratio_high; /* the interval's: 95% bounds of the time ratio
                                     other/ref; 0 under the spread rule */
    double estimate;    /* the interval's: the Hodges-Lehmann time ratio other/ref */
    size_t fewest;      /* the spread rule's: the fewer usable repetitions of the two */
    double noise;       /* a noisy verdict's: the larger spread or drift of the noisy
                           side(s), a fraction */
    double noise_spread, noise_drift; /* of those, the larger spread and the larger drift
                                         beyond the margin; 0 where none */
    int noisy;          /* a noisy verdict's: SB_NOISY_ bits of the two sides together */
} sb_verdict;

/* The verdict on other against ref by the spread rule (threshold a fraction). */
sb_verdict sb_verdict_of(const sb_stats *ref, const sb_stats *other, double threshold);

/* The verdict on other against ref by the rule above: the interval where
 * both have SB_VERDICT_MIN_SAMPLES positive finite samples, with tolerance
 * SB_VERDICT_TOLERANCE + threshold; else (or out of host memory) the
 * spread rule with that threshold.  Where either side's spread is noisy
 * (run/noise.h) the kind is SB_VERDICT_NOISY, the figures kept. */
sb_verdict sb_verdict_compare(const sb_result *ref, const sb_result *other, double threshold);

/* As sb_verdict_compare without the noise: the interval or the spread
 * rule alone, for a rule that allows for scatter itself (the fleet's
 * outliers, fleet.h, stand far outside their peers' spread first). */
sb_verdict sb_verdict_of_times(const sb_result *ref, const sb_result *other, double threshold);

/* As sb_verdict_compare, with each side's device's drift too (ref in
 * ref_run, other in other_run): noisy where either side is, by its
 * spread or its device's drift. */
sb_verdict sb_verdict_judge(const sb_run *ref_run, const sb_result *ref, const sb_run *other_run,
                            const sb_result *other, double threshold);

/* "same (within M%)", "OTHER faster by P%", "REF faster by P%", "noisy
 * (spread S%)" or "noisy (drift D%)", or "n/a",
 * with the two names given; M is the spread rule's margin, or how far from
 * equal the interval reaches (the slower taking up to M% longer).
 * snprintf's return. */
int sb_verdict_text(const sb_verdict *v, const char *ref_name, const char *other_name, char *buf,
                    size_t n);

/* How far apart a "same" allows the two to be, as a fraction: the spread
 * rule's margin, or how much longer the slower could take by the interval
 * (the M of "same (within M%)"). */
double sb_verdict_within(const sb_verdict *v);

/* How a verdict's interval is shown. */
typedef enum sb_interval_form {
    SB_INTERVAL_SPEED, /* of the speed ratio ref/other: "[0.981, 1.012]" */
    SB_INTERVAL_CHANGE /* of the time change other/ref - 1: "[-1.2%, +1.9%]" */
} sb_interval_form;

/* The verdict's interval in that form; under the spread rule "spread rule
 * (no samples)" or "spread rule (N samples)"; "" without a verdict.
 * snprintf's return. */
int sb_verdict_interval_text(const sb_verdict *v, sb_interval_form form, char *buf, size_t n);

/* "interval", "spread rule" or "none": the basis as one word for data. */
const char *sb_verdict_basis_name(const sb_verdict *v);

/* How long a slot's label may be, NUL included. */
#define SB_SLOT_LABEL 48

/* A short name of a run's device slot: its backend's name; then, where
 * the run holds another device of that backend with another index, the
 * index (":1", or ":P.D" where their platforms differ too), or, at one
 * index (tasks a launcher bound to one GPU each), the PCI address where
 * theirs differ ("@3b:00.0", without a domain of 0000); before it all,
 * in a run whose devices come from more than one host, the host and a
 * slash ("gpu07/cuda:1"); and last, where two slots would still read the
 * same (one device opened twice, or two runs of one host merged), "#k",
 * 1-based in slot order ("opencl#2"). */
void sb_slot_label(const sb_run *run, int slot, char *buf, size_t n);

/* Every slot's label at once (labels[0..run->ndevices)): what
 * sb_slot_label gives each, in time that grows with the square of the
 * devices rather than the cube. */
void sb_slot_labels(const sb_run *run, char (*labels)[SB_SLOT_LABEL]);

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

/* The slot of the first device of the named backend, the reference that
 * --reference NAME asks for; 0 (the first device) for NULL, -1 when the run
 * has no device of that backend. */
int sb_crossapi_reference(const sb_run *run, const char *backend);

/* Pair the run's results against the reference slot (one out of range
 * means slot 0), and group them by experiment; 0, or -1 when out of memory
 * (x then has no rows).  Sorting, not searching, pairs them: the time
 * grows as n log n with the number of results. */
int sb_crossapi_build(const sb_run *run, int reference, sb_crossapi *x);

/* As sb_crossapi_build, the verdicts judged with noise, the run's noise
 * already built (sb_noise_build at no threshold), instead of judging each
 * row's again; noise must outlive x. */
int sb_crossapi_build_judged(const sb_run *run, int reference, const struct sb_noise *noise,
                             sb_crossapi *x);

/* Free what sb_crossapi_build allocated. */
void sb_crossapi_free(sb_crossapi *x);

/* Whether the side-by-side layout applies: two or more devices in the run. */
int sb_crossapi_side_by_side(const sb_crossapi *x);

#endif
