/* The memory preflight, the suite plan's last check: once the sessions'
 * devices are open and before any variant runs, every experiment at the
 * size it will run at must fit the memory of every device it runs on and
 * of the host.  A plan that does not fit fails here, with the bytes it
 * needs, those available and the largest size that fits, instead of an
 * allocation failure half-way through or the kernel's OOM killer.
 *
 * What a variant needs is the experiment's own word, not a formula kept
 * beside it: its prepare() is run at a small size, with what it allocates
 * counted (host_data.h), and its plan() gives every buffer; at a size too
 * large to prepare for a look, three small sizes on the way to it are
 * measured and each buffer, a polynomial of degree two at most in the
 * size's scale, is extrapolated from them, the footprint's sums and
 * maxima taken at the size itself. */
#ifndef SB_PREFLIGHT_H
#define SB_PREFLIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "experiments/experiment.h"
#include "exec/session.h"
#include "plan/suite.h"

/* What one experiment holds at once while it runs on one session, bytes. */
typedef struct sb_footprint {
    double device;  /* on the device: every distinct input (the workspace
                       keeps them) and the largest variant's outputs */
    double largest; /* the largest single buffer */
    double host;    /* prepare's inputs and reference, the read-back
                       buffers and the poison; a CPU device's buffers too */
} sb_footprint;

/* What a session may use: 0 where it is not known (no check). */
typedef struct sb_memory_budget {
    uint64_t device;    /* free device memory, else its total */
    int device_is_free; /* device counts free memory, not the total */
    uint64_t max_alloc; /* the largest one allocation */
    uint64_t host;      /* sb_host_available() */
} sb_memory_budget;

/* The size the executor runs e at: --size, else the largest default any
 * session's device asks for, so that every API's rows compare. */
sb_problem sb_run_size(const sb_suite *suite, const sb_experiment *e, const sb_session *sessions,
                       int nsessions);

/* The host memory this process can still take, bytes: /proc/meminfo's
 * MemAvailable, lowered to the room RLIMIT_AS and RLIMIT_DATA leave when
 * they are set; 0 when none of them can be read. */
uint64_t sb_host_available(void);

/* The budget of one open session (the backend's memory(), else the
 * device's total; its largest allocation; the host's memory). */
void sb_memory_budget_of(const sb_session *s, sb_memory_budget *b);

/* Which part of b the footprint f exceeds, as the words of a message
 * ("device memory", "one allocation", "host memory"), or NULL when it
 * fits. */
const char *sb_footprint_exceeds(const sb_footprint *f, const sb_memory_budget *b);

/* The footprint of se at size on each of sessions[0..nsessions) (only
 * their info is read) into fp[]: measured by preparing at size when exact
 * is set or the size is small, else extrapolated from small probes; 0, or
 * -1 when the experiment refuses the size. */
int sb_footprint_estimate(const sb_suite *suite, const sb_suite_experiment *se,
                          const sb_session *sessions, int nsessions, sb_problem size, int exact,
                          sb_footprint *fp);

/* Check every experiment of the suite on every session: SB_EXIT_OK, or
 * SB_EXIT_RUNTIME with one line in err (the experiment, the size, the
 * bytes needed and available, the largest size that fits).  An
 * experiment whose prepare() or every plan() refuses the size is left
 * to the executor, which says why. */
int sb_preflight(const sb_suite *suite, const sb_session *sessions, int nsessions, char *err,
                 size_t n);

#endif
