/* The admission rules of batched timing (backend.h's batch_begin and
 * batch_end), kept once for every backend: when a batch may begin, which
 * operations it admits, and how it ends.  A backend keeps one of these per
 * device and does only the API's part (events, queues, waiting, reading
 * times); the messages a user sees are the same whichever API runs.
 *
 * Pure bookkeeping, no API: each function writes its reason into the
 * caller's error buffer, so that the backend's last_error() reports it. */
#ifndef SB_BATCH_RULES_H
#define SB_BATCH_RULES_H

#include <stddef.h>

/* One device's batch: whether one is open, the most operations it was
 * begun for, and how many it holds so far. */
typedef struct sb_batch_rules {
    int open;
    int max;
    int count;
} sb_batch_rules;

/* Opens a batch of max operations, 1 <= max <= SB_BATCH_MAX, when none is
 * open; 0, or -1 with the reason in err (nothing changes). */
int sb_batch_rules_begin(sb_batch_rules *rules, int max, char *err, size_t errlen);

/* Closes a batch begun a moment ago whose backend could not get ready for
 * it (host memory, events), so that no batch is left open. */
void sb_batch_rules_cancel(sb_batch_rules *rules);

/* Whether an operation named what (timed: the caller asked for its time)
 * may be enqueued now: always outside a batch; inside one, only a timed
 * operation, and only while the batch has room.  0, or -1 with
 * "<what>: <reason>" in err. */
int sb_batch_rules_admit(const sb_batch_rules *rules, int timed, const char *what, char *err,
                         size_t errlen);

/* Counts one admitted operation as enqueued in the open batch; returns its
 * index in the batch (0 for the first).  An operation that failed before
 * reaching the device is not added, and so gets no time. */
int sb_batch_rules_add(sb_batch_rules *rules);

/* Ends the batch, whatever the backend then finds when it waits: returns
 * how many operations it holds, or -1 with the reason in err when no batch
 * was begun. */
int sb_batch_rules_end(sb_batch_rules *rules, char *err, size_t errlen);

#endif
