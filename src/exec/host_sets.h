/* The host buffers a session reads outputs back into: two sets (one is
 * read into while the checker compares the other, checker.h), kept for
 * the whole run so that a backend's page-locked memory (host_alloc, which
 * reads back at the bus's full speed but is slow to allocate) is
 * allocated once, not once per experiment.  Poisoned when new; the
 * checker poisons each again after comparing. */
#ifndef SB_HOST_SETS_H
#define SB_HOST_SETS_H

#include <stddef.h>

#include "backend.h"

#define SB_HOST_SETS 2

typedef struct sb_host_sets sb_host_sets;

/* Empty sets for one session's device; pinned says whether vt's
 * host_alloc is the module's own (else malloc).  NULL when out of memory. */
sb_host_sets *sb_host_sets_new(const sb_backend *vt, sb_device *dev, int pinned);

/* Free every buffer and the sets. */
void sb_host_sets_free(sb_host_sets *h);

/* The index-th output's buffer of set 0 or 1, at least bytes long; NULL
 * with the reason in err. */
void *sb_host_sets_get(sb_host_sets *h, int set, int index, size_t bytes, char *err, size_t n);

#endif
