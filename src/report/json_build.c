#include "report/json_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static void refuse(sb_json_builder *b, const char *key, const char *why)
{
    if (!b->refused) {
        b->refused = key;
        b->why = why;
    }
}

void sb_json_put(json_t *o, const char *key, json_t *v, sb_json_builder *b)
{
    /* json_object_set_new frees v when it fails; without o, v is ours. */
    if (!o)
        json_decref(v);
    if (!v || !o || json_object_set_new(o, key, v))
        refuse(b, key, "could not be stored (out of host memory)");
}

void sb_json_put_str(json_t *o, const char *key, const char *s, sb_json_builder *b)
{
    json_t *v = s ? json_string(s) : NULL;
    if (v)
        sb_json_put(o, key, v, b);
    else
        refuse(b, key, s ? "is not valid UTF-8" : "has no name");
}

void sb_json_put_int(json_t *o, const char *key, json_int_t v, sb_json_builder *b)
{
    sb_json_put(o, key, json_integer(v), b);
}

void sb_json_put_real(json_t *o, const char *key, double v, sb_json_builder *b)
{
    if (isfinite(v)) {
        sb_json_put(o, key, json_real(v), b);
        return;
    }
    char reason[64];
    snprintf(reason, sizeof reason, "%s_reason", key);
    sb_json_put(o, key, json_null(), b);
    sb_json_put(o, reason, json_string(isnan(v) ? "not a number" : "not finite"), b);
}

json_t *sb_json_put_object(json_t *o, const char *key, sb_json_builder *b)
{
    json_t *v = json_object();
    sb_json_put(o, key, v, b);
    return b->refused ? NULL : v;
}

void sb_json_printable(const char *s, char *buf, size_t n)
{
    sb_text_visible(s, buf, n);
}

/* Text from jansson, gathered and written at once: jansson hands over a
 * token at a time, and a stdio call per token (with its lock) cost more
 * than making the text.  `pad` spaces follow each newline; a newline is
 * never inside a string, which jansson escapes.  The buffer is kept from
 * one value to the next, the values of a document being alike. */
typedef struct sink {
    char *buf;
    size_t len, cap;
    int pad;
} sink;

static char *kept_buf;
static size_t kept_cap;

static int append(sink *s, const char *p, size_t n)
{
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + n)
            cap *= 2;
        char *more = realloc(s->buf, cap);
        if (!more)
            return -1;
        s->buf = more;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return 0;
}

static int gather(const char *buf, size_t size, void *data)
{
    sink *s = data;
    static const char spaces[] = "                                ";
    for (size_t i = 0; i < size;) {
        const char *nl = s->pad ? memchr(buf + i, '\n', size - i) : NULL;
        size_t len = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;
        if (append(s, buf + i, len))
            return -1;
        for (int left = nl ? s->pad : 0; left > 0; left -= (int)sizeof spaces - 1)
            if (append(s, spaces, left < (int)sizeof spaces - 1 ? (size_t)left
                                                                  : sizeof spaces - 1))
                return -1;
        i += len;
    }
    return 0;
}

/* v dumped with flags through the kept buffer to out. */
static int dump(json_t *v, size_t flags, int pad, FILE *out)
{
    sink s = {kept_buf, 0, kept_cap, pad};
    int rc = json_dump_callback(v, gather, &s, flags);
    kept_buf = s.buf;
    kept_cap = s.cap;
    if (rc == 0 && s.len && fwrite(s.buf, 1, s.len, out) != s.len)
        rc = -1;
    return rc;
}

/* The flags both layouts share: key order as built, seventeen
 * significant digits (a double read back is the double written, so a
 * saved run renders the very report its run printed), any value at the
 * top. */
#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

int sb_json_dump_at(json_t *v, int pad, FILE *out)
{
    return dump(v, JSON_INDENT(2) | DUMP_FLAGS, pad, out);
}

int sb_json_dump_line(json_t *v, FILE *out)
{
    /* Without JSON_INDENT jansson writes no newline, and without
       JSON_COMPACT it keeps the spaces after ',' and ':'. */
    return dump(v, DUMP_FLAGS, 0, out);
}
