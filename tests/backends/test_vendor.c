/* The vendor reference calls of one backend (TEST_BACKEND), called
 * through the vtable as the frontend calls them: the transpose
 * (cublasSgeam for CUDA, CLBlastSomatcopy for OpenCL), compared bit for
 * bit with a transpose on the host, and the matrix multiply (cublasSgemm,
 * CLBlastSgemm), compared with a product on the host in double precision
 * within the matmul family's bound.  Built twice; the whole program is
 * skipped, with the reason, when the backend is unavailable or its vendor
 * library is not installed (the backends open it at run time). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "exec/registry.h"

#ifndef TEST_BACKEND
#error "TEST_BACKEND must name the backend under test"
#endif

typedef struct size_case {
    int rows, cols;
    char name[96];
} size_case;

static size_case sizes[] = {
    {1, 1, ""}, {31, 33, ""}, {33, 31, ""}, {1000, 1, ""}, {256, 256, ""},
};
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))

static sb_backend_slot slot;
static const sb_backend *vt;
static sb_device *dev;

/* Random floats of ordinary magnitude: a library may compute 1 * a, which
 * leaves them exact, where it would quieten a signalling NaN or flush a
 * denormal.  xorshift32, seeded per size, so a failure repeats. */
static void fill_random(float *a, size_t n, uint32_t seed)
{
    uint32_t x = seed ? seed : 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        a[i] = ((float)(x >> 8) / (float)(1u << 24) - 0.5f) * 2000.0f;
    }
}

/* Uploads a fresh src, poisons dst with NaN (so that a library reading
 * its beta * C term, or leaving elements unwritten, is caught), transposes
 * and compares with the host's transpose bit for bit. */
static void transpose_once(const size_case *c, sb_buffer *dst, sb_buffer *src, const float *a,
                           const float *want, float *got, double *ms)
{
    size_t n = (size_t)c->rows * (size_t)c->cols, bytes = n * sizeof(float);
    memset(got, 0xff, bytes);
    if (vt->upload(src, a, bytes) || vt->upload(dst, got, bytes))
        fail_msg("upload: %s", vt->last_error());
    if (vt->vendor_transpose(dst, src, c->rows, c->cols, ms))
        fail_msg("%s", vt->last_error());
    memset(got, 0, bytes);
    if (vt->download(got, dst, bytes))
        fail_msg("download: %s", vt->last_error());
    for (int j = 0; j < c->cols; j++)
        for (int i = 0; i < c->rows; i++) {
            size_t k = (size_t)j * (size_t)c->rows + (size_t)i;
            if (memcmp(&got[k], &want[k], sizeof(float)))
                fail_msg("%s %dx%d: dst[%d][%d] is %.9g, want src[%d][%d] = %.9g",
                         vt->vendor_transpose_name, c->rows, c->cols, j, i, (double)got[k], i, j,
                         (double)want[k]);
        }
}

static void vendor_transpose_matches_host(void **state)
{
    const size_case *c = *state;
    size_t n = (size_t)c->rows * (size_t)c->cols, bytes = n * sizeof(float);
    float *a = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    sb_buffer *src = NULL, *dst = NULL;
    assert_non_null(a);
    assert_non_null(want);
    assert_non_null(got);
    fill_random(a, n, (uint32_t)(c->rows * 7919 + c->cols));
    for (int i = 0; i < c->rows; i++)
        for (int j = 0; j < c->cols; j++)
            want[(size_t)j * (size_t)c->rows + (size_t)i] = a[(size_t)i * (size_t)c->cols + (size_t)j];
    if (vt->alloc(dev, bytes, &src) || vt->alloc(dev, bytes, &dst))
        fail_msg("alloc: %s", vt->last_error());

    /* Untimed, then timed: the events must not change the result. */
    transpose_once(c, dst, src, a, want, got, NULL);
    double ms = -1.0;
    transpose_once(c, dst, src, a, want, got, &ms);
    printf("# %s %dx%d: %.4f ms\n", vt->vendor_transpose_name, c->rows, c->cols, ms);
    assert_true(ms >= 0.0 && ms < 60e3);

    vt->free(dst);
    vt->free(src);
    free(a);
    free(want);
    free(got);
}

/* A buffer too small for the matrix, or an empty matrix, is refused with
 * a message that names the library call; nothing is launched. */
static void vendor_transpose_refuses_bad_sizes(void **state)
{
    (void)state;
    sb_buffer *small = NULL, *big = NULL;
    if (vt->alloc(dev, 16 * sizeof(float), &small) || vt->alloc(dev, 64 * sizeof(float), &big))
        fail_msg("alloc: %s", vt->last_error());
    assert_int_equal(vt->vendor_transpose(small, big, 8, 8, NULL), -1);
    assert_non_null(strstr(vt->last_error(), vt->vendor_transpose_name));
    assert_int_equal(vt->vendor_transpose(big, small, 8, 8, NULL), -1);
    assert_non_null(strstr(vt->last_error(), vt->vendor_transpose_name));
    assert_int_equal(vt->vendor_transpose(big, big, 0, 8, NULL), -1);
    assert_non_null(strstr(vt->last_error(), vt->vendor_transpose_name));
    vt->free(big);
    vt->free(small);
}

/* ---------------------------------------------------------------- sgemm */

typedef struct sgemm_case {
    int m, n, k;
    char name[96];
} sgemm_case;

static sgemm_case gemms[] = {
    {1, 1, 1, ""}, {31, 33, 17, ""}, {64, 64, 64, ""}, {100, 1, 300, ""}, {5, 130, 2, ""},
};
#define NGEMMS ((int)(sizeof gemms / sizeof *gemms))

/* c = a b within the bound of the matmul family: |c - ref| <= 1e-5 x the
 * sum of |a||b| of the element's products, the float32 rounding's room. */
static void check_product(const sgemm_case *g, const float *a, const float *b, const float *c)
{
    for (int i = 0; i < g->m; i++)
        for (int j = 0; j < g->n; j++) {
            double ref = 0, bound = 0;
            for (int p = 0; p < g->k; p++) {
                double t = (double)a[(size_t)i * g->k + p] * b[(size_t)p * g->n + j];
                ref += t;
                bound += fabs(t);
            }
            double got = c[(size_t)i * g->n + j];
            if (!(fabs(got - ref) <= 1e-5 * bound))
                fail_msg("%s %dx%dx%d: c[%d][%d] = %.9g, want %.9g", vt->vendor_sgemm_name,
                         g->m, g->n, g->k, i, j, got, ref);
        }
}

/* Poisons c with NaN (a library that reads beta * c, or leaves elements
 * unwritten, is caught), multiplies untimed and timed, and checks both. */
static void vendor_sgemm_matches_host(void **state)
{
    const sgemm_case *g = *state;
    size_t na = (size_t)g->m * g->k, nb = (size_t)g->k * g->n, nc = (size_t)g->m * g->n;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4);
    sb_buffer *da = NULL, *db = NULL, *dc = NULL;
    assert_true(a && b && c);
    fill_random(a, na, (uint32_t)(g->m * 131 + g->k));
    fill_random(b, nb, (uint32_t)(g->n * 7 + g->k * 3 + 1));
    if (vt->alloc(dev, na * 4, &da) || vt->alloc(dev, nb * 4, &db) ||
        vt->alloc(dev, nc * 4, &dc) || vt->upload(da, a, na * 4) || vt->upload(db, b, nb * 4))
        fail_msg("alloc/upload: %s", vt->last_error());
    for (int timed = 0; timed < 2; timed++) {
        double ms = -1.0;
        memset(c, 0xff, nc * 4);
        if (vt->upload(dc, c, nc * 4) ||
            vt->vendor_sgemm(dc, da, db, g->m, g->n, g->k, timed ? &ms : NULL))
            fail_msg("%s", vt->last_error());
        memset(c, 0, nc * 4);
        if (vt->download(c, dc, nc * 4))
            fail_msg("download: %s", vt->last_error());
        check_product(g, a, b, c);
        if (timed) {
            printf("# %s %dx%dx%d: %.4f ms\n", vt->vendor_sgemm_name, g->m, g->n, g->k, ms);
            assert_true(ms > 0.0 && ms < 60e3);
        }
    }
    vt->free(dc);
    vt->free(db);
    vt->free(da);
    free(a);
    free(b);
    free(c);
}

/* Too small a buffer for any of the three, or an empty matrix, is refused
 * with a message that names the library call. */
static void vendor_sgemm_refuses_bad_sizes(void **state)
{
    (void)state;
    sb_buffer *small = NULL, *big = NULL;
    if (vt->alloc(dev, 16 * sizeof(float), &small) || vt->alloc(dev, 64 * sizeof(float), &big))
        fail_msg("alloc: %s", vt->last_error());
    sb_buffer *sets[3][3] = {{small, big, big}, {big, small, big}, {big, big, small}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(vt->vendor_sgemm(sets[i][0], sets[i][1], sets[i][2], 8, 8, 8, NULL), -1);
        assert_non_null(strstr(vt->last_error(), vt->vendor_sgemm_name));
    }
    assert_int_equal(vt->vendor_sgemm(big, big, big, 8, 0, 8, NULL), -1);
    assert_non_null(strstr(vt->last_error(), vt->vendor_sgemm_name));
    vt->free(big);
    vt->free(small);
}

/* Non-zero, with the backend's reason in why, when the vendor library is
 * not installed: the backend opens it on the first call, and says "not
 * found".  Any other failure is left for the tests to report. */
static int vendor_library_missing(char *why, size_t n)
{
    sb_buffer *src = NULL, *dst = NULL;
    int missing = 0;
    if (vt->alloc(dev, sizeof(float), &src) == 0 && vt->alloc(dev, sizeof(float), &dst) == 0 &&
        (slot.provides.vendor_transpose ? vt->vendor_transpose(dst, src, 1, 1, NULL)
                                        : vt->vendor_sgemm(dst, src, src, 1, 1, 1, NULL)) != 0 &&
        strstr(vt->last_error(), " not found")) {
        snprintf(why, n, "%s", vt->last_error());
        missing = 1;
    }
    vt->free(dst);
    vt->free(src);
    return missing;
}

/* The vtable names its library calls as the backend's library does. */
static int names_right(void)
{
    int cuda = strcmp(TEST_BACKEND, "cuda") == 0;
    const char *transpose = cuda ? "cublasSgeam" : "CLBlastSomatcopy";
    const char *sgemm = cuda ? "cublasSgemm" : "CLBlastSgemm";
    if (slot.provides.vendor_transpose && strcmp(vt->vendor_transpose_name, transpose)) {
        printf("Bail out! the " TEST_BACKEND " backend names its vendor transpose \"%s\", "
               "not \"%s\"\n", vt->vendor_transpose_name, transpose);
        return 0;
    }
    if (slot.provides.vendor_sgemm && strcmp(vt->vendor_sgemm_name, sgemm)) {
        printf("Bail out! the " TEST_BACKEND " backend names its vendor matrix multiply "
               "\"%s\", not \"%s\"\n", vt->vendor_sgemm_name, sgemm);
        return 0;
    }
    return 1;
}

/* The tests of what the backend provides, into tests; how many. */
static int gather(struct CMUnitTest *tests)
{
    int n = 0;
    for (int i = 0; slot.provides.vendor_transpose && i < NSIZES; i++) {
        snprintf(sizes[i].name, sizeof sizes[i].name,
                 TEST_BACKEND " %s %dx%d equals the host transpose bit for bit",
                 vt->vendor_transpose_name, sizes[i].rows, sizes[i].cols);
        tests[n++] = (struct CMUnitTest){sizes[i].name, vendor_transpose_matches_host, NULL,
                                         NULL, &sizes[i]};
    }
    if (slot.provides.vendor_transpose)
        tests[n++] = (struct CMUnitTest){TEST_BACKEND " vendor transpose refuses bad sizes",
                                         vendor_transpose_refuses_bad_sizes, NULL, NULL, NULL};
    for (int i = 0; slot.provides.vendor_sgemm && i < NGEMMS; i++) {
        snprintf(gemms[i].name, sizeof gemms[i].name,
                 TEST_BACKEND " %s %dx%dx%d matches the host product", vt->vendor_sgemm_name,
                 gemms[i].m, gemms[i].n, gemms[i].k);
        tests[n++] = (struct CMUnitTest){gemms[i].name, vendor_sgemm_matches_host, NULL, NULL,
                                         &gemms[i]};
    }
    if (slot.provides.vendor_sgemm)
        tests[n++] = (struct CMUnitTest){TEST_BACKEND " vendor matrix multiply refuses bad "
                                         "sizes", vendor_sgemm_refuses_bad_sizes, NULL, NULL,
                                         NULL};
    return n;
}

int main(void)
{
    char why[1400];
    if (sb_registry_load(TEST_BACKEND, &slot)) {
        snprintf(why, sizeof why, "the " TEST_BACKEND " backend is not available: %s",
                 slot.reason);
        sb_registry_unload(&slot);
        return sb_test_skip_all(why);
    }
    vt = slot.vt;
    if (!slot.provides.vendor_transpose && !slot.provides.vendor_sgemm) {
        sb_registry_unload(&slot);
        return sb_test_skip_all("the " TEST_BACKEND " backend has no vendor library calls");
    }
    if (!names_right())
        return 1;
    sb_device_request req = {-1, -1};
    sb_device_info info;
    if (vt->open(&req, &dev, &info)) {
        snprintf(why, sizeof why, "no " TEST_BACKEND " device could be opened: %s",
                 vt->last_error());
        sb_registry_unload(&slot);
        return sb_test_skip_all(why);
    }
    if (vendor_library_missing(why, sizeof why)) {
        vt->close(dev);
        sb_registry_unload(&slot);
        return sb_test_skip_all(why);
    }
    printf("# %s, %s on %s (%s, %s)\n", vt->vendor_transpose_name, vt->vendor_sgemm_name,
           info.name, info.platform, info.api_version);
    struct CMUnitTest tests[NSIZES + NGEMMS + 2];
    int n = gather(tests);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = _cmocka_run_group_tests(TEST_BACKEND " vendor", tests, (size_t)n, NULL, NULL);
    vt->close(dev);
    sb_registry_unload(&slot);
    return failed;
}
