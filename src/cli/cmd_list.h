/* `simtbench --list`: the experiments with their variants, and the
 * backends with their availability and devices. */
#ifndef SB_CMD_LIST_H
#define SB_CMD_LIST_H

#include <stdio.h>

/* Write the list to f. */
void sb_cmd_list(FILE *f);

#endif
