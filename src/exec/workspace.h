/* What the variants of one experiment on one session share, so that a
 * family of variants costs launches, not host work: the programs built so
 * far (keyed by definitions: variants that differ only in block shape or
 * host parameters share one), device copies of the big inputs (read-only
 * by contract; the final verification would catch a kernel that wrote
 * one), two sets of host buffers for the outputs, and the poison. */
#ifndef SB_WORKSPACE_H
#define SB_WORKSPACE_H

#include <stddef.h>

#include "backend.h"
#include "experiments/experiment.h"
#include "exec/host_sets.h"

/* Only inputs this big are cached, by address: small ones (a permutation
   table an experiment rewrites for each variant) are uploaded every time. */
#define SB_CACHE_INPUT_MIN (1u << 20)

typedef struct sb_workspace sb_workspace;

/* A new, empty workspace for one session's backend and device, reading
 * back into the session's host sets; NULL when out of host memory. */
sb_workspace *sb_workspace_new(const sb_backend *vt, sb_device *dev, sb_host_sets *hosts);

/* Release everything the workspace holds, and the workspace. */
void sb_workspace_free(sb_workspace *w);

/* The program of source built with v's definitions, built on first use;
 * NULL with the compiler's message in err. */
sb_program *sb_workspace_program(sb_workspace *w, const char *source, const sb_variant *v,
                                 char *err, size_t n);

/* One workspace's part of a prebuild: its source and the variants whose
   programs to build. */
typedef struct sb_prebuild_job {
    sb_workspace *w;           /* NULL: nothing */
    const char *source;        /* NULL: nothing */
    const sb_variant *variants;
    int nvariants;
} sb_prebuild_job;

/* Build every program the kernel variants of the jobs need that their
 * workspaces do not hold yet (every experiment of every session, before
 * anything is measured), shared out over up to threads threads, where
 * each backend allows it (concurrent_build); sb_workspace_program then
 * finds each, or the build's failure, as if it had built it there.  The
 * number built; 0 where no backend builds concurrently or threads < 2. */
int sb_workspace_prebuild_all(const sb_prebuild_job *jobs, int count, int threads);

/* At most this many threads build programs at once. */
#define SB_PREBUILD_THREADS 16

/* The threads a prebuild may use here: the online CPUs, at most
 * SB_PREBUILD_THREADS. */
int sb_workspace_threads(void);

/* The device copy of a big input, uploaded on first use; NULL with the
 * reason in the backend's last_error(). */
sb_buffer *sb_workspace_input(sb_workspace *w, const void *init, size_t bytes);

/* The device buffer for the index-th of a variant's noutputs outputs, at
 * least bytes long, kept for the next variant (whose outputs are poisoned
 * again before its first launch); those of index noutputs and above are
 * freed.  NULL with the reason in the backend's last_error(). */
sb_buffer *sb_workspace_device_output(sb_workspace *w, int index, int noutputs, size_t bytes);

/* Sets of host buffers for the outputs: one is read back into while the
   checker compares the other (checker.h). */
#define SB_WORKSPACE_SETS SB_HOST_SETS

/* The host buffer for the index-th output in set 0 or 1, at least bytes
 * long and poisoned when new (the checker poisons it again after each
 * comparison), from the session's host sets; NULL with the reason in err. */
void *sb_workspace_output(sb_workspace *w, int set, int index, size_t bytes, char *err,
                          size_t n);

/* At least bytes of poison (host_data.h's word); NULL with the reason in err. */
void *sb_workspace_poison(sb_workspace *w, size_t bytes, char *err, size_t n);

#endif
