/* Every kernel variant of every experiment (make check: a sample of each,
 * and every variant too big for the H200: tests/test_sample.h), built by
 * the CUDA backend's NVRTC for sm_90 (the H200) with no GPU: the proof in
 * CI (make check-exhaustive) that the CUDA
 * side of each portable kernel compiles, with its memory instructions,
 * and that the FMA peak kernel keeps every FMA of its unrolled chains.  A
 * variant its experiment says does not fit the H200 (48 KiB of static
 * shared memory per block) must fail, for that reason: the experiment's
 * test and ptxas agree both ways. */
#include "test_util.h"
#include "test_sample.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "plan/kernel_source.h"
#include "experiments/pattern.h"
#include "exec/registry.h"
#include "experiments/variant.h"

static sb_backend_slot slot;

/* What the run's fits() is asked about on the H200. */
static const sb_device_info h200 = {.is_gpu = 1, .local_mem_bytes = 49152, .warp_size = 32};

/* A variant the experiment leaves out on the H200 must not build there:
   its definitions fail in ptxas for too much shared data. */
static void unfit_fails(const char *source, const sb_experiment *e, const sb_variant *v)
{
    const char *defs[SB_MAX_DEFINES];
    for (int d = 0; d < v->ndefines; d++)
        defs[d] = v->defines[d];
    char *ptx = NULL;
    if (slot.vt->compile_offline(source, defs, v->ndefines, "sm_90", &ptx) == 0)
        fail_msg("%s/%s: left out as too big for the H200, yet it compiles", e->name, v->name);
    if (!strstr(slot.vt->last_error(), "too much shared data"))
        fail_msg("%s/%s: fails otherwise: %s", e->name, v->name, slot.vt->last_error());
    printf("# %s/%s: left out on the H200, and ptxas agrees\n", e->name, v->name);
}

/* A variant with CHAINS and UNROLL definitions (the compute family) has
 * CHAINS x UNROLL FMAs in its PTX at least: the compiler folded none of
 * the loop's work away. */
static void fmas_kept(const sb_variant *v, const char *ptx)
{
    int chains = 0, unroll = 0;
    for (int d = 0; d < v->ndefines; d++) {
        sscanf(v->defines[d], "CHAINS=%d", &chains);
        sscanf(v->defines[d], "UNROLL=%d", &unroll);
    }
    if (!chains || !unroll)
        return;
    int fmas = 0;
    for (const char *p = ptx; (p = strstr(p, "fma.rn.f32")); p++)
        fmas++;
    if (fmas < chains * unroll)
        fail_msg("%s: %d fma.rn.f32 in the PTX, fewer than %d chains x %d unrolled", v->name,
                 fmas, chains, unroll);
}

/* The pattern family's rows come from the command line's --index: three
   for it here, in the space of the experiment asked about. */
static void give_pattern_rows(const sb_experiment *e)
{
    sb_pattern_request r = {.nindex = 3, .index = {"lane", "(i * 7) % n", "lane * 33 + warp"}};
    sb_variant v[4];
    sb_pattern_configure(&r);
    if (e->trace_kernel && e->variants(v, 4) == 0) {
        r.space = SB_SPACE_SHARED;
        sb_pattern_configure(&r);
    }
}

/* Variants that differ only in their entry point (a load and a store
 * kernel built from one set of definitions) share one program, as they do
 * in the run loop: each set of definitions is compiled once and every
 * variant's entry point is looked for in its PTX. */
static void compile_experiment(void **state)
{
    const sb_experiment *e = *state;
    give_pattern_rows(e);
    char err[1024];
    char *source = sb_kernel_source(slot.vt->prelude, e->source, err, sizeof err);
    assert_non_null(source);
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    char(*keys)[SB_MAX_DEFINES * 40 + 8] = calloc(SB_MAX_VARIANTS, sizeof *keys);
    char **ptxs = calloc(SB_MAX_VARIANTS, sizeof *ptxs);
    assert_true(vs && keys && ptxs);
    int n = e->variants(vs, SB_MAX_VARIANTS), nkeys = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        if (vs[i].role == SB_ROLE_API_COPY || !vs[i].kernel[0])
            continue;
        char why[256];
        if (e->fits && e->fits(&vs[i], &h200, why, sizeof why)) {
            unfit_fails(source, e, &vs[i]);
            continue;
        }
        if (!sb_test_sampled(vs, n, i))
            continue;
        char key[sizeof keys[0]];
        sb_variant_params(&vs[i], key, sizeof key);
        int k = 0;
        while (k < nkeys && strcmp(keys[k], key) != 0)
            k++;
        if (k == nkeys) {
            const char *defs[SB_MAX_DEFINES];
            for (int d = 0; d < vs[i].ndefines; d++)
                defs[d] = vs[i].defines[d];
            int rc = slot.vt->compile_offline(source, defs, vs[i].ndefines, "sm_90", &ptxs[k]);
            if (rc)
                fail_msg("%s/%s: %s", e->name, vs[i].name, slot.vt->last_error());
            snprintf(keys[k], sizeof keys[k], "%s", key);
            nkeys++;
        }
        const char *ptx = ptxs[k];
        char entry[80];
        snprintf(entry, sizeof entry, ".entry %s(", vs[i].kernel);
        if (!strstr(ptx, entry))
            fail_msg("%s/%s: no %s in the PTX", e->name, vs[i].name, entry);
        assert_non_null(strstr(ptx, ".target sm_90"));
        assert_true(strstr(ptx, "ld.global") || strstr(ptx, "ld.volatile.global") ||
                    strstr(ptx, "ld.shared") || strstr(ptx, "ld.volatile.shared") ||
                    strstr(ptx, "st.global"));
        fmas_kept(&vs[i], ptx);
    }
    for (int k = 0; k < nkeys; k++)
        free(ptxs[k]);
    free(ptxs);
    free(keys);
    free(vs);
    free(source);
}

/* A broken kernel must give a readable NVRTC error, not a crash. */
static void broken_source_is_reported(void **state)
{
    (void)state;
    char *ptx = NULL;
    const char *bad = "extern \"C\" __global__ void k(float *a) { a[0] = undefined_name; }";
    assert_int_not_equal(slot.vt->compile_offline(bad, NULL, 0, "sm_90", &ptx), 0);
    assert_non_null(strstr(slot.vt->last_error(), "NVRTC"));
    assert_non_null(strstr(slot.vt->last_error(), "undefined_name"));
}

int main(void)
{
    if (sb_test_not_asked())
        return sb_test_skip_all("every variant: make check-exhaustive runs it");
    sb_registry_load("cuda", &slot);
    if (!slot.vt)
        return sb_test_skip_all(slot.reason);
    if (!slot.provides.compile_offline)
        return sb_test_skip_all("the cuda backend cannot compile without a device");
    /* The backend opens NVRTC at run time; where none is installed, it
       says so on the first compile. */
    char *ptx = NULL;
    if (slot.vt->compile_offline("extern \"C\" __global__ void k() {}", NULL, 0, "sm_90", &ptx) &&
        strstr(slot.vt->last_error(), "NVRTC not found"))
        return sb_test_skip_all(slot.vt->last_error());
    free(ptx);

    struct CMUnitTest tests[64];
    static char names[64][96];
    int n = 0;
    for (int i = 0; i < sb_catalogue_count() && n < 63; i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        if (!sb_test_part_has(i))
            continue;
        snprintf(names[n], sizeof names[n], "NVRTC sm_90: every %s variant compiles", e->name);
        tests[n] = (struct CMUnitTest){names[n], compile_experiment, NULL, NULL, (void *)e};
        n++;
    }
    tests[n++] = (struct CMUnitTest){"NVRTC: a broken kernel gives a readable error",
                                     broken_source_is_reported, NULL, NULL, NULL};
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = _cmocka_run_group_tests("cuda_nvrtc", tests, (size_t)n, NULL, NULL);
    sb_registry_unload(&slot);
    return failed;
}
