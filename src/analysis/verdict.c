/* The words of a verdict (verdict.h). */
#include "analysis/verdict.h"

#include <math.h>
#include <stdio.h>

double sb_verdict_within(const sb_verdict *v)
{
    return v->basis == SB_BASIS_INTERVAL ? fmax(v->ratio_high, 1.0 / v->ratio_low) - 1.0
                                         : v->margin;
}

int sb_verdict_text(const sb_verdict *v, const char *ref_name, const char *other_name, char *buf,
                    size_t n)
{
    switch (v->kind) {
    case SB_VERDICT_SAME:
        return snprintf(buf, n, "same (within %.1f%%)", 100.0 * sb_verdict_within(v));
    case SB_VERDICT_FASTER:
        return snprintf(buf, n, "%s faster by %.1f%%", other_name, 100.0 * v->by);
    case SB_VERDICT_SLOWER:
        return snprintf(buf, n, "%s faster by %.1f%%", ref_name, 100.0 * v->by);
    case SB_VERDICT_NOISY:
        if (v->noise_spread > 0 && v->noise_drift > 0)
            return snprintf(buf, n, "noisy (spread %.1f%%, drift %.1f%%)",
                            100.0 * v->noise_spread, 100.0 * v->noise_drift);
        return snprintf(buf, n, "noisy (%s %.1f%%)", v->noise_drift > 0 ? "drift" : "spread",
                        100.0 * v->noise);
    default:
        return snprintf(buf, n, "n/a");
    }
}

int sb_verdict_interval_text(const sb_verdict *v, sb_interval_form form, char *buf, size_t n)
{
    if (v->basis == SB_BASIS_SPREAD && v->fewest == 0)
        return snprintf(buf, n, "spread rule (no samples)");
    if (v->basis == SB_BASIS_SPREAD)
        return snprintf(buf, n, "spread rule (%zu sample%s)", v->fewest,
                        v->fewest == 1 ? "" : "s");
    if (v->basis != SB_BASIS_INTERVAL)
        return snprintf(buf, n, "%s", "");
    if (form == SB_INTERVAL_SPEED)
        return snprintf(buf, n, "[%.3f, %.3f]", 1.0 / v->ratio_high, 1.0 / v->ratio_low);
    return snprintf(buf, n, "[%+.1f%%, %+.1f%%]", 100.0 * (v->ratio_low - 1.0),
                    100.0 * (v->ratio_high - 1.0));
}

const char *sb_verdict_basis_name(const sb_verdict *v)
{
    return v->basis == SB_BASIS_INTERVAL ? "interval"
           : v->basis == SB_BASIS_SPREAD ? "spread rule"
                                         : "none";
}
