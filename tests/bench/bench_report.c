/* The benchmark of reading and rendering saved runs: runs of 10 000,
 * 40 000 and 170 000 results (tests/report/large_run.c), each rendered by
 * `simtbench report` as a table, CSV and JSON, timed as the child's CPU
 * time on one core (taskset is the caller's choice) and the wall clock,
 * with its peak memory.  It prints one line a run and format, the time per
 * 10 000 results (flat when the cost is linear), and the goal: 170 000
 * results in under 5 s.  A benchmark prints its figures; it fails only
 * when a render fails, never for a slow machine.
 *
 *   make bench            (builds simtbench and this, then runs it)
 *   tests/bench/bench_report [SIMTBENCH [N...]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report/large_run.h"

#define GOAL_RESULTS 170000
#define GOAL_S 5.0

typedef struct timing {
    double cpu, wall;
    long max_kib;
} timing;

/* Run `simtbench report -f FORMAT -o /dev/null PATH`; 0 and its timing, or -1. */
static int time_report(const char *sb, const char *format, const char *path, timing *t)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execl(sb, "simtbench", "report", "-f", format, "-o", "/dev/null", path,
              (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    t->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
             ru.ru_stime.tv_usec / 1e6;
    t->wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    t->max_kib = ru.ru_maxrss;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *sb = argc > 1 ? argv[1] : "./simtbench";
    long sizes[16] = {10000, 40000, GOAL_RESULTS};
    int nsizes = 3;
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc && nsizes < 16; i++)
            sizes[nsizes++] = strtol(argv[i], NULL, 10);
    }
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/simtbench-bench-%ld.json", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    static const char *const formats[] = {"table", "csv", "json"};
    int failed = 0;
    printf("%9s  %-6s %8s %8s %10s %12s\n", "results", "format", "CPU s", "wall s", "max MiB",
           "CPU s/10k");
    for (int i = 0; i < nsizes; i++) {
        if (sizes[i] <= 0 || sb_write_large_run(path, sizes[i]) != 0) {
            fprintf(stderr, "bench_report: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
        for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
            timing t;
            if (time_report(sb, formats[f], path, &t) != 0) {
                fprintf(stderr, "bench_report: %s report -f %s of %ld results failed\n", sb,
                        formats[f], sizes[i]);
                failed = 1;
                continue;
            }
            printf("%9ld  %-6s %8.2f %8.2f %10.1f %12.3f", sizes[i], formats[f], t.cpu, t.wall,
                   t.max_kib / 1024.0, t.cpu * 1e4 / (double)sizes[i]);
            if (sizes[i] == GOAL_RESULTS)
                printf("  goal < %.0f s: %s", GOAL_S, t.cpu < GOAL_S ? "met" : "MISSED");
            putchar('\n');
            fflush(stdout);
        }
    }
    unlink(path);
    return failed;
}
