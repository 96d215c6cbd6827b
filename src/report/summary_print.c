#include "report/summary_print.h"

#include "report/layout.h"

void sb_summary_print_table(const sb_summary *s, FILE *out)
{
    if (s->n == 0)
        return;
    const int width = sb_layout_width();
    fputs("\nSummary\n", out);
    for (int i = 0; i < s->n; i++)
        sb_layout_fold(out, width, "  ", 4, s->item[i].text);
}

void sb_summary_print(const sb_summary *s, FILE *out, const char *head, const char *before,
                      const char *after, const char *tail, sb_summary_text *text)
{
    if (s->n == 0)
        return;
    fputs(head, out);
    for (int i = 0; i < s->n; i++) {
        fputs(before, out);
        text(out, s->item[i].text);
        fputs(after, out);
    }
    fputs(tail, out);
}

void sb_summary_comment_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, out);
}
