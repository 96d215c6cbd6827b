/* The suite plan: what it resolves from the options, and every refusal it
 * makes, with its documented status, before anything opens.  No device is
 * needed: this program's own dlopen() counts the calls and loads nothing,
 * so a plan that reached for a backend module would be seen. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/run_request.h"
#include "experiments/catalogue.h"
#include "exec/registry.h"
#include "plan/suite.h"

static int dlopen_calls;

/* Interposes the registry's dlopen: a plan must never load a module. */
void *dlopen(const char *file, int mode);
void *dlopen(const char *file, int mode)
{
    (void)file, (void)mode;
    dlopen_calls++;
    return NULL;
}

static char tmpdir[] = "/tmp/simtbench-suite-XXXXXX";
static char err[1024];

static int plan(const sb_options *o, sb_suite *s)
{
    err[0] = '\0';
    sb_run_request request;
    sb_options_request(o, &request);
    int st = sb_suite_plan(&request, s, err, sizeof err);
    assert_int_equal(dlopen_calls, 0);
    if (st) {
        /* Refused: one line, and nothing left to free. */
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
        assert_int_equal(s->nexperiments, 0);
    }
    return st;
}

static void name(char *slot, size_t n, const char *value)
{
    snprintf(slot, n, "%s", value);
}

#define SET(field, value) name(field, sizeof field, value)

static void default_suite(void **state)
{
    (void)state;
    sb_options o;
    sb_options_defaults(&o);
    sb_suite s;
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    int want = 0;
    for (int i = 0; i < sb_catalogue_count(); i++)
        want += sb_catalogue_get(i)->in_default;
    assert_true(want > 0);
    assert_int_equal(s.nexperiments, want);
    for (int x = 0; x < s.nexperiments; x++) {
        assert_true(s.experiments[x].e->in_default);
        assert_true(s.experiments[x].nvariants > 0);
        for (int v = 0; v < s.experiments[x].nvariants; v++)
            assert_true(s.experiments[x].variants[v].in_default);
    }
    assert_int_equal(s.nsessions, 0);
    assert_int_equal(s.reps, 20);
    assert_int_equal(s.warmup, 3);
    assert_int_equal(s.seed, 12345);
    assert_int_equal(s.device.platform, -1);
    assert_int_equal(s.device.device, -1);
    assert_null(s.output);
    sb_suite_free(&s);
}

/* A family in catalogue order, each experiment once; named variants only. */
static void experiments_and_variants(void **state)
{
    (void)state;
    sb_options o;
    sb_options_defaults(&o);
    o.nexperiments = 3;
    SET(o.experiments[0], "transpose");
    SET(o.experiments[1], "global");
    SET(o.experiments[2], "global_stride");
    o.nvariants = 2;
    SET(o.variants[0], "naive_read");
    SET(o.variants[1], "memcpy");
    sb_suite s;
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    /* Only transpose has those variants: the global ones select none. */
    assert_int_equal(s.nexperiments, 1);
    assert_string_equal(s.experiments[0].e->name, "transpose");
    assert_int_equal(s.experiments[0].nvariants, 2);
    /* Catalogue order, not the order named. */
    assert_string_equal(s.experiments[0].variants[0].name, "memcpy");
    assert_string_equal(s.experiments[0].variants[1].name, "naive_read");
    sb_suite_free(&s);

    o.nvariants = 0;
    o.all_variants = 1;
    o.nexperiments = 2;
    SET(o.experiments[0], "global");
    SET(o.experiments[1], "global_stride");
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    const sb_experiment *family[SB_SUITE_MAX_EXPERIMENTS];
    int n = sb_catalogue_select("global", family, SB_SUITE_MAX_EXPERIMENTS);
    assert_true(n > 1);
    assert_int_equal(s.nexperiments, n);
    for (int i = 0; i < n; i++)
        assert_ptr_equal(s.experiments[i].e, family[i]);
    sb_suite_free(&s);
}

static void unknown_names(void **state)
{
    (void)state;
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.nexperiments = 1;
    SET(o.experiments[0], "nosuch");
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "nosuch"));

    sb_options_defaults(&o);
    o.nexperiments = 1;
    SET(o.experiments[0], "transpose");
    o.nvariants = 1;
    SET(o.variants[0], "nosuch");
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "nosuch"));

    sb_options_defaults(&o);
    o.nbackends = 2;
    SET(o.backends[0], sb_known_backends[0]);
    SET(o.backends[1], "vulkan");
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "vulkan"));
    for (int b = 0; b < sb_nknown_backends; b++)
        assert_non_null(strstr(err, sb_known_backends[b]));
}

static void sessions_a_run_holds(void **state)
{
    (void)state;
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.nbackends = SB_MAX_NAMES;
    for (int i = 0; i < o.nbackends; i++)
        SET(o.backends[i], sb_known_backends[i % sb_nknown_backends]);
    /* Backends times listed devices: exactly what a run holds. */
    o.device_pick = SB_DEVICE_LIST;
    o.ndevice_list = SB_RUN_MAX_DEVICES / SB_MAX_NAMES;
    for (int i = 0; i < o.ndevice_list; i++)
        o.device_list[i] = i;
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_int_equal(s.nsessions, SB_MAX_NAMES);
    assert_int_equal(s.ndevices, o.ndevice_list);
    assert_int_equal(s.device.device, -1);
    for (int i = 0; i < s.nsessions; i++)
        assert_string_equal(s.sessions[i], o.backends[i]);
    sb_suite_free(&s);

    o.device_list[o.ndevice_list++] = 7;
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "--device"));
    assert_non_null(strstr(err, "sessions"));
}

/* --device auto: the launcher's task, counted among the visible devices;
   no launcher, or more tasks than devices, is refused. */
static void device_auto(void **state)
{
    (void)state;
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.device_pick = SB_DEVICE_AUTO;
    unsetenv("SLURM_LOCALID");
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
    unsetenv("PMI_LOCAL_RANK");
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("ROCR_VISIBLE_DEVICES");
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "SLURM_LOCALID"));
    setenv("PMI_LOCAL_RANK", "3", 1);
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_int_equal(s.device_pick, SB_DEVICE_LIST);
    assert_int_equal(s.device.device, 3);
    sb_suite_free(&s);
    setenv("SLURM_LOCALID", "1", 1); /* Slurm's comes first */
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_int_equal(s.device.device, 1);
    sb_suite_free(&s);
    setenv("CUDA_VISIBLE_DEVICES", "5", 1); /* bound to one: it is device 0 */
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_int_equal(s.device.device, 0);
    sb_suite_free(&s);
    setenv("CUDA_VISIBLE_DEVICES", "4,5,6", 1);
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_int_equal(s.device.device, 1);
    sb_suite_free(&s);
    setenv("SLURM_LOCALID", "3", 1);
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    assert_non_null(strstr(err, "CUDA_VISIBLE_DEVICES"));
    setenv("SLURM_LOCALID", "x", 1);
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
    unsetenv("SLURM_LOCALID");
    unsetenv("PMI_LOCAL_RANK");
    unsetenv("CUDA_VISIBLE_DEVICES");
}

/* The bytes of a file, malloc'd, or NULL when there is none. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 4096);
    if (buf && fread(buf, 1, 4095, f) == 0)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

static void unwritable_files(void **state)
{
    (void)state;
    const char *bad[] = {"/nonexistent/dir/x", "/proc/x", "/etc/passwd/x", "/tmp", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_options o;
        sb_suite s;
        sb_options_defaults(&o);
        o.output = bad[i];
        assert_int_equal(plan(&o, &s), SB_EXIT_IO);
        sb_options_defaults(&o);
        o.save = bad[i];
        assert_int_equal(plan(&o, &s), SB_EXIT_IO);
    }
    struct stat st;
    assert_int_not_equal(stat("/proc/x", &st), 0);
}

/* A writable path passes and is left as it was: an existing file keeps its
 * bytes, a new one is not left behind.  A plan refused for another reason
 * leaves the existing file too. */
static void writable_files_left_alone(void **state)
{
    (void)state;
    char existing[256], fresh[256];
    snprintf(existing, sizeof existing, "%s/existing.txt", tmpdir);
    snprintf(fresh, sizeof fresh, "%s/fresh.txt", tmpdir);
    FILE *f = fopen(existing, "w");
    assert_non_null(f);
    fputs("the report of an earlier run\n", f);
    fclose(f);

    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.output = existing;
    o.save = fresh;
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    assert_string_equal(s.output, existing);
    assert_string_equal(s.save, fresh);
    sb_suite_free(&s);
    o.nexperiments = 1;
    SET(o.experiments[0], "nosuch");
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);

    char *text = slurp(existing);
    assert_non_null(text);
    assert_string_equal(text, "the report of an earlier run\n");
    free(text);
    struct stat st;
    assert_int_not_equal(stat(fresh, &st), 0);
}

static void output_directories(void **state)
{
    (void)state;
    char fresh[256], file[256];
    snprintf(fresh, sizeof fresh, "%s/plots", tmpdir);
    snprintf(file, sizeof file, "%s/existing.txt", tmpdir);
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.plot_dir = tmpdir;
    o.ptx_dir = fresh;
    assert_int_equal(plan(&o, &s), SB_EXIT_OK);
    sb_suite_free(&s);
    struct stat st;
    assert_int_not_equal(stat(fresh, &st), 0); /* could be made, not left made */

    const char *bad[] = {"/nonexistent/dir/plots", "/proc/x", file};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_options_defaults(&o);
        o.plot_dir = bad[i];
        assert_int_equal(plan(&o, &s), SB_EXIT_IO);
        sb_options_defaults(&o);
        o.ptx_dir = bad[i];
        assert_int_equal(plan(&o, &s), SB_EXIT_IO);
    }
}

/* The usage errors come before the file checks, as the options are read. */
static void usage_before_files(void **state)
{
    (void)state;
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.output = "/nonexistent/dir/x";
    o.nbackends = SB_MAX_NAMES;
    for (int i = 0; i < o.nbackends; i++)
        SET(o.backends[i], sb_known_backends[0]);
    o.device_pick = SB_DEVICE_LIST;
    o.ndevice_list = SB_RUN_MAX_DEVICES / SB_MAX_NAMES + 1;
    for (int i = 0; i < o.ndevice_list; i++)
        o.device_list[i] = i;
    assert_int_equal(plan(&o, &s), SB_EXIT_USAGE);
}

/* A kernel source that cannot be read stops the plan, naming it. */
static void unreadable_kernel_source(void **state)
{
    (void)state;
    char dir[300], kernel[320];
    snprintf(dir, sizeof dir, "%s/kernels", tmpdir);
    snprintf(kernel, sizeof kernel, "%s/vecadd.cl", dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(mkdir(kernel, 0777), 0); /* a directory where the file belongs */
    const char *old = getenv("SIMTBENCH_KERNEL_PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("SIMTBENCH_KERNEL_PATH", dir, 1);
    sb_options o;
    sb_suite s;
    sb_options_defaults(&o);
    o.nexperiments = 1;
    SET(o.experiments[0], "vecadd");
    int st = plan(&o, &s);
    char said[sizeof err];
    snprintf(said, sizeof said, "%s", err);
    if (saved)
        setenv("SIMTBENCH_KERNEL_PATH", saved, 1);
    else
        unsetenv("SIMTBENCH_KERNEL_PATH");
    free(saved);
    rmdir(kernel);
    rmdir(dir);
    assert_int_equal(st, SB_EXIT_IO);
    assert_non_null(strstr(said, "vecadd.cl"));
}

static int make_tmpdir(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/existing.txt", tmpdir);
    unlink(path);
    return rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_suite),
        cmocka_unit_test(experiments_and_variants),
        cmocka_unit_test(unknown_names),
        cmocka_unit_test(sessions_a_run_holds),
        cmocka_unit_test(device_auto),
        cmocka_unit_test(unwritable_files),
        cmocka_unit_test(writable_files_left_alone),
        cmocka_unit_test(output_directories),
        cmocka_unit_test(usage_before_files),
        cmocka_unit_test(unreadable_kernel_source),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
