/* `simtbench [OPTION]...`: the run command.  Options, then the suite plan
 * (checked before any device opens), the sessions, the executor, the
 * analysis, the report and the files. */
#ifndef SB_CMD_RUN_H
#define SB_CMD_RUN_H

#include "cli/options.h"

/* Run the experiments o asks for; returns the exit status (options.h's
 * SB_EXIT_*), with one line on stderr for each failure. */
int sb_cmd_run(const sb_options *o);

#endif
