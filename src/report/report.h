/* Report writers: a run and its analysis in the table, CSV, JSON, Markdown
 * and HTML formats, looked up by name in the writer table (writers.c).
 * Each writer lives in its own file, src/report/NAME.c, and only formats
 * what analysis produced. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report/format.h"
#include "analysis/analysis.h"

/* What a writer and the calls below return besides 0. */
enum {
    SB_REPORT_IO_ERROR = -1, /* the output could not be written (or no such format) */
    SB_REPORT_REFUSED = -2   /* a record cannot be written in the format: the message
                                names it, and nothing was written */
};

/* A writer: the analysed run (a->run, a->cross) formatted on out; 0, or an
 * SB_REPORT_ code with one line in err for SB_REPORT_REFUSED.  Each file
 * declares its writer through this type, so the compiler holds the
 * definition to it. */
typedef int sb_report_writer(const sb_analysis *a, FILE *out, char *err, size_t n);

/* Write the analysed run in the given format on out; 0, or an SB_REPORT_
 * code. */
int sb_report_write(sb_format format, const sb_analysis *a, FILE *out);

/* As sb_report_write, with the reason in err on failure: the record
 * refused, or why out could not be written. */
int sb_report_write_to(sb_format format, const sb_analysis *a, FILE *out, char *err, size_t n);

/* The report into the file at path (NULL: standard output), written
 * beside it and renamed over it when complete (output_file.h), so that a
 * failure leaves whatever was at path as it was; 0, or an SB_REPORT_ code
 * with one line in err, "cannot write PATH: why". */
int sb_report_write_file(sb_format format, const sb_analysis *a, const char *path, char *err,
                         size_t n);

#endif
