/* The DRAM arithmetic of seed 001 (peak, channels, banks, bursts, the
 * bytes in flight Little's law asks for) and the H200 figures the driver
 * reports. */
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

/* Seed 000's transactions as bursts of 32 bytes: a warp's 128 coalesced
 * bytes are 4 of them, a lane alone in its sector uses 12.5%; seed 001's
 * one useful byte of a burst is 1 / burst. */
static void bursts_of_the_seeds(void **state)
{
    (void)state;
    assert_int_equal(sb_burst_count(128, 32, 0), 4);
    assert_double_equal(sb_burst_efficiency(128, 32, 0), 1.0, 1e-12);
    assert_double_equal(sb_burst_efficiency(4, 32, 0), 0.125, 1e-12);
    assert_double_equal(sb_burst_efficiency(1, 64, 0), 1.0 / 64, 1e-12);
    /* A misaligned warp: 4 bytes past a boundary, one sector more. */
    assert_int_equal(sb_burst_count(128, 32, 4), 5);
    assert_double_equal(sb_burst_efficiency(128, 32, 4), 0.8, 1e-12);
}

/* By hand: 96 bytes in 64-byte bursts take two from offset 0 or 32, three
 * from 48; a 32-byte chunk fills half of a 64-byte burst; nothing to say
 * about nonsense. */
static void bursts_by_hand(void **state)
{
    (void)state;
    assert_int_equal(sb_burst_count(96, 64, 0), 2);
    assert_double_equal(sb_burst_efficiency(96, 64, 32), 0.75, 1e-12);
    assert_int_equal(sb_burst_count(96, 64, 48), 3);
    assert_double_equal(sb_burst_efficiency(96, 64, 48), 0.5, 1e-12);
    assert_double_equal(sb_burst_efficiency(32, 64, 0), 0.5, 1e-12);
    assert_int_equal(sb_burst_count(0, 64, 0), 0);
    assert_int_equal(sb_burst_count(64, 0, 0), 0);
    assert_int_equal(sb_burst_count(64, 64, -1), 0);
    assert_double_equal(sb_burst_efficiency(64, 0, 0), 0.0, 0);
    /* A 32-byte chunk at a quarter of the sequential bandwidth costs what
       128 sequential bytes do. */
    assert_double_equal(sb_burst_fetched_bytes(32, 0.25), 128.0, 1e-9);
    assert_double_equal(sb_burst_fetched_bytes(32, 0.0), 0.0, 0);
}

/* Little's law is the seed's R + 1 banks: a 16 GB/s channel moves a 64-byte
 * burst in 4 ns; with R = 20 each access takes 21 transfer times, 84 ns,
 * so 21 bursts must be in flight, and one bank alone (one burst in flight)
 * delivers the seed's 0.76 GB/s. */
static void littles_law_is_r_plus_one_banks(void **state)
{
    (void)state;
    double transfer_ns = 64.0 / 16.0, latency_ns = (20 + 1) * transfer_ns;
    assert_double_equal(sb_littles_bytes(16.0, latency_ns) / 64.0, 21.0, 1e-9);
    assert_double_equal(sb_littles_gbs(64.0, latency_ns), 16.0 * sb_dram_bank_utilisation(20.0),
                        1e-12);
    assert_double_equal(sb_littles_gbs(64.0, latency_ns), 0.7619, 1e-4);
}

/* By hand: an H200's copy at 4145 GB/s with 600 ns loads needs 2.487 MB
 * in flight; 1 MB in flight at 500 ns carries 2000 GB/s; unknowns give 0. */
static void littles_law_by_hand(void **state)
{
    (void)state;
    assert_double_equal(sb_littles_bytes(4145.0, 600.0), 2487000.0, 1e-6);
    assert_double_equal(sb_littles_gbs(1e6, 500.0), 2000.0, 1e-9);
    assert_double_equal(sb_littles_bytes(0.0, 600.0), 0.0, 0);
    assert_double_equal(sb_littles_bytes(4145.0, -1.0), 0.0, 0);
    assert_double_equal(sb_littles_gbs(1e6, 0.0), 0.0, 0);
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
        cmocka_unit_test(bursts_of_the_seeds),
        cmocka_unit_test(bursts_by_hand),
        cmocka_unit_test(littles_law_is_r_plus_one_banks),
        cmocka_unit_test(littles_law_by_hand),
    };
    SB_TEST_MAIN(tests);
}
