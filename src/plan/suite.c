/* The suite plan (suite.h): every check a run can make before a device
 * opens, so that a run that cannot succeed stops before it measures. */
#include "plan/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiments/catalogue.h"
#include "plan/kernel_source.h"
#include "plan/launcher.h"
#include "plan/output_path.h"

static int fail(int status, char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(int status, char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return status;
}

int sb_variant_selected(const sb_run_request *o, const sb_variant *v, int index, int n)
{
    if (o->all_variants && o->sample_every > 1 && n > SB_SWEEP_SAMPLE_OVER)
        return v->in_default || index % o->sample_every == 0;
    if (o->all_variants)
        return 1;
    if (o->nvariants == 0)
        return v->in_default;
    for (int i = 0; i < o->nvariants; i++)
        if (strcmp(o->variants[i], v->name) == 0)
            return 1;
    return 0;
}

/* --experiment into catalogue entries, each once, in the order asked
   (a family in catalogue order); none asked: the default suite. */
static int resolve_experiments(const sb_run_request *o, const sb_experiment **exps, int *n, char *err,
                               size_t en)
{
    *n = 0;
    if (o->nexperiments == 0) {
        for (int i = 0; i < sb_catalogue_count() && *n < SB_SUITE_MAX_EXPERIMENTS; i++)
            if (sb_catalogue_get(i)->in_default)
                exps[(*n)++] = sb_catalogue_get(i);
        return SB_EXIT_OK;
    }
    for (int i = 0; i < o->nexperiments; i++) {
        const sb_experiment *found[SB_SUITE_MAX_EXPERIMENTS];
        int m = sb_catalogue_select(o->experiments[i], found, SB_SUITE_MAX_EXPERIMENTS);
        if (m == 0)
            return fail(SB_EXIT_USAGE, err, en, "unknown experiment '%s' (see --list)",
                        o->experiments[i]);
        for (int j = 0; j < m; j++) {
            int dup = 0;
            for (int k = 0; k < *n; k++)
                dup |= exps[k] == found[j];
            if (!dup && *n < SB_SUITE_MAX_EXPERIMENTS)
                exps[(*n)++] = found[j];
        }
    }
    return SB_EXIT_OK;
}

/* Every --variant name must belong to one of the chosen experiments. */
static int check_variant_names(const sb_run_request *o, const sb_experiment *const *exps, int nexps,
                               sb_variant *scratch, char *err, size_t en)
{
    for (int i = 0; i < o->nvariants; i++) {
        int found = 0;
        for (int x = 0; x < nexps && !found; x++) {
            int n = exps[x]->variants(scratch, SB_MAX_VARIANTS);
            for (int j = 0; j < n && !found; j++)
                found = strcmp(scratch[j].name, o->variants[i]) == 0;
        }
        if (!found)
            return fail(SB_EXIT_USAGE, err, en,
                        "unknown variant '%s' for the chosen experiments (see --list)",
                        o->variants[i]);
    }
    return SB_EXIT_OK;
}

/* Each experiment with the variants the options select; one that selects
   none is left out of the plan. */
static int choose_variants(const sb_run_request *o, const sb_experiment *const *exps, int nexps,
                           sb_variant *scratch, sb_suite *s, char *err, size_t en)
{
    for (int x = 0; x < nexps; x++) {
        int n = exps[x]->variants(scratch, SB_MAX_VARIANTS), m = 0;
        for (int i = 0; i < n; i++)
            if (sb_variant_selected(o, &scratch[i], i, n))
                scratch[m++] = scratch[i];
        if (m == 0)
            continue;
        sb_suite_experiment *se = &s->experiments[s->nexperiments];
        se->variants = malloc(sizeof *se->variants * (size_t)m);
        if (!se->variants)
            return fail(SB_EXIT_RUNTIME, err, en, "out of host memory");
        memcpy(se->variants, scratch, sizeof *se->variants * (size_t)m);
        se->nvariants = m;
        se->e = exps[x];
        s->nexperiments++;
    }
    return SB_EXIT_OK;
}

/* Which devices each backend opens: --device auto becomes the one the
   launcher gave this task. */
static int plan_devices(const sb_run_request *o, sb_suite *s, char *err, size_t en)
{
    s->device_pick = o->device_pick;
    s->ndevices = 0;
    if (o->device_pick == SB_DEVICE_AUTO) {
        int index = sb_launcher_device(err, en);
        if (index < 0)
            return SB_EXIT_USAGE;
        s->device_pick = SB_DEVICE_LIST;
        s->devices[s->ndevices++] = index;
    } else if (o->device_pick == SB_DEVICE_LIST) {
        s->ndevices = o->ndevice_list;
        memcpy(s->devices, o->device_list, sizeof s->devices[0] * (size_t)o->ndevice_list);
    }
    s->device.device = s->device_pick == SB_DEVICE_LIST && s->ndevices == 1 ? s->devices[0] : -1;
    return SB_EXIT_OK;
}

/* Whether the request's build knows the backend name. */
static int knows(const sb_run_request *o, const char *name)
{
    for (int i = 0; i < o->nknown; i++)
        if (strcmp(o->known[i], name) == 0)
            return 1;
    return 0;
}

/* The known backends as "a, b", for messages. */
static void known_names(const sb_run_request *o, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < o->nknown && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", o->known[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* The sessions --backend names: each a backend the registry knows, and,
   with the devices listed, no more than one run holds. */
static int plan_sessions(const sb_run_request *o, sb_suite *s, char *err, size_t en)
{
    char known[128];
    known_names(o, known, sizeof known);
    for (int i = 0; i < o->nbackends; i++)
        if (!knows(o, o->backends[i]))
            return fail(SB_EXIT_USAGE, err, en, "--backend: unknown backend '%s' (known: %s, all)",
                        o->backends[i], known);
    int st = plan_devices(o, s, err, en);
    if (st)
        return st;
    int per_backend = s->device_pick == SB_DEVICE_LIST ? s->ndevices : 1;
    /* Without --backend, the ones that open are counted as they do. */
    int backends = o->nbackends ? o->nbackends : 1;
    if (backends * per_backend > SB_RUN_MAX_DEVICES)
        return fail(SB_EXIT_USAGE, err, en,
                    "--backend, --device: %d sessions asked for (%d backend%s x %d device%s), "
                    "one run holds at most %d",
                    backends * per_backend, backends, backends == 1 ? "" : "s", per_backend,
                    per_backend == 1 ? "" : "s", SB_RUN_MAX_DEVICES);
    s->nsessions = o->nbackends;
    for (int i = 0; i < o->nbackends; i++)
        snprintf(s->sessions[i], sizeof s->sessions[i], "%s", o->backends[i]);
    return SB_EXIT_OK;
}

/* --save's escapes expanded (launcher.h): %d is the device as --device
   named it, the launcher's index for auto; "default" where none was. */
static int plan_save(const sb_run_request *o, sb_suite *s, char *err, size_t en)
{
    if (!o->save)
        return SB_EXIT_OK;
    char device[8 * SB_MAX_DEVICE_LIST] = "default", host[256], job[256], task[256];
    size_t used = 0;
    if (s->device_pick == SB_DEVICE_ALL)
        snprintf(device, sizeof device, "all");
    for (int i = 0; s->device_pick == SB_DEVICE_LIST && i < s->ndevices; i++) {
        int w = snprintf(device + used, sizeof device - used, "%s%d", i ? "," : "",
                         s->devices[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    sb_save_values v;
    sb_save_values_here(&v, device, host, job, task, sizeof host);
    if (sb_save_expand(o->save, &v, s->save_path, sizeof s->save_path, err, en))
        return SB_EXIT_USAGE;
    s->save = s->save_path;
    return SB_EXIT_OK;
}

static int check_outputs(const sb_suite *s, char *err, size_t en)
{
    int st = SB_EXIT_OK;
    if (!st && s->output && sb_output_check("--output", s->output, err, en))
        st = SB_EXIT_IO;
    if (!st && s->save && sb_output_check("--save", s->save, err, en))
        st = SB_EXIT_IO;
    if (!st && s->plot_dir && sb_output_check_dir("--plot", s->plot_dir, err, en))
        st = SB_EXIT_IO;
    if (!st && s->ptx_dir && sb_output_check_dir("--dump-ptx", s->ptx_dir, err, en))
        st = SB_EXIT_IO;
    return st;
}

/* Every chosen experiment's kernel source can be read. */
static int check_kernel_sources(const sb_suite *s, char *err, size_t en)
{
    for (int x = 0; x < s->nexperiments; x++)
        if (sb_kernel_check(s->experiments[x].e->source, err, en))
            return SB_EXIT_IO;
    return SB_EXIT_OK;
}

static void copy_policy(const sb_run_request *o, sb_suite *s)
{
    s->device.platform = o->platform;
    s->serial = o->serial;
    s->rows = o->rows;
    s->cols = o->cols;
    s->reps = o->reps;
    s->warmup = o->warmup;
    s->seed = o->seed;
    s->quiet = o->quiet;
    s->counters = o->counters;
    s->output = o->output;
    s->plot_dir = o->plot_dir;
    s->ptx_dir = o->ptx_dir;
}

int sb_suite_plan(const sb_run_request *o, sb_suite *s, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    const sb_experiment *exps[SB_SUITE_MAX_EXPERIMENTS];
    int nexps = 0;
    sb_variant *scratch = calloc(SB_MAX_VARIANTS, sizeof *scratch);
    if (!scratch)
        return fail(SB_EXIT_RUNTIME, err, n, "out of host memory");
    int st = resolve_experiments(o, exps, &nexps, err, n);
    if (!st)
        st = check_variant_names(o, exps, nexps, scratch, err, n);
    if (!st)
        st = choose_variants(o, exps, nexps, scratch, s, err, n);
    free(scratch);
    if (!st)
        st = plan_sessions(o, s, err, n);
    if (!st) {
        copy_policy(o, s);
        st = plan_save(o, s, err, n);
    }
    if (!st)
        st = check_outputs(s, err, n);
    if (!st)
        st = check_kernel_sources(s, err, n);
    if (st)
        sb_suite_free(s);
    return st;
}

void sb_suite_free(sb_suite *s)
{
    for (int i = 0; i < s->nexperiments; i++)
        free(s->experiments[i].variants);
    memset(s, 0, sizeof *s);
}
