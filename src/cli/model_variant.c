#include "cli/model_variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "experiments/catalogue.h"

/* The experiment called exactly `name` (not a family). */
static const sb_experiment *experiment_named(const char *name)
{
    for (int i = 0; i < sb_catalogue_count(); i++)
        if (strcmp(sb_catalogue_get(i)->name, name) == 0)
            return sb_catalogue_get(i);
    return NULL;
}

/* The variant called `name` of e into *out; 0, or -1. */
static int find_variant(const sb_experiment *e, const char *name, sb_variant *out)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    if (!vs)
        return -1;
    int n = e->variants(vs, SB_MAX_VARIANTS), found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (strcmp(vs[i].name, name) == 0) {
            *out = vs[i];
            found = 0;
        }
    free(vs);
    return found;
}

/* A device that has what the plans ask of one: its multiprocessors; no
   GPU's L2, so that an unsized run is the CPU device's. */
static sb_device_info stand_in(int units)
{
    sb_device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = units;
    d.warp_size = 32;
    return d;
}

int sb_model_variant_plan(const char *name, long rows, long cols, int units, sb_model_variant *out,
                          char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    char exp[64];
    const char *slash = strchr(name, '/');
    if (!slash || (size_t)(slash - name) >= sizeof exp || !slash[1]) {
        snprintf(err, n, "--variant must be EXPERIMENT/VARIANT (see simtbench --list), not '%s'",
                 name);
        return -1;
    }
    memcpy(exp, name, (size_t)(slash - name));
    exp[slash - name] = '\0';
    out->experiment = experiment_named(exp);
    if (!out->experiment) {
        snprintf(err, n, "no experiment '%s' (see simtbench --list)", exp);
        return -1;
    }
    if (find_variant(out->experiment, slash + 1, &out->variant)) {
        snprintf(err, n, "%s has no variant '%s' (see simtbench --list)", exp, slash + 1);
        return -1;
    }
    if (!out->variant.kernel[0]) {
        snprintf(err, n, "%s runs no kernel of ours: it declares no accesses", name);
        return -1;
    }
    sb_device_info dev = stand_in(units);
    if (rows > 0)
        out->size = (sb_problem){rows, cols};
    else
        out->experiment->default_size(&dev, &out->size);
    void *host = NULL;
    char why[512] = "";
    const sb_experiment *e = out->experiment;
    /* The inputs a run draws by default: where they decide a count (the
       histogram's bins), the totals are the run's. */
    if (e->prepare(&out->size, SB_DEFAULT_SEED, &host, why, sizeof why) ||
        e->plan(host, &out->size, &out->variant, &dev, &out->plan, why, sizeof why)) {
        if (host)
            e->release(host);
        snprintf(err, n, "%s at %ldx%ld: %s", name, out->size.rows, out->size.cols, why);
        return -1;
    }
    e->release(host);
    if (out->plan.undeclared) {
        snprintf(err, n, "%s declares more than %d kinds of access", name, SB_MAX_PATTERNS);
        return -1;
    }
    return 0;
}
