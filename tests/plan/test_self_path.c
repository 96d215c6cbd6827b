/* Where the program lives: a path that does not fit the buffer is an
 * error, never a cut path that names an ancestor directory (modules
 * would then load from the wrong place). */
#include <string.h>
#include <unistd.h>

#include "plan/self_path.h"
#include "test_util.h"

static void whole_path(void **state)
{
    (void)state;
    char dir[4096], exe[4096];
    assert_int_equal(sb_self_dir(dir, sizeof dir), 0);
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(len > 0);
    exe[len] = '\0';
    assert_memory_equal(dir, exe, strlen(dir));
    assert_true(strlen(dir) > 0);
}

static void cut_path_refused(void **state)
{
    (void)state;
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(len > 8);
    /* Every buffer too small for the whole path, down to one byte. */
    for (size_t n = 1; n <= (size_t)len; n++) {
        char dir[4096];
        memset(dir, 'x', sizeof dir);
        assert_int_equal(sb_self_dir(dir, n), -1);
        assert_string_equal(dir, "");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_path),
        cmocka_unit_test(cut_path_refused),
    };
    SB_TEST_MAIN(tests);
}
