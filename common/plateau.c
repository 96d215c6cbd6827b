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

/* The runs, left to right: from each point, the longest stretch whose
   points all lie within a factor SB_PLATEAU_JUMP of each other; a stretch
   of two points or more is a run, a lone point (or one that is not a
   positive figure) a transition.  Their count, into out. */
static int runs(const double *y, int n, sb_plateau *out, int max)
{
    int count = 0;
    for (int start = 0; start < n;) {
        double lo = y[start], hi = y[start];
        int end = start + 1;
        for (; y[start] > 0 && end < n && y[end] > 0; end++) {
            double l = y[end] < lo ? y[end] : lo, h = y[end] > hi ? y[end] : hi;
            if (h / l > SB_PLATEAU_JUMP)
                break;
            lo = l, hi = h;
        }
        if (end - start >= 2 && count < max)
            out[count++] = (sb_plateau){start, end - 1, median_of(y, start, end - 1)};
        start = end;
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
