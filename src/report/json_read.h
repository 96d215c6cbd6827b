/* Reading a saved run back: the JSON that `--format json` writes, schema
 * simtbench-result/1, into the same records the writers use. */
#ifndef SB_RESULT_READ_H
#define SB_RESULT_READ_H

#include <stddef.h>

#include "result.h"

/* What the readers return when the host's memory ran out: not a fault
 * of the file, so a caller says it as a runtime error. */
#define SB_RUN_READ_NOMEM (-2)

/* Read path into run (zeroed first).  0, or -1 with one line in err that
 * names the file and says what is wrong: unreadable, not JSON (with the
 * line and column), not a simtbench result (a foreign schema), or a field
 * missing or mistyped (with where its record starts); SB_RUN_READ_NOMEM
 * with the line when memory ran out. */
int sb_run_read_json(const char *path, sb_run *run, char *err, size_t n);

/* As sb_run_read_json, and the device slot the saved report compared the
 * others with into *reference: the file's "reference", else (a file that
 * predates it) its first comparison's, else -1.  A "reference" that is not
 * a device of the run makes the file malformed. */
int sb_run_read_saved(const char *path, sb_run *run, int *reference, char *err, size_t n);

#endif
