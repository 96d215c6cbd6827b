#include "report/json_read.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

static void copy_str(json_t *o, const char *key, char *dst, size_t n)
{
    const char *s = json_string_value(json_object_get(o, key));
    snprintf(dst, n, "%s", s ? s : "");
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : 0.0;
}

/* A non-negative integer field, or -1 when it is null, absent or not one. */
static long int_or_unknown(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) && json_integer_value(v) >= 0 ? (long)json_integer_value(v) : -1;
}

/* A required string field; -1 with the reason when absent. */
static int need_str(json_t *o, const char *key, char *dst, size_t n, const char *where,
                    char *why, size_t wn)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s) {
        snprintf(why, wn, "%s has no string \"%s\"", where, key);
        return -1;
    }
    snprintf(dst, n, "%s", s);
    return 0;
}

static int read_device(json_t *d, int i, sb_run_device *out, char *why, size_t wn)
{
    char where[32];
    snprintf(where, sizeof where, "devices[%d]", i);
    if (!json_is_object(d)) {
        snprintf(why, wn, "%s is not an object", where);
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (need_str(d, "backend", out->backend, sizeof out->backend, where, why, wn) ||
        need_str(d, "name", out->info.name, sizeof out->info.name, where, why, wn))
        return -1;
    sb_device_info *in = &out->info;
    copy_str(d, "platform", in->platform, sizeof in->platform);
    copy_str(d, "vendor", in->vendor, sizeof in->vendor);
    copy_str(d, "driver", in->driver, sizeof in->driver);
    copy_str(d, "api_version", in->api_version, sizeof in->api_version);
    copy_str(d, "arch", in->arch, sizeof in->arch);
    in->is_gpu = json_is_true(json_object_get(d, "is_gpu"));
    in->compute_units = (int)num(d, "compute_units");
    in->clock_mhz = (int)num(d, "clock_mhz");
    in->mem_clock_mhz = (int)num(d, "mem_clock_mhz");
    in->bus_width_bits = (int)num(d, "bus_width_bits");
    in->global_mem_bytes = (uint64_t)num(d, "global_mem_bytes");
    in->l2_bytes = (uint64_t)num(d, "l2_bytes");
    copy_str(d, "cache_name", in->cache_name, sizeof in->cache_name);
    in->local_mem_bytes = (uint64_t)num(d, "local_mem_bytes");
    in->max_group_size = (int)num(d, "max_group_size");
    in->warp_size = (int)num(d, "warp_size");
    out->memcpy_gbs = num(d, "memcpy_gbs");
    out->copy_gbs = num(d, "copy_kernel_gbs");
    return 0;
}

static void read_model(json_t *model, sb_result *r)
{
    size_t m;
    json_t *entry;
    r->npatterns = 0;
    json_array_foreach(model, m, entry)
    {
        if (m >= 2)
            break;
        copy_str(entry, "label", r->pattern_label[m], sizeof r->pattern_label[m]);
        json_t *pred = json_object_get(entry, "prediction");
        sb_prediction *p = &r->prediction[m];
        memset(p, 0, sizeof *p);
        for (size_t f = 0; sb_prediction_field_at(f); f++) {
            const sb_prediction_field *pf = sb_prediction_field_at(f);
            double v = num(pred, pf->name);
            if (pf->type == SB_FIELD_INT)
                *(int *)((char *)p + pf->offset) = (int)v;
            else
                *(double *)((char *)p + pf->offset) = v;
        }
        json_t *pat = json_object_get(entry, "pattern");
        sb_pattern *q = &r->pattern[m];
        *q = sb_pattern_default();
        const char *space = json_string_value(json_object_get(pat, "space"));
        q->space = space && strcmp(space, "global") == 0 ? SB_SPACE_GLOBAL : SB_SPACE_SHARED;
        q->word_bytes = (int)num(pat, "word_bytes");
        q->stride = (long)num(pat, "stride");
        q->offset = (long)num(pat, "offset");
        const char *perm = json_string_value(json_object_get(pat, "perm"));
        q->perm = !perm || strcmp(perm, "none") == 0 ? SB_PERM_NONE
                  : strcmp(perm, "reverse") == 0     ? SB_PERM_REVERSE
                  : strcmp(perm, "xor") == 0         ? SB_PERM_XOR
                                                     : SB_PERM_RANDOM;
        q->perm_arg = (unsigned)num(pat, "perm_arg");
        q->spread = (int)num(pat, "spread");
        q->same = (int)num(pat, "same");
        q->tile_rows = (int)num(pat, "tile_rows");
        q->tile_cols = (int)num(pat, "tile_cols");
        q->pad = (int)num(pat, "pad");
        q->swizzle = (int)num(pat, "swizzle");
        const char *walk = json_string_value(json_object_get(pat, "walk"));
        q->walk = !walk || strcmp(walk, "none") == 0 ? SB_WALK_NONE
                  : strcmp(walk, "row") == 0         ? SB_WALK_ROW
                                                     : SB_WALK_COLUMN;
        q->walk_index = (int)num(pat, "walk_index");
        r->npatterns = (int)m + 1;
    }
}

/* The statistics of the timed repetitions; a median is required. */
static int read_times(json_t *t, sb_stats *ms, const char *where, char *why, size_t wn)
{
    json_t *median = json_object_get(t, "median");
    if (!json_is_number(median) || !(json_number_value(median) > 0)) {
        snprintf(why, wn, "%s has no positive \"time_ms\".\"median\"", where);
        return -1;
    }
    ms->median = json_number_value(median);
    ms->min = num(t, "min");
    ms->max = num(t, "max");
    ms->mean = num(t, "mean");
    ms->stddev = num(t, "stddev");
    ms->spread = num(t, "spread");
    ms->fastest = (size_t)num(t, "fastest_rep");
    ms->slowest = (size_t)num(t, "slowest_rep");
    return 0;
}

static int read_result(json_t *o, size_t i, int ndevices, sb_result *r, char *why, size_t wn)
{
    char where[32];
    snprintf(where, sizeof where, "results[%zu]", i);
    if (!json_is_object(o)) {
        snprintf(why, wn, "%s is not an object", where);
        return -1;
    }
    memset(r, 0, sizeof *r);
    if (need_str(o, "backend", r->backend, sizeof r->backend, where, why, wn) ||
        need_str(o, "experiment", r->experiment, sizeof r->experiment, where, why, wn) ||
        need_str(o, "variant", r->variant, sizeof r->variant, where, why, wn))
        return -1;
    json_t *dev = json_object_get(o, "device");
    if (!json_is_integer(dev) || json_integer_value(dev) < 0 ||
        json_integer_value(dev) >= ndevices) {
        snprintf(why, wn, "%s has no \"device\" index into the devices array", where);
        return -1;
    }
    r->device_slot = (int)json_integer_value(dev);
    if (read_times(json_object_get(o, "time_ms"), &r->ms, where, why, wn))
        return -1;
    copy_str(o, "family", r->family, sizeof r->family);
    copy_str(o, "kernel", r->kernel, sizeof r->kernel);
    copy_str(o, "params", r->params, sizeof r->params);
    copy_str(o, "ptx_file", r->ptx_file, sizeof r->ptx_file);
    copy_str(o, "ptx_memory", r->ptx_memory, sizeof r->ptx_memory);
    r->rows = (long)num(o, "rows");
    r->cols = (long)num(o, "cols");
    for (int k = 0; k < 3; k++) {
        r->grid[k] = (unsigned)json_integer_value(json_array_get(json_object_get(o, "grid"), k));
        r->block[k] = (unsigned)json_integer_value(json_array_get(json_object_get(o, "block"), k));
    }
    r->reps = (int)num(o, "reps");
    r->ms.n = (size_t)r->reps;
    r->warmup = (int)num(o, "warmup");
    r->bytes = num(o, "bytes");
    r->flops = num(o, "flops");
    r->accesses = num(o, "accesses");
    r->intensity = num(o, "intensity");
    const char *unit = json_string_value(json_object_get(o, "unit"));
    if (sb_quantity_parse(unit, &r->quantity)) {
        snprintf(why, wn, "result %zu: unknown unit \"%s\"", i, unit ? unit : "");
        return -1;
    }
    r->value = num(o, "value");
    r->value_best = num(o, "value_best");
    r->roof_share = num(o, "roof_share");
    r->slowdown = num(o, "slowdown");
    json_t *occ = json_object_get(o, "occupancy_blocks_per_unit");
    r->occupancy = json_is_integer(occ) ? (int)json_integer_value(occ) : -1;
    json_t *tif = json_object_get(o, "threads_in_flight");
    r->threads_in_flight = json_is_integer(tif) ? (long)json_integer_value(tif) : -1;
    /* null where the API did not say, absent where a file predates them */
    r->regs = (int)int_or_unknown(o, "registers");
    r->shared_bytes = int_or_unknown(o, "shared_bytes");
    r->private_bytes = int_or_unknown(o, "private_bytes");
    r->verified = json_is_true(json_object_get(o, "verified"));
    /* 0 where a file predates the field. */
    r->host_ms = num(o, "host_ms");
    r->verify_ms = num(o, "verify_ms");
    read_model(json_object_get(o, "model"), r);
    return 0;
}

/* The slot the saved report compared the others with: its "reference",
 * else, in a file that predates that field, its first comparison's; -1
 * when it says neither.  A "reference" that is not a slot of the run is
 * an error. */
static int read_reference(json_t *root, int ndevices, int *reference, char *why, size_t wn)
{
    *reference = -1;
    json_t *ref = json_object_get(root, "reference");
    if (!ref || json_is_null(ref)) {
        json_t *first = json_array_get(json_object_get(root, "comparisons"), 0);
        json_t *slot = json_object_get(json_object_get(first, "reference"), "slot");
        if (json_is_integer(slot) && json_integer_value(slot) >= 0 &&
            json_integer_value(slot) < ndevices)
            *reference = (int)json_integer_value(slot);
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

/* The devices and results of root into run; "" in why, or the reason. */
static void read_records(json_t *root, sb_run *run, char *why, size_t wn)
{
    json_t *devices = json_object_get(root, "devices"), *results = json_object_get(root, "results");
    if (!json_is_array(devices) || !json_is_array(results)) {
        snprintf(why, wn, "no \"devices\" or \"results\" array");
        return;
    }
    if (json_array_size(devices) > SB_RUN_MAX_DEVICES) {
        snprintf(why, wn, "more than %d devices", SB_RUN_MAX_DEVICES);
        return;
    }
    size_t i;
    json_t *v;
    json_array_foreach(devices, i, v)
    {
        if (read_device(v, (int)i, &run->devices[i], why, wn))
            return;
        run->ndevices = (int)i + 1;
    }
    json_array_foreach(results, i, v)
    {
        sb_result r;
        if (read_result(v, i, run->ndevices, &r, why, wn))
            return;
        if (sb_run_add(run, &r)) {
            snprintf(why, wn, "out of host memory");
            return;
        }
    }
}

/* The file's JSON if it is a simtbench result; NULL with the reason in err. */
static json_t *load_result(const char *path, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loadf(f, 0, &je);
    fclose(f);
    if (!root) {
        snprintf(err, n, "%s: not valid JSON (line %d, column %d: %s)", path, je.line, je.column,
                 je.text);
        return NULL;
    }
    const char *schema = json_string_value(json_object_get(root, "schema"));
    if (!json_is_object(root) || !schema || strcmp(schema, SB_RESULT_SCHEMA) != 0) {
        snprintf(err, n, "%s: not a simtbench result (schema \"%s\", expected \"%s\")", path,
                 schema ? schema : json_is_object(root) ? "missing" : "none: not an object",
                 SB_RESULT_SCHEMA);
        json_decref(root);
        return NULL;
    }
    return root;
}

int sb_run_read_saved(const char *path, sb_run *run, int *reference, char *err, size_t n)
{
    memset(run, 0, sizeof *run);
    *reference = -1;
    json_t *root = load_result(path, err, n);
    if (!root)
        return -1;
    char why[256] = "";
    json_t *tool = json_object_get(root, "tool");
    copy_str(tool, "version", run->tool_version, sizeof run->tool_version);
    copy_str(root, "date", run->date, sizeof run->date);
    copy_str(root, "host", run->host, sizeof run->host);
    read_records(root, run, why, sizeof why);
    if (!why[0])
        read_reference(root, run->ndevices, reference, why, sizeof why);
    json_decref(root);
    if (why[0]) {
        snprintf(err, n, "%s: malformed simtbench result: %s", path, why);
        sb_run_free(run);
        *reference = -1;
        return -1;
    }
    return 0;
}

int sb_run_read_json(const char *path, sb_run *run, char *err, size_t n)
{
    int reference;
    return sb_run_read_saved(path, run, &reference, err, n);
}
