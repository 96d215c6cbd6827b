/* The timing policy, once for every backend and experiment: a warm-up
 * that lasts long enough for clocks to settle, then timed launches,
 * queued back to back in batches where the backend can batch, each batch
 * opened by lead-in launches whose times are dropped. */
#ifndef SB_TIMING_H
#define SB_TIMING_H

#include <stddef.h>

#include "backend.h"
#include "experiments/experiment.h"
#include "exec/registry.h"

/* Launches queued back to back before a wait. */
#define SB_BATCH_CHUNK 256
/* Launches that open each timed batch, not recorded. */
#define SB_BATCH_LEAD 2

/* What one variant times: its kernel (k, args), the API's own copy
 * (buffers 1 <- 0), or the vendor library's call (experiment.h's
 * sb_vendor_call says which, and what the plan's arguments are). */
typedef struct sb_timed_op {
    const sb_backend *vt;
    int batched;             /* the backend provides batch_begin/batch_end */
    sb_device *dev;
    sb_role role;
    sb_vendor_call vendor;   /* a vendor row's call */
    const sb_plan *plan;
    sb_buffer *const *bufs;
    sb_kernel *k;            /* NULL for the API copy and the vendor row */
    const sb_arg *args;
} sb_timed_op;

/* One launch of op, timed into *ms when ms is not NULL; 0, or non-zero
 * with the reason in the backend's last_error(). */
int sb_launch_once(const sb_timed_op *op, double *ms);

/* Whether the backend was built with the vendor call (an unknown call:
 * no). */
int sb_vendor_provided(const sb_backend_provides *p, sb_vendor_call call);

/* The vendor call's name as the backend gives it ("cublasSgemm"); "" for
 * an unknown call. */
const char *sb_vendor_name(const sb_backend *vt, sb_vendor_call call);

/* The vendor call on the plan's buffers and arguments (sb_vendor_call
 * says which), timed into *ms when ms is not NULL; 0, or non-zero with
 * the reason in the backend's last_error(). */
int sb_vendor_launch(const sb_backend *vt, sb_vendor_call call, const sb_plan *plan,
                     sb_buffer *const *bufs, double *ms);

/* The device is warm once it has been busy this long with no idle gap
 * over SB_WARM_GAP_MS: clocks up, the variant's buffers in the caches and
 * TLBs.  A variant that follows another closely counts the device time of
 * the one before (the executor keeps the tally). */
#define SB_WARM_MS 20.0
#define SB_WARM_GAP_MS 50.0

/* The warm-up: launches launches, then more until their device time adds
 * up to floor_ms (with a cap on the extra launches); the device time they
 * took in *warm_ms; 0, or -1 with the first failure in err. */
int sb_warm_up(const sb_timed_op *op, int launches, double floor_ms, double *warm_ms, char *err,
               size_t n);

/* n timed launches, their device times into ms[0..n); each batch opens
 * with lead launches whose times are dropped (none when unbatched); 0, or
 * -1 with the first failure in err. */
int sb_time_launches(const sb_timed_op *op, int n, int lead, double *ms, char *err, size_t errn);

/* As sb_time_launches, with first_lead dropped launches opening the first
 * batch (the warm-up launches, when the device is warm already) and their
 * device time summed into *lead_ms when lead_ms is not NULL. */
int sb_time_launches_led(const sb_timed_op *op, int n, int lead, int first_lead, double *ms,
                         double *lead_ms, char *err, size_t errn);

/* The host's view of a kernel, as a benchmark timed on the host sees it:
 * launches queued back to back at most (and at least), each trial of them
 * sized so that its device time stays near SB_QUEUE_TRIAL_MS, and how
 * many trials give the launches per second (their median). */
#define SB_QUEUE_MAX 1000
#define SB_QUEUE_MIN 8
#define SB_QUEUE_TRIAL_MS 50.0
#define SB_QUEUE_TRIALS 5

/* The launches per trial for a kernel of device_ms per launch. */
int sb_queue_length(double device_ms);

/* What the host sees of op's kernel (a kernel row; the backend's
 * launch_queued): after one untimed launch, n launches each timed alone
 * on CLOCK_MONOTONIC from its enqueue to its completion, into
 * host_ms[0..n); then
 * SB_QUEUE_TRIALS trials of sb_queue_length(device_ms) launches back to
 * back, their median launches per second into *per_s and the launches of
 * a trial into *queued.  0, or -1 with the first failure in err. */
int sb_time_on_host(const sb_timed_op *op, int n, double device_ms, double *host_ms,
                    double *per_s, int *queued, char *err, size_t errn);

#endif
