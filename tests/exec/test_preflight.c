/* The memory preflight: its footprints against what each experiment
 * really allocates, its budgets, and its verdict on sessions whose device
 * memory is set by the test.  No device: the sessions are fakes with only
 * the fields the preflight reads. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/options.h"
#include "cli/run_request.h"
#include "experiments/catalogue.h"
#include "exec/preflight.h"
#include "plan/suite.h"

static uint64_t fake_free, fake_total;

static int fake_memory(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes)
{
    (void)dev;
    *free_bytes = fake_free;
    *total_bytes = fake_total;
    return 0;
}

static sb_backend fake_backend = {.abi = SB_BACKEND_ABI, .name = "fake", .memory = fake_memory};

/* A session on a GPU-like device (the CPU-like one when cpu is set). */
static void fake_session(sb_session *s, int cpu)
{
    memset(s, 0, sizeof *s);
    snprintf(s->slot.name, sizeof s->slot.name, "fake");
    s->slot.vt = &fake_backend;
    s->slot.available = 1;
    snprintf(s->info.name, sizeof s->info.name, cpu ? "a CPU" : "a GPU");
    s->info.is_gpu = !cpu;
    s->info.compute_units = cpu ? 2 : 132;
    s->info.local_mem_bytes = cpu ? 1 << 20 : 48 << 10;
    s->info.max_group_size = 1024;
    s->info.warp_size = cpu ? 0 : 32;
    s->info.l2_bytes = 50 << 20;
    s->info.global_mem_bytes = 80ull << 30;
}

/* The suite of one experiment (or family) with every variant. */
static void suite_of(const char *experiment, long rows, long cols, sb_suite *s)
{
    sb_options o;
    sb_options_defaults(&o);
    o.nexperiments = 1;
    snprintf(o.experiments[0], sizeof o.experiments[0], "%s", experiment);
    o.all_variants = 1;
    o.rows = rows;
    o.cols = cols;
    char err[256];
    sb_run_request request;
    sb_options_request(&o, &request);
    assert_int_equal(sb_suite_plan(&request, s, err, sizeof err), SB_EXIT_OK);
}

static void assert_close(double estimated, double exact, const char *what, const char *name,
                         sb_problem p)
{
    /* Rounding a probe's dimensions costs a little; a reference that is
       complete at the probes' sizes and sampled at the target's (matmul)
       makes the estimate larger, never smaller. */
    if (estimated < exact * 0.99 || estimated > exact * 2.5 + 4096)
        fail_msg("%s at %ldx%ld: %s estimated %.0f, allocated %.0f", name, p.rows, p.cols, what,
                 estimated, exact);
    if (getenv("SB_PREFLIGHT_VERBOSE"))
        printf("# %s %ldx%ld %s %.4f\n", name, p.rows, p.cols, what, estimated / exact);
}

/* Extrapolated from small probes, a footprint is what preparing at the
 * size itself gives, for every experiment and shape. */
static void estimates_match_measurements(void **state)
{
    (void)state;
    const sb_problem sizes[] = {{300, 300}, {1, 100000}, {40, 3000}, {3000, 40}, {257, 1023}};
    sb_session sessions[2];
    fake_session(&sessions[0], 0);
    fake_session(&sessions[1], 1);
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            sb_suite s;
            suite_of(e->name, sizes[k].rows, sizes[k].cols, &s);
            for (int x = 0; x < s.nexperiments; x++) {
                sb_footprint exact[2], estimated[2];
                if (sb_footprint_estimate(&s, &s.experiments[x], sessions, 2, sizes[k], 1, exact))
                    continue; /* the experiment refuses the size */
                assert_int_equal(sb_footprint_estimate(&s, &s.experiments[x], sessions, 2,
                                                       sizes[k], 0, estimated),
                                 0);
                for (int d = 0; d < 2; d++) {
                    const char *name = s.experiments[x].e->name;
                    assert_true(exact[d].device > 0 && exact[d].host > exact[d].device * d);
                    assert_close(estimated[d].device, exact[d].device, "device", name, sizes[k]);
                    assert_close(estimated[d].largest, exact[d].largest, "largest", name,
                                 sizes[k]);
                    assert_close(estimated[d].host, exact[d].host, "host", name, sizes[k]);
                }
            }
            sb_suite_free(&s);
        }
    }
}

/* vecadd: three buffers of N*N floats on the device; on the host its two
 * inputs, the read-back and the poison, and on a CPU device the device's
 * buffers as well. */
static void vecadd_footprint(void **state)
{
    (void)state;
    sb_session sessions[2];
    fake_session(&sessions[0], 0);
    fake_session(&sessions[1], 1);
    sb_options o;
    sb_options_defaults(&o);
    o.nexperiments = 1;
    snprintf(o.experiments[0], sizeof o.experiments[0], "vecadd");
    o.nvariants = 1;
    snprintf(o.variants[0], sizeof o.variants[0], "coarse1");
    sb_suite s;
    char err[256];
    sb_run_request request;
    sb_options_request(&o, &request);
    assert_int_equal(sb_suite_plan(&request, &s, err, sizeof err), SB_EXIT_OK);
    sb_problem p = {46340, 46340};
    sb_footprint fp[2];
    assert_int_equal(sb_footprint_estimate(&s, &s.experiments[0], sessions, 2, p, 0, fp), 0);
    double buffer = 46340.0 * 46340.0 * 4.0;
    assert_double_equal(fp[0].device, 3 * buffer, buffer * 1e-6);
    assert_double_equal(fp[0].largest, buffer, buffer * 1e-6);
    assert_double_equal(fp[0].host, 4 * buffer, buffer * 1e-6);
    assert_double_equal(fp[1].host, 7 * buffer, buffer * 1e-6);
    sb_suite_free(&s);
}

/* Which budget a footprint exceeds, in the words of the message. */
static void budgets(void **state)
{
    (void)state;
    sb_footprint f = {.device = 300, .largest = 100, .host = 500};
    sb_memory_budget b = {.device = 300, .max_alloc = 100, .host = 500};
    assert_null(sb_footprint_exceeds(&f, &b));
    b.device = 299;
    assert_string_equal(sb_footprint_exceeds(&f, &b), "device memory");
    b.device = 0; /* unknown: not checked */
    b.max_alloc = 99;
    assert_string_equal(sb_footprint_exceeds(&f, &b), "one allocation");
    b.max_alloc = 0;
    b.host = 499;
    assert_string_equal(sb_footprint_exceeds(&f, &b), "host memory");
    b.host = 0;
    assert_null(sb_footprint_exceeds(&f, &b));

    sb_session s;
    fake_session(&s, 0);
    fake_free = 5, fake_total = 9;
    sb_memory_budget_of(&s, &b);
    assert_true(b.device == 5 && b.device_is_free);
    fake_free = 0; /* OpenCL: no free count, the total */
    sb_memory_budget_of(&s, &b);
    assert_true(b.device == 9 && !b.device_is_free);
    fake_total = 0; /* nothing from the backend: the device's size */
    sb_memory_budget_of(&s, &b);
    assert_true(b.device == 80ull << 30);
}

/* The host's memory, and the room an address-space limit leaves. */
static void host_available(void **state)
{
    (void)state;
    uint64_t all = sb_host_available();
    assert_true(all > 0);
    struct rlimit old, rl;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long vm_kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &vm_kb) == 1)
            break;
    if (f)
        fclose(f);
    assert_true(vm_kb > 0);
    rl = old;
    rl.rlim_cur = (rlim_t)(vm_kb * 1024 + (256ull << 20));
    if (old.rlim_max != RLIM_INFINITY && rl.rlim_cur > old.rlim_max)
        return;
    assert_int_equal(setrlimit(RLIMIT_AS, &rl), 0);
    uint64_t limited = sb_host_available();
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    assert_true(limited > 0 && limited <= (256ull << 20) + (16ull << 20));
    assert_true(limited <= all);
}

/* The verdict on a run: fits, or one line with the bytes and the largest
 * size that fits, which itself fits while the next one up does not. */
static void verdicts(void **state)
{
    (void)state;
    sb_session s;
    fake_session(&s, 0);
    sb_suite suite;
    suite_of("transpose", 8000, 8000, &suite);
    char err[1024];
    fake_free = 0;
    fake_total = 1000000000;
    assert_int_equal(sb_preflight(&suite, &s, 1, err, sizeof err), SB_EXIT_OK);
    fake_total = 256000000;
    assert_int_equal(sb_preflight(&suite, &s, 1, err, sizeof err), SB_EXIT_RUNTIME);
    assert_null(strchr(err, '\n'));
    assert_non_null(strstr(err, "transpose at --size 8000 does not fit"));
    assert_non_null(strstr(err, "512.0 MB of device memory on fake (a GPU)"));
    assert_non_null(strstr(err, "256.0 MB in all"));
    const char *best = strstr(err, "the largest size that fits is --size ");
    assert_non_null(best);
    long n = atol(best + strlen("the largest size that fits is --size "));
    assert_true(n > 1000 && n < 8000);
    sb_footprint fp;
    sb_memory_budget b;
    sb_memory_budget_of(&s, &b);
    b.host = 0;
    assert_int_equal(sb_footprint_estimate(&suite, &suite.experiments[0], &s, 1,
                                           (sb_problem){n, n}, 0, &fp),
                     0);
    assert_null(sb_footprint_exceeds(&fp, &b));
    assert_int_equal(sb_footprint_estimate(&suite, &suite.experiments[0], &s, 1,
                                           (sb_problem){n + 1, n + 1}, 0, &fp),
                     0);
    assert_non_null(sb_footprint_exceeds(&fp, &b));
    fake_total = 4; /* not even the smallest size, two floats, fits */
    assert_int_equal(sb_preflight(&suite, &s, 1, err, sizeof err), SB_EXIT_RUNTIME);
    assert_non_null(strstr(err, "no size fits"));
    sb_suite_free(&suite);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimates_match_measurements),
        cmocka_unit_test(vecadd_footprint),
        cmocka_unit_test(budgets),
        cmocka_unit_test(host_available),
        cmocka_unit_test(verdicts),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
