#include "atomics_model.h"

#include <math.h>
#include <stddef.h>

#include "model.h"

#define MAX_BALLS 64

const char *sb_bin_dist_name(sb_bin_dist d)
{
    switch (d) {
    case SB_BINS_UNIFORM: return "uniform";
    case SB_BINS_SKEWED: return "skewed";
    }
    return NULL;
}

double sb_bins_touched(long bins, sb_bin_dist d, double updates)
{
    if (bins < 1 || !(updates >= 0) || !sb_bin_dist_name(d))
        return -1.0;
    if (updates == 0)
        return 0.0;
    if (d == SB_BINS_SKEWED || bins == 1)
        return 1.0;
    /* (1 - 1/B)^u through log1p, exact enough where 1/B is tiny. */
    return (double)bins * -expm1(updates * log1p(-1.0 / (double)bins));
}

double sb_atomic_distinct_addresses(long bins, sb_bin_dist d)
{
    return sb_bins_touched(bins, d, SB_WARP_LANES);
}

double sb_atomic_same_address(long bins, sb_bin_dist d)
{
    double distinct = sb_atomic_distinct_addresses(bins, d);
    return distinct > 0 ? SB_WARP_LANES / distinct : -1.0;
}

/* The coefficients of prod_k sum_{j <= cap} (p_k x)^j / j! up to x^balls,
 * into poly[0..balls]: the exponential generating function of the ways
 * to put the balls with at most `cap` in any bin. */
static void capped_egf(int balls, const double *p, int nbins, int cap, double *poly)
{
    double factor[MAX_BALLS + 1], next[MAX_BALLS + 1];
    for (int i = 0; i <= balls; i++)
        poly[i] = i == 0;
    for (int k = 0; k < nbins; k++) {
        if (p[k] == 0)
            continue;
        double term = 1.0;
        for (int j = 0; j <= balls; j++) {
            factor[j] = j <= cap ? term : 0.0;
            term *= p[k] / (j + 1);
        }
        for (int i = 0; i <= balls; i++) {
            double s = 0;
            for (int j = 0; j <= i; j++)
                s += poly[i - j] * factor[j];
            next[i] = s;
        }
        for (int i = 0; i <= balls; i++)
            poly[i] = next[i];
    }
}

double sb_expected_max_load(int balls, const double *p, int nbins)
{
    if (balls < 1 || balls > MAX_BALLS || !p || nbins < 1)
        return -1.0;
    double sum = 0;
    for (int k = 0; k < nbins; k++) {
        if (!(p[k] >= 0) || p[k] > 1)
            return -1.0;
        sum += p[k];
    }
    if (fabs(sum - 1.0) > 1e-9)
        return -1.0;
    double fact = 1.0;
    for (int i = 2; i <= balls; i++)
        fact *= i;
    /* E[max] = sum over m < balls of P(max > m) = 1 - P(max <= m). */
    double expected = 0.0, poly[MAX_BALLS + 1];
    for (int m = 0; m < balls; m++) {
        capped_egf(balls, p, nbins, m, poly);
        double at_most = fact * poly[balls];
        expected += 1.0 - (at_most < 1.0 ? at_most : 1.0);
    }
    return expected;
}

double sb_atomic_bank_ways(long bins, sb_bin_dist d)
{
    if (bins < 1 || !sb_bin_dist_name(d))
        return -1.0;
    if (d == SB_BINS_SKEWED)
        return SB_WARP_LANES;
    /* Bank k holds the bins b < B with b % 32 == k. */
    double p[SB_BANKS];
    for (int k = 0; k < SB_BANKS; k++) {
        long words = bins / SB_BANKS + (k < bins % SB_BANKS);
        p[k] = (double)words / (double)bins;
    }
    return sb_expected_max_load(SB_WARP_LANES, p, SB_BANKS);
}

double sb_private_atomics_per_input(long bins, sb_bin_dist d, long per_block, long inputs)
{
    if (per_block < 1 || inputs < 1)
        return -1.0;
    long full = inputs / per_block, rest = inputs % per_block;
    double whole = sb_bins_touched(bins, d, (double)per_block);
    double last = sb_bins_touched(bins, d, (double)rest);
    if (whole < 0 || last < 0)
        return -1.0;
    return ((double)full * whole + last) / (double)inputs;
}
