/* The plateaus of a sweep, found from the data alone: a pointer chase on a
 * GPU-like hierarchy gives its levels (L1, the near and far L2, DRAM)
 * whatever the sizes, with the transitions between them left out; a slow
 * climb of TLB misses stays one level, and so does a level across a point
 * of noise; a CPU's four levels are four; a flat sweep is one; and the
 * first size that reaches a share of a roof and stays there. */
#include "test_util.h"

#include <string.h>

#include "plateau.h"

static int plateaus(const double *y, int n, sb_plateau *p)
{
    return sb_plateaus(y, n, p, SB_PLATEAUS_MAX);
}

static void gpu_like_chase_has_four_levels(void **state)
{
    (void)state;
    /* 16 KiB .. 4 GiB: L1 to 128 KiB, a transition, L2 with a far half
       (near 208, far 272: a jump, and levels 1.31x apart, so two levels),
       a transition, DRAM climbing with TLB misses from 560 to 770 in steps
       of 4-5%, more than one run spans but no jump. */
    const double y[] = {33,  33,  34,  35,  150, 205, 208, 210, 270, 272, 275,
                        400, 560, 585, 610, 640, 670, 700, 735, 770};
    sb_plateau p[SB_PLATEAUS_MAX];
    int n = plateaus(y, (int)(sizeof y / sizeof y[0]), p);
    assert_int_equal(n, 4);
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 3);
    assert_double_equal(p[0].level, 33.5, 1e-12);
    assert_int_equal(p[1].first, 5);
    assert_int_equal(p[1].last, 7);
    assert_double_equal(p[1].level, 208, 1e-12);
    assert_int_equal(p[2].first, 8);
    assert_int_equal(p[2].last, 10);
    assert_double_equal(p[2].level, 272, 1e-12);
    assert_int_equal(p[3].first, 12);
    assert_int_equal(p[3].last, 19);
    assert_double_equal(p[3].level, 655, 1e-12);
    /* The same L2 without a far half is one level: none is found that the
       curve lacks. */
    const double one_l2[] = {33,  33,  34,  35,  150, 205, 208, 210, 212, 214,
                             215, 400, 560, 585, 610, 640, 670, 700, 735, 770};
    assert_int_equal(plateaus(one_l2, 20, p), 3);
    assert_int_equal(p[1].first, 5);
    assert_int_equal(p[1].last, 10);
    /* A point of noise inside a level does not split it. */
    const double spike[] = {33, 33, 34, 90, 34, 35, 35};
    assert_int_equal(plateaus(spike, 7, p), 1);
    assert_int_equal(p[0].last, 6);
}

/* The H200's chase in cycles (run 30's shape, the family's working sets
 * 16 KiB .. 4 GiB): the far L2 partition from 36 to 56 MiB is followed by
 * one point on the way to DRAM, each step to it under 1.25x, so that only
 * a run's span tells the far level from DRAM's; the near level's last
 * point (28 MiB) already a little above it.  Without the far partition
 * the near level goes on and no far level is found. */
static void split_l2_with_a_gradual_edge(void **state)
{
    (void)state;
    const double y[] = {33.0,  33.5,  34.5,  36.4,  162.8, 281.5, 281.3, 281.3, 281.5,
                        281.3, 281.3, 281.4, 289.7, 447.2, 505.1, 512.5, 512.6, 512.6,
                        516.5, 624.7, 658.5, 658.4, 663.3, 666.7, 667.6, 668.3};
    sb_plateau p[SB_PLATEAUS_MAX];
    assert_int_equal(plateaus(y, 26, p), 4);
    assert_int_equal(p[0].last, 2);
    assert_int_equal(p[1].first, 5);
    assert_int_equal(p[1].last, 12);
    assert_int_equal(p[2].first, 14);
    assert_int_equal(p[2].last, 18);
    assert_double_equal(p[2].level, 512.6, 1e-12);
    assert_int_equal(p[3].first, 19);
    assert_int_equal(p[3].last, 25);
    assert_double_equal(p[3].level, 663.3, 1e-12);
    double no_far[26];
    memcpy(no_far, y, sizeof no_far);
    for (int i = 13; i < 19; i++)
        no_far[i] = 282.0 + i - 13;
    assert_int_equal(plateaus(no_far, 26, p), 3);
    assert_int_equal(p[1].first, 5);
    assert_int_equal(p[1].last, 18);
    assert_int_equal(p[2].first, 19);
}

/* Shifted by a few sizes (a bigger L1, a smaller L2): the same three
 * levels, at other places: nothing about sizes is assumed. */
static void the_same_levels_elsewhere(void **state)
{
    (void)state;
    const double y[] = {30, 31, 31, 30, 31, 32, 31, 240, 250, 600, 610, 615};
    sb_plateau p[SB_PLATEAUS_MAX];
    assert_int_equal(plateaus(y, 12, p), 3);
    assert_int_equal(p[0].last, 6);
    assert_int_equal(p[1].first, 7);
    assert_int_equal(p[1].last, 8);
    assert_double_equal(p[1].level, 245, 1e-12);
    assert_int_equal(p[2].first, 9);
}

/* A CPU: L1, L2, L3 and DRAM, each at least 1.5x the last: four levels. */
static void cpu_like_chase_has_four_levels(void **state)
{
    (void)state;
    const double y[] = {1.2, 1.2, 1.3, 4.0, 4.1, 4.2, 15, 16, 16.5, 80, 85, 87};
    sb_plateau p[SB_PLATEAUS_MAX];
    assert_int_equal(plateaus(y, 12, p), 4);
    assert_double_equal(p[0].level, 1.2, 1e-12);
    assert_double_equal(p[3].level, 85, 1e-12);
}

/* A copy's bandwidth rising with the size while launches dominate, a
 * plateau inside the L2, then DRAM: the rise is all transitions. */
static void bandwidth_rise_is_transitions(void **state)
{
    (void)state;
    const double y[] = {100, 200, 400, 800, 1600, 6000, 6500, 6400, 3000, 4100, 4150, 4140};
    sb_plateau p[SB_PLATEAUS_MAX];
    assert_int_equal(plateaus(y, 12, p), 2);
    assert_int_equal(p[0].first, 5);
    assert_int_equal(p[0].last, 7);
    assert_double_equal(p[0].level, 6400, 1e-12);
    assert_int_equal(p[1].first, 9);
    assert_double_equal(p[1].level, 4140, 1e-12);
}

static void flat_noisy_and_degenerate(void **state)
{
    (void)state;
    sb_plateau p[SB_PLATEAUS_MAX];
    const double flat[] = {10, 11, 10.5, 9.8, 10.2};
    assert_int_equal(plateaus(flat, 5, p), 1);
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 4);
    assert_double_equal(p[0].level, 10.2, 1e-12);
    /* Every point a jump from the last: no level anywhere. */
    const double steps[] = {1, 2, 4, 8, 16};
    assert_int_equal(plateaus(steps, 5, p), 0);
    /* One point, none, and a point that is not a figure. */
    assert_int_equal(plateaus(flat, 1, p), 0);
    assert_int_equal(plateaus(flat, 0, p), 0);
    const double hole[] = {10, 10, 0, 10, 10};
    assert_int_equal(plateaus(hole, 5, p), 1);
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 4);
    /* Room for one: the first. */
    const double two[] = {1, 1, 9, 9};
    assert_int_equal(sb_plateaus(two, 4, p, 1), 1);
    assert_double_equal(p[0].level, 1, 1e-12);
}

static void first_size_that_stays_above(void **state)
{
    (void)state;
    /* Bandwidth against chunk size; 90% of a 4000 GB/s copy is 3600. */
    const double gbs[] = {900, 1700, 3000, 3650, 3500, 3800, 3900, 3950};
    assert_int_equal(sb_sweep_reaches(gbs, 8, 3600), 5);  /* 3650 alone does not count */
    assert_int_equal(sb_sweep_reaches(gbs, 8, 3000), 2);
    assert_int_equal(sb_sweep_reaches(gbs, 8, 800), 0);
    assert_int_equal(sb_sweep_reaches(gbs, 8, 3960), -1);
    assert_int_equal(sb_sweep_reaches(gbs, 0, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_like_chase_has_four_levels),
        cmocka_unit_test(split_l2_with_a_gradual_edge),
        cmocka_unit_test(the_same_levels_elsewhere),
        cmocka_unit_test(cpu_like_chase_has_four_levels),
        cmocka_unit_test(bandwidth_rise_is_transitions),
        cmocka_unit_test(flat_noisy_and_degenerate),
        cmocka_unit_test(first_size_that_stays_above),
    };
    SB_TEST_MAIN(tests);
}
