/* The per-architecture FP32 lanes table and the theoretical FP32 peak the
 * roofline's compute roof is drawn at: multiprocessors x clock x lanes x 2;
 * and a family's figures in the model text, in words a reader takes in. */
#include "test_util.h"

#include <string.h>

#include "report/describe.h"

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
    sb_device_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.arch, sizeof info.arch, "sm_90");
    info.compute_units = 132;
    info.clock_mhz = 1980;
    /* an H200: 132 x 1980 MHz x 128 x 2 = 66 908.16 GFLOP/s */
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 66908.16, 1e-6);
    snprintf(info.arch, sizeof info.arch, "sm_80");
    info.compute_units = 108;
    info.clock_mhz = 1410;
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 19491.84, 1e-6); /* an A100 */
    snprintf(info.arch, sizeof info.arch, "gfx90a");
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 0.0, 0.0);
    snprintf(info.arch, sizeof info.arch, "sm_90");
    info.clock_mhz = 0;
    assert_float_equal(sb_device_fp32_peak_gflops(&info), 0.0, 0.0);
}

/* Bytes in binary units where they are whole ones, counts whole, the
 * rest to four figures; a factor's "x" without a space. */
static void figures_in_words(void **state)
{
    (void)state;
    sb_result r;
    memset(&r, 0, sizeof r);
    sb_figure_add(r.figure, &r.nfigures, "working_set", 16384, "B");
    sb_figure_add(r.figure, &r.nfigures, "lines", 128, "");
    sb_figure_add(r.figure, &r.nfigures, "chunk", 96, "B");
    sb_figure_add(r.figure, &r.nfigures, "distance", 3 << 20, "B");
    sb_figure_add(r.figure, &r.nfigures, "cycles_per_load", 1188.4, "cycles");
    sb_figure_add(r.figure, &r.nfigures, "slowdown", 7.5, "x");
    char text[256];
    sb_result_model_text(&r, text, sizeof text);
    assert_string_equal(text, "working set 16 KiB; lines 128; chunk 96 B; distance 3 MiB; "
                              "cycles per load 1188 cycles; slowdown 7.5x");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lanes_per_architecture),
        cmocka_unit_test(fp32_peak),
        cmocka_unit_test(figures_in_words),
    };
    SB_TEST_MAIN(tests);
}
