/* One experiment's variants on one session (run_state.h): each goes
 * through named steps: plan, allocate and upload, resolve the kernel's
 * arguments, a first launch that fails fast, time (timing.h), read back,
 * verify on the checker while the next one runs, record. */
#include "exec/run_state.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "file_name.h"
#include "experiments/variant.h"
#include "exec/checker.h"
#include "experiments/host_data.h"
#include "exec/counting.h"
#include "exec/interrupt.h"
#include "exec/progress.h"
#include "exec/registry.h"
#include "exec/timing.h"
#include "exec/trace_pass.h"
#include "exec/workspace.h"

/* Everything one variant on one session holds while it runs. */
typedef struct variant_run {
    exec_run *xr;
    host_time *spent;        /* this thread's */
    const sb_suite *suite;
    sb_session *s;
    const sb_experiment *e;
    const sb_problem *p;
    const sb_variant *v;
    void *host;              /* the experiment's inputs and reference */
    sb_program *prog;        /* NULL for the API copy and the vendor row */
    sb_workspace *ws;
    struct timespec t0;      /* when the variant started, for host_ms */
    sb_plan plan;
    sb_buffer *bufs[SB_MAX_BUFFERS];
    int owned[SB_MAX_BUFFERS]; /* allocated for this variant, not cached */
    void *outputs[SB_MAX_BUFFERS];
    int set;                 /* the workspace's set of host outputs read into */
    void *poison;
    sb_arg args[SB_MAX_ARGS];
    sb_timed_op op;
    double *samples;         /* suite->reps device times, ms */
    double *host_samples;    /* suite->reps host-observed times, ms (plan.host_timed), or NULL */
    double launches_per_s;   /* of the queued launches (plan.host_timed) */
    int queued;
    double download_ms;
    int launched;            /* untimed launches made before the warm-up (0 or 1) */
    double floor_ms;         /* device time the warm-up must add (warm_floor), once */
    char *ptx;               /* the program's PTX, for the checker to summarise */
    char err[ERR_LEN];
} variant_run;

/* The variant read back last, compared on the checker meanwhile: its
 * record is kept once the checker passes it, and reported if not. */
typedef struct pending {
    exec_run *xr;
    host_time *spent;        /* this thread's */
    sb_checker checker;
    sb_result r;
    const sb_session *s;
    double download_ms, host_ms;
    int next_set;            /* the set of host outputs the next variant reads into */
    int status;              /* the first failure a check found, or SB_EXIT_OK */
} pending;

void sb_exec_failure(exec_run *xr, const sb_session *s, const sb_experiment *e,
                     const sb_variant *v, const char *fmt, ...)
{
    char msg[ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_say("%s: %s/%s: %s", s->label, e->name, v ? v->name : "*", msg);
    atomic_fetch_add(&xr->failures, 1);
}

/* A backend call failed: its message, and the status it earns. */
static int backend_failure(variant_run *vr)
{
    snprintf(vr->err, sizeof vr->err, "%s", sb_registry_error(vr->s->slot.vt));
    return SB_EXIT_RUNTIME;
}

static int noutputs(const sb_plan *plan)
{
    int n = 0;
    for (int i = 0; i < plan->nbuffers; i++)
        n += plan->buffer[i].init == NULL;
    return n;
}

/* Device buffers for the plan: big inputs and the outputs from the
 * workspace, kept from variant to variant; small inputs allocated and
 * uploaded; host buffers for the outputs, in order, and poison for the
 * largest. */
static int allocate_buffers(variant_run *vr)
{
    const sb_backend *vt = vr->s->slot.vt;
    const sb_plan *plan = &vr->plan;
    size_t max_out = 0;
    int nout = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        size_t bytes = plan->buffer[i].bytes;
        const void *init = plan->buffer[i].init;
        if (init && bytes >= SB_CACHE_INPUT_MIN) {
            if (!(vr->bufs[i] = sb_workspace_input(vr->ws, init, bytes)))
                return backend_failure(vr);
            continue;
        }
        if (init) {
            if (vt->alloc(vr->s->dev, bytes, &vr->bufs[i]))
                return backend_failure(vr);
            vr->owned[i] = 1; /* freed with the variant, also when the upload fails */
            if (vt->upload(vr->bufs[i], init, bytes))
                return backend_failure(vr);
            continue;
        }
        if (!(vr->bufs[i] = sb_workspace_device_output(vr->ws, nout, noutputs(plan), bytes)))
            return backend_failure(vr);
        if (bytes > max_out)
            max_out = bytes;
        vr->outputs[nout] =
            sb_workspace_output(vr->ws, vr->set, nout, bytes, vr->err, sizeof vr->err);
        if (!vr->outputs[nout++])
            return SB_EXIT_RUNTIME;
    }
    vr->poison = sb_workspace_poison(vr->ws, max_out, vr->err, sizeof vr->err);
    return vr->poison ? SB_EXIT_OK : SB_EXIT_RUNTIME;
}

/* The plan's arguments as the backend takes them. */
static void resolve_arguments(variant_run *vr)
{
    const sb_plan *plan = &vr->plan;
    for (int i = 0; i < plan->nargs; i++) {
        switch (plan->arg[i].kind) {
        case SB_PLAN_BUFFER:
            vr->args[i].kind = SB_ARG_BUFFER;
            vr->args[i].v.buf = vr->bufs[plan->arg[i].buffer];
            break;
        case SB_PLAN_INT:
            vr->args[i].kind = SB_ARG_INT;
            vr->args[i].v.i = plan->arg[i].i;
            break;
        case SB_PLAN_FLOAT:
            vr->args[i].kind = SB_ARG_FLOAT;
            vr->args[i].v.f = plan->arg[i].f;
            break;
        }
    }
}

/* What the timing and the verification launch: the kernel, when the
 * variant is one. */
static int prepare_launch(variant_run *vr)
{
    const sb_session *s = vr->s;
    sb_timed_op *op = &vr->op;
    memset(op, 0, sizeof *op);
    op->vt = s->slot.vt;
    op->batched = s->slot.provides.batch;
    op->dev = s->dev;
    op->role = vr->v->role;
    op->vendor = vr->v->vendor;
    op->plan = &vr->plan;
    op->bufs = vr->bufs;
    op->args = vr->args;
    if (vr->prog && op->vt->kernel(vr->prog, vr->v->kernel, &op->k))
        return backend_failure(vr);
    return SB_EXIT_OK;
}

/* One untimed launch first: it fails fast.  An optional vendor library
 * missing at run time is a note, not a failure of the run: *left_out. */
static int first_launch(variant_run *vr, int *left_out)
{
    *left_out = 0;
    if (sb_launch_once(&vr->op, NULL) == 0)
        return SB_EXIT_OK;
    int status = backend_failure(vr);
    if (vr->v->role != SB_ROLE_VENDOR)
        return status;
    if (!vr->suite->quiet)
        sb_say("note: %s: %s/%s left out: %s", vr->s->label, vr->e->name, vr->v->name,
               vr->err);
    *left_out = 1;
    return SB_EXIT_OK;
}

/* The device time the warm-up must still add before the device is warm:
   busy SB_WARM_MS with no idle gap over SB_WARM_GAP_MS, the variant
   before counted; 0 when warm, or when no warm-up was asked for. */
static double warm_floor(const variant_run *vr)
{
    warmth *w = &vr->xr->warmth[vr->s->run_device];
    if (!w->seen || ms_since(&w->last_end) > SB_WARM_GAP_MS)
        w->busy_ms = 0;
    return vr->suite->warmup > 0 && w->busy_ms < SB_WARM_MS ? SB_WARM_MS - w->busy_ms : 0;
}

/* The warm-up, then the timed launches into samples. */
static int time_variant(variant_run *vr)
{
    int reps = vr->suite->reps;
    vr->samples = sb_host_alloc(sizeof *vr->samples * (size_t)reps, vr->err, sizeof vr->err);
    if (!vr->samples)
        return SB_EXIT_RUNTIME;
    /* A first launch made alone was the first warm-up launch. */
    int warmup = vr->suite->warmup;
    warmth *w = &vr->xr->warmth[vr->s->run_device];
    double floor_ms = vr->floor_ms;
    double warm_ms = 0, lead_ms = 0;
    int launches = warmup - vr->launched > 0 ? warmup - vr->launched : 0;
    int first_lead = SB_BATCH_LEAD;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (floor_ms <= 0 && vr->op.batched) {
        /* Warm already: the warm-up launches open the timed batch, as the
           lead whose times are dropped. */
        first_lead = launches > SB_BATCH_LEAD ? launches : SB_BATCH_LEAD;
    } else if (sb_warm_up(&vr->op, launches, floor_ms, &warm_ms, vr->err, sizeof vr->err)) {
        return SB_EXIT_RUNTIME;
    }
    lap(&vr->spent->warm, &t);
    if (sb_time_launches_led(&vr->op, reps, SB_BATCH_LEAD, first_lead, vr->samples, &lead_ms,
                             vr->err, sizeof vr->err))
        return SB_EXIT_RUNTIME;
    lap(&vr->spent->timed, &t);
    warm_ms += lead_ms;
    w->busy_ms += warm_ms;
    for (int i = 0; i < reps; i++)
        w->busy_ms += vr->samples[i];
    clock_gettime(CLOCK_MONOTONIC, &w->last_end);
    w->seen = 1;
    return SB_EXIT_OK;
}

/* Where the plan asks, what the host's clock sees of the kernel beside
 * its device time (timing.h); a backend that cannot queue launches for
 * the host leaves the fields unknown, with a note. */
static int time_on_host(variant_run *vr)
{
    if (!vr->plan.host_timed || !vr->op.k)
        return SB_EXIT_OK;
    if (!vr->s->slot.provides.launch_queued) {
        if (!vr->suite->quiet)
            sb_say("note: %s: %s/%s: the backend cannot queue launches for the host's clock: "
                   "no host-observed time", vr->s->slot.name, vr->e->name, vr->v->name);
        return SB_EXIT_OK;
    }
    int reps = vr->suite->reps;
    vr->host_samples = sb_host_alloc(sizeof *vr->host_samples * (size_t)reps, vr->err,
                                     sizeof vr->err);
    if (!vr->host_samples)
        return SB_EXIT_RUNTIME;
    sb_stats device;
    if (sb_stats_compute(vr->samples, (size_t)reps, &device) ||
        sb_time_on_host(&vr->op, reps, device.median, vr->host_samples, &vr->launches_per_s,
                        &vr->queued, vr->err, sizeof vr->err))
        return SB_EXIT_RUNTIME;
    return SB_EXIT_OK;
}

/* The outputs on the device poisoned: filled there where the backend can,
 * else uploaded. */
static int poison_outputs(variant_run *vr)
{
    const sb_backend *vt = vr->s->slot.vt;
    const sb_plan *plan = &vr->plan;
    for (int i = 0; i < plan->nbuffers; i++) {
        size_t bytes = plan->buffer[i].bytes;
        if (plan->buffer[i].init)
            continue;
        int filled = vr->s->slot.provides.fill && bytes % 4 == 0 &&
                     vt->fill(vr->bufs[i], SB_POISON_WORD, bytes) == 0;
        if (!filled && vt->upload(vr->bufs[i], vr->poison, bytes))
            return backend_failure(vr);
    }
    return SB_EXIT_OK;
}

/* The output of the last timed launch (the outputs were poisoned before
 * the first), read back into the host set (poisoned too, so that a
 * read-back that reports success and copies nothing leaves poison, not an
 * older output); the checker compares it with the reference before any
 * figure is kept. */
static int read_back(variant_run *vr)
{
    const sb_backend *vt = vr->s->slot.vt;
    const sb_plan *plan = &vr->plan;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    struct timespec t0 = t;
    int nout = 0;
    for (int i = 0; i < plan->nbuffers; i++)
        if (!plan->buffer[i].init &&
            vt->download(vr->outputs[nout++], vr->bufs[i], plan->buffer[i].bytes))
            return backend_failure(vr);
    vr->download_ms = ms_since(&t0);
    lap(&vr->spent->download, &t);
    return SB_EXIT_OK;
}

/* The check of the variant before, if one is running: its record kept
 * when right, the failure reported and kept in pd->status when not. */
static void settle(pending *pd, sb_run *run)
{
    sb_check *c = sb_checker_wait(&pd->checker);
    if (!c)
        return;
    pd->spent->compare += c->compare_ms * 1e-3;
    int status = SB_EXIT_OK;
    if (c->wrong) {
        sb_exec_failure(pd->xr, pd->s, c->e, c->v, "wrong result, no figure reported: %s", c->why);
        status = SB_EXIT_WRONG;
    } else {
        snprintf(pd->r.ptx_memory, sizeof pd->r.ptx_memory, "%s", c->ptx_memory);
        pd->r.verified = 1;
        pd->r.verify_ms = pd->download_ms + c->compare_ms;
        pd->r.host_ms = pd->host_ms + c->compare_ms;
        pthread_mutex_lock(&pd->xr->lock);
        int full = sb_run_add(run, &pd->r);
        pthread_mutex_unlock(&pd->xr->lock);
        if (full) {
            sb_exec_failure(pd->xr, pd->s, c->e, c->v, "out of host memory");
            status = SB_EXIT_RUNTIME;
        }
    }
    free(pd->r.samples);
    pd->r.samples = NULL;
    if (status && !pd->status)
        pd->status = status;
}

/* Hand the read-back variant and its record r to the checker, once the
   one before is settled. */
static void hand_over(variant_run *vr, pending *pd, sb_result *r, sb_run *run)
{
    settle(pd, run);
    pd->r = *r;
    vr->samples = NULL; /* the record owns them now */
    pd->s = vr->s;
    pd->download_ms = vr->download_ms;
    pd->host_ms = ms_since(&vr->t0);
    sb_check job = {.e = vr->e, .host = vr->host, .p = vr->p, .v = vr->v, .ptx = vr->ptx,
                    .kernel = vr->v->kernel};
    vr->ptx = NULL; /* the check frees it */
    for (int i = 0; i < vr->plan.nbuffers; i++)
        if (!vr->plan.buffer[i].init) {
            job.outputs[job.noutputs] = vr->outputs[job.noutputs];
            job.bytes[job.noutputs++] = vr->plan.buffer[i].bytes;
        }
    sb_checker_start(&pd->checker, &job);
    pd->next_set = (vr->set + 1) % SB_WORKSPACE_SETS;
}

/* Which row this is, of what, at which size and launch shape. */
static void record_identity(const variant_run *vr, sb_result *r)
{
    const sb_session *s = vr->s;
    const sb_variant *v = vr->v;
    snprintf(r->backend, sizeof r->backend, "%s", s->slot.name);
    r->device_slot = s->run_device;
    snprintf(r->experiment, sizeof r->experiment, "%s", vr->e->name);
    snprintf(r->family, sizeof r->family, "%s", vr->e->family);
    snprintf(r->variant, sizeof r->variant, "%s", v->name);
    snprintf(r->kernel, sizeof r->kernel, "%s",
             v->role == SB_ROLE_API_COPY ? "(API copy)"
             : v->role == SB_ROLE_VENDOR ? sb_vendor_name(s->slot.vt, v->vendor)
                                         : v->kernel);
    sb_variant_params(v, r->params, sizeof r->params);
    r->role = (int)v->role;
    r->rows = vr->p->rows;
    r->cols = vr->p->cols;
    r->size_kind = vr->e->size_kind;
    memcpy(r->grid, vr->plan.geometry.grid, sizeof r->grid);
    memcpy(r->block, vr->plan.geometry.block, sizeof r->block);
    r->reps = vr->suite->reps;
    r->warmup = vr->suite->warmup;
    r->bytes = vr->plan.bytes;
    r->flops = vr->plan.flops;
    r->accesses = vr->plan.accesses;
    r->intensity = vr->plan.intensity;
    r->nfigures = vr->plan.nfigures;
    memcpy(r->figure, vr->plan.figure, sizeof r->figure);
    r->quantity = vr->e->quantity;
    r->group = v->group;
    r->baseline = v->baseline;
}

/* What the API says about the kernel: blocks per multiprocessor and what
 * its compiler allocated; -1 where it does not say, and for rows with no
 * kernel of ours. */
static void record_compiler(const variant_run *vr, sb_result *r)
{
    const sb_backend *vt = vr->s->slot.vt;
    sb_kernel *k = vr->op.k;
    r->occupancy = -1;
    r->regs = -1;
    r->shared_bytes = -1;
    r->private_bytes = -1;
    r->threads_in_flight = -1;
    if (!k)
        return;
    const unsigned *block = vr->plan.geometry.block;
    int blocks = 0;
    if (vt->occupancy(k, (int)(block[0] * block[1] * block[2]), &blocks) == 0)
        r->occupancy = blocks;
    sb_kernel_resources res;
    if (vt->kernel_resources(k, &res) == 0) {
        r->regs = res.regs;
        r->shared_bytes = res.shared_bytes;
        r->private_bytes = res.private_bytes;
    }
}

/* The declared access patterns, for analysis to ask the model about; one
 * the model rejects is the experiment's error. */
static int record_patterns(variant_run *vr, sb_result *r)
{
    const sb_plan *plan = &vr->plan;
    if (plan->undeclared > 0 || plan->npatterns > SB_MAX_PATTERNS) {
        snprintf(vr->err, sizeof vr->err, "the variant declares more than %d kinds of access",
                 SB_MAX_PATTERNS);
        return SB_EXIT_RUNTIME;
    }
    r->npatterns = plan->npatterns;
    for (int i = 0; i < plan->npatterns; i++) {
        const char *why = sb_pattern_check(&plan->pattern[i]);
        if (why) {
            snprintf(vr->err, sizeof vr->err, "the model rejects the declared pattern: %s", why);
            return SB_EXIT_RUNTIME;
        }
        memcpy(r->pattern_label[i], plan->pattern_label[i], sizeof r->pattern_label[i]);
        r->pattern[i] = plan->pattern[i];
        r->pattern_kind[i] = plan->kind[i];
        r->pattern_requests[i] = plan->requests[i];
        r->pattern_extra[i] = !plan->studied[i];
    }
    return SB_EXIT_OK;
}

static int make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* The variant's PTX whenever the API has PTX, for the checker to
 * summarise into the record, so that the report can say whether two APIs
 * emitted the same memory instructions; with --dump-ptx, also saved.  An
 * API without PTX (PoCL) is silent unless the user asked for the files. */
static void record_ptx(variant_run *vr, sb_result *r)
{
    const sb_session *s = vr->s;
    const char *dir = vr->suite->ptx_dir;
    char *ptx = NULL;
    if (s->slot.vt->program_ptx(vr->prog, &ptx)) {
        if (dir)
            sb_exec_failure(vr->xr, s, vr->e, vr->v, "no PTX to save: %s",
                           s->slot.provides.program_ptx ? sb_registry_error(s->slot.vt)
                                                        : "not supported");
        return;
    }
    if (dir) {
        /* Named by the experiment, the variant and the device's label,
           each made safe for a file name (file_name.h). */
        const char *const parts[] = {vr->e->name, vr->v->name, s->label, "ptx"};
        char name[256], path[sizeof r->ptx_file];
        sb_file_name(name, sizeof name, '.', parts, 4, "x");
        int len = snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = len < 0 || (size_t)len >= sizeof path || make_dir(dir) ? NULL
                                                                         : fopen(path, "w");
        if (!f || fputs(ptx, f) == EOF || fclose(f))
            sb_exec_failure(vr->xr, s, vr->e, vr->v, "cannot write %s", path);
        else
            snprintf(r->ptx_file, sizeof r->ptx_file, "%s", path);
    }
    vr->ptx = ptx;
}

/* A family whose kernel traces its own accesses: the trace pass on this
   device, from which the family declares them (before the record). */
static int trace_variant(variant_run *vr)
{
    const sb_experiment *e = vr->e;
    if (!e->trace_kernel || !e->traced || !vr->prog)
        return SB_EXIT_OK;
    int32_t trace[SB_TRACE_INTS];
    if (sb_trace_pass(vr->s->slot.vt, vr->s->dev, vr->prog, e->trace_kernel, vr->plan.arg[0].i,
                      &vr->plan.geometry, trace, SB_TRACE_INTS, vr->err, sizeof vr->err))
        return SB_EXIT_RUNTIME;
    if (e->traced(vr->host, vr->p, vr->v, trace, vr->outputs, &vr->plan, vr->err,
                  sizeof vr->err))
        return SB_EXIT_USAGE;
    return SB_EXIT_OK;
}

/* The raw result of a variant read back, into *r: what the checker's
   verdict completes (verified, verify_ms, host_ms). */
static int record_result(variant_run *vr, sb_result *r)
{
    memset(r, 0, sizeof *r);
    record_identity(vr, r);
    if (sb_stats_compute(vr->samples, (size_t)vr->suite->reps, &r->ms)) {
        snprintf(vr->err, sizeof vr->err, "the device returned a time that is not a number");
        return SB_EXIT_RUNTIME;
    }
    if (vr->host_samples &&
        sb_stats_compute(vr->host_samples, (size_t)vr->suite->reps, &r->host_observed)) {
        snprintf(vr->err, sizeof vr->err, "the host's clock gave a time that is not a number");
        return SB_EXIT_RUNTIME;
    }
    r->launches_per_s = vr->launches_per_s;
    r->queued_launches = vr->host_samples ? vr->queued : 0;
    record_compiler(vr, r);
    if (vr->suite->counters)
        sb_count_launch(&vr->op, vr->s->slot.provides.launch_counted, vr->s->slot.name,
                        &vr->xr->counters_said[vr->s->run_device], vr->suite->quiet, r);
    int status = record_patterns(vr, r);
    if (status)
        return status;
    if (vr->prog)
        record_ptx(vr, r);
    /* Every repetition's time, for the interval of each verdict. */
    r->samples = vr->samples;
    r->nsamples = (size_t)vr->suite->reps;
    return SB_EXIT_OK;
}

/* What the variant holds that the workspace does not keep. */
static void release_variant(variant_run *vr)
{
    const sb_backend *vt = vr->s->slot.vt;
    if (vr->op.k)
        vt->release_kernel(vr->op.k);
    for (int i = 0; i < vr->plan.nbuffers; i++)
        if (vr->owned[i])
            vt->free(vr->bufs[i]);
    free(vr->samples);
    free(vr->host_samples);
    free(vr->ptx);
}

/* The steps after the plan, in order; the first failure ends them. */
static int measure_variant(variant_run *vr, pending *pd, sb_run *run)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int status = allocate_buffers(vr), left_out = 0;
    if (!status) {
        resolve_arguments(vr);
        status = prepare_launch(vr);
    }
    lap(&vr->spent->alloc, &t);
    if (!status)
        status = poison_outputs(vr);
    lap(&vr->spent->poison, &t);
    /* A first launch alone, which fails fast, where a vendor library may be
       missing or the device is cold; on a warm device the warm-up launches
       open the timed batch instead. */
    vr->floor_ms = warm_floor(vr);
    if (!status && (vr->v->role == SB_ROLE_VENDOR || !vr->op.batched || vr->floor_ms > 0)) {
        status = first_launch(vr, &left_out);
        vr->launched = 1;
    }
    lap(&vr->spent->first, &t);
    if (status || left_out)
        return status;
    /* The host's clock times the host too: the check of the variant
       before (on a thread, its loops on every core) ends first. */
    if (!(status = time_variant(vr)) && vr->plan.host_timed)
        settle(pd, run);
    if (!status && !(status = time_on_host(vr)) && !(status = read_back(vr)))
        status = trace_variant(vr);
    clock_gettime(CLOCK_MONOTONIC, &t);
    sb_result r;
    if (!status && !(status = record_result(vr, &r)))
        hand_over(vr, pd, &r, run);
    lap(&vr->spent->record, &t);
    return status;
}

/* The variants of one experiment the size left out (SB_PLAN_LEFT_OUT):
   said once, after the experiment, with the first one's reason. */
typedef struct left_out {
    int n;
    char first[48], last[48];
    char why[ERR_LEN];
} left_out;

static void note_left_out(left_out *lo, const variant_run *vr)
{
    if (lo->n++ == 0) {
        snprintf(lo->first, sizeof lo->first, "%s", vr->v->name);
        snprintf(lo->why, sizeof lo->why, "%s", vr->err);
    }
    snprintf(lo->last, sizeof lo->last, "%s", vr->v->name);
}

static void say_left_out(const left_out *lo, const sb_session *s, const sb_experiment *e)
{
    if (lo->n == 1)
        sb_say("note: %s: %s/%s left out at this size: %s", s->slot.name, e->name, lo->first,
               lo->why);
    else if (lo->n > 1)
        sb_say("note: %s: %s: %d variants left out at this size (%s .. %s): %s", s->slot.name,
               e->name, lo->n, lo->first, lo->last, lo->why);
}

/* One variant on one session: everything from the plan to the record. */
static int run_variant(variant_run *vr, pending *pd, sb_run *run, left_out *lo)
{
    clock_gettime(CLOCK_MONOTONIC, &vr->t0);
    int planned =
        vr->e->plan(vr->host, vr->p, vr->v, &vr->s->info, &vr->plan, vr->err, sizeof vr->err);
    if (planned == SB_PLAN_LEFT_OUT) {
        note_left_out(lo, vr);
        return SB_EXIT_OK;
    }
    if (planned) {
        sb_exec_failure(vr->xr, vr->s, vr->e, vr->v, "%s", vr->err);
        return SB_EXIT_USAGE;
    }
    int status = measure_variant(vr, pd, run);
    if (status)
        sb_exec_failure(vr->xr, vr->s, vr->e, vr->v, "%s", vr->err);
    release_variant(vr);
    return status;
}

/* Whether the variant can run on this session at all: a vendor row needs a
 * backend built with its library (a note, not a failure), a kernel its
 * program.  *prog: the program, NULL for rows with no kernel of ours. */
static int variant_ready(exec_run *xr, const sb_suite *suite, sb_session *s,
                         const sb_experiment *e, const sb_variant *v, sb_workspace *ws,
                         const char *source, sb_program **prog, int *status)
{
    char err[ERR_LEN];
    *prog = NULL;
    if (v->role == SB_ROLE_VENDOR && !sb_vendor_provided(&s->slot.provides, v->vendor)) {
        if (!suite->quiet)
            sb_say("note: %s: %s/%s: no vendor library in this build, row left out",
                   s->label, e->name, v->name);
        return 0;
    }
    if (v->role == SB_ROLE_API_COPY || v->role == SB_ROLE_VENDOR)
        return 1;
    *prog = sb_workspace_program(ws, source, v, err, sizeof err);
    if (!*prog) {
        sb_exec_failure(xr, s, e, v, "kernel build failed: %s", err);
        if (!*status)
            *status = SB_EXIT_RUNTIME;
        return 0;
    }
    return 1;
}

/* Whether the experiment says the variant cannot run on this session's
 * device at all: then a note says why, and it is left out unbuilt. */
static int unfit(const sb_suite *suite, const sb_session *s, const sb_experiment *e,
                 const sb_variant *v)
{
    char why[ERR_LEN];
    if (!e->fits || e->fits(v, &s->info, why, sizeof why) == 0)
        return 0;
    if (!suite->quiet)
        sb_say("note: %s: %s/%s left out: %s", s->slot.name, e->name, v->name, why);
    return 1;
}

/* Whether the variants' loop lacks what it holds (out of host memory). */
static int status_fatal(const variant_run *vr, const pending *pd, const left_out *lo)
{
    return !vr || !pd || !lo;
}

/* The variants one by one: each measured and read back while the one
   before is compared; the last is settled before the workspace goes;
   those the size left out are said once at the end. */
int sb_run_variants(exec_run *xr, host_time *spent, const sb_suite *suite, sb_session *s,
                    const sb_suite_experiment *se, const sb_problem *size, void *host,
                    sb_workspace *ws, const char *source, sb_run *run)
{
    const sb_experiment *e = se->e;
    variant_run *vr = malloc(sizeof *vr);
    pending *pd = calloc(1, sizeof *pd);
    left_out *lo = calloc(1, sizeof *lo);
    int status = vr && pd && lo ? SB_EXIT_OK : SB_EXIT_RUNTIME;
    if (pd) {
        pd->xr = xr;
        pd->spent = spent;
    }
    for (int i = 0; i < se->nvariants && !status_fatal(vr, pd, lo) && !sb_interrupted(); i++) {
        const sb_variant *v = &se->variants[i];
        sb_progress_step(s->label, e->name, v->name);
        if (unfit(suite, s, e, v)) {
            sb_progress_done();
            continue;
        }
        sb_program *prog;
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int ready = variant_ready(xr, suite, s, e, v, ws, source, &prog, &status);
        lap(&spent->build, &t0);
        if (ready) {
            *vr = (variant_run){.xr = xr, .spent = spent, .suite = suite, .s = s, .e = e,
                                .p = size, .v = v, .host = host, .prog = prog, .ws = ws,
                                .set = pd->next_set};
            int st = run_variant(vr, pd, run, lo);
            if (st && !status)
                status = st;
            lap(&spent->variants, &t0);
        }
        sb_progress_done();
    }
    if (pd) {
        settle(pd, run);
        if (pd->status && !status)
            status = pd->status;
    }
    if (lo && !suite->quiet)
        say_left_out(lo, s, e);
    free(lo);
    free(pd);
    free(vr);
    return status;
}
