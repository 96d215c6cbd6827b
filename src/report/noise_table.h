/* The table's noise lines under the last block: each device's drift
 * check and, where most rows are noisy, the line that says so. */
#ifndef SB_NOISE_TABLE_H
#define SB_NOISE_TABLE_H

#include <stdio.h>

#include "analysis/analysis.h"

/* Nothing where no device's drift was measured and no row is noisy. */
void sb_table_noise_footer(const sb_analysis *a, int width, FILE *out);

#endif
