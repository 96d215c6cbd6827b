/* The checker: compares one variant's read-back outputs with the host
 * reference on a thread of its own, so that the next variant's device work
 * runs meanwhile.  One check at a time: the executor waits for the one
 * running before it starts the next, so results are kept, and failures
 * reported, in the order the variants ran.  After comparing, the checker
 * poisons the host buffers again, so that a read-back that reports success
 * and copies nothing leaves poison to be caught, never an older output. */
#ifndef SB_CHECKER_H
#define SB_CHECKER_H

#include <pthread.h>
#include <stddef.h>

#include "experiments/experiment.h"

typedef struct sb_check {
    const sb_experiment *e;
    void *host;
    const sb_problem *p;
    const sb_variant *v;
    int noutputs;
    void *outputs[SB_MAX_BUFFERS];
    size_t bytes[SB_MAX_BUFFERS];
    /* The program's PTX (malloc'd, the check frees it) and the kernel's
       name, to summarise its memory instructions off the measuring
       thread; NULL where the API has none. */
    char *ptx;
    const char *kernel;
    /* filled by the check */
    char ptx_memory[512];   /* the summary, "" when none */
    int wrong;
    char why[1024];
    double compare_ms;
} sb_check;

typedef struct sb_checker {
    pthread_t thread;
    int running;   /* a check was started and not waited for */
    int threaded;  /* it runs on its own thread (else it ran at start) */
    sb_check job;
} sb_checker;

/* Start checking job (copied); the checker must be idle (sb_checker_wait). */
void sb_checker_start(sb_checker *c, const sb_check *job);

/* Wait for the running check: its job with the verdict, or NULL when none
 * was running. */
sb_check *sb_checker_wait(sb_checker *c);

#endif
