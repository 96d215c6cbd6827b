/* The progress line (progress.h). */
#include "run/progress.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    int enabled, drawn;
    int done, total;
    struct timespec t0;
    char backend[48], experiment[64], variant[64];
} P;

/* Devices measured at the same time step, finish and speak from threads
   of their own: one line at a time. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* "1:05" for 65 s. */
static void clock_text(char *buf, size_t n, double s)
{
    long t = s < 0 ? 0 : (long)(s + 0.5);
    snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* The terminal's width: $COLUMNS when it is a number, else 100. */
static int terminal_width(void)
{
    const char *c = getenv("COLUMNS");
    char *end;
    long w = c ? strtol(c, &end, 10) : 0;
    return c && *c && !*end && w >= 20 && w <= 1000 ? (int)w : 100;
}

void sb_progress_format(char *buf, size_t n, int done, int total, double elapsed_s,
                        const char *backend, const char *experiment, const char *variant,
                        int width)
{
    char spent[48], left[80] = "";
    clock_text(spent, sizeof spent, elapsed_s);
    if (done > 0 && done < total) {
        char t[48];
        clock_text(t, sizeof t, elapsed_s / done * (total - done));
        snprintf(left, sizeof left, ", about %s left", t);
    }
    /* The count and the times first: a narrow terminal cuts the name. */
    int len = snprintf(buf, n, "[%d/%d] %s elapsed%s  %s %s/%s", done + 1 > total ? total : done + 1,
                       total, spent, left, backend, experiment, variant);
    if (width > 1 && len >= width && (size_t)width <= n)
        buf[width - 1] = '\0';
}

void sb_progress_begin(int total, int enabled)
{
    pthread_mutex_lock(&lock);
    memset(&P, 0, sizeof P);
    P.total = total;
    P.enabled = enabled;
    clock_gettime(CLOCK_MONOTONIC, &P.t0);
    pthread_mutex_unlock(&lock);
}

static void draw(void)
{
    char line[512];
    sb_progress_format(line, sizeof line, P.done, P.total, seconds_since(&P.t0), P.backend,
                       P.experiment, P.variant, terminal_width());
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    P.drawn = 1;
}

void sb_progress_step(const char *backend, const char *experiment, const char *variant)
{
    pthread_mutex_lock(&lock);
    snprintf(P.backend, sizeof P.backend, "%s", backend);
    snprintf(P.experiment, sizeof P.experiment, "%s", experiment);
    snprintf(P.variant, sizeof P.variant, "%s", variant);
    if (P.enabled)
        draw();
    pthread_mutex_unlock(&lock);
}

void sb_progress_done(void)
{
    pthread_mutex_lock(&lock);
    if (P.done < P.total)
        P.done++;
    pthread_mutex_unlock(&lock);
}

/* The line removed; the lock held. */
static void clear_locked(void)
{
    if (P.drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    P.drawn = 0;
}

void sb_progress_clear(void)
{
    pthread_mutex_lock(&lock);
    clear_locked();
    pthread_mutex_unlock(&lock);
}

void sb_say(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&lock);
    clear_locked();
    fprintf(stderr, "simtbench: %s\n", msg);
    pthread_mutex_unlock(&lock);
}
