/* Reading the members of a saved run's top-level object that are not
 * records of their own; each 0, or -1 with the reason in why. */
#ifndef SB_JSON_READ_HEAD_H
#define SB_JSON_READ_HEAD_H

#include <jansson.h>
#include <stddef.h>

#include "result.h"

/* The backends the run left out ("unavailable", optional) into run. */
int sb_read_unavailable(json_t *head, sb_run *run, char *why, size_t wn);

/* Where the run came from ("provenance", optional) into run. */
int sb_read_provenance(json_t *head, sb_run *run, char *why, size_t wn);

/* A merged result's runs ("sources", optional) into run, each device's
 * source checked against them. */
int sb_read_sources(json_t *head, sb_run *run, char *why, size_t wn);

#endif
