/* What the shell's completion (completions/simtbench) asks the program:
 * `simtbench --complete [COMMAND]` prints the options of a command from
 * the very struct option array it parses, so that the completion cannot
 * drift from the parser.  One line an option:
 *
 *     --NAME SHORT KIND [WORD...]
 *
 * SHORT is "-x" or "-" (none); KIND is flag (no value), file, dir, names
 * (a comma list of experiment and family names, as --list shows them),
 * choice (one of the WORDs) or value (typed: nothing to complete).  Then
 * "args KIND" where the command takes operands (saved runs: file). */
#ifndef SB_COMPLETE_H
#define SB_COMPLETE_H

#include <getopt.h>
#include <stdio.h>

/* What one option's value is, by its long name; a required_argument
 * option of the array with no row here is a value. */
typedef struct sb_option_value {
    const char *option; /* the long name, without "--" */
    const char *kind;   /* file, dir, names, choice, value; or one the printer
                           knows the words of: format (every writer's name),
                           backend (every backend's name) */
    const char *words;  /* choice: the words, space-separated; backend: words
                           after the names ("all"), or NULL */
} sb_option_value;

/* The lines above for every long option of longopts (ending in a NULL
 * name), its short name where shortopts (getopt_long's string) has it,
 * with the kinds of values (ending in a NULL option); then "args ARGS"
 * where args is not NULL. */
void sb_complete_print(FILE *out, const char *shortopts, const struct option *longopts,
                       const sb_option_value *values, const char *args);

#endif
