/* The members of a saved run beside its devices and results: the
 * backends it left out, where it came from, and a merged result's runs
 * (json_read_head.h). */
#include "report/json_read_head.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/json_fields.h"

/* The backends the run left out, with why: optional (files older than
 * the field have none), at most what a run holds, each with a backend
 * and a reason. */
int sb_read_unavailable(json_t *head, sb_run *run, char *why, size_t wn)
{
    json_t *list = json_object_get(head, "unavailable");
    if (!list)
        return 0;
    if (!json_is_array(list)) {
        char got[64];
        sb_field_describe(list, got, sizeof got);
        snprintf(why, wn, "\"unavailable\": expected an array, got %s", got);
        return -1;
    }
    if (json_array_size(list) > SB_RUN_MAX_DEVICES) {
        snprintf(why, wn, "more than %d unavailable backends", SB_RUN_MAX_DEVICES);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(list); i++) {
        sb_field_ctx c = {"", why, wn};
        snprintf(c.rec, sizeof c.rec, "unavailable[%zu]", i);
        json_t *u = json_array_get(list, i);
        sb_run_unavailable *out = &run->unavailable[i];
        if (!json_is_object(u)) {
            snprintf(why, wn, "%s is not an object", c.rec);
            return -1;
        }
        if (sb_field_need_str(u, "backend", out->backend, sizeof out->backend, &c) ||
            sb_field_need_str(u, "reason", out->reason, sizeof out->reason, &c))
            return -1;
        run->nunavailable = (int)i + 1;
    }
    return 0;
}

/* Where the run came from: optional (files older than the field have
 * none), each member a string or null.  Its "start" is the run's "date". */
int sb_read_provenance(json_t *head, sb_run *run, char *why, size_t wn)
{
    sb_field_ctx c = {"provenance", why, wn};
    sb_run_provenance *p = &run->provenance;
    json_t *o = json_object_get(head, "provenance");
    if (!o)
        return 0;
    if (!json_is_object(o)) {
        char got[64];
        sb_field_describe(o, got, sizeof got);
        snprintf(why, wn, "\"provenance\": expected an object, got %s", got);
        return -1;
    }
    return sb_field_get_str_or_null(o, "revision", p->revision, sizeof p->revision, &c) ||
           sb_field_get_str_or_null(o, "command", p->command, sizeof p->command, &c) ||
           sb_field_get_str_or_null(o, "os", p->os, sizeof p->os, &c) ||
           sb_field_get_str_or_null(o, "kernel", p->kernel, sizeof p->kernel, &c) ||
           sb_field_get_str_or_null(o, "machine", p->machine, sizeof p->machine, &c) ||
           sb_field_get_str_or_null(o, "cpu", p->cpu, sizeof p->cpu, &c) ||
           sb_field_get_str_or_null(o, "end", p->end, sizeof p->end, &c);
}

/* One run of a merged result: each member a string or null but
 * "interrupted"; its provenance as a run's is. */
static int read_source(json_t *o, sb_run_source *src, const sb_field_ctx *c)
{
    if (!json_is_object(o)) {
        snprintf(c->why, c->wn, "%s is not an object", c->rec);
        return -1;
    }
    json_t *p;
    sb_field_ctx pc = sb_field_nested(c, "provenance");
    sb_run_provenance *v = &src->provenance;
    if (sb_field_get_str_or_null(o, "file", src->file, sizeof src->file, c) ||
        sb_field_get_str_or_null(o, "tool_version", src->tool_version, sizeof src->tool_version, c) ||
        sb_field_get_str_or_null(o, "date", src->date, sizeof src->date, c) ||
        sb_field_get_str_or_null(o, "host", src->host, sizeof src->host, c) ||
        sb_field_get_bool(o, "interrupted", &src->interrupted, c) || sb_field_get_object(o, "provenance", &p, c))
        return -1;
    return p && (sb_field_get_str_or_null(p, "revision", v->revision, sizeof v->revision, &pc) ||
                 sb_field_get_str_or_null(p, "command", v->command, sizeof v->command, &pc) ||
                 sb_field_get_str_or_null(p, "os", v->os, sizeof v->os, &pc) ||
                 sb_field_get_str_or_null(p, "kernel", v->kernel, sizeof v->kernel, &pc) ||
                 sb_field_get_str_or_null(p, "machine", v->machine, sizeof v->machine, &pc) ||
                 sb_field_get_str_or_null(p, "cpu", v->cpu, sizeof v->cpu, &pc) ||
                 sb_field_get_str_or_null(p, "end", v->end, sizeof v->end, &pc))
               ? -1
               : 0;
}

/* A merged result's runs (absent in a run of its own), and each device's
 * source among them. */
int sb_read_sources(json_t *head, sb_run *run, char *why, size_t wn)
{
    json_t *list = json_object_get(head, "sources");
    if (list && !json_is_array(list)) {
        char got[64];
        sb_field_describe(list, got, sizeof got);
        snprintf(why, wn, "\"sources\": expected an array, got %s", got);
        return -1;
    }
    size_t n = json_array_size(list);
    if (list && !(run->sources = calloc(n + 1, sizeof *run->sources))) {
        snprintf(why, wn, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        sb_field_ctx c = {"", why, wn};
        snprintf(c.rec, sizeof c.rec, "sources[%zu]", i);
        if (read_source(json_array_get(list, i), &run->sources[i], &c))
            return -1;
        run->nsources = (int)i + 1;
    }
    for (int i = 0; i < run->ndevices; i++)
        if (run->devices[i].source != 0 && run->devices[i].source >= run->nsources) {
            snprintf(why, wn, "devices[%d].source: %d is not a run of the result (it has %d)", i,
                     run->devices[i].source, run->nsources);
            return -1;
        }
    return 0;
}

