/* SIGINT, SIGTERM, SIGHUP and SIGPIPE, caught for the commands that write
 * files.  Before anything is measured or written, a signal ends the
 * program at once (nothing to keep).  Once sb_interrupt_defer is called,
 * the first signal only asks the program to stop: the executor asks
 * between variants, sessions and experiments, and the command writes what
 * finished, marked interrupted, says what was kept and exits 128 plus the
 * signal's number.  A second signal ends the program at once.  Whenever
 * the program ends at once, the temporaries still registered (cleanup.h)
 * are removed first and one line on stderr says so.
 *
 * SIGPIPE says that the reader of standard output (or error) is gone:
 * where the run still has a file to write (-o, --save, --plot), it goes on
 * and writes them whole; only where it has nothing else to write does
 * SIGPIPE stop it.  It never ends the program at once once deferred. */
#ifndef SB_INTERRUPT_H
#define SB_INTERRUPT_H

/* From now on the four signals are caught for the command prog
 * ("simtbench", "simtbench report"), ending it at once (see above). */
void sb_interrupt_catch(const char *prog);

/* From now on the first signal only asks to stop (see above); SIGPIPE asks
 * it too when pipe_stops. */
void sb_interrupt_defer(int pipe_stops);

/* Nothing is left to measure, only files to write: a request to stop
 * that came before is spent (sb_interrupted is 0 again, the writing goes
 * on), and from now on a signal also makes a blocked open or write fail
 * (EINTR) rather than resume. */
void sb_interrupt_writing(void);

/* The signal that asked the program to stop, or 0. */
int sb_interrupted(void);

/* The last signal that asked to stop, else the first caught (SIGPIPE), or
 * 0, spent or not: the command's exit status is 128 plus it. */
int sb_interrupt_signal(void);

/* Whether SIGPIPE came: standard output (or error) has no reader. */
int sb_interrupt_pipe(void);

/* "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE", or "a signal". */
const char *sb_signal_name(int sig);

#endif
