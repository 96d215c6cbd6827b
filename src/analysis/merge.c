/* Merging runs (merge.h). */
#include "analysis/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* from's runs as sources: its own where it was merged, else itself. */
static int sources_of(const sb_run *from, const char *file, sb_run_source **out)
{
    int n = from->sources ? from->nsources : 1;
    sb_run_source *s = calloc((size_t)n + 1, sizeof *s);
    if (!s)
        return -1;
    if (from->sources) {
        memcpy(s, from->sources, sizeof *s * (size_t)n);
    } else {
        sb_utf8_copy(s->file, sizeof s->file, file);
        snprintf(s->tool_version, sizeof s->tool_version, "%s", from->tool_version);
        snprintf(s->date, sizeof s->date, "%s", from->date);
        snprintf(s->host, sizeof s->host, "%s", from->host);
        s->provenance = from->provenance;
        s->interrupted = from->interrupted;
    }
    *out = s;
    return n;
}

/* Whether two sources may be one run: one host, one start, one command
   line, one end (the tasks of one job share all four). */
static int same_run(const sb_run_source *a, const sb_run_source *b)
{
    return a->date[0] && strcmp(a->date, b->date) == 0 && strcmp(a->host, b->host) == 0 &&
           strcmp(a->provenance.command, b->provenance.command) == 0 &&
           strcmp(a->provenance.end, b->provenance.end) == 0;
}

static int same_device(const sb_run_device *a, const sb_run_device *b)
{
    return strcmp(a->backend, b->backend) == 0 && strcmp(a->info.name, b->info.name) == 0 &&
           a->info.platform_index == b->info.platform_index &&
           a->info.device_index == b->info.device_index &&
           strcmp(a->info.pci_bus_id, b->info.pci_bus_id) == 0 &&
           strcmp(a->info.uuid, b->info.uuid) == 0;
}

/* Whether source sa of run a and source sb of run b measured the same
   devices, in the same order: with same_run, one run given twice, where
   two tasks of one job differ in their devices. */
static int same_devices(const sb_run *a, int sa, const sb_run *b, int sb)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < a->ndevices && (a->sources ? a->devices[i].source : 0) != sa)
            i++;
        while (j < b->ndevices && b->devices[j].source != sb)
            j++;
        if (i == a->ndevices || j == b->ndevices)
            return i == a->ndevices && j == b->ndevices;
        if (!same_device(&a->devices[i++], &b->devices[j++]))
            return 0;
    }
}

/* A run into holds already among from's: its index in add, else -1. */
static int held_already(const sb_run *into, const sb_run *from, const sb_run_source *add,
                        int nadd, int *which)
{
    for (int i = 0; i < nadd; i++)
        for (int j = 0; j < into->nsources; j++)
            if (same_run(&add[i], &into->sources[j]) && same_devices(from, i, into, j)) {
                *which = j;
                return i;
            }
    return -1;
}

/* The left-out backends of from, each reason after its host. */
static void add_unavailable(sb_run *into, const sb_run *from)
{
    int room = (int)(sizeof into->unavailable / sizeof into->unavailable[0]);
    for (int i = 0; i < from->nunavailable && into->nunavailable < room; i++) {
        sb_run_unavailable *u = &into->unavailable[into->nunavailable++];
        char reason[sizeof u->reason + 80];
        snprintf(u->backend, sizeof u->backend, "%s", from->unavailable[i].backend);
        snprintf(reason, sizeof reason, "on %s: %s", from->host[0] ? from->host : "?",
                 from->unavailable[i].reason);
        sb_utf8_copy(u->reason, sizeof u->reason, reason);
    }
}

int sb_run_merge(sb_run *into, const sb_run *from, const char *file, char *err, size_t n)
{
    if (into->ndevices + from->ndevices > SB_RUN_MAX_DEVICES) {
        snprintf(err, n, "%s: its %d devices would make %d, more than a result holds (%d)", file,
                 from->ndevices, into->ndevices + from->ndevices, SB_RUN_MAX_DEVICES);
        return -1;
    }
    sb_run_source *add;
    int nadd = sources_of(from, file, &add), which;
    size_t room = (size_t)(into->nsources + (nadd > 0 ? nadd : 0) + 1);
    sb_run_source *all = nadd < 0 ? NULL : realloc(into->sources, sizeof *all * room);
    if (!all) {
        if (nadd >= 0)
            free(add);
        snprintf(err, n, "%s: out of host memory", file);
        return -1;
    }
    into->sources = all;
    int dup = held_already(into, from, add, nadd, &which);
    if (dup >= 0) {
        char date[256], host[1024], first[1024], again[1024];
        snprintf(err, n, "%s holds the run of %s on %s that %s holds already (given twice?)",
                 sb_text_visible(file, again, sizeof again),
                 sb_text_visible(add[dup].date, date, sizeof date),
                 sb_text_visible(add[dup].host, host, sizeof host),
                 sb_text_visible(into->sources[which].file, first, sizeof first));
        free(add);
        return -1;
    }
    size_t first_result = into->nresults;
    int base_device = into->ndevices, base_source = into->nsources;
    for (size_t i = 0; i < from->nresults; i++) {
        sb_result r = from->results[i];
        r.device_slot += base_device;
        if (sb_run_add(into, &r)) {
            while (into->nresults > first_result)
                free(into->results[--into->nresults].samples);
            free(add);
            snprintf(err, n, "%s: out of host memory", file);
            return -1;
        }
    }
    memcpy(into->sources + base_source, add, sizeof *add * (size_t)nadd);
    into->nsources += nadd;
    free(add);
    for (int d = 0; d < from->ndevices; d++) {
        sb_run_device *to = &into->devices[base_device + d];
        *to = from->devices[d];
        to->source = base_source + (from->sources ? from->devices[d].source : 0);
    }
    into->ndevices += from->ndevices;
    into->interrupted |= from->interrupted;
    add_unavailable(into, from);
    return 0;
}
