/* The compute arithmetic of common/compute.h against hand-worked cases:
 * the per-architecture FP32 lanes table, the theoretical FP32 peak the
 * compute family and the roofline's compute roof are held against
 * (multiprocessors x lanes x 2 x clock), launches per second, and the
 * share of a host-timed launch the device does not see. */
#include "test_util.h"

#include <string.h>

#include "compute.h"

static void lanes_per_architecture(void **state)
{
    (void)state;
    assert_int_equal(sb_arch_fp32_lanes("sm_90"), 128);
    assert_int_equal(sb_arch_fp32_lanes("sm_89"), 128);
    assert_int_equal(sb_arch_fp32_lanes("sm_86"), 128);
    assert_int_equal(sb_arch_fp32_lanes("sm_80"), 64);
    assert_int_equal(sb_arch_fp32_lanes("sm_70"), 64);
    assert_int_equal(sb_arch_fp32_lanes("sm_9"), 0);
    assert_int_equal(sb_arch_fp32_lanes("OpenCL C 1.2 PoCL"), 0);
    assert_int_equal(sb_arch_fp32_lanes(""), 0);
}

static void fp32_peak(void **state)
{
    (void)state;
    /* an H200: 132 SMs x 128 lanes x 2 x 1980 MHz = 66 908.16 GFLOP/s */
    assert_float_equal(sb_fp32_peak_gflops(132, 128, 1980), 66908.16, 1e-6);
    /* an A100: 108 x 64 x 2 x 1410 MHz = 19 491.84 */
    assert_float_equal(sb_fp32_peak_gflops(108, 64, 1410), 19491.84, 1e-6);
    /* one unit of one lane at 1 MHz: two FMA FLOPs a microsecond */
    assert_float_equal(sb_fp32_peak_gflops(1, 1, 1), 0.002, 1e-15);
    assert_float_equal(sb_fp32_peak_gflops(0, 128, 1980), 0.0, 0.0);
    assert_float_equal(sb_fp32_peak_gflops(132, 0, 1980), 0.0, 0.0);
    assert_float_equal(sb_fp32_peak_gflops(132, 128, 0), 0.0, 0.0);
}

static void device_fp32_peak(void **state)
{
    (void)state;
    sb_device_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.arch, sizeof info.arch, "sm_90");
    info.compute_units = 132;
    info.clock_mhz = 1980;
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 66908.16, 1e-6);
    snprintf(info.arch, sizeof info.arch, "sm_80");
    info.compute_units = 108;
    info.clock_mhz = 1410;
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 19491.84, 1e-6);
    snprintf(info.arch, sizeof info.arch, "gfx90a");
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 0.0, 0.0);
    snprintf(info.arch, sizeof info.arch, "sm_90");
    info.clock_mhz = 0;
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 0.0, 0.0);
}

static void launches_per_second(void **state)
{
    (void)state;
    /* 1000 launches drained in 4.3 ms: 232 558 a second */
    assert_float_equal(sb_launches_per_second(1000, 4.3e-3), 232558.1395348837, 1e-6);
    assert_float_equal(sb_launches_per_second(1, 1.0), 1.0, 0.0);
    assert_float_equal(sb_launches_per_second(0, 1.0), 0.0, 0.0);
    assert_float_equal(sb_launches_per_second(10, 0.0), 0.0, 0.0);
}

static void host_deficit(void **state)
{
    (void)state;
    /* BabelStream's 1 GiB copy on an H200: 2736 GB/s host-timed against
       3217 device-timed is the same bytes in 1/2736 against 1/3217 of a
       second: 1 - 2736/3217 = 14.95% of the host's time unseen */
    assert_float_equal(sb_host_deficit(1.0 / 2736, 1.0 / 3217), 1.0 - 2736.0 / 3217.0, 1e-12);
    assert_float_equal(sb_host_deficit(7.9e-3, 2.1e-3), 1.0 - 2.1 / 7.9, 1e-12);
    assert_float_equal(sb_host_deficit(1.0, 1.0), 0.0, 0.0);
    assert_true(sb_host_deficit(1.0, 1.1) < 0);
    assert_float_equal(sb_host_deficit(0.0, 1.0), 0.0, 0.0);
    assert_float_equal(sb_host_deficit(1.0, 0.0), 0.0, 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lanes_per_architecture),
        cmocka_unit_test(fp32_peak),
        cmocka_unit_test(device_fp32_peak),
        cmocka_unit_test(launches_per_second),
        cmocka_unit_test(host_deficit),
    };
    SB_TEST_MAIN(tests);
}
