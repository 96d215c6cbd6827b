/* The index expression as text: what a -D definition can carry, and the
 * definition itself.  Nothing here reads what the expression means: the
 * kernel's compiler does. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "experiments/pattern.h"

int sb_pattern_expr_check(const char *what, const char *expr, char *err, size_t n)
{
    size_t len = strlen(expr);
    if (len == 0) {
        snprintf(err, n, "%s: expected an expression, got ''", what);
        return -1;
    }
    if (len >= SB_PATTERN_EXPR_LEN) {
        snprintf(err, n, "%s: the expression is %zu characters; at most %d", what, len,
                 SB_PATTERN_EXPR_LEN - 1);
        return -1;
    }
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)expr[k];
        if (c >= 0x80 || (!isprint(c) && !isspace(c)) || strchr("\"'\\;{}#`$@", c) || c == '\n') {
            snprintf(err, n, "%s: '%s': character %zu ('%c') cannot be part of an index "
                     "expression", what, expr, k + 1, isprint(c) ? c : '?');
            return -1;
        }
        if (c == '/' && (expr[k + 1] == '/' || expr[k + 1] == '*')) {
            snprintf(err, n, "%s: '%s': a comment at character %zu", what, expr, k + 1);
            return -1;
        }
    }
    return 0;
}

static int word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Whether a and b, written side by side, would make one token where the
   user wrote two ("- -" is not "--", "x y" is not "xy"). */
static int would_join(char a, char b)
{
    static const char ops[] = "+-*/%<>=!&|^:.";
    if (word_char(a) && word_char(b))
        return 1;
    return strchr(ops, a) && strchr(ops, b);
}

int sb_pattern_define(const char *name, const char *expr, char *out, size_t n, int *map,
                      size_t nmap)
{
    int w = snprintf(out, n, "%s=", name);
    if (w < 0 || (size_t)w >= n)
        return -1;
    size_t at = (size_t)w, k = 0;
    for (const char *c = expr; *c; c++) {
        const char *piece = c, *gap = "";
        size_t plen = 1;
        if (isspace((unsigned char)*c)) {
            const char *next = c;
            while (isspace((unsigned char)next[1]))
                next++;
            int join = at > (size_t)w && next[1] && would_join(out[at - 1], next[1]);
            gap = join ? "/**/" : "";
            piece = gap;
            plen = strlen(gap);
            for (size_t j = 0; j < plen && k + j < nmap; j++)
                map[k + j] = (int)(c - expr);
            c = next;
        } else if (k < nmap) {
            map[k] = (int)(c - expr);
        }
        if (at + plen >= n)
            return -1;
        memcpy(out + at, piece, plen);
        at += plen;
        k += plen;
    }
    out[at] = '\0';
    return 0;
}

/* The next "error: " of the log from `at`, its message (location cut)
   into msg; the column the message's <Spelling=<command line>:L:C> gives
   in *col (0 where none); NULL when there is no more. */
static const char *next_error(const char *at, char *msg, size_t n, int *col)
{
    const char *e = strstr(at, "error: ");
    if (!e)
        return NULL;
    e += strlen("error: ");
    const char *end = e + strcspn(e, "\n");
    for (const char *stop = e; (stop = strstr(stop + 1, " error: ")) && stop < end;)
        end = stop;
    const char *w = strstr(e, " warning: "), *d = strstr(e, " Device ");
    if (w && w < end)
        end = w;
    if (d && d < end)
        end = d;
    *col = 0;
    const char *sp = strstr(e, "<Spelling=<command line>:");
    if (sp && sp < end) {
        int line;
        sscanf(sp, "<Spelling=<command line>:%d:%d", &line, col);
    }
    /* clang puts the place after "error: " ("/tmp/x.cl:129:23: ..."),
       NVRTC before it ("pattern.cl(129): error: ..."): cut clang's. */
    const char *loc = strstr(e, ": ");
    if (loc && loc < end && (e[0] == '/' || e[0] == '<' || sp))
        e = loc + 2;
    snprintf(msg, n, "%.*s", (int)(end - e), e);
    return end;
}

void sb_pattern_build_message(const char *option, const char *expr, const char *api,
                              const char *log, char *out, size_t n)
{
    char value[SB_DEFINE_LEN_MAX];
    int map[SB_DEFINE_LEN_MAX], col = 0;
    int have_map = sb_pattern_define("INDEX", expr, value, sizeof value, map,
                                     SB_DEFINE_LEN_MAX) == 0;
    int w = snprintf(out, n, "%s '%s' does not compile (%s):", option, expr, api);
    char msg[300];
    int found = 0;
    for (const char *at = log; w >= 0 && (size_t)w < n && (at = next_error(at, msg, sizeof msg, &col));) {
        found++;
        /* "#define INDEX " is 14 characters: column 15 is the value's first */
        int k = col - 15;
        if (have_map && col > 0 && k >= 0 && k < (int)strlen(value) - 6)
            w += snprintf(out + w, n - (size_t)w, " %s, at character %d of the expression;",
                          msg, map[k] + 1);
        else
            w += snprintf(out + w, n - (size_t)w, " %s;", msg);
    }
    if (!found && w >= 0 && (size_t)w < n)
        snprintf(out + w, n - (size_t)w, " %s", log);
    else if (w > 0 && (size_t)w <= n && out[w - 1] == ';')
        out[w - 1] = '\0';
}
