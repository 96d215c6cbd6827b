/* Reading a kernel's registers and shared bytes out of ptxas's lines in a
 * verbose NVIDIA build log (-cl-nv-verbose): crafted logs, no GPU. */
#include "test_util.h"

#include <string.h>

#include "ptxas_log.h"

/* The lines NVIDIA's OpenCL gave for the tiled matmul on an H200. */
static const char one_entry[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'matmul_tiled' for 'sm_90a'\n"
    "ptxas info    : Function properties for matmul_tiled\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 31 registers, used 1 barriers, 8196 bytes smem\n";

static void the_exact_lines(void **state)
{
    (void)state;
    int regs;
    long smem;
    assert_int_equal(sb_ptxas_log_resources(one_entry, "matmul_tiled", &regs, &smem), 0);
    assert_int_equal(regs, 31);
    assert_int_equal(smem, 8196);
}

/* Each entry reads from its own block only; a name that is a prefix of
 * another's does not match it; an entry without smem has it unknown. */
static void several_entries(void **state)
{
    (void)state;
    static const char log[] =
        "ptxas info    : Compiling entry function 'copy_grid_stride' for 'sm_90a'\n"
        "ptxas info    : Function properties for copy_grid_stride\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, 376 bytes cmem[0]\n"
        "ptxas info    : Compiling entry function 'matmul_tiled_v4' for 'sm_90a'\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 16384 bytes smem\n"
        "ptxas info    : Compiling entry function 'matmul_tiled' for 'sm_90a'\n"
        "ptxas info    : Function properties for matmul_tiled\n"
        "ptxas info    : Used 31 registers, used 1 barriers, 8196 bytes smem\n"
        "ptxas info    : Used 99 registers, 99 bytes smem\n";
    int regs;
    long smem;
    assert_int_equal(sb_ptxas_log_resources(log, "copy_grid_stride", &regs, &smem), 0);
    assert_int_equal(regs, 12);
    assert_int_equal(smem, -1);
    assert_int_equal(sb_ptxas_log_resources(log, "matmul_tiled_v4", &regs, &smem), 0);
    assert_int_equal(regs, 40);
    assert_int_equal(smem, 16384);
    assert_int_equal(sb_ptxas_log_resources(log, "matmul_tiled", &regs, &smem), 0);
    assert_int_equal(regs, 31);
    assert_int_equal(smem, 8196);
}

/* No such entry, or an entry whose block has no "Used" line before the
 * next entry begins: unknown, never a neighbour's figures. */
static void missing_entry(void **state)
{
    (void)state;
    static const char log[] =
        "ptxas info    : Compiling entry function 'first' for 'sm_90a'\n"
        "ptxas info    : Function properties for first\n"
        "ptxas info    : Compiling entry function 'second' for 'sm_90a'\n"
        "ptxas info    : Used 20 registers, 1024 bytes smem\n";
    int regs = 7;
    long smem = 7;
    assert_int_equal(sb_ptxas_log_resources(one_entry, "matmul", &regs, &smem), -1);
    assert_int_equal(regs, -1);
    assert_int_equal(smem, -1);
    assert_int_equal(sb_ptxas_log_resources(log, "first", &regs, &smem), -1);
    assert_int_equal(regs, -1);
    assert_int_equal(smem, -1);
    assert_int_equal(sb_ptxas_log_resources(log, "second", &regs, &smem), 0);
    assert_int_equal(regs, 20);
    assert_int_equal(smem, 1024);
}

/* Not a ptxas log at all, an empty one, none, a truncated last line. */
static void garbage(void **state)
{
    (void)state;
    int regs;
    long smem;
    assert_int_equal(sb_ptxas_log_resources(NULL, "k", &regs, &smem), -1);
    assert_int_equal(sb_ptxas_log_resources("", "k", &regs, &smem), -1);
    assert_int_equal(sb_ptxas_log_resources(one_entry, "", &regs, &smem), -1);
    assert_int_equal(
        sb_ptxas_log_resources("warning: something\n\n\x01\xff Used registers\n", "k", &regs,
                               &smem),
        -1);
    assert_int_equal(regs, -1);
    assert_int_equal(sb_ptxas_log_resources("Compiling entry function 'k' for 'sm_90'\n"
                                            "Used registers, bytes smem\n",
                                            "k", &regs, &smem),
                     -1);
    assert_int_equal(sb_ptxas_log_resources("Compiling entry function 'k", "k", &regs, &smem),
                     -1);
    /* no newline at the end, and CRLF line ends */
    assert_int_equal(sb_ptxas_log_resources("Compiling entry function 'k' for 'sm_90'\r\n"
                                            "ptxas info    : Used 8 registers, 64 bytes smem",
                                            "k", &regs, &smem),
                     0);
    assert_int_equal(regs, 8);
    assert_int_equal(smem, 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_exact_lines),
        cmocka_unit_test(several_entries),
        cmocka_unit_test(missing_entry),
        cmocka_unit_test(garbage),
    };
    SB_TEST_MAIN(tests);
}
