/* --counters: one more launch of a kernel row, under the API's profiler
 * (never a timed one), and the hardware's counts kept in its record.  A
 * backend without counters, or a profiler that cannot be used, is a
 * reason in the record and one note per session, never a failure of the
 * run. */
#ifndef SB_COUNTING_H
#define SB_COUNTING_H

#include "result.h"
#include "exec/timing.h"

/* Profile one launch of op's kernel into r (counted, counts,
 * counters_note).  provided: the backend has a launch_counted of its own;
 * said: the run's flag for the session, set once the reason counters are
 * missing is said, so that it is said once per session (NULL: never
 * said); quiet: say nothing.  Rows with no
 * kernel of ours (the API copy, the vendor row) are left uncounted with no
 * note. */
void sb_count_launch(const sb_timed_op *op, int provided, const char *backend, int *said,
                     int quiet, sb_result *r);

#endif
