/* Times the host side of an experiment at a chosen size, without the
 * device's own speed in the figure: input generation (the experiment's
 * prepare), then for each variant one launch on a backend to get a right
 * output, and the experiment's verify of that output, with each thread
 * count asked for.  "host_data" instead of an experiment times the random
 * fill and the poison of SIZE 4-byte words.
 *
 * Not a test and not installed: `make src/tools/bench_verify`, then
 *   src/tools/bench_verify [-b BACKEND] [-t 1,16] [-r REPS] EXPERIMENT SIZE [VARIANT...]
 * with SIMTBENCH_BACKEND_PATH and SIMTBENCH_KERNEL_PATH pointing at the
 * build tree (as `make check` sets them).  Without -b, the first backend
 * the registry knows that opens a device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "experiments/catalogue.h"
#include "experiments/host_data.h"
#include "plan/kernel_source.h"
#include "cli/options.h"
#include "exec/registry.h"
#include "exec/session.h"
#include "exec/timing.h"

#define MAX_THREAD_COUNTS 8

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void set_threads(int t)
{
#ifdef _OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

/* The best of reps runs of what `what` times, in milliseconds. */
#define BEST_OF(reps, best, ...)                                                                   \
    do {                                                                                           \
        best = 1e300;                                                                              \
        for (int r_ = 0; r_ < (reps); r_++) {                                                      \
            double t0_ = now_ms();                                                                 \
            __VA_ARGS__;                                                                           \
            double t_ = now_ms() - t0_;                                                            \
            if (t_ < best)                                                                         \
                best = t_;                                                                         \
        }                                                                                          \
    } while (0)

static int bench_host_data(long words, const int *threads, int nthreads, int reps)
{
    void *buf = malloc((size_t)words * 4);
    if (!buf) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (int t = 0; t < nthreads; t++) {
        set_threads(threads[t]);
        double ms;
        BEST_OF(reps, ms, sb_random_floats(buf, (size_t)words, 1));
        printf("host_data random_floats %ld %d %.2f\n", words, threads[t], ms);
        BEST_OF(reps, ms, sb_random_words(buf, (size_t)words, 1));
        printf("host_data random_words %ld %d %.2f\n", words, threads[t], ms);
        BEST_OF(reps, ms, sb_poison(buf, (size_t)words * 4));
        printf("host_data poison %ld %d %.2f\n", words, threads[t], ms);
    }
    free(buf);
    return 0;
}

/* One launch of v into poisoned outputs, read back into outputs[]. */
static int run_once(sb_session *s, const sb_experiment *e, const char *source,
                    const sb_variant *v, const sb_plan *plan, void **outputs)
{
    const sb_backend *vt = s->slot.vt;
    sb_buffer *bufs[SB_MAX_BUFFERS] = {0};
    sb_program *prog = NULL;
    sb_kernel *k = NULL;
    sb_arg args[SB_MAX_ARGS];
    int rc = -1, nout = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        size_t bytes = plan->buffer[i].bytes;
        if (vt->alloc(s->dev, bytes, &bufs[i]))
            goto done;
        if (plan->buffer[i].init) {
            if (vt->upload(bufs[i], plan->buffer[i].init, bytes))
                goto done;
            continue;
        }
        outputs[nout] = malloc(bytes ? bytes : 1);
        if (!outputs[nout])
            goto done;
        sb_poison(outputs[nout], bytes);
        if (vt->upload(bufs[i], outputs[nout++], bytes))
            goto done;
    }
    for (int i = 0; i < plan->nargs; i++) {
        args[i].kind = plan->arg[i].kind == SB_PLAN_BUFFER ? SB_ARG_BUFFER
                       : plan->arg[i].kind == SB_PLAN_INT  ? SB_ARG_INT
                                                           : SB_ARG_FLOAT;
        if (plan->arg[i].kind == SB_PLAN_BUFFER)
            args[i].v.buf = bufs[plan->arg[i].buffer];
        else if (plan->arg[i].kind == SB_PLAN_INT)
            args[i].v.i = plan->arg[i].i;
        else
            args[i].v.f = plan->arg[i].f;
    }
    if (v->role == SB_ROLE_API_COPY) {
        if (vt->copy(bufs[1], bufs[0], plan->buffer[0].bytes, NULL))
            goto done;
    } else if (v->role == SB_ROLE_VENDOR) {
        if (sb_vendor_launch(vt, v->vendor, plan, bufs, NULL))
            goto done;
    } else {
        const char *defs[SB_MAX_DEFINES];
        for (int i = 0; i < v->ndefines; i++)
            defs[i] = v->defines[i];
        if (vt->build(s->dev, source, defs, v->ndefines, &prog) ||
            vt->kernel(prog, v->kernel, &k) ||
            vt->launch(k, &plan->geometry, args, plan->nargs, NULL))
            goto done;
    }
    nout = 0;
    for (int i = 0; i < plan->nbuffers; i++)
        if (!plan->buffer[i].init && vt->download(outputs[nout++], bufs[i], plan->buffer[i].bytes))
            goto done;
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "%s/%s: %s\n", e->name, v->name, sb_registry_error(vt));
    if (k)
        vt->release_kernel(k);
    if (prog)
        vt->release_program(prog);
    for (int i = 0; i < plan->nbuffers; i++)
        if (bufs[i])
            vt->free(bufs[i]);
    return rc;
}

/* What the command line asks for. */
typedef struct bench_args {
    const char *backend;     /* NULL: the first the registry knows that loads */
    int threads[MAX_THREAD_COUNTS], nthreads, reps;
    const char *experiment;
    sb_problem size;
    char **variants;         /* names, "all"; none: the default ones */
    int nvariants;
} bench_args;

/* 0, or the exit status with one line on stderr. */
static int parse_args(int argc, char **argv, bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->threads[a->nthreads++] = 1;
#ifdef _OPENMP
    a->threads[a->nthreads++] = omp_get_max_threads();
#endif
    a->reps = 3;
    int opt;
    while ((opt = getopt(argc, argv, "b:t:r:")) != -1) {
        if (opt == 'b') {
            a->backend = optarg;
        } else if (opt == 't') {
            a->nthreads = 0;
            for (char *save = NULL, *tok = strtok_r(optarg, ",", &save);
                 tok && a->nthreads < MAX_THREAD_COUNTS; tok = strtok_r(NULL, ",", &save))
                a->threads[a->nthreads++] = atoi(tok);
        } else if (opt == 'r') {
            a->reps = atoi(optarg);
        } else {
            return 2;
        }
    }
    if (argc - optind < 2 || a->reps < 1 || a->nthreads < 1) {
        fprintf(stderr, "usage: %s [-b BACKEND] [-t 1,16] [-r REPS] EXPERIMENT SIZE "
                        "[VARIANT...]\n", argv[0]);
        return 2;
    }
    a->experiment = argv[optind];
    if (sb_parse_size(argv[optind + 1], &a->size.rows, &a->size.cols)) {
        fprintf(stderr, "bad size %s\n", argv[optind + 1]);
        return 2;
    }
    a->variants = argv + optind + 2;
    a->nvariants = argc - optind - 2;
    return 0;
}

/* A session on the backend asked for, else on the first one the registry
 * knows that loads; 0, or the exit status with one line on stderr. */
static int open_session(const char *backend, sb_session *s)
{
    char err[2048];
    sb_device_request req = {-1, -1};
    sb_run scratch;
    for (int b = 0; b < sb_nknown_backends; b++) {
        const char *name = backend ? backend : sb_known_backends[b];
        memset(s, 0, sizeof *s);
        memset(&scratch, 0, sizeof scratch);
        int loaded = sb_registry_load(name, &s->slot) == 0;
        if (loaded && sb_session_open(s, &req, &scratch, err, sizeof err) == 0)
            return 0;
        if (backend) {
            fprintf(stderr, "%s: not available: %s\n", name, loaded ? err : s->slot.reason);
            sb_registry_unload(&s->slot);
            return 3;
        }
        sb_registry_unload(&s->slot);
    }
    fprintf(stderr, "no backend is available (see simtbench --list)\n");
    return 3;
}

static int chosen(const bench_args *a, const sb_variant *v)
{
    int yes = a->nvariants == 0 ? v->in_default : 0;
    for (int i = 0; i < a->nvariants; i++)
        yes |= strcmp(a->variants[i], v->name) == 0 || strcmp(a->variants[i], "all") == 0;
    return yes;
}

/* One variant: a right output, then its verify timed at each thread
 * count; 0, or 1 when it could not run or was wrong. */
static int bench_variant(const bench_args *a, sb_session *s, const sb_experiment *e,
                         const char *source, void *host, const sb_variant *v)
{
    char err[2048];
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    void *outputs[SB_MAX_BUFFERS] = {0};
    const sb_problem *p = &a->size;
    int status = 0;
    if (e->plan(host, p, v, &s->info, &plan, err, sizeof err) ||
        run_once(s, e, source, v, &plan, outputs))
        status = 1;
    for (int t = 0; t < a->nthreads && !status; t++) {
        set_threads(a->threads[t]);
        double ms;
        int rc = 0;
        BEST_OF(a->reps, ms, rc |= e->verify(host, p, v, outputs, err, sizeof err));
        printf("%s %s %ldx%ld %d %.2f%s\n", e->name, v->name, p->rows, p->cols, a->threads[t],
               ms, rc ? " WRONG" : "");
        fflush(stdout);
        if (rc) {
            fprintf(stderr, "%s/%s: %s\n", e->name, v->name, err);
            status = 1;
        }
    }
    for (int j = 0; j < SB_MAX_BUFFERS; j++)
        free(outputs[j]);
    return status;
}

/* The experiment's prepare timed, then each chosen variant. */
static int bench_experiment(const bench_args *a, sb_session *s, const sb_experiment *e,
                            const char *source)
{
    char err[2048];
    void *host = NULL;
    double t0 = now_ms();
    if (e->prepare(&a->size, 1, &host, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%s prepare %ldx%ld %d %.2f\n", e->name, a->size.rows, a->size.cols,
           a->threads[a->nthreads - 1], now_ms() - t0);
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int nv = vs ? e->variants(vs, SB_MAX_VARIANTS) : 0, status = vs ? 0 : 1;
    for (int i = 0; i < nv; i++)
        if (chosen(a, &vs[i]) &&
            !(vs[i].role == SB_ROLE_VENDOR && !sb_vendor_provided(&s->slot.provides, vs[i].vendor)))
            status |= bench_variant(a, s, e, source, host, &vs[i]);
    free(vs);
    e->release(host);
    return status;
}

int main(int argc, char **argv)
{
    bench_args a;
    int status = parse_args(argc, argv, &a);
    if (status)
        return status;
    if (strcmp(a.experiment, "host_data") == 0)
        return bench_host_data(a.size.rows * a.size.cols, a.threads, a.nthreads, a.reps);
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(a.experiment, &e, 1) != 1) {
        fprintf(stderr, "unknown experiment %s\n", a.experiment);
        return 2;
    }
    sb_session s;
    if ((status = open_session(a.backend, &s)))
        return status;
    char err[2048];
    char *source = sb_kernel_source(s.slot.vt->prelude, e->source, err, sizeof err);
    if (!source) {
        fprintf(stderr, "%s\n", err);
        status = 5;
    } else {
        status = bench_experiment(&a, &s, e, source);
    }
    free(source);
    sb_session_close(&s);
    sb_registry_unload(&s.slot);
    return status;
}
