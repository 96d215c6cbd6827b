#include "report/json_stream.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file being read: where the next character is, as jansson counts
 * lines and columns, and the text of the value being captured. */
typedef struct scanner {
    FILE *f;
    const char *path;
    int line, column;
    char *text;
    size_t len, cap;
    int nomem;
    char *err;
    size_t errn;
} scanner;

static int next(scanner *s)
{
    int ch = getc_unlocked(s->f);
    if (ch == '\n') {
        s->line++;
        s->column = 0;
    } else if (ch != EOF) {
        s->column++;
    }
    return ch;
}

/* Give back a character that is not a newline. */
static void give_back(scanner *s, int ch)
{
    ungetc(ch, s->f);
    s->column--;
}

static int is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The next character that is not white space, consumed. */
static int next_token(scanner *s)
{
    int ch;
    while (is_space(ch = next(s)))
        ;
    return ch;
}

/* A syntax error at the scanner's place; SB_JSON_BROKEN. */
static int broken(scanner *s, int line, int column, const char *what)
{
    if (ferror(s->f))
        snprintf(s->err, s->errn, "cannot read %s: %s", s->path, strerror(errno));
    else if (s->nomem)
        snprintf(s->err, s->errn, "cannot read %s: out of host memory (%s)", s->path,
                 strerror(ENOMEM));
    else
        snprintf(s->err, s->errn, "%s: not valid JSON (line %d, column %d: %s)", s->path, line,
                 column, what);
    return s->nomem && !ferror(s->f) ? SB_JSON_NOMEM : SB_JSON_BROKEN;
}

static int syntax(scanner *s, const char *what)
{
    return broken(s, s->line, s->column, what);
}

static void keep(scanner *s, int ch)
{
    if (s->len + 1 >= s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        char *more = realloc(s->text, cap);
        if (!more) {
            s->nomem = 1;
            return;
        }
        s->text = more;
        s->cap = cap;
    }
    s->text[s->len++] = (char)ch;
}

/* A byte that JSON never has outside white space: a control character
 * (a NUL among them).  Capturing stops at one, so that an endless device
 * (/dev/zero) or a binary file ends at once in jansson's error. */
static int is_control(int ch)
{
    return ch >= 0 && ch < 0x20 && !is_space(ch);
}

/* The rest of a string after its opening quote; 0, or EOF at the end of
 * the file. */
static int capture_string(scanner *s)
{
    for (int ch, escaped = 0;;) {
        if ((ch = next(s)) == EOF)
            return EOF;
        keep(s, ch);
        if (is_control(ch) || s->nomem)
            return 0;
        if (escaped)
            escaped = 0;
        else if (ch == '\\')
            escaped = 1;
        else if (ch == '"')
            return 0;
    }
}

/* Whether ch can be part of a bare word: a number, true, false or null. */
static int is_word(int ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '-' || ch == '+' || ch == '.';
}

/* The text of one value that starts with `first` (consumed) into
 * s->text: a string, an object or array to its matching close, or a bare
 * word up to the first character no word has (so that a file of NUL bytes
 * or other junk ends the capture at once, not at the end of the file).
 * jansson judges the text; this only finds where it ends.  0, or EOF when
 * the file ends inside it. */
static int capture(scanner *s, int first)
{
    s->len = 0;
    keep(s, first);
    if (first == '"')
        return capture_string(s);
    if (first != '{' && first != '[') {
        for (int ch;;) {
            if ((ch = next(s)) == EOF || is_space(ch))
                return 0;
            if (!is_word(ch)) {
                give_back(s, ch);
                return 0;
            }
            keep(s, ch);
            if (is_control(ch) || s->nomem)
                return 0;
        }
    }
    for (int depth = 1, ch; depth > 0;) {
        if ((ch = next(s)) == EOF)
            return EOF;
        keep(s, ch);
        if (is_control(ch) || s->nomem)
            return 0;
        if (ch == '"' && capture_string(s) == EOF)
            return EOF;
        depth += ch == '{' || ch == '[' ? 1 : ch == '}' || ch == ']' ? -1 : 0;
    }
    return 0;
}

/* Where jansson's allocations go while a value is parsed: jansson does
 * not survive a failed allocation in its lexer (it reads past a buffer),
 * so a failure there never returns into it.  What it had allocated is
 * lost, once, on the way to an out-of-memory error. */
static _Thread_local jmp_buf *parse_guard;

static void *guarded_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p && parse_guard)
        longjmp(*parse_guard, 1);
    return p;
}

/* json_loadb of the captured text, with an allocation that fails making
 * s->nomem 1 and the result NULL. */
static json_t *load_guarded(scanner *s, json_error_t *je)
{
    jmp_buf here;
    if (setjmp(here)) {
        parse_guard = NULL;
        s->nomem = 1;
        je->line = je->column = -1;
        je->text[0] = '\0';
        return NULL;
    }
    parse_guard = &here;
    json_t *v = json_loadb(s->text, s->len, JSON_DECODE_ANY, je);
    parse_guard = NULL;
    return v;
}

/* The value that starts with `first`, parsed; NULL after the message. */
static json_t *value(scanner *s, int first)
{
    int line = s->line, column = s->column;
    if (first == EOF) {
        broken(s, line, column, "a value expected near end of file");
        return NULL;
    }
    if (capture(s, first) == EOF || s->nomem) {
        broken(s, s->line, s->column, "premature end of input");
        return NULL;
    }
    json_error_t je;
    json_t *v = load_guarded(s, &je);
    /* jansson says a failed allocation as an error without a place. */
    if (!v && json_error_code(&je) == json_error_out_of_memory)
        s->nomem = 1;
    if (!v)
        broken(s, line + je.line - 1, je.line == 1 ? column - 1 + je.column : je.column, je.text);
    return v;
}

/* A value's outcome as sb_json_stream_read's: a broken file or memory. */
static int failed(const scanner *s)
{
    return s->nomem && !ferror(s->f) ? SB_JSON_NOMEM : SB_JSON_BROKEN;
}

/* ------------------------------------------------ passing a value over
 *
 * A member nobody reads is checked as jansson would check it, without
 * keeping it: a file is valid JSON or not whatever it is that the reader
 * wants from it, and an unknown member of any size costs no memory. */

/* jansson's limit, so that a file it would refuse is refused here too. */
#define SKIP_MAX_DEPTH 2048

static int skip_value(scanner *s, int ch, int depth);

/* The continuation bytes of a UTF-8 sequence whose lead byte is ch; 0, or
 * -1 after the message. */
static int skip_utf8(scanner *s, int ch)
{
    int more = ch >= 0xC2 && ch <= 0xDF ? 1 : ch >= 0xE0 && ch <= 0xEF ? 2
             : ch >= 0xF0 && ch <= 0xF4 ? 3 : -1;
    if (more < 0)
        return syntax(s, "unable to decode byte"), -1;
    while (more--)
        if (((ch = next(s)) & 0xC0) != 0x80 || ch == EOF)
            return syntax(s, ch == EOF ? "premature end of input" : "invalid UTF-8"), -1;
    return 0;
}

/* One escape after its backslash; 0, or -1 after the message. */
static int skip_escape(scanner *s)
{
    int ch = next(s);
    if (ch == 'u') {
        for (int i = 0; i < 4; i++)
            if (!isxdigit(ch = next(s)))
                return syntax(s, "invalid escape"), -1;
        return 0;
    }
    if (ch != EOF && strchr("\"\\/bfnrt", ch) && ch)
        return 0;
    return syntax(s, ch == EOF ? "premature end of input" : "invalid escape"), -1;
}

/* The rest of a string after its opening quote; 0, or -1 after the message. */
static int skip_string(scanner *s)
{
    for (int ch;;) {
        if ((ch = next(s)) == EOF)
            return syntax(s, "premature end of input"), -1;
        if (ch == '"')
            return 0;
        if (ch < 0x20)
            return syntax(s, "control character in string"), -1;
        if (ch == '\\' && skip_escape(s))
            return -1;
        if (ch >= 0x80 && skip_utf8(s, ch))
            return -1;
    }
}

/* Digits, at least one when `need`; the first character that is not one. */
static int skip_digits(scanner *s, int ch, int need, int *bad)
{
    if (need && !isdigit(ch))
        *bad = 1;
    while (isdigit(ch))
        ch = next(s);
    return ch;
}

/* A number or a literal starting with ch (consumed), as JSON spells them:
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, true, false, null. */
static int skip_word(scanner *s, int ch)
{
    int bad = 0;
    if (ch == 't' || ch == 'f' || ch == 'n') {
        const char *rest = ch == 't' ? "rue" : ch == 'f' ? "alse" : "ull";
        for (; *rest; rest++)
            if (next(s) != *rest)
                return syntax(s, "invalid token"), -1;
        ch = next(s);
    } else {
        if (ch == '-')
            ch = next(s);
        if (ch == '0')
            ch = next(s);
        else
            ch = skip_digits(s, ch, 1, &bad);
        if (ch == '.')
            ch = skip_digits(s, next(s), 1, &bad);
        if (ch == 'e' || ch == 'E') {
            ch = next(s);
            if (ch == '+' || ch == '-')
                ch = next(s);
            ch = skip_digits(s, ch, 1, &bad);
        }
    }
    if (bad || is_word(ch))
        return syntax(s, "invalid number or token"), -1;
    if (ch != EOF && ch != '\n')
        give_back(s, ch);
    return 0;
}

/* The members of an object after its '{'; 0, or -1 after the message. */
static int skip_object(scanner *s, int depth)
{
    int ch = next_token(s);
    if (ch == '}')
        return 0;
    for (;;) {
        if (ch != '"')
            return syntax(s, ch == EOF ? "premature end of input" : "string or '}' expected"),
                   -1;
        if (skip_string(s))
            return -1;
        if (next_token(s) != ':')
            return syntax(s, "':' expected"), -1;
        if (skip_value(s, next_token(s), depth + 1))
            return -1;
        if ((ch = next_token(s)) == '}')
            return 0;
        if (ch != ',')
            return syntax(s, ch == EOF ? "premature end of input" : "',' or '}' expected"), -1;
        ch = next_token(s);
    }
}

/* The elements of an array after its '['; 0, or -1 after the message. */
static int skip_array(scanner *s, int depth)
{
    int ch = next_token(s);
    if (ch == ']')
        return 0;
    for (;;) {
        if (skip_value(s, ch, depth + 1))
            return -1;
        if ((ch = next_token(s)) == ']')
            return 0;
        if (ch != ',')
            return syntax(s, ch == EOF ? "premature end of input" : "',' or ']' expected"), -1;
        ch = next_token(s);
    }
}

/* One value whose first character ch is consumed; 0, or -1 after the
 * message. */
static int skip_value(scanner *s, int ch, int depth)
{
    if (depth >= SKIP_MAX_DEPTH)
        return syntax(s, "maximum parsing depth reached"), -1;
    if (ch == '{')
        return skip_object(s, depth);
    if (ch == '[')
        return skip_array(s, depth);
    if (ch == '"')
        return skip_string(s);
    if (ch == '-' || isdigit(ch) || ch == 't' || ch == 'f' || ch == 'n')
        return skip_word(s, ch);
    return syntax(s, ch == EOF ? "premature end of input" : "'[', '{' or a value expected"), -1;
}

/* The elements of an array member, after its '[', handed over one by one. */
static int stream_array(scanner *s, const sb_json_stream_handler *h, void *ctx, const char *key)
{
    int ch = next_token(s);
    if (ch == ']')
        return SB_JSON_OBJECT;
    for (size_t i = 0;; i++) {
        sb_json_where at = {s->line, s->column};
        json_t *v = value(s, ch);
        if (!v)
            return failed(s);
        int stop = h->element(ctx, key, i, v, &at);
        json_decref(v);
        if (stop)
            return SB_JSON_STOPPED;
        if ((ch = next_token(s)) == ']')
            return SB_JSON_OBJECT;
        if (ch != ',')
            return syntax(s, "',' or ']' expected");
        ch = next_token(s);
    }
}

/* The value of one member after its key and ':' (the value's first
 * character is ch, consumed): passed over, streamed, or parsed whole. */
static int member_value(scanner *s, const sb_json_stream_handler *h, void *ctx, const char *key,
                        int ch)
{
    sb_json_where at = {s->line, s->column};
    if (h->wants && !h->wants(ctx, key))
        return skip_value(s, ch, 0) ? SB_JSON_BROKEN : SB_JSON_OBJECT;
    if (ch == '[' && h->streams(ctx, key))
        return stream_array(s, h, ctx, key);
    json_t *v = value(s, ch);
    if (!v)
        return failed(s);
    int rc = h->member(ctx, key, v, &at) ? SB_JSON_STOPPED : SB_JSON_OBJECT;
    json_decref(v);
    return rc;
}

/* One member, from its key's opening quote (consumed) through its value. */
static int member(scanner *s, const sb_json_stream_handler *h, void *ctx, int first)
{
    if (first != '"')
        return syntax(s, "string or '}' expected");
    json_t *k = value(s, first);
    if (!k)
        return failed(s);
    char *key = strdup(json_string_value(k));
    json_decref(k);
    if (!key) {
        s->nomem = 1;
        return syntax(s, "out of host memory");
    }
    int rc, ch = next_token(s);
    if (ch != ':')
        rc = syntax(s, "':' expected");
    else
        rc = member_value(s, h, ctx, key, next_token(s));
    free(key);
    return rc;
}

/* The top-level value, whatever it is; then nothing but white space. */
static int top(scanner *s, const sb_json_stream_handler *h, void *ctx)
{
    int rc = SB_JSON_OBJECT, ch = next_token(s);
    if (ch == EOF)
        return syntax(s, "'[' or '{' expected near end of file");
    if (ch != '{') {
        json_t *v = value(s, ch);
        if (!v)
            return failed(s);
        json_decref(v);
        rc = SB_JSON_NOT_OBJECT;
    } else if ((ch = next_token(s)) != '}') {
        for (;;) {
            if ((rc = member(s, h, ctx, ch)) != SB_JSON_OBJECT)
                return rc;
            if ((ch = next_token(s)) == '}')
                break;
            if (ch != ',')
                return syntax(s, "',' or '}' expected");
            ch = next_token(s);
        }
    }
    if (next_token(s) != EOF || ferror(s->f))
        return syntax(s, "end of file expected");
    return rc;
}

int sb_json_stream_read(const char *path, const sb_json_stream_handler *h, void *ctx, char *err,
                        size_t n)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, n, "cannot read %s: it is a directory", path);
        return SB_JSON_BROKEN;
    }
    json_set_alloc_funcs(guarded_malloc, free);
    scanner s = {.path = path, .line = 1, .err = err, .errn = n};
    if (!(s.f = fopen(path, "r"))) {
        snprintf(err, n, "cannot read %s: %s", path, strerror(errno));
        return SB_JSON_BROKEN;
    }
    int rc = top(&s, h, ctx);
    fclose(s.f);
    free(s.text);
    return rc;
}
