/* Reading one large JSON object without holding all of it: its members one
 * at a time, and the elements of the array members a caller names one at
 * a time, each parsed by jansson and handed over.  What is held at once
 * is the largest single element, so a saved run of any size is read in
 * memory for its records alone. */
#ifndef SB_JSON_STREAM_H
#define SB_JSON_STREAM_H

#include <jansson.h>
#include <stddef.h>

/* Where a value starts in the file, as jansson counts: line from 1, column
 * of its first character from 1. */
typedef struct sb_json_where {
    int line, column;
} sb_json_where;

/* What the reader calls.  Each gets the value as a borrowed reference,
 * freed after the call (json_incref to keep it), and where it starts.  A
 * nonzero return stops the reading: sb_json_stream_read then returns
 * SB_JSON_STOPPED. */
typedef struct sb_json_stream_handler {
    /* Whether the array member called key is handed over element by element. */
    int (*streams)(void *ctx, const char *key);
    /* A member that is not streamed, whole. */
    int (*member)(void *ctx, const char *key, json_t *value, const sb_json_where *at);
    /* One element of a streamed array member. */
    int (*element)(void *ctx, const char *key, size_t index, json_t *value,
                   const sb_json_where *at);
    /* Whether the member called key is wanted at all; one that is not is
     * checked as JSON and passed over in constant memory, never parsed
     * into a value.  NULL: every member is wanted. */
    int (*wants)(void *ctx, const char *key);
} sb_json_stream_handler;

/* What sb_json_stream_read returns. */
enum {
    SB_JSON_OBJECT = 0,      /* read to the end */
    SB_JSON_NOT_OBJECT = 1,  /* valid JSON, but not an object: no member was handed over */
    SB_JSON_BROKEN = -1,     /* unreadable or not JSON: one line in err naming the file */
    SB_JSON_STOPPED = -2,    /* a handler stopped the reading */
    SB_JSON_NOMEM = -3       /* out of memory while reading: one line in err naming the file */
};

/* Read the JSON file at path through the handler. */
int sb_json_stream_read(const char *path, const sb_json_stream_handler *h, void *ctx, char *err,
                        size_t n);

#endif
