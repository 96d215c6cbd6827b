/* Report writers: a run's results in the table, CSV, JSON, Markdown and
 * HTML formats.  Each writer lives in its own report_*.c file. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stdio.h>

#include "cli/options.h"
#include "result.h"

#define SB_REPORT_MAX_EXPERIMENTS 64

/* Write the run in the given format; 0, or -1 on a write error. */
int sb_report_write(sb_format format, const sb_run *run, FILE *out);

/* The writers, one per file. */
int sb_report_table(const sb_run *run, FILE *out);
int sb_report_csv(const sb_run *run, FILE *out);
int sb_report_json(const sb_run *run, FILE *out);
int sb_report_markdown(const sb_run *run, FILE *out);
/* HTML with the plots inline: rendered into a temporary directory when
 * gnuplot is there, else left out with a note. */
int sb_report_html(const sb_run *run, FILE *out);

/* "smem col: 32-way, 32 wavefronts; store: 32 sectors/req, 12.5% used", or "" with no model. */
void sb_result_model_text(const sb_result *r, char *buf, size_t n);

/* What a row adds beside the model: "12.8 FLOP/B", "occupancy 2 blocks/unit,
 * 8448 threads in flight", or "" with nothing to say. */
void sb_result_notes(const sb_result *r, char *buf, size_t n);

/* Theoretical DRAM peak of a device in GB/s from the seed's formula; 0 when
 * the API gave no bus width or memory clock. */
double sb_device_peak_gbs(const sb_device_info *info);

/* Indices of the distinct experiments in the run, in first-seen order; returns the count. */
size_t sb_run_experiments_seen(const sb_run *run, size_t *first, size_t max);

#endif
