/* Sessions (session.h): the devices a run measures on. */
#include "run/session.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "text.h"

/* The device's clocks now into *sm and *mem, or 0 with the reason kept in
 * d->clocks_note (the first one: the start's). */
static void read_clocks(const sb_session *s, sb_run_device *d, int *sm, int *mem)
{
    const char *why = NULL;
    if (!s->slot.provides.clocks)
        why = "this backend cannot read the device's clocks";
    else if (s->slot.vt->clocks(s->dev, sm, mem))
        why = sb_registry_error(s->slot.vt);
    if (why) {
        *sm = *mem = 0;
        if (!d->clocks_note[0])
            sb_utf8_copy(d->clocks_note, sizeof d->clocks_note, why);
    }
}

int sb_session_open(sb_session *s, const sb_device_request *req, sb_run *run, char *err,
                    size_t n)
{
    if (!s->slot.available) {
        snprintf(err, n, "the %s backend is not available: %s", s->slot.name, s->slot.reason);
        return SB_EXIT_UNAVAILABLE;
    }
    if (sb_registry_open(&s->slot, req, &s->dev, &s->info)) {
        snprintf(err, n, "%s: cannot open a device: %s", s->slot.name,
                 sb_registry_error(s->slot.vt));
        return SB_EXIT_UNAVAILABLE;
    }
    if (run->ndevices >= SB_RUN_MAX_DEVICES) {
        snprintf(err, n, "too many devices in one run");
        sb_session_close(s);
        return SB_EXIT_USAGE;
    }
    s->run_device = run->ndevices++;
    sb_run_device *d = &run->devices[s->run_device];
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "%s", s->slot.name);
    d->info = s->info;
    read_clocks(s, d, &d->sm_mhz_start, &d->mem_mhz_start);
    return SB_EXIT_OK;
}

void sb_sessions_clocks_end(const sb_session *sessions, int n, sb_run *run)
{
    for (int i = 0; i < n; i++)
        if (sessions[i].dev && sessions[i].run_device >= 0 &&
            sessions[i].run_device < run->ndevices) {
            sb_run_device *d = &run->devices[sessions[i].run_device];
            read_clocks(&sessions[i], d, &d->sm_mhz_end, &d->mem_mhz_end);
        }
}

void sb_session_close(sb_session *s)
{
    if (s->dev && s->slot.vt)
        s->slot.vt->close(s->dev);
    s->dev = NULL;
}

/* A backend of a default run that cannot run, with why: one entry of
   run->unavailable[], for the report's header to name. */
static void left_out(sb_run *run, const char *name, const char *reason)
{
    if (run->nunavailable >= (int)(sizeof run->unavailable / sizeof run->unavailable[0]))
        return;
    sb_run_unavailable *u = &run->unavailable[run->nunavailable++];
    snprintf(u->backend, sizeof u->backend, "%s", name);
    sb_utf8_copy(u->reason, sizeof u->reason, reason);
}

/* Whether to say on stderr which backends were left out: not with
   --quiet, and not when the report goes to a terminal on standard output,
   where its header names them already. */
static int notes_wanted(const sb_suite *suite)
{
    return !suite->quiet && (suite->output || !isatty(STDOUT_FILENO));
}

/* A default run that found nothing to run on: one line, with each
   backend's reason. */
static int none_available(const sb_run *run)
{
    char why[2048] = "";
    size_t used = 0;
    for (int i = 0; i < run->nunavailable && used < sizeof why; i++) {
        int w = snprintf(why + used, sizeof why - used, "%s%s: %s", i ? "; " : ": ",
                         run->unavailable[i].backend, run->unavailable[i].reason);
        used += w > 0 ? (size_t)w : 0;
    }
    fprintf(stderr, "simtbench: no backend is available%s\n",
            run->nunavailable ? why : " (this simtbench was built without any backend)");
    return SB_EXIT_UNAVAILABLE;
}

/* No backend named: each known one that loads and opens, in the
   registry's order.  One this simtbench has but that cannot run (no
   driver, no device, its module missing) is left out and named in
   run->unavailable[]; one neither built nor installed is not. */
static int open_every_available(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    char err[1400];
    for (int b = 0; b < sb_nknown_backends && *n < SB_RUN_MAX_DEVICES; b++) {
        sb_session *s = &sessions[*n];
        memset(s, 0, sizeof *s);
        if (sb_registry_load(sb_known_backends[b], &s->slot)) {
            if (sb_registry_has(&s->slot))
                left_out(run, s->slot.name, s->slot.reason);
            sb_registry_unload(&s->slot);
            continue;
        }
        int st = sb_session_open(s, &suite->device, run, err, sizeof err);
        if (st) {
            if (st == SB_EXIT_UNAVAILABLE)
                snprintf(err, sizeof err, "cannot open a device: %s",
                         sb_registry_error(s->slot.vt));
            left_out(run, s->slot.name, err);
            sb_registry_unload(&s->slot);
            continue;
        }
        (*n)++;
    }
    if (*n == 0)
        return none_available(run);
    for (int i = 0; notes_wanted(suite) && i < run->nunavailable; i++)
        fprintf(stderr, "simtbench: note: %s is left out: %s\n", run->unavailable[i].backend,
                run->unavailable[i].reason);
    return SB_EXIT_OK;
}

/* Every named backend loaded before any device opens, so that one that
   is not available stops the run before another has measured. */
static int load_named(const sb_suite *suite, sb_session *sessions)
{
    for (int b = 0; b < suite->nsessions; b++) {
        memset(&sessions[b], 0, sizeof sessions[b]);
        sb_registry_load(suite->sessions[b], &sessions[b].slot);
        if (!sessions[b].slot.available) {
            fprintf(stderr, "simtbench: the %s backend is not available: %s\n",
                    sessions[b].slot.name, sessions[b].slot.reason);
            for (int i = 0; i <= b; i++)
                sb_registry_unload(&sessions[i].slot);
            return SB_EXIT_UNAVAILABLE;
        }
    }
    return SB_EXIT_OK;
}

static int open_all(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run);

int sb_sessions_open(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    const char *names[SB_RUN_MAX_DEVICES];
    int nnames = 0;
    if (suite->nsessions == 0)
        for (int b = 0; b < sb_nknown_backends && nnames < SB_RUN_MAX_DEVICES; b++)
            names[nnames++] = sb_known_backends[b];
    for (int b = 0; b < suite->nsessions; b++)
        names[nnames++] = suite->sessions[b];
    sb_registry_preprobe(names, nnames);
    int st = open_all(suite, sessions, n, run);
    sb_registry_preprobe_reap();
    return st;
}

static int open_all(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    char err[1024];
    *n = 0;
    if (suite->nsessions == 0)
        return open_every_available(suite, sessions, n, run);
    int st = load_named(suite, sessions);
    if (st)
        return st;
    for (int b = 0; b < suite->nsessions && st == SB_EXIT_OK; b++) {
        st = sb_session_open(&sessions[b], &suite->device, run, err, sizeof err);
        if (st)
            fprintf(stderr, "simtbench: %s\n", err);
        else
            (*n)++;
    }
    /* The loaded backends past the sessions opened. */
    for (int b = *n; st && b < suite->nsessions; b++)
        sb_registry_unload(&sessions[b].slot);
    return st;
}

void sb_sessions_close(sb_session *sessions, int n)
{
    for (int i = 0; i < n; i++) {
        sb_session_close(&sessions[i]);
        sb_registry_unload(&sessions[i].slot);
    }
}
