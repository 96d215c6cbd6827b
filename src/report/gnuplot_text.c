/* Text from a run made safe for gnuplot (gnuplot_text.h). */
#include "config.h"

#include "report/gnuplot_text.h"

#include <stdio.h>
#include <string.h>

/* What one byte of s becomes: itself, a doubled quote, or \xNN.  gnuplot
 * 5.4 reads '' as a quote only after another character: at the start of
 * a string, or right after another '', it ends the string, so there a
 * quote is shown as \x27.  `before` is the byte shown before, 0 at the
 * start. */
static size_t shown(unsigned char c, int quote, unsigned char before, char out[5])
{
    int hex = c < 0x20 || c >= 0x7f || c == '\\' || (quote == '"' && c == '"') ||
              (quote == '\'' && c == '\'' && (before == 0 || before == '\''));
    if (hex) {
        snprintf(out, 5, "\\x%02x", c);
        return 4;
    }
    out[0] = (char)c;
    if (quote == '\'' && c == '\'') {
        out[1] = '\'';
        return 2;
    }
    return 1;
}

const char *sb_gp_quote(const char *s, int quote, char *buf, size_t n)
{
    static const char cut[] = "...";
    size_t close = quote ? 1 : 0, used = 0;
    if (n < 1 + 2 * close) {
        if (n)
            buf[0] = '\0';
        return buf;
    }
    if (quote)
        buf[used++] = (char)quote;
    size_t k = 0;
    for (; s[k] && k < SB_GP_TEXT_MAX; k++) {
        char unit[5];
        unsigned char before = k ? (unsigned char)buf[used - 1] : 0;
        size_t len = shown((unsigned char)s[k], quote, before, unit);
        /* Room for this unit, the cut mark should more follow, the quote
           and the NUL. */
        size_t after = s[k + 1] ? sizeof cut - 1 : 0;
        if (used + len + after + close + 1 > n)
            break;
        memcpy(buf + used, unit, len);
        used += len;
    }
    if (s[k] && used + sizeof cut - 1 + close + 1 <= n) {
        memcpy(buf + used, cut, sizeof cut - 1);
        used += sizeof cut - 1;
    }
    if (quote)
        buf[used++] = (char)quote;
    buf[used] = '\0';
    return buf;
}
