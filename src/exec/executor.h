/* The executor: runs a checked suite plan on opened sessions.  For every
 * experiment, once per size, the inputs and the reference; then, on every
 * session, for every chosen variant: build, allocate and upload, launch,
 * warm up, time, verify against the reference, and record the raw
 * result (samples' statistics, compiler resources, occupancy, what the
 * launch is worth, the declared access patterns).  Headline figures, roofs
 * and the model's predictions are analysis's (analysis.h). */
#ifndef SB_EXECUTOR_H
#define SB_EXECUTOR_H

#include "result.h"
#include "exec/session.h"
#include "plan/suite.h"

/* Called once each experiment is done on every session (not after an
 * interrupted one), with the run so far: the run command prints its block
 * then.  The progress line is cleared before. */
typedef void sb_experiment_done(void *ctx, sb_run *run);

/* Run the suite on sessions[0..nsessions), appending verified results to
 * run.  Failures are reported on stderr as they happen, one line each;
 * returns the exit status (SB_EXIT_OK when every variant ran and was
 * verified, else the first failure's).  After SIGINT or SIGTERM
 * (interrupt.h) it stops once the current variant is done and sets
 * run->interrupted. */
int sb_execute(const sb_suite *suite, sb_session *sessions, int nsessions, sb_run *run,
               sb_experiment_done *done, void *ctx);

#endif
