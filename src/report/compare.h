/* The compare writers: a comparison of two runs (analysis/compare.h) in
 * the table, Markdown and JSON formats.  They are rows of the writer
 * table's formats, looked up by the format's name in the table of
 * compare_writers.c; each lives in src/report/compare_NAME.c and only
 * formats what the comparison holds. */
#ifndef SB_REPORT_COMPARE_H
#define SB_REPORT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "report/format.h"

/* A compare writer: c formatted on out; 0, or an SB_REPORT_ code
 * (report.h) with one line in err for SB_REPORT_REFUSED. */
typedef int sb_compare_writer(const sb_comparison *c, FILE *out, char *err, size_t n);

/* Whether the format has a compare writer. */
int sb_compare_format_known(sb_format format);

/* The comparison in the format on out; 0, or an SB_REPORT_ code with the
 * reason in err (the record refused, or why out could not be written). */
int sb_compare_write_to(sb_format format, const sb_comparison *c, FILE *out, char *err,
                        size_t n);

#endif
