/* Report writers: a run's results in the table, CSV, JSON, Markdown and
 * HTML formats.  Each writer lives in its own report_*.c file. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stdio.h>

#include "cli/options.h"
#include "report/describe.h"
#include "result.h"

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

#endif
