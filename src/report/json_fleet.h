/* The JSON writer's records of a fleet (json.c writes them): the runs a
 * merged result came from, and the fleet rows with their outliers. */
#ifndef SB_JSON_FLEET_H
#define SB_JSON_FLEET_H

#include "report/json_build.h"
#include "analysis/analysis.h"

/* The runs of a merged result, "sources": one object each (file, tool
 * version, start, host, provenance, interrupted); NULL out of memory. */
json_t *sb_json_sources(const sb_run *run, sb_json_builder *b);

/* One fleet row: the experiment, variant and size, the group (backend,
 * device name, how many), the median figure, the fastest and slowest
 * device, and each outlier with its identity, how far below, and the
 * verdict against the peer nearest the median. */
json_t *sb_json_fleet_row(const sb_analysis *a, const sb_fleet_row *fr, sb_json_builder *b);

#endif
