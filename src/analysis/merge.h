/* Merging runs: the saved runs of many tasks, hosts and days into one
 * result whose devices are all of theirs, each device keeping the run it
 * came from (sb_run.sources: file, host, start, build, command), so that
 * the fleet of like devices (fleet.h) spans them and every writer, and
 * `simtbench compare`, reads the one result as any other. */
#ifndef SB_MERGE_H
#define SB_MERGE_H

#include <stddef.h>

#include "result.h"

/* Append the run read from file to into: its devices after into's, each
 * with its source (from's own sources where it is itself a merged result,
 * else from as one new source), its results with their device indices
 * moved to match, and the backends it left out (the reason prefixed with
 * its host).  0; -1 with one line in err where the devices would be more
 * than a result holds (into unchanged), where from is a run into already
 * holds (one host, start, end and command line, and the same devices: the
 * same file given twice; the tasks of one job differ in their devices), or
 * out of host memory. */
int sb_run_merge(sb_run *into, const sb_run *from, const char *file, char *err, size_t n);

#endif
