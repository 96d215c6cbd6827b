/* The plan's request (plan/request.h) from the parsed options: the one
 * place the command line hands the pipeline what it was asked. */
#ifndef SB_RUN_REQUEST_H
#define SB_RUN_REQUEST_H

#include "cli/options.h"
#include "plan/request.h"

/* Fill *r with what o asks of a run. */
void sb_options_request(const sb_options *o, sb_run_request *r);

#endif
