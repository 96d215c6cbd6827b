/* Finding and reading the portable kernel sources (the .cl files of common/kernels/). */
#ifndef SB_KERNEL_SOURCE_H
#define SB_KERNEL_SOURCE_H

#include <stddef.h>

/* The text of a backend's prelude followed by the kernel file, malloc'd;
 * NULL with a message in err when a file cannot be found or read.  Looks in
 * $SIMTBENCH_KERNEL_PATH, then the installed kernel directory, then the
 * source tree. */
char *sb_kernel_source(const char *prelude, const char *file, char *err, size_t n);

/* Whether the kernel file is found and is a readable regular file, so
 * that a run can be refused before a device opens: 0, or -1 with the
 * message sb_kernel_source would give in err. */
int sb_kernel_check(const char *file, char *err, size_t n);

/* The directory a kernel file was found in, for messages; NULL if none. */
const char *sb_kernel_dir(const char *file);

#endif
