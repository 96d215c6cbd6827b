#include "exec/counting.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exec/progress.h"
#include "exec/registry.h"

static void note_missing(sb_result *r, const char *backend, int *said, int quiet,
                         const char *why)
{
    snprintf(r->counters_note, sizeof r->counters_note, "%s", why);
    if (said && !*said) {
        *said = 1;
        if (!quiet)
            sb_say("note: %s: no hardware counters: %s", backend, why);
    }
}

void sb_count_launch(const sb_timed_op *op, int provided, const char *backend, int *said,
                     int quiet, sb_result *r)
{
    r->counted = 0;
    r->counters_note[0] = '\0';
    for (int c = 0; c < SB_COUNTER_COUNT; c++)
        r->counts[c] = NAN;
    if (!op->k)
        return;
    if (!provided) {
        note_missing(r, backend, said, quiet, "this backend has no profiler");
        return;
    }
    double counts[SB_COUNTER_COUNT];
    if (op->vt->launch_counted(op->k, &op->plan->geometry, op->args, op->plan->nargs, counts)) {
        note_missing(r, backend, said, quiet, sb_registry_error(op->vt));
        return;
    }
    memcpy(r->counts, counts, sizeof counts);
    r->counted = 1;
}
