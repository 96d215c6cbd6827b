/* The terminal table: the devices, then per experiment one row per variant
 * and backend, with the model's prediction beside each measurement; with
 * two or more devices, one row per variant with the devices side by side. */
#include <string.h>

#include "report/describe.h"
#include "report/lessons.h"
#include "report/report.h"
#include "report/table.h"

/* One figure of the device, or "<what> unknown" when the API gave none: the
 * report never prints a 0 it was not told. */
static void figure(FILE *out, const char *sep, double value, const char *fmt, const char *what)
{
    fputs(sep, out);
    if (value > 0)
        fprintf(out, fmt, value);
    else
        fprintf(out, "%s unknown", what);
}

static void device_section(const sb_run *run, FILE *out)
{
    fprintf(out, "Devices\n");
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *d = &run->devices[i];
        const sb_device_info *in = &d->info;
        fprintf(out, "  %-7s %s [%s], %s, driver %s, %s\n", d->backend, in->name, in->platform,
                in->api_version, in->driver[0] ? in->driver : "unknown", in->arch);
        figure(out, "          ", in->compute_units, "%.0f compute units", "compute units");
        figure(out, " at ", in->clock_mhz, "%.0f MHz", "clock");
        figure(out, ", ", in->global_mem_bytes / 1048576.0, "%.0f MiB memory", "memory size");
        /* Each API's figure under the API's own name for the cache. */
        fprintf(out, ", %s", in->cache_name[0] ? in->cache_name : "cache");
        figure(out, " ", in->l2_bytes / 1048576.0, "%.1f MiB", "size");
        figure(out, ", ", in->local_mem_bytes / 1024.0, "%.0f KiB shared per block",
               "shared memory per block");
        fputc('\n', out);
        double peak = sb_device_peak_gbs(in);
        if (peak > 0) {
            fprintf(out, "          memory bus %d bits at %d MHz: theoretical peak %.0f GB/s "
                         "(bus bytes x 2 x clock)\n",
                    in->bus_width_bits, in->mem_clock_mhz, peak);
        } else if (in->bus_width_bits > 0 || in->mem_clock_mhz > 0) {
            figure(out, "          memory bus ", in->bus_width_bits, "%.0f bits", "width");
            figure(out, ", ", in->mem_clock_mhz, "clock %.0f MHz", "clock");
            fprintf(out, " (the %s API does not say the rest), so no theoretical peak\n",
                    d->backend);
        } else {
            fprintf(out, "          memory bus width and clock: not exposed by the %s API, so "
                         "no theoretical peak\n",
                    d->backend);
        }
        double copy = sb_device_copy_roof(d);
        if (copy > 0) {
            fprintf(out, "          measured %s %.1f GB/s",
                    d->memcpy_gbs > 0 ? "API copy" : "copy kernel", copy);
            if (peak > 0)
                fprintf(out, " = %.1f%% of peak", 100.0 * copy / peak);
            fputc('\n', out);
        } else {
            fprintf(out, "          copy bandwidth not measured in this run (the memcpy rows of "
                         "transpose, vecadd and occupancy measure it)\n");
        }
    }
}

static void experiment_heading(const sb_result *f, FILE *out)
{
    fprintf(out, "\n%s  %ldx%ld", f->experiment, f->rows, f->cols);
    fprintf(out, "  (%d reps after at least %d warm-ups and 20 ms; every row verified)\n", f->reps,
            f->warmup);
}

/* Under a GFLOP/s table: what its roof% means, and why it may be missing. */
static void flops_legend(const sb_run *run, const sb_result *f, FILE *out)
{
    if (f->quantity == SB_QUANTITY_FLOPS)
        fprintf(out, "  roof%% = GFLOP/s over FLOP/B x the measured copy GB/s, the memory-bound "
                     "ceiling; over 100 means caches cut the traffic FLOP/B counts%s\n",
                f->device_slot < run->ndevices &&
                        sb_device_copy_roof(&run->devices[f->device_slot]) > 0
                    ? ""
                    : " (no copy measured in this run: add vecadd, occupancy or transpose)");
}

/* The variant's name, with its size when it is not the experiment's. */
static void variant_cell(const sb_result *f, const sb_result *r, char *buf, size_t n)
{
    if (r->rows == f->rows && r->cols == f->cols)
        snprintf(buf, n, "%s", r->variant);
    else
        snprintf(buf, n, "%s@%ldx%ld", r->variant, r->rows, r->cols);
}

static void experiment_section(const sb_run *run, const sb_cross_experiment *e, FILE *out)
{
    const sb_result *f = &run->results[e->first];
    experiment_heading(f, out);
    fprintf(out, "  %-16s %-7s %10s %10s %10s %6s %10s %10s %6s  %s\n", "variant", "backend",
            "median ms", "min ms", "max ms", "spread", sb_quantity_unit(f->quantity), "best", "roof%", "model");
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        char model[256], notes[128], roof[16] = "", extra[32] = "", name[80];
        sb_result_model_text(r, model, sizeof model);
        sb_result_notes(r, notes, sizeof notes);
        variant_cell(f, r, name, sizeof name);
        if (r->roof_share > 0)
            snprintf(roof, sizeof roof, "%.1f", 100.0 * r->roof_share);
        if (r->slowdown > 0)
            snprintf(extra, sizeof extra, "x%.2f ", r->slowdown);
        fprintf(out, "  %-16s %-7s %10.4f %10.4f %10.4f %5.1f%% %10.2f %10.2f %6s  %s%s%s%s\n",
                name, r->backend, r->ms.median, r->ms.min, r->ms.max, 100.0 * r->ms.spread,
                r->value, r->value_best, roof, extra, notes, notes[0] && model[0] ? "; " : "",
                model);
    }
    flops_legend(run, f, out);
}

/* The ratio column is as wide as its heading, "opencl/cuda". */
static int ratio_width(const sb_crossapi *x, int slot)
{
    return (int)(strlen(x->label[slot]) + 1 + strlen(x->label[x->reference]));
}

/* The side-by-side heading: each device's columns, then each other
 * device's ratio against the reference and its verdict. */
static void cross_heading(const sb_crossapi *x, const sb_result *f, FILE *out)
{
    const int ref = x->reference;
    fprintf(out, "  %-16s", "");
    for (int s = 0; s < x->ndevices; s++)
        fprintf(out, " | %-35s", x->label[s]);
    fprintf(out, " |\n  %-16s", "variant");
    for (int s = 0; s < x->ndevices; s++)
        fprintf(out, " | %10s %6s %10s %6s", "median ms", "spread", sb_quantity_unit(f->quantity),
                "roof%");
    fprintf(out, " |");
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        char ratio[64];
        snprintf(ratio, sizeof ratio, "%s/%s", x->label[s], x->label[ref]);
        fprintf(out, " %*s %-26s %-24s", ratio_width(x, s), ratio, "verdict", "95% interval");
    }
    fprintf(out, " model\n");
}

/* One variant side by side, and a line per device whose PTX was compared. */
static void cross_line(const sb_run *run, const sb_crossapi *x, const sb_result *f,
                       const sb_cross_row *row, FILE *out)
{
    const int ref = x->reference;
    /* Notes (intensity, occupancy) from the reference's row where it has one. */
    const sb_result *any =
        &run->results[row->result[ref] >= 0 ? (size_t)row->result[ref] : row->first];
    char name[80], model[256], notes[128];
    variant_cell(f, any, name, sizeof name);
    sb_result_model_text(any, model, sizeof model);
    sb_result_notes(any, notes, sizeof notes);
    fprintf(out, "  %-16s", name);
    for (int s = 0; s < x->ndevices; s++) {
        if (row->result[s] < 0) {
            fprintf(out, " | %10s %6s %10s %6s", "-", "-", "-", "-");
            continue;
        }
        const sb_result *r = &run->results[row->result[s]];
        char roof[16] = "-";
        if (r->roof_share > 0)
            snprintf(roof, sizeof roof, "%.1f", 100.0 * r->roof_share);
        fprintf(out, " | %10.4f %5.1f%% %10.2f %6s", r->ms.median, 100.0 * r->ms.spread, r->value,
                roof);
    }
    fprintf(out, " |");
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        char ratio[16] = "-", verdict[96], interval[48];
        if (row->verdict[s].kind != SB_VERDICT_NONE)
            snprintf(ratio, sizeof ratio, "%.3f", row->verdict[s].speed_ratio);
        sb_verdict_text(&row->verdict[s], x->label[ref], x->label[s], verdict, sizeof verdict);
        sb_verdict_interval_text(&row->verdict[s], SB_INTERVAL_SPEED, interval, sizeof interval);
        fprintf(out, " %*s %-26s %-24s", ratio_width(x, s), ratio, verdict,
                interval[0] ? interval : "-");
    }
    fprintf(out, " %s%s%s\n", notes, notes[0] && model[0] ? "; " : "", model);
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref && row->ptx[s][0])
            fprintf(out, "  %-16s   PTX %s vs %s: %s\n", "", x->label[s], x->label[ref],
                    row->ptx[s]);
}

/* Side by side: one line per variant, each device's median, spread, figure
 * and roof share, then each other device's speed against the reference,
 * the verdict and the speed ratio's interval (or the rule used without
 * one); a second line when the PTX was compared. */
static void cross_section(const sb_run *run, const sb_crossapi *x, const sb_cross_experiment *e,
                          FILE *out)
{
    const sb_result *f = &run->results[e->first];
    experiment_heading(f, out);
    cross_heading(x, f, out);
    for (size_t j = 0; j < e->nrows; j++)
        cross_line(run, x, f, &x->rows[e->rows[j]], out);
    flops_legend(run, f, out);
}

/* What block e's numbers show, under its table. */
static void lessons_block(const sb_analysis *a, size_t e, FILE *out)
{
    sb_lessons l;
    sb_lessons_of(a, e, &l);
    for (int i = 0; i < l.n; i++)
        fprintf(out, "  Lesson: %s\n", l.text[i]);
}

sb_report_writer sb_report_table;

void sb_table_header(const sb_analysis *a, FILE *out)
{
    const sb_run *run = a->run;
    const sb_crossapi *x = &a->cross;
    fprintf(out, "simtbench %s  %s  %s\n", run->tool_version, run->date, run->host);
    if (run->interrupted)
        fprintf(out, "interrupted: only the results that finished before the signal\n");
    fprintf(out, "GB/s = 10^9 bytes/s of useful bytes read plus written over the median "
                 "device-event time\n\n");
    device_section(run, out);
    if (sb_crossapi_side_by_side(x))
        fprintf(out, "\nSide by side against %s: X/%s is the speed ratio (%s's median time over "
                     "X's; above 1, X is faster), with its 95%% interval.\n%s\n",
                x->label[x->reference], x->label[x->reference], x->label[x->reference],
                SB_VERDICT_RULE);
}

void sb_table_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_crossapi *x = &a->cross;
    if (e >= x->nexperiments)
        return;
    if (sb_crossapi_side_by_side(x))
        cross_section(a->run, x, &x->experiments[e], out);
    else
        experiment_section(a->run, &x->experiments[e], out);
    lessons_block(a, e, out);
}

int sb_report_table(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    (void)err, (void)n; /* nothing a text format cannot hold */
    sb_table_header(a, out);
    for (size_t e = 0; e < a->cross.nexperiments; e++)
        sb_table_block(a, e, out);
    return ferror(out) ? -1 : 0;
}
