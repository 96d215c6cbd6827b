/* A large saved run, two devices side by side, read and written again by
 * `simtbench report -f csv`: it must succeed, and its peak memory must stay
 * the records themselves plus 40 MiB for everything else, which a
 * whole-file parse or a copy of every record exceeds.  How long it takes is
 * the benchmark's business (tests/bench/bench_report.c, `make bench`), not
 * a test's: a slower machine is not a failure. */
#include "test_util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "large_run.h"
#include "result.h"

#define NRESULTS 40000
#define RSS_LIMIT_KIB ((long)(NRESULTS * sizeof(sb_result) / 1024) + 40L * 1024)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static char path[256];

static void write_large_run(void **state)
{
    (void)state;
    assert_int_equal(sb_write_large_run(path, NRESULTS), 0);
}

static void report_in_bounded_memory(void **state)
{
    (void)state;
    const char *sb = getenv("SIMTBENCH");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(600); /* a hang is a failure, not a wait for ever */
        execl(sb ? sb : "./simtbench", "simtbench", "report", "-f", "csv", "-o", "/dev/null",
              path, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    assert_int_equal(wait4(pid, &st, 0, &ru), pid);
    print_message("# %d results: %ld KiB at most\n", NRESULTS, (long)ru.ru_maxrss);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    if (ru.ru_maxrss > RSS_LIMIT_KIB)
        fail_msg("%ld KiB at most, more than %ld KiB", (long)ru.ru_maxrss, RSS_LIMIT_KIB);
}

int main(void)
{
#ifdef UNDER_ASAN
    return sb_test_skip_all("the memory limit does not hold under AddressSanitizer");
#endif
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/simtbench-large-%ld.json", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_large_run),
        cmocka_unit_test(report_in_bounded_memory),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return failed;
}
