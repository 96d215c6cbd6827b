/* The table's noise lines (noise_table.h). */
#include "report/noise_table.h"

#include "report/layout.h"

/* One device's drift check, where it was measured. */
static void drift_line(const sb_analysis *a, int s, int width, FILE *out)
{
    const sb_run_device *d = &a->run->devices[s];
    double drift = a->noise.drift[s];
    if (drift < 0)
        return;
    char line[320];
    snprintf(line, sizeof line,
             "%s: copy roof %.1f GB/s at the start, %.1f GB/s at the end: drift %.1f%%%s",
             a->cross.label[s], d->roof_start_gbs, d->roof_end_gbs, 100.0 * drift,
             drift > a->noise.margin ? ", beyond the margin: every row of it is noisy" : "");
    sb_layout_fold(out, width, "  ", 4, line);
}

void sb_table_noise_footer(const sb_analysis *a, int width, FILE *out)
{
    int drifts = 0;
    for (int s = 0; s < a->run->ndevices && s < SB_RUN_MAX_DEVICES; s++)
        drifts += a->noise.drift[s] >= 0;
    if (!drifts && sb_noise_count(&a->noise) == 0)
        return;
    fputs("\nNoise\n", out);
    for (int s = 0; s < a->run->ndevices && s < SB_RUN_MAX_DEVICES; s++)
        drift_line(a, s, width, out);
    char line[400];
    if (sb_noise_summary(&a->noise, line, sizeof line) > 0)
        sb_layout_fold(out, width, "  ", 4, line);
    else {
        snprintf(line, sizeof line, "%zu of %zu rows noisy (spread or drift beyond %.1f%%)",
                 sb_noise_count(&a->noise), a->noise.judged, 100.0 * a->noise.margin);
        sb_layout_fold(out, width, "  ", 4, line);
    }
}
