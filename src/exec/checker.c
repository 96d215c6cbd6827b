/* The checker (checker.h). */
#include "exec/checker.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "experiments/host_data.h"
#include "exec/ptx_summary.h"

static void *check(void *arg)
{
    sb_check *j = arg;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    j->why[0] = '\0';
    j->wrong = j->e->verify(j->host, j->p, j->v, j->outputs, j->why, sizeof j->why);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    j->compare_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    for (int i = 0; i < j->noutputs; i++)
        sb_poison(j->outputs[i], j->bytes[i]);
    j->ptx_memory[0] = '\0';
    if (j->ptx) {
        sb_ptx_summary sum;
        char why[128];
        if (sb_ptx_summarize(j->ptx, j->kernel, &sum, why, sizeof why) == 0)
            sb_ptx_summary_format(&sum, j->ptx_memory, sizeof j->ptx_memory);
        free(j->ptx);
        j->ptx = NULL;
    }
    return NULL;
}

void sb_checker_start(sb_checker *c, const sb_check *job)
{
    c->job = *job;
    c->running = 1;
    /* Without a thread the check runs here and now: slower, as right. */
    c->threaded = pthread_create(&c->thread, NULL, check, &c->job) == 0;
    if (!c->threaded)
        check(&c->job);
}

sb_check *sb_checker_wait(sb_checker *c)
{
    if (!c->running)
        return NULL;
    if (c->threaded)
        pthread_join(c->thread, NULL);
    c->running = 0;
    return &c->job;
}
