/* A crash under a memory limit, said as what it is (fatal_signal.h). */
#include "exec/fatal_signal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "plan/exit_status.h"
#include "exec/cleanup.h"

static const char *prog_name = "simtbench";
static pid_t owner;
/* The handler's own stack: a crash may be a stack overflow. */
static char alt_stack[1 << 16];
/* Whether a library's exit() now is an end of the run (sb_fatal_guard_exit). */
static volatile sig_atomic_t guarding;

/* What a crash keeps (sb_fatal_keep): two sets, the one the handler reads
   chosen by `active` (-1: none), so that the next set is written whole
   while the last one still stands. */
#define KEEP_PATH 4096
typedef struct keep_set {
    int n;
    char temp[SB_FATAL_KEEP][KEEP_PATH], real[SB_FATAL_KEEP][KEEP_PATH];
    char said[1024];
} keep_set;
static keep_set keeps[2];
static volatile sig_atomic_t active = -1;

/* Appends s at *at in buf (size n), as far as it fits. */
static void append(char *buf, size_t n, size_t *at, const char *s)
{
    size_t len = strlen(s);
    if (len > n - 1 - *at)
        len = n - 1 - *at;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
}

/* v in decimal into buf (at least 24 bytes). */
static const char *decimal(unsigned long long v, char *buf)
{
    char tmp[24];
    int k = 0;
    do
        tmp[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < (int)sizeof tmp);
    for (int i = 0; i < k; i++)
        buf[i] = tmp[k - 1 - i];
    buf[k] = '\0';
    return buf;
}

/* The tighter of the address-space and data limits, bytes; 0 when
   neither is set.  getrlimit is a plain system call. */
static unsigned long long memory_limit(const char **which)
{
    struct rlimit as, data;
    unsigned long long lim = 0;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
        lim = as.rlim_cur, *which = "address-space limit (ulimit -v)";
    if (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY &&
        (!lim || data.rlim_cur < lim))
        lim = data.rlim_cur, *which = "data-size limit (ulimit -d)";
    return lim;
}

static const char *fatal_name(int sig)
{
    return sig == SIGABRT ? "SIGABRT" : sig == SIGSEGV ? "SIGSEGV" : "SIGBUS";
}

/* The kept files renamed over their targets; the words for the line
   (the empty string when none was kept). */
static const char *put_kept(void)
{
    int k = active;
    if (k < 0)
        return "";
    active = -1;
    int all = 1;
    for (int i = 0; i < keeps[k].n; i++)
        all &= rename(keeps[k].temp[i], keeps[k].real[i]) == 0;
    return all ? keeps[k].said : "";
}

/* The one line and the end: the kept files in place, the temporaries
   removed, SB_EXIT_RUNTIME.  Only async-signal-safe calls: the heap may
   be where it failed. */
static void end_out_of_memory(const char *what, unsigned long long lim, const char *which)
{
    const char *kept = put_kept();
    sb_cleanup_now();
    char line[1536], num[24];
    size_t at = 0;
    line[0] = '\0';
    append(line, sizeof line, &at, prog_name);
    append(line, sizeof line, &at, lim ? ": out of memory: " : ": ");
    append(line, sizeof line, &at, what);
    if (lim) {
        append(line, sizeof line, &at, " under the ");
        append(line, sizeof line, &at, which);
        append(line, sizeof line, &at, " of ");
        append(line, sizeof line, &at, decimal(lim >> 20, num));
        append(line, sizeof line, &at, " MiB; raise it (a kernel compiler alone can need "
                                       "hundreds of MiB) or fill the kernel cache first");
    }
    append(line, sizeof line, &at, "; no file is left half-written");
    append(line, sizeof line, &at, kept[0] ? kept : ", results not yet saved are lost");
    append(line, sizeof line, &at, "\n");
    ssize_t put = write(STDERR_FILENO, line, at);
    (void)put;
    _exit(SB_EXIT_RUNTIME);
}

static void on_fatal(int sig)
{
    const char *which = "";
    unsigned long long lim = memory_limit(&which);
    if (getpid() != owner || lim == 0) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    char what[128];
    size_t at = 0;
    what[0] = '\0';
    append(what, sizeof what, &at, "the backend's runtime or compiler (or the program) ended "
                                   "with ");
    append(what, sizeof what, &at, fatal_name(sig));
    end_out_of_memory(what, lim, which);
}

/* exit() called while the run measures is a library's (libgomp's, when
   it cannot start the threads of the host checks): the same end. */
static void on_exit_call(void)
{
    if (!guarding || getpid() != owner)
        return;
    const char *which = "";
    unsigned long long lim = memory_limit(&which);
    end_out_of_memory(lim ? "a library (the OpenMP runtime of the host checks, when it cannot "
                            "start its threads) ended the program"
                          : "a library ended the program in the middle of the run",
                      lim, which);
}

int sb_fatal_memory_limited(void)
{
    const char *which;
    return memory_limit(&which) != 0;
}

int sb_fatal_keep(int n, const char *const *temps, const char *const *reals, const char *said)
{
    int k = active == 0 ? 1 : 0;
    if (n < 0 || n > SB_FATAL_KEEP || strlen(said) >= sizeof keeps[k].said)
        return -1;
    for (int i = 0; i < n; i++)
        if (strlen(temps[i]) >= KEEP_PATH || strlen(reals[i]) >= KEEP_PATH)
            return -1;
    for (int i = 0; i < n; i++) {
        strcpy(keeps[k].temp[i], temps[i]);
        strcpy(keeps[k].real[i], reals[i]);
    }
    keeps[k].n = n;
    strcpy(keeps[k].said, said);
    active = k;
    return 0;
}

void sb_fatal_keep_none(void)
{
    active = -1;
}

void sb_fatal_guard_exit(int on)
{
    static int registered;
    if (on && !registered)
        registered = atexit(on_exit_call) == 0;
    guarding = on != 0;
}

void sb_fatal_catch(const char *prog)
{
    prog_name = prog;
    owner = getpid();
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigaction(SIGABRT, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}
