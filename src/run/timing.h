/* The timing policy, once for every backend and experiment: a warm-up
 * that lasts long enough for clocks to settle, then timed launches,
 * queued back to back in batches where the backend can batch, each batch
 * opened by lead-in launches whose times are dropped. */
#ifndef SB_TIMING_H
#define SB_TIMING_H

#include <stddef.h>

#include "backend.h"
#include "experiments/experiment.h"

/* Launches queued back to back before a wait. */
#define SB_BATCH_CHUNK 256
/* Launches that open each timed batch, not recorded. */
#define SB_BATCH_LEAD 2

/* What one variant times: its kernel (k, args), the API's own copy
 * (buffers 1 <- 0), or the vendor library's transpose (plan args 0 and 1
 * are the matrix's rows and columns). */
typedef struct sb_timed_op {
    const sb_backend *vt;
    int batched;             /* the backend provides batch_begin/batch_end */
    sb_device *dev;
    sb_role role;
    const sb_plan *plan;
    sb_buffer *const *bufs;
    sb_kernel *k;            /* NULL for the API copy and the vendor row */
    const sb_arg *args;
} sb_timed_op;

/* One launch of op, timed into *ms when ms is not NULL; 0, or non-zero
 * with the reason in the backend's last_error(). */
int sb_launch_once(const sb_timed_op *op, double *ms);

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

#endif
