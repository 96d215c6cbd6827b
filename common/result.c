#include "result.h"

#include <stdlib.h>
#include <string.h>

int sb_run_add(sb_run *run, const sb_result *r)
{
    if (run->nresults == run->capacity) {
        size_t cap = run->capacity ? 2 * run->capacity : 32;
        sb_result *p = realloc(run->results, cap * sizeof *p);
        if (!p)
            return -1;
        run->results = p;
        run->capacity = cap;
    }
    run->results[run->nresults++] = *r;
    return 0;
}

void sb_run_free(sb_run *run)
{
    free(run->results);
    memset(run, 0, sizeof *run);
}
