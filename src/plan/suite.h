/* The suite plan: what a run will do, resolved from the request and
 * checked before any device opens.  Experiments from the catalogue, each
 * with its chosen variants; the backends to open a session on; the
 * measuring policy (size, repetitions, warm-up, seed); and the output
 * paths, checked writable.  A plan that cannot run fails here, with one
 * line on stderr and nothing written. */
#ifndef SB_SUITE_H
#define SB_SUITE_H

#include <stddef.h>

#include "backend.h"
#include "plan/request.h"
#include "experiments/experiment.h"
#include "result.h"

#define SB_SUITE_MAX_EXPERIMENTS 64

/* One experiment of the plan and the variants it runs, in catalogue order. */
typedef struct sb_suite_experiment {
    const sb_experiment *e;
    int nvariants;         /* at least 1 */
    sb_variant *variants;  /* malloc'd */
} sb_suite_experiment;

typedef struct sb_suite {
    int nexperiments;
    sb_suite_experiment experiments[SB_SUITE_MAX_EXPERIMENTS];
    /* Sessions: one per name, in order (a name given twice opens two); none
       named: one on every known backend that opens, the unavailable ones
       left out and named in the run (sb_sessions_open). */
    int nsessions;
    char sessions[SB_RUN_MAX_DEVICES][16];
    sb_device_request device;  /* the platform, and the device of SB_DEVICE_DEFAULT */
    sb_device_pick device_pick; /* DEFAULT, LIST or ALL: --device auto is resolved to
                                   the launcher's device as a LIST of one */
    int ndevices;              /* SB_DEVICE_LIST: the indices; each backend opens a
                                  session on each, in this order */
    int devices[SB_MAX_DEVICE_LIST];
    int serial;                /* devices one after another, not at the same time */
    long rows, cols;           /* 0: the largest default any session's device asks for */
    int reps, warmup;
    unsigned seed;
    int quiet;                 /* no progress and no notes on stderr */
    int counters;              /* one profiled launch of every kernel row (--counters) */
    const char *output;        /* the report; NULL: standard output */
    const char *save;          /* the JSON copy, its escapes expanded (save_path); NULL:
                                  none */
    char save_path[4096];
    const char *plot_dir;      /* NULL: no plots */
    const char *ptx_dir;       /* NULL: PTX is summarised, not saved */
} sb_suite;

/* Resolve and check the request into *s: SB_EXIT_OK; SB_EXIT_USAGE for an
 * unknown experiment, variant or backend, more sessions than a run holds
 * (backends times listed devices), a --device auto that no launcher
 * answers, or a --save escape that is unknown or has no value; SB_EXIT_IO for an output path that cannot be written or a
 * kernel source that cannot be read;
 * SB_EXIT_RUNTIME when out of host memory.  On failure the one line a
 * user reads is in err (without the program's name), *s holds nothing to
 * free, and no file has been made or changed. */
int sb_suite_plan(const sb_run_request *o, sb_suite *s, char *err, size_t n);

/* Free what sb_suite_plan allocated. */
void sb_suite_free(sb_suite *s);

/* Whether the request selects variant v, the index-th of n (by name, 'all',
 * a sample of a long sweep, or the default set). */
int sb_variant_selected(const sb_run_request *o, const sb_variant *v, int index, int n);

#endif
