/* `simtbench compare OLD.json NEW.json`: what got faster or slower between
 * two saved runs, beyond the spread of either (crossapi.h's rule), with a
 * header saying what else differs (devices, drivers, tool versions, dates).
 * One tool answers "did the new driver slow OpenCL down" and "how does this
 * H200 compare with that A100". */
#ifndef SB_CMD_COMPARE_H
#define SB_CMD_COMPARE_H

#include <stdio.h>

/* Runs `simtbench compare ...` (argv[0] is "compare") on stdout and stderr;
 * returns the exit status: 0 compared (changed or not), 2 bad usage,
 * 5 a file unreadable, not JSON or not a simtbench result (one line). */
int sb_cmd_compare(int argc, char **argv);

/* The same, writing the comparison to out and errors to err. */
int sb_cmd_compare_to(int argc, char **argv, FILE *out, FILE *err);

/* Its options for the shell's completion (cli/complete.h). */
void sb_cmd_compare_complete(FILE *out);

#endif
