/* The host references of the tiling, coarsening, occupancy and
 * privatisation families, with no device: a right answer passes, the
 * poison (a NaN nothing wrote) and a wrong element fail, and the matmul
 * bound sits between float32 rounding and a real error, also where only a
 * sample of rows and columns is checked.  The checks and the input generation run on every thread: with
 * two elements wrong, the one a serial check meets first is reported, the
 * same way with one thread as with several, and the inputs are one serial
 * stream whatever the thread count. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "experiments/catalogue.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

/* The catalogue's experiment called `name`. */
static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

/* What a correct float32 kernel computes: float accumulation over i in
 * order, for each element (i outer so the loop walks b by rows). */
static float *float_product(const float *a, const float *b, long m, long n, long k)
{
    float *c = calloc((size_t)(m * n), sizeof *c);
    for (long r = 0; r < m; r++)
        for (long i = 0; i < k; i++) {
            float av = a[r * k + i];
            for (long j = 0; j < n; j++)
                c[r * n + j] += av * b[i * n + j];
        }
    return c;
}

static sb_variant first_variant(const sb_experiment *e, const char *name)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int n = e->variants(vs, SB_MAX_VARIANTS);
    sb_variant v = vs[0];
    for (int i = 0; i < n; i++)
        if (strcmp(vs[i].name, name) == 0)
            v = vs[i];
    free(vs);
    return v;
}

static void check_matmul(long rows, long cols)
{
    const sb_experiment *e = experiment("matmul");
    sb_problem p = {rows, cols};
    char err[512];
    void *host = NULL;
    assert_int_equal(e->prepare(&p, 7, &host, err, sizeof err), 0);
    sb_variant v = first_variant(e, "tiled32");
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    /* The inputs as the device gets them; m = rows, n = k = cols. */
    const float *a = plan.buffer[0].init, *b = plan.buffer[1].init;
    long m = rows, n = cols, k = cols;
    float *c = float_product(a, b, m, n, k);
    void *outputs[1] = {c};
    assert_int_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);

    /* One element never written, at the far corner. */
    long last = m * n - 1;
    float saved = c[last];
    uint32_t poison = SB_POISON_WORD;
    memcpy(&c[last], &poison, 4);
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "never written"));
    c[last] = saved;

    /* One product term too many in the first row's last element, which
       every check, sampled or not, covers. */
    long at = n - 1;
    c[at] += a[k - 1] * b[(k - 1) * n + at];
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "expected"));

    free(c);
    e->release(host);
}

static void matmul_full_check(void **state)
{
    (void)state;
    check_matmul(33, 47);
}

static void matmul_sampled_check(void **state)
{
    (void)state;
    /* 1025 x 1025 x 1025 is just past the full-check limit. */
    check_matmul(1025, 1025);
}

static void stream_family(const sb_experiment *e, const char *variant)
{
    sb_problem p = {1000, 1};
    char err[512];
    void *host = NULL;
    assert_int_equal(e->prepare(&p, 7, &host, err, sizeof err), 0);
    sb_variant v = first_variant(e, variant);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 4;
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    /* The right answer from the plan's own inputs: a (+ b). */
    const float *a = plan.buffer[0].init;
    const float *b = plan.nbuffers == 3 ? plan.buffer[1].init : NULL;
    float *c = malloc(1000 * sizeof *c);
    for (int i = 0; i < 1000; i++)
        c[i] = b ? a[i] + b[i] : a[i];
    void *outputs[1] = {c};
    assert_int_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    uint32_t poison = SB_POISON_WORD;
    memcpy(&c[999], &poison, 4);
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "never written"));
    free(c);
    e->release(host);
}

/* The histogram of n words into `bins` (a power of two) bins, counted
 * here the plain way. */
static uint32_t *count_bins(const uint32_t *in, long n, long bins)
{
    uint32_t *h = calloc((size_t)bins, sizeof *h);
    for (long i = 0; i < n; i++)
        h[in[i] & (uint32_t)(bins - 1)]++;
    return h;
}

/* A histogram variant's check: the right bins pass; one bin off by one,
 * a bin never written and a histogram of zeros (one launch alone) fail,
 * each saying so. */
static void histogram_check(const char *variant, long bins, int skewed)
{
    const sb_experiment *e = experiment("histogram");
    sb_problem p = {3000, 1};
    char err[512];
    void *host = NULL;
    assert_int_equal(e->prepare(&p, 7, &host, err, sizeof err), 0);
    sb_variant v = first_variant(e, variant);
    assert_string_equal(v.name, variant);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    assert_int_equal((long)plan.buffer[2].bytes, bins * 4);
    uint32_t *h = count_bins(plan.buffer[0].init, 3000, bins);
    if (skewed)
        assert_int_equal(h[0], 3000); /* every value in one bin */
    void *outputs[1] = {h};
    assert_int_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    h[bins - 1]++;
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    char want[64];
    snprintf(want, sizeof want, "bin %ld of %ld = ", bins - 1, bins);
    assert_non_null(strstr(err, want));
    h[bins - 1] = SB_POISON_WORD;
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "never written"));
    memset(h, 0, (size_t)bins * 4);
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "one launch alone leaves zeros"));
    free(h);
    e->release(host);
}

static void histogram_reference(void **state)
{
    (void)state;
    histogram_check("global-b256-uniform", 256, 0);
    histogram_check("shared_coarse-b65536-uniform", 65536, 0);
    histogram_check("thread-b32-skewed", 32, 1);
    histogram_check("warp-b1-uniform", 1, 0);
}

/* The sum modulo 2^32, and a wrong one named with the right. */
static void sum_reference(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("sum");
    sb_problem p = {5000, 1};
    char err[512];
    void *host = NULL;
    assert_int_equal(e->prepare(&p, 3, &host, err, sizeof err), 0);
    sb_variant v = first_variant(e, "block_coarse");
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    const uint32_t *in = plan.buffer[0].init;
    uint32_t total = 0;
    for (int i = 0; i < 5000; i++)
        total += in[i];
    void *outputs[1] = {&total};
    assert_int_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    total ^= 1u << 31;
    assert_int_not_equal(e->verify(host, &p, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "(modulo 2^32)"));
    e->release(host);
}

static void vecadd_reference(void **state)
{
    (void)state;
    stream_family(experiment("vecadd"), "coarse4");
}

static void occupancy_reference(void **state)
{
    (void)state;
    stream_family(experiment("occupancy"), "b128-g1x");
}

/* The occupancy grid: G blocks per unit, capped at one thread per element. */
static void occupancy_grid(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("occupancy");
    sb_problem p = {1L << 20, 1};
    char err[256];
    void *host = NULL;
    assert_int_equal(e->prepare(&p, 1, &host, err, sizeof err), 0);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 132;
    sb_plan plan;
    sb_variant v = first_variant(e, "b256-g2x");
    memset(&plan, 0, sizeof plan);
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    assert_int_equal(plan.geometry.grid[0], 264);
    assert_int_equal(plan.geometry.block[0], 256);
    v = first_variant(e, "b1024-full");
    memset(&plan, 0, sizeof plan);
    assert_int_equal(e->plan(host, &p, &v, &dev, &plan, err, sizeof err), 0);
    assert_int_equal(plan.geometry.grid[0], 1024);
    e->release(host);
}

/* ------------------------------------------- thread counts change nothing */

static void set_threads(int t)
{
#ifdef _OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

static const int thread_counts[] = {1, 2, 3, 8};

/* Runs the check with each thread count: it fails with the same message
 * every time, and the message names the element `first`. */
static void same_report(const sb_experiment *e, void *host, const sb_problem *p,
                        const sb_variant *v, void **outputs, const char *first)
{
    char once[512] = "", err[512];
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        set_threads(thread_counts[t]);
        err[0] = '\0';
        assert_int_not_equal(e->verify(host, p, v, outputs, err, sizeof err), 0);
        if (t == 0)
            memcpy(once, err, sizeof once);
        assert_string_equal(err, once);
    }
    if (!strstr(once, first))
        fail_msg("reported \"%s\", expected the element %s", once, first);
}

typedef struct prepared {
    void *host;
    sb_problem p;
    sb_variant v;
    sb_plan plan;
} prepared;

static void prepare_variant(const sb_experiment *e, long rows, long cols, const char *variant,
                            prepared *x)
{
    char err[256];
    x->p.rows = rows;
    x->p.cols = cols;
    assert_int_equal(e->prepare(&x->p, 5, &x->host, err, sizeof err), 0);
    x->v = first_variant(e, variant);
    assert_string_equal(x->v.name, variant);
    memset(&x->plan, 0, sizeof x->plan);
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 4;
    assert_int_equal(e->plan(x->host, &x->p, &x->v, &dev, &x->plan, err, sizeof err), 0);
}

/* The transposed check walks 64 x 64 blocks of a, block rows first: a's
 * element (0, 100) (block column 1 of block row 0) comes before (70, 0)
 * (block row 1), though c holds the second first. */
static void transpose_first_in_block_order(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("transpose");
    const long rows = 700, cols = 900;
    prepared x;
    prepare_variant(e, rows, cols, "tiled", &x);
    const uint32_t *a = x.plan.buffer[0].init;
    uint32_t *c = malloc((size_t)(rows * cols) * sizeof *c);
    for (long i = 0; i < rows; i++)
        for (long j = 0; j < cols; j++)
            c[j * rows + i] = a[i * cols + j];
    void *outputs[1] = {c};
    char err[512];
    assert_int_equal(e->verify(x.host, &x.p, &x.v, outputs, err, sizeof err), 0);
    c[0 * rows + 70] ^= 1;   /* a's (70, 0) */
    c[100 * rows + 0] ^= 1;  /* a's (0, 100) */
    c[899 * rows + 699] = SB_POISON_WORD;
    same_report(e, x.host, &x.p, &x.v, outputs, "c[100][0] =");

    /* The copy: index order, the smaller index first. */
    sb_variant copy = first_variant(e, "copy");
    memcpy(c, a, (size_t)(rows * cols) * sizeof *c);
    c[rows * cols - 1] ^= 4;
    c[123456] = SB_POISON_WORD;
    same_report(e, x.host, &x.p, &copy, outputs, "c[137][156] =");
    free(c);
    e->release(x.host);
}

/* Stride 2 of 4-byte words: the kernel's phase k takes in[2 x + k] for
 * lane x into out[k * lanes + x] (a load; a store writes out[2 x + k] from
 * in[k * lanes + x]), and the tail maps onto itself.  The check walks tiles
 * of lanes through both phases; the mismatch reported is still the one
 * with the smallest out index of the load (in index of the store). */
static void global_stride_first_in_dense_order(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("global_stride");
    static const char *const names[] = {"w4-s2-load", "w4-s2-store"};
    for (int store = 0; store <= 1; store++) {
        prepared x;
        /* 10 tiles of lanes and a tail of 40 words. */
        prepare_variant(e, 641, 1000, names[store], &x);
        const uint32_t *in = x.plan.buffer[0].init;
        long count = 641 * 1000, lanes = count / 64 * 32;
        uint32_t *out = malloc((size_t)count * sizeof *out);
        for (long g = 0; g < count; g++) {
            long k = g / lanes, xl = g % lanes, e_at = g < 2 * lanes ? 2 * xl + k : g;
            out[store ? e_at : g] = in[store ? g : e_at];
        }
        void *outputs[1] = {out};
        char err[512];
        assert_int_equal(e->verify(x.host, &x.p, &x.v, outputs, err, sizeof err), 0);
        /* Phase 1 of the first lanes, phase 0 of the last ones and the tail. */
        long early = 1 * lanes + 5, late = lanes - 3, tail = count - 1;
        long at[3] = {early, late, tail};
        for (int i = 0; i < 3; i++) {
            long g = at[i], k = g / lanes, xl = g % lanes, e_at = g < 2 * lanes ? 2 * xl + k : g;
            out[store ? e_at : g] ^= 0x100;
        }
        char first[64];
        if (store)
            snprintf(first, sizeof first, "out[%ld] =", 2 * (lanes - 3));
        else
            snprintf(first, sizeof first, "out[%ld] =", late);
        same_report(e, x.host, &x.p, &x.v, outputs, first);
        free(out);
        e->release(x.host);
    }
}

/* Shared loads with stride 1: thread g sums its lane's word and the seven
   32 words apart, 128 times over. */
static void shared_first_in_thread_order(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("shared_stride");
    const long threads = 200000;
    prepared x;
    prepare_variant(e, 1, threads, "w4-s1-load", &x);
    const uint32_t *in = x.plan.buffer[0].init;
    uint32_t *out = malloc((size_t)threads * sizeof *out);
    for (long g = 0; g < threads; g++) {
        uint32_t sum = 0;
        for (int u = 0; u < 8; u++)
            sum += in[g % 32 + 32 * u];
        out[g] = 128 * sum;
    }
    void *outputs[1] = {out};
    char err[512];
    assert_int_equal(e->verify(x.host, &x.p, &x.v, outputs, err, sizeof err), 0);
    out[199999] = SB_POISON_WORD;
    out[70001] += 1;
    out[150000] = 0;
    same_report(e, x.host, &x.p, &x.v, outputs, "out[70001] =");
    free(out);
    e->release(x.host);
}

/* The row walk: thread t sums column t of the matrix. */
static void walk_first_thread(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("global_walk");
    const long rows = 3, cols = 50000;
    prepared x;
    prepare_variant(e, rows, cols, "row", &x);
    const uint32_t *m = x.plan.buffer[0].init;
    uint32_t *out = calloc((size_t)cols, sizeof *out);
    for (long k = 0; k < rows; k++)
        for (long t = 0; t < cols; t++)
            out[t] += m[k * cols + t];
    void *outputs[1] = {out};
    char err[512];
    assert_int_equal(e->verify(x.host, &x.p, &x.v, outputs, err, sizeof err), 0);
    out[49000] ^= 1;
    out[9000] = SB_POISON_WORD;
    same_report(e, x.host, &x.p, &x.v, outputs, "out[9000] =");
    free(out);
    e->release(x.host);
}

/* The generator: one xorshift64* stream from the seed, as a serial loop
 * makes it, whatever the thread count and wherever a thread starts. */
static uint64_t serial_state(uint64_t seed)
{
    return seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
}

static uint64_t serial_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static void random_fill_is_one_stream(void **state)
{
    (void)state;
    const size_t n = 5 * 65536 + 7;
    float *f = malloc(n * sizeof *f);
    uint32_t *w = malloc(n * sizeof *w);
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        set_threads(thread_counts[t]);
        sb_random_floats(f, n, 42);
        sb_random_words(w, n, 43);
        uint64_t sf = serial_state(42), sw = serial_state(43);
        for (size_t i = 0; i < n; i++) {
            float want = (float)((double)(serial_next(&sf) >> 40) / (double)(1u << 23) - 1.0);
            uint32_t want_word = (uint32_t)(serial_next(&sw) >> 32);
            if (memcmp(&f[i], &want, 4) != 0 || w[i] != want_word)
                fail_msg("value %zu differs from the serial stream with %d threads", i,
                         thread_counts[t]);
        }
    }
    free(f);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matmul_full_check),   cmocka_unit_test(matmul_sampled_check),
        cmocka_unit_test(vecadd_reference),    cmocka_unit_test(occupancy_reference),
        cmocka_unit_test(occupancy_grid),
        cmocka_unit_test(histogram_reference),   cmocka_unit_test(sum_reference),
        cmocka_unit_test(transpose_first_in_block_order),
        cmocka_unit_test(global_stride_first_in_dense_order),
        cmocka_unit_test(shared_first_in_thread_order),
        cmocka_unit_test(walk_first_thread),
        cmocka_unit_test(random_fill_is_one_stream),
    };
    SB_TEST_MAIN(tests);
}
