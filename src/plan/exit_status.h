/* The program's exit statuses, documented in --help and the man page.
 * The plan is the first stage that can fail, so they are declared here,
 * where every later stage and the command line can include them. */
#ifndef SB_EXIT_STATUS_H
#define SB_EXIT_STATUS_H

enum {
    SB_EXIT_OK = 0,
    SB_EXIT_WRONG = 1,       /* a variant's output did not match the reference */
    SB_EXIT_USAGE = 2,       /* bad option or value */
    SB_EXIT_UNAVAILABLE = 3, /* a requested backend or device cannot be used */
    SB_EXIT_RUNTIME = 4,     /* a backend call failed (build, memory, launch) */
    SB_EXIT_IO = 5           /* a file could not be read or written */
};

#endif
