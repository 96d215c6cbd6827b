/* A crash under a memory limit, said as what it is.  An OpenCL runtime or
 * compiler (PoCL's LLVM above all) that runs out of address space under
 * `ulimit -v` does not return an error: it throws std::bad_alloc into
 * std::terminate (SIGABRT) or dereferences the NULL it got (SIGSEGV).
 * Caught here for the run command: where an address-space or data limit
 * is set, the temporaries still registered (cleanup.h) are removed, so
 * every existing output file is as it was, one line says that the
 * program ran out of memory under that limit and what to do, and the
 * program exits SB_EXIT_RUNTIME (4).  Without a limit a crash is a crash:
 * the signal's default action, a core where the system keeps one.
 *
 * What was measured is kept: between experiments the run command writes
 * its files whole to temporaries beside their targets (marked
 * interrupted) and hands them here; a crash then renames them over their
 * targets, which is one system call a handler may make, where writing
 * the files from the handler (the heap perhaps broken) would not be
 * safe.  A library that calls exit() while the run measures (libgomp
 * when it cannot start the host checks' threads) ends the run the same
 * way, from an atexit handler. */
#ifndef SB_FATAL_SIGNAL_H
#define SB_FATAL_SIGNAL_H

/* From now on SIGABRT, SIGSEGV and SIGBUS are caught for the command
 * prog (on a stack of their own, so that an overflowed stack is caught
 * too), in this process only: a forked child keeps the default. */
void sb_fatal_catch(const char *prog);

/* Whether an address-space or data limit is set: the handler speaks only
 * then, so only then is there a reason to keep files for it. */
int sb_fatal_memory_limited(void);

#define SB_FATAL_KEEP 2

/* From now on a crash renames each of the n complete files temps[i] over
 * reals[i] and ends its line with said (", the 3 finished results are
 * kept in s.json, marked interrupted"); replaces the files kept before,
 * which the caller may then remove.  0, or -1 when a path is too long. */
int sb_fatal_keep(int n, const char *const *temps, const char *const *reals, const char *said);

/* From now on a crash keeps nothing (the caller removes the files). */
void sb_fatal_keep_none(void);

/* While on, exit() (a library's: the run returns through main) ends the
 * run as a crash does: the kept files in place, one line, status 4. */
void sb_fatal_guard_exit(int on);

#endif
