/* The executor (executor.h): the measuring policy, once for every backend
 * and experiment.  A variant goes through named steps: plan, allocate and
 * upload, resolve the kernel's arguments, a first launch that fails fast,
 * time (timing.h), verify, record. */
#include "run/executor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "experiments/variant.h"
#include "run/host_data.h"
#include "run/interrupt.h"
#include "run/kernel_source.h"
#include "run/preflight.h"
#include "run/ptx_summary.h"
#include "run/registry.h"
#include "run/timing.h"
#include "run/workspace.h"

#define ERR_LEN 2048

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
    void *poison;
    sb_arg args[SB_MAX_ARGS];
    sb_timed_op op;
    double *samples;         /* suite->reps device times, ms */
    double verify_ms;
    char err[ERR_LEN];
} variant_run;

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
    fprintf(stderr, "simtbench: %s: %s/%s: %s\n", s->slot.name, e->name, v ? v->name : "*", msg);
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

/* Device buffers for the plan: big inputs from the workspace's cache,
 * the rest allocated (inputs uploaded); host buffers for the outputs, in
 * order, and poison for the largest. */
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
        if (vt->alloc(vr->s->dev, bytes, &vr->bufs[i]))
            return backend_failure(vr);
        vr->owned[i] = 1; /* freed with the variant, also when the upload fails */
        if (init && vt->upload(vr->bufs[i], init, bytes))
            return backend_failure(vr);
        if (init)
            continue;
        if (bytes > max_out)
            max_out = bytes;
        vr->outputs[nout] = sb_workspace_output(vr->ws, nout, bytes, vr->err, sizeof vr->err);
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
        fprintf(stderr, "simtbench: note: %s: %s/%s left out: %s\n", vr->s->slot.name,
                vr->e->name, vr->v->name, vr->err);
    *left_out = 1;
    return SB_EXIT_OK;
}

/* The warm-up, then the timed launches into samples. */
static int time_variant(variant_run *vr)
{
    int reps = vr->suite->reps;
    vr->samples = sb_host_alloc(sizeof *vr->samples * (size_t)reps, vr->err, sizeof vr->err);
    if (!vr->samples)
        return SB_EXIT_RUNTIME;
    if (sb_warm_up(&vr->op, vr->suite->warmup, vr->err, sizeof vr->err) ||
        sb_time_launches(&vr->op, reps, SB_BATCH_LEAD, vr->samples, vr->err, sizeof vr->err))
        return SB_EXIT_RUNTIME;
    return SB_EXIT_OK;
}

/* The output of a launch made after the timed ones, into poisoned
 * buffers, must match the host reference before any figure is kept.
 * verify_ms: the read-back and the comparison. */
static int verify_variant(variant_run *vr)
{
    const sb_backend *vt = vr->s->slot.vt;
    const sb_plan *plan = &vr->plan;
    for (int i = 0; i < plan->nbuffers; i++)
        if (!plan->buffer[i].init && vt->upload(vr->bufs[i], vr->poison, plan->buffer[i].bytes))
            return backend_failure(vr);
    if (sb_launch_once(&vr->op, NULL))
        return backend_failure(vr);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* The host buffers are poisoned too: they hold the previous variant's
       output, which a download that reports success and copies nothing
       would leave there to be verified. */
    int nout = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        if (plan->buffer[i].init)
            continue;
        void *host = vr->outputs[nout++];
        sb_poison(host, plan->buffer[i].bytes);
        if (vt->download(host, vr->bufs[i], plan->buffer[i].bytes))
            return backend_failure(vr);
    }
    char why[1024] = "";
    int wrong = vr->e->verify(vr->host, vr->p, vr->v, vr->outputs, why, sizeof why);
    vr->verify_ms = ms_since(&t0);
    if (wrong) {
        snprintf(vr->err, sizeof vr->err, "wrong result, no figure reported: %s", why);
        return SB_EXIT_WRONG;
    }
    return SB_EXIT_OK;
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
             : v->role == SB_ROLE_VENDOR ? s->slot.vt->vendor_transpose_name
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
    r->npatterns = plan->npatterns;
    for (int i = 0; i < plan->npatterns && i < 2; i++) {
        const char *why = sb_pattern_check(&plan->pattern[i]);
        if (why) {
            snprintf(vr->err, sizeof vr->err, "the model rejects the declared pattern: %s", why);
            return SB_EXIT_RUNTIME;
        }
        memcpy(r->pattern_label[i], plan->pattern_label[i], sizeof r->pattern_label[i]);
        r->pattern[i] = plan->pattern[i];
    }
    return SB_EXIT_OK;
}

static int make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* Summarise the variant's PTX into the record whenever the API has PTX, so
 * that the report can say whether two APIs emitted the same memory
 * instructions; with --dump-ptx, also save it.  An API without PTX (PoCL)
 * is silent unless the user asked for the files. */
static void record_ptx(const variant_run *vr, sb_result *r)
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
    sb_ptx_summary sum;
    char why[128];
    if (sb_ptx_summarize(ptx, vr->v->kernel, &sum, why, sizeof why) == 0)
        sb_ptx_summary_format(&sum, r->ptx_memory, sizeof r->ptx_memory);
    if (dir) {
        char path[sizeof r->ptx_file];
        snprintf(path, sizeof path, "%s/%s.%s.%s.ptx", dir, vr->e->name, vr->v->name,
                 s->slot.name);
        FILE *f = make_dir(dir) ? NULL : fopen(path, "w");
        if (!f || fputs(ptx, f) == EOF || fclose(f))
            report_failure(s, vr->e, vr->v, "cannot write %s", path);
        else
            snprintf(r->ptx_file, sizeof r->ptx_file, "%s", path);
    }
    free(ptx);
}

/* The raw result of a verified variant, added to run. */
static int record_result(variant_run *vr, sb_run *run)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    record_identity(vr, &r);
    if (sb_stats_compute(vr->samples, (size_t)vr->suite->reps, &r.ms)) {
        snprintf(vr->err, sizeof vr->err, "the device returned a time that is not a number");
        return SB_EXIT_RUNTIME;
    }
    record_compiler(vr, &r);
    int status = record_patterns(vr, &r);
    if (status)
        return status;
    r.verified = 1;
    r.host_ms = ms_since(&vr->t0);
    r.verify_ms = vr->verify_ms;
    if (vr->prog)
        record_ptx(vr, &r);
    /* Every repetition's time, for the interval of each verdict; the run
       keeps its own copy. */
    r.samples = vr->samples;
    r.nsamples = (size_t)vr->suite->reps;
    if (sb_run_add(run, &r)) {
        snprintf(vr->err, sizeof vr->err, "out of host memory");
        return SB_EXIT_RUNTIME;
    }
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
}

/* The steps after the plan, in order; the first failure ends them. */
static int measure_variant(variant_run *vr, sb_run *run)
{
    int status = allocate_buffers(vr), left_out = 0;
    if (!status) {
        resolve_arguments(vr);
        status = prepare_launch(vr);
    }
    if (!status)
        status = first_launch(vr, &left_out);
    if (status || left_out)
        return status;
    if (!(status = time_variant(vr)) && !(status = verify_variant(vr)))
        status = record_result(vr, run);
    return status;
}

/* One variant on one session: everything from the plan to the record. */
static int run_variant(variant_run *vr, sb_run *run)
{
    clock_gettime(CLOCK_MONOTONIC, &vr->t0);
    if (vr->e->plan(vr->host, vr->p, vr->v, &vr->s->info, &vr->plan, vr->err, sizeof vr->err)) {
        report_failure(vr->s, vr->e, vr->v, "%s", vr->err);
        return SB_EXIT_USAGE;
    }
    int status = measure_variant(vr, run);
    if (status)
        report_failure(vr->s, vr->e, vr->v, "%s", vr->err);
    release_variant(vr);
    return status;
}

static void progress(const sb_suite *suite, const sb_session *s, const sb_experiment *e,
                     const sb_variant *v, int i, int n)
{
    if (suite->quiet || !isatty(STDERR_FILENO))
        return;
    fprintf(stderr, "\r\033[K[%s] %s/%s (%d/%d)", s->slot.name, e->name, v->name, i + 1, n);
    fflush(stderr);
}

static void progress_done(const sb_suite *suite)
{
    if (!suite->quiet && isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
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
    if (v->role == SB_ROLE_VENDOR && !s->slot.provides.vendor_transpose) {
        if (!suite->quiet)
            fprintf(stderr, "simtbench: note: %s: %s/%s: no vendor library in this build, "
                            "row left out\n", s->slot.name, e->name, v->name);
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

/* Every chosen variant of one experiment on one session, in order. */
static int run_on_session(const sb_suite *suite, sb_session *s, const sb_suite_experiment *se,
                          const sb_problem *size, void *host, sb_run *run)
{
    const sb_experiment *e = se->e;
    char err[ERR_LEN];
    char *source = sb_kernel_source(s->slot.vt->prelude, e->source, err, sizeof err);
    if (!source) {
        report_failure(s, e, NULL, "%s", err);
        return SB_EXIT_IO;
    }
    sb_workspace *ws = sb_workspace_new(s->slot.vt, s->dev);
    variant_run *vr = malloc(sizeof *vr);
    int status = ws && vr ? SB_EXIT_OK : SB_EXIT_RUNTIME;
    for (int i = 0; i < se->nvariants && ws && vr && !sb_interrupted(); i++) {
        const sb_variant *v = &se->variants[i];
        progress(suite, s, e, v, i, se->nvariants);
        sb_program *prog;
        if (!variant_ready(suite, s, e, v, ws, source, &prog, &status))
            continue;
        *vr = (variant_run){.suite = suite, .s = s, .e = e, .p = size, .v = v, .host = host,
                            .prog = prog, .ws = ws};
        int st = run_variant(vr, run);
        if (st && !status)
            status = st;
    }
    progress_done(suite);
    sb_workspace_free(ws);
    free(vr);
    free(source);
    return status;
}

int sb_execute(const sb_suite *suite, sb_session *sessions, int nsessions, sb_run *run)
{
    int status = SB_EXIT_OK;
    for (int x = 0; x < suite->nexperiments && !sb_interrupted(); x++) {
        const sb_suite_experiment *se = &suite->experiments[x];
        const sb_experiment *e = se->e;
        sb_problem size = sb_run_size(suite, e, sessions, nsessions);
        /* Inputs and reference once, shared by every API. */
        void *host = NULL;
        char err[ERR_LEN];
        if (e->prepare(&size, suite->seed, &host, err, sizeof err)) {
            fprintf(stderr, "simtbench: %s: %s\n", e->name, err);
            if (!status)
                status = SB_EXIT_RUNTIME;
            continue;
        }
        for (int si = 0; si < nsessions && !sb_interrupted(); si++) {
            int st = run_on_session(suite, &sessions[si], se, &size, host, run);
            if (st && !status)
                status = st;
        }
        e->release(host);
    }
    run->interrupted = sb_interrupted() != 0;
    return status;
}
