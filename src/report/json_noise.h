/* The JSON of the noise analysis (run/noise.h): a row's spread and
 * whether it is noisy, a device's drift check, and the run's count. */
#ifndef SB_JSON_NOISE_H
#define SB_JSON_NOISE_H

#include <jansson.h>

#include "report/json_build.h"
#include "analysis/noise.h"

/* A result's "noise" member: its spread (null without samples), whether
 * it is noisy and why, and whether its roof_share is withheld. */
void sb_json_noise_result(json_t *o, const sb_noise_row *row, sb_json_builder *b);

/* A device's "drift" member: its copy roof at the start and the end of
 * its session, and their drift; null where not measured. */
void sb_json_noise_device(json_t *o, const sb_run_device *d, sb_json_builder *b);

/* The run's "noise" object: the rule, its margin, the rows noisy and
 * judged, and whether most are noisy. */
json_t *sb_json_noise_run(const sb_noise *n, sb_json_builder *b);

#endif
