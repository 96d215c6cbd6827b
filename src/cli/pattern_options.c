#include "cli/pattern_options.h"

#include <stdio.h>
#include <string.h>

#include "experiments/experiment.h"

int sb_pattern_option(int c, const char *arg, sb_pattern_request *r, char *err, size_t n)
{
    switch (c) {
    case SB_OPT_INDEX:
        if (r->nindex >= SB_PATTERN_MAX_INDEX) {
            snprintf(err, n, "--index: at most %d expressions in one run", SB_PATTERN_MAX_INDEX);
            return -1;
        }
        if (sb_pattern_expr_check("--index", arg, err, n))
            return -1;
        snprintf(r->index[r->nindex++], SB_PATTERN_EXPR_LEN, "%s", arg);
        return 0;
    case SB_OPT_MASK:
        if (sb_pattern_expr_check("--mask", arg, err, n))
            return -1;
        snprintf(r->mask, sizeof r->mask, "%s", arg);
        return 0;
    case SB_OPT_SPACE:
        if (strcmp(arg, "global") && strcmp(arg, "shared")) {
            snprintf(err, n, "--space must be global or shared, not '%s'", arg);
            return -1;
        }
        r->space = strcmp(arg, "shared") == 0 ? SB_SPACE_SHARED : SB_SPACE_GLOBAL;
        return 0;
    case SB_OPT_WORD:
        if (strcmp(arg, "4") && strcmp(arg, "8") && strcmp(arg, "16")) {
            snprintf(err, n, "--word must be 4, 8 or 16 bytes, not '%s'", arg);
            return -1;
        }
        r->word = arg[0] == '4' ? 4 : arg[0] == '8' ? 8 : 16;
        return 0;
    case SB_OPT_STORE:
        r->store = 1;
        return 0;
    default:
        return 1;
    }
}

int sb_pattern_options_check(const sb_pattern_request *r, char *err, size_t n)
{
    if (r->nindex == 0 && (r->mask[0] || r->store || r->word)) {
        snprintf(err, n, "--mask, --store and --word describe an --index expression; none given");
        return -1;
    }
    char defs[2][SB_DEFINE_LEN];
    int map[SB_DEFINE_LEN];
    for (int i = 0; i < r->nindex; i++)
        if (sb_pattern_define("INDEX", r->index[i], defs[0], sizeof defs[0], map,
                              SB_DEFINE_LEN)) {
            snprintf(err, n, "--index '%s': too long once written as a definition",
                     r->index[i]);
            return -1;
        }
    if (r->mask[0] &&
        sb_pattern_define("MASK", r->mask, defs[1], sizeof defs[1], map, SB_DEFINE_LEN)) {
        snprintf(err, n, "--mask '%s': too long once written as a definition", r->mask);
        return -1;
    }
    return 0;
}
