/* The cross-device comparisons of a run as JSON (json.c's "reference"
 * and "comparisons" members): each row's verdict of a device against the
 * reference, with the interval and, where measured, the host-observed
 * times beside the device ones. */
#include "report/json_comparisons.h"

#include <stdio.h>

#include "report/describe.h"

static const char *verdict_name(sb_verdict_kind k)
{
    return k == SB_VERDICT_SAME     ? "same"
           : k == SB_VERDICT_FASTER ? "faster"
           : k == SB_VERDICT_NOISY  ? "noisy"
                                    : "slower";
}

/* One side of a comparison: the device, its slot, its result and time. */
static void side_fields(json_t *o, const sb_crossapi *x, int slot, long result,
                        const sb_result *r, sb_json_builder *b)
{
    sb_json_put_str(o, "device", x->label[slot], b);
    sb_json_put_int(o, "slot", slot, b);
    sb_json_put_int(o, "result", result, b);
    sb_json_put_real(o, "median_ms", r->ms.median, b);
    sb_json_put_real(o, "spread", r->ms.spread, b);
}

/* The speed ratio's 95% interval, null under the spread rule, and what
 * the verdict was reached by: "interval", or the spread rule's reason. */
static void interval_fields(json_t *c, const sb_verdict *v, sb_json_builder *b)
{
    if (v->basis == SB_BASIS_INTERVAL) {
        sb_json_put_real(c, "ci_low", 1.0 / v->ratio_high, b);
        sb_json_put_real(c, "ci_high", 1.0 / v->ratio_low, b);
        sb_json_put_str(c, "basis", "interval", b);
        return;
    }
    char basis[48];
    sb_verdict_interval_text(v, SB_INTERVAL_SPEED, basis, sizeof basis);
    sb_json_put(c, "ci_low", json_null(), b);
    sb_json_put(c, "ci_high", json_null(), b);
    sb_json_put_str(c, "basis", basis, b);
}

/* Beside the device times, where both sides have them, the host-observed
 * ones (the launch family): each side's median and the verdict on them. */
static void host_comparison(json_t *c, const sb_crossapi *x, const sb_cross_row *row, int s,
                            const sb_result *ref, const sb_result *oth, sb_json_builder *b)
{
    const sb_verdict *v = &row->host_verdict[s];
    if (v->kind == SB_VERDICT_NONE)
        return;
    char text[96];
    sb_verdict_text(v, x->label[x->reference], x->label[s], text, sizeof text);
    json_t *h = sb_json_put_object(c, "host_observed", b);
    if (!h)
        return;
    sb_json_put_real(h, "reference_ms", ref->host_observed.median, b);
    sb_json_put_real(h, "other_ms", oth->host_observed.median, b);
    sb_json_put_real(h, "speed_ratio", v->speed_ratio, b);
    sb_json_put_real(h, "margin", v->margin, b);
    sb_json_put_str(h, "verdict", verdict_name(v->kind), b);
    sb_json_put_str(h, "summary", text, b);
}

/* Row j's comparison of slot s with the reference: the side-by-side report
 * as data.  "verdict" is the other device's against the reference
 * ("faster": the other is faster), "results" index the results array. */
json_t *sb_json_comparison(const sb_run *run, const sb_crossapi *x, const sb_cross_row *row, int s,
                           sb_json_builder *b)
{
    const sb_verdict *v = &row->verdict[s];
    const sb_result *ref = &run->results[row->result[x->reference]];
    const sb_result *oth = &run->results[row->result[s]];
    char text[96];
    sb_verdict_text(v, x->label[x->reference], x->label[s], text, sizeof text);
    const char *faster = v->kind == SB_VERDICT_FASTER   ? x->label[s]
                         : v->kind == SB_VERDICT_SLOWER ? x->label[x->reference]
                                                        : NULL;
    json_t *c = json_object(), *side;
    sb_json_put_str(c, "experiment", ref->experiment, b);
    sb_json_put_str(c, "variant", ref->variant, b);
    sb_json_put_int(c, "rows", ref->rows, b);
    sb_json_put_int(c, "cols", ref->cols, b);
    if ((side = sb_json_put_object(c, "reference", b)))
        side_fields(side, x, x->reference, row->result[x->reference], ref, b);
    if ((side = sb_json_put_object(c, "other", b)))
        side_fields(side, x, s, row->result[s], oth, b);
    sb_json_put_real(c, "speed_ratio", v->speed_ratio, b);
    interval_fields(c, v, b);
    sb_json_put_real(c, "margin", v->margin, b);
    sb_json_put_str(c, "verdict", verdict_name(v->kind), b);
    if (faster)
        sb_json_put_str(c, "faster", faster, b);
    else
        sb_json_put(c, "faster", json_null(), b);
    sb_json_put_real(c, "by", v->by, b);
    if (v->kind == SB_VERDICT_NOISY)
        sb_json_put_real(c, "noise", v->noise, b);
    sb_json_put_str(c, "summary", text, b);
    if (row->ptx[s][0])
        sb_json_put_str(c, "ptx", row->ptx[s], b);
    host_comparison(c, x, row, s, ref, oth, b);
    return c;
}

/* Whether row j compares slot s with the reference. */
int sb_json_compared(const sb_crossapi *x, const sb_cross_row *row, int s)
{
    return s != x->reference && row->verdict[s].kind != SB_VERDICT_NONE;
}

/* The device the others are compared with: its slot and label, or null
 * in a run without devices. */
json_t *sb_json_reference(const sb_crossapi *x, sb_json_builder *b)
{
    if (x->ndevices == 0)
        return json_null();
    json_t *o = json_object();
    sb_json_put_int(o, "slot", x->reference, b);
    sb_json_put_str(o, "device", x->label[x->reference], b);
    return o;
}
