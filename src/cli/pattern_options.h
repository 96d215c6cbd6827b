/* The options of the pattern family, shared by a run and `simtbench
 * model --index`: --index EXPR (repeated), --mask EXPR, --space, --word,
 * --store. */
#ifndef SB_PATTERN_OPTIONS_H
#define SB_PATTERN_OPTIONS_H

#include <stddef.h>

#include "experiments/pattern.h"

enum {
    SB_OPT_INDEX = 400,
    SB_OPT_MASK,
    SB_OPT_SPACE,
    SB_OPT_WORD,
    SB_OPT_STORE
};

/* getopt_long entries for the five, to splice into a command's table. */
#define SB_PATTERN_LONGOPTS                                  \
    {"index", required_argument, NULL, SB_OPT_INDEX},        \
    {"mask", required_argument, NULL, SB_OPT_MASK},          \
    {"space", required_argument, NULL, SB_OPT_SPACE},        \
    {"word", required_argument, NULL, SB_OPT_WORD},          \
    {"store", no_argument, NULL, SB_OPT_STORE}

/* Option c with its value into r: 0; 1 when c is not one of them; -1
   with one line in err for a bad value. */
int sb_pattern_option(int c, const char *arg, sb_pattern_request *r, char *err, size_t n);

/* What the pattern options say together, once all are read: 0, or -1 with
   one line in err (--mask or --store without --index). */
int sb_pattern_options_check(const sb_pattern_request *r, char *err, size_t n);

#endif
