/* The CUDA backend's timing: device events around an operation timed on
 * its own, and the pool of event pairs a batch of operations is timed
 * with (batch_begin, batch_end). */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>

#include "batch_rules.h"
#include "module.h"

/* Waits for the stream, where a fault of the work on it surfaces, then
 * reads the events recorded around that work when ms is wanted. */
static int finish(sb_device *d, double *ms, const char *what)
{
    float t = 0;
    if (cu_failed(cu.cuStreamSynchronize(d->stream), "%s: cuStreamSynchronize", what) ||
        (ms && cu_failed(cu.cuEventElapsedTime_v2(&t, d->start, d->stop),
                         "%s: cuEventElapsedTime", what)))
        return -1;
    if (ms)
        *ms = t;
    return 0;
}

/* The events to record around an operation, NULL when it is not timed:
 * the device's own pair outside a batch, the batch's next pair inside
 * one, where only a timed operation, and only while there is room, may
 * be queued. */
int op_events(sb_device *d, const double *ms, const char *what, sb_CUevent *start,
              sb_CUevent *stop)
{
    *start = *stop = NULL;
    if (sb_batch_rules_admit(&d->batch, ms != NULL, what, last, sizeof last))
        return -1;
    if (d->batch.open) {
        *start = d->pool_start[d->batch.count];
        *stop = d->pool_stop[d->batch.count];
    } else if (ms) {
        *start = d->start;
        *stop = d->stop;
    }
    return 0;
}

/* The end of an operation enqueued between its events: outside a batch
 * wait for it; inside one, leave it running and keep where its time goes. */
int end_op(sb_device *d, double *ms, const char *what)
{
    if (!d->batch.open)
        return finish(d, ms, what);
    d->batch_ms[sb_batch_rules_add(&d->batch)] = ms;
    return 0;
}

/* Grows the pool to max pairs, keeping the pairs made before a failure. */
static int grow_pool(sb_device *d, int max)
{
    if (max <= d->pool_have)
        return 0;
    sb_CUevent *start = realloc(d->pool_start, sizeof *start * (size_t)max);
    if (start)
        d->pool_start = start;
    sb_CUevent *stop = start ? realloc(d->pool_stop, sizeof *stop * (size_t)max) : NULL;
    if (stop)
        d->pool_stop = stop;
    double **ms = stop ? realloc(d->batch_ms, sizeof *ms * (size_t)max) : NULL;
    if (ms)
        d->batch_ms = ms;
    if (!ms) {
        set_error("batch_begin: out of host memory for %d operations", max);
        return -1;
    }
    while (d->pool_have < max) {
        int i = d->pool_have;
        if (cu_failed(cu.cuEventCreate(&d->pool_start[i], SB_CU_EVENT_DEFAULT),
                      "batch_begin: cuEventCreate"))
            return -1;
        if (cu_failed(cu.cuEventCreate(&d->pool_stop[i], SB_CU_EVENT_DEFAULT),
                      "batch_begin: cuEventCreate")) {
            cu.cuEventDestroy_v2(d->pool_start[i]);
            return -1;
        }
        d->pool_have++;
    }
    return 0;
}

int cuda_batch_begin(sb_device *d, int max)
{
    if (sb_batch_rules_begin(&d->batch, max, last, sizeof last))
        return -1;
    if (use(d) || grow_pool(d, max)) {
        sb_batch_rules_cancel(&d->batch);
        return -1;
    }
    return 0;
}

/* Waits for the last stop event, where a fault of the batch's work
 * surfaces (the stream runs in order), then reads every pair.  The batch
 * ends whatever happens; the pool's events are reused by the next one. */
int cuda_batch_end(sb_device *d)
{
    int n = sb_batch_rules_end(&d->batch, last, sizeof last);
    if (n < 0 || use(d))
        return -1;
    if (n > 0 && cu_failed(cu.cuEventSynchronize(d->pool_stop[n - 1]),
                           "batch of %d operations: cuEventSynchronize", n))
        return -1;
    for (int i = 0; i < n; i++) {
        float t = 0;
        if (cu_failed(cu.cuEventElapsedTime_v2(&t, d->pool_start[i], d->pool_stop[i]),
                      "batch of %d operations: cuEventElapsedTime of operation %d", n, i + 1))
            return -1;
        *d->batch_ms[i] = t;
    }
    return 0;
}
