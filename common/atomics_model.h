/* The contention model of atomic updates (seed 001's privatisation).
 *
 * A histogram's warp instruction has its 32 lanes each add 1 to the bin of
 * its input.  For the declared distribution of the inputs over the bins,
 * the model says how many distinct addresses that instruction updates, so
 * how many updates land on one address (which the hardware serialises),
 * how many lanes the busiest shared-memory bank serves when a private copy
 * of the histogram takes the updates instead, and how many global atomics
 * per input are left once a block merges its private copy.
 *
 * Distributions:
 *   uniform  every input's bin independent and uniform over the B bins
 *   skewed   every input in one bin: the worst contention
 *
 * Plain C11, no GPU.  A bad argument gives -1, never a number. */
#ifndef SB_ATOMICS_MODEL_H
#define SB_ATOMICS_MODEL_H

typedef enum sb_bin_dist { SB_BINS_UNIFORM, SB_BINS_SKEWED } sb_bin_dist;

/* "uniform" / "skewed", or NULL for a value out of range. */
const char *sb_bin_dist_name(sb_bin_dist d);

/* Expected distinct bins that `updates` updates touch: uniform
 * B (1 - (1 - 1/B)^updates), skewed 1 (0 for no updates); -1 for bins < 1,
 * updates < 0 or a bad distribution. */
double sb_bins_touched(long bins, sb_bin_dist d, double updates);

/* Expected distinct addresses one warp instruction's 32 lanes update:
 * sb_bins_touched of 32 updates. */
double sb_atomic_distinct_addresses(long bins, sb_bin_dist d);

/* Expected updates per address in one warp instruction, 32 over the
 * distinct addresses: 32 when skewed (or with one bin), near 1 when the
 * bins far outnumber the lanes. */
double sb_atomic_same_address(long bins, sb_bin_dist d);

/* Expected lanes of one warp instruction in its busiest shared-memory bank
 * when bin b of the private copy is word b (bank b % 32).  Each lane's
 * update is a read-modify-write of its own, so lanes on one address
 * serialise as lanes on one bank do: 32 when skewed, about 3.5 (the
 * busiest of 32 banks for 32 random lanes) with 32 or more uniform bins. */
double sb_atomic_bank_ways(long bins, sb_bin_dist d);

/* The expected largest number of `balls` balls (1..64) that one of
 * `nbins` bins receives, each ball independently in bin k with probability
 * p[k] (the p summing to 1): exact, from the distribution of the maximum
 * (a multinomial through exponential generating functions); -1 for bad
 * arguments. */
double sb_expected_max_load(int balls, const double *p, int nbins);

/* Global atomics per input when `inputs` inputs (>= 1) go to blocks of
 * `per_block` (>= 1; the last block takes the rest), each of which keeps a
 * private histogram and merges each bin it filled with one atomic: the
 * blocks' sb_bins_touched over the inputs.  1 is no saving over an atomic
 * per input; skewed inputs leave one atomic a block. */
double sb_private_atomics_per_input(long bins, sb_bin_dist d, long per_block, long inputs);

#endif
