/* Sessions: one opened device of one loaded backend, each a device of the
 * run's record.  Opened from the suite plan, after it has been checked. */
#ifndef SB_SESSION_H
#define SB_SESSION_H

#include <stddef.h>

#include "backend.h"
#include "result.h"
#include "exec/registry.h"
#include "plan/suite.h"

/* One opened device of one backend. */
typedef struct sb_session {
    sb_backend_slot slot;
    sb_device *dev;
    sb_device_info info;
    int run_device;          /* index into sb_run.devices */
    char label[48];          /* the device's name in messages and the progress line, as
                                the report names it (sb_slot_label) */
} sb_session;

/* Open the requested device on a loaded backend and add it to run's
 * devices; SB_EXIT_OK, or SB_EXIT_UNAVAILABLE (SB_EXIT_USAGE when run holds
 * no more devices) with the reason in err. */
int sb_session_open(sb_session *s, const sb_device_request *req, sb_run *run, char *err,
                    size_t n);

/* Close a session opened by sb_session_open. */
void sb_session_close(sb_session *s);

/* The clocks of each open session's device now, as its run device's end
 * clocks (the start's are read when a session opens); called once the
 * last experiment has run, before the sessions close. */
void sb_sessions_clocks_end(const sb_session *sessions, int n, sb_run *run);

/* Load the suite's backends and open a session on each of their chosen
 * devices into sessions[] (room for SB_RUN_MAX_DEVICES), *n of them, in
 * backend order, each backend's in device order: its default device, each
 * listed index, or (--device all) every device of --platform, else of the
 * first platform with a GPU, else of the first platform.  Named backends
 * must all open every device (else the status, with one line on stderr);
 * with none named, every known backend that opens, and each other one (or
 * device) this simtbench has (sb_registry_has) in run->unavailable[] with
 * its reason, also said in a note on stderr unless the suite is quiet or
 * the report goes to a terminal (its header names them); none at all is
 * SB_EXIT_UNAVAILABLE, one line naming every reason.  Once all are open,
 * each session's label is set.  On failure the sessions opened so far
 * stay in sessions[0..*n) for sb_sessions_close. */
int sb_sessions_open(const sb_suite *suite, sb_session *sessions, int *n, sb_run *run);

/* Close and unload sessions[0..n). */
void sb_sessions_close(sb_session *sessions, int n);

#endif
