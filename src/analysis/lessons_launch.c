#include "config.h"

#include "analysis/lessons_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/lessons_noise.h"
#include "compute.h"

/* ---------------------------------------------------------------- launch */

/* Slot s's result of row, where the host timed it too; NULL otherwise. */
static const sb_result *host_timed(const sb_analysis *a, const sb_cross_row *row, int s)
{
    const sb_result *r = row->result[s] >= 0 ? &a->run->results[row->result[s]] : NULL;
    return r && r->host_observed.n > 0 && r->ms.median > 0 ? r : NULL;
}

/* The empty kernel: each device's time per launch on its events and on
 * the host's clock, and what the host sees beyond the kernel. */
int sb_lesson_launch_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *row = sb_lesson_find_row(a, e, rule->tried, NULL);
    char where[40];
    int said = 0;
    buf[0] = '\0';
    for (int s = 0; row && s < sb_lesson_slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (!r)
            continue;
        sb_lesson_add(buf, n, "%sdevice %.1f us, host-observed %.1f us%s%s",
                      said ? "; " : "the launch path of an empty kernel: ", 1e3 * r->ms.median,
                      1e3 * r->host_observed.median, said ? "" : " a launch",
                      sb_lesson_on(a, s, where, sizeof where));
        if (r->launches_per_s > 0)
            sb_lesson_add(buf, n, " (%.0f a second%s)", r->launches_per_s,
                said ? "" : " queued back to back");
        said++;
    }
    if (!said)
        return 0;
    sb_lesson_add(buf, n, ": a host-timed benchmark sees");
    for (int s = 0, k = 0; s < sb_lesson_slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (r)
            sb_lesson_add(buf, n, "%s %.1f us%s", k++ ? "," : "",
                          1e3 * (r->host_observed.median - r->ms.median),
                          sb_lesson_on(a, s, where, sizeof where));
    }
    sb_lesson_add(buf, n, " more than the kernel per launch.");
    return 1;
}

/* Each device's share of a host-timed benchmark's bandwidth lost to the
 * launch path: "2.0% on cuda (2680 against 2736 GB/s)". */
static int host_losses(const sb_analysis *a, const sb_cross_row *row, char *buf, size_t n)
{
    char where[40];
    int said = 0;
    for (int s = 0; s < sb_lesson_slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (!r)
            continue;
        sb_lesson_add(buf, n, "%s%.1f%%%s", said++ ? ", " : "",
            100.0 * sb_host_deficit(r->host_observed.median, r->ms.median),
            sb_lesson_on(a, s, where, sizeof where));
        if (r->bytes > 0)
            sb_lesson_add(buf, n, " (%.0f against %.0f GB/s)",
                          r->bytes / (r->host_observed.median * 1e6),
                          r->bytes / (r->ms.median * 1e6));
    }
    return said;
}

/* Whether the launch path makes another device differ from the reference:
 * the verdict on the host-observed times beside the one on the device's. */
static void host_against_reference(const sb_analysis *a, const sb_cross_row *row, char *buf,
                                   size_t n)
{
    const int ref = a->cross.reference;
    for (int s = 0; s < a->cross.ndevices; s++) {
        const sb_verdict *host = &row->host_verdict[s], *dev = &row->verdict[s];
        if (s == ref || host->kind == SB_VERDICT_NONE || dev->kind == SB_VERDICT_NONE)
            continue;
        char h[96], d[96];
        sb_verdict_text(host, a->cross.label[ref], a->cross.label[s], h, sizeof h);
        sb_verdict_text(dev, a->cross.label[ref], a->cross.label[s], d, sizeof d);
        sb_lesson_add(buf, n, " %s against %s, host-observed: %s; on the device: %s",
                      a->cross.label[s], a->cross.label[ref], h, d);
        int host_same = host->kind == SB_VERDICT_SAME, dev_same = dev->kind == SB_VERDICT_SAME;
        if (dev->kind == SB_VERDICT_NOISY) {
            sb_lesson_add(buf, n, ": the device's times are noisy, so no conclusion.");
            continue;
        }
        sb_lesson_add(buf, n,
                      host_same && dev_same ? ": neither the launch path nor the kernel makes "
                                              "them differ here."
                      : host_same ? ": what the kernels' times differ by, the launch path hides "
                                    "from the host."
                      : dev_same  ? ": the launch path, not the kernel, makes the difference."
                                  : ": the kernels' own times differ, not the launch path alone.");
    }
}

/* A kernel the host timed too: what a host-timed benchmark of it loses to
 * the launch path on each device, and, across devices, whether the launch
 * path is what makes them differ. */
int sb_lesson_host_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const sb_lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *row = sb_lesson_find_row(a, e, rule->tried, NULL);
    if (!row)
        return 0;
    char size[64];
    sb_result_size_text(&a->run->results[row->first], size, sizeof size);
    buf[0] = '\0';
    sb_lesson_add(buf, n,
                  "at %s, a host-timed benchmark of the %s reports less bandwidth than the kernel "
                  "delivers by ",
                  size, rule->tried);
    if (!host_losses(a, row, buf, n))
        return 0;
    sb_lesson_add(buf, n, ".");
    host_against_reference(a, row, buf, n);
    return 1;
}

/* ---------------------------------------------------------------- peak */

/* "61.2 TFLOP/s", or "13.3 GFLOP/s" below a thousand. */
static void gflops(double v, char *buf, size_t n)
{
    if (v >= 1000)
        snprintf(buf, n, "%.1f TFLOP/s", v / 1000);
    else
        snprintf(buf, n, "%.1f GFLOP/s", v);
}

/* Slot s's FMA peak against its theoretical peak, and what one chain a
 * thread reaches beside it. */
int sb_lesson_peak_clause(const sb_analysis *a, const sb_cross_experiment *e,
                          const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    const sb_cross_row *best = sb_lesson_find_row(a, e, rule->tried, NULL);
    const sb_result *r = best && best->result[s] >= 0 ? &a->run->results[best->result[s]] : NULL;
    if (!r || !(r->value > 0))
        return 0;
    const sb_device_info *info = &a->run->devices[s].info;
    double peak = sb_device_fp32_peak_gflops(info);
    char v[32], p[32];
    gflops(r->value, v, sizeof v);
    buf[0] = '\0';
    if (peak > 0) {
        gflops(peak, p, sizeof p);
        sb_lesson_add(buf, n, "FMA peak %s, %.0f%% of the theoretical %s", v,
                      100.0 * r->value / peak, p);
    } else {
        sb_lesson_add(buf, n,
                      "FMA peak %s, with no theoretical peak to hold it against (the FP32 lanes "
                      "of %s are not known)",
                      v, info->arch[0] ? info->arch : "its architecture");
    }
    const sb_cross_row *one = sb_lesson_find_row(a, e, rule->against, r);
    const sb_result *o = one && one->result[s] >= 0 ? &a->run->results[one->result[s]] : NULL;
    sb_verdict vd = o ? sb_lesson_judge(a, r, o, 0.0) : (sb_verdict){.kind = SB_VERDICT_NONE};
    char f[32];
    sb_lesson_factor(vd.by + 1.0, f, sizeof f);
    if (vd.kind == SB_VERDICT_SAME)
        sb_lesson_add(buf, n,
                      "; one chain a thread runs the same, within %.1f%%: the threads in flight "
                      "hide the FMA's latency without the chains",
                      100.0 * sb_verdict_within(&vd));
    else if (vd.kind == SB_VERDICT_SLOWER)
        sb_lesson_add(buf, n,
                      "; one chain a thread is %s slower: without independent chains the FMA's "
                      "latency is not hidden",
                      f);
    else if (vd.kind == SB_VERDICT_FASTER)
        sb_lesson_add(buf, n, "; one chain a thread is %s faster", f);
    char why[64];
    if (vd.kind == SB_VERDICT_NOISY && sb_verdict_text(&vd, "", "", why, sizeof why) > 0)
        sb_lesson_add(buf, n, "; one chain a thread against the peak is %s", why);
    return 1;
}
