/* A verdict: what analysis says of two measurements of one variant, and
 * the words every writer shows it in.  Part of the analysis's public API
 * for writers (analysis.h lists it): a writer reads a verdict's fields and
 * formats them with the functions here, which compute nothing new.  How a
 * verdict is reached is analysis/crossapi.h's rule; SB_VERDICT_RULE, its
 * legend in one sentence, is here for the writers to print. */
#ifndef SB_VERDICT_H
#define SB_VERDICT_H

#include <stddef.h>

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

#endif
