/* What the executor's files share of one run (executor.c measures the
 * suite, variants.c one experiment's variants on one session): the run's
 * state, made by sb_execute and passed down, and the few steps both use. */
#ifndef SB_EXEC_RUN_STATE_H
#define SB_EXEC_RUN_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "exec/executor.h"
#include "exec/host_sets.h"
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

/* How warm a session's device is: device time in the current busy
   stretch, and when that stretch's last launch ended (timing.h). */
typedef struct warmth {
    int seen;
    double busy_ms;
    struct timespec last_end;
} warmth;

/* What one sb_execute holds for its whole run, made by it and passed down
   to every step that needs it: the executor keeps no state of its own
   between calls (the interrupt flag, interrupt.c, is the process's). */
typedef struct exec_run {
    /* Guards the run's results while devices are measured at the same
       time. */
    pthread_mutex_t lock;
    /* The failures reported so far, from every device's thread, for the
       run's summary to count. */
    atomic_int failures;
    warmth warmth[SB_RUN_MAX_DEVICES];
    /* Each session's host buffers for read-backs, for the whole run. */
    sb_host_sets *hosts[SB_RUN_MAX_DEVICES];
    /* Sessions whose missing counters were said already (counting.h). */
    int counters_said[SB_RUN_MAX_DEVICES];
} exec_run;

/* Adds the seconds since *t to *acc and restarts *t. */
static inline void lap(double *acc, struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *acc += (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
    *t = now;
}

static inline double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-6;
}

/* A failure of variant v (NULL: the whole experiment e) on session s,
 * said and counted in the run's failures. */
void sb_exec_failure(exec_run *xr, const sb_session *s, const sb_experiment *e,
                     const sb_variant *v, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Experiment se's variants on session s, one by one, from the inputs in
 * host and the programs in ws: each measured, read back and checked, its
 * record added to run; the first failure's status, or SB_EXIT_OK.  spent:
 * the calling thread's host times. */
int sb_run_variants(exec_run *xr, host_time *spent, const sb_suite *suite, sb_session *s,
                    const sb_suite_experiment *se, const sb_problem *size, void *host,
                    sb_workspace *ws, const char *source, sb_run *run);

#endif
