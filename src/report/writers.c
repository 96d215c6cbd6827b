/* The writer table.  A format is one file, src/report/NAME.c, defining
 * int sb_report_NAME(const sb_analysis *, FILE *, char *, size_t) (an
 * sb_report_writer), and one row below with its name in the declaration
 * above the table (and the file's name in REPORT_SOURCES in Makefile.am).  --format, its message and
 * simtbench report take the names from here. */
#include "report/report.h"

#include <errno.h>
#include <string.h>

#include "report/output_file.h"

/* Each defined in its own file, src/report/NAME.c. */
sb_report_writer sb_report_table, sb_report_csv, sb_report_json, sb_report_markdown, sb_report_html;

typedef struct writer_row {
    const char *name;  /* what --format takes */
    const char *alias; /* another name it takes, or NULL */
    sb_report_writer *write;
} writer_row;

static const writer_row writers[] = {
    [SB_FORMAT_TABLE] = {"table", NULL, sb_report_table},
    [SB_FORMAT_CSV] = {"csv", NULL, sb_report_csv},
    [SB_FORMAT_JSON] = {"json", NULL, sb_report_json},
    [SB_FORMAT_MARKDOWN] = {"markdown", "md", sb_report_markdown},
    [SB_FORMAT_HTML] = {"html", NULL, sb_report_html},
};

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
            snprintf(err, n, "cannot write the report: %s", why);
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
