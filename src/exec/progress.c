/* The progress line (progress.h). */
#include "exec/progress.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct {
    int enabled, drawn;
    sb_progress_state st;
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

/* Seconds left by the two rates, or -1 while one it needs is unknown. */
static double seconds_left(const sb_progress_state *st)
{
    int left = st->total - st->done, builds_left = st->builds - st->builds_done;
    if (builds_left < 0)
        builds_left = 0;
    if (st->done <= 0 || left <= 0 || (builds_left > 0 && st->builds_done == 0))
        return -1;
    double measure_rate = (st->elapsed_s - st->build_s) / st->done;
    double build_rate = st->builds_done ? st->build_s / st->builds_done : 0;
    return (measure_rate > 0 ? measure_rate * left : 0) + build_rate * builds_left;
}

void sb_progress_format(char *buf, size_t n, const sb_progress_state *st, const char *backend,
                        const char *experiment, const char *variant, int width)
{
    char spent[48], left[80] = "", builds[64] = "";
    clock_text(spent, sizeof spent, st->elapsed_s);
    double s = seconds_left(st);
    if (s >= 0) {
        char t[48];
        clock_text(t, sizeof t, s);
        snprintf(left, sizeof left, ", about %s left", t);
    } else if (st->done < st->total) {
        snprintf(left, sizeof left, ", estimating");
    }
    if (st->building)
        snprintf(builds, sizeof builds, ": building kernel %d of up to %d", st->builds_done + 1,
                 st->builds > st->builds_done ? st->builds : st->builds_done + 1);
    int shown = st->done + 1 > st->total ? st->total : st->done + 1;
    /* The count and the times first: a narrow terminal cuts the name. */
    int len = snprintf(buf, n, "[%d/%d] %s elapsed%s  %s %s/%s%s", shown, st->total, spent, left,
                       backend, experiment, variant, builds);
    if (width > 1 && len >= width && (size_t)width <= n)
        buf[width - 1] = '\0';
}

void sb_progress_begin(int total, int builds, int enabled)
{
    pthread_mutex_lock(&lock);
    memset(&P, 0, sizeof P);
    P.st.total = total;
    P.st.builds = builds;
    P.enabled = enabled;
    clock_gettime(CLOCK_MONOTONIC, &P.t0);
    pthread_mutex_unlock(&lock);
}

static void draw(void)
{
    char line[512];
    P.st.elapsed_s = seconds_since(&P.t0);
    sb_progress_format(line, sizeof line, &P.st, P.backend, P.experiment, P.variant,
                       terminal_width());
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
    if (P.st.done < P.st.total)
        P.st.done++;
    pthread_mutex_unlock(&lock);
}

void sb_progress_build_begin(void)
{
    pthread_mutex_lock(&lock);
    P.st.building = 1;
    if (P.enabled)
        draw();
    pthread_mutex_unlock(&lock);
}

void sb_progress_build_end(double seconds)
{
    pthread_mutex_lock(&lock);
    P.st.building = 0;
    P.st.builds_done++;
    P.st.build_s += seconds;
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
