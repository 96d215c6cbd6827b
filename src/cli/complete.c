#include "cli/complete.h"

#include <ctype.h>
#include <string.h>

#include "report/format.h"
#include "exec/registry.h"

/* The row of values for option name, or NULL. */
static const sb_option_value *value_of(const sb_option_value *values, const char *name)
{
    for (; values && values->option; values++)
        if (strcmp(values->option, name) == 0)
            return values;
    return NULL;
}

/* The kind and words of a value, the printer's own kinds made choices. */
static void print_value(FILE *out, const sb_option_value *v)
{
    if (!v) {
        fputs(" value", out);
    } else if (strcmp(v->kind, "format") == 0) {
        char words[256];
        sb_report_words(words, sizeof words);
        fprintf(out, " choice %s", words);
    } else if (strcmp(v->kind, "backend") == 0) {
        fputs(" choice", out);
        for (int i = 0; i < sb_nknown_backends; i++)
            fprintf(out, " %s", sb_known_backends[i]);
        fprintf(out, "%s%s", v->words ? " " : "", v->words ? v->words : "");
    } else {
        fprintf(out, " %s%s%s", v->kind, v->words ? " " : "", v->words ? v->words : "");
    }
}

void sb_complete_print(FILE *out, const char *shortopts, const struct option *longopts,
                       const sb_option_value *values, const char *args)
{
    for (const struct option *o = longopts; o->name; o++) {
        int letter = o->flag == NULL && o->val > 0 && o->val < 128 && isalnum(o->val) &&
                     strchr(shortopts, o->val);
        fprintf(out, "--%s ", o->name);
        if (letter)
            fprintf(out, "-%c", o->val);
        else
            fputc('-', out);
        if (o->has_arg == no_argument)
            fputs(" flag", out);
        else
            print_value(out, value_of(values, o->name));
        fputc('\n', out);
    }
    if (args)
        fprintf(out, "args %s\n", args);
}
