/* The noise analysis as JSON (json_noise.h). */
#include "report/json_noise.h"

/* Why a row is noisy, as one word for data; NULL for a quiet row. */
static const char *because(int noisy)
{
    return (noisy & SB_NOISY_SPREAD) && (noisy & SB_NOISY_DRIFT) ? "spread and drift"
           : noisy & SB_NOISY_SPREAD                             ? "spread"
           : noisy & SB_NOISY_DRIFT                              ? "drift"
                                                                 : NULL;
}

void sb_json_noise_result(json_t *o, const sb_noise_row *row, sb_json_builder *b)
{
    if (!row)
        return;
    json_t *n = sb_json_put_object(o, "noise", b);
    if (!n)
        return;
    if (row->spread >= 0)
        sb_json_put_real(n, "spread", row->spread, b);
    else
        sb_json_put(n, "spread", json_null(), b);
    sb_json_put(n, "noisy", json_boolean(row->noisy != 0), b);
    const char *why = because(row->noisy);
    sb_json_put(n, "because", why ? json_string(why) : json_null(), b);
    sb_json_put(n, "roof_noisy", json_boolean(row->roof_noisy), b);
}

void sb_json_noise_device(json_t *o, const sb_run_device *d, sb_json_builder *b)
{
    double drift = sb_noise_drift(d);
    if (drift < 0) {
        sb_json_put(o, "drift", json_null(), b);
        return;
    }
    json_t *x = sb_json_put_object(o, "drift", b);
    if (!x)
        return;
    sb_json_put_real(x, "roof_start_gbs", d->roof_start_gbs, b);
    sb_json_put_real(x, "roof_end_gbs", d->roof_end_gbs, b);
    sb_json_put_real(x, "drift", drift, b);
}

json_t *sb_json_noise_run(const sb_noise *n, sb_json_builder *b)
{
    json_t *o = json_object();
    sb_json_put_str(o, "rule", SB_NOISE_RULE, b);
    sb_json_put_real(o, "margin", n->margin, b);
    sb_json_put_int(o, "noisy_rows", (json_int_t)sb_noise_count(n), b);
    sb_json_put_int(o, "judged_rows", (json_int_t)n->judged, b);
    sb_json_put(o, "mostly_noisy", json_boolean(sb_noise_mostly(n)), b);
    return o;
}
