/* The variants of every experiment in the catalogue (a sample of each in
 * make check, every one with SB_TEST_EXHAUSTIVE: see tests/test_sample.h), run
 * and verified on one backend (TEST_BACKEND) at the experiment's test
 * sizes; and the timing
 * loop over several batches, with and without the backend's batching, for
 * each kind of timed operation; and a variant too big for the device left
 * out while the rest runs.  Built twice: for OpenCL it runs on PoCL in
 * CI; for CUDA it needs a GPU and is skipped, with the reason, where there
 * is none. */
#include "test_util.h"
#include "test_sample.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/pattern.h"
#include "analysis/analysis.h"
#include "exec/executor.h"
#include "plan/kernel_source.h"
#include "cli/options.h"
#include "cli/run_request.h"
#include "exec/registry.h"
#include "exec/session.h"
#include "plan/suite.h"
#include "exec/timing.h"
#include "experiments/variant.h"

#ifndef TEST_BACKEND
#error "TEST_BACKEND must name the backend under test"
#endif

#define MAX_CASES 256

typedef struct run_case {
    const sb_experiment *e;
    long rows, cols;
    char name[96];
} run_case;

static sb_session session;
static run_case cases[MAX_CASES];

/* Whether the size leaves variant v out (a sweep's working set larger
 * than the size): the run notes it and measures nothing. */
static int left_out(const sb_experiment *e, void *host, const sb_problem *p, const sb_variant *v)
{
    sb_plan plan;
    char err[512];
    memset(&plan, 0, sizeof plan);
    /* The device says it cannot hold the variant (fits): left out unbuilt. */
    if (e->fits && e->fits(v, &session.info, err, sizeof err) != 0)
        return 1;
    return host && e->plan(host, p, v, &session.info, &plan, err, sizeof err) == SB_PLAN_LEFT_OUT;
}

/* The variants this backend can run at the case's size: a vendor row
 * needs the backend to have been built with its library, and those the
 * size leaves out are not run. */
static int count_variants(const sb_experiment *e, const sb_options *o)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int n = e->variants(vs, SB_MAX_VARIANTS), runnable = 0;
    sb_problem p = {o->rows, o->cols};
    void *host = NULL;
    char err[512];
    if (e->prepare(&p, o->seed, &host, err, sizeof err))
        host = NULL;
    sb_run_request request;
    sb_options_request(o, &request);
    for (int i = 0; i < n; i++)
        runnable += sb_variant_selected(&request, &vs[i], i, n) &&
                    (vs[i].role != SB_ROLE_VENDOR ||
                     sb_vendor_provided(&session.slot.provides, vs[i].vendor)) &&
                    !left_out(e, host, &p, &vs[i]);
    if (host)
        e->release(host);
    free(vs);
    return runnable;
}

/* The pipeline on one session: the options planned into a suite for the
 * experiment e, executed, and analysed; the executor's status. */
static int run_pipeline(sb_options *o, sb_session *s, const sb_experiment *e, sb_run *run)
{
    snprintf(o->experiments[0], sizeof o->experiments[0], "%s", e->name);
    o->nexperiments = 1;
    sb_suite suite;
    char err[512];
    sb_run_request request;
    sb_options_request(o, &request);
    int status = sb_suite_plan(&request, &suite, err, sizeof err);
    if (status)
        fail_msg("the suite plan refused: %s", err);
    assert_int_equal(suite.nexperiments, 1);
    assert_ptr_equal(suite.experiments[0].e, e);
    memset(run, 0, sizeof *run);
    run->ndevices = 1;
    run->devices[0].info = s->info;
    s->run_device = 0;
    status = sb_execute(&suite, s, 1, run, NULL, NULL);
    sb_analysis analysis;
    assert_int_equal(sb_analyse(run, NULL, &analysis), 0);
    sb_analysis_free(&analysis);
    sb_suite_free(&suite);
    return status;
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

/* The names of make check's sample of e's variants (tests/test_sample.h),
 * at most max of them; their count.  Of the long sweeps, the exhaustive
 * run takes every default variant and every 7th (each word size and
 * direction at strides spread over the sweep); the whole sweeps are built
 * through NVRTC by make check-exhaustive's test_cuda_nvrtc.  A whole sweep on PoCL:
 * simtbench --backend opencl --experiment NAME --variant all. */
static int quick_sample(const sb_experiment *e, char (*names)[48], int max)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    int n = e->variants(vs, SB_MAX_VARIANTS), picked = 0;
    for (int i = 0; i < n && picked < max; i++)
        if (sb_test_sampled(vs, n, i))
            snprintf(names[picked++], sizeof names[0], "%s", vs[i].name);
    free(vs);
    return picked;
}

/* The variants o selects, run at the case's size: each must run and
 * verify, so the run adds one verified row per variant and returns
 * success. */
static void run_selected(const run_case *c, sb_options *o)
{
    give_pattern_rows(c->e);
    sb_run run;
    int status = run_pipeline(o, &session, c->e, &run);
    assert_int_equal(status, SB_EXIT_OK);
    assert_int_equal((int)run.nresults, count_variants(c->e, o));
    for (size_t i = 0; i < run.nresults; i++) {
        assert_true(run.results[i].verified);
        assert_true(run.results[i].ms.median > 0.0);
        assert_true(run.results[i].value > 0.0);
        assert_int_equal(run.results[i].rows, c->rows);
        /* The launch family is timed on the host's clock too. */
        if (strcmp(run.results[i].family, "launch") == 0) {
            assert_int_equal((int)run.results[i].host_observed.n, o->reps);
            assert_true(run.results[i].host_observed.median > 0.0);
            assert_true(run.results[i].launches_per_s > 0.0);
            assert_true(run.results[i].queued_launches >= SB_QUEUE_MIN);
        } else {
            assert_int_equal((int)run.results[i].host_observed.n, 0);
        }
    }
    sb_run_free(&run);
}

/* Every variant of the sample at one size (tests/test_sample.h), run as
 * runs of at most SB_MAX_NAMES named variants. */
static void run_all_variants(void **state)
{
    run_case *c = *state;
    sb_options o;
    sb_options_defaults(&o);
    o.reps = 2;
    o.warmup = 0; /* no time-based warm-up: every variant of every experiment runs here */
    o.quiet = 1;
    o.rows = c->rows;
    o.cols = c->cols;
    if (!SB_TEST_SAMPLING) {
        o.all_variants = 1;
        o.sample_every = 7;
        run_selected(c, &o);
        return;
    }
    static char names[SB_MAX_VARIANTS][sizeof o.variants[0]];
    int n = quick_sample(c->e, names, SB_MAX_VARIANTS);
    for (int first = 0; first < n; first += SB_MAX_NAMES) {
        o.nvariants = n - first < SB_MAX_NAMES ? n - first : SB_MAX_NAMES;
        for (int i = 0; i < o.nvariants; i++)
            memcpy(o.variants[i], names[first + i], sizeof o.variants[i]);
        run_selected(c, &o);
    }
}

/* The timing loop itself: more repetitions than one batch holds, after
 * the time-based warm-up, for each kind of timed operation (the API copy,
 * a kernel, the vendor transpose where there is one).  state is a slot to
 * run with instead of the backend's own (one without batching), or NULL. */
static void many_reps_after_warm_up(void **state)
{
    sb_session s = session;
    if (*state)
        s.slot = *(const sb_backend_slot *)*state;
    s.slot.vt = &s.slot.ops;
    const sb_experiment *e = NULL;
    for (int i = 0; i < sb_catalogue_count() && !e; i++)
        if (strcmp(sb_catalogue_get(i)->name, "transpose") == 0)
            e = sb_catalogue_get(i);
    assert_non_null(e);
    sb_options o;
    sb_options_defaults(&o);
    const char *names[] = {"memcpy", "naive_read", "vendor"};
    o.nvariants = 3;
    for (int i = 0; i < o.nvariants; i++)
        snprintf(o.variants[i], sizeof o.variants[i], "%s", names[i]);
    o.reps = 600; /* over two batches of the runner's 256 and a partial one */
    o.warmup = 3;
    o.quiet = 1;
    o.rows = o.cols = 64;
    sb_run run;
    assert_int_equal(run_pipeline(&o, &s, e, &run), SB_EXIT_OK);
    assert_int_equal((int)run.nresults, s.slot.provides.vendor_transpose ? 3 : 2);
    for (size_t i = 0; i < run.nresults; i++) {
        const sb_result *r = &run.results[i];
        printf("# %s: median %.4f ms, min %.4f, max %.4f over %d reps\n", r->variant,
               r->ms.median, r->ms.min, r->ms.max, r->reps);
        assert_true(r->verified);
        assert_int_equal(r->reps, 600);
        assert_true(r->ms.median > 0.0 && r->ms.min >= 0.0 && isfinite(r->ms.max));
    }
    sb_run_free(&run);
}

/* A variant its experiment says does not fit the device is left out,
 * unbuilt, and the run goes on: the histogram's per-block copy of 65536
 * bins on a device that gives a block 48 KiB, beside the global atomics
 * at the same size, which run and verify. */
static void unfit_variant_left_out(void **state)
{
    (void)state;
    sb_session s = session;
    s.info.local_mem_bytes = 48 * 1024;
    const sb_experiment *e = NULL;
    assert_int_equal(sb_catalogue_select("histogram", &e, 1), 1);
    sb_options o;
    sb_options_defaults(&o);
    const char *names[] = {"shared-b65536-uniform", "global-b65536-uniform"};
    o.nvariants = 2;
    for (int i = 0; i < o.nvariants; i++)
        snprintf(o.variants[i], sizeof o.variants[i], "%s", names[i]);
    o.reps = 2;
    o.warmup = 0;
    o.quiet = 1;
    o.rows = 1000;
    o.cols = 1;
    sb_run run;
    assert_int_equal(run_pipeline(&o, &s, e, &run), SB_EXIT_OK);
    assert_int_equal((int)run.nresults, 1);
    assert_string_equal(run.results[0].variant, "global-b65536-uniform");
    assert_true(run.results[0].verified);
    sb_run_free(&run);
}

/* What the compiler allocated for a kernel that declares 1 KiB of shared
 * memory: at least that much shared, no negative private size, and
 * registers where the API says them (CUDA always; OpenCL only on NVIDIA,
 * from ptxas's lines in the -cl-nv-verbose build log, where the log has
 * them), else -1: "not given", which NVIDIA's OpenCL may answer too. */
static void kernel_resources_of_local_array(void **state)
{
    (void)state;
    const sb_backend *vt = session.slot.vt;
    assert_non_null(vt->kernel_resources);
    char err[512];
    char *prelude = sb_kernel_source(vt->prelude, "copy.cl", err, sizeof err);
    assert_non_null(prelude);
    static const char kernel[] =
        "\nKERNEL void local256(GLOBAL float *o)\n"
        "{\n"
        "    LOCAL float t[256];\n"
        "    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);\n"
        "    t[LOCAL_ID(0)] = o[i];\n"
        "    BARRIER();\n"
        "    o[i] = t[255 - LOCAL_ID(0)];\n"
        "}\n";
    char *source = malloc(strlen(prelude) + sizeof kernel);
    assert_non_null(source);
    strcpy(source, prelude);
    strcat(source, kernel);
    free(prelude);
    sb_program *prog = NULL;
    sb_kernel *k = NULL;
    if (vt->build(session.dev, source, NULL, 0, &prog))
        fail_msg("build: %s", vt->last_error());
    free(source);
    if (vt->kernel(prog, "local256", &k))
        fail_msg("kernel: %s", vt->last_error());
    sb_kernel_resources res = {0, 0, 0};
    if (vt->kernel_resources(k, &res))
        fail_msg("kernel_resources: %s", vt->last_error());
    printf("# local256: %d registers, %ld shared bytes, %ld private bytes\n", res.regs,
           res.shared_bytes, res.private_bytes);
    assert_true(res.shared_bytes >= 256 * 4);
    assert_true(res.private_bytes >= 0);
    int nvidia = strstr(session.info.platform, "NVIDIA") || strstr(session.info.vendor, "NVIDIA");
    if (strcmp(vt->name, "cuda") == 0) {
        assert_true(res.regs > 0); /* cuFuncGetAttribute always says */
    } else if (nvidia && res.regs == -1) {
        /* NVIDIA's OpenCL may build without ptxas's lines in the log (the
           driver compiles the PTX later): registers are then not given,
           which -1 says; nothing more to hold them to. */
        printf("# local256: registers not given by this platform's build log\n");
    } else if (nvidia) {
        assert_true(res.regs > 0);
    } else {
        assert_int_equal(res.regs, -1); /* no source of the figure on other platforms */
    }
    vt->release_kernel(k);
    vt->release_program(prog);
}

int main(void)
{
    if (sb_test_not_asked())
        return sb_test_skip_all("every variant: make check-exhaustive runs it");
    if (sb_registry_load(TEST_BACKEND, &session.slot)) {
        char why[1400];
        snprintf(why, sizeof why, "the " TEST_BACKEND " backend is not available: %s",
                 session.slot.reason);
        return sb_test_skip_all(why);
    }
    sb_options o;
    sb_options_defaults(&o);
    sb_run scratch;
    memset(&scratch, 0, sizeof scratch);
    char err[1024];
    sb_device_request req = {o.platform, o.device};
    if (sb_session_open(&session, &req, &scratch, err, sizeof err))
        return sb_test_skip_all(err);

    struct CMUnitTest tests[MAX_CASES + 4];
    int n = 0, ncases = 0;
    /* The backend's own vtable, then the same as a module without
       batch_begin and batch_end would load: the one-at-a-time path the
       executor keeps for such backends. */
    static sb_backend_slot unbatched;
    unbatched = session.slot;
    unbatched.ops.batch_begin = NULL;
    unbatched.ops.batch_end = NULL;
    sb_registry_fill_defaults(&unbatched.ops, &unbatched.provides);
    if (unbatched.provides.batch) {
        printf("Bail out! the registry took a vtable without batch_begin for one that batches\n");
        return 1;
    }
    tests[n++] = (struct CMUnitTest){TEST_BACKEND " kernel resources of a 1 KiB local array",
                                     kernel_resources_of_local_array, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){TEST_BACKEND " 600 reps after a timed warm-up, batched",
                                     many_reps_after_warm_up, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){TEST_BACKEND " 600 reps after a timed warm-up, one at a "
                                     "time", many_reps_after_warm_up, NULL, NULL, &unbatched};
    tests[n++] = (struct CMUnitTest){TEST_BACKEND " a variant that does not fit is left out",
                                     unfit_variant_left_out, NULL, NULL, NULL};
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        if (!sb_test_part_has(i))
            continue;
        char sizes[256];
        snprintf(sizes, sizeof sizes, "%s", e->test_sizes ? e->test_sizes : "");
        for (char *save = NULL, *tok = strtok_r(sizes, ",", &save); tok && ncases < MAX_CASES;
             tok = strtok_r(NULL, ",", &save)) {
            run_case *c = &cases[ncases++];
            c->e = e;
            if (sb_parse_size(tok, &c->rows, &c->cols)) {
                fprintf(stderr, "bad test size '%s' in %s\n", tok, e->name);
                return 1;
            }
            snprintf(c->name, sizeof c->name, TEST_BACKEND " %s %ldx%ld: every variant verified",
                     e->name, c->rows, c->cols);
            tests[n] = (struct CMUnitTest){c->name, run_all_variants, NULL, NULL, c};
            n++;
        }
    }
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = _cmocka_run_group_tests(TEST_BACKEND, tests, (size_t)n, NULL, NULL);
    sb_session_close(&session);
    sb_registry_unload(&session.slot);
    return failed;
}
