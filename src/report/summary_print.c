#include "report/summary_print.h"

#include "report/layout.h"

/* text with every control character as '?' into buf (as long): a name
   read back from a file cannot move a terminal's cursor or end a line. */
static void printable(const char *text, char *buf)
{
    for (; *text; text++, buf++)
        *buf = (unsigned char)*text < 0x20 || *text == 0x7f ? '?' : *text;
    *buf = '\0';
}

void sb_summary_print_table(const sb_summary *s, FILE *out)
{
    if (s->n == 0)
        return;
    const int width = sb_layout_width();
    fputs("\nSummary\n", out);
    for (int i = 0; i < s->n; i++) {
        char text[SB_SUMMARY_BYTES];
        printable(s->item[i].text, text);
        sb_layout_fold(out, width, "  ", 4, text);
    }
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
    char buf[SB_SUMMARY_BYTES];
    snprintf(buf, sizeof buf, "%s", text);
    printable(buf, buf);
    fputs(buf, out);
}
