/* The OpenCL backend's timing: profiling events of an operation timed on
 * its own, and the events of a batch of operations read at its end
 * (batch_begin, batch_end). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>

#include "batch_rules.h"
#include "module.h"

/* An ended command's profiled time in ms: from its own start, or, where
 * begin is given, from the end of begin, a command enqueued just before
 * it (a library's call may run several kernels and return the event of
 * the last; the in-order queue starts the first once begin has ended). */
int profiled_ms(cl_event begin, cl_event ev, double *ms)
{
    cl_ulong start = 0, end = 0;
    cl_int e = begin ? clGetEventProfilingInfo(begin, CL_PROFILING_COMMAND_END, sizeof start,
                                               &start, NULL)
                     : clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                               &start, NULL);
    if (e == CL_SUCCESS)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetEventProfilingInfo", e);
    *ms = (double)(end - start) * 1e-6;
    return 0;
}

/* For an event whose command has ended: check that the command itself
 * succeeded, and read its profiled duration (profiled_ms) when ms is not
 * NULL.  The events are kept. */
static int event_result(cl_event begin, cl_event ev, const char *what, double *ms)
{
    cl_int status = CL_COMPLETE;
    cl_int e = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (e != CL_SUCCESS || status < 0)
        return set_error("%s failed on the device: %s", what,
                         cl_error_name(e != CL_SUCCESS ? e : status));
    return ms ? profiled_ms(begin, ev, ms) : 0;
}

/* Wait for the event, check that the command itself succeeded, and read
 * its profiled duration; both events are released. */
static int finish_event(cl_event begin, cl_event ev, const char *what, double *ms)
{
    cl_int e = clWaitForEvents(1, &ev);
    int r = e != CL_SUCCESS ? set_error("%s failed on the device: %s", what, cl_error_name(e))
                            : event_result(begin, ev, what, ms);
    clReleaseEvent(ev);
    if (begin)
        clReleaseEvent(begin);
    return r;
}

/* Whether an operation may be enqueued now (batch_rules.h's rules), with
 * the reason in last_error() when not. */
int batch_admits(const sb_device *d, const double *ms, const char *what)
{
    return sb_batch_rules_admit(&d->batch, ms != NULL, what, last_error_text,
                                sizeof last_error_text);
}

/* The end of an enqueued operation, timed from begin (or NULL: its own
 * start): outside a batch wait for it; inside one, keep its events for
 * batch_end and send the work to the device. */
int end_timed_op(sb_device *d, cl_event begin, cl_event ev, const char *what, double *ms)
{
    if (!d->batch.open)
        return finish_event(begin, ev, what, ms);
    struct batch_op *op = &d->ops[sb_batch_rules_add(&d->batch)];
    op->begin = begin;
    op->ev = ev;
    op->ms = ms;
    snprintf(op->what, sizeof op->what, "%s", what);
    cl_int e = clFlush(d->queue);
    if (e == CL_SUCCESS)
        return 0;
    op->ms = NULL; /* a failed operation gets no time; batch_end still releases the events */
    return cl_fail("clFlush", e);
}

int end_op(sb_device *d, cl_event ev, const char *what, double *ms)
{
    return end_timed_op(d, NULL, ev, what, ms);
}

int ocl_batch_begin(sb_device *d, int max)
{
    if (sb_batch_rules_begin(&d->batch, max, last_error_text, sizeof last_error_text))
        return -1;
    if (max > d->ops_have) {
        struct batch_op *ops = realloc(d->ops, sizeof *ops * (size_t)max);
        if (!ops) {
            sb_batch_rules_cancel(&d->batch);
            return set_error("batch_begin: out of host memory for %d operations", max);
        }
        d->ops = ops;
        d->ops_have = max;
    }
    return 0;
}

/* Waits for the whole queue, then reads and releases every event of the
 * batch; the first failure is the one reported. */
int ocl_batch_end(sb_device *d)
{
    int n = sb_batch_rules_end(&d->batch, last_error_text, sizeof last_error_text), failed = 0;
    if (n < 0)
        return -1;
    cl_int e = clFinish(d->queue);
    if (e != CL_SUCCESS)
        failed = cl_fail("clFinish (end of a batch)", e);
    for (int i = 0; i < n; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s (operation %d of a batch of %d)", d->ops[i].what, i + 1,
                 n);
        if (!failed && event_result(d->ops[i].begin, d->ops[i].ev, what, d->ops[i].ms))
            failed = -1;
        clReleaseEvent(d->ops[i].ev);
        if (d->ops[i].begin)
            clReleaseEvent(d->ops[i].begin);
    }
    return failed ? -1 : 0;
}
