/* The fleet's and a merged result's JSON records (json_fleet.h). */
#include "report/json_fleet.h"

#include <string.h>

/* A string that may be unknown: null where empty; bytes jansson would
 * refuse (a command-line word that is not UTF-8) written as \xNN. */
static void put_known(json_t *o, const char *key, const char *s, sb_json_builder *b)
{
    char text[4 * sizeof ((sb_run_provenance *)0)->command];
    if (!s[0]) {
        sb_json_put(o, key, json_null(), b);
        return;
    }
    sb_json_printable(s, text, sizeof text);
    sb_json_put_str(o, key, text, b);
}

static json_t *source_json(const sb_run_source *src, sb_json_builder *b)
{
    json_t *o = json_object(), *p;
    put_known(o, "file", src->file, b);
    put_known(o, "tool_version", src->tool_version, b);
    put_known(o, "date", src->date, b);
    put_known(o, "host", src->host, b);
    if ((p = sb_json_put_object(o, "provenance", b))) {
        const sb_run_provenance *v = &src->provenance;
        put_known(p, "revision", v->revision, b);
        put_known(p, "command", v->command, b);
        put_known(p, "os", v->os, b);
        put_known(p, "kernel", v->kernel, b);
        put_known(p, "machine", v->machine, b);
        put_known(p, "cpu", v->cpu, b);
        put_known(p, "start", src->date, b);
        put_known(p, "end", v->end, b);
    }
    sb_json_put(o, "interrupted", json_boolean(src->interrupted), b);
    return o;
}

json_t *sb_json_sources(const sb_run *run, sb_json_builder *b)
{
    json_t *all = json_array();
    for (int i = 0; all && i < run->nsources; i++)
        if (json_array_append_new(all, source_json(&run->sources[i], b)))
            sb_json_put(NULL, "sources", NULL, b);
    return all;
}

/* A device of the row: its slot, label and figure. */
static json_t *device_ref(const sb_analysis *a, const sb_fleet_row *fr, int slot,
                          sb_json_builder *b)
{
    json_t *o = json_object();
    long i = a->cross.rows[fr->row].result[slot];
    sb_json_put_int(o, "slot", slot, b);
    sb_json_put_str(o, "device", a->cross.label[slot], b);
    sb_json_put_real(o, "value", i >= 0 ? a->run->results[i].value : 0, b);
    return o;
}

/* A string the API may not have given: null where it did not. */
static void put_given(json_t *o, const char *key, const char *s, sb_json_builder *b)
{
    if (s[0])
        sb_json_put_str(o, key, s, b);
    else
        sb_json_put(o, key, json_null(), b);
}

static json_t *outlier_json(const sb_analysis *a, const sb_fleet_row *fr, const sb_outlier *o,
                            sb_json_builder *b)
{
    const sb_device_info *in = &a->run->devices[o->slot].info;
    const sb_verdict *v = &o->verdict;
    json_t *j = device_ref(a, fr, o->slot, b), *vj;
    sb_json_put_str(j, "host", sb_run_device_host(a->run, o->slot), b);
    sb_json_put_int(j, "platform_index", in->platform_index, b);
    sb_json_put_int(j, "device_index", in->device_index, b);
    put_given(j, "pci_bus_id", in->pci_bus_id, b);
    put_given(j, "uuid", in->uuid, b);
    sb_json_put_real(j, "below", o->below, b);
    sb_json_put(j, "mads", o->mads > 0 ? json_real(o->mads) : json_null(), b);
    if (!(vj = sb_json_put_object(j, "verdict", b)))
        return j;
    char text[96], basis[48];
    sb_verdict_text(v, a->cross.label[o->against], a->cross.label[o->slot], text, sizeof text);
    sb_json_put_str(vj, "against", a->cross.label[o->against], b);
    sb_json_put_int(vj, "against_slot", o->against, b);
    sb_json_put_real(vj, "speed_ratio", v->speed_ratio, b);
    if (v->basis == SB_BASIS_INTERVAL) {
        sb_json_put_real(vj, "ci_low", 1.0 / v->ratio_high, b);
        sb_json_put_real(vj, "ci_high", 1.0 / v->ratio_low, b);
        sb_json_put_str(vj, "basis", "interval", b);
    } else {
        sb_verdict_interval_text(v, SB_INTERVAL_SPEED, basis, sizeof basis);
        sb_json_put(vj, "ci_low", json_null(), b);
        sb_json_put(vj, "ci_high", json_null(), b);
        sb_json_put_str(vj, "basis", basis, b);
    }
    sb_json_put_real(vj, "by", v->by, b);
    sb_json_put_str(vj, "summary", text, b);
    return j;
}

json_t *sb_json_fleet_row(const sb_analysis *a, const sb_fleet_row *fr, sb_json_builder *b)
{
    const sb_result *r = &a->run->results[a->cross.rows[fr->row].first];
    const sb_run_device *d = &a->run->devices[fr->first];
    json_t *o = json_object(), *list;
    sb_json_put_str(o, "experiment", r->experiment, b);
    sb_json_put_str(o, "variant", r->variant, b);
    sb_json_put_int(o, "rows", r->rows, b);
    sb_json_put_int(o, "cols", r->cols, b);
    sb_json_put_str(o, "backend", d->backend, b);
    sb_json_put_str(o, "device_name", d->info.name, b);
    sb_json_put_int(o, "devices", fr->ndevices, b);
    sb_json_put_str(o, "unit", sb_quantity_unit(r->quantity), b);
    sb_json_put_real(o, "median_value", fr->median_value, b);
    sb_json_put(o, "fastest", device_ref(a, fr, fr->fastest, b), b);
    sb_json_put(o, "slowest", device_ref(a, fr, fr->slowest, b), b);
    sb_json_put(o, "outliers", list = json_array(), b);
    for (size_t k = 0; list && k < fr->noutliers; k++)
        if (json_array_append_new(list,
                                  outlier_json(a, fr, &a->fleet.outliers[fr->outlier + k], b)))
            sb_json_put(NULL, "outliers", NULL, b);
    return o;
}
