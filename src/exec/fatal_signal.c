/* A crash under a memory limit, said as what it is (fatal_signal.h). */
#include "exec/fatal_signal.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/options.h"
#include "exec/cleanup.h"

static const char *prog_name = "simtbench";
static pid_t owner;
/* The handler's own stack: a crash may be a stack overflow. */
static char alt_stack[1 << 16];

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

/* Only async-signal-safe calls: the heap may be where it failed. */
static void on_fatal(int sig)
{
    const char *which = "";
    unsigned long long lim = memory_limit(&which);
    if (getpid() != owner || lim == 0) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    sb_cleanup_now();
    char line[512], num[24];
    size_t at = 0;
    line[0] = '\0';
    append(line, sizeof line, &at, prog_name);
    append(line, sizeof line, &at, ": out of memory: the backend's runtime or compiler (or the "
                                   "program) ended with ");
    append(line, sizeof line, &at, fatal_name(sig));
    append(line, sizeof line, &at, " under the ");
    append(line, sizeof line, &at, which);
    append(line, sizeof line, &at, " of ");
    append(line, sizeof line, &at, decimal(lim >> 20, num));
    append(line, sizeof line, &at, " MiB; raise it (a kernel compiler alone can need hundreds "
                                   "of MiB) or fill the kernel cache first; no file is left "
                                   "half-written, results not yet saved are lost\n");
    ssize_t put = write(STDERR_FILENO, line, at);
    (void)put;
    _exit(SB_EXIT_RUNTIME);
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
