/* The drift check (drift.h). */
#include "analysis/drift.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/experiment.h"
#include "exec/timing.h"
#include "stats.h"

/* Repetitions for a row that saved none (it always has some in a run). */
#define DEFAULT_REPS 10

/* The first API copy row of a device: the start of its drift check. */
static const sb_result *first_copy(const sb_run *run, int device)
{
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (r->device_slot == device && r->quantity == SB_QUANTITY_BANDWIDTH &&
            sb_result_role(r) == SB_ROLE_API_COPY && r->ms.median > 0 && r->bytes > 0)
            return r;
    }
    return NULL;
}

/* The copy of r's bytes timed again on s, its median into *ms; 0, or -1
 * with the reason in err. */
static int copy_again(const sb_session *s, const sb_result *r, double *ms, char *err,
                      size_t errn)
{
    const sb_backend *vt = s->slot.vt;
    /* A copy's useful bytes are what it reads plus what it writes. */
    size_t bytes = (size_t)(r->bytes / 2);
    int reps = r->reps > 0 ? r->reps : DEFAULT_REPS;
    sb_buffer *bufs[2] = {NULL, NULL};
    double *t = calloc((size_t)reps, sizeof *t);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.nbuffers = 2;
    plan.buffer[0].bytes = plan.buffer[1].bytes = bytes;
    sb_timed_op op = {.vt = vt, .batched = s->slot.provides.batch, .dev = s->dev,
                      .role = SB_ROLE_API_COPY, .plan = &plan, .bufs = bufs};
    int status = -1;
    double warm_ms;
    sb_stats st;
    if (!t)
        snprintf(err, errn, "out of host memory");
    else if (vt->alloc(s->dev, bytes, &bufs[0]) || vt->alloc(s->dev, bytes, &bufs[1]))
        snprintf(err, errn, "%s", vt->last_error());
    else if (!sb_warm_up(&op, r->warmup, SB_WARM_MS, &warm_ms, err, errn) &&
             !sb_time_launches(&op, reps, SB_BATCH_LEAD, t, err, errn) &&
             !sb_stats_compute(t, (size_t)reps, &st)) {
        *ms = st.median;
        status = 0;
    }
    for (int i = 0; i < 2; i++)
        if (bufs[i])
            vt->free(bufs[i]);
    free(t);
    return status;
}

void sb_sessions_drift_end(const sb_session *sessions, int n, sb_run *run)
{
    for (int i = 0; i < n; i++) {
        const sb_session *s = &sessions[i];
        if (!s->dev || s->run_device < 0 || s->run_device >= run->ndevices)
            continue;
        const sb_result *r = first_copy(run, s->run_device);
        if (!r)
            continue;
        char err[512] = "";
        double ms;
        if (copy_again(s, r, &ms, err, sizeof err) || !(ms > 0) || !isfinite(ms)) {
            fprintf(stderr, "simtbench: %s: the drift check's copy failed: %s\n", s->label,
                    err[0] ? err : "no time");
            continue;
        }
        sb_run_device *d = &run->devices[s->run_device];
        d->roof_start_gbs = r->bytes / (r->ms.median * 1e-3) / 1e9;
        d->roof_end_gbs = r->bytes / (ms * 1e-3) / 1e9;
    }
}
