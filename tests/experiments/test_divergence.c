/* The divergence family on the host, with no device: its inputs are what
 * the variants claim (uniform input on one path, sorted input sorted,
 * random trip counts of mean exactly 128), each plan carries the model's
 * figures for its own input on a GPU's 32-lane warps and none that need a
 * warp on a CPU, and the check passes the outputs a kernel computing the
 * FMAs one by one would write and refuses a wrong element and one never
 * written. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

static sb_variant variant(const sb_experiment *e, const char *name)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int n = e->variants(vs, SB_MAX_VARIANTS);
    for (int i = 0; i < n; i++)
        if (strcmp(vs[i].name, name) == 0) {
            sb_variant v = vs[i];
            free(vs);
            return v;
        }
    fail_msg("no variant %s in %s", name, e->name);
    return vs[0];
}

static sb_device_info device(int gpu)
{
    sb_device_info d;
    memset(&d, 0, sizeof d);
    d.is_gpu = gpu;
    d.warp_size = gpu ? 32 : 0;
    d.compute_units = gpu ? 132 : 2;
    return d;
}

static sb_plan plan_of(const sb_experiment *e, void *host, long n, const char *name, int gpu)
{
    sb_problem p = {n, 1};
    sb_variant v = variant(e, name);
    sb_device_info dev = device(gpu);
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    char err[256];
    if (e->plan(host, &p, &v, &dev, &plan, err, sizeof err))
        fail_msg("%s/%s: %s", e->name, name, err);
    return plan;
}

/* The plan's figure called name; -1 where it has none. */
static double figure(const sb_plan *plan, const char *name)
{
    for (int i = 0; i < plan->nfigures; i++)
        if (strcmp(plan->figure[i].name, name) == 0)
            return plan->figure[i].value;
    return -1;
}

static void *prepare(const sb_experiment *e, long n)
{
    sb_problem p = {n, 1};
    void *host = NULL;
    char err[256];
    if (e->prepare(&p, 11, &host, err, sizeof err))
        fail_msg("%s: %s", e->name, err);
    return host;
}

/* What a kernel computing one FMA after another writes for element i,
 * the path and trip count as divergence.cl takes them. */
static float kernel_output(const char *kernel, int k, const uint32_t *in, long i)
{
    uint32_t w = in[i];
    float x = 1.0f + (float)(w & 255u) / 256.0f;
    int path = 0, fmas = 1024;
    if (strcmp(kernel, "split_by_lane") == 0)
        path = (int)(i % 32) & (k - 1);
    else if (strcmp(kernel, "split_by_warp") == 0)
        path = (int)(i / 32) & (k - 1);
    else if (strcmp(kernel, "loop_trips") == 0)
        fmas = 8 * (int)(w >> 8);
    else
        path = (int)(w >> 31);
    float a = 1.0f - (float)(path + 1) / 16384.0f, b = (float)(path + 1) / 64.0f;
    for (int j = 0; j < fmas; j++)
        x = fmaf(x, a, b);
    return x;
}

/* Every variant of e at n elements: the FMA-by-FMA outputs pass, one
 * changed element fails naming it, and the poison says never written. */
static void outputs_checked(const char *name, long n)
{
    const sb_experiment *e = experiment(name);
    void *host = prepare(e, n);
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int nv = e->variants(vs, SB_MAX_VARIANTS);
    float *out = malloc((size_t)n * sizeof *out);
    for (int v = 0; v < nv; v++) {
        sb_plan plan = plan_of(e, host, n, vs[v].name, 1);
        const uint32_t *in = plan.buffer[0].init;
        int k = plan.nargs == 4 ? plan.arg[1].i : 0;
        for (long i = 0; i < n; i++)
            out[i] = kernel_output(vs[v].kernel, k, in, i);
        sb_problem p = {n, 1};
        void *outputs[1] = {out};
        char err[256];
        if (e->verify(host, &p, &vs[v], outputs, err, sizeof err))
            fail_msg("%s/%s: %s", name, vs[v].name, err);
        long at = n / 2;
        out[at] = nextafterf(out[at], 0.0f);
        assert_int_equal(e->verify(host, &p, &vs[v], outputs, err, sizeof err), -1);
        char want[32];
        snprintf(want, sizeof want, "out[%ld] = ", at);
        assert_non_null(strstr(err, want));
        uint32_t poison = SB_POISON_WORD;
        memcpy(&out[at], &poison, 4);
        assert_int_equal(e->verify(host, &p, &vs[v], outputs, err, sizeof err), -1);
        assert_non_null(strstr(err, "never written"));
    }
    free(out);
    free(vs);
    e->release(host);
}

static void every_variant_checked(void **state)
{
    (void)state;
    const char *names[] = {"divergence_split", "divergence_branch", "divergence_predication",
                           "divergence_loop"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        outputs_checked(names[i], 1000);
        outputs_checked(names[i], 1);
    }
}

static void split_figures(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("divergence_split");
    void *host = prepare(e, 4096);
    for (int k = 1; k <= 32; k *= 2) {
        char lane[16], warp[16];
        snprintf(lane, sizeof lane, "lane-k%d", k);
        snprintf(warp, sizeof warp, "warp-k%d", k);
        sb_plan l = plan_of(e, host, 4096, lane, 1), w = plan_of(e, host, 4096, warp, 1);
        assert_double_equal(figure(&l, "warp_size"), 32, 0);
        assert_double_equal(figure(&l, "split_paths"), k, 0);
        assert_double_equal(figure(&l, "paths_per_warp"), k, 0);
        assert_double_equal(figure(&l, "predicted_slowdown"), k, 0);
        assert_double_equal(figure(&l, "work_per_path"), 1024, 0);
        assert_double_equal(figure(&w, "split_paths"), k, 0);
        assert_double_equal(figure(&w, "predicted_slowdown"), 1, 0);
        assert_int_equal(l.arg[1].i, k);
        /* A CPU: the split is still k paths, but no warp to predict from. */
        sb_plan cpu = plan_of(e, host, 4096, lane, 0);
        assert_double_equal(figure(&cpu, "warp_size"), 0, 0);
        assert_double_equal(figure(&cpu, "split_paths"), k, 0);
        assert_double_equal(figure(&cpu, "paths_per_warp"), -1, 0);
        assert_double_equal(figure(&cpu, "predicted_slowdown"), -1, 0);
    }
    e->release(host);
}

static void branch_inputs_and_figures(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("divergence_branch");
    long n = 1 << 16;
    void *host = prepare(e, n);
    sb_plan u = plan_of(e, host, n, "uniform", 1), s = plan_of(e, host, n, "sorted", 1),
            r = plan_of(e, host, n, "random", 1);
    const uint32_t *uniform = u.buffer[0].init, *sorted = s.buffer[0].init,
                   *random = r.buffer[0].init;
    long upper = 0;
    for (long i = 0; i < n; i++) {
        assert_int_equal(uniform[i] >> 31, 0);
        assert_int_equal(uniform[i], random[i] & 0x7fffffffu);
        assert_true(i == 0 || sorted[i - 1] <= sorted[i]);
        upper += random[i] >> 31;
    }
    assert_true(upper > n / 3 && upper < 2 * n / 3);
    assert_double_equal(figure(&u, "predicted_slowdown"), 1, 0);
    /* Sorted: at most the warp at the boundary meets both paths. */
    long both = 0;
    for (long w = 0; w < n; w += 32)
        both += sorted[w] >> 31 != sorted[w + 31] >> 31;
    assert_true(both <= 1);
    assert_double_equal(figure(&s, "paths_per_warp"), 1.0 + (double)both / (n / 32), 1e-12);
    /* Random: every warp of 32 coin tosses all but surely meets both. */
    assert_double_equal(figure(&r, "predicted_slowdown"), 2, 1e-3);
    e->release(host);

    /* Predicated, the same input runs one path; the real branch two. */
    e = experiment("divergence_predication");
    host = prepare(e, n);
    sb_plan pr = plan_of(e, host, n, "predicated-random", 1);
    sb_plan br = plan_of(e, host, n, "branch-random", 1);
    assert_memory_equal(pr.buffer[0].init, br.buffer[0].init, (size_t)n * 4);
    assert_double_equal(figure(&pr, "paths_per_warp"), 1, 0);
    assert_double_equal(figure(&br, "paths_per_warp"), 2, 1e-3);
    e->release(host);
}

static void loop_inputs_and_figures(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("divergence_loop");
    long n = 1 << 16;
    void *host = prepare(e, n);
    sb_plan u = plan_of(e, host, n, "uniform", 1), s = plan_of(e, host, n, "sorted", 1),
            r = plan_of(e, host, n, "random", 1);
    const uint32_t *random = r.buffer[0].init, *sorted = s.buffer[0].init,
                   *uniform = u.buffer[0].init;
    double sum = 0, max_sum = 0;
    for (long i = 0; i < n; i++) {
        long t = random[i] >> 8;
        assert_true(t >= 1 && t <= 255);
        assert_int_equal(uniform[i] >> 8, 128);
        assert_true(i == 0 || sorted[i - 1] <= sorted[i]);
        sum += (double)t;
    }
    for (long w = 0; w < n; w += 32) {
        long most = 0;
        for (long i = w; i < w + 32; i++)
            most = (long)(random[i] >> 8) > most ? (long)(random[i] >> 8) : most;
        max_sum += (double)most;
    }
    assert_double_equal(sum / (double)n, 128.0, 0);
    double want = max_sum / (double)(n / 32) / 128.0;
    assert_double_equal(figure(&r, "mean_trips"), 128, 0);
    assert_double_equal(figure(&r, "predicted_slowdown"), want, 1e-12);
    assert_true(want > 1.8 && want < 2.0); /* about 2 x 32/33: the warp's longest, not 1 */
    assert_double_equal(figure(&u, "predicted_slowdown"), 1, 0);
    assert_true(figure(&s, "predicted_slowdown") < 1.01);
    assert_double_equal(figure(&r, "work_per_trip"), 8, 0);
    sb_plan cpu = plan_of(e, host, n, "random", 0);
    assert_double_equal(figure(&cpu, "mean_trips"), 128, 0);
    assert_double_equal(figure(&cpu, "max_trips"), -1, 0);
    assert_double_equal(figure(&cpu, "predicted_slowdown"), -1, 0);
    e->release(host);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_variant_checked),
        cmocka_unit_test(split_figures),
        cmocka_unit_test(branch_inputs_and_figures),
        cmocka_unit_test(loop_inputs_and_figures),
    };
    SB_TEST_MAIN(tests);
}
