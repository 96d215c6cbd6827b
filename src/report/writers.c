#include "report/report.h"

int sb_report_write(sb_format format, const sb_run *run, FILE *out)
{
    int rc;
    switch (format) {
    case SB_FORMAT_CSV:
        rc = sb_report_csv(run, out);
        break;
    case SB_FORMAT_JSON:
        rc = sb_report_json(run, out);
        break;
    case SB_FORMAT_MARKDOWN:
        rc = sb_report_markdown(run, out);
        break;
    case SB_FORMAT_HTML:
        rc = sb_report_html(run, out);
        break;
    default:
        rc = sb_report_table(run, out);
        break;
    }
    if (fflush(out) || ferror(out))
        rc = -1;
    return rc;
}
