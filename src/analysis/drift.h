/* The drift check: each device's copy roof measured again once its
 * session has run every experiment, to hold against the first time the
 * run measured it.  Repetitions taken back to back within one row cannot
 * see what moves over a whole run (clocks, temperature, a busy host
 * sharing a CPU device); the same copy at both ends does.  noise.h judges
 * what this measures. */
#ifndef SB_DRIFT_H
#define SB_DRIFT_H

#include "result.h"
#include "exec/session.h"

/* For each open session whose device has an API copy row in run: the
 * first such row's figure as the device's roof_start_gbs, and the same
 * copy of the same bytes timed again (the row's repetitions and warm-up)
 * as its roof_end_gbs.  A device without such a row, or whose copy fails
 * now, keeps 0 (not measured); a failure is a note on stderr, never a
 * failure of the run.  Called after the last experiment, before the
 * sessions close, and not after an interrupted run. */
void sb_sessions_drift_end(const sb_session *sessions, int n, sb_run *run);

#endif
