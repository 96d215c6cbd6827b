/* The atomics model (common/atomics_model.h) against hand-worked cases:
 * distinct addresses and same-address updates per warp instruction for
 * uniform and skewed bins, the expected busiest bank by exact counting
 * (small cases worked on paper, the 32-lane case against a binomial sum
 * and a simulation), the global atomics a private copy leaves, and the
 * seed's own words: privatisation pays under contention, and only there. */
#include "test_util.h"

#include <stdint.h>
#include <string.h>

#include "atomics_model.h"
#include "model.h"

static void distinct_addresses_by_hand(void **state)
{
    (void)state;
    /* One bin, or every value in one bin: one address, 32 updates on it. */
    assert_double_equal(sb_atomic_distinct_addresses(1, SB_BINS_UNIFORM), 1.0, 0);
    assert_double_equal(sb_atomic_same_address(1, SB_BINS_UNIFORM), 32.0, 0);
    for (long b = 1; b <= 65536; b *= 8) {
        assert_double_equal(sb_atomic_distinct_addresses(b, SB_BINS_SKEWED), 1.0, 0);
        assert_double_equal(sb_atomic_same_address(b, SB_BINS_SKEWED), 32.0, 0);
    }
    /* Two bins: all 32 lanes in one of them has probability 2 * 2^-32. */
    assert_double_equal(sb_atomic_distinct_addresses(2, SB_BINS_UNIFORM), 2.0 - 0x1p-31, 1e-12);
    /* 32 bins: 32 (1 - (31/32)^32), the product taken lane by lane. */
    double miss = 1.0;
    for (int l = 0; l < 32; l++)
        miss *= 31.0 / 32.0;
    assert_double_equal(sb_atomic_distinct_addresses(32, SB_BINS_UNIFORM), 32.0 * (1 - miss),
                        1e-12);
    assert_double_equal(sb_atomic_distinct_addresses(32, SB_BINS_UNIFORM), 20.41423, 1e-5);
    assert_double_equal(sb_atomic_same_address(32, SB_BINS_UNIFORM), 32.0 / 20.41423, 1e-5);
    /* Many bins: 32 minus the expected pairs on one bin, C(32,2) / B, to
       first order. */
    assert_double_equal(sb_atomic_distinct_addresses(65536, SB_BINS_UNIFORM),
                        32.0 - 496.0 / 65536.0, 2e-6);
    assert_true(sb_atomic_same_address(65536, SB_BINS_UNIFORM) < 1.0003);
    /* 8192 updates of 256 bins leave no bin empty, to 1e-9. */
    assert_double_equal(sb_bins_touched(256, SB_BINS_UNIFORM, 8192), 256.0, 1e-9);
    assert_double_equal(sb_bins_touched(256, SB_BINS_UNIFORM, 1), 1.0, 1e-12);
    assert_double_equal(sb_bins_touched(256, SB_BINS_UNIFORM, 0), 0.0, 0);
}

static void bad_arguments_give_no_number(void **state)
{
    (void)state;
    assert_true(sb_bins_touched(0, SB_BINS_UNIFORM, 32) < 0);
    assert_true(sb_bins_touched(32, SB_BINS_UNIFORM, -1) < 0);
    assert_true(sb_bins_touched(32, (sb_bin_dist)7, 32) < 0);
    assert_true(sb_atomic_same_address(0, SB_BINS_SKEWED) < 0);
    assert_true(sb_atomic_bank_ways(-3, SB_BINS_UNIFORM) < 0);
    assert_true(sb_private_atomics_per_input(32, SB_BINS_UNIFORM, 0, 100) < 0);
    assert_true(sb_private_atomics_per_input(32, SB_BINS_UNIFORM, 256, 0) < 0);
    double p[2] = {0.5, 0.4};
    assert_true(sb_expected_max_load(2, p, 2) < 0); /* does not sum to 1 */
    p[1] = 0.5;
    assert_true(sb_expected_max_load(0, p, 2) < 0);
    assert_true(sb_expected_max_load(65, p, 2) < 0);
    assert_true(sb_expected_max_load(2, NULL, 2) < 0);
    assert_null(sb_bin_dist_name((sb_bin_dist)7));
    assert_string_equal(sb_bin_dist_name(SB_BINS_SKEWED), "skewed");
}

static void busiest_bin_worked_on_paper(void **state)
{
    (void)state;
    /* One ball: its bin has it. */
    double even2[2] = {0.5, 0.5};
    assert_double_equal(sb_expected_max_load(1, even2, 2), 1.0, 1e-12);
    /* Two balls, two bins: apart (max 1) or together (max 2), evens. */
    assert_double_equal(sb_expected_max_load(2, even2, 2), 1.5, 1e-12);
    /* Three balls, three bins: all apart 6/27 (1), all together 3/27 (3),
       else 18/27 (2): 51/27. */
    double even3[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    assert_double_equal(sb_expected_max_load(3, even3, 3), 51.0 / 27.0, 1e-12);
    /* Uneven bins: two balls together with 1/16 + 9/16, else apart. */
    double uneven[2] = {0.25, 0.75};
    assert_double_equal(sb_expected_max_load(2, uneven, 2), 2 * 0.625 + 0.375, 1e-12);
    /* Every ball in one bin. */
    double one[3] = {0, 1, 0};
    assert_double_equal(sb_expected_max_load(32, one, 3), 32.0, 1e-9);
}

/* x ^= x << 13 ... : a simulation's own generator, fixed seed. */
static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void bank_ways_of_the_private_copy(void **state)
{
    (void)state;
    /* Every update on one word: 32 read-modify-writes in its bank. */
    assert_double_equal(sb_atomic_bank_ways(1, SB_BINS_UNIFORM), 32.0, 1e-9);
    assert_double_equal(sb_atomic_bank_ways(4096, SB_BINS_SKEWED), 32.0, 0);
    /* Two bins, banks 0 and 1: the larger of X and 32 - X, X binomial
       (32, 1/2): 16 + E|X - 16|, summed here term by term. */
    double binom = 1.0, e_abs = 0.0; /* C(32, x) */
    for (int x = 0; x <= 32; x++) {
        e_abs += binom * (x > 16 ? x - 16 : 16 - x);
        binom = binom * (32 - x) / (x + 1);
    }
    assert_double_equal(sb_atomic_bank_ways(2, SB_BINS_UNIFORM), 16.0 + e_abs / 0x1p32, 1e-9);
    assert_double_equal(sb_atomic_bank_ways(2, SB_BINS_UNIFORM), 18.2392, 1e-4);
    /* 32 or more bins spread the lanes evenly over the banks: the same
       expected busiest bank for 32, 256 and 65536 bins. */
    double w32 = sb_atomic_bank_ways(32, SB_BINS_UNIFORM);
    assert_double_equal(sb_atomic_bank_ways(256, SB_BINS_UNIFORM), w32, 1e-9);
    assert_double_equal(sb_atomic_bank_ways(65536, SB_BINS_UNIFORM), w32, 1e-9);
    /* ... which a simulation of 200000 warps agrees with. */
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    double total = 0;
    const int warps = 200000;
    for (int w = 0; w < warps; w++) {
        int load[SB_BANKS] = {0}, most = 0;
        for (int l = 0; l < SB_WARP_LANES; l++) {
            int b = (int)(xorshift(&seed) >> 59); /* 0..31 */
            if (++load[b] > most)
                most = load[b];
        }
        total += most;
    }
    assert_double_equal(w32, total / warps, 0.01);
    assert_true(w32 > 3.4 && w32 < 3.7);
}

static void global_atomics_a_private_copy_leaves(void **state)
{
    (void)state;
    /* Every input in one bin: one merge per block. */
    assert_double_equal(sb_private_atomics_per_input(4096, SB_BINS_SKEWED, 8192, 8192 * 10),
                        1.0 / 8192, 0);
    /* 256 bins, 8192 inputs a block: every bin filled, 256 merges. */
    assert_double_equal(sb_private_atomics_per_input(256, SB_BINS_UNIFORM, 8192, 8192 * 4),
                        256.0 / 8192, 1e-12);
    /* One input a block: one merge for it, nothing saved. */
    assert_double_equal(sb_private_atomics_per_input(4096, SB_BINS_UNIFORM, 1, 77), 1.0, 1e-12);
    /* Three blocks, the last of 1000 inputs: 3 merges of 2500 skewed
       inputs; uniform, the partial block fills fewer bins. */
    assert_double_equal(sb_private_atomics_per_input(32, SB_BINS_SKEWED, 1024, 2500), 3.0 / 2500,
                        1e-15);
    double last = 4096 * (1 - pow(1 - 1.0 / 4096, 452));
    double whole = 4096 * (1 - pow(1 - 1.0 / 4096, 1024));
    assert_double_equal(sb_private_atomics_per_input(4096, SB_BINS_UNIFORM, 1024, 2500),
                        (2 * whole + last) / 2500, 1e-12);
}

/* Seed 001: each optimisation spends one resource to relieve another, and
 * pays only where the relieved one is the bottleneck.  For privatisation
 * the relieved resource is the contention on global atomics: with every
 * value in one bin a warp instruction puts 32 updates on one address, and
 * a block's private copy (256 threads, 32 inputs each) turns 8192 of them
 * into one global atomic; with 65536 uniform bins there is no contention
 * to relieve (the lanes update 32 distinct addresses but for a hundredth
 * of a pair), and a plain block of 256 private inputs saves well under 1%
 * of the global atomics while paying to clear and merge 65536 bins. */
static void privatisation_pays_under_contention(void **state)
{
    (void)state;
    double contended = sb_atomic_same_address(256, SB_BINS_SKEWED);
    double saved = 1.0 / sb_private_atomics_per_input(256, SB_BINS_SKEWED, 256 * 32, 1L << 26);
    assert_double_equal(contended, 32.0, 0);
    assert_double_equal(saved, 8192.0, 1e-6);
    double spread = sb_atomic_same_address(65536, SB_BINS_UNIFORM);
    double left = sb_private_atomics_per_input(65536, SB_BINS_UNIFORM, 256, 1L << 26);
    assert_true(spread < 1.001);
    assert_true(left > 0.99);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distinct_addresses_by_hand),
        cmocka_unit_test(bad_arguments_give_no_number),
        cmocka_unit_test(busiest_bin_worked_on_paper),
        cmocka_unit_test(bank_ways_of_the_private_copy),
        cmocka_unit_test(global_atomics_a_private_copy_leaves),
        cmocka_unit_test(privatisation_pays_under_contention),
    };
    SB_TEST_MAIN(tests);
}
