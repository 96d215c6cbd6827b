/* JSON, schema "simtbench-result/1": the run's provenance (and a merged
 * result's runs), its devices and every result with its statistics and
 * the model's prediction, the reference device and the cross-device
 * comparisons against it, the fleet rows with their outliers (fields
 * added to /1 without changing any, so readers of /1 keep working).  Built
 * through jansson so that escaping is never our problem; `simtbench
 * compare` and `simtbench report` read the same schema back.
 *
 * Nothing is dropped: a figure that is not finite, which JSON cannot
 * hold, is written as null beside a "<field>_reason"; a string jansson
 * refuses (not UTF-8) makes the whole report an error that names the
 * record, and every record is checked before the first byte is written.
 * The backends the run left out ("unavailable") have a message each,
 * written whatever its bytes (\xNN where jansson would refuse them).
 * The results and comparisons are built one record at a time, so that a
 * run of any size needs no tree of all of it (only their text is held
 * until all are checked), and written one record a line, so
 * that a saved run of thousands of results greps and diffs by record; the
 * rest is indented as jansson lays out a document. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report/describe.h"
#include "report/json_build.h"
#include "report/json_comparisons.h"
#include "report/json_fleet.h"
#include "report/json_summary.h"
#include "report/json_noise.h"
#include "analysis/lessons.h"
#include "report/report.h"

/* ---------------------------------------------------------------- building */

/* A figure that is absent (written as null) unless it is positive. */
static void put_positive(json_t *o, const char *key, double v, sb_json_builder *b)
{
    if (v > 0)
        sb_json_put_real(o, key, v, b);
    else
        sb_json_put(o, key, json_null(), b);
}

/* A count per launch: an integer where it is a whole number (every
   count the model makes is, up to 2^53), else the real it is. */
static void put_count(json_t *o, const char *key, double v, sb_json_builder *b)
{
    if (v >= 0 && v <= 9007199254740992.0 && v == (double)(json_int_t)v)
        sb_json_put_int(o, key, (json_int_t)v, b);
    else
        sb_json_put_real(o, key, v, b);
}

/* A count that is unknown (null) when negative. */
static void put_known(json_t *o, const char *key, long v, sb_json_builder *b)
{
    sb_json_put(o, key, v >= 0 ? json_integer(v) : json_null(), b);
}

static json_t *int_triple(const unsigned v[3])
{
    return json_pack("[I,I,I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

/* ---------------------------------------------------------------- records */

/* The clocks at the run's start and end, each null where not known, with
 * the reason where one was given. */
static void clocks_json(json_t *o, const sb_run_device *d, sb_json_builder *b)
{
    json_t *c = sb_json_put_object(o, "clocks_mhz", b);
    const char *keys[4] = {"sm_start", "memory_start", "sm_end", "memory_end"};
    int v[4] = {d->sm_mhz_start, d->mem_mhz_start, d->sm_mhz_end, d->mem_mhz_end};
    for (int i = 0; c && i < 4; i++)
        if (v[i] > 0)
            sb_json_put_int(c, keys[i], v[i], b);
        else
            sb_json_put(c, keys[i], json_null(), b);
    if (d->clocks_note[0])
        sb_json_put_str(o, "clocks_mhz_reason", d->clocks_note, b);
}

/* A string the API may not have given: null where it did not. */
static void put_given(json_t *o, const char *key, const char *s, sb_json_builder *b)
{
    if (s[0])
        sb_json_put_str(o, key, s, b);
    else
        sb_json_put(o, key, json_null(), b);
}

static json_t *device_json(const sb_run *run, const sb_run_device *d, sb_json_builder *b)
{
    const sb_device_info *i = &d->info;
    json_t *o = json_object();
    sb_json_put_str(o, "backend", d->backend, b);
    if (run->sources)
        sb_json_put_int(o, "source", d->source, b);
    sb_json_put_int(o, "platform_index", i->platform_index, b);
    sb_json_put_int(o, "device_index", i->device_index, b);
    put_given(o, "pci_bus_id", i->pci_bus_id, b);
    put_given(o, "uuid", i->uuid, b);
    sb_json_put_str(o, "platform", i->platform, b);
    sb_json_put_str(o, "name", i->name, b);
    sb_json_put_str(o, "vendor", i->vendor, b);
    sb_json_put_str(o, "driver", i->driver, b);
    sb_json_put_str(o, "api_version", i->api_version, b);
    sb_json_put_str(o, "arch", i->arch, b);
    sb_json_put(o, "is_gpu", json_boolean(i->is_gpu), b);
    sb_json_put_int(o, "compute_units", i->compute_units, b);
    sb_json_put_int(o, "clock_mhz", i->clock_mhz, b);
    sb_json_put_int(o, "mem_clock_mhz", i->mem_clock_mhz, b);
    sb_json_put_int(o, "bus_width_bits", i->bus_width_bits, b);
    sb_json_put_int(o, "global_mem_bytes", (json_int_t)i->global_mem_bytes, b);
    sb_json_put_int(o, "l2_bytes", (json_int_t)i->l2_bytes, b);
    sb_json_put_int(o, "local_mem_bytes", (json_int_t)i->local_mem_bytes, b);
    sb_json_put_int(o, "max_group_size", i->max_group_size, b);
    sb_json_put_int(o, "warp_size", i->warp_size, b);
    sb_json_put_str(o, "cache_name", i->cache_name, b);
    put_positive(o, "theoretical_peak_gbs", sb_device_peak_gbs(i), b);
    put_positive(o, "memcpy_gbs", d->memcpy_gbs, b);
    put_positive(o, "copy_kernel_gbs", d->copy_gbs, b);
    put_positive(o, "fp32_peak_gflops", sb_device_fp32_peak_gflops(i), b);
    put_positive(o, "fma_peak_gflops", d->fma_gflops, b);
    sb_json_noise_device(o, d, b);
    clocks_json(o, d, b);
    return o;
}

static void pattern_fields(json_t *pat, const sb_pattern *p, sb_json_builder *b)
{
    sb_json_put_str(pat, "space", sb_space_name(p->space), b);
    sb_json_put_int(pat, "word_bytes", p->word_bytes, b);
    sb_json_put_int(pat, "stride", p->stride, b);
    sb_json_put_int(pat, "offset", p->offset, b);
    sb_json_put_str(pat, "perm", sb_perm_name(p->perm), b);
    sb_json_put_int(pat, "perm_arg", (int)p->perm_arg, b);
    sb_json_put_int(pat, "spread", p->spread, b);
    sb_json_put_int(pat, "same", p->same, b);
    sb_json_put_int(pat, "tile_rows", p->tile_rows, b);
    sb_json_put_int(pat, "tile_cols", p->tile_cols, b);
    sb_json_put_int(pat, "pad", p->pad, b);
    sb_json_put_int(pat, "swizzle", p->swizzle, b);
    sb_json_put_str(pat, "walk", sb_walk_name(p->walk), b);
    sb_json_put_int(pat, "walk_index", p->walk_index, b);
    sb_json_put_int(pat, "active", (json_int_t)p->active, b);
    if (p->walk != SB_WALK_LIST)
        return;
    json_t *lanes = json_array();
    for (int l = 0; lanes && l < SB_WARP_LANES; l++)
        if (json_array_append_new(lanes, json_integer(p->lane_index[l])))
            sb_json_put(NULL, "lane_index", NULL, b);
    sb_json_put(pat, "lane_index", lanes, b);
}

static json_t *pattern_json(const sb_result *r, int m, sb_json_builder *b)
{
    json_t *o = json_object();
    sb_json_put_str(o, "label", r->pattern_label[m], b);
    sb_json_put_str(o, "kind", sb_access_kind_name(r->pattern_kind[m]), b);
    if (r->pattern_requests[m] > 0)
        put_count(o, "requests", r->pattern_requests[m], b);
    else
        sb_json_put(o, "requests", json_null(), b);
    sb_json_put(o, "studied", json_boolean(!r->pattern_extra[m]), b);
    json_t *pat = sb_json_put_object(o, "pattern", b);
    json_t *pred = sb_json_put_object(o, "prediction", b);
    if (!pat || !pred)
        return o;
    pattern_fields(pat, &r->pattern[m], b);
    for (size_t f = 0; sb_prediction_field_at(f); f++) {
        const sb_prediction_field *pf = sb_prediction_field_at(f);
        double v = sb_prediction_value(&r->prediction[m], pf);
        if (pf->type == SB_FIELD_INT)
            sb_json_put_int(pred, pf->name, (json_int_t)v, b);
        else
            sb_json_put_real(pred, pf->name, v, b);
    }
    char text[128];
    if (sb_prediction_format(&r->prediction[m], text, sizeof text) < 0)
        text[0] = '\0';
    sb_json_put_str(o, "summary", text, b);
    return o;
}

/* The model's per-launch totals over every declared access: each count
 * (0 where the kernel has none of that kind), and each per-request ratio,
 * null where there are no requests to divide by. */
static json_t *totals_json(const sb_access_totals *t, sb_json_builder *b)
{
    json_t *o = json_object();
    for (size_t i = 0; sb_access_totals_field_at(i); i++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(i);
        double v = sb_access_totals_value(t, f);
        if (f->ratio)
            put_positive(o, f->name, v, b);
        else
            put_count(o, f->name, v, b);
    }
    return o;
}

/* The hardware's counts of the row's profiled launch (--counters), each
 * null where the device gave none; where counters were asked for and
 * there are none, "counters": null and "counters_reason". */
static void counters_json(json_t *o, const sb_result *r, sb_json_builder *b)
{
    if (!r->counted) {
        if (r->counters_note[0]) {
            sb_json_put(o, "counters", json_null(), b);
            sb_json_put_str(o, "counters_reason", r->counters_note, b);
        }
        return;
    }
    json_t *c = sb_json_put_object(o, "counters", b);
    for (int i = 0; c && i < SB_COUNTER_COUNT; i++)
        if (isfinite(r->counts[i]))
            sb_json_put_real(c, sb_counter_key(i), r->counts[i], b);
        else
            sb_json_put(c, sb_counter_key(i), json_null(), b);
}

/* The family's model figures, "figures": [{name, value, unit}], where it
 * has any. */
static void figures_json(json_t *o, const sb_result *r, sb_json_builder *b)
{
    if (r->nfigures <= 0)
        return;
    json_t *figs = json_array();
    sb_json_put(o, "figures", figs, b);
    for (int i = 0; figs && i < r->nfigures && i < SB_MAX_FIGURES; i++) {
        json_t *f = json_object();
        if (!f || json_array_append_new(figs, f)) {
            sb_json_put(NULL, "figures", NULL, b);
            return;
        }
        sb_json_put_str(f, "name", r->figure[i].name, b);
        sb_json_put_real(f, "value", r->figure[i].value, b);
        sb_json_put_str(f, "unit", r->figure[i].unit, b);
    }
}

static void time_fields(json_t *t, const sb_stats *ms, sb_json_builder *b)
{
    sb_json_put_real(t, "median", ms->median, b);
    sb_json_put_real(t, "min", ms->min, b);
    sb_json_put_real(t, "max", ms->max, b);
    sb_json_put_real(t, "mean", ms->mean, b);
    sb_json_put_real(t, "stddev", ms->stddev, b);
    sb_json_put_real(t, "spread", ms->spread, b);
    sb_json_put_int(t, "fastest_rep", (json_int_t)ms->fastest, b);
    sb_json_put_int(t, "slowest_rep", (json_int_t)ms->slowest, b);
}

/* Every repetition's time in run order; one that is not finite (the
 * executor keeps none) is null, and "samples_ms_reason" says why. */
static json_t *samples_json(const sb_result *r, json_t *o, sb_json_builder *b)
{
    json_t *a = json_array();
    int finite = 1;
    for (size_t i = 0; a && i < r->nsamples; i++) {
        finite &= isfinite(r->samples[i]) != 0;
        if (json_array_append_new(a, isfinite(r->samples[i]) ? json_real(r->samples[i])
                                                              : json_null()))
            sb_json_put(NULL, "samples_ms", NULL, b);
    }
    if (!finite)
        sb_json_put(o, "samples_ms_reason", json_string("a repetition's time is not finite"), b);
    return a;
}

/* What the host's clock saw of the kernel (the launch family), where it
 * was measured: the times of one launch each, and the launches per second
 * of a queue of queued_launches drained at once. */
static void host_observed_fields(json_t *o, const sb_result *r, sb_json_builder *b)
{
    json_t *t;
    if (r->host_observed.n == 0)
        return;
    if ((t = sb_json_put_object(o, "host_observed_ms", b)))
        time_fields(t, &r->host_observed, b);
    put_positive(o, "launches_per_s", r->launches_per_s, b);
    sb_json_put_int(o, "queued_launches", r->queued_launches, b);
}

/* What the compiler allocated and what the API said of the occupancy. */
static void resource_fields(json_t *o, const sb_result *r, sb_json_builder *b)
{
    put_known(o, "occupancy_blocks_per_unit", r->occupancy, b);
    put_known(o, "threads_in_flight",
              r->occupancy >= 0 && r->threads_in_flight > 0 ? r->threads_in_flight : -1, b);
    put_known(o, "registers", r->regs, b);
    put_known(o, "shared_bytes", r->shared_bytes, b);
    put_known(o, "private_bytes", r->private_bytes, b);
}

/* The model against the hardware's counts (run/counter_check.h), where
 * there are counts: each judged figure with the model's value, the
 * counted one and its verdict (and why it differs); the DRAM bytes and
 * the intensity they give a FLOP row. */
static void counter_check_json(json_t *o, const sb_counter_check *c, sb_json_builder *b)
{
    if (c->verdict == SB_COUNTER_NONE && c->counted_intensity <= 0)
        return;
    json_t *cc = sb_json_put_object(o, "counter_check", b);
    if (!cc)
        return;
    if (c->verdict != SB_COUNTER_NONE)
        sb_json_put_str(cc, "verdict", sb_counter_verdict_name(c->verdict), b);
    else
        sb_json_put(cc, "verdict", json_null(), b);
    sb_json_put_real(cc, "tolerance", SB_COUNTER_TOLERANCE, b);
    json_t *items = json_array();
    sb_json_put(cc, "figures", items, b);
    for (int i = 0; items && i < c->nitems; i++) {
        const sb_counter_item *it = &c->item[i];
        json_t *f = json_object();
        if (!f || json_array_append_new(items, f)) {
            sb_json_put(NULL, "figures", NULL, b);
            return;
        }
        sb_json_put_str(f, "figure", it->key, b);
        sb_json_put_real(f, "model", it->model, b);
        sb_json_put_real(f, "counted", it->counted, b);
        sb_json_put_str(f, "verdict", it->matches ? "matches" : "differs", b);
        char reason[200];
        sb_counter_item_reason(it, reason, sizeof reason);
        if (reason[0])
            sb_json_put_str(f, "reason", reason, b);
        if (sb_counter_item_named_reason(it))
            sb_json_put_str(f, "named_reason", sb_counter_item_named_reason(it), b);
    }
    put_positive(cc, "dram_bytes", c->dram_bytes, b);
    put_positive(cc, "counted_intensity", c->counted_intensity, b);
}

static json_t *result_json(const sb_result *r, sb_json_builder *b)
{
    json_t *o = json_object(), *t;
    sb_json_put_str(o, "backend", r->backend, b);
    sb_json_put_int(o, "device", r->device_slot, b);
    sb_json_put_str(o, "experiment", r->experiment, b);
    sb_json_put_str(o, "family", r->family, b);
    sb_json_put_str(o, "variant", r->variant, b);
    sb_json_put_str(o, "kernel", r->kernel, b);
    sb_json_put_str(o, "params", r->params, b);
    sb_json_put_int(o, "rows", r->rows, b);
    sb_json_put_int(o, "cols", r->cols, b);
    const char *size_kind = sb_size_kind_name(r->size_kind);
    sb_json_put(o, "size_kind", size_kind[0] ? json_string(size_kind) : json_null(), b);
    sb_json_put(o, "grid", int_triple(r->grid), b);
    sb_json_put(o, "block", int_triple(r->block), b);
    sb_json_put_int(o, "reps", r->reps, b);
    sb_json_put_int(o, "warmup", r->warmup, b);
    if ((t = sb_json_put_object(o, "time_ms", b)))
        time_fields(t, &r->ms, b);
    if (r->nsamples)
        sb_json_put(o, "samples_ms", samples_json(r, o, b), b);
    sb_json_put_real(o, "bytes", r->bytes, b);
    sb_json_put_real(o, "flops", r->flops, b);
    sb_json_put_real(o, "accesses", r->accesses, b);
    sb_json_put_str(o, "unit", sb_quantity_unit(r->quantity), b);
    sb_json_put_real(o, "value", r->value, b);
    sb_json_put_real(o, "value_best", r->value_best, b);
    sb_json_put(o, "verified", json_boolean(r->verified), b);
    sb_json_put_real(o, "host_ms", r->host_ms, b);
    sb_json_put_real(o, "verify_ms", r->verify_ms, b);
    host_observed_fields(o, r, b);
    put_positive(o, "intensity", r->intensity, b);
    put_positive(o, "roof_share", r->roof_share, b);
    put_positive(o, "slowdown", r->slowdown, b);
    resource_fields(o, r, b);
    json_t *model = json_array();
    sb_json_put(o, "model", model, b);
    for (int m = 0; model && m < r->npatterns && m < SB_MAX_PATTERNS; m++)
        if (json_array_append_new(model, pattern_json(r, m, b)))
            sb_json_put(NULL, "model", NULL, b);
    if (r->has_totals)
        sb_json_put(o, "model_totals", totals_json(&r->totals, b), b);
    figures_json(o, r, b);
    counters_json(o, r, b);
    if (r->ptx_file[0])
        sb_json_put_str(o, "ptx_file", r->ptx_file, b);
    if (r->ptx_memory[0])
        sb_json_put_str(o, "ptx_memory", r->ptx_memory, b);
    return o;
}


/* Every block's lessons, in the order of the blocks: what its numbers
 * show, one {"experiment", "text"} a sentence. */
static json_t *lessons_json(const sb_analysis *a, sb_json_builder *b)
{
    json_t *all = json_array();
    for (size_t e = 0; all && e < a->cross.nexperiments; e++) {
        const sb_lessons *l = a->lessons ? &a->lessons[e] : NULL;
        for (int i = 0; l && i < l->n; i++) {
            json_t *o = json_object();
            sb_json_put_str(o, "experiment",
                            a->run->results[a->cross.experiments[e].first].experiment, b);
            sb_json_put_str(o, "text", l->text[i], b);
            if (json_array_append_new(all, o))
                sb_json_put(NULL, "lessons", NULL, b);
        }
    }
    if (!all)
        sb_json_put(NULL, "lessons", NULL, b);
    return all;
}

/* The backends this simtbench has that the run left out, with why; a
 * reason is a message, so bytes jansson would refuse (a folder's name
 * that is not UTF-8) are written as \xNN rather than cost the report. */
static json_t *unavailable_json(const sb_run_unavailable *u, sb_json_builder *b)
{
    char backend[4 * sizeof u->backend], reason[4 * sizeof u->reason];
    sb_json_printable(u->backend, backend, sizeof backend);
    sb_json_printable(u->reason, reason, sizeof reason);
    json_t *o = json_object();
    sb_json_put_str(o, "backend", backend, b);
    sb_json_put_str(o, "reason", reason, b);
    return o;
}

/* ---------------------------------------------------------------- naming */

static int refused_result(const sb_result *r, size_t i, const sb_json_builder *b, char *err,
                          size_t n)
{
    char backend[64], experiment[128], variant[192];
    sb_json_printable(r->backend, backend, sizeof backend);
    sb_json_printable(r->experiment, experiment, sizeof experiment);
    sb_json_printable(r->variant, variant, sizeof variant);
    snprintf(err, n, "results[%zu] (%s %s/%s): its %s %s", i, backend, experiment, variant,
             b->refused, b->why);
    return SB_REPORT_REFUSED;
}

static int refused_device(const sb_run_device *d, int i, const sb_json_builder *b, char *err,
                          size_t n)
{
    char backend[64], name[512];
    sb_json_printable(d->backend, backend, sizeof backend);
    sb_json_printable(d->info.name, name, sizeof name);
    snprintf(err, n, "devices[%d] (%s, \"%s\"): its %s %s", i, backend, name, b->refused, b->why);
    return SB_REPORT_REFUSED;
}

/* ---------------------------------------------------------------- writing */

/* The document's member key with the value v (a new reference, freed). */
static int member(FILE *out, const char *key, json_t *v, const char *after)
{
    fprintf(out, "  \"%s\": ", key);
    int rc = v ? sb_json_dump_at(v, 2, out) : -1;
    json_decref(v);
    fputs(after, out);
    return rc;
}

/* One element of an array member: its separator, then the element on a
 * line of its own. */
static int element(FILE *out, size_t index, json_t *v)
{
    fputs(index ? ",\n    " : "[\n    ", out);
    int rc = v ? sb_json_dump_line(v, out) : -1;
    json_decref(v);
    return rc;
}

/* The end of an array member of `count` elements. */
static void end_array(FILE *out, size_t count)
{
    fputs(count ? "\n  ],\n" : "[],\n", out);
}

/* Every result, built and checked (write == NULL) or written; 0, or
 * SB_REPORT_REFUSED with the record named in err. */
static int results_pass(const sb_analysis *a, FILE *write, char *err, size_t n)
{
    const sb_run *run = a->run;
    for (size_t i = 0; i < run->nresults; i++) {
        sb_json_builder b = {NULL, NULL};
        json_t *o = result_json(&run->results[i], &b);
        if (o && a->checks)
            counter_check_json(o, &a->checks[i], &b);
        if (o)
            sb_json_noise_result(o, sb_noise_at(&a->noise, i), &b);
        if (b.refused) {
            json_decref(o);
            return refused_result(&run->results[i], i, &b, err, n);
        }
        if (!write)
            json_decref(o);
        else if (element(write, i, o))
            return SB_REPORT_IO_ERROR;
    }
    if (write)
        end_array(write, run->nresults);
    return 0;
}

/* The left-out backends, one a line: 0, or SB_REPORT_IO_ERROR (out of
 * memory, or a write error). */
static int unavailable_pass(const sb_run *run, FILE *out)
{
    int count = run->nunavailable < 0                    ? 0
                : run->nunavailable < SB_RUN_MAX_DEVICES ? run->nunavailable
                                                         : SB_RUN_MAX_DEVICES;
    fputs("  \"unavailable\": ", out);
    for (int i = 0; i < count; i++) {
        sb_json_builder b = {NULL, NULL};
        json_t *o = unavailable_json(&run->unavailable[i], &b);
        if (b.refused) {
            json_decref(o);
            return SB_REPORT_IO_ERROR;
        }
        if (element(out, (size_t)i, o))
            return SB_REPORT_IO_ERROR;
    }
    end_array(out, (size_t)count);
    return 0;
}

/* Every comparison, as results_pass does the results. */
static int comparisons_pass(const sb_run *run, const sb_crossapi *x, FILE *write, char *err,
                            size_t n)
{
    size_t count = 0;
    for (size_t j = 0; j < x->nrows; j++)
        for (int s = 0; s < x->ndevices; s++) {
            if (!sb_json_compared(x, &x->rows[j], s))
                continue;
            sb_json_builder b = {NULL, NULL};
            json_t *c = sb_json_comparison(run, x, &x->rows[j], s, &b);
            if (b.refused) {
                json_decref(c);
                return refused_result(&run->results[x->rows[j].result[s]],
                                      (size_t)x->rows[j].result[s], &b, err, n);
            }
            if (!write)
                json_decref(c);
            else if (element(write, count, c))
                return SB_REPORT_IO_ERROR;
            count++;
        }
    if (write)
        end_array(write, count);
    return 0;
}

/* Every fleet row, as results_pass does the results: the record named in
   err is its first device's first result. */
static int fleet_pass(const sb_analysis *a, FILE *write, char *err, size_t n)
{
    for (size_t j = 0; j < a->fleet.nrows; j++) {
        sb_json_builder b = {NULL, NULL};
        const sb_fleet_row *fr = &a->fleet.rows[j];
        json_t *o = sb_json_fleet_row(a, fr, &b);
        if (b.refused) {
            json_decref(o);
            long i = a->cross.rows[fr->row].result[fr->first];
            return refused_result(&a->run->results[i], (size_t)i, &b, err, n);
        }
        if (!write)
            json_decref(o);
        else if (element(write, j, o))
            return SB_REPORT_IO_ERROR;
    }
    if (write)
        end_array(write, a->fleet.nrows);
    return 0;
}

/* A provenance string, null where unknown; bytes jansson would refuse (a
 * command-line word that is not UTF-8) are written as \xNN. */
static void put_known_str(json_t *o, const char *key, const char *s, sb_json_builder *b)
{
    char text[4 * sizeof ((sb_run_provenance *)0)->command];
    if (!s[0]) {
        sb_json_put(o, key, json_null(), b);
        return;
    }
    sb_json_printable(s, text, sizeof text);
    sb_json_put_str(o, key, text, b);
}

/* Where the run came from: revision, command line, system, CPU, and its
 * start (the "date") and end; null for what a file read back lacked. */
static void provenance_fields(json_t *o, const sb_run *run, sb_json_builder *b)
{
    const sb_run_provenance *p = &run->provenance;
    put_known_str(o, "revision", p->revision, b);
    put_known_str(o, "command", p->command, b);
    put_known_str(o, "os", p->os, b);
    put_known_str(o, "kernel", p->kernel, b);
    put_known_str(o, "machine", p->machine, b);
    put_known_str(o, "cpu", p->cpu, b);
    put_known_str(o, "start", run->date, b);
    put_known_str(o, "end", p->end, b);
}

/* The members before the results: schema, tool, date, host, provenance,
 * units. */
static json_t *head_json(const sb_run *run, sb_json_builder *b)
{
    json_t *root = json_object(), *tool, *units;
    sb_json_put_str(root, "schema", SB_RESULT_SCHEMA, b);
    if ((tool = sb_json_put_object(root, "tool", b))) {
        sb_json_put_str(tool, "name", "simtbench", b);
        sb_json_put_str(tool, "version", run->tool_version, b);
    }
    sb_json_put_str(root, "date", run->date, b);
    sb_json_put_str(root, "host", run->host, b);
    json_t *prov = sb_json_put_object(root, "provenance", b);
    if (prov)
        provenance_fields(prov, run, b);
    if (run->interrupted)
        json_object_set_new(root, "interrupted", json_true());
    if ((units = sb_json_put_object(root, "units", b))) {
        sb_json_put_str(units, "GB/s",
                        "10^9 bytes per second: useful bytes read plus written over the median "
                        "device-event time",
                        b);
        sb_json_put_str(units, "GFLOP/s",
                        "10^9 floating-point operations per second at the median time", b);
        sb_json_put_str(units, "ns/access",
                        "median time x multiprocessors / warp-wide shared accesses: one "
                        "multiprocessor's time per access",
                        b);
        sb_json_put_str(units, "ns/load",
                        "median time / dependent loads of a pointer chase: one load's latency",
                        b);
        sb_json_put_str(units, "us/launch",
                        "microseconds of the median device-event time of one launch (the "
                        "host-observed time is beside it in host_observed_ms)",
                        b);
        sb_json_put_str(units, "ns/element",
                        "median time x multiprocessors / elements: one multiprocessor's time "
                        "per element",
                        b);
    }
    return root;
}

/* The head and the devices, built and checked; NULL with err set. */
static json_t *checked_head(const sb_run *run, json_t **devices, char *err, size_t n)
{
    sb_json_builder b = {NULL, NULL};
    json_t *head = head_json(run, &b);
    if (b.refused) {
        snprintf(err, n, "the run's %s %s", b.refused, b.why);
        json_decref(head);
        return NULL;
    }
    *devices = json_array();
    for (int i = 0; i < run->ndevices; i++) {
        json_t *d = device_json(run, &run->devices[i], &b);
        if (b.refused)
            json_decref(d);
        if (b.refused || json_array_append_new(*devices, d)) {
            sb_json_put(NULL, "device", NULL, &b); /* out of memory, if nothing else */
            refused_device(&run->devices[i], i, &b, err, n);
            json_decref(*devices);
            json_decref(head);
            return NULL;
        }
    }
    return head;
}

/* The records of the results, comparisons and fleet, built, checked and
 * written once into memory before the first byte goes out: a refused
 * record leaves out untouched, and none is built twice.  (The text is a
 * few hundred bytes a record, far less than the records themselves.) */
#define NPASSES 3
typedef struct held {
    char *buf;
    size_t len;
} held;

static void held_free(held *h)
{
    for (int i = 0; i < NPASSES; i++)
        free(h[i].buf);
}

/* The three passes into h: 0, SB_REPORT_REFUSED with the record named in
 * err, or SB_REPORT_IO_ERROR out of memory; h is to be freed either way. */
static int checked_passes(const sb_analysis *a, held *h, char *err, size_t n)
{
    int rc = 0;
    for (int i = 0; i < NPASSES; i++) {
        h[i] = (held){NULL, 0};
        FILE *f = rc ? NULL : open_memstream(&h[i].buf, &h[i].len);
        if (!f) {
            rc = rc ? rc : SB_REPORT_IO_ERROR;
            continue;
        }
        rc = i == 0   ? results_pass(a, f, err, n)
             : i == 1 ? comparisons_pass(a->run, &a->cross, f, err, n)
                      : fleet_pass(a, f, err, n);
        if ((fclose(f) || !h[i].buf) && !rc)
            rc = SB_REPORT_IO_ERROR;
    }
    return rc;
}

static int put_held(FILE *out, const held *h)
{
    return h->len && fwrite(h->buf, 1, h->len, out) != h->len ? SB_REPORT_IO_ERROR : 0;
}

sb_report_writer sb_report_json;

int sb_report_json(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    const sb_run *run = a->run;
    json_t *devices;
    json_t *head = checked_head(run, &devices, err, n);
    if (!head)
        return SB_REPORT_REFUSED;
    held h[NPASSES];
    int rc = checked_passes(a, h, err, n);
    sb_json_builder b = {NULL, NULL}, lb = {NULL, NULL};
    json_t *reference = sb_json_reference(&a->cross, &b);
    sb_json_builder sb = {NULL, NULL};
    json_t *sources = run->sources ? sb_json_sources(run, &sb) : NULL;
    json_t *lessons = lessons_json(a, &lb);
    if (!rc && b.refused)
        rc = SB_REPORT_REFUSED, snprintf(err, n, "the reference's %s %s", b.refused, b.why);
    if (!rc && sb.refused)
        rc = SB_REPORT_REFUSED, snprintf(err, n, "a source run's %s %s", sb.refused, sb.why);
    if (!rc && lb.refused)
        rc = SB_REPORT_REFUSED, snprintf(err, n, "a lesson's %s %s", lb.refused, lb.why);
    if (rc) {
        held_free(h);
        json_decref(head);
        json_decref(devices);
        json_decref(reference);
        json_decref(sources);
        json_decref(lessons);
        return rc;
    }
    fputs("{\n", out);
    const char *key;
    json_t *v;
    json_object_foreach(head, key, v)
        rc |= member(out, key, json_incref(v), ",\n");
    json_decref(head);
    if (sources)
        rc |= member(out, "sources", sources, ",\n");
    rc |= member(out, "devices", devices, ",\n");
    rc |= unavailable_pass(run, out);
    fputs("  \"results\": ", out);
    rc |= put_held(out, &h[0]);
    rc |= member(out, "reference", reference, ",\n");
    fputs("  \"comparisons\": ", out);
    rc |= put_held(out, &h[1]);
    fputs("  \"fleet\": ", out);
    rc |= put_held(out, &h[2]);
    held_free(h);
    rc |= member(out, "lessons", lessons, ",\n");
    rc |= member(out, "summary", sb_json_summary(&a->summary), ",\n");
    rc |= member(out, "noise", sb_json_noise_run(&a->noise, &b), ",\n");
    rc |= member(out, "verdict_rule", json_string(SB_VERDICT_RULE), ",\n");
    rc |= member(out, "outlier_rule", json_string(SB_OUTLIER_RULE), "\n}\n");
    /* A record refused now, when it was not before, was out of memory. */
    return rc || ferror(out) ? SB_REPORT_IO_ERROR : 0;
}
