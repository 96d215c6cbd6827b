/* Text from a run made safe for gnuplot.  Names in a saved run are
 * untrusted (DESIGN.md): a newline in one would end a quoted string and
 * start a command, and a line of a script or data file that ends in a
 * backslash swallows the next.  So every string that enters a script or a
 * data file goes through sb_gp_quote, which makes it one line of printable
 * ASCII quoted for the place it goes:
 *
 *   - a backslash, a control character (ESC, newline, DEL) and every byte
 *     outside ASCII is shown as \xNN, so no line ends in a backslash and
 *     the text reads the same in any locale (no `set encoding` needed);
 *   - in a single-quoted string (scripts) a quote is doubled, but one
 *     at the start or right after another is shown as \x27: gnuplot 5.4
 *     ends the string at four quotes in a row and at two that open it
 *     (the next quote opens another string, so no code escapes, but the
 *     script breaks).  gnuplot expands neither backquotes nor @macros in
 *     single quotes, and system() there is text;
 *   - in a double-quoted string (data files, where gnuplot has no escape)
 *     a double quote is shown as \x22;
 *   - text longer than SB_GP_TEXT_MAX bytes is cut, with "...".
 *
 * The scripts also turn enhanced text off, so ^ _ { } @ & ~ are shown as
 * they are. */
#ifndef SB_GNUPLOT_TEXT_H
#define SB_GNUPLOT_TEXT_H

#include <stddef.h>

/* The most bytes of a string shown; the rest is cut. */
#define SB_GP_TEXT_MAX 320

/* Room for any text sb_gp_quote makes: four characters a byte, quotes,
   "..." and the NUL. */
#define SB_GP_QUOTED_MAX (4 * SB_GP_TEXT_MAX + 8)

/* s into buf (n bytes) as one line of printable ASCII: quote '\'' wraps it
 * in gnuplot's single quotes, '"' in a data file's double quotes, 0 gives
 * the bare text of a comment.  A buf shorter than SB_GP_QUOTED_MAX cuts
 * the text at a whole character and still closes the quote.  Returns buf. */
const char *sb_gp_quote(const char *s, int quote, char *buf, size_t n);

#endif
