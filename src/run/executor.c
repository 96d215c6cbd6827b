/* The executor (executor.h): the measuring policy, once for every backend
 * and experiment. */
#include "run/executor.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/host_data.h"
#include "run/kernel_source.h"
#include "run/ptx_summary.h"
#include "cli/options.h"
#include "experiments/variant.h"

#define ERR_LEN 2048
#define SB_WARMUP_MS 20.0        /* device time the warm-up lasts at least */
#define SB_WARMUP_MAX_EXTRA 1000 /* launches it may add to reach that time */
#define SB_BATCH_CHUNK 256       /* launches queued back to back before a wait */
#define SB_BATCH_LEAD 2          /* launches that open a timed batch, not recorded */
#define SB_BATCH_LEAD_MAX 8

/* Programs built for one experiment on one session, keyed by definitions:
 * variants that differ only in block shape or host parameters share one. */
typedef struct program_cache {
    int n;
    struct {
        char key[SB_MAX_DEFINES * 40 + 8];
        sb_program *prog;
    } entry[SB_MAX_VARIANTS];
} program_cache;

/* What the variants of one experiment on one session share, so that a
 * family of variants costs launches, not host work: device copies of the
 * inputs (read-only by contract; the final verification would catch a
 * kernel that wrote one), host buffers for the outputs, and the poison. */
#define SB_MAX_CACHED_INPUTS 8
/* Only the big inputs are cached, by address: small ones (a permutation
   table an experiment rewrites for each variant) are uploaded every time. */
#define SB_CACHE_INPUT_MIN (1u << 20)
typedef struct workspace {
    int ninputs;
    struct {
        const void *init;
        size_t bytes;
        sb_buffer *buf;
    } input[SB_MAX_CACHED_INPUTS];
    void *host_out[SB_MAX_BUFFERS];
    size_t host_out_bytes[SB_MAX_BUFFERS];
    void *poison;
    size_t poison_bytes;
} workspace;

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

static sb_program *cached_program(program_cache *cache, sb_session *s, const char *source,
                                  const sb_variant *v, int *status, char *err, size_t n)
{
    char key[sizeof cache->entry[0].key];
    sb_variant_params(v, key, sizeof key);
    for (int i = 0; i < cache->n; i++)
        if (strcmp(cache->entry[i].key, key) == 0)
            return cache->entry[i].prog;
    const char *defs[SB_MAX_DEFINES];
    for (int i = 0; i < v->ndefines; i++)
        defs[i] = v->defines[i];
    sb_program *p = NULL;
    if (s->slot.vt->build(s->dev, source, defs, v->ndefines, &p)) {
        snprintf(err, n, "%s", s->slot.vt->last_error());
        *status = SB_EXIT_RUNTIME;
        return NULL;
    }
    if (cache->n < SB_MAX_VARIANTS) {
        snprintf(cache->entry[cache->n].key, sizeof cache->entry[0].key, "%s", key);
        cache->entry[cache->n++].prog = p;
    }
    return p;
}

static void release_cache(program_cache *cache, const sb_backend *vt)
{
    for (int i = 0; i < cache->n; i++)
        vt->release_program(cache->entry[i].prog);
    cache->n = 0;
}

static int make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* Summarise the variant's PTX into the record whenever the API has PTX, so
 * that the report can say whether two APIs emitted the same memory
 * instructions; with --dump-ptx, also save it.  An API without PTX (PoCL)
 * is silent unless the user asked for the files. */
static void capture_ptx(const sb_suite *suite, sb_session *s, const sb_experiment *e,
                        const sb_variant *v, sb_program *prog, sb_result *r)
{
    char *ptx = NULL;
    if (s->slot.vt->program_ptx(prog, &ptx)) {
        if (suite->ptx_dir)
            report_failure(s, e, v, "no PTX to save: %s",
                           s->slot.provides.program_ptx ? s->slot.vt->last_error()
                                                        : "not supported");
        return;
    }
    sb_ptx_summary sum;
    char why[128];
    if (sb_ptx_summarize(ptx, v->kernel, &sum, why, sizeof why) == 0)
        sb_ptx_summary_format(&sum, r->ptx_memory, sizeof r->ptx_memory);
    if (suite->ptx_dir) {
        char path[sizeof r->ptx_file];
        snprintf(path, sizeof path, "%s/%s.%s.%s.ptx", suite->ptx_dir, e->name, v->name,
                 s->slot.name);
        FILE *f = make_dir(suite->ptx_dir) ? NULL : fopen(path, "w");
        if (!f || fputs(ptx, f) == EOF || fclose(f)) {
            report_failure(s, e, v, "cannot write %s", path);
        } else {
            snprintf(r->ptx_file, sizeof r->ptx_file, "%s", path);
        }
    }
    free(ptx);
}

/* The device copy of an input, uploaded on first use. */
static sb_buffer *cached_input(workspace *w, const sb_backend *vt, sb_device *dev,
                               const void *init, size_t bytes)
{
    for (int i = 0; i < w->ninputs; i++)
        if (w->input[i].init == init && w->input[i].bytes == bytes)
            return w->input[i].buf;
    if (w->ninputs == SB_MAX_CACHED_INPUTS) {
        vt->free(w->input[0].buf);
        memmove(&w->input[0], &w->input[1], sizeof w->input[0] * (SB_MAX_CACHED_INPUTS - 1));
        w->ninputs--;
    }
    sb_buffer *b = NULL;
    if (vt->alloc(dev, bytes, &b))
        return NULL;
    if (vt->upload(b, init, bytes)) {
        vt->free(b);
        return NULL;
    }
    w->input[w->ninputs].init = init;
    w->input[w->ninputs].bytes = bytes;
    w->input[w->ninputs++].buf = b;
    return b;
}

/* A host buffer of at least bytes in *slot, grown as needed. */
static void *grown(void **slot, size_t *have, size_t bytes, char *err, size_t n)
{
    if (*have >= bytes && *slot)
        return *slot;
    free(*slot);
    *slot = sb_host_alloc(bytes, err, n);
    *have = *slot ? bytes : 0;
    return *slot;
}

static void workspace_free(workspace *w, const sb_backend *vt)
{
    for (int i = 0; i < w->ninputs; i++)
        vt->free(w->input[i].buf);
    for (int i = 0; i < SB_MAX_BUFFERS; i++)
        free(w->host_out[i]);
    free(w->poison);
    memset(w, 0, sizeof *w);
}

/* What the variant times, as launch_once needs it. */
typedef struct timed_op {
    const sb_backend *vt;
    int batched; /* the backend provides batch_begin/batch_end */
    const sb_variant *v;
    const sb_plan *plan;
    sb_buffer **bufs;
    sb_kernel *k;
    const sb_arg *args;
} timed_op;

/* One launch of whatever the variant times: its kernel, the API's own
 * copy, or the vendor library's transpose (plan args 0 and 1 are the
 * matrix's rows and columns). */
static int launch_once(const timed_op *op, double *ms)
{
    const sb_backend *vt = op->vt;
    const sb_plan *plan = op->plan;
    if (op->v->role == SB_ROLE_API_COPY)
        return vt->copy(op->bufs[1], op->bufs[0], plan->buffer[0].bytes, ms);
    if (op->v->role == SB_ROLE_VENDOR)
        return vt->vendor_transpose(op->bufs[1], op->bufs[0], plan->arg[0].i, plan->arg[1].i,
                                    ms);
    return vt->launch(op->k, &plan->geometry, op->args, plan->nargs, ms);
}

/* n timed launches, their device times in ms[0..n-1].  Where the backend
 * batches, they are queued back to back, SB_BATCH_CHUNK at a time, with no
 * host round trip between them; each batch starts with lead untimed-for-
 * the-record launches (their times are dropped), so that the first
 * recorded launch follows a busy GPU and not the host's wait for the
 * previous batch.  Else each launch waits for itself.  On failure the
 * first error is in err. */
static int time_launches(const timed_op *op, sb_device *dev, int n, int lead, double *ms,
                         char *err, size_t errn)
{
    const sb_backend *vt = op->vt;
    int batched = op->batched;
    double dropped[SB_BATCH_LEAD_MAX];
    if (!batched || lead < 0)
        lead = 0;
    if (lead > SB_BATCH_LEAD_MAX)
        lead = SB_BATCH_LEAD_MAX;
    for (int done = 0; done < n;) {
        int m = !batched ? 1 : n - done < SB_BATCH_CHUNK ? n - done : SB_BATCH_CHUNK;
        if (batched && vt->batch_begin(dev, lead + m)) {
            snprintf(err, errn, "%s", vt->last_error());
            return -1;
        }
        int failed = 0;
        for (int i = 0; i < lead + m && !failed; i++)
            if ((failed = launch_once(op, i < lead ? &dropped[i] : &ms[done + i - lead]) != 0))
                snprintf(err, errn, "%s", vt->last_error());
        /* The batch ends even after a failure, so that the device is left
           usable; the first failure is the one reported. */
        if (batched && vt->batch_end(dev) && !failed) {
            snprintf(err, errn, "%s", vt->last_error());
            failed = 1;
        }
        if (failed)
            return -1;
        done += m;
    }
    return 0;
}

/* The warm-up: the launches asked for, then, when there were any, more
 * until they add up to SB_WARMUP_MS of device time (at most
 * SB_WARMUP_MAX_EXTRA more), so that clocks have settled before the first
 * timed launch.  The extra launches are sized from the time per launch
 * measured so far. */
static int warm_up(const timed_op *op, sb_device *dev, int warmup, char *err, size_t errn)
{
    double ms[SB_BATCH_CHUNK], warm_ms = 0.0;
    int done = 0, extra = 0;
    for (;;) {
        int m;
        if (done < warmup) {
            m = warmup - done;
        } else if (warmup > 0 && warm_ms < SB_WARMUP_MS && extra < SB_WARMUP_MAX_EXTRA) {
            double left = SB_WARMUP_MAX_EXTRA - extra, per = warm_ms / done;
            double need = per > 0 ? ceil((SB_WARMUP_MS - warm_ms) / per) : left;
            m = need < 1 ? 1 : need < left ? (int)need : (int)left;
            extra += m < SB_BATCH_CHUNK ? m : SB_BATCH_CHUNK;
        } else {
            return 0;
        }
        if (m > SB_BATCH_CHUNK)
            m = SB_BATCH_CHUNK;
        if (time_launches(op, dev, m, 0, ms, err, errn))
            return -1;
        for (int i = 0; i < m; i++)
            warm_ms += ms[i];
        done += m;
    }
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-6;
}

/* Upload poison into every output, run once, read the outputs back and
 * compare them with the reference; *verify_ms: the read-back and the
 * comparison. */
static int run_and_verify(sb_session *s, const sb_experiment *e, const sb_problem *p,
                          const sb_variant *v, void *host, const timed_op *op, void **outputs,
                          void *poison, double *verify_ms, char *err, size_t n)
{
    const sb_backend *vt = s->slot.vt;
    const sb_plan *plan = op->plan;
    sb_buffer **bufs = op->bufs;
    int nout = 0;
    for (int i = 0; i < plan->nbuffers; i++)
        if (!plan->buffer[i].init && vt->upload(bufs[i], poison, plan->buffer[i].bytes)) {
            snprintf(err, n, "%s", vt->last_error());
            return SB_EXIT_RUNTIME;
        }
    if (launch_once(op, NULL)) {
        snprintf(err, n, "%s", vt->last_error());
        return SB_EXIT_RUNTIME;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < plan->nbuffers; i++)
        if (!plan->buffer[i].init) {
            if (vt->download(outputs[nout], bufs[i], plan->buffer[i].bytes)) {
                snprintf(err, n, "%s", vt->last_error());
                return SB_EXIT_RUNTIME;
            }
            nout++;
        }
    char why[1024] = "";
    int wrong = e->verify(host, p, v, outputs, why, sizeof why);
    *verify_ms = ms_since(&t0);
    if (wrong) {
        snprintf(err, n, "wrong result, no figure reported: %s", why);
        return SB_EXIT_WRONG;
    }
    return SB_EXIT_OK;
}

static double headline(sb_quantity q, const sb_plan *plan, const sb_device_info *info, double ms)
{
    switch (q) {
    case SB_QUANTITY_BANDWIDTH:
        return plan->bytes / (ms * 1e-3) / 1e9;
    case SB_QUANTITY_FLOPS:
        return plan->flops / (ms * 1e-3) / 1e9;
    case SB_QUANTITY_ACCESS:
        /* Time one multiprocessor spends per warp-wide access, if the
           accesses are spread evenly: comparable across strides. */
        return plan->accesses > 0
                   ? ms * 1e6 * (info->compute_units > 0 ? info->compute_units : 1) / plan->accesses
                   : 0.0;
    }
    return 0.0;
}

/* One variant on one session: everything from allocation to the record. */
static int run_variant(const sb_suite *suite, sb_session *s, const sb_experiment *e,
                       const sb_problem *p, const sb_variant *v, void *host, sb_program *prog,
                       workspace *ws, sb_run *run)
{
    const sb_backend *vt = s->slot.vt;
    char err[ERR_LEN] = "";
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (e->plan(host, p, v, &s->info, &plan, err, sizeof err)) {
        report_failure(s, e, v, "%s", err);
        return SB_EXIT_USAGE;
    }

    int status = SB_EXIT_OK;
    sb_buffer *bufs[SB_MAX_BUFFERS] = {0};
    int owned[SB_MAX_BUFFERS] = {0};
    void *outputs[SB_MAX_BUFFERS] = {0};
    void *poison = NULL;
    sb_kernel *k = NULL;
    double *samples = NULL;
    sb_arg args[SB_MAX_ARGS];
    size_t max_out = 0;
    timed_op op = {vt, s->slot.provides.batch, v, &plan, bufs, NULL, args};

    int nout = 0;
    for (int i = 0; i < plan.nbuffers; i++) {
        size_t bytes = plan.buffer[i].bytes;
        if (plan.buffer[i].init && bytes >= SB_CACHE_INPUT_MIN) {
            bufs[i] = cached_input(ws, vt, s->dev, plan.buffer[i].init, bytes);
            if (!bufs[i]) {
                snprintf(err, sizeof err, "%s", vt->last_error());
                status = SB_EXIT_RUNTIME;
                goto done;
            }
            continue;
        }
        if (vt->alloc(s->dev, bytes, &bufs[i]) ||
            (plan.buffer[i].init && vt->upload(bufs[i], plan.buffer[i].init, bytes))) {
            snprintf(err, sizeof err, "%s", vt->last_error());
            status = SB_EXIT_RUNTIME;
            goto done;
        }
        owned[i] = 1;
        if (plan.buffer[i].init)
            continue;
        if (bytes > max_out)
            max_out = bytes;
        outputs[nout] = grown(&ws->host_out[nout], &ws->host_out_bytes[nout], bytes, err,
                              sizeof err);
        if (!outputs[nout++]) {
            status = SB_EXIT_RUNTIME;
            goto done;
        }
    }
    if (ws->poison_bytes < max_out) {
        if (!grown(&ws->poison, &ws->poison_bytes, max_out, err, sizeof err)) {
            status = SB_EXIT_RUNTIME;
            goto done;
        }
        sb_poison(ws->poison, max_out);
    }
    poison = ws->poison;
    samples = sb_host_alloc(sizeof *samples * (size_t)suite->reps, err, sizeof err);
    if (!samples) {
        status = SB_EXIT_RUNTIME;
        goto done;
    }

    for (int i = 0; i < plan.nargs; i++) {
        switch (plan.arg[i].kind) {
        case SB_PLAN_BUFFER:
            args[i].kind = SB_ARG_BUFFER;
            args[i].v.buf = bufs[plan.arg[i].buffer];
            break;
        case SB_PLAN_INT:
            args[i].kind = SB_ARG_INT;
            args[i].v.i = plan.arg[i].i;
            break;
        case SB_PLAN_FLOAT:
            args[i].kind = SB_ARG_FLOAT;
            args[i].v.f = plan.arg[i].f;
            break;
        }
    }
    if (v->role != SB_ROLE_API_COPY && v->role != SB_ROLE_VENDOR && vt->kernel(prog, v->kernel, &k)) {
        snprintf(err, sizeof err, "%s", vt->last_error());
        status = SB_EXIT_RUNTIME;
        goto done;
    }

    op.k = k;

    /* One untimed launch first: it fails fast (an optional vendor library
       missing at run time is a note, not a failure of the run). */
    if (launch_once(&op, NULL)) {
        snprintf(err, sizeof err, "%s", vt->last_error());
        status = SB_EXIT_RUNTIME;
    }
    if (status == SB_EXIT_RUNTIME && v->role == SB_ROLE_VENDOR) {
        if (!suite->quiet)
            fprintf(stderr, "simtbench: note: %s: %s/%s left out: %s\n", s->slot.name, e->name,
                    v->name, err);
        status = SB_EXIT_OK;
        goto done;
    }
    if (status)
        goto done;
    if (warm_up(&op, s->dev, suite->warmup, err, sizeof err) ||
        time_launches(&op, s->dev, suite->reps, SB_BATCH_LEAD, samples, err, sizeof err)) {
        status = SB_EXIT_RUNTIME;
        goto done;
    }
    /* The output of a launch made after the timed ones, into poisoned
       buffers, must match the host reference before any figure is kept. */
    double verify_ms = 0.0;
    status = run_and_verify(s, e, p, v, host, &op, outputs, poison, &verify_ms, err, sizeof err);
    if (status)
        goto done;

    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", s->slot.name);
    r.device_slot = s->run_device;
    snprintf(r.experiment, sizeof r.experiment, "%s", e->name);
    snprintf(r.family, sizeof r.family, "%s", e->family);
    snprintf(r.variant, sizeof r.variant, "%s", v->name);
    snprintf(r.kernel, sizeof r.kernel, "%s",
             v->role == SB_ROLE_API_COPY ? "(API copy)" : v->role == SB_ROLE_VENDOR ? vt->vendor_transpose_name : v->kernel);
    sb_variant_params(v, r.params, sizeof r.params);
    r.rows = p->rows;
    r.cols = p->cols;
    memcpy(r.grid, plan.geometry.grid, sizeof r.grid);
    memcpy(r.block, plan.geometry.block, sizeof r.block);
    r.reps = suite->reps;
    r.warmup = suite->warmup;
    if (sb_stats_compute(samples, (size_t)suite->reps, &r.ms)) {
        snprintf(err, sizeof err, "the device returned a time that is not a number");
        status = SB_EXIT_RUNTIME;
        goto done;
    }
    r.bytes = plan.bytes;
    r.flops = plan.flops;
    r.accesses = plan.accesses;
    r.intensity = plan.intensity;
    r.quantity = e->quantity;
    r.value = headline(e->quantity, &plan, &s->info, r.ms.median);
    r.value_best = headline(e->quantity, &plan, &s->info, r.ms.min);
    r.group = v->group;
    r.baseline = v->baseline;
    r.occupancy = -1;
    if (k) {
        int blocks = 0;
        unsigned threads = plan.geometry.block[0] * plan.geometry.block[1] * plan.geometry.block[2];
        if (vt->occupancy(k, (int)threads, &blocks) == 0)
            r.occupancy = blocks;
    }
    r.regs = -1;
    r.shared_bytes = -1;
    r.private_bytes = -1;
    sb_kernel_resources res;
    if (k && vt->kernel_resources(k, &res) == 0) {
        r.regs = res.regs;
        r.shared_bytes = res.shared_bytes;
        r.private_bytes = res.private_bytes;
    }
    r.threads_in_flight = -1;
    if (r.occupancy >= 0 && s->info.compute_units > 0) {
        /* Latency is covered by what is resident, not by what is launched. */
        double threads = (double)plan.geometry.block[0] * plan.geometry.block[1] *
                         plan.geometry.block[2];
        double launched = threads * plan.geometry.grid[0] * plan.geometry.grid[1] *
                          plan.geometry.grid[2];
        double resident = threads * r.occupancy * s->info.compute_units;
        r.threads_in_flight = (long)(launched < resident ? launched : resident);
    }
    r.npatterns = plan.npatterns;
    for (int i = 0; i < plan.npatterns && i < 2; i++) {
        memcpy(r.pattern_label[i], plan.pattern_label[i], sizeof r.pattern_label[i]);
        r.pattern[i] = plan.pattern[i];
        if (sb_predict(&plan.pattern[i], &r.prediction[i])) {
            snprintf(err, sizeof err, "the model rejects the declared pattern: %s",
                     sb_pattern_check(&plan.pattern[i]));
            status = SB_EXIT_RUNTIME;
            goto done;
        }
    }
    r.verified = 1;
    r.host_ms = ms_since(&t0);
    r.verify_ms = verify_ms;
    if (prog)
        capture_ptx(suite, s, e, v, prog, &r);
    if (e->quantity == SB_QUANTITY_BANDWIDTH) {
        sb_run_device *d = &run->devices[s->run_device];
        if (v->role == SB_ROLE_API_COPY && d->memcpy_gbs < r.value)
            d->memcpy_gbs = r.value;
        if (v->role == SB_ROLE_COPY_ROOF && d->copy_gbs < r.value)
            d->copy_gbs = r.value;
    }
    if (sb_run_add(run, &r)) {
        snprintf(err, sizeof err, "out of host memory");
        status = SB_EXIT_RUNTIME;
    }

done:
    if (status)
        report_failure(s, e, v, "%s", err);
    if (k)
        vt->release_kernel(k);
    for (int i = 0; i < plan.nbuffers; i++)
        if (owned[i])
            vt->free(bufs[i]);
    free(samples);
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

static int run_experiment(const sb_suite *suite, sb_session *s, const sb_experiment *e,
                          const sb_problem *size, void *host, const sb_variant *variants,
                          int nvariants, sb_run *run)
{
    char err[ERR_LEN];
    sb_problem p = *size;
    char *source = sb_kernel_source(s->slot.vt->prelude, e->source, err, sizeof err);
    if (!source) {
        report_failure(s, e, NULL, "%s", err);
        return SB_EXIT_IO;
    }
    program_cache *cache = calloc(1, sizeof *cache);
    workspace *ws = calloc(1, sizeof *ws);
    if (!cache || !ws) {
        free(cache);
        free(ws);
        free(source);
        return SB_EXIT_RUNTIME;
    }
    int status = SB_EXIT_OK;
    for (int i = 0; i < nvariants; i++) {
        const sb_variant *v = &variants[i];
        progress(suite, s, e, v, i, nvariants);
        sb_program *prog = NULL;
        if (v->role == SB_ROLE_VENDOR && !s->slot.provides.vendor_transpose) {
            if (!suite->quiet)
                fprintf(stderr, "simtbench: note: %s: %s/%s: no vendor library in this build, "
                                "row left out\n", s->slot.name, e->name, v->name);
            continue;
        }
        if (v->role != SB_ROLE_API_COPY && v->role != SB_ROLE_VENDOR) {
            int st = SB_EXIT_OK;
            prog = cached_program(cache, s, source, v, &st, err, sizeof err);
            if (!prog) {
                report_failure(s, e, v, "kernel build failed: %s", err);
                if (!status)
                    status = st;
                continue;
            }
        }
        int st = run_variant(suite, s, e, &p, v, host, prog, ws, run);
        if (st && !status)
            status = st;
    }
    progress_done(suite);
    release_cache(cache, s->slot.vt);
    workspace_free(ws, s->slot.vt);
    free(ws);
    free(cache);
    free(source);
    return status;
}

int sb_execute(const sb_suite *suite, sb_session *sessions, int nsessions, sb_run *run)
{
    int status = SB_EXIT_OK;
    for (int x = 0; x < suite->nexperiments; x++) {
        const sb_suite_experiment *se = &suite->experiments[x];
        const sb_experiment *e = se->e;
        /* One size for every API, so that their rows compare: the largest
           any device asks for (OpenCL, for one, reports no true L2 size). */
        sb_problem size = {suite->rows, suite->cols};
        for (int si = 0; suite->rows == 0 && si < nsessions; si++) {
            sb_problem p;
            e->default_size(&sessions[si].info, &p);
            if ((double)p.rows * p.cols > (double)size.rows * size.cols)
                size = p;
        }
        /* Inputs and reference once, shared by every API. */
        void *host = NULL;
        char err[ERR_LEN];
        if (e->prepare(&size, suite->seed, &host, err, sizeof err)) {
            fprintf(stderr, "simtbench: %s: %s\n", e->name, err);
            if (!status)
                status = SB_EXIT_RUNTIME;
            continue;
        }
        for (int si = 0; si < nsessions; si++) {
            int st = run_experiment(suite, &sessions[si], e, &size, host, se->variants,
                                    se->nvariants, run);
            if (st && !status)
                status = st;
        }
        e->release(host);
    }
    return status;
}
