/* Where a run came from (sb_run's provenance): the revision this program
 * was built from, the command line, the system, the CPU, and when it ended. */
#ifndef SB_PROVENANCE_H
#define SB_PROVENANCE_H

#include <stddef.h>

#include "result.h"

/* The revision this program was built from: `git describe --always
 * --dirty` of its source tree, the one its tarball was made from, or the
 * release version. */
const char *sb_provenance_revision(void);

/* argv[0..argc) as one line a POSIX shell reads back as the same words:
 * each word that holds anything but [A-Za-z0-9_@%+=:,./-] (or is empty) is
 * single-quoted.  Cut with " ..." at the end where dst is too small. */
void sb_shell_join(int argc, const char *const *argv, char *dst, size_t n);

/* The first "model name" of a /proc/cpuinfo-style file into dst; 0, or -1
 * (dst "") where the file has none or cannot be read. */
int sb_cpu_model(const char *cpuinfo, char *dst, size_t n);

/* Fill run->provenance but its end: revision, command line (argv may be
 * NULL: none known), uname's system, release and machine, and the CPU
 * model (/proc/cpuinfo's, else the machine). */
void sb_provenance_stamp(sb_run *run, int argc, const char *const *argv);

/* The run's end, now, as ISO 8601 UTC. */
void sb_provenance_end(sb_run *run);

/* The time now as ISO 8601 UTC ("2024-05-01T12:00:00Z") into dst. */
void sb_utc_now(char *dst, size_t n);

#endif
