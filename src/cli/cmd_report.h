/* `simtbench report SAVED.json`: a saved run (--save, or --format json)
 * written again in any format, and its plots drawn, without measuring
 * again: the table on the GPU machine, the Markdown, HTML and plots later. */
#ifndef SB_CMD_REPORT_H
#define SB_CMD_REPORT_H

#include <stdio.h>

/* Runs `simtbench report ...` (argv[0] is "report"); returns the exit
 * status: 0 written, 2 bad usage, 5 the file unreadable, not a simtbench
 * result, or an output or plot that cannot be written (one line each). */
int sb_cmd_report(int argc, char **argv);

/* Its options for the shell's completion (cli/complete.h). */
void sb_cmd_report_complete(FILE *out);

#endif
