/* The writer table.  A format is one file, src/report/NAME.c, defining
 * int sb_report_NAME(const sb_analysis *, FILE *, char *, size_t) (an
 * sb_report_writer), and one line X(NAME, ALIAS) at the end of the list
 * below (and the file's name in REPORT_SOURCES in Makefile.am).  --format,
 * its message and simtbench report take the names from here.  The first
 * rows are in the order of format.h's SB_FORMAT_ constants. */
#include "report/report.h"

#include <errno.h>
#include <string.h>

#include "report/output_file.h"

/* X(NAME, ALIAS): the format --format NAME (or ALIAS, when not NULL). */
#define SB_WRITERS(X)                                                                              \
    X(table, NULL)                                                                                 \
    X(csv, NULL)                                                                                   \
    X(json, NULL)                                                                                  \
    X(markdown, "md")                                                                              \
    X(html, NULL)                                                                                  \
    /* new formats go above this line */

#define DECLARE_WRITER(name, alias) sb_report_writer sb_report_##name;
SB_WRITERS(DECLARE_WRITER)

typedef struct writer_row {
    const char *name;  /* what --format takes */
    const char *alias; /* another name it takes, or NULL */
    sb_report_writer *write;
} writer_row;

#define WRITER_ROW(name, alias) {#name, alias, sb_report_##name},
static const writer_row writers[] = {SB_WRITERS(WRITER_ROW)};

#define NWRITERS ((sb_format)(sizeof writers / sizeof writers[0]))

int sb_report_find(const char *name, sb_format *f)
{
    for (sb_format i = 0; i < NWRITERS; i++)
        if (strcmp(name, writers[i].name) == 0 ||
            (writers[i].alias && strcmp(name, writers[i].alias) == 0)) {
            *f = i;
            return 0;
        }
    return -1;
}

void sb_report_names(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (sb_format i = 0; i < NWRITERS && used < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == NWRITERS ? " or " : ", ";
        int len = snprintf(buf + used, n - used, "%s%s", sep, writers[i].name);
        if (len < 0)
            break;
        used += (size_t)len;
    }
}

void sb_report_words(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (sb_format i = 0; i < NWRITERS && used < n; i++) {
        int len = snprintf(buf + used, n - used, "%s%s%s%s", i ? " " : "", writers[i].name,
                           writers[i].alias ? " " : "", writers[i].alias ? writers[i].alias : "");
        if (len < 0)
            break;
        used += (size_t)len;
    }
}

int sb_report_write_to(sb_format format, const sb_analysis *a, FILE *out, char *err, size_t n)
{
    if (format < 0 || format >= NWRITERS) {
        snprintf(err, n, "no such format");
        return SB_REPORT_IO_ERROR;
    }
    err[0] = '\0';
    errno = 0;
    int rc = writers[format].write(a, out, err, n);
    if (rc != SB_REPORT_REFUSED && (fflush(out) || ferror(out)))
        rc = SB_REPORT_IO_ERROR;
    if (rc == SB_REPORT_IO_ERROR && !err[0])
        snprintf(err, n, "%s", errno ? strerror(errno) : "write error");
    return rc;
}

int sb_report_write(sb_format format, const sb_analysis *a, FILE *out)
{
    char err[512];
    return sb_report_write_to(format, a, out, err, sizeof err);
}

int sb_report_write_file(sb_format format, const sb_analysis *a, const char *path, char *err,
                         size_t n)
{
    char why[768];
    if (!path) {
        int rc = sb_report_write_to(format, a, stdout, why, sizeof why);
        if (rc)
            snprintf(err, n, "cannot write the report to standard output: %s", why);
        return rc;
    }
    sb_output_file o;
    if (sb_output_open(&o, path, err, n))
        return SB_REPORT_IO_ERROR;
    int rc = sb_report_write_to(format, a, o.f, why, sizeof why);
    if (rc) {
        snprintf(err, n, "cannot write %s: %s", path, why);
        sb_output_abort(&o);
        return rc;
    }
    return sb_output_commit(&o, err, n) ? SB_REPORT_IO_ERROR : 0;
}
