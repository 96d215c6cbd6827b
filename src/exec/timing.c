/* The timing policy (timing.h). */
#include "exec/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "compute.h"

#define SB_WARMUP_MAX_EXTRA 1000 /* launches it may add to reach that time */
#define SB_BATCH_LEAD_MAX 1024

int sb_launch_once(const sb_timed_op *op, double *ms)
{
    const sb_backend *vt = op->vt;
    const sb_plan *plan = op->plan;
    if (op->role == SB_ROLE_API_COPY)
        return vt->copy(op->bufs[1], op->bufs[0], plan->buffer[0].bytes, ms);
    if (op->role == SB_ROLE_VENDOR)
        return sb_vendor_launch(vt, op->vendor, plan, op->bufs, ms);
    return vt->launch(op->k, &plan->geometry, op->args, plan->nargs, ms);
}

int sb_vendor_provided(const sb_backend_provides *p, sb_vendor_call call)
{
    return call == SB_VENDOR_TRANSPOSE ? p->vendor_transpose
           : call == SB_VENDOR_SGEMM   ? p->vendor_sgemm
                                       : 0;
}

const char *sb_vendor_name(const sb_backend *vt, sb_vendor_call call)
{
    return call == SB_VENDOR_TRANSPOSE ? vt->vendor_transpose_name
           : call == SB_VENDOR_SGEMM   ? vt->vendor_sgemm_name
                                       : "";
}

int sb_vendor_launch(const sb_backend *vt, sb_vendor_call call, const sb_plan *plan,
                     sb_buffer *const *bufs, double *ms)
{
    if (call == SB_VENDOR_TRANSPOSE)
        return vt->vendor_transpose(bufs[1], bufs[0], plan->arg[0].i, plan->arg[1].i, ms);
    if (call == SB_VENDOR_SGEMM)
        return vt->vendor_sgemm(bufs[2], bufs[0], bufs[1], plan->arg[0].i, plan->arg[1].i,
                                plan->arg[2].i, ms);
    return -1;
}

/* A device time is a positive, finite number of milliseconds; anything
 * else (a driver that wrote 0, a negative or a NaN) is a failure, never a
 * figure.  0, or -1 with the message in err. */
static int bad_times(const double *ms, int n, char *err, size_t errn)
{
    for (int i = 0; i < n; i++)
        if (!(isfinite(ms[i]) && ms[i] > 0.0)) {
            snprintf(err, errn, "the device returned a time that is not positive: %g ms", ms[i]);
            return -1;
        }
    return 0;
}

/* Where the backend batches, the launches are queued back to back,
 * SB_BATCH_CHUNK at a time, with no host round trip between them; each
 * batch starts with lead launches whose times are dropped (first_lead for
 * the first batch, where the warm-up launches are the lead), so that the
 * first recorded launch follows a busy GPU and not the host's wait for the
 * previous batch.  Else each launch waits for itself. */
int sb_time_launches_led(const sb_timed_op *op, int n, int lead, int first_lead, double *ms,
                         double *lead_ms, char *err, size_t errn)
{
    const sb_backend *vt = op->vt;
    int batched = op->batched;
    static _Thread_local double dropped[SB_BATCH_LEAD_MAX];
    if (lead_ms)
        *lead_ms = 0;
    for (int done = 0; done < n;) {
        int want = done == 0 ? first_lead : lead;
        int lead_now = !batched || want < 0            ? 0
                       : want > SB_BATCH_LEAD_MAX ? SB_BATCH_LEAD_MAX
                                                  : want;
        int m = !batched ? 1 : n - done < SB_BATCH_CHUNK ? n - done : SB_BATCH_CHUNK;
        if (batched && lead_now + m > SB_BATCH_MAX)
            m = SB_BATCH_MAX - lead_now;
        if (batched && vt->batch_begin(op->dev, lead_now + m)) {
            snprintf(err, errn, "%s", sb_registry_error(vt));
            return -1;
        }
        int failed = 0;
        for (int i = 0; i < lead_now + m && !failed; i++)
            if ((failed = sb_launch_once(op, i < lead_now ? &dropped[i]
                                                          : &ms[done + i - lead_now]) != 0))
                snprintf(err, errn, "%s", sb_registry_error(vt));
        /* The batch ends even after a failure, so that the device is left
           usable; the first failure is the one reported. */
        if (batched && vt->batch_end(op->dev) && !failed) {
            snprintf(err, errn, "%s", sb_registry_error(vt));
            failed = 1;
        }
        if (failed || bad_times(ms + done, m, err, errn) || bad_times(dropped, lead_now, err, errn))
            return -1;
        for (int i = 0; lead_ms && i < lead_now; i++)
            *lead_ms += dropped[i];
        done += m;
    }
    return 0;
}

int sb_time_launches(const sb_timed_op *op, int n, int lead, double *ms, char *err, size_t errn)
{
    return sb_time_launches_led(op, n, lead, lead, ms, NULL, err, errn);
}

/* The extra launches are sized from the time per launch measured so far. */
int sb_warm_up(const sb_timed_op *op, int launches, double floor_ms, double *warm_ms, char *err,
               size_t n)
{
    double ms[SB_BATCH_CHUNK];
    int done = 0, extra = 0;
    *warm_ms = 0.0;
    for (;;) {
        int m;
        if (done < launches) {
            m = launches - done;
        } else if (*warm_ms < floor_ms && extra < SB_WARMUP_MAX_EXTRA) {
            double left = SB_WARMUP_MAX_EXTRA - extra, per = done > 0 ? *warm_ms / done : 0;
            double need = per > 0 ? ceil((floor_ms - *warm_ms) / per) : 1;
            m = need < 1 ? 1 : need < left ? (int)need : (int)left;
            extra += m < SB_BATCH_CHUNK ? m : SB_BATCH_CHUNK;
        } else {
            return 0;
        }
        if (m > SB_BATCH_CHUNK)
            m = SB_BATCH_CHUNK;
        if (sb_time_launches(op, m, 0, ms, err, n))
            return -1;
        for (int i = 0; i < m; i++)
            *warm_ms += ms[i];
        done += m;
    }
}

int sb_queue_length(double device_ms)
{
    double n = device_ms > 0 ? floor(SB_QUEUE_TRIAL_MS / device_ms) : SB_QUEUE_MAX;
    return n > SB_QUEUE_MAX ? SB_QUEUE_MAX : n < SB_QUEUE_MIN ? SB_QUEUE_MIN : (int)n;
}

/* Seconds on the monotonic clock, the one a host-timed benchmark reads. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* count launches queued at once and drained, timed on the host into *s. */
static int queued_seconds(const sb_timed_op *op, int count, double *s, char *err, size_t errn)
{
    double t0 = now_s();
    if (op->vt->launch_queued(op->k, &op->plan->geometry, op->args, op->plan->nargs, count)) {
        snprintf(err, errn, "%s", sb_registry_error(op->vt));
        return -1;
    }
    *s = now_s() - t0;
    return 0;
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int sb_time_on_host(const sb_timed_op *op, int n, double device_ms, double *host_ms,
                    double *per_s, int *queued, char *err, size_t errn)
{
    double s, rates[SB_QUEUE_TRIALS];
    *per_s = 0;
    *queued = sb_queue_length(device_ms);
    /* One launch first, untimed: what the host's path makes on its first
       use (OpenCL's queue without profiling) is no launch's cost. */
    if (queued_seconds(op, 1, &s, err, errn))
        return -1;
    for (int i = 0; i < n; i++) {
        if (queued_seconds(op, 1, &s, err, errn))
            return -1;
        host_ms[i] = s * 1e3;
    }
    for (int t = 0; t < SB_QUEUE_TRIALS; t++) {
        if (queued_seconds(op, *queued, &s, err, errn))
            return -1;
        rates[t] = sb_launches_per_second(*queued, s);
    }
    qsort(rates, SB_QUEUE_TRIALS, sizeof rates[0], by_value);
    *per_s = rates[SB_QUEUE_TRIALS / 2];
    return bad_times(host_ms, n, err, errn);
}
