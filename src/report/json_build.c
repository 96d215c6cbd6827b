#include "report/json_build.h"

#include <math.h>
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

/* Text from jansson with `pad` spaces after each newline.  A newline is
 * never inside a string, which jansson escapes. */
typedef struct sink {
    FILE *out;
    int pad;
} sink;

static int write_padded(const char *buf, size_t size, void *data)
{
    const sink *s = data;
    for (size_t i = 0; i < size;) {
        const char *nl = memchr(buf + i, '\n', size - i);
        size_t len = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;
        if (fwrite(buf + i, 1, len, s->out) != len)
            return -1;
        if (nl && fprintf(s->out, "%*s", s->pad, "") < 0)
            return -1;
        i += len;
    }
    return 0;
}

/* The flags both layouts share: key order as built, seventeen
 * significant digits (a double read back is the double written, so a
 * saved run renders the very report its run printed), any value at the
 * top. */
#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

int sb_json_dump_at(json_t *v, int pad, FILE *out)
{
    sink s = {out, pad};
    return json_dump_callback(v, write_padded, &s, JSON_INDENT(2) | DUMP_FLAGS);
}

int sb_json_dump_line(json_t *v, FILE *out)
{
    /* Without JSON_INDENT jansson writes no newline, and without
       JSON_COMPACT it keeps the spaces after ',' and ':'. */
    return json_dumpf(v, out, DUMP_FLAGS);
}
