/* The signals a command catches (interrupt.h) and the temporaries removed
 * when one ends the program (cleanup.h), each case in a child process so
 * that its death is looked at from outside. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/cleanup.h"
#include "exec/interrupt.h"
#include "test_util.h"

static char dir[] = "/tmp/simtbench-interrupt-XXXXXX";
static char file[128], folder[128], inside[160];

/* A temporary file and a render-like folder holding a file and a link,
 * both registered. */
static void make_temporaries(void)
{
    int fd = open(file, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkdir(folder, 0700), 0);
    fd = open(inside, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    char link_path[200];
    snprintf(link_path, sizeof link_path, "%s/plot.dat", folder);
    assert_int_equal(symlink("../plot.dat", link_path), 0);
    assert_int_equal(sb_cleanup_add(file, 0), 0);
    assert_int_equal(sb_cleanup_add(folder, 1), 0);
}

/* The child's exit status; it runs body, which ends it or returns. */
static int in_child(void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDERR_FILENO); /* the line a signal prints is not the test's */
        body();
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void gone_all(void)
{
    assert_int_not_equal(access(file, F_OK), 0);
    assert_int_not_equal(access(folder, F_OK), 0);
}

static void signal_before_deferring(void)
{
    make_temporaries();
    sb_interrupt_catch("test");
    raise(SIGTERM);
    _exit(1); /* not reached: the signal ends the program */
}

/* Before sb_interrupt_defer a signal ends the program at once, 128 + N,
 * its temporaries removed. */
static void at_once_before_measuring(void **state)
{
    (void)state;
    assert_int_equal(in_child(signal_before_deferring), 128 + SIGTERM);
    gone_all();
}

static void signal_twice_deferred(void)
{
    make_temporaries();
    sb_interrupt_catch("test");
    sb_interrupt_defer(0);
    raise(SIGHUP);
    if (sb_interrupted() != SIGHUP || sb_interrupt_signal() != SIGHUP ||
        access(file, F_OK) != 0)
        _exit(2); /* the first only asks to stop, and removes nothing */
    raise(SIGINT);
    _exit(1);
}

/* Deferred, the first signal is a request; the second ends the program
 * at once, 128 + its number, the temporaries removed. */
static void second_signal_ends_at_once(void **state)
{
    (void)state;
    assert_int_equal(in_child(signal_twice_deferred), 128 + SIGINT);
    gone_all();
}

static void pipe_deferred(void)
{
    sb_interrupt_catch("test");
    sb_interrupt_defer(0);
    raise(SIGPIPE);
    raise(SIGPIPE);
    if (sb_interrupted() != 0 || !sb_interrupt_pipe() || sb_interrupt_signal() != SIGPIPE)
        _exit(2);
    sb_interrupt_defer(1); /* nothing else to write: now it asks to stop */
    if (sb_interrupted() != SIGPIPE)
        _exit(3);
    raise(SIGTERM); /* a real signal after SIGPIPE is a request of its own */
    if (sb_interrupted() != SIGTERM || sb_interrupt_signal() != SIGTERM)
        _exit(4);
    raise(SIGTERM); /* and a second one ends the program */
    _exit(5);
}

/* SIGPIPE, deferred, never ends the program, and asks it to stop only
 * when there is nothing else to write. */
static void pipe_is_noted(void **state)
{
    (void)state;
    int st = in_child(pipe_deferred);
    assert_int_equal(st, 128 + SIGTERM);
}

static void forgotten_is_kept(void)
{
    make_temporaries();
    sb_cleanup_forget(file);
    sb_interrupt_catch("test");
    raise(SIGINT);
    _exit(1);
}

/* What its owner has renamed (forgotten) is not removed. */
static void forgotten_paths_stay(void **state)
{
    (void)state;
    assert_int_equal(in_child(forgotten_is_kept), 128 + SIGINT);
    assert_int_equal(access(file, F_OK), 0);
    assert_int_not_equal(access(folder, F_OK), 0);
    unlink(file);
}

int main(void)
{
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot make a temporary directory");
    /* Named here: the children make them, the parent looks. */
    snprintf(file, sizeof file, "%s/.r.txt.AbCdEf", dir);
    snprintf(folder, sizeof folder, "%s/.p.render-AbCdEf", dir);
    snprintf(inside, sizeof inside, "%s/plot.png", folder);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(at_once_before_measuring),
        cmocka_unit_test(second_signal_ends_at_once),
        cmocka_unit_test(pipe_is_noted),
        cmocka_unit_test(forgotten_paths_stay),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (rmdir(dir) != 0)
        failed++; /* something was left behind */
    return failed;
}
