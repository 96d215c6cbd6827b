/* A fixed-seed PoCL run of every experiment against the golden file made
 * before the tree was reshaped (tests/fixtures/golden-pocl.json): every
 * field the golden file has must be in the new run with the same value.
 * Timing-derived and compiler-allocation fields are not in the golden
 * file; fields added since are allowed.  PoCL is pinned to two compute
 * units, as the golden run had, through its own environment variable. */
#include <jansson.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define GOLDEN_ARGS                                                                                \
    "--backend opencl --experiment transpose,matmul,vecadd,occupancy,global_stride,"              \
    "global_offset,global_perm,global_broadcast,global_walk,shared_stride,shared_broadcast,"      \
    "shared_tile --size 64 --reps 2 --warmup 0 --seed 7 --quiet"

static char where[1024];

/* Whether every member of want is in got with an equal value; where[]
 * names the first difference. */
static int subset(const json_t *want, const json_t *got, const char *path)
{
    char sub[480];
    if (json_is_number(want) && json_is_number(got)) {
        double a = json_number_value(want), b = json_number_value(got);
        /* The golden file has nine significant digits (runs are saved
           with seventeen now): equal to within half its last digit. */
        if (a == b || fabs(a - b) <= 1e-8 * fabs(a))
            return 1;
        snprintf(where, sizeof where, "%s: %.17g, golden %.17g", path, b, a);
        return 0;
    }
    if (json_typeof(want) != json_typeof(got)) {
        snprintf(where, sizeof where, "%s: type differs", path);
        return 0;
    }
    if (json_is_object(want)) {
        const char *key;
        json_t *value;
        json_object_foreach((json_t *)want, key, value) {
            snprintf(sub, sizeof sub, "%s.%s", path, key);
            json_t *other = json_object_get(got, key);
            if (!other) {
                snprintf(where, sizeof where, "%s: missing", sub);
                return 0;
            }
            if (!subset(value, other, sub))
                return 0;
        }
        return 1;
    }
    if (json_is_array(want)) {
        if (json_array_size(want) != json_array_size(got)) {
            snprintf(where, sizeof where, "%s: %zu entries, golden %zu", path,
                     json_array_size(got), json_array_size(want));
            return 0;
        }
        for (size_t i = 0; i < json_array_size(want); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (!subset(json_array_get(want, i), json_array_get(got, i), sub))
                return 0;
        }
        return 1;
    }
    if (json_equal((json_t *)want, (json_t *)got))
        return 1;
    snprintf(where, sizeof where, "%s: differs", path);
    return 0;
}

static void golden_run_matches(void **state)
{
    const char *out = *state;
    char golden[1024];
    snprintf(golden, sizeof golden, "%s/tests/fixtures/golden-pocl.json", getenv("SB_TOP_SRCDIR"));
    json_error_t e;
    json_t *want = json_load_file(golden, 0, &e);
    json_t *got = json_load_file(out, 0, &e);
    assert_non_null(want);
    assert_non_null(got);
    if (!subset(want, got, "$"))
        fail_msg("the run differs from the golden file: %s", where);
    json_decref(want);
    json_decref(got);
}

int main(void)
{
    const char *prog = getenv("SIMTBENCH"), *top = getenv("SB_TOP_SRCDIR");
    (void)top;
    if (!prog || !top)
        return sb_test_skip_all("SIMTBENCH and SB_TOP_SRCDIR are set by make check");
    /* PoCL alone, with the two compute units the golden run had: grids
       sized per compute unit then come out the same on any machine, and a
       GPU's OpenCL platform is not picked instead. */
    const char *pocl = "/etc/OpenCL/vendors/pocl.icd";
    if (access(pocl, R_OK) != 0)
        return sb_test_skip_all("PoCL is not registered (/etc/OpenCL/vendors/pocl.icd)");
    setenv("OCL_ICD_VENDORS", pocl, 1);
    setenv("POCL_CPU_MAX_CU_COUNT", "2", 1);
    static char out[] = "/tmp/simtbench-golden-XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return sb_test_skip_all("cannot make a temporary file");
    close(fd);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' " GOLDEN_ARGS " --save '%s' >/dev/null", prog, out);
    int rc = system(cmd);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 3) {
        unlink(out);
        return sb_test_skip_all("no OpenCL device (PoCL) to run the golden suite on");
    }
    if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
        unlink(out);
        printf("1..1\nnot ok 1 - the golden suite ran (status %d)\n", rc);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(golden_run_matches, out),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(out);
    return failed;
}
