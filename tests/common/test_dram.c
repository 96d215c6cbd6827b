/* The DRAM arithmetic of seed 001 and the H200 figures the driver reports. */
#include "test_util.h"

#include "dram.h"

static void ddr_64bit_at_1ghz_is_16gbs(void **state)
{
    (void)state;
    assert_double_equal(sb_dram_peak_gbs(64, 1000.0), 16.0, 1e-9);
}

static void channels_for_256gbs(void **state)
{
    (void)state;
    assert_int_equal(sb_dram_channels_needed(256.0, 64, 1000.0), 16);
    /* A modern CPU's 32 GB/s needs 2 channels. */
    assert_int_equal(sb_dram_channels_needed(32.0, 64, 1000.0), 2);
}

static void bank_utilisation_r20(void **state)
{
    (void)state;
    assert_double_equal(sb_dram_bank_utilisation(20.0), 1.0 / 21.0, 1e-12);
    /* One channel of 16 GB/s delivers about 0.76 GB/s from one such bank. */
    assert_double_equal(16.0 * sb_dram_bank_utilisation(20.0), 0.7619, 1e-4);
}

static void h200_peak_from_driver_figures(void **state)
{
    (void)state;
    /* Bus 6016 bits at 3201 MHz, as the driver API reports on the H200. */
    assert_double_equal(sb_dram_peak_gbs(6016, 3201.0), 4814.3, 0.1);
}

static void unknown_inputs_give_no_peak(void **state)
{
    (void)state;
    assert_double_equal(sb_dram_peak_gbs(0, 3201.0), 0.0, 0);
    assert_double_equal(sb_dram_peak_gbs(6016, 0.0), 0.0, 0);
    assert_int_equal(sb_dram_channels_needed(256.0, 0, 1000.0), 0);
}

static void intensity_figures_of_the_seed(void **state)
{
    (void)state;
    /* simple matmul: 2 FLOP per two 4-byte loads */
    assert_double_equal(sb_intensity(2.0, 8.0), 0.25, 1e-12);
    assert_double_equal(sb_intensity(1.0, 0.0), 0.0, 0);
}

static void matmul_intensity_of_the_seed(void **state)
{
    (void)state;
    /* The seed's three OP/B figures: simple 0.25 (a 1x1 "tile"), tiled
       32x32 8, tiled 32x32 and coarsened by 4 12.8. */
    assert_double_equal(sb_matmul_intensity(1, 1), 0.25, 1e-12);
    assert_double_equal(sb_matmul_intensity(32, 1), 8.0, 1e-12);
    assert_double_equal(sb_matmul_intensity(32, 4), 12.8, 1e-12);
    /* Plain tiling is tile / 4; coarsening approaches tile / 2. */
    assert_double_equal(sb_matmul_intensity(16, 1), 4.0, 1e-12);
    assert_double_equal(sb_matmul_intensity(32, 8), 32.0 * 8 / 18, 1e-12);
    assert_double_equal(sb_matmul_intensity(0, 1), 0.0, 0);
    assert_double_equal(sb_matmul_intensity(32, 0), 0.0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ddr_64bit_at_1ghz_is_16gbs),
        cmocka_unit_test(channels_for_256gbs),
        cmocka_unit_test(bank_utilisation_r20),
        cmocka_unit_test(h200_peak_from_driver_figures),
        cmocka_unit_test(unknown_inputs_give_no_peak),
        cmocka_unit_test(intensity_figures_of_the_seed),
        cmocka_unit_test(matmul_intensity_of_the_seed),
    };
    SB_TEST_MAIN(tests);
}
