/* The writer table.  A format is one file, src/report/NAME.c, defining
 * int sb_report_NAME(const sb_analysis *, FILE *) (an sb_report_writer), and
 * one row below with its name in the declaration above the table (and the
 * file's name in REPORT_SOURCES in Makefile.am).  --format, its message and
 * simtbench report take the names from here. */
#include "report/report.h"

#include <string.h>

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

int sb_report_write(sb_format format, const sb_analysis *a, FILE *out)
{
    if (format < 0 || format >= NWRITERS)
        return -1;
    int rc = writers[format].write(a, out);
    if (fflush(out) || ferror(out))
        rc = -1;
    return rc;
}
