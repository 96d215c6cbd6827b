/* The terminal table's fleet parts, which table.c prints where a run holds
 * two or more like devices (one backend, one device name; fleet.h): the
 * rule in the header, a fleet block under each experiment's, and the
 * outliers device by device at the end (sb_table_footer, table.h). */
#ifndef SB_FLEET_TABLE_H
#define SB_FLEET_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

/* The outlier rule and what the fleet blocks show; nothing without two
 * like devices. */
void sb_table_fleet_legend(const sb_analysis *a, int width, FILE *out);

/* Experiment e's fleet rows: per variant and group of like devices, the
 * median figure, the fastest and the slowest device, and the outliers,
 * each named under the row with its index, PCI address and UUID. */
void sb_table_fleet_block(const sb_analysis *a, size_t e, int width, FILE *out);

#endif
