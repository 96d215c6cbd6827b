/* The run's closing summary (run/summary.h) as each format prints it:
 * the writers call one of these after their last block, so that the
 * summary is formatted here and computed nowhere but in analysis. */
#ifndef SB_SUMMARY_PRINT_H
#define SB_SUMMARY_PRINT_H

#include <stdio.h>

#include "analysis/summary.h"

/* How a format writes a piece of text: escaped for it. */
typedef void sb_summary_text(FILE *out, const char *text);

/* The terminal table's: a blank line, "Summary", and an item a line,
 * folded to the layout's width (layout.h), control characters as '?';
 * nothing for no items. */
void sb_summary_print_table(const sb_summary *s, FILE *out);

/* head, then each item between before and after, written by text, then
 * tail; nothing at all for no items. */
void sb_summary_print(const sb_summary *s, FILE *out, const char *head, const char *before,
                      const char *after, const char *tail, sb_summary_text *text);

/* Text for a comment line (CSV's "# "): control characters as '?', so that
 * a name read back from a file cannot end the line. */
void sb_summary_comment_text(FILE *out, const char *text);

#endif
