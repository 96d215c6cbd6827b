/* Report formats by name: the rows of the writer table (writers.c), with
 * nothing else of the report module, for the option parser. */
#ifndef SB_FORMAT_H
#define SB_FORMAT_H

#include <stddef.h>

/* A format: its row in the writer table. */
typedef int sb_format;

/* The rows other code names by constant, in the table's order. */
enum { SB_FORMAT_TABLE, SB_FORMAT_CSV, SB_FORMAT_JSON, SB_FORMAT_MARKDOWN, SB_FORMAT_HTML };

/* The format called name (or by its alias, "md") into *f; 0, or -1 when no
 * row has that name. */
int sb_report_find(const char *name, sb_format *f);

/* Every format's name for a message, "table, csv, json, markdown or html". */
void sb_report_names(char *buf, size_t n);

/* Every name --format takes, aliases too, one space between each: the
 * words a shell completes. */
void sb_report_words(char *buf, size_t n);

#endif
