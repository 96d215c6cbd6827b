/* JSON, schema "simtbench-result/1": the run's provenance, its devices and
 * every result with its statistics and the model's prediction, the
 * reference device and the cross-device comparisons against it (fields
 * added to /1 without changing any, so readers of /1 keep working).  Written
 * through jansson so that escaping is never our problem; `simtbench
 * compare` reads the same schema back. */
#include <jansson.h>

#include "model.h"
#include "report/describe.h"
#include "report/report.h"

static json_t *device_json(const sb_run_device *d)
{
    const sb_device_info *i = &d->info;
    double peak = sb_device_peak_gbs(i);
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:i, s:i, s:i, s:i, s:I, s:I, "
                          "s:I, s:i, s:i}",
                          "backend", d->backend, "platform", i->platform, "name", i->name,
                          "vendor", i->vendor, "driver", i->driver, "api_version",
                          i->api_version, "arch", i->arch, "is_gpu", i->is_gpu,
                          "compute_units", i->compute_units, "clock_mhz", i->clock_mhz,
                          "mem_clock_mhz", i->mem_clock_mhz, "bus_width_bits",
                          i->bus_width_bits, "global_mem_bytes", (json_int_t)i->global_mem_bytes,
                          "l2_bytes", (json_int_t)i->l2_bytes, "local_mem_bytes",
                          (json_int_t)i->local_mem_bytes, "max_group_size", i->max_group_size,
                          "warp_size", i->warp_size);
    json_object_set_new(o, "cache_name", json_string(i->cache_name));
    json_object_set_new(o, "theoretical_peak_gbs", peak > 0 ? json_real(peak) : json_null());
    json_object_set_new(o, "memcpy_gbs", d->memcpy_gbs > 0 ? json_real(d->memcpy_gbs) : json_null());
    json_object_set_new(o, "copy_kernel_gbs", d->copy_gbs > 0 ? json_real(d->copy_gbs) : json_null());
    return o;
}

static json_t *pattern_json(const sb_result *r, int m)
{
    const sb_pattern *p = &r->pattern[m];
    json_t *pat = json_pack("{s:s, s:i, s:I, s:I, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:i}",
                            "space", sb_space_name(p->space), "word_bytes", p->word_bytes,
                            "stride", (json_int_t)p->stride, "offset", (json_int_t)p->offset,
                            "perm", sb_perm_name(p->perm), "perm_arg", (int)p->perm_arg,
                            "spread", p->spread, "same", p->same, "tile_rows", p->tile_rows,
                            "tile_cols", p->tile_cols, "pad", p->pad, "swizzle", p->swizzle,
                            "walk", sb_walk_name(p->walk), "walk_index", p->walk_index);
    json_t *pred = json_object();
    for (size_t f = 0; sb_prediction_field_at(f); f++) {
        const sb_prediction_field *pf = sb_prediction_field_at(f);
        double v = sb_prediction_value(&r->prediction[m], pf);
        json_object_set_new(pred, pf->name,
                            pf->type == SB_FIELD_INT ? json_integer((json_int_t)v) : json_real(v));
    }
    char text[128];
    if (sb_prediction_format(&r->prediction[m], text, sizeof text) < 0)
        text[0] = '\0';
    return json_pack("{s:s, s:o, s:o, s:s}", "label", r->pattern_label[m], "pattern", pat,
                     "prediction", pred, "summary", text);
}

static json_t *result_json(const sb_result *r)
{
    json_t *o = json_pack(
        "{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:[i,i,i], s:[i,i,i], s:i, s:i, "
        "s:{s:f, s:f, s:f, s:f, s:f, s:f}, s:f, s:f, s:f, s:s, s:f, s:f, s:b}",
        "backend", r->backend, "device", r->device_slot, "experiment", r->experiment, "family",
        r->family, "variant", r->variant, "kernel", r->kernel, "params", r->params, "rows",
        (json_int_t)r->rows, "cols", (json_int_t)r->cols, "grid", r->grid[0], r->grid[1],
        r->grid[2], "block", r->block[0], r->block[1], r->block[2], "reps", r->reps, "warmup",
        r->warmup, "time_ms", "median", r->ms.median, "min", r->ms.min, "max", r->ms.max, "mean",
        r->ms.mean, "stddev", r->ms.stddev, "spread", r->ms.spread, "bytes", r->bytes, "flops",
        r->flops, "accesses", r->accesses, "unit", sb_quantity_unit(r->quantity), "value", r->value, "value_best",
        r->value_best, "verified", r->verified);
    json_t *t = json_object_get(o, "time_ms");
    json_object_set_new(t, "fastest_rep", json_integer((json_int_t)r->ms.fastest));
    json_object_set_new(t, "slowest_rep", json_integer((json_int_t)r->ms.slowest));
    json_object_set_new(o, "host_ms", json_real(r->host_ms));
    json_object_set_new(o, "verify_ms", json_real(r->verify_ms));
    json_object_set_new(o, "intensity", r->intensity > 0 ? json_real(r->intensity) : json_null());
    json_object_set_new(o, "roof_share", r->roof_share > 0 ? json_real(r->roof_share) : json_null());
    json_object_set_new(o, "slowdown", r->slowdown > 0 ? json_real(r->slowdown) : json_null());
    json_object_set_new(o, "occupancy_blocks_per_unit",
                        r->occupancy >= 0 ? json_integer(r->occupancy) : json_null());
    json_object_set_new(o, "threads_in_flight", r->occupancy >= 0 && r->threads_in_flight > 0
                                                     ? json_integer(r->threads_in_flight)
                                                     : json_null());
    json_object_set_new(o, "registers", r->regs >= 0 ? json_integer(r->regs) : json_null());
    json_object_set_new(o, "shared_bytes",
                        r->shared_bytes >= 0 ? json_integer(r->shared_bytes) : json_null());
    json_object_set_new(o, "private_bytes",
                        r->private_bytes >= 0 ? json_integer(r->private_bytes) : json_null());
    json_t *model = json_array();
    for (int m = 0; m < r->npatterns && m < 2; m++)
        json_array_append_new(model, pattern_json(r, m));
    json_object_set_new(o, "model", model);
    if (r->ptx_file[0])
        json_object_set_new(o, "ptx_file", json_string(r->ptx_file));
    if (r->ptx_memory[0])
        json_object_set_new(o, "ptx_memory", json_string(r->ptx_memory));
    return o;
}

static const char *verdict_name(sb_verdict_kind k)
{
    return k == SB_VERDICT_SAME ? "same" : k == SB_VERDICT_FASTER ? "faster" : "slower";
}

/* One entry per variant and other device: the side-by-side report as data.
 * "verdict" is the other device's against the reference ("faster": the
 * other is faster), "results" index the results array. */
static json_t *comparisons_json(const sb_run *run, const sb_crossapi *x)
{
    json_t *a = json_array();
    for (size_t j = 0; j < x->nrows; j++) {
        const sb_cross_row *row = &x->rows[j];
        for (int s = 0; s < x->ndevices; s++) {
            const sb_verdict *v = &row->verdict[s];
            if (s == x->reference || v->kind == SB_VERDICT_NONE)
                continue;
            const sb_result *ref = &run->results[row->result[x->reference]];
            const sb_result *oth = &run->results[row->result[s]];
            char text[96];
            sb_verdict_text(v, x->label[x->reference], x->label[s], text, sizeof text);
            const char *faster = v->kind == SB_VERDICT_FASTER   ? x->label[s]
                                 : v->kind == SB_VERDICT_SLOWER ? x->label[x->reference]
                                                                : NULL;
            json_t *c = json_pack(
                "{s:s, s:s, s:I, s:I, s:{s:s, s:i, s:I, s:f, s:f}, s:{s:s, s:i, s:I, s:f, s:f}, "
                "s:f, s:f, s:s, s:o, s:f, s:s}",
                "experiment", ref->experiment, "variant", ref->variant, "rows",
                (json_int_t)ref->rows, "cols", (json_int_t)ref->cols, "reference", "device",
                x->label[x->reference], "slot", x->reference, "result",
                (json_int_t)row->result[x->reference], "median_ms", ref->ms.median, "spread",
                ref->ms.spread, "other", "device", x->label[s], "slot", s, "result",
                (json_int_t)row->result[s], "median_ms", oth->ms.median, "spread",
                oth->ms.spread, "speed_ratio", v->speed_ratio, "margin", v->margin, "verdict",
                verdict_name(v->kind), "faster", faster ? json_string(faster) : json_null(),
                "by", v->by, "summary", text);
            if (row->ptx[s][0])
                json_object_set_new(c, "ptx", json_string(row->ptx[s]));
            json_array_append_new(a, c);
        }
    }
    return a;
}

/* The device the others are compared with: its slot and label, or null
 * in a run without devices. */
static json_t *reference_json(const sb_crossapi *x)
{
    if (x->ndevices == 0)
        return json_null();
    return json_pack("{s:i, s:s}", "slot", x->reference, "device", x->label[x->reference]);
}

sb_report_writer sb_report_json;

int sb_report_json(const sb_analysis *a, FILE *out)
{
    const sb_run *run = a->run;
    json_t *root = json_pack(
        "{s:s, s:{s:s, s:s}, s:s, s:s, s:{s:s, s:s, s:s}}", "schema", SB_RESULT_SCHEMA, "tool",
        "name", "simtbench", "version", run->tool_version, "date", run->date, "host", run->host,
        "units", "GB/s", "10^9 bytes per second: useful bytes read plus written over the median "
                         "device-event time",
        "GFLOP/s", "10^9 floating-point operations per second at the median time",
        "ns/access",
        "median time x multiprocessors / warp-wide shared accesses: one multiprocessor's time "
        "per access");
    if (!root)
        return -1;
    if (run->interrupted)
        json_object_set_new(root, "interrupted", json_true());
    json_t *devices = json_array();
    for (int i = 0; i < run->ndevices; i++)
        json_array_append_new(devices, device_json(&run->devices[i]));
    json_object_set_new(root, "devices", devices);
    json_t *results = json_array();
    for (size_t i = 0; i < run->nresults; i++)
        json_array_append_new(results, result_json(&run->results[i]));
    json_object_set_new(root, "results", results);
    json_object_set_new(root, "reference", reference_json(&a->cross));
    json_object_set_new(root, "comparisons", comparisons_json(run, &a->cross));
    json_object_set_new(root, "verdict_rule", json_string(SB_VERDICT_RULE));
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    fputc('\n', out);
    json_decref(root);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
