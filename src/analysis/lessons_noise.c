/* The lessons and noise (lessons_noise.h). */
#include "analysis/lessons_noise.h"
#include "analysis/crossapi.h"

#include <stdio.h>
#include <string.h>

sb_verdict sb_lesson_judge(const sb_analysis *a, const sb_result *ref, const sb_result *other,
                           double threshold)
{
    return sb_verdict_judge(a->run, ref, a->run, other, threshold);
}

static const sb_noise_row *row_noise(const sb_analysis *a, const sb_cross_experiment *e,
                                     size_t k)
{
    return sb_noise_at(&a->noise, e->results[k]);
}

size_t sb_lesson_noisy_rows(const sb_analysis *a, const sb_cross_experiment *e)
{
    size_t noisy = 0;
    for (size_t k = 0; k < e->nresults; k++) {
        const sb_noise_row *row = row_noise(a, e, k);
        noisy += row && row->noisy;
    }
    return noisy;
}

/* The largest spread and drift among the block's noisy rows. */
static void worst_noise(const sb_analysis *a, const sb_cross_experiment *e, double *spread,
                        double *drift)
{
    *spread = *drift = 0;
    for (size_t k = 0; k < e->nresults; k++) {
        const sb_noise_row *row = row_noise(a, e, k);
        if (row && (row->noisy & SB_NOISY_SPREAD) && row->spread > *spread)
            *spread = row->spread;
        if (row && (row->noisy & SB_NOISY_DRIFT) && row->drift > *drift)
            *drift = row->drift;
    }
}

int sb_lesson_noisy_block(const sb_analysis *a, const sb_cross_experiment *e, char *buf,
                          size_t n)
{
    size_t noisy = sb_lesson_noisy_rows(a, e);
    if (2 * noisy <= e->nresults)
        return 0;
    double spread, drift;
    worst_noise(a, e, &spread, &drift);
    int used = snprintf(buf, n, "No lesson from this block: %zu of its %zu rows are noisy (",
                        noisy, e->nresults);
    if (spread > 0)
        used += snprintf(buf + used, n > (size_t)used ? n - used : 0, "spread up to %.1f%%%s",
                         100.0 * spread, drift > 0 ? ", " : "");
    if (drift > 0)
        used += snprintf(buf + used, n > (size_t)used ? n - used : 0, "drift %.1f%%",
                         100.0 * drift);
    snprintf(buf + used, n > (size_t)used ? n - used : 0,
             "), too scattered to call any faster, slower or the same.");
    return 1;
}

int sb_lesson_noisy_rows_named(const sb_analysis *a, const sb_cross_experiment *e, char *buf,
                               size_t n)
{
    size_t noisy = sb_lesson_noisy_rows(a, e);
    if (noisy == 0 || 2 * noisy > e->nresults)
        return 0;
    int used = snprintf(buf, n, "Noisy, so nothing here is concluded from them:");
    size_t named = 0;
    for (size_t k = 0; k < e->nresults && (size_t)used < n; k++) {
        const sb_noise_row *row = row_noise(a, e, k);
        if (!row || !row->noisy)
            continue;
        const sb_result *r = &a->run->results[e->results[k]];
        char why[64];
        sb_noise_text(row, why, sizeof why);
        used += snprintf(buf + used, n - (size_t)used, "%s %s%s%s %s", named++ ? "," : "",
                         r->variant, a->cross.ndevices > 1 ? " on " : "",
                         a->cross.ndevices > 1 && r->device_slot >= 0 &&
                                 r->device_slot < a->cross.ndevices
                             ? a->cross.label[r->device_slot]
                             : "",
                         why + strlen("noisy "));
    }
    if ((size_t)used < n)
        snprintf(buf + used, n - (size_t)used, ".");
    return 1;
}
