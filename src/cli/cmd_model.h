/* `simtbench model`: what the memory-access model predicts for a pattern. */
#ifndef SB_CMD_MODEL_H
#define SB_CMD_MODEL_H

#include <stdio.h>

/* Runs `simtbench model ...` (argv[0] is "model"); returns the exit status:
 * 0 ok, 1 output could not be written, 2 bad usage (one line on stderr,
 * nothing on stdout). */
int sb_cmd_model(int argc, char **argv);

/* Its options for the shell's completion (cli/complete.h). */
void sb_cmd_model_complete(FILE *out);

#endif
