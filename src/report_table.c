/* The terminal table: the devices, then per experiment one row per variant
 * and backend, with the model's prediction beside each measurement. */
#include <string.h>

#include "report.h"

static void device_section(const sb_run *run, FILE *out)
{
    fprintf(out, "Devices\n");
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *d = &run->devices[i];
        const sb_device_info *in = &d->info;
        fprintf(out, "  %-7s %s [%s], %s, driver %s, %s\n", d->backend, in->name, in->platform,
                in->api_version, in->driver[0] ? in->driver : "unknown", in->arch);
        fprintf(out, "          %d compute units at %d MHz, %.0f MiB memory, L2/cache %.1f MiB, "
                     "%.0f KiB shared per block\n",
                in->compute_units, in->clock_mhz, in->global_mem_bytes / 1048576.0,
                in->l2_bytes / 1048576.0, in->local_mem_bytes / 1024.0);
        double peak = sb_device_peak_gbs(in);
        if (peak > 0)
            fprintf(out, "          memory bus %d bits at %d MHz: theoretical peak %.0f GB/s "
                         "(bus bytes x 2 x clock)\n",
                    in->bus_width_bits, in->mem_clock_mhz, peak);
        else
            fprintf(out, "          memory bus width and clock: not exposed by the %s API, so "
                         "no theoretical peak\n",
                    d->backend);
        if (d->memcpy_gbs > 0)
            fprintf(out, "          measured API copy %.1f GB/s%s", d->memcpy_gbs,
                    peak > 0 ? "" : "\n");
        if (d->memcpy_gbs > 0 && peak > 0)
            fprintf(out, " = %.1f%% of peak\n", 100.0 * d->memcpy_gbs / peak);
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
        char model[256], roof[16] = "", extra[32] = "";
        sb_result_model_text(r, model, sizeof model);
        if (r->roof_share > 0)
            snprintf(roof, sizeof roof, "%.1f", 100.0 * r->roof_share);
        if (r->slowdown > 0)
            snprintf(extra, sizeof extra, "x%.2f ", r->slowdown);
        fprintf(out, "  %-16s %-7s %10.4f %10.4f %10.4f %5.1f%% %10.2f %10.2f %6s  %s%s\n",
                r->variant, r->backend, r->ms.median, r->ms.min, r->ms.max, 100.0 * r->ms.spread,
                r->value, r->value_best, roof, extra, model);
    }
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
