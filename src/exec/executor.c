/* The executor (executor.h): the measuring policy, once for every backend
 * and experiment.  The suite's experiments one after another, each one's
 * inputs made while the one before is measured, its programs built ahead,
 * the devices measured at the same time where they are distinct hardware;
 * one experiment's variants on one session are variants.c's. */
#include "exec/executor.h"
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
#include <unistd.h>

#include "plan/request.h"
#include "experiments/variant.h"
#include "exec/checker.h"
#include "experiments/host_data.h"
#include "exec/counting.h"
#include "exec/interrupt.h"
#include "plan/kernel_source.h"
#include "exec/preflight.h"
#include "exec/progress.h"
#include "exec/registry.h"
#include "exec/timing.h"
#include "exec/workspace.h"

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

static void workspaces_make(exec_run *xr, host_time *spent, const sb_suite *suite,
                            sb_session *sessions, int nsessions, workspaces *all)
{
    size_t most = (size_t)(suite->nexperiments * nsessions) + 1;
    sb_prebuild_job *jobs = calloc(most, sizeof *jobs);
    sb_variant **copies = calloc(most, sizeof *copies);
    int njobs = 0;
    for (int x = 0; x < suite->nexperiments; x++)
        for (int si = 0; si < nsessions; si++) {
            sb_session *s = &sessions[si];
            char err[ERR_LEN];
            sb_host_sets **hosts = &xr->hosts[s->run_device];
            if (!*hosts)
                *hosts = sb_host_sets_new(s->slot.vt, s->dev, s->slot.provides.host_alloc);
            all->source[x][si] = sb_kernel_source(s->slot.vt->prelude,
                                                  suite->experiments[x].e->source, err, sizeof err);
            all->ws[x][si] = *hosts && all->source[x][si]
                                 ? sb_workspace_new(s->slot.vt, s->dev, *hosts)
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
        lap(&spent->build, &t0);
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
static int run_on_session(exec_run *xr, host_time *spent, const sb_suite *suite,
                          sb_session *s, const sb_suite_experiment *se, const sb_problem *size,
                          void *host, sb_workspace *ws, const char *source, sb_run *run)
{
    const sb_experiment *e = se->e;
    char err[ERR_LEN];
    if (!source) {
        /* Read again for its message: the plan had found it readable. */
        free(sb_kernel_source(s->slot.vt->prelude, e->source, err, sizeof err));
        sb_exec_failure(xr, s, e, NULL, "%s", err);
        return SB_EXIT_IO;
    }
    if (!ws)
        return SB_EXIT_RUNTIME;
    return sb_run_variants(xr, spent, suite, s, se, size, host, ws, source, run);
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

static void prepare_wait(prepared *p, host_time *spent)
{
    if (p->threaded)
        pthread_join(p->thread, NULL);
    p->threaded = 0;
    spent->prepare += p->seconds;
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
    exec_run *xr;
    host_time *spent; /* own, on a thread of its own; else the caller's */
    host_time own;
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
        int st = run_on_session(j->xr, j->spent, j->suite, &j->sessions[si], se, &j->p->size,
                                j->p->host, j->all->ws[j->x][si], j->all->source[j->x][si],
                                j->run);
        if (st && !j->status)
            j->status = st;
        workspace_done(j->all, j->x, si);
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
static int run_experiment(exec_run *xr, host_time *spent, const sb_suite *suite,
                          sb_session *sessions, int nsessions, int x, prepared *p,
                          workspaces *all, sb_run *run, int status)
{
    const sb_suite_experiment *se = &suite->experiments[x];
    if (p->failed) {
        sb_say("%s: %s", se->e->name, p->err);
        atomic_fetch_add(&xr->failures, 1);
        return status ? status : SB_EXIT_RUNTIME;
    }
    int lane_of[SB_RUN_MAX_DEVICES];
    int nlanes = suite->serial ? 1 : make_lanes(sessions, nsessions, lane_of);
    lane_job jobs[SB_RUN_MAX_DEVICES];
    size_t first = run->nresults;
    for (int l = 0; l < nlanes; l++) {
        jobs[l] = (lane_job){.xr = xr, .suite = suite, .sessions = sessions,
                             .nsessions = nsessions, .x = x, .lane = nlanes > 1 ? l : -1,
                             .lane_of = lane_of, .p = p, .all = all, .run = run};
        jobs[l].spent = &jobs[l].own;
        jobs[l].threaded =
            nlanes > 1 && pthread_create(&jobs[l].thread, NULL, run_lane, &jobs[l]) == 0;
        if (!jobs[l].threaded) {
            jobs[l].spent = spent;
            run_lane(&jobs[l]);
        }
    }
    for (int l = 0; l < nlanes; l++) {
        if (jobs[l].threaded) {
            pthread_join(jobs[l].thread, NULL);
            add_time(spent, &jobs[l].own);
        }
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

/* Where the run's host time went, when SIMTBENCH_TIMINGS asks. */
static void say_timings(const host_time *spent)
{
    if (!getenv("SIMTBENCH_TIMINGS"))
        return;
    sb_say("timings: inputs and references %.2f s, kernel builds %.2f s, variants %.2f s",
           spent->prepare, spent->build, spent->variants);
    sb_say("timings: variants: allocate %.2f s, first launch %.2f s, warm-up %.2f s, timed "
           "%.2f s, poison %.2f s, read back %.2f s, compare %.2f s, "
           "record %.2f s",
           spent->alloc, spent->first, spent->warm, spent->timed, spent->poison,
           spent->download, spent->compare, spent->record);
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

/* What a run holds until it ends, however it ends: the workspaces, the
   host buffer sets, the run object itself. */
static void run_end(exec_run *xr, const sb_suite *suite, int nsessions, workspaces *all)
{
    for (int x = 0; x < suite->nexperiments; x++)
        for (int si = 0; si < nsessions; si++)
            workspace_done(all, x, si);
    free(all);
    for (int i = 0; i < SB_RUN_MAX_DEVICES; i++)
        sb_host_sets_free(xr->hosts[i]);
    pthread_mutex_destroy(&xr->lock);
    free(xr);
}

int sb_execute(const sb_suite *suite, sb_session *sessions, int nsessions, sb_run *run,
               sb_experiment_done *done, void *ctx)
{
    int status = SB_EXIT_OK;
    exec_run *xr = calloc(1, sizeof *xr);
    host_time spent = {0};
    if (!xr) {
        sb_say("out of host memory");
        return SB_EXIT_RUNTIME;
    }
    pthread_mutex_init(&xr->lock, NULL);
    atomic_init(&xr->failures, 0);
    sb_progress_begin(count_variants(suite, nsessions), count_builds(suite, nsessions),
                      !suite->quiet && isatty(STDERR_FILENO));
    workspaces *all = calloc(1, sizeof *all);
    if (!all) {
        sb_say("out of host memory");
        free(xr);
        return SB_EXIT_RUNTIME;
    }
    workspaces_make(xr, &spent, suite, sessions, nsessions, all);
    if (user_builds(suite, sessions, nsessions, all)) {
        run_end(xr, suite, nsessions, all);
        return SB_EXIT_USAGE;
    }
    prepared *pair = calloc(2, sizeof *pair), *now = pair, *next = pair ? pair + 1 : NULL;
    if (pair && suite->nexperiments > 0) {
        prepare_start(suite, sessions, nsessions, 0, 0, now);
        prepare_wait(now, &spent);
    }
    int ran = 0;
    for (int x = 0; pair && x < suite->nexperiments && !sb_interrupted(); x++) {
        ran = 1;
        if (x + 1 < suite->nexperiments)
            prepare_start(suite, sessions, nsessions, x + 1,
                          may_prepare_ahead(now, suite, sessions, nsessions, x + 1), next);
        status = run_experiment(xr, &spent, suite, sessions, nsessions, x, now, all, run, status);
        if (done && !sb_interrupted()) {
            sb_progress_clear();
            done(ctx, run);
        }
        if (x + 1 < suite->nexperiments) {
            prepare_wait(next, &spent);
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
    free(pair);
    run->interrupted = sb_interrupted() != 0;
    run->failures = atomic_load(&xr->failures);
    run_end(xr, suite, nsessions, all);
    say_timings(&spent);
    return status;
}
