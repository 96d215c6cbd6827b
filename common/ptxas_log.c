/* The ptxas lines of a verbose NVIDIA build log; see ptxas_log.h. */
#include "ptxas_log.h"

#include <stdlib.h>
#include <string.h>

#define ENTRY_MARK "Compiling entry function '"

/* Where the line after p begins, or NULL at the end of the text. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

/* The entry's name on a "Compiling entry function" line [line, eol), just
 * after the mark; NULL when the line is not one. */
static const char *entry_name(const char *line, const char *eol)
{
    const char *m = strstr(line, ENTRY_MARK);
    return m && m < eol ? m + strlen(ENTRY_MARK) : NULL;
}

/* The number just before " what" on the line [line, eol), or -1. */
static long number_before(const char *line, const char *eol, const char *what)
{
    size_t wn = strlen(what);
    for (const char *p = line; p + wn <= eol; p++) {
        if (strncmp(p, what, wn) != 0)
            continue;
        const char *q = p;
        while (q > line && q[-1] == ' ')
            q--;
        const char *digits_end = q;
        while (q > line && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q == digits_end)
            continue;
        return strtol(q, NULL, 10);
    }
    return -1;
}

int sb_ptxas_log_resources(const char *log, const char *name, int *regs, long *smem_bytes)
{
    *regs = -1;
    *smem_bytes = -1;
    if (!log || !name || !*name)
        return -1;
    int inside = 0;
    for (const char *line = log; line && *line; line = next_line(line)) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        const char *entry = entry_name(line, eol);
        if (entry) {
            if (inside)
                return -1; /* the next entry began before a "Used" line */
            size_t n = strlen(name);
            inside = (size_t)(eol - entry) > n && strncmp(entry, name, n) == 0 &&
                     entry[n] == '\'';
            continue;
        }
        if (!inside)
            continue;
        long n = number_before(line, eol, "registers");
        const char *used = strstr(line, "Used ");
        if (n < 0 || !used || used >= eol)
            continue;
        *regs = (int)n;
        *smem_bytes = number_before(line, eol, "bytes smem");
        return 0;
    }
    return -1;
}
