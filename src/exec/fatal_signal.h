/* A crash under a memory limit, said as what it is.  An OpenCL runtime or
 * compiler (PoCL's LLVM above all) that runs out of address space under
 * `ulimit -v` does not return an error: it throws std::bad_alloc into
 * std::terminate (SIGABRT) or dereferences the NULL it got (SIGSEGV).
 * Caught here for the run command: where an address-space or data limit
 * is set, the temporaries still registered (cleanup.h) are removed, so
 * every existing output file is as it was, one line says that the
 * program ran out of memory under that limit and what to do, and the
 * program exits SB_EXIT_RUNTIME (4).  Without a limit a crash is a crash:
 * the signal's default action, a core where the system keeps one. */
#ifndef SB_FATAL_SIGNAL_H
#define SB_FATAL_SIGNAL_H

/* From now on SIGABRT, SIGSEGV and SIGBUS are caught for the command
 * prog (on a stack of their own, so that an overflowed stack is caught
 * too), in this process only: a forked child keeps the default. */
void sb_fatal_catch(const char *prog);

#endif
