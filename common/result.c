#include "result.h"

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
    memset(run, 0, sizeof *run);
}

static const char *const unit_words[] = {
    [SB_QUANTITY_BANDWIDTH] = "GB/s",
    [SB_QUANTITY_FLOPS] = "GFLOP/s",
    [SB_QUANTITY_ACCESS] = "ns/access",
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
