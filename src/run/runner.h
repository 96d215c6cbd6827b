/* The run loop: the measuring policy, once for every backend and
 * experiment (build, upload, poison, verify, warm up, time, summarise). */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include "experiments/experiment.h"
#include "cli/options.h"
#include "run/registry.h"
#include "result.h"

/* One opened device of one backend. */
typedef struct sb_session {
    sb_backend_slot slot;
    sb_device *dev;
    sb_device_info info;
    int run_device;          /* index into sb_run.devices */
} sb_session;

/* Open the device the options ask for on a loaded backend; SB_EXIT_OK, or
 * SB_EXIT_UNAVAILABLE with the reason in err. */
int sb_session_open(sb_session *s, const sb_options *o, sb_run *run, char *err, size_t n);

/* Close a session opened by sb_session_open. */
void sb_session_close(sb_session *s);

/* Run every experiment on every session, appending verified results to run.
 * Failures are reported on stderr as they happen, one line each; returns
 * the exit status (SB_EXIT_OK when every variant ran and was verified). */
int sb_run_experiments(const sb_options *o, sb_session *sessions, int nsessions,
                       const sb_experiment *const *exps, int nexps, sb_run *run);

/* Whether options select variant v, the index-th of n (by name, 'all',
 * a sample of a long sweep, or the default set). */
int sb_variant_selected(const sb_options *o, const sb_variant *v, int index, int n);

#endif
