#include "batch_rules.h"

#include <stdio.h>

#include "backend.h"

int sb_batch_rules_begin(sb_batch_rules *rules, int max, char *err, size_t errlen)
{
    if (rules->open) {
        snprintf(err, errlen, "batch_begin: a batch of %d operations is already open",
                 rules->max);
        return -1;
    }
    if (max <= 0 || max > SB_BATCH_MAX) {
        snprintf(err, errlen, "batch_begin: a batch holds 1 to %d operations, not %d",
                 SB_BATCH_MAX, max);
        return -1;
    }
    rules->open = 1;
    rules->max = max;
    rules->count = 0;
    return 0;
}

void sb_batch_rules_cancel(sb_batch_rules *rules)
{
    rules->open = 0;
    rules->count = 0;
}

int sb_batch_rules_admit(const sb_batch_rules *rules, int timed, const char *what, char *err,
                         size_t errlen)
{
    if (!rules->open)
        return 0;
    if (!timed) {
        snprintf(err, errlen, "%s: an untimed operation cannot be part of a batch", what);
        return -1;
    }
    if (rules->count >= rules->max) {
        snprintf(err, errlen, "%s: the batch already holds the %d operations it was begun for",
                 what, rules->max);
        return -1;
    }
    return 0;
}

int sb_batch_rules_add(sb_batch_rules *rules)
{
    return rules->count++;
}

int sb_batch_rules_end(sb_batch_rules *rules, char *err, size_t errlen)
{
    if (!rules->open) {
        snprintf(err, errlen, "batch_end: no batch was begun");
        return -1;
    }
    int count = rules->count;
    rules->open = 0;
    rules->count = 0;
    return count;
}
