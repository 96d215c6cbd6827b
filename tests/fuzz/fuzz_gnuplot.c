/* sb_gp_quote (gnuplot_text.h) on any bytes, any quoting and any room:
 * the oracle fails on a byte outside printable ASCII (a newline above
 * all), a quote gnuplot would end the string at, a backslash that does
 * not start \xNN, or a text that does not read back as the input (or a
 * prefix of it, cut with "..."). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "report/gnuplot_text.h"

const char sb_fuzz_corpus[] = "gnuplot";

static int hex(char c)
{
    return (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* The text between the quotes read back into back; its length, or -1
 * where gnuplot would not read it as one string of printable ASCII. */
static long read_back(const char *t, size_t len, int quote, char *back)
{
    long k = 0;
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if (c < 0x20 || c > 0x7e || (quote == '"' && c == '"'))
            return -1;
        if (c == '\\') {
            if (i + 3 >= len)
                return -1;
            if (t[i + 1] != 'x' || hex(t[i + 2]) < 0 || hex(t[i + 3]) < 0)
                return -1;
            back[k++] = (char)(hex(t[i + 2]) * 16 + hex(t[i + 3]));
            i += 3;
        } else if (quote == '\'' && c == '\'') {
            /* '' only after another character that is not a quote */
            if (i + 1 >= len || t[i + 1] != '\'' || i == 0 || t[i - 1] == '\'')
                return -1;
            back[k++] = '\'';
            i++;
        } else {
            back[k++] = c;
        }
    }
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    static const int quotes[] = {'\'', '"', 0};
    int quote = quotes[data[0] % 3];
    size_t room = data[1] < 8 ? SB_GP_QUOTED_MAX : data[1];
    char *s = malloc(size - 1), *out = malloc(room), *back = malloc(SB_GP_QUOTED_MAX);
    if (!s || !out || !back)
        return 0;
    memcpy(s, data + 2, size - 2);
    s[size - 2] = '\0';
    sb_gp_quote(s, quote, out, room);
    size_t len = strlen(out), q = quote ? 1 : 0;
    if (len >= room || len < 2 * q || (q && (out[0] != quote || out[len - 1] != quote)))
        __builtin_trap();
    long k = read_back(out + q, len - 2 * q, quote, back);
    if (k < 0)
        __builtin_trap();
    /* The whole input, or a prefix of it and the cut mark; in less room
       than SB_GP_QUOTED_MAX, maybe a prefix alone. */
    size_t in = strlen(s);
    int whole = (size_t)k == in && memcmp(back, s, in) == 0;
    int cut = k >= 3 && memcmp(back + k - 3, "...", 3) == 0 && (size_t)(k - 3) < in &&
              memcmp(back, s, (size_t)(k - 3)) == 0;
    int prefix = (size_t)k < in && memcmp(back, s, (size_t)k) == 0;
    if (!whole && !cut && !(prefix && room < SB_GP_QUOTED_MAX))
        __builtin_trap();
    free(s);
    free(out);
    free(back);
    return 0;
}
