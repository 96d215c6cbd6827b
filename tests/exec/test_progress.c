/* The progress line's text: no estimate until the rates it needs are
 * known, then builds and measurements counted apart, so that a cold run's
 * first estimate is not a fraction of the truth. */
#include "test_util.h"

#include <string.h>

#include "exec/progress.h"

static void line(char *buf, size_t n, const sb_progress_state *st, int width)
{
    sb_progress_format(buf, n, st, "opencl", "transpose", "tiled_32x32", width);
}

static void no_estimate_before_a_build(void **state)
{
    (void)state;
    char buf[256];
    /* Two API copies measured, quickly, and nothing built yet: the rate of
     * the builds to come is unknown, so no time is promised. */
    sb_progress_state st = {.done = 2, .total = 10, .builds = 8, .elapsed_s = 0.5};
    line(buf, sizeof buf, &st, 200);
    assert_string_equal(buf, "[3/10] 0:01 elapsed, estimating  opencl transpose/tiled_32x32");
    st.building = 1;
    line(buf, sizeof buf, &st, 200);
    assert_non_null(strstr(buf, "tiled_32x32: building kernel 1 of up to 8"));
}

static void builds_and_measurements_apart(void **state)
{
    (void)state;
    char buf[256];
    /* 4 of 10 done in 40 s, of which 3 builds took 30 s: 10 s over 4
     * measurements is 2.5 s each; 6 measurements and 5 builds left:
     * 6 x 2.5 + 5 x 10 = 65 s.  One rate for both would say 60 s. */
    sb_progress_state st = {.done = 4, .total = 10, .builds_done = 3, .builds = 8,
                            .elapsed_s = 40, .build_s = 30};
    line(buf, sizeof buf, &st, 200);
    assert_string_equal(buf,
                        "[5/10] 0:40 elapsed, about 1:05 left  opencl transpose/tiled_32x32");
    /* Every build made (a warm cache): the measurements alone remain. */
    st = (sb_progress_state){.done = 5, .total = 10, .builds_done = 8, .builds = 8,
                             .elapsed_s = 12, .build_s = 2};
    line(buf, sizeof buf, &st, 200);
    assert_non_null(strstr(buf, "about 0:10 left"));
}

static void cut_to_the_width(void **state)
{
    (void)state;
    char buf[256];
    sb_progress_state st = {.done = 0, .total = 3, .builds = 0, .elapsed_s = 1};
    line(buf, sizeof buf, &st, 20);
    assert_int_equal(strlen(buf), 19);
    assert_memory_equal(buf, "[1/3] 0:01 elapsed,", 19);
    st.done = 3;
    line(buf, sizeof buf, &st, 200);
    assert_string_equal(buf, "[3/3] 0:01 elapsed  opencl transpose/tiled_32x32");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_estimate_before_a_build),
        cmocka_unit_test(builds_and_measurements_apart),
        cmocka_unit_test(cut_to_the_width),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
