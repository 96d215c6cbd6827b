#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorting a copy keeps the caller's samples in run order, which the JSON
 * output records. */
static double *sorted_copy(const double *samples, size_t n)
{
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NULL;
    memcpy(s, samples, n * sizeof *s);
    qsort(s, n, sizeof *s, compare_double);
    return s;
}

int sb_stats_compute(const double *samples, size_t n, sb_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return -1;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(samples[i]))
            return -1;
        sum += samples[i];
    }
    double *s = sorted_copy(samples, n);
    if (!s)
        return -1;
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    out->mean = sum / (double)n;
    double var = 0.0;
    for (size_t i = 0; i < n; i++)
        var += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0.0;
    out->spread = out->median > 0 ? (out->max - out->min) / out->median : 0.0;
    for (size_t i = n; i-- > 0;) {
        if (samples[i] == out->min)
            out->fastest = i;
        if (samples[i] == out->max)
            out->slowest = i;
    }
    free(s);
    return 0;
}
