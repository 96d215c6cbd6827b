/* The CUDA backend's launches: a kernel's arguments and grid given to
 * cuLaunchKernel, timed, queued for the host's clock, or profiled by
 * CUPTI for the hardware counters. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "module.h"

#define MAX_ARGS 32

/* The arguments as cuLaunchKernel takes them: each value in vals, a
 * pointer to it in params; 0, or -1 with the reason set. */
typedef union kernel_value {
    sb_CUdeviceptr p;
    int32_t i;
    float f;
} kernel_value;

static int kernel_params(const sb_kernel *k, const sb_arg *args, int nargs, kernel_value *vals,
                         void **params)
{
    if (nargs < 0 || nargs > MAX_ARGS) {
        set_error("kernel %s: %d arguments, at most %d are supported", k->name, nargs, MAX_ARGS);
        return -1;
    }
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind == SB_ARG_BUFFER && args[i].v.buf)
            vals[i].p = args[i].v.buf->ptr;
        else if (args[i].kind == SB_ARG_INT)
            vals[i].i = args[i].v.i;
        else if (args[i].kind == SB_ARG_FLOAT)
            vals[i].f = args[i].v.f;
        else {
            set_error("kernel %s: argument %d is a NULL buffer or of unknown kind", k->name, i);
            return -1;
        }
        params[i] = &vals[i];
    }
    return 0;
}

/* One cuLaunchKernel of k on the device's stream; what names it in messages. */
static int enqueue_kernel(const sb_kernel *k, const sb_launch *g, int nargs, void **params,
                          const char *what)
{
    return cu_failed(cu.cuLaunchKernel(k->fn, g->grid[0], g->grid[1], g->grid[2], g->block[0],
                                       g->block[1], g->block[2], 0, k->dev->stream,
                                       nargs ? params : NULL, NULL),
                     "%s: cuLaunchKernel", what);
}

static void launch_what(const sb_kernel *k, const sb_launch *g, char *what, size_t n)
{
    snprintf(what, n, "kernel %s (grid %ux%ux%u, block %ux%ux%u)", k->name, g->grid[0],
             g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2]);
}

int cuda_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                double *ms)
{
    kernel_value vals[MAX_ARGS];
    void *params[MAX_ARGS];
    sb_device *d = k->dev;
    if (kernel_params(k, args, nargs, vals, params))
        return -1;
    char what[192];
    launch_what(k, g, what, sizeof what);
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || use(d) ||
        (start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        enqueue_kernel(k, g, nargs, params, what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}

/* A stream carries no timing of its own: the launches go on the device's
 * stream, with no event between them, and one synchronisation drains it. */
int cuda_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                       int count)
{
    kernel_value vals[MAX_ARGS];
    void *params[MAX_ARGS];
    sb_device *d = k->dev;
    char what[192];
    launch_what(k, g, what, sizeof what);
    if (count < 1) {
        set_error("%s: %d launches queued; at least one is", what, count);
        return -1;
    }
    if (d->batch.open) {
        set_error("%s: launches for the host's clock cannot join a batch", what);
        return -1;
    }
    if (kernel_params(k, args, nargs, vals, params) || use(d))
        return -1;
    for (int i = 0; i < count; i++)
        if (enqueue_kernel(k, g, nargs, params, what))
            return -1;
    return cu_failed(cu.cuStreamSynchronize(d->stream), "%s x %d: cuStreamSynchronize", what,
                     count)
               ? -1
               : 0;
}

/* The device's profiler, made on the first call; a failure is kept, since
 * a second try would fail the same way. */
static int device_profiler(sb_device *d)
{
    if (d->cupti)
        return 0;
    if (d->cupti_why[0] || load_cupti()) {
        if (!d->cupti_why[0])
            snprintf(d->cupti_why, sizeof d->cupti_why, "%s", last);
        set_error("%s", d->cupti_why);
        return -1;
    }
    char why[sizeof last];
    if (use(d) || sb_cupti_open(d->ctx, d->ordinal, &d->cupti, why, sizeof why)) {
        snprintf(d->cupti_why, sizeof d->cupti_why, "%s", why);
        set_error("%s", d->cupti_why);
        return -1;
    }
    return 0;
}

/* The most passes a collection may take before it is called a failure
 * (the H200 takes 5 for every metric of counters.c, RESULTS.md run 24). */
#define MAX_PASSES 64

/* One collection of the counters over the launch, a launch a pass; 1 where
 * the launch itself failed (its reason set), -1 where CUPTI did (why). */
static int collect_counts(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                          double *counts, char *why, size_t n)
{
    sb_cupti *p = k->dev->cupti;
    if (sb_cupti_begin(p, why, n))
        return -1;
    int all = 0, passes = 0, user = sb_cupti_user_replay(p);
    while (!all && passes++ < (user ? MAX_PASSES : 1)) {
        if (sb_cupti_pass_start(p, why, n))
            return -1;
        int launched = cuda_launch(k, g, args, nargs, NULL);
        if (sb_cupti_pass_stop(p, &all, why, n) || launched)
            return launched ? 1 : -1;
    }
    if (!all) {
        snprintf(why, n, "CUPTI's %s replay left passes unsubmitted after %d", user ? "user" :
                 "kernel", passes - 1);
        return -1;
    }
    return sb_cupti_end(p, counts, why, n);
}

int cuda_launch_counted(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                        double *counts)
{
    sb_device *d = k->dev;
    char why[sizeof last], first[sizeof last];
    if (d->batch.open) {
        set_error("kernel %s: a profiled launch inside a batch", k->name);
        return -1;
    }
    if (device_profiler(d))
        return -1;
    int rc = collect_counts(k, g, args, nargs, counts, why, sizeof why);
    if (rc < 0 && sb_cupti_user_replay(d->cupti)) {
        /* Where CUPTI refuses to let us replay, it replays the kernel itself
           from then on (saving and restoring memory: slower, the same counts). */
        snprintf(first, sizeof first, "%s", why);
        sb_cupti_kernel_replay(d->cupti);
        rc = collect_counts(k, g, args, nargs, counts, why, sizeof why);
        if (rc < 0)
            snprintf(why + strlen(why), sizeof why - strlen(why), " (user replay: %.300s)",
                     first);
    }
    if (rc > 0)
        return -1; /* the launch's own reason is set */
    if (rc < 0) {
        set_error("kernel %s: %s", k->name, why);
        return -1;
    }
    return 0;
}
