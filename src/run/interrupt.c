/* Catching SIGINT and SIGTERM (interrupt.h). */
#include "run/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;

/* Only the flag: everything else happens outside the handler.  The
   disposition goes back to the default (SA_RESETHAND), so that a second
   signal ends a program that does not stop soon enough. */
static void note_signal(int sig)
{
    caught = sig;
}

void sb_interrupt_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESTART: a read or a wait inside the backend carries on, and the
       variant finishes. */
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sb_interrupted(void)
{
    return caught;
}
