/* Catching SIGINT, SIGTERM, SIGHUP and SIGPIPE (interrupt.h). */
#include "exec/interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "exec/cleanup.h"

static volatile sig_atomic_t first;      /* the first signal caught */
static volatile sig_atomic_t stop;       /* the signal that asked to stop */
static volatile sig_atomic_t deferred;   /* measuring or writing: only note */
static volatile sig_atomic_t pipe_stops; /* SIGPIPE asks to stop too */
static volatile sig_atomic_t piped;      /* SIGPIPE came */
static volatile sig_atomic_t asked;      /* a signal (not SIGPIPE) asked to stop */
static const char *prog_name = "simtbench";
static pid_t owner; /* the process that caught them */

const char *sb_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
    }
}

/* Appends s at *at in buf (size n), as far as it fits; in a handler, so
   by hand. */
static void append(char *buf, size_t n, size_t *at, const char *s)
{
    size_t len = strlen(s);
    if (len > n - 1 - *at)
        len = n - 1 - *at;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
}

/* Ends the program now: the temporaries removed, one line, 128 + sig.
   Only async-signal-safe calls. */
static void end_now(int sig, int again)
{
    sb_cleanup_now();
    char line[256];
    size_t at = 0;
    line[0] = '\0';
    append(line, sizeof line, &at, prog_name);
    append(line, sizeof line, &at, again ? ": " : ": interrupted by ");
    append(line, sizeof line, &at, sb_signal_name(sig));
    append(line, sizeof line, &at,
           again ? " again: ended at once; no file is left half-written, any not yet "
                   "complete was removed\n"
                 : " before anything was measured or written: ended at once, every file "
                   "is as it was\n");
    ssize_t put = write(STDERR_FILENO, line, at);
    (void)put;
    _exit(128 + sig);
}

/* Only flags, but for an end at once; everything else happens outside. */
static void on_signal(int sig)
{
    /* A child forked before its exec (gnuplot) or to probe a backend ends
       as it would have without the handler: the temporaries and the
       words are its parent's. */
    if (getpid() != owner) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (!first)
        first = sig;
    if (sig == SIGPIPE) {
        piped = 1;
        if (!deferred)
            end_now(sig, 0);
        if (pipe_stops && !stop)
            stop = sig;
        return;
    }
    if (!deferred)
        end_now(sig, 0);
    if (asked)
        end_now(sig, 1);
    asked = sig;
    stop = sig;
}

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

/* The handler for the four signals; restart: calls it interrupts carry on
   (SA_RESTART). */
static void install(int restart)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* One at a time: a SIGPIPE from the handler's own line on a closed
       stderr must not cut it short. */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    sa.sa_flags = restart ? SA_RESTART : 0;
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

void sb_interrupt_catch(const char *prog)
{
    prog_name = prog;
    owner = getpid();
    /* SA_RESTART: a read or a wait inside the backend carries on, and the
       variant finishes. */
    install(1);
}

void sb_interrupt_writing(void)
{
    /* A request the measuring has obeyed is spent: only a signal from now
       on stops the writing (the charts of an HTML page, the plots). */
    stop = 0;
    /* Without SA_RESTART, a signal makes a blocked open or write (a FIFO
       nobody reads, a pipe whose reader stalls) fail with EINTR, so the
       first one still ends the program; a regular file's writes are never
       cut short by a signal. */
    install(0);
}

void sb_interrupt_defer(int pipe_stop)
{
    pipe_stops = pipe_stop != 0;
    if (pipe_stops && piped && !stop)
        stop = SIGPIPE;
    deferred = 1;
}

int sb_interrupted(void)
{
    return stop;
}

int sb_interrupt_signal(void)
{
    return asked ? asked : first;
}

int sb_interrupt_pipe(void)
{
    return piped;
}
