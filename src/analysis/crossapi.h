/* Cross-API pairing and verdicts: the rows of one experiment, variant and
 * size measured on different devices (CUDA and OpenCL, or two sessions of
 * one backend) put side by side, and the one rule that says whether two
 * measurements differ.  Analysis and `simtbench compare` use this file, so
 * the rule is stated once; writers read the verdicts it gave
 * (cross_pairs.h, verdict.h) and never include it.
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

#include "analysis/cross_pairs.h"
#include "analysis/verdict.h"
#include "result.h"

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

#endif
