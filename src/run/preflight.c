/* The memory preflight (preflight.h). */
#include "run/preflight.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/options.h"
#include "run/host_data.h"

/* A size this small is prepared for a look as it is; a larger one is
 * extrapolated from probes no larger than this. */
#define EXACT_MAX_ELEMENTS (1L << 16)
/* A dimension this small stays as it is in the probes (a 1 x N vector, a
 * 33 x N strip): only the large ones shrink. */
#define FIXED_DIM_MAX 64
#define NPROBES 3
/* Distinct inputs tracked per footprint; more are counted as they come. */
#define MAX_INPUTS 64

sb_problem sb_run_size(const sb_suite *suite, const sb_experiment *e, const sb_session *sessions,
                       int nsessions)
{
    sb_problem size = {suite->rows, suite->cols};
    for (int si = 0; suite->rows == 0 && si < nsessions; si++) {
        sb_problem p;
        e->default_size(&sessions[si].info, &p);
        if ((double)p.rows * p.cols > (double)size.rows * size.cols)
            size = p;
    }
    return size;
}

/* ------------------------------------------------------------ budgets */

/* The value of "KEY: N kB" in a /proc file, bytes; 0 when not there. */
static uint64_t proc_kb(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    size_t len = strlen(key);
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            if (sscanf(line + len + 1, "%llu", &kb) != 1)
                kb = 0;
            break;
        }
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* The room a resource limit leaves above what the process uses now. */
static uint64_t limit_room(int resource, const char *status_key, uint64_t room)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return room;
    uint64_t used = proc_kb("/proc/self/status", status_key);
    uint64_t left = rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
    return room == 0 || left < room ? (left ? left : 1) : room;
}

uint64_t sb_host_available(void)
{
    uint64_t room = proc_kb("/proc/meminfo", "MemAvailable");
    room = limit_room(RLIMIT_AS, "VmSize", room);
    return limit_room(RLIMIT_DATA, "VmData", room);
}

void sb_memory_budget_of(const sb_session *s, sb_memory_budget *b)
{
    memset(b, 0, sizeof *b);
    uint64_t free_bytes = 0, total_bytes = 0;
    if (s->slot.vt->memory(s->dev, &free_bytes, &total_bytes) != 0)
        free_bytes = total_bytes = 0;
    b->device_is_free = free_bytes > 0;
    b->device = free_bytes ? free_bytes : total_bytes ? total_bytes : s->info.global_mem_bytes;
    b->max_alloc = s->info.max_alloc_bytes;
    b->host = sb_host_available();
}

const char *sb_footprint_exceeds(const sb_footprint *f, const sb_memory_budget *b)
{
    if (b->device && f->device > (double)b->device)
        return "device memory";
    if (b->max_alloc && f->largest > (double)b->max_alloc)
        return "one allocation";
    if (b->host && f->host > (double)b->host)
        return "host memory";
    return NULL;
}

/* ---------------------------------------------------------- footprints */

/* What one experiment's variants add up to on one device. */
typedef struct tally {
    int ninputs;
    const void *input[MAX_INPUTS];
    double inputs, outputs_max, poison, largest;
    double readback[SB_MAX_BUFFERS]; /* per output index, over the variants */
} tally;

static void tally_input(tally *t, const void *init, double bytes)
{
    for (int i = 0; i < t->ninputs; i++)
        if (t->input[i] == init)
            return;
    if (t->ninputs < MAX_INPUTS)
        t->input[t->ninputs++] = init;
    t->inputs += bytes;
}

static void tally_plan(tally *t, const sb_plan *plan)
{
    double outputs = 0;
    int nout = 0;
    for (int i = 0; i < plan->nbuffers; i++) {
        double bytes = (double)plan->buffer[i].bytes;
        t->largest = fmax(t->largest, bytes);
        if (plan->buffer[i].init) {
            tally_input(t, plan->buffer[i].init, bytes);
            continue;
        }
        outputs += bytes;
        t->poison = fmax(t->poison, bytes);
        t->readback[nout] = fmax(t->readback[nout], bytes);
        nout++;
    }
    t->outputs_max = fmax(t->outputs_max, outputs);
}

/* The footprint of the prepared host data on one device: 0, or -1 when
 * no variant's plan takes the size nor leaves it out (the executor will
 * say why). */
static int footprint_on(const sb_suite_experiment *se, void *host, const sb_problem *size,
                        const sb_device_info *dev, double prepared, sb_footprint *fp)
{
    tally t;
    memset(&t, 0, sizeof t);
    int planned = 0;
    char err[1024];
    sb_plan plan;
    for (int v = 0; v < se->nvariants; v++) {
        memset(&plan, 0, sizeof plan);
        int rc = se->e->plan(host, size, &se->variants[v], dev, &plan, err, sizeof err);
        if (rc == 0)
            tally_plan(&t, &plan);
        /* A size that leaves every variant out still holds its host data. */
        planned |= rc == 0 || rc == SB_PLAN_LEFT_OUT;
    }
    fp->device = t.inputs + t.outputs_max;
    fp->largest = t.largest;
    fp->host = prepared + t.poison;
    for (int i = 0; i < SB_MAX_BUFFERS; i++)
        fp->host += t.readback[i];
    /* A CPU device's buffers are the host's memory. */
    if (!dev->is_gpu)
        fp->host += fp->device;
    return planned ? 0 : -1;
}

/* Everything the preflight knows about one experiment. */
typedef struct probe_ctx {
    const sb_suite *suite;
    const sb_suite_experiment *se;
    const sb_session *sessions;
    int nsessions;
    sb_problem target;
    int scale_rows, scale_cols; /* which dimensions shrink on the way to 0 */
    long lead;                  /* the target's larger shrinking dimension */
    int extrapolated;           /* the target is too large to prepare for a look */
    double x[NPROBES];          /* each probe's scale */
    sb_footprint probe[NPROBES][SB_RUN_MAX_DEVICES];
} probe_ctx;

/* The experiment prepared at size and planned on every session: 0, or -1
 * when prepare() refuses the size or no plan() takes it. */
static int measure(const probe_ctx *c, sb_problem size, sb_footprint *fp)
{
    const sb_experiment *e = c->se->e;
    char err[1024];
    void *host = NULL;
    size_t before = sb_host_allocated();
    if (e->prepare(&size, c->suite->seed, &host, err, sizeof err))
        return -1;
    double prepared = (double)(sb_host_allocated() - before);
    int st = 0;
    for (int s = 0; s < c->nsessions && st == 0; s++)
        st = footprint_on(c->se, host, &size, &c->sessions[s].info, prepared, &fp[s]);
    e->release(host);
    return st;
}

/* ------------------------------------------------ sizes on the way to 0 */

static double elements(sb_problem p)
{
    return (double)p.rows * (double)p.cols;
}

/* The target with its larger shrinking dimension at m (1 <= m <= lead)
 * and the other shrinking one in proportion. */
static sb_problem size_at(const probe_ctx *c, long m)
{
    sb_problem p = c->target;
    int rows_lead = c->scale_rows && (!c->scale_cols || p.rows >= p.cols);
    double u = (double)m / (double)c->lead;
    if (c->scale_rows)
        p.rows = rows_lead ? m : (long)fmax(1.0, round((double)p.rows * u));
    if (c->scale_cols)
        p.cols = !rows_lead ? m : (long)fmax(1.0, round((double)p.cols * u));
    return p;
}

/* How far along the way a size is, as a scale of the target's shrinking
 * dimensions: where both shrink, the geometric mean of the two, so that
 * the area rows x cols, which most buffers are, is exactly the scale
 * squared however the probe's dimensions were rounded. */
static double scale_of(const probe_ctx *c, sb_problem p)
{
    double rows = (double)p.rows / (double)c->target.rows;
    double cols = (double)p.cols / (double)c->target.cols;
    if (c->scale_rows && c->scale_cols)
        return sqrt(rows * cols);
    return c->scale_rows ? rows : cols;
}

/* The way from the target to size 0, and the probes on it when the
 * target is too large to measure: 0, or -1 when a probe cannot be made. */
static int set_path(probe_ctx *c)
{
    sb_problem t = c->target;
    c->scale_rows = t.rows > FIXED_DIM_MAX;
    c->scale_cols = t.cols > FIXED_DIM_MAX;
    if (!c->scale_rows && !c->scale_cols)
        c->scale_rows = c->scale_cols = 1;
    c->lead = c->scale_rows && (!c->scale_cols || t.rows >= t.cols) ? t.rows : t.cols;
    c->extrapolated = elements(t) > EXACT_MAX_ELEMENTS;
    for (int k = 0; c->extrapolated && k < NPROBES; k++) {
        double e = (double)(EXACT_MAX_ELEMENTS >> (NPROBES - 1 - k));
        double u = c->scale_rows && c->scale_cols ? sqrt(e / elements(t)) : e / elements(t);
        sb_problem p = size_at(c, (long)fmax(1.0, round(u * (double)c->lead)));
        c->x[k] = scale_of(c, p);
        if ((k > 0 && c->x[k] <= c->x[k - 1]) || measure(c, p, c->probe[k]))
            return -1;
    }
    return 0;
}

/* The quadratic through the probes' values of one figure, at x. */
static double through_probes(const probe_ctx *c, const double *f, double x)
{
    double sum = 0;
    for (int k = 0; k < NPROBES; k++) {
        double w = f[k];
        for (int j = 0; j < NPROBES; j++)
            if (j != k)
                w *= (x - c->x[j]) / (c->x[k] - c->x[j]);
        sum += w;
    }
    /* Memory does not shrink as the size grows. */
    return x >= c->x[NPROBES - 1] ? fmax(sum, f[NPROBES - 1]) : fmax(sum, 0.0);
}

/* The footprint at size on every session: measured where the size is
 * small, else extrapolated; 0, or -1 when the experiment refuses it. */
static int estimate(const probe_ctx *c, sb_problem size, sb_footprint *fp)
{
    if (!c->extrapolated || elements(size) <= EXACT_MAX_ELEMENTS)
        return measure(c, size, fp);
    double x = scale_of(c, size);
    for (int s = 0; s < c->nsessions; s++) {
        double dev[NPROBES], largest[NPROBES], host[NPROBES];
        for (int k = 0; k < NPROBES; k++) {
            dev[k] = c->probe[k][s].device;
            largest[k] = c->probe[k][s].largest;
            host[k] = c->probe[k][s].host;
        }
        fp[s].device = through_probes(c, dev, x);
        fp[s].largest = through_probes(c, largest, x);
        fp[s].host = through_probes(c, host, x);
    }
    return 0;
}

/* ------------------------------------------------------------ verdicts */

/* The first session the footprints exceed and what of it, or -1 when
 * they fit everywhere. */
static int first_exceeded(const probe_ctx *c, const sb_footprint *fp,
                          const sb_memory_budget *budget, const char **what)
{
    for (int s = 0; s < c->nsessions; s++)
        if ((*what = sb_footprint_exceeds(&fp[s], &budget[s])))
            return s;
    return -1;
}

/* The largest lead dimension below the target's at which the experiment
 * fits everywhere, by bisection; 0 when none does. */
static long largest_fitting(const probe_ctx *c, const sb_memory_budget *budget)
{
    long lo = 0, hi = c->lead; /* hi does not fit */
    sb_footprint fp[SB_RUN_MAX_DEVICES];
    const char *what;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (estimate(c, size_at(c, mid), fp) == 0 && first_exceeded(c, fp, budget, &what) < 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void human_bytes(double bytes, char *buf, size_t n)
{
    if (bytes >= 1e9)
        snprintf(buf, n, "%.1f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        snprintf(buf, n, "%.1f MB", bytes / 1e6);
    else
        snprintf(buf, n, "%.0f bytes", bytes);
}

static void size_text(sb_problem p, char *buf, size_t n)
{
    if (p.rows == p.cols)
        snprintf(buf, n, "%ld", p.rows);
    else
        snprintf(buf, n, "%ldx%ld", p.rows, p.cols);
}

/* What is short, in words: "about 25.8 GB of device memory on opencl
 * (NAME), which has 5.1 GB in all". */
static void shortage(const probe_ctx *c, int s, const char *what, const sb_footprint *fp,
                     const sb_memory_budget *b, char *buf, size_t n)
{
    char need[32], have[32];
    const char *about = c->extrapolated ? "about " : "";
    const sb_session *ss = &c->sessions[s];
    if (strcmp(what, "host memory") == 0) {
        human_bytes(fp->host, need, sizeof need);
        human_bytes((double)b->host, have, sizeof have);
        snprintf(buf, n, "%s%s of host memory, and %s is available", about, need, have);
    } else if (strcmp(what, "one allocation") == 0) {
        human_bytes(fp->largest, need, sizeof need);
        human_bytes((double)b->max_alloc, have, sizeof have);
        snprintf(buf, n, "a buffer of %s%s on %s (%.60s), which allocates at most %s at once",
                 about, need, ss->slot.name, ss->info.name, have);
    } else {
        human_bytes(fp->device, need, sizeof need);
        human_bytes((double)b->device, have, sizeof have);
        snprintf(buf, n, "%s%s of device memory on %s (%.60s), which has %s %s", about, need,
                 ss->slot.name, ss->info.name, have, b->device_is_free ? "free" : "in all");
    }
}

/* The one line: what the experiment needs where, what is there, and the
 * largest size that fits. */
static void explain(const probe_ctx *c, int s, const char *what, const sb_footprint *fp,
                    const sb_memory_budget *b, long fitting, char *err, size_t n)
{
    char size[48], best[64] = "", why[400];
    size_text(c->target, size, sizeof size);
    shortage(c, s, what, fp, b, why, sizeof why);
    if (fitting > 0)
        size_text(size_at(c, fitting), best, sizeof best);
    snprintf(err, n, "%s at --size %s does not fit: it needs %s; %s%s", c->se->e->name, size, why,
             fitting > 0 ? "the largest size that fits is --size " : "no size fits", best);
}

/* The context for one experiment at its target size: 0, or -1 when the
 * experiment refuses the size (or a probe on the way to it). */
static int start_probe(probe_ctx *c, const sb_suite *suite, const sb_suite_experiment *se,
                       const sb_session *sessions, int nsessions, sb_problem target)
{
    memset(c, 0, sizeof *c);
    c->suite = suite;
    c->se = se;
    c->sessions = sessions;
    c->nsessions = nsessions;
    c->target = target;
    return set_path(c);
}

int sb_footprint_estimate(const sb_suite *suite, const sb_suite_experiment *se,
                          const sb_session *sessions, int nsessions, sb_problem size, int exact,
                          sb_footprint *fp)
{
    probe_ctx *c = malloc(sizeof *c);
    int st = -1;
    if (c && exact) {
        memset(c, 0, sizeof *c);
        *c = (probe_ctx){.suite = suite, .se = se, .sessions = sessions, .nsessions = nsessions};
        st = measure(c, size, fp);
    } else if (c && start_probe(c, suite, se, sessions, nsessions, size) == 0) {
        st = estimate(c, size, fp);
    }
    free(c);
    return st;
}

int sb_preflight(const sb_suite *suite, const sb_session *sessions, int nsessions, char *err,
                 size_t n)
{
    sb_memory_budget budget[SB_RUN_MAX_DEVICES];
    for (int s = 0; s < nsessions; s++)
        sb_memory_budget_of(&sessions[s], &budget[s]);
    probe_ctx *c = malloc(sizeof *c);
    if (!c) {
        snprintf(err, n, "out of host memory");
        return SB_EXIT_RUNTIME;
    }
    int status = SB_EXIT_OK;
    for (int x = 0; x < suite->nexperiments && status == SB_EXIT_OK; x++) {
        const sb_suite_experiment *se = &suite->experiments[x];
        sb_problem target = sb_run_size(suite, se->e, sessions, nsessions);
        sb_footprint fp[SB_RUN_MAX_DEVICES];
        const char *what = NULL;
        /* An experiment that refuses the size is left to the executor,
           which says why. */
        if (start_probe(c, suite, se, sessions, nsessions, target) || estimate(c, target, fp))
            continue;
        int s = first_exceeded(c, fp, budget, &what);
        if (s < 0)
            continue;
        explain(c, s, what, &fp[s], &budget[s], largest_fitting(c, budget), err, n);
        status = SB_EXIT_RUNTIME;
    }
    free(c);
    return status;
}
