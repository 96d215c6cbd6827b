/* Every access a kernel executes is declared (issue 15): for each default
 * variant of every experiment, the global and shared memory instructions
 * in the PTX that NVRTC makes of its kernel (no GPU needed) against the
 * accesses its plan declares to the model, at every size the tests run it
 * at.  Each kind of instruction (global or shared; load, store, atomic)
 * in the PTX must have a declared access of that kind, and each declared
 * kind must be in the PTX.  Where the family says how many static
 * instructions its accesses of a kind are (the source's copies, loops
 * that the source itself unrolls), the PTX must have that many; a loop
 * the compiler unrolls as it likes is not counted.  A generic access (the
 * space lost) is a failure: the model could not place it.  A variant that
 * every test size leaves out (a working set larger than the size) is not
 * compared; each experiment must have one that is. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/variant.h"
#include "plan/kernel_source.h"
#include "exec/ptx_summary.h"
#include "exec/registry.h"

static sb_backend_slot slot;

/* The kinds of access the model counts apart. */
enum { GLOBAL_LD, GLOBAL_ST, GLOBAL_ATOM, SHARED_LD, SHARED_ST, SHARED_ATOM, KINDS };
static const char *const kind_name[KINDS] = {"ld.global",   "st.global", "atom/red.global",
                                             "ld.shared",   "st.shared", "atom/red.shared"};

/* The kind of a normalised PTX memory opcode ("ld.global.nc.v4.f32"); -1
   for what the model does not count (local memory, barriers, fences),
   -2 for a generic access. */
static int ptx_kind(const char *op)
{
    int load = strncmp(op, "ld.", 3) == 0 || strncmp(op, "ldu.", 4) == 0;
    int store = strncmp(op, "st.", 3) == 0;
    int atomic = strncmp(op, "atom.", 5) == 0 || strncmp(op, "red.", 4) == 0;
    if (!load && !store && !atomic)
        return -1;
    const char *space = strchr(op, '.') + 1;
    int base = strncmp(space, "global", 6) == 0   ? GLOBAL_LD
               : strncmp(space, "shared", 6) == 0 ? SHARED_LD
               : strncmp(space, "generic", 7) == 0 ? -2
                                                   : -1;
    if (base < 0)
        return base;
    return base + (load ? 0 : store ? 1 : 2);
}

static int declared_kind(const sb_pattern *p, sb_access_kind k)
{
    return (p->space == SB_SPACE_GLOBAL ? GLOBAL_LD : SHARED_LD) + (int)k;
}

/* What the variant's plans declare over the sizes: which kinds, and per
   kind the most static instructions any size's accesses stand for, or -1
   where any of them is the compiler's to count. */
typedef struct declared {
    int present[KINDS];
    int sites[KINDS];
} declared;

/* A device of 48 KiB of shared memory per block, the most a kernel's
   static shared arrays may take on NVIDIA (ptxas refuses more). */
static sb_device_info small_device(void)
{
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 2;
    dev.local_mem_bytes = 48 * 1024;
    return dev;
}

/* Adds the plan at rows x cols to d: 1, or 0 where the size leaves the
   variant out. */
static int plan_at(const sb_experiment *e, const sb_variant *v, long rows, long cols,
                   declared *d)
{
    sb_problem p = {rows, cols};
    sb_device_info dev = small_device();
    void *host = NULL;
    char err[512] = "";
    sb_plan plan;
    memset(&plan, 0, sizeof plan);
    if (e->prepare(&p, 1, &host, err, sizeof err))
        fail_msg("%s: prepare at %ldx%ld: %s", e->name, rows, cols, err);
    int rc = e->plan(host, &p, v, &dev, &plan, err, sizeof err);
    e->release(host);
    if (rc == SB_PLAN_LEFT_OUT)
        return 0;
    if (rc)
        fail_msg("%s/%s: plan at %ldx%ld: %s", e->name, v->name, rows, cols, err);
    int sites[KINDS] = {0};
    for (int i = 0; i < plan.npatterns; i++) {
        int k = declared_kind(&plan.pattern[i], plan.kind[i]);
        d->present[k] = 1;
        if (plan.sites[i] < 0 || sites[k] < 0)
            sites[k] = -1;
        else
            sites[k] += plan.sites[i];
    }
    for (int k = 0; k < KINDS; k++)
        if (d->sites[k] >= 0)
            d->sites[k] = sites[k] < 0 ? -1 : sites[k] > d->sites[k] ? sites[k] : d->sites[k];
    return 1;
}

/* The declarations over the test sizes; how many sizes plan the variant. */
static int declared_of(const sb_experiment *e, const sb_variant *v, declared *d)
{
    memset(d, 0, sizeof *d);
    int planned = 0;
    char sizes[128];
    snprintf(sizes, sizeof sizes, "%s", e->test_sizes);
    for (char *save = NULL, *size = strtok_r(sizes, ",", &save); size;
         size = strtok_r(NULL, ",", &save)) {
        long rows = strtol(size, NULL, 10);
        const char *x = strchr(size, 'x');
        planned += plan_at(e, v, rows, x ? strtol(x + 1, NULL, 10) : rows, d);
    }
    return planned;
}

/* Kernels already compiled: experiments of one source share variants
   (global_stride's w4-s1-load is global_offset's w4-k0-load), and NVRTC
   is the slow part of this test. */
#define MAX_COMPILED 256
static struct {
    char key[SB_MAX_DEFINES * 40 + 64];
    int count[KINDS], generic;
} compiled[MAX_COMPILED];
static int ncompiled;

/* The variant's kernel through NVRTC: its memory instructions by kind. */
static void ptx_of(const char *file, const char *source, const sb_variant *v, int count[KINDS],
                   int *generic)
{
    char key[sizeof compiled[0].key];
    size_t used = (size_t)snprintf(key, sizeof key, "%s %s", file, v->kernel);
    for (int i = 0; i < v->ndefines && used < sizeof key; i++)
        used += (size_t)snprintf(key + used, sizeof key - used, " %s", v->defines[i]);
    for (int i = 0; i < ncompiled; i++)
        if (strcmp(compiled[i].key, key) == 0) {
            memcpy(count, compiled[i].count, KINDS * sizeof *count);
            *generic = compiled[i].generic;
            return;
        }
    const char *defs[SB_MAX_DEFINES];
    for (int i = 0; i < v->ndefines; i++)
        defs[i] = v->defines[i];
    char *ptx = NULL, err[256];
    if (slot.vt->compile_offline(source, defs, v->ndefines, "sm_90", &ptx))
        fail_msg("%s: NVRTC: %s", v->name, slot.vt->last_error());
    sb_ptx_summary s;
    if (sb_ptx_summarize(ptx, v->kernel, &s, err, sizeof err))
        fail_msg("%s: %s", v->name, err);
    free(ptx);
    memset(count, 0, KINDS * sizeof *count);
    *generic = 0;
    for (int i = 0; i < s.nkinds; i++) {
        int k = ptx_kind(s.kind[i].op);
        if (k >= 0)
            count[k] += s.kind[i].count;
        *generic += k == -2 ? s.kind[i].count : 0;
    }
    if (ncompiled < MAX_COMPILED) {
        snprintf(compiled[ncompiled].key, sizeof compiled[ncompiled].key, "%s", key);
        memcpy(compiled[ncompiled].count, count, KINDS * sizeof *count);
        compiled[ncompiled++].generic = *generic;
    }
}

/* One variant's PTX against its declarations; what differs, appended to
   why (and 1), 0, or -1 where every test size leaves it out. */
static int compare(const sb_experiment *e, const sb_variant *v, const char *source, char *why,
                   size_t n)
{
    int count[KINDS], generic, bad = 0;
    declared d;
    ptx_of(e->source, source, v, count, &generic);
    if (!declared_of(e, v, &d))
        return -1;
    size_t used = strlen(why);
    if (generic && used < n)
        used += (size_t)snprintf(why + used, n - used, "\n#   %s/%s: %d generic accesses",
                                 e->name, v->name, generic), bad = 1;
    for (int k = 0; k < KINDS && used < n; k++) {
        const char *what = NULL;
        char more[64] = "";
        if (count[k] && !d.present[k])
            what = "in the PTX, not declared";
        else if (!count[k] && d.present[k])
            what = "declared, not in the PTX";
        else if (count[k] && d.sites[k] > 0 && d.sites[k] != count[k]) {
            what = "a different count";
            snprintf(more, sizeof more, " (PTX %d, declared %d)", count[k], d.sites[k]);
        }
        if (what) {
            used += (size_t)snprintf(why + used, n - used, "\n#   %s/%s: %s %s%s", e->name,
                                     v->name, kind_name[k], what, more);
            bad = 1;
        }
    }
    return bad;
}

/* Whether a run leaves the variant out (it does not fit the device), so
   that it has neither a plan nor PTX to hold against each other. */
static int left_out(const sb_experiment *e, const sb_variant *v)
{
    sb_device_info dev = small_device();
    char why[256];
    return e->fits && e->fits(v, &dev, why, sizeof why) != 0;
}

/* Every default variant with a kernel that fits the device, of the
   experiment *state names. */
static void declarations_cover_the_ptx(void **state)
{
    const sb_experiment *e = *state;
    char err[512];
    char *source = sb_kernel_source(slot.vt->prelude, e->source, err, sizeof err);
    if (!source)
        fail_msg("%s", err);
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    int n = e->variants(vs, SB_MAX_VARIANTS), bad = 0, checked = 0, unplanned = 0, too_big = 0;
    static char why[8192];
    why[0] = '\0';
    for (int i = 0; i < n; i++)
        if (vs[i].in_default && vs[i].kernel[0] && left_out(e, &vs[i]))
            too_big++;
        else if (vs[i].in_default && vs[i].kernel[0]) {
            int rc = compare(e, &vs[i], source, why, sizeof why);
            bad |= rc > 0;
            checked += rc >= 0;
            unplanned += rc < 0;
        }
    free(vs);
    free(source);
    if (bad)
        fail_msg("%s: the declared accesses and the PTX differ:%s", e->name, why);
    if (!checked)
        fail_msg("%s: every test size leaves every default variant out", e->name);
    print_message("# %s: %d default variants, every access declared", e->name, checked);
    if (unplanned)
        print_message(" (%d left out at every test size)", unplanned);
    if (too_big)
        print_message(" (%d too large for 48 KiB of shared memory left out)", too_big);
    print_message("\n");
}

int main(void)
{
    sb_registry_load("cuda", &slot);
    if (!slot.vt)
        return sb_test_skip_all(slot.reason);
    if (!slot.provides.compile_offline)
        return sb_test_skip_all("the cuda backend cannot compile without a device");
    char *probe = NULL;
    if (slot.vt->compile_offline("extern \"C\" __global__ void k() {}", NULL, 0, "sm_90", &probe) &&
        strstr(slot.vt->last_error(), "NVRTC not found"))
        return sb_test_skip_all(slot.vt->last_error());
    free(probe);
    struct CMUnitTest tests[64];
    static char names[64][64];
    int n = 0;
    for (int i = 0; i < sb_catalogue_count() && n < 64; i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        if (e->trace_kernel)
            continue; /* declared from the kernel's trace, after the run: no plan to hold */
        snprintf(names[n], sizeof names[n], "%s: declarations cover the PTX", e->name);
        tests[n] = (struct CMUnitTest){names[n], declarations_cover_the_ptx, NULL, NULL,
                                       (void *)e};
        n++;
    }
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = _cmocka_run_group_tests("declared_ptx", tests, (size_t)n, NULL, NULL);
    sb_registry_unload(&slot);
    return failed;
}
