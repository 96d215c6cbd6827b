/* CSV: one header line, one line per result; every model field gets its own
 * column (prefixed m1_, m2_, ... for each declared access, with its kind,
 * requests per launch and whether the variant is about it); then
 * columns that compare the line with the same variant on the reference
 * device (crossapi.h), with the speed ratio's 95% interval and the rule
 * the verdict used, and carry the PTX memory summary; last, where the
 * variant's host time went and what the compiler allocated, the model's
 * totals over the whole kernel and which device on which host (appended,
 * so that older columns keep their places). */
#include <stdlib.h>
#include <string.h>

#include "report/describe.h"
#include "report/report.h"
#include "report/summary_print.h"

/* RFC 4180 quoting where a field needs it. */
static void field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        fputs(s, out);
    }
}

/* The verdict's 95% interval of the speed ratio and what it was reached
 * by ("interval", or "spread rule (no samples)"); empty where the line has
 * no verdict, the bounds empty under the spread rule. */
static void interval_columns(const sb_run *run, const sb_crossapi *x, size_t i, FILE *out)
{
    const sb_cross_row *row = x->row_of && x->row_of[i] >= 0 ? &x->rows[x->row_of[i]] : NULL;
    int slot = run->results[i].device_slot;
    const sb_verdict *v = row && slot != x->reference ? &row->verdict[slot] : NULL;
    if (!v || v->kind == SB_VERDICT_NONE) {
        fputs(",,,", out);
        return;
    }
    if (v->basis == SB_BASIS_INTERVAL)
        fprintf(out, ",%.4f,%.4f,", 1.0 / v->ratio_high, 1.0 / v->ratio_low);
    else
        fputs(",,,", out);
    char basis[48];
    sb_verdict_interval_text(v, SB_INTERVAL_SPEED, basis, sizeof basis);
    field(out, v->basis == SB_BASIS_INTERVAL ? "interval" : basis);
}

/* The cross-device columns of result i: its device's label, the reference
 * device it is compared with, the speed ratio, verdict and interval against
 * it (empty on the reference's own lines and where the reference has no
 * such row). */
static void cross_columns(const sb_run *run, const sb_crossapi *x, size_t i, FILE *out)
{
    const sb_result *r = &run->results[i];
    const sb_cross_row *row = x->row_of && x->row_of[i] >= 0 ? &x->rows[x->row_of[i]] : NULL;
    int slot = r->device_slot;
    fputc(',', out);
    if (slot >= 0 && slot < x->ndevices)
        field(out, x->label[slot]);
    fputc(',', out);
    if (x->ndevices > 1)
        field(out, x->label[x->reference]);
    fputc(',', out);
    char verdict[96] = "";
    if (row && slot != x->reference && row->verdict[slot].kind != SB_VERDICT_NONE) {
        fprintf(out, "%.4f", row->verdict[slot].speed_ratio);
        sb_verdict_text(&row->verdict[slot], x->label[x->reference], x->label[slot], verdict,
                        sizeof verdict);
    }
    fputc(',', out);
    field(out, verdict);
    interval_columns(run, x, i, out);
    fputc(',', out);
    field(out, r->ptx_memory);
    fputc(',', out);
    field(out, row && slot != x->reference ? row->ptx[slot] : "");
}

static void header(FILE *out)
{
    fputs("backend,platform,device,driver,experiment,variant,kernel,params,rows,cols,"
          "grid,block,reps,median_ms,min_ms,max_ms,mean_ms,stddev_ms,spread,bytes,flops,"
          "intensity,unit,value,value_best,roof_share,slowdown,occupancy,verified,model",
          out);
    for (int m = 1; m <= SB_MAX_PATTERNS; m++) {
        fprintf(out, ",m%d_label,m%d_kind,m%d_requests,m%d_studied", m, m, m, m);
        for (size_t i = 0; sb_prediction_field_at(i); i++)
            fprintf(out, ",m%d_%s", m, sb_prediction_field_at(i)->name);
    }
    fputs(",device_label,reference,speed_ratio,verdict,ci_low,ci_high,verdict_basis,ptx_memory,"
          "ptx_vs_reference,host_ms,verify_ms,registers,shared_bytes,private_bytes",
          out);
    for (int f = 1; f <= SB_MAX_FIGURES; f++)
        fprintf(out, ",f%d_name,f%d_value,f%d_unit", f, f, f);
    for (size_t i = 0; sb_access_totals_field_at(i); i++)
        fprintf(out, ",total_%s", sb_access_totals_field_at(i)->name);
    fputs(",host,device_index,pci_bus_id,uuid,outlier", out);
    fputs(",host_observed_ms,host_observed_min_ms,launches_per_s,queued_launches,"
          "host_speed_ratio,host_verdict,noise_spread,noisy,noisy_because,roof_noisy,"
          "device_drift,run_interrupted\n",
          out);
}

/* The row's noise (run/noise.h), and its device's drift; empty where
 * unknown. */
static void noise_columns(const sb_noise *noise, size_t i, FILE *out)
{
    const sb_noise_row *row = sb_noise_at(noise, i);
    if (!row) {
        fputs(",,,,,", out);
        return;
    }
    fputc(',', out);
    if (row->spread >= 0)
        fprintf(out, "%.4f", row->spread);
    fprintf(out, ",%d,%s,%d,", row->noisy != 0,
            (row->noisy & SB_NOISY_SPREAD) && (row->noisy & SB_NOISY_DRIFT) ? "spread and drift"
            : row->noisy & SB_NOISY_SPREAD                                  ? "spread"
            : row->noisy & SB_NOISY_DRIFT                                   ? "drift"
                                                                            : "",
            row->roof_noisy);
    if (row->drift >= 0)
        fprintf(out, "%.4f", row->drift);
}

/* The model's totals; empty where the result has none. */
static void totals_columns(const sb_result *r, FILE *out)
{
    for (size_t i = 0; sb_access_totals_field_at(i); i++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(i);
        double v = sb_access_totals_value(&r->totals, f);
        fputc(',', out);
        if (r->has_totals && (!f->ratio || v > 0))
            fprintf(out, f->ratio ? "%.6f" : "%.0f", v);
    }
}

/* The model's columns: each declared access's label, kind, requests (empty
 * where unknown), whether it is studied and its prediction fields, empty
 * past the accesses the result declares. */
static void model_columns(const sb_result *r, FILE *out)
{
    for (int m = 0; m < SB_MAX_PATTERNS; m++) {
        fputc(',', out);
        if (m < r->npatterns) {
            field(out, r->pattern_label[m]);
            fprintf(out, ",%s,", sb_access_kind_name(r->pattern_kind[m]));
            if (r->pattern_requests[m] > 0)
                fprintf(out, "%.0f", r->pattern_requests[m]);
            fprintf(out, ",%d", !r->pattern_extra[m]);
        } else {
            fputs(",,,", out);
        }
        for (size_t f = 0; sb_prediction_field_at(f); f++) {
            const sb_prediction_field *pf = sb_prediction_field_at(f);
            fputc(',', out);
            if (m < r->npatterns) {
                double v = sb_prediction_value(&r->prediction[m], pf);
                if (pf->type == SB_FIELD_INT)
                    fprintf(out, "%.0f", v);
                else
                    fprintf(out, "%.6f", v);
            }
        }
    }
}

/* A figure the JSON writes as null unless it is positive (intensity,
 * roof share, slowdown): an empty cell then, not a 0 that reads as a
 * measurement. */
static void positive(FILE *out, int decimals, double v)
{
    if (v > 0)
        fprintf(out, "%.*f", decimals, v);
}

/* What the measurement was: device, names, sizes, statistics, figures;
 * empty where the JSON has null. */
static void measured_columns(const sb_run *run, const sb_result *r, FILE *out)
{
    const sb_device_info *d = &run->devices[r->device_slot].info;
    const char *names[] = {r->backend,    d->platform, d->name,  d->driver,
                           r->experiment, r->variant,  r->kernel, r->params};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (k)
            fputc(',', out);
        field(out, names[k]);
    }
    fprintf(out, ",%ld,%ld,%ux%ux%u,%ux%ux%u,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.5f,%.0f,%.0f,",
            r->rows, r->cols, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
            r->block[2], r->reps, r->ms.median, r->ms.min, r->ms.max, r->ms.mean, r->ms.stddev,
            r->ms.spread, r->bytes, r->flops);
    positive(out, 4, r->intensity);
    fputc(',', out);
    field(out, sb_quantity_unit(r->quantity));
    fprintf(out, ",%.4f,%.4f,", r->value, r->value_best);
    positive(out, 5, r->roof_share);
    fputc(',', out);
    positive(out, 4, r->slowdown);
    fputc(',', out);
    if (r->occupancy >= 0)
        fprintf(out, "%d", r->occupancy);
    fprintf(out, ",%d,", r->verified);
    char text[SB_MODEL_TEXT];
    sb_result_model_text(r, text, sizeof text);
    field(out, text);
}

/* The family's model figures, name, value and unit; empty past its last. */
static void figure_columns(const sb_result *r, FILE *out)
{
    for (int f = 0; f < SB_MAX_FIGURES; f++) {
        fputc(',', out);
        if (f >= r->nfigures) {
            fputs(",,", out);
            continue;
        }
        field(out, r->figure[f].name);
        fprintf(out, ",%.10g,", r->figure[f].value); /* a size in bytes whole */
        field(out, r->figure[f].unit);
    }
}

/* Which device, on which host, and whether the fleet names it an outlier
 * here: 1, 0 among its peers, empty with no peer. */
static void identity_columns(const sb_run *run, const sb_result *r, int state, FILE *out)
{
    const sb_device_info *d = &run->devices[r->device_slot].info;
    fputc(',', out);
    field(out, sb_run_device_host(run, r->device_slot));
    fprintf(out, ",%d,", d->device_index);
    field(out, d->pci_bus_id);
    fputc(',', out);
    field(out, d->uuid);
    if (state >= 0)
        fprintf(out, ",%d", state);
    else
        fputc(',', out);
}

/* What the host's clock saw (the launch family), and the verdict on it
 * against the reference's; empty where unmeasured. */
static void host_columns(const sb_crossapi *x, size_t i, const sb_result *r, FILE *out)
{
    if (r->host_observed.n == 0) {
        fputs(",,,,,,", out);
        return;
    }
    fprintf(out, ",%.6f,%.6f,", r->host_observed.median, r->host_observed.min);
    if (r->launches_per_s > 0)
        fprintf(out, "%.1f", r->launches_per_s);
    fprintf(out, ",%d,", r->queued_launches);
    const sb_cross_row *row = x->row_of && x->row_of[i] >= 0 ? &x->rows[x->row_of[i]] : NULL;
    int slot = r->device_slot;
    char verdict[96] = "";
    if (row && slot >= 0 && slot < x->ndevices && slot != x->reference &&
        row->host_verdict[slot].kind != SB_VERDICT_NONE) {
        fprintf(out, "%.4f", row->host_verdict[slot].speed_ratio);
        sb_verdict_text(&row->host_verdict[slot], x->label[x->reference], x->label[slot],
                        verdict, sizeof verdict);
    }
    fputc(',', out);
    field(out, verdict);
}

sb_report_writer sb_report_csv;

int sb_report_csv(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    (void)err, (void)n; /* nothing a text format cannot hold */
    const sb_run *run = a->run;
    signed char *state = malloc(run->nresults + 1);
    if (!state)
        return SB_REPORT_IO_ERROR;
    sb_fleet_result_states(run, &a->fleet, &a->cross, state);
    header(out);
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        measured_columns(run, r, out);
        model_columns(r, out);
        cross_columns(run, &a->cross, i, out);
        fprintf(out, ",%.3f,%.3f", r->host_ms, r->verify_ms);
        /* the compiler's allocation; empty where unknown */
        long res[3] = {r->regs, r->shared_bytes, r->private_bytes};
        for (int f = 0; f < 3; f++)
            if (res[f] >= 0)
                fprintf(out, ",%ld", res[f]);
            else
                fputc(',', out);
        figure_columns(r, out);
        totals_columns(r, out);
        identity_columns(run, r, state[i], out);
        host_columns(&a->cross, i, r, out);
        noise_columns(&a->noise, i, out);
        /* A table has no header lines: each row says whether its run was
           cut short by a signal. */
        fprintf(out, ",%d\n", run->interrupted ? 1 : 0);
    }
    free(state);
    sb_summary_print(&a->summary, out, "", "# summary: ", "\n", "", sb_summary_comment_text);
    return ferror(out) ? -1 : 0;
}
