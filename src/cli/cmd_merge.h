/* `simtbench merge RUN.json... [-o FLEET.json]`: many saved runs (the tasks
 * of a Slurm job, the nodes of a cluster, the days of a burn-in) into one
 * result that keeps where each device ran (host, start, build, command,
 * file), with the fleet table of like devices and their outliers.  The
 * merged file is a saved run: every format (`simtbench report`) and
 * `simtbench compare` read it. */
#ifndef SB_CMD_MERGE_H
#define SB_CMD_MERGE_H

#include <stdio.h>

/* Runs `simtbench merge ...` (argv[0] is "merge"); returns the exit
 * status: 0 merged, 2 bad usage (no file, too many devices, one run given
 * twice), 5 a file that cannot be read, is not a simtbench result, or an
 * output that cannot be written (one line each). */
int sb_cmd_merge(int argc, char **argv);

/* Its options for the shell's completion (cli/complete.h). */
void sb_cmd_merge_complete(FILE *out);

#endif
