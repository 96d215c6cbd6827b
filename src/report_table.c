/* The terminal table: the devices, then per experiment one row per variant
 * and backend, with the model's prediction beside each measurement. */
#include <string.h>

#include "report.h"

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
        figure(out, ", ", in->l2_bytes / 1048576.0, "L2/cache %.1f MiB", "L2 size");
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
        double copy = d->memcpy_gbs > 0 ? d->memcpy_gbs : d->copy_gbs;
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

static void experiment_section(const sb_run *run, size_t first, FILE *out)
{
    const sb_result *f = &run->results[first];
    fprintf(out, "\n%s  %ldx%ld", f->experiment, f->rows, f->cols);
    fprintf(out, "  (%d reps after at least %d warm-ups and 50 ms; every row verified)\n", f->reps, f->warmup);
    fprintf(out, "  %-16s %-7s %10s %10s %10s %6s %10s %10s %6s  %s\n", "variant", "backend",
            "median ms", "min ms", "max ms", "spread", f->unit, "best", "roof%", "model");
    for (size_t i = first; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (strcmp(r->experiment, f->experiment) != 0)
            continue;
        char model[256], notes[128], roof[16] = "", extra[32] = "";
        sb_result_model_text(r, model, sizeof model);
        sb_result_notes(r, notes, sizeof notes);
        if (r->roof_share > 0)
            snprintf(roof, sizeof roof, "%.1f", 100.0 * r->roof_share);
        if (r->slowdown > 0)
            snprintf(extra, sizeof extra, "x%.2f ", r->slowdown);
        fprintf(out, "  %-16s %-7s %10.4f %10.4f %10.4f %5.1f%% %10.2f %10.2f %6s  %s%s%s%s\n",
                r->variant, r->backend, r->ms.median, r->ms.min, r->ms.max, 100.0 * r->ms.spread,
                r->value, r->value_best, roof, extra, notes, notes[0] && model[0] ? "; " : "",
                model);
    }
    if (strcmp(f->unit, "GFLOP/s") == 0)
        fprintf(out, "  roof%% = GFLOP/s over FLOP/B x the measured copy GB/s, the memory-bound "
                     "ceiling; over 100 means caches cut the traffic FLOP/B counts%s\n",
                f->device_slot < run->ndevices &&
                        (run->devices[f->device_slot].memcpy_gbs > 0 ||
                         run->devices[f->device_slot].copy_gbs > 0)
                    ? ""
                    : " (no copy measured in this run: add vecadd, occupancy or transpose)");
}

int sb_report_table(const sb_run *run, FILE *out)
{
    fprintf(out, "simtbench %s  %s  %s\n", run->tool_version, run->date, run->host);
    fprintf(out, "GB/s = 10^9 bytes/s of useful bytes read plus written over the median "
                 "device-event time\n\n");
    device_section(run, out);
    size_t firsts[64];
    size_t n = sb_run_experiments_seen(run, firsts, 64);
    for (size_t i = 0; i < n; i++)
        experiment_section(run, firsts[i], out);
    return ferror(out) ? -1 : 0;
}
