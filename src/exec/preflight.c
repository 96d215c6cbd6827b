/* The memory preflight (preflight.h). */
#include "exec/preflight.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "plan/request.h"
#include "experiments/host_data.h"

/* A size this small is prepared for a look as it is; a larger one is
 * extrapolated from probes no larger than this. */
#define EXACT_MAX_ELEMENTS (1L << 16)
/* A dimension this small stays as it is in the probes (a 1 x N vector, a
 * 33 x N strip): only the large ones shrink. */
#define FIXED_DIM_MAX 64
#define NPROBES 3

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

/* Every buffer the chosen variants' plans declare at one size on one
 * device, in plan order.  A footprint is tallied from it, with its sums
 * and maxima; at a size too large to prepare, it is extrapolated buffer by
 * buffer from the probes', since each buffer's size is a polynomial of
 * degree two at most in the size's scale while a maximum of them (a
 * constant 256 KiB histogram against an input that grows past it) is
 * not. */
#define MAX_TERMS (SB_MAX_VARIANTS * SB_MAX_BUFFERS)

typedef struct term {
    double bytes;
    int variant; /* its variant's place among those whose plan took the size */
    int output;  /* its place among the variant's outputs; -1 for an input */
    int same_as; /* an input: the first term of the same host data (itself when new) */
} term;

typedef struct layout {
    int n;
    term t[MAX_TERMS];
} layout;

/* The variants' buffers at size on dev into lay: 0, or -1 when no
 * variant's plan takes the size nor leaves it out (the executor will say
 * why). */
static int layout_of(const sb_suite_experiment *se, void *host, const sb_problem *size,
                     const sb_device_info *dev, layout *lay, const void **init)
{
    char err[1024];
    sb_plan plan;
    int planned = 0, left_out = 0;
    lay->n = 0;
    for (int v = 0; v < se->nvariants; v++) {
        memset(&plan, 0, sizeof plan);
        int rc = se->e->plan(host, size, &se->variants[v], dev, &plan, err, sizeof err);
        /* A size that leaves every variant out still holds its host data. */
        left_out |= rc == SB_PLAN_LEFT_OUT;
        if (rc != 0)
            continue;
        int nout = 0;
        for (int i = 0; i < plan.nbuffers && lay->n < MAX_TERMS; i++) {
            term *t = &lay->t[lay->n];
            const void *data = plan.buffer[i].init;
            *t = (term){(double)plan.buffer[i].bytes, planned, data ? -1 : nout++, lay->n};
            for (int j = 0; data && j < lay->n && t->same_as == lay->n; j++)
                if (init[j] == data)
                    t->same_as = j;
            init[lay->n++] = data;
        }
        planned++;
    }
    return planned || left_out ? 0 : -1;
}

/* The footprint of a layout on dev, with the host memory prepare took:
 * the device holds every distinct input (the workspace keeps them) and
 * the largest variant's outputs; the host its prepared data, the poison,
 * a read-back buffer per output place, and on a CPU the device's too. */
static void tally(const layout *lay, const sb_device_info *dev, double prepared,
                  sb_footprint *fp)
{
    double inputs = 0, outputs = 0, outputs_max = 0, poison = 0, largest = 0;
    double readback[SB_MAX_BUFFERS] = {0};
    for (int k = 0, v = -1; k < lay->n; k++) {
        const term *t = &lay->t[k];
        if (t->variant != v) {
            outputs_max = fmax(outputs_max, outputs);
            outputs = 0;
            v = t->variant;
        }
        largest = fmax(largest, t->bytes);
        if (t->output < 0) {
            inputs += t->same_as == k ? t->bytes : 0;
            continue;
        }
        outputs += t->bytes;
        poison = fmax(poison, t->bytes);
        if (t->output < SB_MAX_BUFFERS)
            readback[t->output] = fmax(readback[t->output], t->bytes);
    }
    fp->device = inputs + fmax(outputs_max, outputs);
    fp->largest = largest;
    fp->host = prepared + poison;
    for (int i = 0; i < SB_MAX_BUFFERS; i++)
        fp->host += readback[i];
    if (!dev->is_gpu)
        fp->host += fp->device;
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
    double prepared[NPROBES];   /* the host memory each probe's prepare took */
    /* Each probe's layout on each session, then one to measure or
       extrapolate into; lays[k] is a run of nsessions layouts. */
    layout *lays[NPROBES + 1];
    const void **init;          /* layout_of's scratch: each term's host data */
    sb_footprint probe[NPROBES][SB_RUN_MAX_DEVICES];
} probe_ctx;

/* The experiment prepared at size and laid out on every session into
 * lays[slot] (NPROBES: not a probe), its footprints into fp: 0, or -1
 * when prepare() refuses the size or no plan() takes it. */
static int measure(probe_ctx *c, sb_problem size, int slot, sb_footprint *fp)
{
    const sb_experiment *e = c->se->e;
    char err[1024];
    void *host = NULL;
    size_t before = sb_host_allocated();
    if (e->prepare(&size, c->suite->seed, &host, err, sizeof err))
        return -1;
    double prepared = (double)(sb_host_allocated() - before);
    if (slot < NPROBES)
        c->prepared[slot] = prepared;
    int st = 0;
    for (int s = 0; s < c->nsessions && st == 0; s++) {
        layout *lay = &c->lays[slot][s];
        st = layout_of(c->se, host, &size, &c->sessions[s].info, lay, c->init);
        if (st == 0)
            tally(lay, &c->sessions[s].info, prepared, &fp[s]);
    }
    e->release(host);
    return st;
}

/* The layouts probe_ctx holds, for nsessions; 0, or -1 out of memory. */
static int layouts_new(probe_ctx *c, int nsessions)
{
    c->init = malloc(sizeof *c->init * MAX_TERMS);
    int ok = c->init != NULL;
    for (int k = 0; k <= NPROBES && ok; k++)
        ok = (c->lays[k] = malloc(sizeof *c->lays[k] * (size_t)nsessions)) != NULL;
    return ok ? 0 : -1;
}

static void layouts_free(probe_ctx *c)
{
    for (int k = 0; k <= NPROBES; k++)
        free(c->lays[k]);
    free(c->init);
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
        if ((k > 0 && c->x[k] <= c->x[k - 1]) || measure(c, p, k, c->probe[k]))
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

/* Whether the probes laid session s out alike (the same variants with the
 * same buffers), so that each buffer can be followed from probe to probe. */
static int alike(const probe_ctx *c, int s)
{
    const layout *a = &c->lays[0][s];
    for (int k = 1; k < NPROBES; k++) {
        const layout *b = &c->lays[k][s];
        if (b->n != a->n)
            return 0;
        for (int i = 0; i < a->n; i++)
            if (b->t[i].variant != a->t[i].variant || b->t[i].output != a->t[i].output ||
                b->t[i].same_as != a->t[i].same_as)
                return 0;
    }
    return 1;
}

/* Session s's footprint at scale x: each buffer through the probes, then
 * tallied; where the probes' layouts differ, the probes' footprints
 * themselves through the probes. */
static void extrapolate(probe_ctx *c, int s, double x, sb_footprint *fp)
{
    double f[NPROBES];
    if (alike(c, s)) {
        layout *at = &c->lays[NPROBES][s];
        *at = c->lays[0][s];
        for (int i = 0; i < at->n; i++) {
            for (int k = 0; k < NPROBES; k++)
                f[k] = c->lays[k][s].t[i].bytes;
            at->t[i].bytes = through_probes(c, f, x);
        }
        tally(at, &c->sessions[s].info, through_probes(c, c->prepared, x), fp);
        return;
    }
    double dev[NPROBES], largest[NPROBES], host[NPROBES];
    for (int k = 0; k < NPROBES; k++) {
        dev[k] = c->probe[k][s].device;
        largest[k] = c->probe[k][s].largest;
        host[k] = c->probe[k][s].host;
    }
    fp->device = through_probes(c, dev, x);
    fp->largest = through_probes(c, largest, x);
    fp->host = through_probes(c, host, x);
}

/* The footprint at size on every session: measured where the size is
 * small, else extrapolated; 0, or -1 when the experiment refuses it. */
static int estimate(probe_ctx *c, sb_problem size, sb_footprint *fp)
{
    if (!c->extrapolated || elements(size) <= EXACT_MAX_ELEMENTS)
        return measure(c, size, NPROBES, fp);
    double x = scale_of(c, size);
    for (int s = 0; s < c->nsessions; s++)
        extrapolate(c, s, x, &fp[s]);
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
static long largest_fitting(probe_ctx *c, const sb_memory_budget *budget)
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
    c->suite = suite;
    c->se = se;
    c->sessions = sessions;
    c->nsessions = nsessions;
    c->target = target;
    return set_path(c);
}

/* A context with its layouts for nsessions; NULL out of memory. */
static probe_ctx *probe_new(int nsessions)
{
    probe_ctx *c = calloc(1, sizeof *c);
    if (c && layouts_new(c, nsessions > 0 ? nsessions : 1)) {
        layouts_free(c);
        free(c);
        return NULL;
    }
    return c;
}

static void probe_free(probe_ctx *c)
{
    if (c)
        layouts_free(c);
    free(c);
}

int sb_footprint_estimate(const sb_suite *suite, const sb_suite_experiment *se,
                          const sb_session *sessions, int nsessions, sb_problem size, int exact,
                          sb_footprint *fp)
{
    probe_ctx *c = probe_new(nsessions);
    int st = -1;
    if (c && exact) {
        c->suite = suite;
        c->se = se;
        c->sessions = sessions;
        c->nsessions = nsessions;
        st = measure(c, size, NPROBES, fp);
    } else if (c && start_probe(c, suite, se, sessions, nsessions, size) == 0) {
        st = estimate(c, size, fp);
    }
    probe_free(c);
    return st;
}

int sb_preflight(const sb_suite *suite, const sb_session *sessions, int nsessions, char *err,
                 size_t n)
{
    sb_memory_budget budget[SB_RUN_MAX_DEVICES];
    for (int s = 0; s < nsessions; s++)
        sb_memory_budget_of(&sessions[s], &budget[s]);
    probe_ctx *c = probe_new(nsessions);
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
    probe_free(c);
    return status;
}
