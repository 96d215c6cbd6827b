/* Batched timing of one backend (TEST_BACKEND), called through the vtable
 * as the runner calls it: kernel launches, API copies and the vendor
 * transpose queued back to back between batch_begin and batch_end, each
 * with its own device time, and the ways a batch can be misused.  Built
 * twice: for OpenCL it runs on PoCL in CI; for CUDA it needs a GPU and is
 * skipped, with the reason, where there is none. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "plan/kernel_source.h"
#include "exec/registry.h"

#ifndef TEST_BACKEND
#error "TEST_BACKEND must name the backend under test"
#endif

#define CHAIN 8            /* operations in the batches of the chain tests */
#define ELEMS (64 * 1024)  /* floats per buffer: 256 KiB, long enough to time */
#define BYTES (ELEMS * sizeof(float))
#define UNSET -1.0         /* an ms no batch has written */

static sb_backend_slot slot;
static const sb_backend *vt;
static sb_device *dev;
static sb_program *prog;
static sb_kernel *copy_kernel; /* copy_grid_stride(n, a, c): c[i] = a[i] */
static float *pattern, *got;

static void fill_pattern(float *a, size_t n, uint32_t seed)
{
    uint32_t x = seed ? seed : 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        a[i] = (float)(x >> 8) / (float)(1u << 24);
    }
}

/* CHAIN + 1 buffers: the first holds the pattern, the others NaN, so a
 * link of the chain that did not run (or ran out of order, before the one
 * that feeds it) leaves NaN at the end. */
static void make_chain(sb_buffer **b)
{
    memset(got, 0xff, BYTES);
    for (int i = 0; i <= CHAIN; i++) {
        b[i] = NULL;
        if (vt->alloc(dev, BYTES, &b[i]) || vt->upload(b[i], i ? got : pattern, BYTES))
            fail_msg("alloc/upload: %s", vt->last_error());
    }
}

static void free_chain(sb_buffer **b)
{
    for (int i = 0; i <= CHAIN; i++)
        vt->free(b[i]);
}

/* Every buffer of the chain holds the pattern. */
static void check_chain(sb_buffer **b)
{
    for (int i = 1; i <= CHAIN; i++) {
        memset(got, 0, BYTES);
        if (vt->download(got, b[i], BYTES))
            fail_msg("download: %s", vt->last_error());
        if (memcmp(got, pattern, BYTES)) {
            size_t k = 0;
            while (k < ELEMS && !memcmp(&got[k], &pattern[k], sizeof(float)))
                k++;
            fail_msg("buffer %d of the chain: element %zu is %g, want %g", i, k,
                     (double)got[k], (double)pattern[k]);
        }
    }
}

static void check_times(const double *ms, int n)
{
    for (int i = 0; i < n; i++) {
        printf("# operation %d: %.4f ms\n", i + 1, ms[i]);
        if (!(isfinite(ms[i]) && ms[i] > 0.0 && ms[i] < 60e3))
            fail_msg("operation %d of the batch: time %g ms", i + 1, ms[i]);
    }
}

static int launch_copy(sb_buffer *dst, sb_buffer *src, double *ms)
{
    sb_arg args[3] = {{.kind = SB_ARG_INT, .v.i = ELEMS},
                      {.kind = SB_ARG_BUFFER, .v.buf = src},
                      {.kind = SB_ARG_BUFFER, .v.buf = dst}};
    sb_launch g = {{64, 1, 1}, {128, 1, 1}};
    return vt->launch(copy_kernel, &g, args, 3, ms);
}

/* Launch i copies buffer i into buffer i + 1: the last buffer holds the
 * pattern only if every launch ran, in order. */
static void launches_in_a_batch(void **state)
{
    (void)state;
    sb_buffer *b[CHAIN + 1];
    double ms[CHAIN];
    make_chain(b);
    for (int i = 0; i < CHAIN; i++)
        ms[i] = UNSET;
    if (vt->batch_begin(dev, CHAIN))
        fail_msg("batch_begin: %s", vt->last_error());
    for (int i = 0; i < CHAIN; i++)
        if (launch_copy(b[i + 1], b[i], &ms[i]))
            fail_msg("launch %d: %s", i + 1, vt->last_error());
    if (vt->batch_end(dev))
        fail_msg("batch_end: %s", vt->last_error());
    check_times(ms, CHAIN);
    check_chain(b);
    free_chain(b);
}

static void copies_in_a_batch(void **state)
{
    (void)state;
    sb_buffer *b[CHAIN + 1];
    double ms[CHAIN];
    make_chain(b);
    for (int i = 0; i < CHAIN; i++)
        ms[i] = UNSET;
    if (vt->batch_begin(dev, CHAIN))
        fail_msg("batch_begin: %s", vt->last_error());
    for (int i = 0; i < CHAIN; i++)
        if (vt->copy(b[i + 1], b[i], BYTES, &ms[i]))
            fail_msg("copy %d: %s", i + 1, vt->last_error());
    if (vt->batch_end(dev))
        fail_msg("batch_end: %s", vt->last_error());
    check_times(ms, CHAIN);
    check_chain(b);
    free_chain(b);
}

/* A transpose there and back, twice: the matrix comes back bit for bit
 * only if all four ran, in order. */
static void vendor_transposes_in_a_batch(void **state)
{
    (void)state;
    const int rows = 64, cols = 48;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    sb_buffer *a = NULL, *t = NULL;
    double ms[4] = {UNSET, UNSET, UNSET, UNSET};
    memset(got, 0xff, bytes);
    if (vt->alloc(dev, bytes, &a) || vt->alloc(dev, bytes, &t) || vt->upload(a, pattern, bytes) ||
        vt->upload(t, got, bytes))
        fail_msg("alloc/upload: %s", vt->last_error());
    if (vt->batch_begin(dev, 4))
        fail_msg("batch_begin: %s", vt->last_error());
    for (int i = 0; i < 4; i += 2)
        if (vt->vendor_transpose(t, a, rows, cols, &ms[i]) ||
            vt->vendor_transpose(a, t, cols, rows, &ms[i + 1]))
            fail_msg("%s %d: %s", vt->vendor_transpose_name, i + 1, vt->last_error());
    if (vt->batch_end(dev))
        fail_msg("batch_end: %s", vt->last_error());
    check_times(ms, 4);
    if (vt->download(got, a, bytes))
        fail_msg("download: %s", vt->last_error());
    assert_memory_equal(got, pattern, bytes);
    if (vt->download(got, t, bytes))
        fail_msg("download: %s", vt->last_error());
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            if (memcmp(&got[j * rows + i], &pattern[i * cols + j], sizeof(float)))
                fail_msg("transpose[%d][%d] is %g, want %g", j, i, (double)got[j * rows + i],
                         (double)pattern[i * cols + j]);
    vt->free(t);
    vt->free(a);
}

/* One timed copy outside any batch works and is timed. */
static void check_usable(void)
{
    sb_buffer *x = NULL, *y = NULL;
    double ms = UNSET;
    if (vt->alloc(dev, BYTES, &x) || vt->alloc(dev, BYTES, &y) ||
        vt->upload(x, pattern, BYTES))
        fail_msg("alloc/upload: %s", vt->last_error());
    if (launch_copy(y, x, &ms))
        fail_msg("a launch after the batch: %s", vt->last_error());
    check_times(&ms, 1);
    if (vt->download(got, y, BYTES))
        fail_msg("download: %s", vt->last_error());
    assert_memory_equal(got, pattern, BYTES);
    vt->free(y);
    vt->free(x);
}

static void empty_batch(void **state)
{
    (void)state;
    if (vt->batch_begin(dev, 4))
        fail_msg("batch_begin: %s", vt->last_error());
    if (vt->batch_end(dev))
        fail_msg("batch_end of an empty batch: %s", vt->last_error());
    check_usable();
}

/* A size out of range, and an end with no beginning, are refused with a
 * message, and leave no batch open behind them. */
static void bad_sizes_refused(void **state)
{
    (void)state;
    const int bad[] = {0, -1, SB_BATCH_MAX + 1, 1 << 30};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(vt->batch_begin(dev, bad[i]), -1);
        assert_non_null(strstr(vt->last_error(), "batch"));
    }
    assert_int_equal(vt->batch_end(dev), -1);
    assert_non_null(strstr(vt->last_error(), "batch"));
    check_usable();
    /* The largest batch is allowed. */
    if (vt->batch_begin(dev, SB_BATCH_MAX) || vt->batch_end(dev))
        fail_msg("a batch of SB_BATCH_MAX: %s", vt->last_error());
}

/* Inside a batch: an untimed operation, one beyond max and a second
 * batch_begin fail; the operations that were queued are still timed. */
static void misuse_inside_a_batch(void **state)
{
    (void)state;
    sb_buffer *b[CHAIN + 1];
    double ms[3] = {UNSET, UNSET, UNSET};
    make_chain(b);
    if (vt->batch_begin(dev, 2))
        fail_msg("batch_begin: %s", vt->last_error());
    assert_int_equal(vt->batch_begin(dev, 2), -1);
    assert_int_equal(launch_copy(b[1], b[0], NULL), -1);
    assert_non_null(strstr(vt->last_error(), "untimed"));
    assert_int_equal(vt->copy(b[1], b[0], BYTES, NULL), -1);
    if (launch_copy(b[1], b[0], &ms[0]) || vt->copy(b[2], b[1], BYTES, &ms[1]))
        fail_msg("%s", vt->last_error());
    assert_int_equal(launch_copy(b[3], b[2], &ms[2]), -1);
    assert_non_null(strstr(vt->last_error(), "holds"));
    if (vt->batch_end(dev))
        fail_msg("batch_end: %s", vt->last_error());
    check_times(ms, 2);
    assert_true(ms[2] == UNSET);
    memset(got, 0, BYTES);
    if (vt->download(got, b[2], BYTES))
        fail_msg("download: %s", vt->last_error());
    assert_memory_equal(got, pattern, BYTES);
    free_chain(b);
    check_usable();
}

/* An operation that fails in the middle of a batch (a copy past the end
 * of its buffer) is left out; those around it run and are timed, and
 * batch_end leaves the device usable. */
static void failure_inside_a_batch(void **state)
{
    (void)state;
    sb_buffer *b[CHAIN + 1], *small = NULL;
    double ms[3] = {UNSET, UNSET, UNSET};
    make_chain(b);
    if (vt->alloc(dev, BYTES / 2, &small))
        fail_msg("alloc: %s", vt->last_error());
    if (vt->batch_begin(dev, 3))
        fail_msg("batch_begin: %s", vt->last_error());
    if (vt->copy(b[1], b[0], BYTES, &ms[0]))
        fail_msg("copy 1: %s", vt->last_error());
    assert_int_equal(vt->copy(small, b[1], BYTES, &ms[1]), -1);
    assert_true(vt->last_error()[0] != '\0');
    if (vt->copy(b[2], b[1], BYTES, &ms[2]))
        fail_msg("copy 3: %s", vt->last_error());
    if (vt->batch_end(dev))
        fail_msg("batch_end: %s", vt->last_error());
    assert_true(ms[1] == UNSET);
    ms[1] = ms[2];
    check_times(ms, 2);
    memset(got, 0, BYTES);
    if (vt->download(got, b[2], BYTES))
        fail_msg("download: %s", vt->last_error());
    assert_memory_equal(got, pattern, BYTES);
    vt->free(small);
    free_chain(b);
    check_usable();
}

static void cleanup(void)
{
    if (copy_kernel)
        vt->release_kernel(copy_kernel);
    if (prog)
        vt->release_program(prog);
    if (dev)
        vt->close(dev);
    sb_registry_unload(&slot);
    free(pattern);
    free(got);
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
    if (!slot.provides.batch) {
        printf("Bail out! the " TEST_BACKEND " backend has no batch_begin/batch_end\n");
        return 1;
    }
    sb_device_request req = {-1, -1};
    sb_device_info info;
    if (vt->open(&req, &dev, &info)) {
        snprintf(why, sizeof why, "no " TEST_BACKEND " device could be opened: %s",
                 vt->last_error());
        dev = NULL;
        cleanup();
        return sb_test_skip_all(why);
    }
    printf("# batches on %s (%s, %s)\n", info.name, info.platform, info.api_version);
    pattern = malloc(BYTES);
    got = malloc(BYTES);
    char *source = sb_kernel_source(vt->prelude, "copy.cl", why, sizeof why);
    if (!pattern || !got || !source || vt->build(dev, source, NULL, 0, &prog) ||
        vt->kernel(prog, "copy_grid_stride", &copy_kernel)) {
        printf("Bail out! %s\n", !pattern || !got ? "out of memory" : source ? vt->last_error() : why);
        free(source);
        cleanup();
        return 1;
    }
    free(source);
    fill_pattern(pattern, ELEMS, 12345);

    struct CMUnitTest tests[] = {
        cmocka_unit_test(launches_in_a_batch),
        cmocka_unit_test(copies_in_a_batch),
        cmocka_unit_test(empty_batch),
        cmocka_unit_test(bad_sizes_refused),
        cmocka_unit_test(misuse_inside_a_batch),
        cmocka_unit_test(failure_inside_a_batch),
        cmocka_unit_test(vendor_transposes_in_a_batch),
    };
    size_t n = sizeof tests / sizeof *tests;
    /* The vendor row needs its library, which the backend opens at run
       time: an untimed transpose outside a batch says whether it can run
       here. */
    sb_buffer *x = NULL, *y = NULL;
    if (!slot.provides.vendor_transpose) {
        printf("# no vendor transpose in this build: its batch is not tested\n");
        n--;
    } else if (vt->alloc(dev, 4 * sizeof(float), &x) || vt->alloc(dev, 4 * sizeof(float), &y) ||
               vt->vendor_transpose(y, x, 2, 2, NULL)) {
        printf("# %s cannot run here, its batch is not tested: %s\n", vt->vendor_transpose_name,
               vt->last_error());
        n--;
    }
    if (y)
        vt->free(y);
    if (x)
        vt->free(x);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = _cmocka_run_group_tests(TEST_BACKEND " batch", tests, n, NULL, NULL);
    cleanup();
    return failed;
}
