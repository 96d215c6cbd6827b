/* The compare writers' table (report/compare.h): one row per format that
 * has a compare writer, X(NAME), named as the writer table's formats. */
#include "report/compare.h"

#include <errno.h>
#include <string.h>

#include "report/report.h"

#define SB_COMPARE_WRITERS(X) X(table) X(json) X(markdown)

#define DECLARE_COMPARE_WRITER(name) sb_compare_writer sb_compare_##name;
SB_COMPARE_WRITERS(DECLARE_COMPARE_WRITER)

typedef struct compare_row {
    const char *name; /* the format's name in the writer table */
    sb_compare_writer *write;
} compare_row;

#define COMPARE_ROW(name) {#name, sb_compare_##name},
static const compare_row rows[] = {SB_COMPARE_WRITERS(COMPARE_ROW)};

static const compare_row *row_of(sb_format format)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sb_format f;
        if (sb_report_find(rows[i].name, &f) == 0 && f == format)
            return &rows[i];
    }
    return NULL;
}

int sb_compare_format_known(sb_format format)
{
    return row_of(format) != NULL;
}

int sb_compare_write_to(sb_format format, const sb_comparison *c, FILE *out, char *err,
                        size_t n)
{
    const compare_row *row = row_of(format);
    if (!row) {
        snprintf(err, n, "no such format");
        return SB_REPORT_IO_ERROR;
    }
    err[0] = '\0';
    errno = 0;
    int rc = row->write(c, out, err, n);
    if (rc != SB_REPORT_REFUSED && (fflush(out) || ferror(out)))
        rc = SB_REPORT_IO_ERROR;
    if (rc == SB_REPORT_IO_ERROR && !err[0])
        snprintf(err, n, "%s", errno ? strerror(errno) : "write error");
    return rc;
}
