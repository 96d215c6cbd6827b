/* The saved-run reader.  The file is streamed (json_stream.h): each result
 * is parsed, converted and dropped before the next, so a run of any size
 * costs its records and no more.  Every field is checked for its type and
 * its range before it is converted, with one line naming the file, the
 * record and the field when it is wrong; an absent field keeps its
 * default (older files lack some), a present one must be right. */
#include "report/json_read.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report/json_fields.h"
#include "report/json_read_head.h"
#include "report/json_stream.h"
#include "text.h"

/* Shorthands for get_real: at least 0, or any finite number. */
#define POSITIVE 0.0, HUGE_VAL
#define ANY -HUGE_VAL, HUGE_VAL

static const char *space_at(int i)
{
    return sb_space_name((sb_space)i);
}

static const char *perm_at(int i)
{
    return sb_perm_name((sb_perm)i);
}

static const char *walk_at(int i)
{
    return sb_walk_name((sb_walk)i);
}

static const char *size_kind_at(int i)
{
    const char *name = sb_size_kind_name((sb_size_kind)(i + 1));
    return name[0] ? name : NULL;
}

/* What the sizes of a file older than the size_kind field count, by the
 * experiments it could hold. */
static sb_size_kind size_kind_before_the_field(const sb_result *r)
{
    static const struct {
        const char *experiment, *family;
        sb_size_kind kind;
    } rules[] = {
        {"transpose", NULL, SB_SIZE_MATRIX},   {"matmul", NULL, SB_SIZE_MATRIX},
        {"vecadd", NULL, SB_SIZE_ELEMENTS},    {"occupancy", NULL, SB_SIZE_ELEMENTS},
        {"global_walk", NULL, SB_SIZE_WALKS},  {NULL, "global", SB_SIZE_WORDS},
        {NULL, "shared", SB_SIZE_THREADS},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].experiment ? strcmp(r->experiment, rules[i].experiment) == 0
                                : strcmp(r->family, rules[i].family) == 0)
            return rules[i].kind;
    return SB_SIZE_UNKNOWN;
}

/* What the size counts: the name; null where the run did not know; absent
 * in a file older than the field, the experiment's kind of that time. */
static int read_size_kind(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, "size_kind");
    int kind = -1;
    if (!v)
        r->size_kind = size_kind_before_the_field(r);
    else if (!json_is_null(v) && sb_field_get_name(o, "size_kind", size_kind_at, &kind, c))
        return -1;
    else if (kind >= 0)
        r->size_kind = (sb_size_kind)(kind + 1);
    return 0;
}

/* ---------------------------------------------------------------- records */

/* The clocks at the run's start and end: each a positive integer or null
 * (unknown, 0 here). */
static int read_clocks(json_t *d, sb_run_device *out, const sb_field_ctx *c)
{
    json_t *clocks = json_object_get(d, "clocks_mhz");
    if (sb_field_get_str(d, "clocks_mhz_reason", out->clocks_note, sizeof out->clocks_note, c))
        return -1;
    if (!clocks)
        return 0;
    if (!json_is_object(clocks))
        return sb_field_wrong_type(c, "clocks_mhz", clocks, "an object");
    sb_field_ctx cc = sb_field_nested(c, "clocks_mhz");
    const char *keys[4] = {"sm_start", "memory_start", "sm_end", "memory_end"};
    int *v[4] = {&out->sm_mhz_start, &out->mem_mhz_start, &out->sm_mhz_end, &out->mem_mhz_end};
    for (int i = 0; i < 4; i++) {
        if (sb_field_get_known_int(clocks, keys[i], v[i], &cc))
            return -1;
        if (*v[i] < 0)
            *v[i] = 0; /* null: not known */
    }
    return 0;
}

/* The drift check's two roofs (absent in files older than them, null
 * where not measured); the drift itself is derived again. */
static int read_drift(json_t *d, sb_run_device *out, const sb_field_ctx *c)
{
    json_t *drift = json_object_get(d, "drift");
    if (!drift || json_is_null(drift))
        return 0;
    if (!json_is_object(drift))
        return sb_field_wrong_type(c, "drift", drift, "an object or null");
    sb_field_ctx dc = sb_field_nested(c, "drift");
    return sb_field_get_real(drift, "roof_start_gbs", POSITIVE, 0.0, &out->roof_start_gbs, &dc) ||
           sb_field_get_real(drift, "roof_end_gbs", POSITIVE, 0.0, &out->roof_end_gbs, &dc);
}


/* Which device it is (absent in files older than the fields): the
 * indices the API opened it at, its PCI address and UUID (null where the
 * API gave none), and in a merged result the run it came from (checked
 * against the runs once they are read). */
static int read_identity_fields(json_t *d, sb_run_device *out, const sb_field_ctx *c)
{
    sb_device_info *in = &out->info;
    return sb_field_get_int(d, "platform_index", 0, INT_MAX, &in->platform_index, c) ||
           sb_field_get_int(d, "device_index", 0, INT_MAX, &in->device_index, c) ||
           sb_field_get_str_or_null(d, "pci_bus_id", in->pci_bus_id, sizeof in->pci_bus_id, c) ||
           sb_field_get_str_or_null(d, "uuid", in->uuid, sizeof in->uuid, c) ||
           sb_field_get_int(d, "source", 0, INT_MAX, &out->source, c);
}

static int read_device(json_t *d, sb_run_device *out, const sb_field_ctx *c)
{
    memset(out, 0, sizeof *out);
    sb_device_info *in = &out->info;
    return sb_field_need_str(d, "backend", out->backend, sizeof out->backend, c) ||
           sb_field_need_str(d, "name", in->name, sizeof in->name, c) ||
           sb_field_get_str(d, "platform", in->platform, sizeof in->platform, c) ||
           sb_field_get_str(d, "vendor", in->vendor, sizeof in->vendor, c) ||
           sb_field_get_str(d, "driver", in->driver, sizeof in->driver, c) ||
           sb_field_get_str(d, "api_version", in->api_version, sizeof in->api_version, c) ||
           sb_field_get_str(d, "arch", in->arch, sizeof in->arch, c) ||
           sb_field_get_bool(d, "is_gpu", &in->is_gpu, c) ||
           sb_field_get_int(d, "compute_units", 0, INT_MAX, &in->compute_units, c) ||
           sb_field_get_int(d, "clock_mhz", 0, INT_MAX, &in->clock_mhz, c) ||
           sb_field_get_int(d, "mem_clock_mhz", 0, INT_MAX, &in->mem_clock_mhz, c) ||
           sb_field_get_int(d, "bus_width_bits", 0, INT_MAX, &in->bus_width_bits, c) ||
           sb_field_get_u64(d, "global_mem_bytes", &in->global_mem_bytes, c) ||
           sb_field_get_u64(d, "l2_bytes", &in->l2_bytes, c) ||
           sb_field_get_str(d, "cache_name", in->cache_name, sizeof in->cache_name, c) ||
           sb_field_get_u64(d, "local_mem_bytes", &in->local_mem_bytes, c) ||
           sb_field_get_int(d, "max_group_size", 0, INT_MAX, &in->max_group_size, c) ||
           sb_field_get_int(d, "warp_size", 0, INT_MAX, &in->warp_size, c) ||
           sb_field_get_real(d, "memcpy_gbs", POSITIVE, 0.0, &out->memcpy_gbs, c) ||
           sb_field_get_real(d, "copy_kernel_gbs", POSITIVE, 0.0, &out->copy_gbs, c) ||
           sb_field_get_real(d, "fma_peak_gflops", POSITIVE, 0.0, &out->fma_gflops, c) ||
           read_clocks(d, out, c) || read_drift(d, out, c) ||
           read_identity_fields(d, out, c);
}

static const char *kind_at(int i)
{
    return sb_access_kind_name((sb_access_kind)i);
}

/* A list walk's lane indices: 32 whole numbers, where the walk is one. */
static int read_lane_index(json_t *pat, sb_pattern *q, const sb_field_ctx *c)
{
    json_t *lanes = json_object_get(pat, "lane_index");
    if (q->walk != SB_WALK_LIST && !lanes)
        return 0;
    if (!json_is_array(lanes) || json_array_size(lanes) != SB_WARP_LANES) {
        snprintf(c->why, c->wn, "%s.lane_index: expected an array of %d lane indices", c->rec,
                 SB_WARP_LANES);
        return -1;
    }
    for (int l = 0; l < SB_WARP_LANES; l++) {
        long long v;
        if (sb_field_whole_number(json_array_get(lanes, (size_t)l), "lane_index", 0, SB_MODEL_MAX_INDEX,
                         &v, c))
            return -1;
        q->lane_index[l] = (int32_t)v;
    }
    return 0;
}

static int read_pattern(json_t *pat, sb_pattern *q, const sb_field_ctx *c)
{
    *q = sb_pattern_default();
    int space = (int)q->space, perm = (int)q->perm, walk = (int)q->walk;
    long long perm_arg = q->perm_arg, active = 0;
    int rc = sb_field_get_name(pat, "space", space_at, &space, c) ||
             sb_field_get_int(pat, "word_bytes", 0, INT_MAX, &q->word_bytes, c) ||
             sb_field_get_long(pat, "stride", LONG_MIN, LONG_MAX, &q->stride, c) ||
             sb_field_get_long(pat, "offset", LONG_MIN, LONG_MAX, &q->offset, c) ||
             sb_field_get_name(pat, "perm", perm_at, &perm, c) ||
             sb_field_get_integer(pat, "perm_arg", 0, UINT_MAX, &perm_arg, c) < 0 ||
             sb_field_get_int(pat, "spread", 0, INT_MAX, &q->spread, c) ||
             sb_field_get_int(pat, "same", 0, INT_MAX, &q->same, c) ||
             sb_field_get_int(pat, "tile_rows", 0, INT_MAX, &q->tile_rows, c) ||
             sb_field_get_int(pat, "tile_cols", 0, INT_MAX, &q->tile_cols, c) ||
             sb_field_get_int(pat, "pad", 0, INT_MAX, &q->pad, c) ||
             sb_field_get_int(pat, "swizzle", 0, INT_MAX, &q->swizzle, c) ||
             sb_field_get_name(pat, "walk", walk_at, &walk, c) ||
             sb_field_get_int(pat, "walk_index", 0, INT_MAX, &q->walk_index, c) ||
             sb_field_get_integer(pat, "active", 0, UINT32_MAX, &active, c) < 0;
    q->space = (sb_space)space;
    q->perm = (sb_perm)perm;
    q->walk = (sb_walk)walk;
    q->perm_arg = (unsigned)perm_arg;
    q->active = (uint32_t)active;
    return rc || read_lane_index(pat, q, c);
}

/* The model's prediction, every field of the table model.h lists. */
static int read_prediction(json_t *pred, sb_prediction *p, const sb_field_ctx *c)
{
    memset(p, 0, sizeof *p);
    for (size_t f = 0; sb_prediction_field_at(f); f++) {
        const sb_prediction_field *pf = sb_prediction_field_at(f);
        void *at = (char *)p + pf->offset;
        if (pf->type == SB_FIELD_INT ? sb_field_get_int(pred, pf->name, 0, INT_MAX, at, c)
                                     : sb_field_get_real(pred, pf->name, ANY, NAN, at, c))
            return -1;
    }
    return 0;
}

/* What a declared access is beside its pattern: kind, requests and whether
 * the variant is about it; a file older than the fields has only loads
 * and stores it is about, of requests unknown (0). */
static int read_access(json_t *entry, sb_result *r, size_t m, const sb_field_ctx *c)
{
    int kind = SB_ACCESS_LOAD, studied = 1;
    int rc = sb_field_get_name(entry, "kind", kind_at, &kind, c) ||
             sb_field_get_real(entry, "requests", POSITIVE, 0.0, &r->pattern_requests[m], c) ||
             sb_field_get_bool(entry, "studied", &studied, c);
    r->pattern_kind[m] = (sb_access_kind)kind;
    r->pattern_extra[m] = !studied;
    return rc;
}

/* The model's per-launch totals, where the file has them: the counts, from
 * which the ratios are made again. */
static int read_totals(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *t;
    sb_field_ctx tc = sb_field_nested(c, "model_totals");
    if (sb_field_get_object(o, "model_totals", &t, c))
        return -1;
    memset(&r->totals, 0, sizeof r->totals);
    r->has_totals = t != NULL;
    for (size_t i = 0; t && sb_access_totals_field_at(i); i++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(i);
        double *at = (double *)(void *)((char *)&r->totals + f->offset);
        if (!f->ratio && sb_field_get_real(t, f->name, POSITIVE, 0.0, at, &tc))
            return -1;
    }
    sb_access_totals_ratios(&r->totals);
    return 0;
}

/* The declared accesses, at most the SB_MAX_PATTERNS a result holds, and
   their totals. */
static int read_model(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *model = json_object_get(o, "model");
    if (model && !json_is_array(model))
        return sb_field_wrong_type(c, "model", model, "an array");
    r->npatterns = 0;
    for (size_t m = 0; m < json_array_size(model) && m < SB_MAX_PATTERNS; m++) {
        json_t *entry = json_array_get(model, m), *pat, *pred;
        char at[16];
        snprintf(at, sizeof at, "model[%zu]", m);
        sb_field_ctx e = sb_field_nested(c, at);
        if (!json_is_object(entry))
            return sb_field_wrong_type(c, at, entry, "an object");
        sb_field_ctx pc = sb_field_nested(&e, "pattern"), qc = sb_field_nested(&e, "prediction");
        if (sb_field_get_str(entry, "label", r->pattern_label[m], sizeof r->pattern_label[m], &e) ||
            sb_field_get_object(entry, "pattern", &pat, &e) || sb_field_get_object(entry, "prediction", &pred, &e) ||
            read_pattern(pat, &r->pattern[m], &pc) ||
            read_prediction(pred, &r->prediction[m], &qc) || read_access(entry, r, m, &e))
            return -1;
        r->npatterns = (int)m + 1;
    }
    return read_totals(o, r, c);
}

/* The family's model figures: at most SB_MAX_FIGURES, each a name, a
 * finite value and a unit. */
static int read_figures(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *figs = json_object_get(o, "figures");
    r->nfigures = 0;
    if (!figs)
        return 0;
    if (!json_is_array(figs))
        return sb_field_wrong_type(c, "figures", figs, "an array");
    if (json_array_size(figs) > SB_MAX_FIGURES) {
        snprintf(c->why, c->wn, "%s has %zu \"figures\", more than %d", c->rec,
                 json_array_size(figs), SB_MAX_FIGURES);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(figs); i++) {
        json_t *entry = json_array_get(figs, i);
        sb_figure *f = &r->figure[i];
        char at[16];
        snprintf(at, sizeof at, "figures[%zu]", i);
        sb_field_ctx e = sb_field_nested(c, at);
        if (!json_is_object(entry))
            return sb_field_wrong_type(c, at, entry, "an object");
        memset(f, 0, sizeof *f);
        f->value = NAN;
        if (sb_field_need_str(entry, "name", f->name, sizeof f->name, &e) ||
            sb_field_get_str(entry, "unit", f->unit, sizeof f->unit, &e) ||
            sb_field_get_real(entry, "value", ANY, NAN, &f->value, &e))
            return -1;
        if (!f->name[0] || isnan(f->value)) {
            snprintf(c->why, c->wn, "%s.%s needs a name and a finite value", c->rec, at);
            return -1;
        }
        r->nfigures = (int)i + 1;
    }
    return 0;
}

/* The hardware's counts (--counters): an object of the known keys, each
 * a number of 0 or more or null; null or absent is none, with its reason
 * where the run gave one. */
static int read_counters(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *counters = json_object_get(o, "counters");
    r->counted = 0;
    for (int i = 0; i < SB_COUNTER_COUNT; i++)
        r->counts[i] = NAN;
    if (sb_field_get_str(o, "counters_reason", r->counters_note, sizeof r->counters_note, c))
        return -1;
    if (!counters || json_is_null(counters))
        return 0;
    if (!json_is_object(counters))
        return sb_field_wrong_type(c, "counters", counters, "an object or null");
    sb_field_ctx cc = sb_field_nested(c, "counters");
    const char *key;
    json_t *v;
    json_object_foreach(counters, key, v) {
        int i = sb_counter_parse(key);
        if (i < 0) {
            snprintf(c->why, c->wn, "%s.counters has an unknown counter \"%s\"", c->rec, key);
            return -1;
        }
        if (sb_field_get_real(counters, key, POSITIVE, NAN, &r->counts[i], &cc))
            return -1;
    }
    r->counted = 1;
    return 0;
}

/* Statistics of repetitions under key: a positive median, then the
 * rest; -1 with why naming the key when the median is missing. */
static int read_stats(json_t *o, const char *key, sb_stats *ms, const sb_field_ctx *c)
{
    json_t *t = json_object_get(o, key);
    json_t *median = json_object_get(t, "median");
    if (!json_is_number(median) || !(json_number_value(median) > 0)) {
        snprintf(c->why, c->wn, "%s has no positive \"%s\".\"median\"", c->rec, key);
        return -1;
    }
    ms->median = json_number_value(median);
    sb_field_ctx tc = sb_field_nested(c, key);
    return sb_field_get_real(t, "min", POSITIVE, NAN, &ms->min, &tc) ||
           sb_field_get_real(t, "max", POSITIVE, NAN, &ms->max, &tc) ||
           sb_field_get_real(t, "mean", POSITIVE, NAN, &ms->mean, &tc) ||
           sb_field_get_real(t, "stddev", POSITIVE, NAN, &ms->stddev, &tc) ||
           sb_field_get_real(t, "spread", POSITIVE, NAN, &ms->spread, &tc) ||
           sb_field_get_size(t, "fastest_rep", &ms->fastest, &tc) ||
           sb_field_get_size(t, "slowest_rep", &ms->slowest, &tc);
}

/* The statistics of the timed repetitions; a median is required. */
static int read_times(json_t *o, sb_stats *ms, const sb_field_ctx *c)
{
    return read_stats(o, "time_ms", ms, c);
}

/* What the host's clock saw (the launch family); absent where it was not
 * measured, and then none of it may be there. */
static int read_host_observed(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    if (!json_object_get(o, "host_observed_ms")) {
        if (json_object_get(o, "launches_per_s") || json_object_get(o, "queued_launches")) {
            snprintf(c->why, c->wn, "%s has launches per second but no \"host_observed_ms\"",
                     c->rec);
            return -1;
        }
        return 0;
    }
    if (read_stats(o, "host_observed_ms", &r->host_observed, c) ||
        sb_field_get_real(o, "launches_per_s", POSITIVE, 0.0, &r->launches_per_s, c) ||
        sb_field_get_int(o, "queued_launches", 0, INT_MAX, &r->queued_launches, c))
        return -1;
    r->host_observed.n = (size_t)r->reps;
    return 0;
}

/* Every repetition's time, into r->samples (the caller's to free): as many
 * as r->reps, each a positive finite number; absent in older files. */
static int read_samples(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    json_t *a = json_object_get(o, "samples_ms");
    if (!a)
        return 0;
    if (!json_is_array(a))
        return sb_field_wrong_type(c, "samples_ms", a, "an array of times");
    size_t n = json_array_size(a);
    if (n != (size_t)r->reps || n > SB_RESULT_MAX_SAMPLES) {
        snprintf(c->why, c->wn, "%s.samples_ms: %zu time%s for %d repetitions%s", c->rec, n,
                 n == 1 ? "" : "s", r->reps,
                 n > SB_RESULT_MAX_SAMPLES ? " (more than a result holds)" : "");
        return -1;
    }
    if (n == 0)
        return 0;
    if (!(r->samples = malloc(n * sizeof *r->samples))) {
        snprintf(c->why, c->wn, "%s.samples_ms: out of host memory", c->rec);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        char at[32];
        snprintf(at, sizeof at, "samples_ms[%zu]", i);
        if (!json_is_number(v))
            return sb_field_wrong_type(c, at, v, "a positive number");
        double d = json_number_value(v);
        if (!(d > 0) || !isfinite(d)) {
            snprintf(c->why, c->wn, "%s.%s: %.15g is not a positive time", c->rec, at, d);
            return -1;
        }
        r->samples[i] = d;
        r->nsamples = i + 1;
    }
    return 0;
}

/* A launch shape, [x, y, z]. */
static int read_dims(json_t *o, const char *key, unsigned dims[3], const sb_field_ctx *c)
{
    json_t *a = json_object_get(o, key);
    if (!a)
        return 0;
    if (!json_is_array(a) || json_array_size(a) != 3)
        return sb_field_wrong_type(c, key, a, "an array of 3 whole numbers");
    for (size_t k = 0; k < 3; k++) {
        char at[24];
        long long v;
        snprintf(at, sizeof at, "%s[%zu]", key, k);
        if (sb_field_whole_number(json_array_get(a, k), at, 0, UINT_MAX, &v, c))
            return -1;
        dims[k] = (unsigned)v;
    }
    return 0;
}

/* What identifies a result, and its figure's unit. */
static int read_identity(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    if (sb_field_need_str(o, "backend", r->backend, sizeof r->backend, c) ||
        sb_field_need_str(o, "experiment", r->experiment, sizeof r->experiment, c) ||
        sb_field_need_str(o, "variant", r->variant, sizeof r->variant, c))
        return -1;
    json_t *dev = json_object_get(o, "device");
    long long slot;
    if (!json_is_number(dev)) {
        snprintf(c->why, c->wn, "%s has no \"device\" index into the devices array", c->rec);
        return -1;
    }
    if (sb_field_whole_number(dev, "device", 0, SB_RUN_MAX_DEVICES - 1, &slot, c))
        return -1;
    r->device_slot = (int)slot;
    json_t *unit = json_object_get(o, "unit");
    if (unit && !json_is_string(unit))
        return sb_field_wrong_type(c, "unit", unit, "a string");
    if (sb_quantity_parse(json_string_value(unit), &r->quantity)) {
        snprintf(c->why, c->wn, "%s.unit: unknown unit \"%.40s\"", c->rec,
                 unit ? json_string_value(unit) : "");
        return -1;
    }
    return 0;
}

static int read_result(json_t *o, sb_result *r, const sb_field_ctx *c)
{
    memset(r, 0, sizeof *r);
    /* unknown unless the file says: null where the API did not say,
       absent where a file predates the field */
    r->occupancy = r->regs = -1;
    r->threads_in_flight = r->shared_bytes = r->private_bytes = -1;
    if (!json_is_object(o)) {
        snprintf(c->why, c->wn, "%s is not an object", c->rec);
        return -1;
    }
    int rc = read_identity(o, r, c) || read_times(o, &r->ms, c) ||
             sb_field_get_str(o, "family", r->family, sizeof r->family, c) ||
             sb_field_get_str(o, "kernel", r->kernel, sizeof r->kernel, c) ||
             sb_field_get_str(o, "params", r->params, sizeof r->params, c) ||
             sb_field_get_str(o, "ptx_file", r->ptx_file, sizeof r->ptx_file, c) ||
             sb_field_get_str(o, "ptx_memory", r->ptx_memory, sizeof r->ptx_memory, c) ||
             sb_field_get_long(o, "rows", 1, INT_MAX, &r->rows, c) ||
             sb_field_get_long(o, "cols", 1, INT_MAX, &r->cols, c) || read_size_kind(o, r, c) ||
             read_dims(o, "grid", r->grid, c) || read_dims(o, "block", r->block, c) ||
             sb_field_get_int(o, "reps", 1, INT_MAX, &r->reps, c) ||
             sb_field_get_int(o, "warmup", 0, INT_MAX, &r->warmup, c) || read_samples(o, r, c) ||
             sb_field_get_real(o, "bytes", POSITIVE, NAN, &r->bytes, c) ||
             sb_field_get_real(o, "flops", POSITIVE, NAN, &r->flops, c) ||
             sb_field_get_real(o, "accesses", POSITIVE, NAN, &r->accesses, c) ||
             sb_field_get_real(o, "intensity", POSITIVE, 0.0, &r->intensity, c) ||
             sb_field_get_real(o, "value", POSITIVE, NAN, &r->value, c) ||
             sb_field_get_real(o, "value_best", POSITIVE, NAN, &r->value_best, c) ||
             sb_field_get_real(o, "roof_share", POSITIVE, 0.0, &r->roof_share, c) ||
             sb_field_get_real(o, "slowdown", POSITIVE, 0.0, &r->slowdown, c) ||
             sb_field_get_known_int(o, "occupancy_blocks_per_unit", &r->occupancy, c) ||
             sb_field_get_known(o, "threads_in_flight", LONG_MAX, &r->threads_in_flight, c) ||
             sb_field_get_known_int(o, "registers", &r->regs, c) ||
             sb_field_get_known(o, "shared_bytes", LONG_MAX, &r->shared_bytes, c) ||
             sb_field_get_known(o, "private_bytes", LONG_MAX, &r->private_bytes, c) ||
             sb_field_get_bool(o, "verified", &r->verified, c) ||
             sb_field_get_real(o, "host_ms", POSITIVE, NAN, &r->host_ms, c) ||
             sb_field_get_real(o, "verify_ms", POSITIVE, NAN, &r->verify_ms, c) || read_model(o, r, c) ||
             read_figures(o, r, c) || read_counters(o, r, c) ||
             read_host_observed(o, r, c);
    r->ms.n = (size_t)r->reps;
    return rc;
}

/* ---------------------------------------------------------------- the file */

/* What the reading has found so far. */
typedef struct reading {
    sb_run *run;
    json_t *head;          /* the members other than the streamed arrays */
    long long first_slot;  /* comparisons[0].reference.slot, or -1 */
    int results_seen, devices_seen;
    char why[256];         /* the first record that is wrong */
    int nomem;
} reading;

static int read_devices(json_t *devices, sb_run *run, char *why, size_t wn)
{
    if (!json_is_array(devices)) {
        snprintf(why, wn, "no \"devices\" or \"results\" array");
        return -1;
    }
    if (json_array_size(devices) > SB_RUN_MAX_DEVICES) {
        snprintf(why, wn, "more than %d devices", SB_RUN_MAX_DEVICES);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(devices); i++) {
        sb_field_ctx c = {"", why, wn};
        snprintf(c.rec, sizeof c.rec, "devices[%zu]", i);
        json_t *d = json_array_get(devices, i);
        if (!json_is_object(d)) {
            snprintf(why, wn, "%s is not an object", c.rec);
            return -1;
        }
        if (read_device(d, &run->devices[i], &c))
            return -1;
        run->ndevices = (int)i + 1;
    }
    return 0;
}

/* Append where the record just found wrong starts to its message (called
 * only for a record read while nothing was wrong). */
static void say_where(reading *rd, const sb_json_where *at)
{
    size_t len = strlen(rd->why);
    if (len)
        snprintf(rd->why + len, sizeof rd->why - len, " (line %d, column %d)", at->line,
                 at->column);
}

/* The top-level members read; any other is passed over unparsed, so that
 * one of any size costs nothing (the writers make "fleet" and the
 * comparisons but the first's reference again). */
static int wanted(void *ctx, const char *key)
{
    static const char *const known[] = {
        "schema",      "tool",    "date",      "host",        "provenance", "unavailable",
        "sources",     "devices", "reference", "results",     "comparisons"};
    (void)ctx;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(key, known[i]) == 0)
            return 1;
    return 0;
}

static int streamed(void *ctx, const char *key)
{
    reading *rd = ctx;
    if (strcmp(key, "results") != 0)
        return strcmp(key, "comparisons") == 0;
    if (rd->results_seen++ && !rd->why[0])
        snprintf(rd->why, sizeof rd->why, "\"results\" appears twice");
    return 1;
}

/* A member kept for the end; the devices read at once, so that a wrong
 * one is reported before the results that follow them. */
static int keep_member(void *ctx, const char *key, json_t *value, const sb_json_where *at)
{
    reading *rd = ctx;
    if (strcmp(key, "devices") == 0 && !rd->why[0]) {
        rd->run->ndevices = 0;
        rd->devices_seen = read_devices(value, rd->run, rd->why, sizeof rd->why) == 0;
        say_where(rd, at);
    }
    if (json_object_set(rd->head, key, value))
        rd->nomem = 1;
    return rd->nomem;
}

/* A result converted and kept, or the first comparison's reference slot
 * (what a file that predates "reference" says); the rest of the
 * comparisons are the writer's to make again. */
static int take_element(void *ctx, const char *key, size_t index, json_t *value,
                        const sb_json_where *at)
{
    reading *rd = ctx;
    if (strcmp(key, "comparisons") == 0) {
        json_t *slot = json_object_get(json_object_get(value, "reference"), "slot");
        if (index == 0 && json_is_integer(slot))
            rd->first_slot = json_integer_value(slot);
        return 0;
    }
    if (rd->why[0])
        return 0; /* read on: a broken file or a foreign schema says more */
    sb_field_ctx c = {"", rd->why, sizeof rd->why};
    snprintf(c.rec, sizeof c.rec, "results[%zu]", index);
    sb_result r;
    if (read_result(value, &r, &c) == 0 && sb_run_add(rd->run, &r))
        rd->nomem = 1;
    say_where(rd, at);
    free(r.samples); /* the run holds its own copy */
    return rd->nomem;
}

/* The slot the saved report compared the others with: its "reference",
 * else, in a file that predates that field, its first comparison's; -1
 * when it says neither.  A "reference" that is not a slot of the run is
 * an error. */
static int read_reference(const reading *rd, int *reference, char *why, size_t wn)
{
    int ndevices = rd->run->ndevices;
    json_t *ref = json_object_get(rd->head, "reference");
    *reference = -1;
    if (!ref || json_is_null(ref)) {
        if (rd->first_slot >= 0 && rd->first_slot < ndevices)
            *reference = (int)rd->first_slot;
        return 0;
    }
    json_t *slot = json_object_get(ref, "slot");
    if (!json_is_integer(slot) || json_integer_value(slot) < 0 ||
        json_integer_value(slot) >= ndevices) {
        snprintf(why, wn, "\"reference\" has no \"slot\" index into the devices array");
        return -1;
    }
    *reference = (int)json_integer_value(slot);
    return 0;
}

/* Whether the schema is one this program reads; -1 with the message. */
static int check_schema(const char *path, json_t *head, char *err, size_t n)
{
    const char *schema = json_string_value(json_object_get(head, "schema"));
    static const char family[] = "simtbench-result/";
    if (schema && strcmp(schema, SB_RESULT_SCHEMA) == 0)
        return 0;
    if (schema && strncmp(schema, family, sizeof family - 1) == 0)
        snprintf(err, n, "%s: schema \"%.40s\" is a version this program does not read (it "
                         "reads %s)",
                 path, schema, SB_RESULT_SCHEMA);
    else
        snprintf(err, n, "%s: not a simtbench result (schema \"%.40s\", expected \"%s\")", path,
                 schema ? schema : "missing", SB_RESULT_SCHEMA);
    return -1;
}

/* After the whole file: the head's fields and what needs every device. */
static void finish(reading *rd, int *reference)
{
    sb_run *run = rd->run;
    sb_field_ctx c = {"", rd->why, sizeof rd->why};
    json_t *tool;
    if (rd->why[0] || sb_field_get_object(rd->head, "tool", &tool, &c) ||
        sb_field_get_str(tool, "version", run->tool_version, sizeof run->tool_version, &c) ||
        sb_field_get_str(rd->head, "date", run->date, sizeof run->date, &c) ||
        sb_field_get_str(rd->head, "host", run->host, sizeof run->host, &c) ||
        sb_read_provenance(rd->head, run, rd->why, sizeof rd->why) ||
        sb_read_unavailable(rd->head, run, rd->why, sizeof rd->why) ||
        sb_read_sources(rd->head, run, rd->why, sizeof rd->why))
        return;
    if (!rd->results_seen || !rd->devices_seen) {
        snprintf(rd->why, sizeof rd->why, "no \"devices\" or \"results\" array");
        return;
    }
    for (size_t i = 0; i < run->nresults; i++)
        if (run->results[i].device_slot >= run->ndevices) {
            snprintf(rd->why, sizeof rd->why, "results[%zu].device: %d is not a device of the "
                                              "run (it has %d)",
                     i, run->results[i].device_slot, run->ndevices);
            return;
        }
    read_reference(rd, reference, rd->why, sizeof rd->why);
}

int sb_run_read_saved(const char *path, sb_run *run, int *reference, char *err, size_t n)
{
    memset(run, 0, sizeof *run);
    *reference = -1;
    reading rd = {run, json_object(), -1, 0, 0, "", 0};
    static const sb_json_stream_handler h = {streamed, keep_member, take_element, wanted};
    int rc = rd.head ? sb_json_stream_read(path, &h, &rd, err, n) : SB_JSON_STOPPED, ok = 0;
    int nomem = rc == SB_JSON_NOMEM;
    if (rc == SB_JSON_OBJECT && check_schema(path, rd.head, err, n) == 0) {
        finish(&rd, reference);
        if (rd.why[0])
            snprintf(err, n, "%s: malformed simtbench result: %s", path, rd.why);
        ok = !rd.why[0];
    } else if (rc == SB_JSON_NOT_OBJECT) {
        snprintf(err, n, "%s: not a simtbench result (schema \"none: not an object\", expected "
                         "\"%s\")",
                 path, SB_RESULT_SCHEMA);
    } else if (rc == SB_JSON_STOPPED || rd.nomem) {
        snprintf(err, n, "cannot read %s: out of host memory (%s)", path, strerror(ENOMEM));
        nomem = 1;
    }
    json_decref(rd.head);
    if (!ok) {
        sb_run_free(run);
        *reference = -1;
        return nomem ? SB_RUN_READ_NOMEM : -1;
    }
    return 0;
}

int sb_run_read_json(const char *path, sb_run *run, char *err, size_t n)
{
    int reference;
    return sb_run_read_saved(path, run, &reference, err, n);
}
