#include "plateau.h"

#include <stdlib.h>
#include <string.h>

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The median of y[first..last]. */
static double median_of(const double *y, int first, int last)
{
    double v[SB_PLATEAU_POINTS_MAX];
    int n = last - first + 1;
    memcpy(v, y + first, sizeof v[0] * (size_t)n);
    qsort(v, (size_t)n, sizeof v[0], by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Whether a and b are further apart than a factor of `by` (or either is
   not a positive figure). */
static int apart(double a, double b, double by)
{
    if (!(a > 0) || !(b > 0))
        return 1;
    return b / a > by || a / b > by;
}

/* The runs of two points or more between the jumps, into out; their count. */
static int runs(const double *y, int n, sb_plateau *out, int max)
{
    int count = 0, start = 0;
    for (int i = 1; i <= n; i++) {
        if (i < n && !apart(y[i - 1], y[i], SB_PLATEAU_JUMP))
            continue;
        if (i - start >= 2 && count < max)
            out[count++] = (sb_plateau){start, i - 1, median_of(y, start, i - 1)};
        start = i;
    }
    return count;
}

int sb_plateaus(const double *y, int n, sb_plateau *out, int max)
{
    if (n < 2 || n > SB_PLATEAU_POINTS_MAX || max < 1)
        return 0;
    sb_plateau run[SB_PLATEAU_POINTS_MAX / 2];
    int nruns = runs(y, n, run, SB_PLATEAU_POINTS_MAX / 2), count = 0;
    for (int r = 0; r < nruns; r++) {
        sb_plateau *prev = count ? &out[count - 1] : NULL;
        if (prev && !apart(prev->level, run[r].level, SB_PLATEAU_MERGE)) {
            prev->last = run[r].last;
            prev->level = median_of(y, prev->first, prev->last);
        } else if (count < max) {
            out[count++] = run[r];
        }
    }
    return count;
}

int sb_sweep_reaches(const double *y, int n, double threshold)
{
    int from = -1;
    for (int i = n - 1; i >= 0 && y[i] >= threshold; i--)
        from = i;
    return from;
}
