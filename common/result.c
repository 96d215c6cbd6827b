#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_run_add(sb_run *run, const sb_result *r)
{
    if (run->nresults == run->capacity) {
        size_t cap = run->capacity ? 2 * run->capacity : 32;
        sb_result *p = realloc(run->results, cap * sizeof *p);
        if (!p)
            return -1;
        run->results = p;
        run->capacity = cap;
    }
    double *samples = NULL;
    if (r->samples && r->nsamples) {
        if (!(samples = malloc(r->nsamples * sizeof *samples)))
            return -1;
        memcpy(samples, r->samples, r->nsamples * sizeof *samples);
    }
    sb_result *kept = &run->results[run->nresults++];
    *kept = *r;
    kept->samples = samples;
    kept->nsamples = samples ? r->nsamples : 0;
    return 0;
}

void sb_run_free(sb_run *run)
{
    for (size_t i = 0; i < run->nresults; i++)
        free(run->results[i].samples);
    free(run->results);
    free(run->sources);
    memset(run, 0, sizeof *run);
}

const char *sb_run_device_host(const sb_run *run, int slot)
{
    int source = slot >= 0 && slot < run->ndevices ? run->devices[slot].source : -1;
    return run->sources && source >= 0 && source < run->nsources ? run->sources[source].host
                                                                  : run->host;
}

static const char *const unit_words[] = {
    [SB_QUANTITY_BANDWIDTH] = "GB/s",
    [SB_QUANTITY_FLOPS] = "GFLOP/s",
    [SB_QUANTITY_ACCESS] = "ns/access",
    [SB_QUANTITY_LATENCY] = "ns/load",
    [SB_QUANTITY_LAUNCH] = "us/launch",
    [SB_QUANTITY_ELEMENT] = "ns/element",
};

const char *sb_quantity_unit(sb_quantity q)
{
    return (unsigned)q < sizeof unit_words / sizeof unit_words[0] ? unit_words[q] : "?";
}

int sb_quantity_parse(const char *unit, sb_quantity *q)
{
    for (size_t i = 0; unit && i < sizeof unit_words / sizeof unit_words[0]; i++)
        if (strcmp(unit, unit_words[i]) == 0) {
            *q = (sb_quantity)i;
            return 0;
        }
    return -1;
}

static const char *const size_kind_words[] = {
    [SB_SIZE_UNKNOWN] = "",
    [SB_SIZE_MATRIX] = "matrix",
    [SB_SIZE_ELEMENTS] = "elements",
    [SB_SIZE_WORDS] = "words",
    [SB_SIZE_THREADS] = "threads",
    [SB_SIZE_WALKS] = "walks",
};

const char *sb_size_kind_name(sb_size_kind k)
{
    return (unsigned)k < sizeof size_kind_words / sizeof size_kind_words[0] ? size_kind_words[k]
                                                                            : "";
}

int sb_size_kind_parse(const char *name, sb_size_kind *k)
{
    for (size_t i = 1; name && i < sizeof size_kind_words / sizeof size_kind_words[0]; i++)
        if (strcmp(name, size_kind_words[i]) == 0) {
            *k = (sb_size_kind)i;
            return 0;
        }
    return -1;
}

int sb_figure_add(sb_figure *figs, int *n, const char *name, double value, const char *unit)
{
    if (*n >= SB_MAX_FIGURES || !name[0] || strlen(name) >= sizeof figs->name ||
        strlen(unit) >= sizeof figs->unit)
        return -1;
    sb_figure *f = &figs[(*n)++];
    memset(f, 0, sizeof *f);
    memcpy(f->name, name, strlen(name));
    memcpy(f->unit, unit, strlen(unit));
    f->value = value;
    return 0;
}

static const char *const counter_keys[SB_COUNTER_COUNT] = {
    [SB_COUNTER_GLOBAL_LD_REQUESTS] = "global_ld_requests",
    [SB_COUNTER_GLOBAL_ST_REQUESTS] = "global_st_requests",
    [SB_COUNTER_GLOBAL_LD_SECTORS] = "global_ld_sectors",
    [SB_COUNTER_GLOBAL_ST_SECTORS] = "global_st_sectors",
    [SB_COUNTER_GLOBAL_ATOM_REQUESTS] = "global_atom_requests",
    [SB_COUNTER_SHARED_LD_REQUESTS] = "shared_ld_requests",
    [SB_COUNTER_SHARED_ST_REQUESTS] = "shared_st_requests",
    [SB_COUNTER_SHARED_LD_WAVEFRONTS] = "shared_ld_wavefronts",
    [SB_COUNTER_SHARED_ST_WAVEFRONTS] = "shared_st_wavefronts",
    [SB_COUNTER_SHARED_LD_CONFLICTS] = "shared_ld_conflicts",
    [SB_COUNTER_SHARED_ST_CONFLICTS] = "shared_st_conflicts",
    [SB_COUNTER_DRAM_READ_BYTES] = "dram_read_bytes",
    [SB_COUNTER_DRAM_WRITE_BYTES] = "dram_write_bytes",
    [SB_COUNTER_L2_HIT_PCT] = "l2_hit_pct",
    [SB_COUNTER_WARPS_ACTIVE_PCT] = "warps_active_pct",
    [SB_COUNTER_THREADS_PER_INST] = "threads_per_inst",
};

const char *sb_counter_key(int c)
{
    return c >= 0 && c < SB_COUNTER_COUNT ? counter_keys[c] : NULL;
}

int sb_counter_parse(const char *name)
{
    for (int c = 0; c < SB_COUNTER_COUNT; c++)
        if (strcmp(counter_keys[c], name) == 0)
            return c;
    return -1;
}

const sb_figure *sb_figure_find(const sb_figure *figs, int n, const char *name)
{
    for (int i = 0; i < n && i < SB_MAX_FIGURES; i++)
        if (strcmp(figs[i].name, name) == 0)
            return &figs[i];
    return NULL;
}

int sb_figure_set(sb_figure *figs, int *n, const char *name, double value, const char *unit)
{
    sb_figure *f = (sb_figure *)sb_figure_find(figs, *n, name);
    if (!f)
        return sb_figure_add(figs, n, name, value, unit);
    if (strlen(unit) >= sizeof f->unit)
        return -1;
    f->value = value;
    memset(f->unit, 0, sizeof f->unit);
    memcpy(f->unit, unit, strlen(unit));
    return 0;
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
