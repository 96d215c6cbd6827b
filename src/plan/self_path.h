/* Where the running program lives, for finding an uninstalled build's
 * modules and kernels beside it without compiling build paths in. */
#ifndef SB_SELF_PATH_H
#define SB_SELF_PATH_H

#include <stddef.h>

/* The directory of the running executable into buf; 0, or -1 when it
 * cannot be known or does not fit in n bytes (buf is then ""). */
int sb_self_dir(char *buf, size_t n);

#endif
