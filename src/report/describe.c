#include "report/describe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram.h"

/* A figure's value with its unit: bytes in binary units ("16 KiB", "4
 * GiB"), whole counts whole ("65536"), the rest to four figures. */
static void figure_text(const sb_figure *f, char *buf, size_t n)
{
    static const char *const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = f->value;
    if (strcmp(f->unit, "B") == 0 && v >= 0) {
        int k = 0;
        while (v >= 1024 && k < 4 && fmod(v, 1024) == 0) {
            v /= 1024;
            k++;
        }
        snprintf(buf, n, "%.4g %s", v, binary[k]);
        return;
    }
    const char *space = f->unit[0] && f->unit[0] != 'x' ? " " : "";
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f%s%s", v, space, f->unit);
    else
        snprintf(buf, n, "%.4g%s%s", v, space, f->unit);
}

void sb_result_model_text(const sb_result *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->npatterns && i < SB_MAX_PATTERNS && used < n; i++) {
        char one[96];
        if (r->pattern_extra[i])
            continue;
        if (sb_prediction_format(&r->prediction[i], one, sizeof one) < 0)
            snprintf(one, sizeof one, "?");
        used += (size_t)snprintf(buf + used, n - used, "%s%s: %s", used ? "; " : "",
                                 r->pattern_label[i], one);
    }
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES && used < n; i++) {
        const sb_figure *f = &r->figure[i];
        char name[sizeof f->name];
        snprintf(name, sizeof name, "%s", f->name);
        for (char *c = name; *c; c++)
            if (*c == '_')
                *c = ' ';
        char value[48];
        figure_text(f, value, sizeof value);
        used += (size_t)snprintf(buf + used, n - used, "%s%s %s", used ? "; " : "", name, value);
    }
    char totals[160];
    if (used < n && r->has_totals &&
        sb_access_totals_format(&r->totals, totals, sizeof totals) > 0)
        snprintf(buf + used, n - used, "%swhole kernel: %s", used ? "; " : "", totals);
}

void sb_result_notes(const sb_result *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    if (r->intensity > 0)
        used += (size_t)snprintf(buf, n, "%.3g FLOP/B", r->intensity);
    double launched = (double)r->grid[0] * r->grid[1] * r->grid[2] * r->block[0] * r->block[1] *
                      r->block[2];
    if (used < n && r->occupancy >= 0) {
        used += (size_t)snprintf(buf + used, n - used, "%socc %d blk/unit", used ? ", " : "",
                                 r->occupancy);
        if (used < n && r->threads_in_flight > 0)
            snprintf(buf + used, n - used, ", %ld in flight", r->threads_in_flight);
    } else if (used < n && strcmp(r->family, "occupancy") == 0 && launched > 0) {
        /* Without the API's occupancy only what was launched is known. */
        used += (size_t)snprintf(buf + used, n - used, "%s%.0f launched", used ? ", " : "",
                                 launched);
    }
    /* What a benchmark timed on the host would report of the same bytes. */
    if (used < n && r->host_observed.n > 0 && r->bytes > 0 && r->ms.median > 0)
        snprintf(buf + used, n - used, "%s%.1f GB/s device-timed, %.1f host-timed",
                 used ? ", " : "", r->bytes / (r->ms.median * 1e6),
                 r->bytes / (r->host_observed.median * 1e6));
}

void sb_result_host_notes(const sb_result *r, char *buf, size_t n)
{
    buf[0] = '\0';
    if (r->host_observed.n == 0)
        return;
    size_t used = (size_t)snprintf(buf, n, "%.1f%% of the host-observed time unseen by the "
                                   "device's events",
                                   100.0 * sb_host_deficit(r->host_observed.median,
                                                           r->ms.median));
    if (used < n && r->launches_per_s > 0)
        snprintf(buf + used, n - used, "; %.0f launches/s, %d queued", r->launches_per_s,
                 r->queued_launches);
}

void sb_device_identity_text(const sb_run *run, int slot, char *buf, size_t n)
{
    const sb_run_device *d = &run->devices[slot];
    const sb_device_info *in = &d->info;
    int used = snprintf(buf, n, "device %d of platform %d", in->device_index, in->platform_index);
    if (used >= 0 && (size_t)used < n && in->pci_bus_id[0])
        used += snprintf(buf + used, n - (size_t)used, ", PCI %s", in->pci_bus_id);
    if (used >= 0 && (size_t)used < n && in->uuid[0])
        used += snprintf(buf + used, n - (size_t)used, ", UUID %s", in->uuid);
    if (!run->sources || d->source < 0 || d->source >= run->nsources)
        return;
    const sb_run_source *src = &run->sources[d->source];
    const char *file = strrchr(src->file, '/') ? strrchr(src->file, '/') + 1 : src->file;
    if (used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used, "; run %d of %d%s%s on %s", d->source + 1,
                         run->nsources, file[0] ? ", " : "", file,
                         src->host[0] ? src->host : "an unknown host");
    if (used >= 0 && (size_t)used < n && src->provenance.revision[0])
        used += snprintf(buf + used, n - (size_t)used, ", revision %s",
                         src->provenance.revision);
    if (used >= 0 && (size_t)used < n && src->date[0])
        snprintf(buf + used, n - (size_t)used, ", started %s", src->date);
}

/* "opencl x2", with the device's name where its backend has devices of
   other names in the run. */
static void group_name(const sb_run *run, int first, int count, char *buf, size_t n)
{
    const sb_run_device *d = &run->devices[first];
    int other_names = 0;
    for (int i = 0; i < run->ndevices; i++)
        other_names |= strcmp(run->devices[i].backend, d->backend) == 0 &&
                       strcmp(run->devices[i].info.name, d->info.name) != 0;
    if (other_names)
        snprintf(buf, n, "%s x%d %s", d->backend, count, d->info.name);
    else
        snprintf(buf, n, "%s x%d", d->backend, count);
}

/* A slot's figure in the row, with its label. */
static void device_figure(const sb_analysis *a, const sb_fleet_row *fr, int slot, char *buf,
                          size_t n)
{
    long i = a->cross.rows[fr->row].result[slot];
    snprintf(buf, n, "%s %.2f", a->cross.label[slot], i >= 0 ? a->run->results[i].value : 0);
}

void sb_fleet_outlier_text(const sb_analysis *a, const sb_fleet_row *fr, size_t k, char *buf,
                           size_t n)
{
    const sb_crossapi *x = &a->cross;
    const sb_outlier *o = &a->fleet.outliers[fr->outlier + k];
    char who[512], verdict[96], interval[64], mads[48];
    sb_device_identity_text(a->run, o->slot, who, sizeof who);
    sb_verdict_text(&o->verdict, x->label[o->against], x->label[o->slot], verdict,
                    sizeof verdict);
    sb_verdict_interval_text(&o->verdict, SB_INTERVAL_SPEED, interval, sizeof interval);
    if (o->mads > 0)
        snprintf(mads, sizeof mads, "%.1f scaled MADs", o->mads);
    else if (fr->ndevices == 2)
        snprintf(mads, sizeof mads, "one peer, so no MAD");
    else
        snprintf(mads, sizeof mads, "its peers agree exactly (MAD 0)");
    snprintf(buf, n, "outlier %s (%s): %.1f%% below its peers' median, %s; against %s: %s, "
             "%s/%s 95%% interval %s", x->label[o->slot], who, 100.0 * o->below, mads,
             x->label[o->against], verdict, x->label[o->slot], x->label[o->against], interval);
}

void sb_fleet_row_text(const sb_analysis *a, const sb_result *f, const sb_fleet_row *fr,
                       sb_fleet_text *t)
{
    const sb_crossapi *x = &a->cross;
    const sb_result *r = &a->run->results[x->rows[fr->row].first];
    char size[64];
    memset(t, 0, sizeof *t);
    sb_result_size_text(r, size, sizeof size);
    if (r->rows == f->rows && r->cols == f->cols)
        snprintf(t->variant, sizeof t->variant, "%s", r->variant);
    else
        snprintf(t->variant, sizeof t->variant, "%s@%s", r->variant, size);
    group_name(a->run, fr->first, fr->ndevices, t->group, sizeof t->group);
    snprintf(t->median, sizeof t->median, "%.2f", fr->median_value);
    device_figure(a, fr, fr->fastest, t->fastest, sizeof t->fastest);
    device_figure(a, fr, fr->slowest, t->slowest, sizeof t->slowest);
    size_t used = 0;
    snprintf(t->outliers, sizeof t->outliers, "%s", fr->noutliers ? "" : "none");
    for (size_t k = 0; k < fr->noutliers && used < sizeof t->outliers; k++) {
        const sb_outlier *o = &a->fleet.outliers[fr->outlier + k];
        int w = snprintf(t->outliers + used, sizeof t->outliers - used, "%s%s -%.1f%%",
                         k ? ", " : "", x->label[o->slot], 100.0 * o->below);
        used += w > 0 ? (size_t)w : 0;
    }
}

double sb_device_peak_gbs(const sb_device_info *info)
{
    return sb_dram_peak_gbs(info->bus_width_bits, info->mem_clock_mhz);
}

double sb_device_copy_roof(const sb_run_device *d)
{
    return d->memcpy_gbs > 0 ? d->memcpy_gbs : d->copy_gbs;
}
