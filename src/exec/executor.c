/* The executor (executor.h): the measuring policy, once for every backend
 * and experiment.  A variant goes through named steps: plan, allocate and
 * upload, resolve the kernel's arguments, a first launch that fails fast,
 * time (timing.h), verify, record. */
#include "exec/executor.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "experiments/variant.h"
#include "exec/checker.h"
#include "experiments/host_data.h"
#include "exec/counting.h"
#include "exec/interrupt.h"
#include "exec/kernel_source.h"
#include "plan/preflight.h"
#include "exec/progress.h"
#include "exec/registry.h"
#include "exec/timing.h"
#include "exec/trace_pass.h"
#include "exec/workspace.h"

#define ERR_LEN 2048

/* Where a run's host time went, for SIMTBENCH_TIMINGS: seconds, each
   thread's own (devices measured at the same time add theirs to the
   main thread's when they end, so the sum can exceed the wall time). */
typedef struct host_time {
    double prepare, build, variants;
    /* the variants' steps */
    double alloc, first, warm, timed, poison, download, compare, record;
} host_time;
static _Thread_local host_time spent;
static host_time spent_by_lanes;
/* Guards spent_by_lanes and the run's results while devices are measured
   at the same time. */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;
/* The failures reported so far, from every device's thread, for the run's
   summary to count. */
static atomic_int failures;

/* How warm each session's device is: device time in the current busy
   stretch, and when that stretch's last launch ended (timing.h). */
static struct {
    int seen;
    double busy_ms;
    struct timespec last_end;
} warmth[SB_RUN_MAX_DEVICES];

/* Each session's host buffers for read-backs, for the whole run. */
static sb_host_sets *hosts[SB_RUN_MAX_DEVICES];

/* Adds the seconds since *t to *acc and restarts *t. */
static void lap(double *acc, struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *acc += (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
    *t = now;
}


/* Everything one variant on one session holds while it runs. */
typedef struct variant_run {
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
    sb_checker checker;
    sb_result r;
    const sb_session *s;
    double download_ms, host_ms;
    int next_set;            /* the set of host outputs the next variant reads into */
    int status;              /* the first failure a check found, or SB_EXIT_OK */
} pending;

static void report_failure(const sb_session *s, const sb_experiment *e, const sb_variant *v,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report_failure(const sb_session *s, const sb_experiment *e, const sb_variant *v,
                           const char *fmt, ...)
{
    char msg[ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_say("%s: %s/%s: %s", s->label, e->name, v ? v->name : "*", msg);
    atomic_fetch_add(&failures, 1);
}

/* A backend call failed: its message, and the status it earns. */
static int backend_failure(variant_run *vr)
{
    snprintf(vr->err, sizeof vr->err, "%s", sb_registry_error(vr->s->slot.vt));
    return SB_EXIT_RUNTIME;
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-6;
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
    typeof(&warmth[0]) w = &warmth[vr->s->run_device];
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
    typeof(&warmth[0]) w = &warmth[vr->s->run_device];
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
    lap(&spent.warm, &t);
    if (sb_time_launches_led(&vr->op, reps, SB_BATCH_LEAD, first_lead, vr->samples, &lead_ms,
                             vr->err, sizeof vr->err))
        return SB_EXIT_RUNTIME;
    lap(&spent.timed, &t);
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
    lap(&spent.download, &t);
    return SB_EXIT_OK;
}

/* The check of the variant before, if one is running: its record kept
 * when right, the failure reported and kept in pd->status when not. */
static void settle(pending *pd, sb_run *run)
{
    sb_check *c = sb_checker_wait(&pd->checker);
    if (!c)
        return;
    spent.compare += c->compare_ms * 1e-3;
    int status = SB_EXIT_OK;
    if (c->wrong) {
        report_failure(pd->s, c->e, c->v, "wrong result, no figure reported: %s", c->why);
        status = SB_EXIT_WRONG;
    } else {
        snprintf(pd->r.ptx_memory, sizeof pd->r.ptx_memory, "%s", c->ptx_memory);
        pd->r.verified = 1;
        pd->r.verify_ms = pd->download_ms + c->compare_ms;
        pd->r.host_ms = pd->host_ms + c->compare_ms;
        pthread_mutex_lock(&run_lock);
        int full = sb_run_add(run, &pd->r);
        pthread_mutex_unlock(&run_lock);
        if (full) {
            report_failure(pd->s, c->e, c->v, "out of host memory");
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
            report_failure(s, vr->e, vr->v, "no PTX to save: %s",
                           s->slot.provides.program_ptx ? sb_registry_error(s->slot.vt)
                                                        : "not supported");
        return;
    }
    if (dir) {
        /* Named by the device's label (the backend's name, and its index
           where it has several), which holds no slash in a run of one host. */
        char path[sizeof r->ptx_file];
        snprintf(path, sizeof path, "%s/%s.%s.%s.ptx", dir, vr->e->name, vr->v->name,
                 s->label);
        FILE *f = make_dir(dir) ? NULL : fopen(path, "w");
        if (!f || fputs(ptx, f) == EOF || fclose(f))
            report_failure(s, vr->e, vr->v, "cannot write %s", path);
        else
            snprintf(r->ptx_file, sizeof r->ptx_file, "%s", path);
    }
    vr->ptx = ptx;
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
                        vr->s->run_device, vr->suite->quiet, r);
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

static int measure_variant(variant_run *vr, pending *pd, sb_run *run)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    int status = allocate_buffers(vr), left_out = 0;
    if (!status) {
        resolve_arguments(vr);
        status = prepare_launch(vr);
    }
    lap(&spent.alloc, &t);
    if (!status)
        status = poison_outputs(vr);
    lap(&spent.poison, &t);
    /* A first launch alone, which fails fast, where a vendor library may be
       missing or the device is cold; on a warm device the warm-up launches
       open the timed batch instead. */
    vr->floor_ms = warm_floor(vr);
    if (!status && (vr->v->role == SB_ROLE_VENDOR || !vr->op.batched || vr->floor_ms > 0)) {
        status = first_launch(vr, &left_out);
        vr->launched = 1;
    }
    lap(&spent.first, &t);
    if (status || left_out)
        return status;
    if (!(status = time_variant(vr)) && !(status = time_on_host(vr)) &&
        !(status = read_back(vr)))
        status = trace_variant(vr);
    clock_gettime(CLOCK_MONOTONIC, &t);
    sb_result r;
    if (!status && !(status = record_result(vr, &r)))
        hand_over(vr, pd, &r, run);
    lap(&spent.record, &t);
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
        report_failure(vr->s, vr->e, vr->v, "%s", vr->err);
        return SB_EXIT_USAGE;
    }
    int status = measure_variant(vr, pd, run);
    if (status)
        report_failure(vr->s, vr->e, vr->v, "%s", vr->err);
    release_variant(vr);
    return status;
}

/* Whether the variant can run on this session at all: a vendor row needs a
 * backend built with its library (a note, not a failure), a kernel its
 * program.  *prog: the program, NULL for rows with no kernel of ours. */
static int variant_ready(const sb_suite *suite, sb_session *s, const sb_experiment *e,
                         const sb_variant *v, sb_workspace *ws, const char *source,
                         sb_program **prog, int *status)
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
        report_failure(s, e, v, "kernel build failed: %s", err);
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
static int run_variants(const sb_suite *suite, sb_session *s, const sb_suite_experiment *se,
                        const sb_problem *size, void *host, sb_workspace *ws,
                        const char *source, sb_run *run)
{
    const sb_experiment *e = se->e;
    variant_run *vr = malloc(sizeof *vr);
    pending *pd = calloc(1, sizeof *pd);
    left_out *lo = calloc(1, sizeof *lo);
    int status = vr && pd && lo ? SB_EXIT_OK : SB_EXIT_RUNTIME;
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
        int ready = variant_ready(suite, s, e, v, ws, source, &prog, &status);
        lap(&spent.build, &t0);
        if (ready) {
            *vr = (variant_run){.suite = suite, .s = s, .e = e, .p = size, .v = v,
                                .host = host, .prog = prog, .ws = ws, .set = pd->next_set};
            int st = run_variant(vr, pd, run, lo);
            if (st && !status)
                status = st;
            lap(&spent.variants, &t0);
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

/* Every experiment's workspace and kernel source on every session, made
 * before anything is measured so that all their programs are built at
 * once, side by side on the host's cores; each is freed once its
 * experiment is done.  A source that cannot be read stays NULL: the
 * failure is reported when its experiment comes. */
typedef struct workspaces {
    sb_workspace *ws[SB_SUITE_MAX_EXPERIMENTS][SB_RUN_MAX_DEVICES];
    char *source[SB_SUITE_MAX_EXPERIMENTS][SB_RUN_MAX_DEVICES];
} workspaces;

/* The variants of se a prebuild on session s builds: those that fit its
 * device.  se's own array where every one does; else a copy in *copy, for
 * the caller to free (NULL out of memory: then se's own). */
static const sb_variant *fitting_variants(const sb_suite_experiment *se, const sb_session *s,
                                          int *n, sb_variant **copy)
{
    char why[ERR_LEN];
    *copy = NULL;
    *n = se->nvariants;
    if (!se->e->fits)
        return se->variants;
    sb_variant *keep = malloc(sizeof *keep * (size_t)(se->nvariants + 1));
    if (!keep)
        return se->variants;
    int m = 0;
    for (int i = 0; i < se->nvariants; i++)
        if (se->e->fits(&se->variants[i], &s->info, why, sizeof why) == 0)
            keep[m++] = se->variants[i];
    *copy = keep;
    *n = m;
    return keep;
}

static void workspaces_make(const sb_suite *suite, sb_session *sessions, int nsessions,
                            workspaces *all)
{
    size_t most = (size_t)(suite->nexperiments * nsessions) + 1;
    sb_prebuild_job *jobs = calloc(most, sizeof *jobs);
    sb_variant **copies = calloc(most, sizeof *copies);
    int njobs = 0;
    for (int x = 0; x < suite->nexperiments; x++)
        for (int si = 0; si < nsessions; si++) {
            sb_session *s = &sessions[si];
            char err[ERR_LEN];
            if (!hosts[s->run_device])
                hosts[s->run_device] =
                    sb_host_sets_new(s->slot.vt, s->dev, s->slot.provides.host_alloc);
            all->source[x][si] = sb_kernel_source(s->slot.vt->prelude,
                                                  suite->experiments[x].e->source, err, sizeof err);
            all->ws[x][si] = hosts[s->run_device] && all->source[x][si]
                                 ? sb_workspace_new(s->slot.vt, s->dev, hosts[s->run_device])
                                 : NULL;
            if (jobs && copies) {
                int n;
                const sb_variant *vs =
                    fitting_variants(&suite->experiments[x], s, &n, &copies[njobs]);
                jobs[njobs++] = (sb_prebuild_job){all->ws[x][si], all->source[x][si], vs, n};
            }
        }
    if (jobs && copies && nsessions > 0 && !sb_interrupted()) {
        sb_progress_step(sessions[0].label, suite->experiments[0].e->name,
                         "(building every program)");
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        sb_workspace_prebuild_all(jobs, njobs, sb_workspace_threads());
        lap(&spent.build, &t0);
    }
    for (int j = 0; copies && j < njobs; j++)
        free(copies[j]);
    free(copies);
    free(jobs);
}

static void workspace_done(workspaces *all, int x, int si)
{
    sb_workspace_free(all->ws[x][si]);
    free(all->source[x][si]);
    all->ws[x][si] = NULL;
    all->source[x][si] = NULL;
}

/* Every chosen variant of one experiment on one session, in order. */
static int run_on_session(const sb_suite *suite, sb_session *s, const sb_suite_experiment *se,
                          const sb_problem *size, void *host, sb_workspace *ws,
                          const char *source, sb_run *run)
{
    const sb_experiment *e = se->e;
    char err[ERR_LEN];
    if (!source) {
        /* Read again for its message: the plan had found it readable. */
        free(sb_kernel_source(s->slot.vt->prelude, e->source, err, sizeof err));
        report_failure(s, e, NULL, "%s", err);
        return SB_EXIT_IO;
    }
    if (!ws)
        return SB_EXIT_RUNTIME;
    return run_variants(suite, s, se, size, host, ws, source, run);
}

/* The variants the run will try: every chosen one on every session. */
static int count_variants(const sb_suite *suite, int nsessions)
{
    int total = 0;
    for (int x = 0; x < suite->nexperiments; x++)
        total += suite->experiments[x].nvariants * nsessions;
    return total;
}

/* The kernels the run may build: each variant that runs a kernel of its
   own, in every session (a program the workspace already holds, or a
   cache, makes fewer). */
static int count_builds(const sb_suite *suite, int nsessions)
{
    int total = 0;
    for (int x = 0; x < suite->nexperiments; x++)
        for (int i = 0; i < suite->experiments[x].nvariants; i++) {
            int role = suite->experiments[x].variants[i].role;
            total += role != SB_ROLE_API_COPY && role != SB_ROLE_VENDOR ? nsessions : 0;
        }
    return total;
}

/* One experiment's inputs and reference, made on a thread of their own
 * while the experiment before is measured (host work, no device), so
 * that the device does not wait for them. */
typedef struct prepared {
    const sb_experiment *e;
    sb_problem size;
    unsigned seed;
    void *host;
    int failed;
    double seconds;
    int threaded;
    pthread_t thread;
    char err[ERR_LEN];
} prepared;

static void *prepare_now(void *arg)
{
    prepared *p = arg;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    p->failed = p->e->prepare(&p->size, p->seed, &p->host, p->err, sizeof p->err);
    p->seconds = ms_since(&t0) * 1e-3;
    return NULL;
}

/* Start making experiment x's inputs; on a thread when ahead is set and
   one can be made, else here and now. */
static void prepare_start(const sb_suite *suite, sb_session *sessions, int nsessions, int x,
                          int ahead, prepared *p)
{
    memset(p, 0, sizeof *p);
    p->e = suite->experiments[x].e;
    p->size = sb_run_size(suite, p->e, sessions, nsessions);
    p->seed = suite->seed;
    p->threaded = ahead && pthread_create(&p->thread, NULL, prepare_now, p) == 0;
    if (!p->threaded)
        prepare_now(p);
}

static void prepare_wait(prepared *p)
{
    if (p->threaded)
        pthread_join(p->thread, NULL);
    p->threaded = 0;
    spent.prepare += p->seconds;
}

/* Whether two sessions may be on one physical device: one where their
   PCI addresses or their UUIDs match (either is enough: two APIs need not
   word both alike); two where they have one to compare and none matches;
   of one backend, where its platform and index match (a device opened
   twice); else, where nothing tells them apart (two APIs, one without an
   address), assumed one, so that they are measured one after another as
   before.  Two sessions of one GPU measured at once would each see half
   of it. */
static int same_hardware(const sb_session *a, const sb_session *b)
{
    const sb_device_info *x = &a->info, *y = &b->info;
    int pci = x->pci_bus_id[0] && y->pci_bus_id[0], uuid = x->uuid[0] && y->uuid[0];
    if ((pci && strcmp(x->pci_bus_id, y->pci_bus_id) == 0) ||
        (uuid && strcmp(x->uuid, y->uuid) == 0))
        return 1;
    if (pci || uuid)
        return 0;
    if (strcmp(a->slot.name, b->slot.name) == 0)
        return x->platform_index == y->platform_index && x->device_index == y->device_index;
    return 1;
}

/* The lanes: sessions of one physical device share one (measured in
   session order, as one device cannot measure two things at once), and
   lanes run at the same time.  lane_of[si] numbers them in the order of
   their first sessions; returns how many. */
static int make_lanes(const sb_session *sessions, int nsessions, int *lane_of)
{
    int nlanes = 0;
    for (int si = 0; si < nsessions; si++) {
        lane_of[si] = -1;
        for (int sj = 0; sj < si && lane_of[si] < 0; sj++)
            if (same_hardware(&sessions[si], &sessions[sj]))
                lane_of[si] = lane_of[sj];
        if (lane_of[si] < 0)
            lane_of[si] = nlanes++;
    }
    return nlanes;
}

/* One lane's share of an experiment, on a thread of its own. */
typedef struct lane_job {
    const sb_suite *suite;
    sb_session *sessions;
    int nsessions, x, lane;
    const int *lane_of;
    prepared *p;
    workspaces *all;
    sb_run *run;
    int status;
    int threaded;
    pthread_t thread;
} lane_job;

static void add_time(host_time *to, const host_time *t)
{
    to->prepare += t->prepare, to->build += t->build, to->variants += t->variants;
    to->alloc += t->alloc, to->first += t->first, to->warm += t->warm;
    to->timed += t->timed, to->poison += t->poison, to->download += t->download;
    to->compare += t->compare, to->record += t->record;
}

/* The lane's sessions in order (every session, lane < 0), each once its
   workspace is done with. */
static void *run_lane(void *arg)
{
    lane_job *j = arg;
    const sb_suite_experiment *se = &j->suite->experiments[j->x];
    for (int si = 0; si < j->nsessions && !sb_interrupted(); si++) {
        if (j->lane >= 0 && j->lane_of[si] != j->lane)
            continue;
        int st = run_on_session(j->suite, &j->sessions[si], se, &j->p->size, j->p->host,
                                j->all->ws[j->x][si], j->all->source[j->x][si], j->run);
        if (st && !j->status)
            j->status = st;
        workspace_done(j->all, j->x, si);
    }
    if (j->threaded) {
        pthread_mutex_lock(&run_lock);
        add_time(&spent_by_lanes, &spent);
        pthread_mutex_unlock(&run_lock);
    }
    return NULL;
}

/* A result's place: its session's slot, then where it came among them. */
typedef struct placed {
    int slot;
    size_t at;
} placed;

static int by_place(const void *pa, const void *pb)
{
    const placed *a = pa, *b = pb;
    if (a->slot != b->slot)
        return (a->slot > b->slot) - (a->slot < b->slot);
    return (a->at > b->at) - (a->at < b->at);
}

/* The results lanes added from first on, in the order one lane after
   another would have added them: by session, each session's in the order
   it added them.  Out of host memory they stay as they came. */
static void order_results(sb_run *run, size_t first)
{
    size_t n = run->nresults - first;
    sb_result *r = run->results + first, *copy = malloc((n + 1) * sizeof *copy);
    placed *order = malloc((n + 1) * sizeof *order);
    if (copy && order) {
        for (size_t i = 0; i < n; i++)
            order[i] = (placed){r[i].device_slot, i};
        qsort(order, n, sizeof *order, by_place);
        memcpy(copy, r, n * sizeof *copy);
        for (size_t i = 0; i < n; i++)
            r[i] = copy[order[i].at];
    }
    free(copy);
    free(order);
}

/* Experiment x on every session, from its prepared inputs: the lanes at
   the same time, each on a thread (--serial, or a single lane: one after
   another, here); the run's status so far, with this experiment's first
   failure if it had none. */
static int run_experiment(const sb_suite *suite, sb_session *sessions, int nsessions, int x,
                          prepared *p, workspaces *all, sb_run *run, int status)
{
    const sb_suite_experiment *se = &suite->experiments[x];
    if (p->failed) {
        sb_say("%s: %s", se->e->name, p->err);
        atomic_fetch_add(&failures, 1);
        return status ? status : SB_EXIT_RUNTIME;
    }
    int lane_of[SB_RUN_MAX_DEVICES];
    int nlanes = suite->serial ? 1 : make_lanes(sessions, nsessions, lane_of);
    lane_job jobs[SB_RUN_MAX_DEVICES];
    size_t first = run->nresults;
    for (int l = 0; l < nlanes; l++) {
        jobs[l] = (lane_job){suite, sessions, nsessions, x, nlanes > 1 ? l : -1, lane_of, p,
                             all, run, SB_EXIT_OK, 0, 0};
        jobs[l].threaded =
            nlanes > 1 && pthread_create(&jobs[l].thread, NULL, run_lane, &jobs[l]) == 0;
        if (!jobs[l].threaded)
            run_lane(&jobs[l]);
    }
    for (int l = 0; l < nlanes; l++) {
        if (jobs[l].threaded)
            pthread_join(jobs[l].thread, NULL);
        if (jobs[l].status && !status)
            status = jobs[l].status;
    }
    if (nlanes > 1)
        order_results(run, first);
    se->e->release(p->host);
    return status;
}

/* Whether the next experiment's inputs may be made while this one is
   measured: both experiments' host data at once (reckoned generously at
   16 bytes an element) must fit twice over in what the host has free. */
static int may_prepare_ahead(const prepared *now, const sb_suite *suite, sb_session *sessions,
                             int nsessions, int x)
{
    sb_problem next = sb_run_size(suite, suite->experiments[x].e, sessions, nsessions);
    double need = 16.0 * ((double)now->size.rows * (double)now->size.cols +
                          (double)next.rows * (double)next.cols);
    uint64_t avail = sb_host_available();
    return avail > 0 && (double)avail > 2 * need;
}

/* Programs whose failed build is the user's doing (experiment.h:
   build_failed), all built by now: the first failure's line, and the
   usage status, before anything is measured. */
static int user_builds(const sb_suite *suite, sb_session *sessions, int nsessions,
                       workspaces *all)
{
    char err[ERR_LEN], line[ERR_LEN];
    for (int x = 0; x < suite->nexperiments; x++) {
        const sb_suite_experiment *se = &suite->experiments[x];
        for (int si = 0; se->e->build_failed && si < nsessions; si++)
            for (int i = 0; all->ws[x][si] && i < se->nvariants; i++) {
                if (sb_workspace_program(all->ws[x][si], all->source[x][si], &se->variants[i],
                                         err, sizeof err))
                    continue;
                se->e->build_failed(&se->variants[i], sessions[si].slot.name, err, line,
                                    sizeof line);
                sb_say("%s", line);
                return SB_EXIT_USAGE;
            }
    }
    return SB_EXIT_OK;
}

int sb_execute(const sb_suite *suite, sb_session *sessions, int nsessions, sb_run *run,
               sb_experiment_done *done, void *ctx)
{
    int status = SB_EXIT_OK;
    atomic_store(&failures, 0);
    memset(&spent, 0, sizeof spent);
    memset(&spent_by_lanes, 0, sizeof spent_by_lanes);
    memset(warmth, 0, sizeof warmth);
    sb_progress_begin(count_variants(suite, nsessions), count_builds(suite, nsessions),
                      !suite->quiet && isatty(STDERR_FILENO));
    workspaces *all = calloc(1, sizeof *all);
    if (!all) {
        sb_say("out of host memory");
        return SB_EXIT_RUNTIME;
    }
    workspaces_make(suite, sessions, nsessions, all);
    if (user_builds(suite, sessions, nsessions, all)) {
        for (int x = 0; x < suite->nexperiments; x++)
            for (int si = 0; si < nsessions; si++)
                workspace_done(all, x, si);
        free(all);
        return SB_EXIT_USAGE;
    }
    prepared *pair = calloc(2, sizeof *pair), *now = pair, *next = pair ? pair + 1 : NULL;
    if (pair && suite->nexperiments > 0) {
        prepare_start(suite, sessions, nsessions, 0, 0, now);
        prepare_wait(now);
    }
    int ran = 0;
    for (int x = 0; pair && x < suite->nexperiments && !sb_interrupted(); x++) {
        ran = 1;
        if (x + 1 < suite->nexperiments)
            prepare_start(suite, sessions, nsessions, x + 1,
                          may_prepare_ahead(now, suite, sessions, nsessions, x + 1), next);
        status = run_experiment(suite, sessions, nsessions, x, now, all, run, status);
        if (done && !sb_interrupted()) {
            sb_progress_clear();
            done(ctx, run);
        }
        if (x + 1 < suite->nexperiments) {
            prepare_wait(next);
            prepared *t = now;
            now = next;
            next = t;
            if (sb_interrupted() && !now->failed)
                now->e->release(now->host); /* made, never measured */
        }
    }
    /* A signal before the first experiment ran: its inputs were made for
       nothing. */
    if (pair && suite->nexperiments > 0 && !ran && !now->failed)
        now->e->release(now->host);
    sb_progress_clear();
    for (int x = 0; x < suite->nexperiments; x++)
        for (int si = 0; si < nsessions; si++)
            workspace_done(all, x, si);
    free(all);
    free(pair);
    for (int i = 0; i < SB_RUN_MAX_DEVICES; i++) {
        sb_host_sets_free(hosts[i]);
        hosts[i] = NULL;
    }
    run->interrupted = sb_interrupted() != 0;
    run->failures = atomic_load(&failures);
    add_time(&spent, &spent_by_lanes);
    if (getenv("SIMTBENCH_TIMINGS")) {
        sb_say("timings: inputs and references %.2f s, kernel builds %.2f s, variants %.2f s",
               spent.prepare, spent.build, spent.variants);
        sb_say("timings: variants: allocate %.2f s, first launch %.2f s, warm-up %.2f s, timed "
               "%.2f s, poison %.2f s, read back %.2f s, compare %.2f s, "
               "record %.2f s",
               spent.alloc, spent.first, spent.warm, spent.timed, spent.poison,
               spent.download, spent.compare, spent.record);
    }
    return status;
}
