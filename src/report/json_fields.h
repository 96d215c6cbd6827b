/* The fields of a saved run's records: each checked for its type and
 * range before it is converted, with one line naming the record and the
 * field when it is wrong.  Shared by the readers of json_read.c. */
#ifndef SB_JSON_FIELDS_H
#define SB_JSON_FIELDS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* The record a field belongs to, for messages ("results[3]",
 * "results[3].model[0].pattern"), and where the first problem is said. */
typedef struct sb_field_ctx {
    char rec[80];
    char *why;
    size_t wn;
} sb_field_ctx;

/* A nested record's context: rec.SUFFIX. */
sb_field_ctx sb_field_nested(const sb_field_ctx *c, const char *suffix);

/* "the string \"4096\"", "an object", ... for a message about v. */
void sb_field_describe(json_t *v, char *buf, size_t n);

/* Say that field of c's record is v where want was expected; -1. */
int sb_field_wrong_type(const sb_field_ctx *c, const char *field, json_t *v, const char *want);

/* v as a whole number in lo..hi into *out; 0, or -1 with the reason. */
int sb_field_whole_number(json_t *v, const char *field, long long lo, long long hi,
                        long long *out, const sb_field_ctx *c);

/* A whole-number field in lo..hi: 1 read into *out, 0 absent, -1 wrong. */
int sb_field_get_integer(json_t *o, const char *key, long long lo, long long hi, long long *out,
                       const sb_field_ctx *c);

/* An int field in lo..hi (absent: *out unchanged); 0, or -1 with the reason. */
int sb_field_get_int(json_t *o, const char *key, int lo, int hi, int *out, const sb_field_ctx *c);

/* A long field in lo..hi (absent: *out unchanged); 0, or -1 with the reason. */
int sb_field_get_long(json_t *o, const char *key, long lo, long hi, long *out, const sb_field_ctx *c);

/* A non-negative 64-bit field (absent: *out unchanged); 0, or -1. */
int sb_field_get_u64(json_t *o, const char *key, uint64_t *out, const sb_field_ctx *c);

/* A non-negative size field (absent: *out unchanged); 0, or -1. */
int sb_field_get_size(json_t *o, const char *key, size_t *out, const sb_field_ctx *c);

/* A count the API may not have given (null: -1) in 0..hi; 0, or -1. */
int sb_field_get_known(json_t *o, const char *key, long hi, long *out, const sb_field_ctx *c);

/* sb_field_get_known into an int. */
int sb_field_get_known_int(json_t *o, const char *key, int *out, const sb_field_ctx *c);

/* A number in lo..hi, null being if_null; 0, or -1 with the reason. */
int sb_field_get_real(json_t *o, const char *key, double lo, double hi, double if_null, double *out,
                    const sb_field_ctx *c);

/* A boolean field into *out as 0 or 1 (absent: unchanged); 0, or -1. */
int sb_field_get_bool(json_t *o, const char *key, int *out, const sb_field_ctx *c);

/* A string field into dst, cut to fit between characters; 0, or -1. */
int sb_field_get_str(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c);

/* A string field that must be there; 0, or -1 with the reason. */
int sb_field_need_str(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c);

/* One of the names name_at(0), name_at(1), ... into *out; 0, or -1. */
int sb_field_get_name(json_t *o, const char *key, const char *(*name_at)(int), int *out,
                    const sb_field_ctx *c);

/* An object field into *out (NULL when absent); -1 when something else. */
int sb_field_get_object(json_t *o, const char *key, json_t **out, const sb_field_ctx *c);

/* An optional string that may be null: absent or null leaves dst. */
int sb_field_get_str_or_null(json_t *o, const char *key, char *dst, size_t n, const sb_field_ctx *c);

#endif
