/* The words every compare writer uses (compare_words.h). */
#include "report/compare_words.h"

#include <math.h>
#include <stdio.h>

#include "analysis/verdict.h"

void sb_compare_label(const sb_run *run, const sb_result *r, char *buf, size_t n)
{
    if (r->device_slot >= 0 && r->device_slot < run->ndevices)
        sb_slot_label(run, r->device_slot, buf, n);
    else
        snprintf(buf, n, "%s", r->backend);
}

const char *sb_compare_kind_name(const sb_compare_match *m)
{
    if (m->old_i < 0)
        return "only in new";
    if (m->new_i < 0)
        return "only in old";
    switch (m->v.kind) {
    case SB_VERDICT_SAME:
        return "same";
    case SB_VERDICT_FASTER:
        return "faster";
    case SB_VERDICT_SLOWER:
        return "slower";
    case SB_VERDICT_NOISY:
        return "noisy";
    default:
        return "n/a";
    }
}

void sb_compare_verdict_text(const sb_compare_match *m, char *buf, size_t n)
{
    if (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER)
        snprintf(buf, n, "%s by %.1f%%", sb_compare_kind_name(m), 100.0 * fabs(m->v.change));
    else if (m->v.kind == SB_VERDICT_SAME || m->v.kind == SB_VERDICT_NOISY)
        sb_verdict_text(&m->v, "old", "new", buf, n);
    else
        snprintf(buf, n, "%s", sb_compare_kind_name(m));
}

void sb_compare_rule_text(double threshold, char *buf, size_t n)
{
    snprintf(buf, n,
             "a row is faster or slower when the 95%% interval of its time ratio new/old, from "
             "both runs' saved repetitions (Hodges-Lehmann shift of the log times with its "
             "distribution-free Mann-Whitney interval), lies wholly beyond the tolerance, "
             "%.1f%% (%.0f%% plus the threshold), either way: a change larger than the "
             "tolerance at 95%% confidence.  Where a run saved fewer than %d repetitions (files "
             "that predate samples_ms: none), the spread rule, as the interval column says: "
             "changed when the median time moved by more than the larger of the two runs' "
             "spreads ((max - min) / median) plus the threshold (%.1f%%).  \"By\" is the median "
             "time's change.  A row noisy in either run (its spread, the half-width of the "
             "distribution-free 95%% interval of its median, or its device's drift, beyond the "
             "tolerance) is called noisy, by how much, and neither faster, slower nor the same.",
             100.0 * (SB_VERDICT_TOLERANCE + threshold), 100.0 * SB_VERDICT_TOLERANCE,
             SB_VERDICT_MIN_SAMPLES, 100.0 * threshold);
}
