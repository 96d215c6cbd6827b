/* A saved run of 170 000 results, two devices side by side, written again
 * by `simtbench report -f csv`: the reading, the pairing and the writing
 * grow as n log n at worst, and memory as the records.  The limits are on
 * the child's own CPU time (not the wall clock, which a loaded machine
 * stretches), a few times what it needs, and on its peak memory: the
 * records themselves plus 40 MiB for everything else, under 300 MiB,
 * where a quadratic pairing takes minutes and a whole-file parse several
 * times the records. */
#include "test_util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "result.h"

#define NRESULTS 170000
#define CPU_LIMIT_S 5.0
#define RSS_LIMIT_KIB ((long)(NRESULTS * sizeof(sb_result) / 1024) + 40L * 1024)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static char path[256];

/* The saved run, written with printf: two devices, each result measured on
 * both, twelve experiments, variants at two sizes, PTX on one in four. */
static void write_large_run(void **state)
{
    (void)state;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"schema\": \"simtbench-result/1\", \"tool\": {\"name\": \"simtbench\", "
          "\"version\": \"0\"},\n \"devices\": [{\"backend\": \"b0\", \"name\": \"A\", "
          "\"memcpy_gbs\": 100.5}, {\"backend\": \"b1\", \"name\": \"B\"}],\n \"results\": [\n",
          f);
    for (long i = 0; i < NRESULTS; i++) {
        long k = i / 2;
        fprintf(f,
                "%s{\"backend\": \"b%ld\", \"device\": %ld, \"experiment\": \"exp%ld\", "
                "\"variant\": \"v%ld\", \"kernel\": \"k\", \"rows\": %ld, \"cols\": 64, "
                "\"unit\": \"GB/s\", \"time_ms\": {\"median\": %.6f, \"min\": 0.1, \"max\": 2, "
                "\"spread\": 0.01}, \"value\": %.3f, \"registers\": 32, \"ptx_memory\": \"%s\"}\n",
                i ? "," : "", i % 2, i % 2, k % 12, k / 24, 64 + 64 * ((k / 12) % 2),
                0.1 + (double)(i % 1000) / 1000.0, 1.0 + (double)(i % 77),
                k % 4 ? "" : "1 x ld.global.f32");
    }
    fputs("]}\n", f);
    assert_int_equal(fclose(f), 0);
}

static void report_is_linear(void **state)
{
    (void)state;
    const char *sb = getenv("SIMTBENCH");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(120); /* a quadratic pairing would take minutes: stop it */
        execl(sb ? sb : "./simtbench", "simtbench", "report", "-f", "csv", "-o", "/dev/null",
              path, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    assert_int_equal(wait4(pid, &st, 0, &ru), pid);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
                 ru.ru_stime.tv_usec / 1e6;
    double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    print_message("# %d results: %.2f s CPU, %.2f s wall, %ld KiB at most\n", NRESULTS, cpu,
                  wall, (long)ru.ru_maxrss);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    if (cpu > CPU_LIMIT_S)
        fail_msg("%.2f s of CPU, more than %.0f s", cpu, CPU_LIMIT_S);
    if (ru.ru_maxrss > RSS_LIMIT_KIB)
        fail_msg("%ld KiB at most, more than %ld KiB", (long)ru.ru_maxrss, RSS_LIMIT_KIB);
}

int main(void)
{
#ifdef UNDER_ASAN
    return sb_test_skip_all("time and memory limits do not hold under AddressSanitizer");
#endif
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/simtbench-large-%ld.json", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_large_run),
        cmocka_unit_test(report_is_linear),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return failed;
}
