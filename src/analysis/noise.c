/* Noise (noise.h). */
#include "analysis/noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/crossapi.h"
#include "experiments/experiment.h"

/* Above this many repetitions the binomial tail is taken from the normal
 * approximation: 2^-n underflows a double not far beyond. */
#define EXACT_RANKS 1000

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The largest rank j (1-based) with P(Binomial(n, 1/2) < j) <= 2.5%, so
 * that [x_j, x_(n+1-j)] holds the median with 95% confidence; 1 (min and
 * max) where no rank is that far out. */
static size_t median_rank(size_t n)
{
    if (n > EXACT_RANKS) {
        double j = floor(0.5 * ((double)n - 1.959964 * sqrt((double)n)));
        return j < 1 ? 1 : (size_t)j;
    }
    double p = ldexp(1.0, -(int)n), tail = 0; /* P(B = i), P(B < j) */
    size_t j = 1;
    for (size_t i = 0; i < n / 2; i++) {
        tail += p;
        if (tail > 0.025)
            break;
        j = i + 1;
        p = p * (double)(n - i) / (double)(i + 1);
    }
    return j;
}

double sb_noise_spread(const sb_result *r)
{
    size_t n = r->samples ? r->nsamples : 0;
    if (n < SB_VERDICT_MIN_SAMPLES)
        return -1;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return -1;
    for (size_t i = 0; i < n; i++) {
        x[i] = r->samples[i];
        if (!(x[i] > 0) || !isfinite(x[i])) {
            free(x);
            return -1;
        }
    }
    qsort(x, n, sizeof *x, by_value);
    double median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    size_t j = median_rank(n);
    double low = x[j - 1], high = x[n - j];
    free(x);
    return 0.5 * (high - low) / median;
}

double sb_noise_drift(const sb_run_device *d)
{
    double a = d->roof_start_gbs, b = d->roof_end_gbs;
    if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b))
        return -1;
    return fmax(a / b, b / a) - 1.0;
}

static int is_api_copy(const sb_result *r)
{
    return r->quantity == SB_QUANTITY_BANDWIDTH && sb_result_role(r) == SB_ROLE_API_COPY;
}

/* A row's own noise, without the roof's. */
static sb_noise_row own_noise(const sb_run *run, const sb_result *r, double margin)
{
    sb_noise_row row = {.spread = sb_noise_spread(r), .drift = -1};
    if (r->device_slot >= 0 && r->device_slot < run->ndevices)
        row.drift = sb_noise_drift(&run->devices[r->device_slot]);
    if (row.spread > margin)
        row.noisy |= SB_NOISY_SPREAD;
    if (row.drift > margin)
        row.noisy |= SB_NOISY_DRIFT;
    return row;
}

static double margin_of(double threshold)
{
    return SB_VERDICT_TOLERANCE + (threshold > 0 ? threshold : 0.0);
}

/* The roof flag of a row, given whether its device's roof is noisy. */
static void flag_roof(const sb_result *r, int roof_noisy, sb_noise_row *row)
{
    row->roof_noisy = r->roof_share > 0 && (roof_noisy || (row->noisy && r->roof_share > 1.0));
}

sb_noise_row sb_noise_row_of(const sb_run *run, const sb_result *r, double threshold)
{
    sb_noise_row row = own_noise(run, r, margin_of(threshold));
    flag_roof(r, 0, &row);
    return row;
}

int sb_noise_build(const sb_run *run, double threshold, sb_noise *n)
{
    memset(n, 0, sizeof *n);
    n->margin = margin_of(threshold);
    for (int s = 0; s < SB_RUN_MAX_DEVICES; s++)
        n->drift[s] = s < run->ndevices ? sb_noise_drift(&run->devices[s]) : -1;
    if (run->nresults == 0)
        return 0;
    n->rows = calloc(run->nresults, sizeof *n->rows);
    if (!n->rows)
        return -1;
    n->nrows = run->nresults;
    int roof_noisy[SB_RUN_MAX_DEVICES] = {0};
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        n->rows[i] = own_noise(run, r, n->margin);
        if (is_api_copy(r) && n->rows[i].noisy && r->device_slot >= 0 &&
            r->device_slot < SB_RUN_MAX_DEVICES)
            roof_noisy[r->device_slot] = 1;
    }
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        int slot = r->device_slot;
        flag_roof(r, slot >= 0 && slot < SB_RUN_MAX_DEVICES && roof_noisy[slot], &n->rows[i]);
        n->noisy += n->rows[i].noisy != 0;
        n->judged += n->rows[i].spread >= 0 || n->rows[i].drift >= 0;
    }
    return 0;
}

size_t sb_noise_count(const sb_noise *n)
{
    return n->noisy;
}

int sb_noise_mostly(const sb_noise *n)
{
    return n->judged > 0 && 2 * n->noisy > n->judged;
}

const sb_noise_row *sb_noise_at(const sb_noise *n, size_t i)
{
    return n && i < n->nrows ? &n->rows[i] : NULL;
}

/* The spread cell of sb_noise_cells. */
static int spread_cell(const sb_noise_row *row, const sb_result *r, char *buf, size_t n)
{
    if (row && (row->noisy & SB_NOISY_SPREAD))
        return snprintf(buf, n, "noisy %.1f%%", 100.0 * row->spread);
    if (row && (row->noisy & SB_NOISY_DRIFT))
        return snprintf(buf, n, "noisy drift %.1f%%", 100.0 * row->drift);
    if (row && row->spread >= 0)
        return snprintf(buf, n, "%.1f%%", 100.0 * row->spread);
    return snprintf(buf, n, "~%.1f%%", 100.0 * r->ms.spread);
}

void sb_noise_cells(const sb_noise *noise, size_t i, const sb_result *r, char *spread,
                    char *roof, size_t n)
{
    const sb_noise_row *row = sb_noise_at(noise, i);
    spread_cell(row, r, spread, n);
    if (!(r->roof_share > 0))
        snprintf(roof, n, "%s", "");
    else if (row && row->roof_noisy)
        snprintf(roof, n, "noisy roof");
    else
        snprintf(roof, n, "%.1f", 100.0 * r->roof_share);
}

int sb_noise_text(const sb_noise_row *row, char *buf, size_t n)
{
    if (!row || !row->noisy)
        return snprintf(buf, n, "%s", "");
    if ((row->noisy & SB_NOISY_SPREAD) && (row->noisy & SB_NOISY_DRIFT))
        return snprintf(buf, n, "noisy (spread %.1f%%, drift %.1f%%)", 100.0 * row->spread,
                        100.0 * row->drift);
    if (row->noisy & SB_NOISY_SPREAD)
        return snprintf(buf, n, "noisy (spread %.1f%%)", 100.0 * row->spread);
    return snprintf(buf, n, "noisy (drift %.1f%%)", 100.0 * row->drift);
}

int sb_noise_summary(const sb_noise *n, char *buf, size_t len)
{
    if (!sb_noise_mostly(n))
        return snprintf(buf, len, "%s", "");
    return snprintf(buf, len,
                    "Noisy run: %zu of %zu rows are noisy (spread or drift beyond %.1f%%); "
                    "their verdicts, lessons and roof%% are withheld, and figures from it are "
                    "not to be compared.",
                    n->noisy, n->judged, 100.0 * n->margin);
}

void sb_noise_free(sb_noise *n)
{
    free(n->rows);
    memset(n, 0, sizeof *n);
}
