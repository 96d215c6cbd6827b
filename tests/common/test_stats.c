/* Statistics of repeated timings. */
#include "test_util.h"

#include <math.h>

#include "stats.h"

static void odd_count_median(void **state)
{
    (void)state;
    double s[] = {5.0, 1.0, 3.0};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 3, &st), 0);
    assert_double_equal(st.median, 3.0, 0);
    assert_double_equal(st.min, 1.0, 0);
    assert_double_equal(st.max, 5.0, 0);
    assert_double_equal(st.mean, 3.0, 0);
    assert_double_equal(st.stddev, 2.0, 1e-12);
    assert_double_equal(st.spread, 4.0 / 3.0, 1e-12);
    /* The caller's samples keep their run order. */
    assert_double_equal(s[0], 5.0, 0);
}

static void even_count_median(void **state)
{
    (void)state;
    double s[] = {4.0, 1.0, 3.0, 2.0};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 4, &st), 0);
    assert_double_equal(st.median, 2.5, 0);
}

static void one_sample(void **state)
{
    (void)state;
    double s[] = {0.25};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 1, &st), 0);
    assert_double_equal(st.median, 0.25, 0);
    assert_double_equal(st.stddev, 0.0, 0);
    assert_double_equal(st.spread, 0.0, 0);
}

static void rejects_empty_and_nan(void **state)
{
    (void)state;
    double s[] = {1.0, NAN};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 0, &st), -1);
    assert_int_equal(sb_stats_compute(s, 2, &st), -1);
}

static void outlier_moves_max_not_median(void **state)
{
    (void)state;
    double s[] = {1.0, 1.0, 1.0, 1.0, 100.0};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 5, &st), 0);
    assert_double_equal(st.median, 1.0, 0);
    assert_double_equal(st.max, 100.0, 0);
    assert_int_equal(st.slowest, 4);
}

/* Which repetition was fastest and slowest, in run order (the first of
 * equal ones): where an outlier sits says whether it is a cold start. */
static void fastest_and_slowest_positions(void **state)
{
    (void)state;
    double s[] = {2.0, 1.5, 3.0, 1.5, 2.5, 3.0};
    sb_stats st;
    assert_int_equal(sb_stats_compute(s, 6, &st), 0);
    assert_int_equal(st.fastest, 1);
    assert_int_equal(st.slowest, 2);
    assert_double_equal(s[2], 3.0, 0); /* the samples keep their order */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(odd_count_median),      cmocka_unit_test(even_count_median),
        cmocka_unit_test(one_sample),            cmocka_unit_test(rejects_empty_and_nan),
        cmocka_unit_test(outlier_moves_max_not_median),
        cmocka_unit_test(fastest_and_slowest_positions),
    };
    SB_TEST_MAIN(tests);
}
