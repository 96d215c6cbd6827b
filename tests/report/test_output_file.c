/* Outputs written beside their target and renamed when complete: a failed
 * or abandoned output leaves the existing file as it was and no temporary
 * behind. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/output_path.h"
#include "report/output_file.h"
#include "test_util.h"

static char dir[] = "/tmp/simtbench-output-XXXXXX";

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
    fclose(f);
    assert_string_equal(buf, text);
}

/* Files in dir other than the named one. */
static int others(const char *keep)
{
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, keep);
    closedir(d);
    return count;
}

static void commit_replaces(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/report.txt", dir);
    put(path, "old");
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, path, err, sizeof err), 0);
    expect(path, "old"); /* nothing touched before the commit */
    fputs("new", o.f);
    assert_int_equal(sb_output_commit(&o, err, sizeof err), 0);
    expect(path, "new");
    assert_int_equal(others("report.txt"), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
    unlink(path);
}

static void abort_keeps_old(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/kept.json", dir);
    put(path, "old");
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, path, err, sizeof err), 0);
    fputs("half a report", o.f);
    sb_output_abort(&o);
    expect(path, "old");
    assert_int_equal(others("kept.json"), 0);
    unlink(path);
}

static void failed_commit_keeps_old(void **state)
{
    (void)state;
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/run.json", dir);
    put(path, "old");
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, path, err, sizeof err), 0);
    fputs("new", o.f);
    unlink(o.temp); /* the rename cannot happen now */
    assert_int_equal(sb_output_commit(&o, err, sizeof err), -1);
    assert_non_null(strstr(err, "run.json"));
    expect(path, "old");
    unlink(path);
}

static void full_device_is_an_error(void **state)
{
    (void)state;
    char err[256] = "";
    sb_output_file o;
    if (access("/dev/full", W_OK) != 0)
        skip();
    assert_int_equal(sb_output_open(&o, "/dev/full", err, sizeof err), 0);
    for (int i = 0; i < 10000; i++)
        fputs("0123456789", o.f);
    assert_int_equal(sb_output_commit(&o, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/full"));
}

static void check_without_making(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/not-yet.csv", dir);
    assert_int_equal(sb_output_check("-o", path, err, sizeof err), 0);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/no-such-dir/x.csv", dir);
    assert_int_equal(sb_output_check("-o", path, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not exist"));
    assert_int_equal(sb_output_check("-o", dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "it is a directory"));
    assert_int_equal(sb_output_open(&(sb_output_file){0}, dir, err, sizeof err), -1);
    assert_int_equal(sb_output_check("--save", "", err, sizeof err), -1);
    assert_string_equal(err, "--save: the path is empty");
    assert_int_equal(sb_output_check("-o", "/dev/null", err, sizeof err), 0);
    /* Where nothing can be made (as in /proc, even for root): refused. */
    if (access("/proc/self", F_OK) == 0) {
        assert_int_equal(sb_output_check("-o", "/proc/self/x.csv", err, sizeof err), -1);
        assert_non_null(strstr(err, "cannot write /proc/self/x.csv"));
    }
    /* A directory option: one it would make, one that is a file. */
    snprintf(path, sizeof path, "%s/plots", dir);
    assert_int_equal(sb_output_check_dir("--plot", path, err, sizeof err), 0);
    assert_int_not_equal(access(path, F_OK), 0); /* tried and undone */
    assert_int_equal(sb_output_check_dir("--plot", "/dev/null", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a directory"));
}

/* Written through: one open, the text, the commit. */
static void write_whole(const char *path, const char *text)
{
    char err[256];
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, path, err, sizeof err), 0);
    fputs(text, o.f);
    assert_int_equal(sb_output_commit(&o, err, sizeof err), 0);
}

/* A symlink stays a link: its target is replaced, with the temporary
 * made beside the target; a dangling link makes the file it names. */
static void symlink_is_followed(void **state)
{
    (void)state;
    char sub[128], target[160], link_path[128], dangling[128], made[160];
    snprintf(sub, sizeof sub, "%s/elsewhere", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    snprintf(target, sizeof target, "%s/real.json", sub);
    snprintf(link_path, sizeof link_path, "%s/link.json", dir);
    put(target, "old");
    assert_int_equal(symlink("elsewhere/real.json", link_path), 0);
    write_whole(link_path, "new");
    struct stat st;
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    expect(target, "new");
    snprintf(dangling, sizeof dangling, "%s/dangling.json", dir);
    snprintf(made, sizeof made, "%s/made.json", sub);
    assert_int_equal(symlink("elsewhere/made.json", dangling), 0);
    char err[256];
    assert_int_equal(sb_output_check("-o", dangling, err, sizeof err), 0);
    write_whole(dangling, "made");
    expect(made, "made");
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    unlink(link_path);
    unlink(dangling);
    unlink(target);
    unlink(made);
    assert_int_equal(rmdir(sub), 0); /* no temporary left beside the targets */
}

/* A link loop is an error that names the reason, and writes nothing. */
static void symlink_loop_refused(void **state)
{
    (void)state;
    char a[128], b[128], err[256];
    snprintf(a, sizeof a, "%s/loop-a", dir);
    snprintf(b, sizeof b, "%s/loop-b", dir);
    assert_int_equal(symlink("loop-b", a), 0);
    assert_int_equal(symlink("loop-a", b), 0);
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, a, err, sizeof err), -1);
    assert_non_null(strstr(err, a));
    assert_non_null(strstr(err, "symbolic links"));
    assert_int_equal(sb_output_check("-o", a, err, sizeof err), -1);
    unlink(a);
    unlink(b);
    assert_int_equal(others(""), 0);
}

/* The replaced file keeps its mode (0600 stays 0600) and its owner. */
static void mode_and_owner_kept(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/private.json", dir);
    put(path, "old");
    assert_int_equal(chmod(path, 0600), 0);
    int root = geteuid() == 0;
    if (root)
        assert_int_equal(chown(path, 1234, 4321), 0);
    write_whole(path, "new");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    if (root) {
        assert_int_equal(st.st_uid, 1234);
        assert_int_equal(st.st_gid, 4321);
    }
    expect(path, "new");
    unlink(path);
}

/* A file with other hard links is written in place once the new content
 * is complete: every link sees it, the inode is the same, and a longer
 * and then a shorter content leave no tail of the old. */
static void hard_links_kept(void **state)
{
    (void)state;
    char path[128], other[128];
    snprintf(path, sizeof path, "%s/linked.txt", dir);
    snprintf(other, sizeof other, "%s/other-name.txt", dir);
    put(path, "old");
    assert_int_equal(link(path, other), 0);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    write_whole(path, "a longer new content");
    write_whole(path, "short");
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_nlink, 2);
    expect(other, "short");
    /* Abandoned: both names keep what they had, no temporary is left. */
    char err[256];
    sb_output_file o;
    assert_int_equal(sb_output_open(&o, path, err, sizeof err), 0);
    fputs("never", o.f);
    sb_output_abort(&o);
    expect(other, "short");
    unlink(other);
    assert_int_equal(others("linked.txt"), 0);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot make a temporary directory");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_replaces),
        cmocka_unit_test(abort_keeps_old),
        cmocka_unit_test(failed_commit_keeps_old),
        cmocka_unit_test(full_device_is_an_error),
        cmocka_unit_test(check_without_making),
        cmocka_unit_test(symlink_is_followed),
        cmocka_unit_test(symlink_loop_refused),
        cmocka_unit_test(mode_and_owner_kept),
        cmocka_unit_test(hard_links_kept),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        failed++;
    return failed;
}
