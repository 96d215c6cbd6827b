/* Report writers: a run and its analysis in the table, CSV, JSON, Markdown
 * and HTML formats, looked up by name in the writer table (writers.c).
 * Each writer lives in its own file, src/report/NAME.c, and only formats
 * what analysis produced. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report/format.h"
#include "run/analysis.h"

/* A writer: the analysed run (a->run, a->cross) formatted on out; 0, or -1
 * on a write error.  Each file declares its writer through this type, so
 * the compiler holds the definition to it. */
typedef int sb_report_writer(const sb_analysis *a, FILE *out);

/* Write the analysed run in the given format; 0, or -1 on a write error or
 * a format that is not in the table. */
int sb_report_write(sb_format format, const sb_analysis *a, FILE *out);

#endif
