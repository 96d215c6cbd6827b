/* The PTX summary on real PTX: the CUDA backend's NVRTC compiles transpose
 * variants for sm_90 with no GPU, the summary finds each kernel's memory
 * instructions, and a crafted "other API" PTX of the same kernel with plain
 * instead of read-only loads is told apart, as the report would say. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "plan/kernel_source.h"
#include "exec/ptx_summary.h"
#include "exec/registry.h"

static sb_backend_slot slot;
static char *source;

static char *compile(const char *const *defs, int n)
{
    char *ptx = NULL;
    if (slot.vt->compile_offline(source, defs, n, "sm_90", &ptx))
        fail_msg("NVRTC: %s", slot.vt->last_error());
    return ptx;
}

static void tiled_kernel_stages_through_shared(void **state)
{
    (void)state;
    const char *defs[] = {"TILE=32", "BLOCK_ROWS=8", "PAD=1"};
    char *ptx = compile(defs, 3);
    sb_ptx_summary s;
    char err[128], text[512];
    assert_int_equal(sb_ptx_summarize(ptx, "transpose_tiled", &s, err, sizeof err), 0);
    assert_true(sb_ptx_summary_format(&s, text, sizeof text) > 0);
    /* A tile is written to shared memory, a barrier, read back, stored. */
    assert_non_null(strstr(text, "x bar.sync"));
    assert_non_null(strstr(text, "x ld.shared."));
    assert_non_null(strstr(text, "x st.shared."));
    assert_non_null(strstr(text, "x st.global."));
    assert_null(strstr(text, "param"));
    /* The copy kernel in the same PTX has no shared memory and no barrier. */
    assert_int_equal(sb_ptx_summarize(ptx, "transpose_copy", &s, err, sizeof err), 0);
    assert_true(sb_ptx_summary_format(&s, text, sizeof text) > 0);
    assert_null(strstr(text, "shared"));
    assert_null(strstr(text, "bar.sync"));
    assert_non_null(strstr(text, "ld.global"));
    free(ptx);
}

/* What OpenCL on NVIDIA might emit for the same kernel: every load through
 * the ordinary path, not the read-only one (no restrict in OpenCL C). */
static char *as_other_api(const char *ptx)
{
    size_t len = strlen(ptx);
    char *out = malloc(len + 1), *w = out;
    for (const char *p = ptx; *p;) {
        if (strncmp(p, "ld.global.nc.", 13) == 0) {
            memcpy(w, "ld.global.", 10);
            w += 10;
            p += 13;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return out;
}

static void other_api_difference_is_named(void **state)
{
    (void)state;
    const char *defs[] = {"TILE=32", "BLOCK_ROWS=8"};
    char *ptx = compile(defs, 2);
    sb_ptx_summary cuda, other, same;
    char err[128], diff[512];
    assert_int_equal(sb_ptx_summarize(ptx, "transpose_copy", &cuda, err, sizeof err), 0);
    assert_int_equal(sb_ptx_summarize(ptx, "transpose_copy", &same, err, sizeof err), 0);
    assert_int_equal(sb_ptx_summary_diff(&cuda, "cuda", &same, "opencl", diff, sizeof diff), 1);
    int readonly = 0;
    for (int i = 0; i < cuda.nkinds; i++)
        readonly |= strstr(cuda.kind[i].op, ".nc") != NULL;
    char *crafted = as_other_api(ptx);
    assert_int_equal(sb_ptx_summarize(crafted, "transpose_copy", &other, err, sizeof err), 0);
    int rc = sb_ptx_summary_diff(&cuda, "cuda", &other, "opencl", diff, sizeof diff);
    if (readonly) {
        assert_int_equal(rc, 0);
        assert_non_null(strstr(diff, "cuda: "));
        assert_non_null(strstr(diff, "ld.global.nc."));
        assert_non_null(strstr(diff, "; opencl: "));
    } else {
        assert_int_equal(rc, 1); /* NVRTC chose no read-only loads: nothing to tell apart */
    }
    free(crafted);
    free(ptx);
}

int main(void)
{
    sb_registry_load("cuda", &slot);
    if (!slot.vt)
        return sb_test_skip_all(slot.reason);
    if (!slot.provides.compile_offline)
        return sb_test_skip_all("the cuda backend cannot compile without a device");
    /* The backend opens NVRTC at run time; where none is installed, it
       says so on the first compile. */
    char *probe = NULL;
    if (slot.vt->compile_offline("extern \"C\" __global__ void k() {}", NULL, 0, "sm_90", &probe) &&
        strstr(slot.vt->last_error(), "NVRTC not found"))
        return sb_test_skip_all(slot.vt->last_error());
    free(probe);
    char err[512];
    source = sb_kernel_source(slot.vt->prelude, "transpose.cl", err, sizeof err);
    if (!source)
        return sb_test_skip_all(err);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiled_kernel_stages_through_shared),
        cmocka_unit_test(other_api_difference_is_named),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(source);
    sb_registry_unload(&slot);
    return failed;
}
