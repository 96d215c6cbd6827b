/* Command-line parsing and its errors. */
#include "test_util.h"

#include <string.h>

#include "cli/options.h"

static int parse(sb_options *o, char *err, int argc, char **argv)
{
    sb_options_defaults(o);
    return sb_options_parse(argc, argv, o, err, 256);
}

#define PARSE(o, err, ...)                                                                         \
    parse(o, err, (int)(sizeof((char *[]){"simtbench", __VA_ARGS__}) / sizeof(char *)),            \
          (char *[]){"simtbench", __VA_ARGS__})

static void defaults(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    char *argv[] = {"simtbench"};
    assert_int_equal(parse(&o, err, 1, argv), 0);
    assert_int_equal(o.nbackends, 0);
    assert_int_equal(o.nexperiments, 0);
    assert_int_equal(o.reps, 20);
    assert_int_equal(o.warmup, 3);
    assert_int_equal(o.device, -1);
    assert_int_equal(o.platform, -1);
    assert_int_equal(o.format, SB_FORMAT_TABLE);
    assert_null(o.output);
}

static void backend_lists(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--backend", "cuda,opencl"), 0);
    assert_int_equal(o.nbackends, 2);
    assert_string_equal(o.backends[0], "cuda");
    assert_string_equal(o.backends[1], "opencl");
    assert_int_equal(PARSE(&o, err, "-b", "all"), 0);
    assert_int_equal(o.nbackends, 0);
    assert_int_equal(PARSE(&o, err, "--backend", "vulkan"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "vulkan"));
    assert_int_equal(PARSE(&o, err, "--backend", "cuda,,opencl"), SB_EXIT_USAGE);
    assert_int_equal(PARSE(&o, err, "--backend", ""), SB_EXIT_USAGE);
}

static void sizes(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--size", "512"), 0);
    assert_int_equal(o.rows, 512);
    assert_int_equal(o.cols, 512);
    assert_int_equal(PARSE(&o, err, "-s", "31x33"), 0);
    assert_int_equal(o.rows, 31);
    assert_int_equal(o.cols, 33);
    assert_int_equal(PARSE(&o, err, "--size", "1000X1"), 0);
    assert_int_equal(o.rows, 1000);
    assert_int_equal(o.cols, 1);
    const char *bad[] = {"0", "-5", "abc", "12x", "x12", "3x0", "65536x65536", "1e3", " 5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[] = {"simtbench", "--size", (char *)bad[i]};
        assert_int_equal(parse(&o, err, 3, argv), SB_EXIT_USAGE);
        assert_non_null(strstr(err, "--size"));
    }
}

static void numbers_out_of_range(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--reps", "0"), SB_EXIT_USAGE);
    assert_int_equal(PARSE(&o, err, "--reps", "5"), 0);
    assert_int_equal(o.reps, 5);
    assert_int_equal(PARSE(&o, err, "--warmup", "-1"), SB_EXIT_USAGE);
    assert_int_equal(PARSE(&o, err, "--warmup", "0"), 0);
    assert_int_equal(o.warmup, 0);
    assert_int_equal(PARSE(&o, err, "--device", "x"), SB_EXIT_USAGE);
    assert_int_equal(PARSE(&o, err, "--device", "2", "--platform", "1"), 0);
    assert_int_equal(o.device, 2);
    assert_int_equal(o.platform, 1);
}

static void formats(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--format", "csv"), 0);
    assert_int_equal(o.format, SB_FORMAT_CSV);
    assert_int_equal(PARSE(&o, err, "-f", "json"), 0);
    assert_int_equal(o.format, SB_FORMAT_JSON);
    assert_int_equal(PARSE(&o, err, "-f", "markdown"), 0);
    assert_int_equal(o.format, SB_FORMAT_MARKDOWN);
    assert_int_equal(PARSE(&o, err, "--format", "xml"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "xml"));
}

static void unknown_missing_and_stray(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--frobnicate"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "--frobnicate"));
    assert_int_equal(PARSE(&o, err, "-Z"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "-Z"));
    assert_int_equal(PARSE(&o, err, "--size"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "needs a value"));
    assert_int_equal(PARSE(&o, err, "extra"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "extra"));
}

static void experiments_and_variants(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "-e", "transpose,shared", "--variant", "padded,tiled"), 0);
    assert_int_equal(o.nexperiments, 2);
    assert_string_equal(o.experiments[1], "shared");
    assert_int_equal(o.nvariants, 2);
    assert_string_equal(o.variants[0], "padded");
    assert_int_equal(PARSE(&o, err, "--variant", "all"), 0);
    assert_int_equal(o.all_variants, 1);
}

static void flags_and_files(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--list", "-q", "-o", "out.json", "--plot", "p", "--dump-ptx",
                           "x", "--seed", "7"),
                     0);
    assert_int_equal(o.list, 1);
    assert_int_equal(o.quiet, 1);
    assert_string_equal(o.output, "out.json");
    assert_string_equal(o.plot_dir, "p");
    assert_string_equal(o.ptx_dir, "x");
    assert_int_equal(o.seed, 7);
    assert_int_equal(PARSE(&o, err, "--help"), 0);
    assert_int_equal(o.help, 1);
    assert_int_equal(PARSE(&o, err, "-V"), 0);
    assert_int_equal(o.version, 1);
}

/* What a user typed wrong is named: an ambiguous prefix and what it could
 * be, the limit of a list, a value given to a flag, an empty path. */
static void refusals_say_why(void **state)
{
    (void)state;
    sb_options o;
    char err[256];
    assert_int_equal(PARSE(&o, err, "--s", "8"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "ambiguous option '--s'"));
    assert_non_null(strstr(err, "--size"));
    assert_non_null(strstr(err, "--save"));
    assert_non_null(strstr(err, "--seed"));
    assert_int_equal(PARSE(&o, err, "--re=3"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "ambiguous option '--re'"));
    assert_int_equal(PARSE(&o, err, "--si", "8"), 0); /* a unique prefix is the option */
    assert_int_equal(o.rows, 8);
    assert_int_equal(PARSE(&o, err, "-e", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "--experiment: at most 16 names"));
    assert_int_equal(PARSE(&o, err, "--variant", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q"),
                     SB_EXIT_USAGE);
    assert_non_null(strstr(err, "--variant: at most 16 names"));
    assert_int_equal(PARSE(&o, err, "-e", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p"), 0);
    assert_int_equal(o.nexperiments, 16);
    assert_int_equal(PARSE(&o, err, "--list=all"), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "'--list' takes no value"));
    const char *paths[] = {"-o", "--output", "--save", "--plot", "--dump-ptx", "--reference"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char *argv[] = {"simtbench", (char *)paths[i], ""};
        assert_int_equal(parse(&o, err, 3, argv), SB_EXIT_USAGE);
        assert_non_null(strstr(err, "got ''"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(backend_lists),
        cmocka_unit_test(sizes),
        cmocka_unit_test(numbers_out_of_range),
        cmocka_unit_test(formats),
        cmocka_unit_test(unknown_missing_and_stray),
        cmocka_unit_test(experiments_and_variants),
        cmocka_unit_test(flags_and_files),
        cmocka_unit_test(refusals_say_why),
    };
    SB_TEST_MAIN(tests);
}
