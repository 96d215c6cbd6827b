/* What a missing backend module's reason says in a packaged build: the
 * folders the registry searched, in order, and what brings the module:
 * the distribution's package for a backend configure built and named a
 * package for, `configure --with-NAME` for one it did not build.  The
 * registry is compiled into this program alone with the defines a
 * packager's configure gives (Makefile.am: SB_BUILT_BACKENDS "cuda",
 * SB_BACKEND_PACKAGES "cudax:not-this,cuda:simtbench-cuda", and an
 * installed module folder that does not exist), so that no real module
 * is ever found. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/registry.h"
#include "plan/self_path.h"

static char tmp[] = "/tmp/simtbench-registry-XXXXXX";
static char a[64], b[64];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(tmp))
        return -1;
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(b, sizeof b, "%s/b", tmp);
    if (mkdir(a, 0700) || mkdir(b, 0700))
        return -1;
    /* An empty entry between the two is passed over, as the loader does. */
    char path[160];
    snprintf(path, sizeof path, "%s::%s", a, b);
    return setenv("SIMTBENCH_BACKEND_PATH", path, 1);
}

static int teardown(void **state)
{
    (void)state;
    rmdir(a);
    rmdir(b);
    return rmdir(tmp);
}

/* The reason the registry gives for name, whose module is nowhere. */
static const char *missing(const char *name, int *has)
{
    static sb_backend_slot slot;
    assert_int_equal(sb_registry_load(name, &slot), -1);
    assert_int_equal(slot.available, 0);
    assert_int_equal(slot.found, 0);
    *has = sb_registry_has(&slot);
    return slot.reason;
}

static void packaged_backend_names_its_package(void **state)
{
    (void)state;
    char self[400], want[1200];
    assert_int_equal(sb_self_dir(self, sizeof self), 0);
    snprintf(want, sizeof want,
             "the cuda backend module simtbench_cuda.so is not installed: looked in %s, %s, "
             "/nonexistent/simtbench-test-pkglib, %s/cuda/.libs "
             "(install the package simtbench-cuda)",
             a, b, self);
    int has;
    assert_string_equal(missing("cuda", &has), want);
    /* Built, so a default run names it though its module is not there. */
    assert_int_equal(has, 1);
    assert_int_equal(sb_registry_built("cuda"), 1);
}

static void backend_not_built_says_how_to_build_it(void **state)
{
    (void)state;
    char self[400], want[1200];
    assert_int_equal(sb_self_dir(self, sizeof self), 0);
    snprintf(want, sizeof want,
             "the opencl backend module simtbench_opencl.so is not installed: looked in %s, %s, "
             "/nonexistent/simtbench-test-pkglib, %s/opencl/.libs "
             "(this simtbench was built without it: configure --with-opencl)",
             a, b, self);
    int has;
    assert_string_equal(missing("opencl", &has), want);
    /* Neither built nor installed: a default run does not name it. */
    assert_int_equal(has, 0);
    assert_int_equal(sb_registry_built("opencl"), 0);
}

/* A name is a whole item of the lists, never the start of another. */
static void names_match_whole_items(void **state)
{
    (void)state;
    assert_int_equal(sb_registry_built("cud"), 0);
    assert_int_equal(sb_registry_built("cudax"), 0);
    assert_int_equal(sb_registry_built(""), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(packaged_backend_names_its_package),
        cmocka_unit_test(backend_not_built_says_how_to_build_it),
        cmocka_unit_test(names_match_whole_items),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
