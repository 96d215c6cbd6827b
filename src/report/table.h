/* The terminal table in parts, so that a run can print each experiment's
 * block as soon as it is measured (the run command streams them) and a
 * saved run renders the same text at once (sb_report_table). */
#ifndef SB_TABLE_H
#define SB_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

/* The run's title, the devices and the legend of what follows. */
void sb_table_header(const sb_analysis *a, FILE *out);

/* Block e of a->cross.experiments: its heading, one row per variant (side
 * by side with two or more devices) and its lessons; nothing when e is
 * past the last. */
void sb_table_block(const sb_analysis *a, size_t e, FILE *out);

/* After the last block: the noise (each device's drift check, and how
 * many rows are noisy: noise_table.h), then the fleet's outliers, device
 * by device (nothing where the run has no two like devices). */
void sb_table_footer(const sb_analysis *a, FILE *out);

#endif
