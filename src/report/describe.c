#include "report/describe.h"

#include <stdio.h>
#include <string.h>

#include "dram.h"

void sb_result_model_text(const sb_result *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->npatterns && used < n; i++) {
        char one[96];
        if (sb_prediction_format(&r->prediction[i], one, sizeof one) < 0)
            snprintf(one, sizeof one, "?");
        used += (size_t)snprintf(buf + used, n - used, "%s%s: %s", i ? "; " : "",
                                 r->pattern_label[i], one);
    }
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES && used < n; i++) {
        const sb_figure *f = &r->figure[i];
        char name[sizeof f->name];
        snprintf(name, sizeof name, "%s", f->name);
        for (char *c = name; *c; c++)
            if (*c == '_')
                *c = ' ';
        used += (size_t)snprintf(buf + used, n - used, "%s%s %.4g%s%s", used ? "; " : "", name,
                                 f->value, f->unit[0] && f->unit[0] != 'x' ? " " : "", f->unit);
    }
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

/* v with its thousands apart ("67 108 864") from five digits up. */
static void grouped(long long v, char *buf, size_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lld", v < 0 ? 0 : v);
    size_t used = 0;
    for (int i = 0; i < len && used + 2 < n; i++) {
        if (len >= 5 && i > 0 && (len - i) % 3 == 0)
            buf[used++] = ' ';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
}

void sb_result_size_text(const sb_result *r, char *buf, size_t n)
{
    char rows[32], cols[32], all[32];
    grouped(r->rows, rows, sizeof rows);
    grouped(r->cols, cols, sizeof cols);
    grouped((long long)r->rows * r->cols, all, sizeof all);
    switch (r->size_kind) {
    case SB_SIZE_MATRIX: snprintf(buf, n, "%s x %s floats", rows, cols); break;
    case SB_SIZE_ELEMENTS: snprintf(buf, n, "%s elements", all); break;
    case SB_SIZE_WORDS: snprintf(buf, n, "%s 4-byte words", all); break;
    case SB_SIZE_THREADS: snprintf(buf, n, "%s threads", all); break;
    case SB_SIZE_WALKS: snprintf(buf, n, "%s threads, %s words each", cols, rows); break;
    default: snprintf(buf, n, "%ldx%ld", r->rows, r->cols); break;
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
