#include "report/json_stream.h"

#include <errno.h>
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
    int ch = getc(s->f);
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
        snprintf(s->err, s->errn, "cannot read %s: out of host memory", s->path);
    else
        snprintf(s->err, s->errn, "%s: not valid JSON (line %d, column %d: %s)", s->path, line,
                 column, what);
    return SB_JSON_BROKEN;
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
    json_t *v = json_loadb(s->text, s->len, JSON_DECODE_ANY, &je);
    if (!v)
        broken(s, line + je.line - 1, je.line == 1 ? column - 1 + je.column : je.column, je.text);
    return v;
}

/* The elements of an array member, after its '[', handed over one by one. */
static int stream_array(scanner *s, const sb_json_stream_handler *h, void *ctx, const char *key)
{
    int ch = next_token(s);
    if (ch == ']')
        return SB_JSON_OBJECT;
    for (size_t i = 0;; i++) {
        json_t *v = value(s, ch);
        if (!v)
            return SB_JSON_BROKEN;
        int stop = h->element(ctx, key, i, v);
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

/* One member, from its key's opening quote (consumed) through its value. */
static int member(scanner *s, const sb_json_stream_handler *h, void *ctx, int first)
{
    if (first != '"')
        return syntax(s, "string or '}' expected");
    json_t *k = value(s, first);
    if (!k)
        return SB_JSON_BROKEN;
    char *key = strdup(json_string_value(k));
    json_decref(k);
    if (!key) {
        s->nomem = 1;
        return syntax(s, "out of host memory");
    }
    int rc = SB_JSON_OBJECT, ch = next_token(s);
    if (ch != ':')
        rc = syntax(s, "':' expected");
    else if ((ch = next_token(s)) == '[' && h->streams(ctx, key))
        rc = stream_array(s, h, ctx, key);
    else {
        json_t *v = value(s, ch);
        if (!v)
            rc = SB_JSON_BROKEN;
        else if (h->member(ctx, key, v))
            rc = SB_JSON_STOPPED;
        json_decref(v);
    }
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
            return SB_JSON_BROKEN;
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
