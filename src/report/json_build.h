/* Building JSON records through jansson without losing a field: the first
 * field jansson refuses (a string that is not UTF-8, or no memory) is
 * remembered with the reason, so that the writer can refuse the record by
 * name instead of leaving it out; a figure that is not finite, which JSON
 * cannot hold, is null with "<key>_reason" beside it.  The JSON writer and
 * `simtbench compare` build through these. */
#ifndef SB_JSON_BUILD_H
#define SB_JSON_BUILD_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The first field refused while one record was built. */
typedef struct sb_json_builder {
    const char *refused; /* the field's name, or NULL */
    const char *why;     /* what is wrong with it: "is not valid UTF-8", ... */
} sb_json_builder;

/* v (a new reference, always taken; NULL: out of memory) as o's key; o
 * NULL (an object that could not be made) refuses it. */
void sb_json_put(json_t *o, const char *key, json_t *v, sb_json_builder *b);

/* A string; NULL or one that is not UTF-8 is refused. */
void sb_json_put_str(json_t *o, const char *key, const char *s, sb_json_builder *b);

void sb_json_put_int(json_t *o, const char *key, json_int_t v, sb_json_builder *b);

/* A figure; one that is not finite is null, and "<key>_reason" says why. */
void sb_json_put_real(json_t *o, const char *key, double v, sb_json_builder *b);

/* A new object as o's key, for its fields to follow; NULL once refused. */
json_t *sb_json_put_object(json_t *o, const char *key, sb_json_builder *b);

/* s as sb_text_visible (common/text.h) shows it, so that a message can
 * show what was refused. */
void sb_json_printable(const char *s, char *buf, size_t n);

/* v as jansson lays it out with JSON_INDENT(2), the real precision the
 * writers use and any value at the top, with `pad` spaces after each
 * newline: a value placed at its depth in a document written piece by
 * piece.  0, or -1 on a write error. */
int sb_json_dump_at(json_t *v, int pad, FILE *out);

/* v on one line, with the same precision and the separators ", " and ": "
 * of the indented layout, so that a field reads the same in both: one
 * record of a long array per line.  0, or -1 on a write error. */
int sb_json_dump_line(json_t *v, FILE *out);

#endif
