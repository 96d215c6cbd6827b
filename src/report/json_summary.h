/* The run's closing summary (run/summary.h) as the JSON writer's member
 * "summary" (json.c writes it). */
#ifndef SB_JSON_SUMMARY_H
#define SB_JSON_SUMMARY_H

#include <jansson.h>

#include "analysis/summary.h"

/* {"lines": [{"topic", "experiment" (headlines only), "text"}, ...]}, in
 * the order printed; every string made printable (json_build.h), so that
 * nothing is refused; NULL out of memory. */
json_t *sb_json_summary(const sb_summary *s);

#endif
