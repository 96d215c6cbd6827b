/* What a run has measured, kept on disk while it goes on under a memory
 * limit, for a crash to put in place (exec/fatal_signal.h).  After each
 * experiment the outputs asked for (-o, --save) are written whole to
 * temporaries beside their targets, as an interrupted run writes them;
 * a crash (the backend's runtime or compiler out of memory) renames them
 * over their targets, and the run's end, which writes the real files,
 * removes them.  Without a memory limit, or with nothing to write to a
 * file, nothing is kept: the crash handler only speaks under a limit. */
#ifndef SB_RUN_KEEP_H
#define SB_RUN_KEEP_H

#include "cli/options.h"
#include "result.h"
#include "plan/suite.h"

/* The results of run so far written to the kept files, in place of the
 * ones kept before; where one cannot be written, the ones before stand. */
void sb_run_keep(const sb_options *o, const sb_suite *suite, sb_run *run);

/* Nothing kept any more: the files removed, a crash keeps nothing. */
void sb_run_keep_drop(void);

#endif
