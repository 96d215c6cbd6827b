/* The field checks of the saved-run reader (json_fields.h). */
#include "report/json_fields.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* A nested record's context: rec.SUFFIX. */
sb_field_ctx sb_field_nested(const sb_field_ctx *c, const char *suffix)
{
    sb_field_ctx n = *c;
    snprintf(n.rec, sizeof n.rec, "%.40s.%.32s", c->rec, suffix);
    return n;
}

/* "the string \"4096\"", "an object", ... for a message about v. */
void sb_field_describe(json_t *v, char *buf, size_t n)
{
    static const char *const names[] = {
        [JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",  [JSON_STRING] = "a string",
        [JSON_INTEGER] = "a number", [JSON_REAL] = "a number",   [JSON_TRUE] = "true",
        [JSON_FALSE] = "false",      [JSON_NULL] = "null"};
    if (json_is_string(v))
        snprintf(buf, n, "the string \"%.40s\"", json_string_value(v));
    else
        snprintf(buf, n, "%s", names[json_typeof(v)]);
}

int sb_field_wrong_type(const sb_field_ctx *c, const char *field, json_t *v, const char *want)
{
    char got[64];
    sb_field_describe(v, got, sizeof got);
    snprintf(c->why, c->wn, "%s.%s: expected %s, got %s", c->rec, field, want, got);
    return -1;
}

/* v as a whole number in lo..hi into *out; 0, or -1 with the reason. */
int sb_field_whole_number(json_t *v, const char *field, long long lo, long long hi,
                        long long *out, const sb_field_ctx *c)
{
    if (json_is_integer(v)) {
        long long x = json_integer_value(v);
        if (x >= lo && x <= hi) {
            *out = x;
            return 0;
        }
        snprintf(c->why, c->wn, "%s.%s: %lld is out of range (%lld..%lld)", c->rec, field, x, lo,
                 hi);
        return -1;
    }
    if (!json_is_real(v))
        return sb_field_wrong_type(c, field, v, "a whole number");
    /* A real is taken where it is whole and in range, checked before the
       conversion: (double)hi + 1 is exact at the powers of two that
       matter. */
    double d = json_real_value(v);
    if (!(d >= (double)lo && d < (double)hi + 1.0)) {
        snprintf(c->why, c->wn, "%s.%s: %.15g is out of range (%lld..%lld)", c->rec, field, d, lo,
                 hi);
        return -1;
    }
    if (d != floor(d)) {
        snprintf(c->why, c->wn, "%s.%s: %.15g is not a whole number", c->rec, field, d);
        return -1;
    }
    *out = (long long)d;
    return 0;
}

/* A whole-number field: 1 read into *out, 0 absent, -1 wrong. */
int sb_field_get_integer(json_t *o, const char *key, long long lo, long long hi, long long *out,
                       const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    return sb_field_whole_number(v, key, lo, hi, out, c) ? -1 : 1;
}

int sb_field_get_int(json_t *o, const char *key, int lo, int hi, int *out, const sb_field_ctx *c)
{
    long long v;
    int rc = sb_field_get_integer(o, key, lo, hi, &v, c);
    if (rc == 1)
        *out = (int)v;
    return rc < 0 ? -1 : 0;
}

int sb_field_get_long(json_t *o, const char *key, long lo, long hi, long *out, const sb_field_ctx *c)
{
    long long v;
    int rc = sb_field_get_integer(o, key, lo, hi, &v, c);
    if (rc == 1)
        *out = (long)v;
    return rc < 0 ? -1 : 0;
}

int sb_field_get_u64(json_t *o, const char *key, uint64_t *out, const sb_field_ctx *c)
{
    long long v;
    int rc = sb_field_get_integer(o, key, 0, LLONG_MAX, &v, c);
    if (rc == 1)
        *out = (uint64_t)v;
    return rc < 0 ? -1 : 0;
}

int sb_field_get_size(json_t *o, const char *key, size_t *out, const sb_field_ctx *c)
{
    long long v;
    int rc = sb_field_get_integer(o, key, 0, LLONG_MAX, &v, c);
    if (rc == 1)
        *out = (size_t)v;
    return rc < 0 ? -1 : 0;
}

/* A count the API may not have given: null is -1, "unknown". */
int sb_field_get_known(json_t *o, const char *key, long hi, long *out, const sb_field_ctx *c)
{
    if (json_is_null(json_object_get(o, key))) {
        *out = -1;
        return 0;
    }
    return sb_field_get_long(o, key, 0, hi, out, c);
}

int sb_field_get_known_int(json_t *o, const char *key, int *out, const sb_field_ctx *c)
{
    long v = *out;
    int rc = sb_field_get_known(o, key, INT_MAX, &v, c);
    *out = (int)v;
    return rc;
}

/* A number in lo..hi; null is if_null (the writer's word for "none", or
 * for a figure that was not finite). */
int sb_field_get_real(json_t *o, const char *key, double lo, double hi, double if_null, double *out,
                    const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (json_is_null(v)) {
        *out = if_null;
        return 0;
    }
    if (!json_is_number(v))
        return sb_field_wrong_type(c, key, v, "a number");
    double d = json_number_value(v);
    if (!(d >= lo && d <= hi)) {
        snprintf(c->why, c->wn, "%s.%s: %.15g is out of range (%s)", c->rec, key, d,
                 lo == 0 ? "0 or more" : "a finite number");
        return -1;
    }
    *out = d;
    return 0;
}

int sb_field_get_bool(json_t *o, const char *key, int *out, const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return sb_field_wrong_type(c, key, v, "true or false");
    *out = json_is_true(v);
    return 0;
}

/* A string field into dst, cut to fit between two characters (a cut
 * inside one would leave bytes that no JSON writer takes, and the run could
 * not be written again); absent leaves dst as it was. */
int sb_field_get_str(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_string(v))
        return sb_field_wrong_type(c, key, v, "a string");
    sb_utf8_copy(dst, n, json_string_value(v));
    return 0;
}

/* A string field that must be there. */
int sb_field_need_str(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c)
{
    if (!json_object_get(o, key)) {
        snprintf(c->why, c->wn, "%s has no string \"%s\"", c->rec, key);
        return -1;
    }
    return sb_field_get_str(o, key, dst, n, c);
}

/* One of the names name_at(0), name_at(1), ... into *out, its index. */
int sb_field_get_name(json_t *o, const char *key, const char *(*name_at)(int), int *out,
                    const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_string(v))
        return sb_field_wrong_type(c, key, v, "a string");
    char names[128] = "";
    for (int i = 0; name_at(i); i++) {
        if (strcmp(json_string_value(v), name_at(i)) == 0) {
            *out = i;
            return 0;
        }
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", name_at(i));
    }
    snprintf(c->why, c->wn, "%s.%s: \"%.40s\" is not one of %s", c->rec, key,
             json_string_value(v), names);
    return -1;
}

/* An object field (NULL when absent); -1 when it is something else. */
int sb_field_get_object(json_t *o, const char *key, json_t **out, const sb_field_ctx *c)
{
    json_t *v = json_object_get(o, key);
    *out = json_is_object(v) ? v : NULL;
    return v && !*out ? sb_field_wrong_type(c, key, v, "an object") : 0;
}

/* An optional string that may be null (unknown): absent or null leaves
 * dst as it was. */
int sb_field_get_str_or_null(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c)
{
    return json_is_null(json_object_get(o, key)) ? 0 : sb_field_get_str(o, key, dst, n, c);
}

