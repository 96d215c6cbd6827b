/* The divergence kernels' PTX, as NVRTC makes it for sm_90 with no GPU:
 * the branch the compiler can predicate (select_on_key, whose sides only
 * choose constants) really is predicated, selp and one FMA loop, and the
 * one it cannot (branch_on_key, a loop on each side) really is a branch,
 * no selp and both loops; split_by_lane has a loop of its own for each of
 * the 32 paths, so that lane % k runs k different codes and not one code
 * with constants chosen per lane.  Without these, the family's model
 * would be held against kernels that do not do what it assumes. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "plan/kernel_source.h"
#include "exec/registry.h"

static sb_backend_slot slot;
static char *ptx;

/* The text of one .entry of the PTX, malloc'd. */
static char *entry(const char *name)
{
    char head[96];
    snprintf(head, sizeof head, ".entry %s(", name);
    const char *at = strstr(ptx, head);
    if (!at)
        fail_msg("no %s in the PTX", name);
    const char *end = strstr(at, "\n}");
    size_t len = end ? (size_t)(end - at) : strlen(at);
    char *out = malloc(len + 1);
    memcpy(out, at, len);
    out[len] = '\0';
    return out;
}

/* How many lines of text contain both a and b (b NULL: a alone). */
static int lines_with(const char *text, const char *a, const char *b)
{
    int count = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        count += strstr(buf, a) && (!b || strstr(buf, b));
        line = nl ? nl + 1 : NULL;
    }
    return count;
}

/* Path p's multiplier as a PTX float immediate, "0f3F7FFC00": A = 1 -
 * (p + 1) / 2^14, as divergence.cl writes it. */
static void path_constant(int p, char *buf, size_t n)
{
    float a = 1.0f - (float)(p + 1) / 16384.0f;
    uint32_t bits;
    memcpy(&bits, &a, sizeof bits);
    snprintf(buf, n, "0f%08X", bits);
}

static void select_is_predicated(void **state)
{
    (void)state;
    char *k = entry("select_on_key"), a0[16], a1[16];
    path_constant(0, a0, sizeof a0);
    path_constant(1, a1, sizeof a1);
    /* The two sides became a choice of constants... */
    assert_true(lines_with(k, "selp.f32", a0) + lines_with(k, "selp.f32", a1) >= 1);
    /* ...and one chain after it that every lane runs: no fma or mov holds
       a path's constant of its own. */
    assert_int_equal(lines_with(k, "mov.f32", a0) + lines_with(k, "mov.f32", a1), 0);
    assert_int_equal(lines_with(k, "fma.rn.f32", a0) + lines_with(k, "fma.rn.f32", a1), 0);
    free(k);
}

static void branch_is_a_branch(void **state)
{
    (void)state;
    char *branch = entry("branch_on_key"), *select = entry("select_on_key"), a0[16], a1[16];
    path_constant(0, a0, sizeof a0);
    path_constant(1, a1, sizeof a1);
    assert_int_equal(lines_with(branch, "selp", NULL), 0);
    /* Each side's constant in its own loop, and conditional branches
       beyond the predicated kernel's (its bounds check and its loop's):
       one for the choice, one for the second loop. */
    assert_true(lines_with(branch, a0, NULL) >= 1 && lines_with(branch, a1, NULL) >= 1);
    assert_true(lines_with(branch, "bra", "@%p") >= lines_with(select, "bra", "@%p") + 2);
    int fma_branch = lines_with(branch, "fma.rn.f32", NULL);
    int fma_select = lines_with(select, "fma.rn.f32", NULL);
    printf("# fma.rn.f32: branch_on_key %d, select_on_key %d\n", fma_branch, fma_select);
    assert_true(fma_select >= 2);
    assert_true(fma_branch - 1 >= 2 * (fma_select - 1)); /* one start fma each, two loops */
    free(branch);
    free(select);
}

static void each_path_its_own_code(void **state)
{
    (void)state;
    char *split = entry("split_by_lane"), *select = entry("select_on_key");
    for (int p = 0; p < 32; p++) {
        char a[16];
        path_constant(p, a, sizeof a);
        if (lines_with(split, a, NULL) == 0)
            fail_msg("path %d's constant %s is not in split_by_lane's PTX", p, a);
    }
    assert_int_equal(lines_with(split, "selp.f32", NULL), 0);
    int fma_split = lines_with(split, "fma.rn.f32", NULL);
    int fma_select = lines_with(select, "fma.rn.f32", NULL);
    printf("# fma.rn.f32: split_by_lane %d, one path's loop %d\n", fma_split, fma_select - 1);
    assert_true(fma_split - 1 >= 32 * (fma_select - 1));
    free(split);
    free(select);
}

int main(void)
{
    sb_registry_load("cuda", &slot);
    if (!slot.vt)
        return sb_test_skip_all(slot.reason);
    if (!slot.provides.compile_offline)
        return sb_test_skip_all("the cuda backend cannot compile without a device");
    char err[512];
    char *source = sb_kernel_source(slot.vt->prelude, "divergence.cl", err, sizeof err);
    if (!source)
        return sb_test_skip_all(err);
    const char *defs[] = {"WORK=1024", "TRIP_WORK=8", "WARP=32"};
    if (slot.vt->compile_offline(source, defs, 3, "sm_90", &ptx)) {
        /* The backend opens NVRTC at run time; where none is installed it
           says so, and there is nothing to look at. */
        if (strstr(slot.vt->last_error(), "NVRTC not found"))
            return sb_test_skip_all(slot.vt->last_error());
        printf("Bail out! NVRTC: %s\n", slot.vt->last_error());
        return 1;
    }
    free(source);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(select_is_predicated),
        cmocka_unit_test(branch_is_a_branch),
        cmocka_unit_test(each_path_its_own_code),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(ptx);
    sb_registry_unload(&slot);
    return failed;
}
