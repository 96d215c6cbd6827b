/* Running gnuplot on the scripts plot.c writes (plot.h): found on PATH or
 * where GNUPLOT says, run in a private directory beside the images, given
 * a time limit, stopped at SIGINT or SIGTERM, and its images moved over
 * the old ones only when they are whole. */
#include "config.h"

#include "report/plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/cleanup.h"
#include "exec/interrupt.h"

int sb_plot_find_gnuplot(char *buf, size_t n)
{
    const char *env = getenv("GNUPLOT");
    const char *want = env ? env : SB_GNUPLOT;
    if (!*want)
        return -1;
    if (strchr(want, '/')) {
        if (access(want, X_OK) == 0) {
            snprintf(buf, n, "%s", want);
            return 0;
        }
        if (env)
            return -1; /* the user named one that is not there: do not guess */
        want = "gnuplot"; /* configure's is gone; try the PATH */
    }
    const char *path = getenv("PATH");
    if (!path)
        return -1;
    char *copy = strdup(path);
    if (!copy)
        return -1;
    int found = -1;
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && found;
         d = strtok_r(NULL, ":", &save)) {
        snprintf(buf, n, "%s/%s", *d ? d : ".", want);
        if (access(buf, X_OK) == 0)
            found = 0;
    }
    free(copy);
    return found;
}

double sb_plot_time_limit(void)
{
    const char *env = getenv("SIMTBENCH_GNUPLOT_TIMEOUT");
    char *end;
    double s = env ? strtod(env, &end) : 0;
    return env && end != env && !*end && s > 0 && s <= 86400 ? s : SB_PLOT_TIME_LIMIT;
}

/* A private directory beside the images, DIR/.NAME.render-XXXXXX, with a
 * link to the plot's data, for gnuplot to write the images into: the
 * script runs as it is, and the images it writes replace the old ones
 * only when they are whole. */
static int render_dir(const char *dir, const char *name, char *tmp, size_t n)
{
    char target[128], link_path[4200];
    snprintf(tmp, n, "%s/.%s.render-XXXXXX", dir, name);
    if (!mkdtemp(tmp))
        return -1;
    sb_cleanup_add(tmp, 1); /* removed by a signal that ends the program */
    snprintf(target, sizeof target, "../%s.dat", name);
    snprintf(link_path, sizeof link_path, "%s/%s.dat", tmp, name);
    if (symlink(target, link_path) == 0)
        return 0;
    int saved = errno;
    rmdir(tmp);
    sb_cleanup_forget(tmp);
    errno = saved;
    return -1;
}

/* The render directory and whatever gnuplot left in it, removed. */
static void remove_render_dir(const char *tmp)
{
    DIR *d = opendir(tmp);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[4400];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(tmp);
    sb_cleanup_forget(tmp);
}

/* Whether tmp/NAME.EXT is whole, and on the disk: a PNG ends with its
 * IEND chunk and an SVG with its closing tag, which a disk that filled up
 * (gnuplot still exits 0) leaves out. */
static int image_whole(const char *tmp, const char *name, const char *ext)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    char path[4400], tail[64];
    snprintf(path, sizeof path, "%s/%s.%s", tmp, name, ext);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = 0;
    if (fseek(f, -(long)sizeof tail, SEEK_END) != 0)
        rewind(f);
    got = fread(tail, 1, sizeof tail, f);
    int synced = fsync(fileno(f)) == 0;
    fclose(f);
    if (!synced)
        return 0;
    if (strcmp(ext, "png") == 0)
        return got >= sizeof iend && memcmp(tail + got - sizeof iend, iend, sizeof iend) == 0;
    for (size_t at = 0; at + 6 <= got; at++)
        if (memcmp(tail + at, "</svg>", 6) == 0)
            return 1;
    return 0;
}

/* How a gnuplot ended, besides its exit status. */
enum { RUN_NOT_STARTED = -1, RUN_INTERRUPTED = -2, RUN_TIMED_OUT = -3 };

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* pid ended by SIGKILL and reaped. */
static void stop_child(pid_t pid)
{
    int st;
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
}

/* Wait for pid within `limit` seconds, asking between naps whether a
 * signal came (the handler restarts a blocking wait, so it cannot say);
 * the naps grow to 20 ms, so a quick plot costs no more than it takes. */
static int wait_limited(pid_t pid, double limit)
{
    struct timespec t0, nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int st = 0;
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (got < 0 && errno != EINTR)
            return RUN_NOT_STARTED;
        if (sb_interrupted()) {
            stop_child(pid);
            return RUN_INTERRUPTED;
        }
        if (seconds_since(&t0) > limit) {
            stop_child(pid);
            return RUN_TIMED_OUT;
        }
        nanosleep(&nap, NULL);
        if (nap.tv_nsec < 20000000)
            nap.tv_nsec *= 2;
    }
}

/* gnuplot on ../NAME.gp from inside tmp, its input empty and its output
 * dropped (warnings still reach standard error); the exit status, 128 +
 * the signal for one killed, or a RUN_ value. */
static int run_gnuplot(const char *gnuplot, const char *tmp, const char *name)
{
    char script[128];
    snprintf(script, sizeof script, "../%s.gp", name);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return RUN_NOT_STARTED;
    if (pid == 0) {
        if (chdir(tmp) == 0) {
            int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
            if (in >= 0)
                dup2(in, STDIN_FILENO);
            if (out >= 0)
                dup2(out, STDOUT_FILENO);
            execl(gnuplot, gnuplot, script, (char *)NULL);
        }
        _exit(127);
    }
    return wait_limited(pid, sb_plot_time_limit());
}

/* The two images of tmp moved over DIR/NAME.png and .svg. */
static int move_images(const char *tmp, const char *dir, const char *name, FILE *note)
{
    static const char *const ext[] = {"png", "svg"};
    for (int k = 0; k < 2; k++) {
        char from[4400], to[4400];
        snprintf(from, sizeof from, "%s/%s.%s", tmp, name, ext[k]);
        snprintf(to, sizeof to, "%s/%s.%s", dir, name, ext[k]);
        if (rename(from, to)) {
            fprintf(note, "simtbench: cannot write %s: %s\n", to, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* What gnuplot's end means, one line on note unless it is success, a
 * signal to us (the caller says that) or the time limit (sb_plot_render
 * says that); 0 when the images can be moved, else -1 or RUN_TIMED_OUT. */
static int judge_run(int st, const char *tmp, const char *dir, const char *name,
                     const char *gnuplot, FILE *note)
{
    if (st == RUN_INTERRUPTED || sb_interrupted())
        return -1;
    if (st == RUN_TIMED_OUT)
        return RUN_TIMED_OUT;
    if (st == RUN_NOT_STARTED)
        fprintf(note, "simtbench: cannot start %s: %s\n", gnuplot, strerror(errno));
    else if (st > 0)
        fprintf(note, "simtbench: gnuplot failed on %s/%s.gp (status %d)\n", dir, name, st);
    else if (!image_whole(tmp, name, "png") || !image_whole(tmp, name, "svg"))
        fprintf(note, "simtbench: gnuplot did not write %s/%s.png and .svg whole (a full disk?); "
                      "the old ones are kept\n",
                dir, name);
    else
        return 0;
    return -1;
}

/* One plot rendered, its images replacing the old ones only when gnuplot
 * succeeded and both are whole; 0, or -1 after one line on note (none
 * when a signal stopped it), or RUN_TIMED_OUT. */
static int render_one(const char *dir, const char *name, const char *gnuplot, FILE *note)
{
    char tmp[4096];
    if (render_dir(dir, name, tmp, sizeof tmp)) {
        fprintf(note, "simtbench: cannot render %s/%s.gp: %s\n", dir, name, strerror(errno));
        return -1;
    }
    int st = run_gnuplot(gnuplot, tmp, name);
    int rc = judge_run(st, tmp, dir, name, gnuplot, note);
    if (rc == 0)
        rc = move_images(tmp, dir, name, note);
    remove_render_dir(tmp);
    return rc;
}

/* A gnuplot that hangs on one script will hang on the next: after the
 * first that runs out of time, the rest are not tried. */
int sb_plot_render(const char *dir, const sb_plot_list *list, const char *gnuplot, FILE *note)
{
    int rendered = 0;
    for (int i = 0; i < list->n && !sb_interrupted(); i++) {
        int rc = render_one(dir, list->name[i], gnuplot, note);
        if (rc == RUN_TIMED_OUT) {
            fprintf(note, "simtbench: gnuplot did not finish %s/%s.gp within %g s (the limit; "
                          "SIMTBENCH_GNUPLOT_TIMEOUT sets it), so it was stopped and %d plot(s) "
                          "are not rendered; the old images are kept\n",
                    dir, list->name[i], sb_plot_time_limit(), list->n - i);
            break;
        }
        rendered += rc == 0;
    }
    return rendered;
}

int sb_plot_run(const sb_analysis *a, const char *dir, FILE *note)
{
    sb_plot_list *list = calloc(1, sizeof *list);
    char err[512];
    if (!list) {
        fprintf(note, "simtbench: --plot: out of host memory\n");
        return -1;
    }
    if (sb_plot_write(a, dir, list, err, sizeof err)) {
        fprintf(note, "simtbench: --plot: %s\n", err);
        free(list);
        return -1;
    }
    char gnuplot[4096];
    int rc = 0, found = list->n > 0 && sb_plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0;
    if (found)
        rc = sb_plot_render(dir, list, gnuplot, note) == list->n ? 0 : -1;
    /* After a signal, the images not drawn can still be drawn by hand. */
    if (list->n > 0 && (!found || sb_interrupted()))
        fprintf(note, "simtbench: note: %s, so %d plot(s) were written to %s as data and "
                      "scripts only; render them with: cd %s && for f in *.gp; do "
                      "gnuplot \"$f\"; done\n",
                found ? "interrupted" : "gnuplot not found", list->n, dir, dir);
    free(list);
    return sb_interrupted() ? SB_PLOT_INTERRUPTED : rc;
}
