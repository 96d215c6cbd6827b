/* Noise: how far each row's own repetitions let its median be trusted,
 * and whether its device drifted while the run went on.  Decided once,
 * here, from the saved samples and the devices' drift checks, so that a
 * saved run read back (with or without the fields this adds) is judged
 * the same way as the run that measured it; writers, compare and the
 * lessons only print what this says.
 *
 * The spread of a row: of its sorted repetitions, the distribution-free
 * 95% interval of the median (the order statistics j and n + 1 - j, j
 * the largest rank whose binomial tail stays within 2.5%; min and max
 * where fewer repetitions leave no such rank), its half-width over the
 * median: the "plus or minus" of the median.  It assumes nothing of the
 * shape of the times, which on a GPU are skewed and often bimodal, and
 * one outlier does not move it, unlike (max - min) / median.
 *
 * A row is noisy when that spread exceeds the margin, SB_VERDICT_TOLERANCE
 * plus the threshold: the verdicts claim to resolve differences of the
 * tolerance, which a median uncertain by more than it cannot support.  A
 * device drifted when its copy roof, re-measured once its session had
 * run every experiment, differs from its first measurement by more than
 * the margin either way (the larger over the smaller, less one); every
 * row of a drifted device is noisy, since its repetitions, taken close
 * together, cannot see what moved between its rows.  Rows with fewer than
 * SB_VERDICT_MIN_SAMPLES usable repetitions (older files: none) have no
 * spread and are never called noisy by it. */
#ifndef SB_NOISE_H
#define SB_NOISE_H

#include <stddef.h>

#include "result.h"

/* The rule in one sentence, for every report's legend. */
#define SB_NOISE_RULE                                                                             \
    "Spread: of a row's repetitions, the half-width of the distribution-free 95% interval of "  \
    "the median time, over the median (where fewer than 5 repetitions were saved, \"~\" and "   \
    "(max - min) / median, which judges nothing).  A row is noisy when its spread exceeds 2% " \
    "(the tolerance of every comparison) plus "                                                             \
    "any threshold, or when its device's copy roof, measured again at the end of its "         \
    "session, moved by more than that from the start (drift); a noisy row is never called "    \
    "faster, slower or the same, and its roof% is not given as a fact."

/* Why a row is noisy, as bits. */
enum {
    SB_NOISY_SPREAD = 1, /* its spread exceeds the margin */
    SB_NOISY_DRIFT = 2   /* its device drifted beyond the margin */
};

/* One row's noise. */
typedef struct sb_noise_row {
    double spread;  /* as above, a fraction; negative where the row has too few samples */
    double drift;   /* its device's drift, a fraction; negative where not measured */
    int noisy;      /* SB_NOISY_ bits; 0: quiet (or unknown) */
    int roof_noisy; /* its roof% is not a fact: the roof it is taken against is noisy,
                       or the row is noisy and above the roof */
} sb_noise_row;

/* A run's noise: one row per result, in run order. */
typedef struct sb_noise {
    double margin;        /* the tolerance plus the threshold */
    size_t nrows;         /* run->nresults */
    sb_noise_row *rows;
    size_t noisy;         /* rows noisy for either reason */
    size_t judged;        /* rows with a spread or a drift to judge by */
    double drift[SB_RUN_MAX_DEVICES]; /* per device slot, negative: not measured */
} sb_noise;

/* The spread of r as above, a fraction; -1 where it has fewer than
 * SB_VERDICT_MIN_SAMPLES samples or one that is not a positive time. */
double sb_noise_spread(const sb_result *r);

/* A device's drift: its roof's end over start, or the inverse, whichever
 * is larger, less one; -1 where either was not measured. */
double sb_noise_drift(const sb_run_device *d);

/* One row's noise in its run, against tolerance plus threshold; its roof
 * flagged only where the row itself is noisy and above the roof (the
 * roof's own noise needs the whole run: sb_noise_build). */
sb_noise_row sb_noise_row_of(const sb_run *run, const sb_result *r, double threshold);

/* Judge every row of the run into *n; 0, or -1 out of host memory (n then
 * has no rows). */
int sb_noise_build(const sb_run *run, double threshold, sb_noise *n);

/* How many rows of the run are noisy (for a run's closing summary). */
size_t sb_noise_count(const sb_noise *n);

/* Whether most of the rows judged are noisy: more than half. */
int sb_noise_mostly(const sb_noise *n);

/* The row's noise, NULL where n has no row i (a run not yet judged). */
const sb_noise_row *sb_noise_at(const sb_noise *n, size_t i);

/* Result r's (result i of the run) cells: its spread into spread ("1.2%",
 * "noisy 123.4%", "noisy drift 5.0%"; where no repetitions were saved,
 * "~3.4%", the (max - min) / median the run saved), and its roof% into
 * roof ("" without a share, "noisy roof" where the share is no fact, else
 * "97.3"); each of n bytes. */
void sb_noise_cells(const sb_noise *noise, size_t i, const sb_result *r, char *spread,
                    char *roof, size_t n);

/* What a noisy row says in place of a verdict: "noisy (spread 123.4%)",
 * "noisy (drift 5.0%)"; "" for a quiet row.  snprintf's return. */
int sb_noise_text(const sb_noise_row *row, char *buf, size_t n);

/* The line under a run whose rows are mostly noisy ("" otherwise): how
 * many, and what that means for its verdicts.  snprintf's return. */
int sb_noise_summary(const sb_noise *n, char *buf, size_t len);

/* Free what sb_noise_build allocated. */
void sb_noise_free(sb_noise *n);

#endif
