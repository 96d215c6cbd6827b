/* Sessions (session.h): the devices a run measures on. */
#include "exec/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "plan/request.h"
#include "slot_label.h"
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

/* Where the process runs under an address-space or data-size limit, the
 * words that end the line of a backend that could not start: a GPU
 * driver (NVIDIA's CUDA and OpenCL alike) reserves far more address space
 * than it uses, and fails to initialise under a limit that a PoCL run
 * fits in, with an error that does not say so.  "" when there is none. */
static void limit_hint(char *out, size_t n)
{
    struct rlimit as, data;
    const char *which = NULL;
    rlim_t lim = RLIM_INFINITY;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
        lim = as.rlim_cur, which = "an address-space limit (ulimit -v)";
    if (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY &&
        data.rlim_cur < lim)
        lim = data.rlim_cur, which = "a data-size limit (ulimit -d)";
    out[0] = '\0';
    if (which)
        snprintf(out, n,
                 "; this process runs under %s of %llu MiB, and a GPU driver may fail to start "
                 "under one (NVIDIA's reserves tens of GiB of address space): raise or "
                 "remove the limit",
                 which, (unsigned long long)(lim >> 20));
}

int sb_session_open(sb_session *s, const sb_device_request *req, sb_run *run, char *err,
                    size_t n)
{
    char hint[256];
    if (!s->slot.available) {
        limit_hint(hint, sizeof hint);
        snprintf(err, n, "the %s backend is not available: %s%s", s->slot.name, s->slot.reason,
                 s->slot.found ? hint : "");
        return SB_EXIT_UNAVAILABLE;
    }
    if (sb_registry_open(&s->slot, req, &s->dev, &s->info)) {
        limit_hint(hint, sizeof hint);
        snprintf(err, n, "%s: cannot open a device: %s%s", s->slot.name,
                 sb_registry_error(s->slot.vt), hint);
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

/* The platform --device all takes its devices from: --platform, else the
   first with a GPU, else the first that has a device. */
static int all_platform(const sb_suite *suite, const sb_device_info *info, int count)
{
    if (suite->device.platform >= 0)
        return suite->device.platform;
    for (int i = 0; i < count; i++)
        if (info[i].is_gpu)
            return info[i].platform_index;
    return count > 0 ? info[0].platform_index : -1;
}

/* Every device of the chosen platform, as requests: their count, or -1
   with why in err. */
static int every_device(const sb_suite *suite, const sb_backend_slot *slot,
                        sb_device_request *req, int max, char *err, size_t n)
{
    sb_device_info *info = calloc(SB_RUN_MAX_DEVICES + 1, sizeof *info);
    int count = info ? sb_registry_enumerate(slot, info, SB_RUN_MAX_DEVICES + 1) : -1, m = 0;
    if (count < 0)
        snprintf(err, n, "--device all: cannot list its devices: %s",
                 info ? sb_registry_error(slot->vt) : "out of host memory");
    int platform = count > 0 ? all_platform(suite, info, count) : -1;
    for (int i = 0; i < count && m >= 0; i++) {
        if (info[i].platform_index != platform)
            continue;
        if (m == max) {
            snprintf(err, n, "--device all: more devices than the %d sessions left in a run "
                             "(%d in all)", max, SB_RUN_MAX_DEVICES);
            m = -1;
            break;
        }
        req[m++] = (sb_device_request){info[i].platform_index, info[i].device_index};
    }
    if (count == 0 || (count > 0 && m == 0))
        snprintf(err, n, "--device all: no device found%s", platform >= 0 ? " on the platform" : "");
    free(info);
    return count > 0 && m > 0 ? m : -1;
}

/* The devices the backend in slot opens sessions on, as requests into
   req[0..max): their count, or -1 with why in err. */
static int device_requests(const sb_suite *suite, const sb_backend_slot *slot,
                           sb_device_request *req, int max, char *err, size_t n)
{
    if (suite->device_pick == SB_DEVICE_ALL)
        return every_device(suite, slot, req, max, err, n);
    int count = suite->device_pick == SB_DEVICE_LIST ? suite->ndevices : 1;
    if (count > max) {
        snprintf(err, n, "too many devices in one run (at most %d)", SB_RUN_MAX_DEVICES);
        return -1;
    }
    for (int i = 0; i < count; i++)
        req[i] = (sb_device_request){suite->device.platform,
                                     suite->device_pick == SB_DEVICE_LIST ? suite->devices[i]
                                                                           : suite->device.device};
    return count;
}

/* Sessions on each device of the loaded backend in base, from
   sessions[*n] on, each with its own reference to the module.  Named: the
   first failure's status, said on stderr.  Not named: a device that does
   not open is left out (run->unavailable[]), the others kept. */
static int open_devices(const sb_suite *suite, const sb_backend_slot *base, int named,
                        sb_session *sessions, int *n, sb_run *run)
{
    sb_device_request req[SB_RUN_MAX_DEVICES];
    char err[1400];
    int count = device_requests(suite, base, req, SB_RUN_MAX_DEVICES - *n, err, sizeof err);
    if (count < 0 && named) {
        fprintf(stderr, "simtbench: %s: %s\n", base->name, err);
        return SB_EXIT_UNAVAILABLE;
    }
    if (count < 0)
        left_out(run, base->name, err);
    for (int k = 0; k < count; k++) {
        sb_session *s = &sessions[*n];
        memset(s, 0, sizeof *s);
        int st = sb_registry_share(base, &s->slot) ? SB_EXIT_UNAVAILABLE
                 : sb_session_open(s, &req[k], run, err, sizeof err);
        if (st == SB_EXIT_OK) {
            (*n)++;
            continue;
        }
        if (!s->slot.vt)
            snprintf(err, sizeof err, "%s", s->slot.reason);
        else if (!named && st == SB_EXIT_UNAVAILABLE && req[k].device >= 0)
            snprintf(err, sizeof err, "cannot open device %d: %s", req[k].device,
                     sb_registry_error(s->slot.vt));
        else if (!named && st == SB_EXIT_UNAVAILABLE)
            snprintf(err, sizeof err, "cannot open a device: %s", sb_registry_error(s->slot.vt));
        sb_registry_unload(&s->slot);
        if (named) {
            fprintf(stderr, "simtbench: %s\n", err);
            return st;
        }
        left_out(run, base->name, err);
    }
    return SB_EXIT_OK;
}

/* No backend named: each known one that loads, on each of its devices
   that opens, in the registry's order.  One this simtbench has but that
   cannot run (no driver, no device, its module missing) is left out and
   named in run->unavailable[]; one neither built nor installed is not. */
static int open_every_available(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    for (int b = 0; b < sb_nknown_backends && *n < SB_RUN_MAX_DEVICES; b++) {
        sb_backend_slot base;
        if (sb_registry_load(sb_known_backends[b], &base)) {
            if (sb_registry_has(&base))
                left_out(run, base.name, base.reason);
        } else {
            open_devices(suite, &base, 0, sessions, n, run);
        }
        sb_registry_unload(&base);
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
static int load_named(const sb_suite *suite, sb_backend_slot *slots)
{
    for (int b = 0; b < suite->nsessions; b++) {
        sb_registry_load(suite->sessions[b], &slots[b]);
        if (!slots[b].available) {
            fprintf(stderr, "simtbench: the %s backend is not available: %s\n", slots[b].name,
                    slots[b].reason);
            for (int i = 0; i <= b; i++)
                sb_registry_unload(&slots[i]);
            return SB_EXIT_UNAVAILABLE;
        }
    }
    return SB_EXIT_OK;
}

static int open_all(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run);

int sb_sessions_open(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    const char *names[SB_RUN_MAX_DEVICES] = {NULL};
    int nnames = 0;
    if (suite->nsessions == 0)
        for (int b = 0; b < sb_nknown_backends && nnames < SB_RUN_MAX_DEVICES; b++)
            names[nnames++] = sb_known_backends[b];
    for (int b = 0; b < suite->nsessions; b++)
        names[nnames++] = suite->sessions[b];
    sb_registry_preprobe(names, nnames);
    int st = open_all(suite, sessions, n, run);
    sb_registry_preprobe_reap();
    char (*labels)[SB_SLOT_LABEL] = malloc(sizeof *labels * SB_RUN_MAX_DEVICES);
    if (labels)
        sb_slot_labels(run, labels);
    for (int i = 0; i < *n; i++)
        snprintf(sessions[i].label, sizeof sessions[i].label, "%s",
                 labels ? labels[sessions[i].run_device] : sessions[i].slot.name);
    free(labels);
    return st;
}

static int open_all(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run)
{
    *n = 0;
    if (suite->nsessions == 0)
        return open_every_available(suite, sessions, n, run);
    sb_backend_slot *slots = calloc((size_t)suite->nsessions, sizeof *slots);
    if (!slots) {
        fprintf(stderr, "simtbench: out of host memory\n");
        return SB_EXIT_RUNTIME;
    }
    int st = load_named(suite, slots);
    for (int b = 0; b < suite->nsessions && st == SB_EXIT_OK; b++)
        st = open_devices(suite, &slots[b], 1, sessions, n, run);
    for (int b = 0; b < suite->nsessions; b++)
        sb_registry_unload(&slots[b]); /* each session holds its own reference */
    free(slots);
    return st;
}

void sb_sessions_close(sb_session *sessions, int n)
{
    for (int i = 0; i < n; i++) {
        sb_session_close(&sessions[i]);
        sb_registry_unload(&sessions[i].slot);
    }
}
