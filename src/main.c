/* simtbench: the command line.  Parses options, loads the backends, hands
 * the plan to the run loop and the results to a report writer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiments/catalogue.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_model.h"
#include "cli/cmd_report.h"
#include "cli/options.h"
#include "report/plot.h"
#include "run/registry.h"
#include "report/report.h"
#include "run/analysis.h"
#include "run/runner.h"

#define MAX_EXPERIMENTS 64

static int usage_error(const char *msg)
{
    fprintf(stderr, "simtbench: %s\n", msg);
    return SB_EXIT_USAGE;
}

static void list_everything(FILE *f)
{
    fprintf(f, "Experiments (--experiment NAME or FAMILY):\n");
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    for (int i = 0; i < sb_catalogue_count(); i++) {
        const sb_experiment *e = sb_catalogue_get(i);
        int n = vs ? e->variants(vs, SB_MAX_VARIANTS) : 0, d = 0;
        for (int j = 0; j < n; j++)
            d += vs[j].in_default;
        fprintf(f, "  %-14s %-10s %s%s\n", e->name, e->family, e->summary,
                e->in_default ? "" : " (not in the default suite)");
        fprintf(f, "  %-14s %-10s variants (%d, %d by default):", "", "", n, d);
        for (int j = 0; j < n && j < 12; j++)
            fprintf(f, " %s", vs[j].name);
        fprintf(f, "%s\n", n > 12 ? " ..." : "");
    }
    free(vs);
    fprintf(f, "\nBackends:\n");
    for (int b = 0; b < sb_nknown_backends; b++) {
        sb_backend_slot slot;
        sb_registry_load(sb_known_backends[b], &slot);
        if (!slot.available) {
            fprintf(f, "  %-8s unavailable: %s\n", slot.name, slot.reason);
            sb_registry_unload(&slot);
            continue;
        }
        fprintf(f, "  %-8s available (%s)\n", slot.name, slot.path);
        sb_device_info infos[32];
        int n = slot.vt->enumerate(infos, 32);
        for (int i = 0; i < n; i++)
            fprintf(f, "           platform %d device %d: %s [%s] %s, driver %s%s\n",
                    infos[i].platform_index, infos[i].device_index, infos[i].name,
                    infos[i].platform, infos[i].api_version, infos[i].driver,
                    infos[i].is_gpu ? ", GPU" : "");
        sb_registry_unload(&slot);
    }
}

static void stamp(sb_run *run)
{
    snprintf(run->tool_version, sizeof run->tool_version, "%s", PACKAGE_VERSION);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(run->date, sizeof run->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(run->host, sizeof run->host))
        snprintf(run->host, sizeof run->host, "unknown");
    run->host[sizeof run->host - 1] = '\0';
}

/* Resolve --experiment into catalogue entries; unknown names are usage errors. */
static int choose_experiments(const sb_options *o, const sb_experiment **exps, int *n)
{
    *n = 0;
    if (o->nexperiments == 0) {
        for (int i = 0; i < sb_catalogue_count(); i++)
            if (sb_catalogue_get(i)->in_default)
                exps[(*n)++] = sb_catalogue_get(i);
        return SB_EXIT_OK;
    }
    for (int i = 0; i < o->nexperiments; i++) {
        const sb_experiment *found[MAX_EXPERIMENTS];
        int m = sb_catalogue_select(o->experiments[i], found, MAX_EXPERIMENTS);
        if (m == 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown experiment '%s' (see --list)", o->experiments[i]);
            return usage_error(msg);
        }
        for (int j = 0; j < m; j++) {
            int dup = 0;
            for (int k = 0; k < *n; k++)
                dup |= exps[k] == found[j];
            if (!dup && *n < MAX_EXPERIMENTS)
                exps[(*n)++] = found[j];
        }
    }
    return SB_EXIT_OK;
}

/* Every --variant name must belong to one of the chosen experiments. */
static int check_variants(const sb_options *o, const sb_experiment *const *exps, int nexps)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    if (!vs)
        return SB_EXIT_RUNTIME;
    for (int i = 0; i < o->nvariants; i++) {
        int found = 0;
        for (int x = 0; x < nexps && !found; x++) {
            int n = exps[x]->variants(vs, SB_MAX_VARIANTS);
            for (int j = 0; j < n && !found; j++)
                found = strcmp(vs[j].name, o->variants[i]) == 0;
        }
        if (!found) {
            free(vs);
            char msg[160];
            snprintf(msg, sizeof msg, "unknown variant '%s' for the chosen experiments (see --list)",
                     o->variants[i]);
            return usage_error(msg);
        }
    }
    free(vs);
    return SB_EXIT_OK;
}

static int open_sessions(const sb_options *o, sb_session *sessions, int *n, sb_run *run)
{
    char err[1024];
    *n = 0;
    if (o->nbackends == 0) {
        for (int b = 0; b < sb_nknown_backends; b++) {
            sb_session *s = &sessions[*n];
            memset(s, 0, sizeof *s);
            if (sb_registry_load(sb_known_backends[b], &s->slot)) {
                sb_registry_unload(&s->slot);
                continue;
            }
            if (sb_session_open(s, o, run, err, sizeof err)) {
                fprintf(stderr, "simtbench: note: skipping %s\n", err);
                sb_registry_unload(&s->slot);
                continue;
            }
            (*n)++;
        }
        if (*n == 0) {
            fprintf(stderr, "simtbench: no backend is available (see simtbench --list)\n");
            return SB_EXIT_UNAVAILABLE;
        }
        return SB_EXIT_OK;
    }
    for (int b = 0; b < o->nbackends; b++) {
        sb_session *s = &sessions[*n];
        memset(s, 0, sizeof *s);
        sb_registry_load(o->backends[b], &s->slot);
        int st = sb_session_open(s, o, run, err, sizeof err);
        if (st) {
            fprintf(stderr, "simtbench: %s\n", err);
            sb_registry_unload(&s->slot);
            return st;
        }
        (*n)++;
    }
    return SB_EXIT_OK;
}

static int save_json(const char *path, const sb_analysis *a)
{
    FILE *f = fopen(path, "w");
    int bad = !f || sb_report_write(SB_FORMAT_JSON, a, f);
    if ((f && fclose(f)) || bad) {
        fprintf(stderr, "simtbench: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "model") == 0)
        return sb_cmd_model(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return sb_cmd_compare(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return sb_cmd_report(argc - 1, argv + 1);

    sb_options o;
    char err[512];
    sb_options_defaults(&o);
    if (sb_options_parse(argc, argv, &o, err, sizeof err))
        return usage_error(err);
    if (o.help) {
        sb_options_usage(stdout);
        return SB_EXIT_OK;
    }
    if (o.version) {
        printf("simtbench %s\n", PACKAGE_VERSION);
        return SB_EXIT_OK;
    }
    if (o.list) {
        list_everything(stdout);
        return SB_EXIT_OK;
    }

    const sb_experiment *exps[MAX_EXPERIMENTS];
    int nexps, st = choose_experiments(&o, exps, &nexps);
    if (st)
        return st;
    if ((st = check_variants(&o, exps, nexps)))
        return st;

    FILE *out = stdout;
    if (o.output && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "simtbench: cannot write %s\n", o.output);
        return SB_EXIT_IO;
    }

    sb_run run;
    memset(&run, 0, sizeof run);
    stamp(&run);
    sb_session sessions[SB_MAX_NAMES];
    int nsessions = 0;
    int status = open_sessions(&o, sessions, &nsessions, &run);
    if (status == SB_EXIT_OK)
        status = sb_run_experiments(&o, sessions, nsessions, exps, nexps, &run);
    for (int i = 0; i < nsessions; i++) {
        sb_session_close(&sessions[i]);
        sb_registry_unload(&sessions[i].slot);
    }
    sb_analysis analysis;
    int analysed = sb_analyse(&run, o.reference, &analysis);
    if (analysed == SB_ANALYSIS_NO_REFERENCE) {
        fprintf(stderr, "simtbench: --reference: no %s device in this run\n", o.reference);
        status = SB_EXIT_USAGE;
    } else if (analysed) {
        fprintf(stderr, "simtbench: out of host memory\n");
        if (!status)
            status = SB_EXIT_RUNTIME;
    }
    int report = run.ndevices > 0 && analysed != SB_ANALYSIS_NO_REFERENCE;
    if (report) {
        if (sb_report_write(o.format, &analysis, out)) {
            fprintf(stderr, "simtbench: cannot write the report%s%s\n", o.output ? " to " : "",
                    o.output ? o.output : "");
            if (!status)
                status = SB_EXIT_IO;
        }
    }
    if (o.save && report && save_json(o.save, &analysis) && !status)
        status = SB_EXIT_IO;
    if (out != stdout && fclose(out) && !status) {
        fprintf(stderr, "simtbench: cannot write %s\n", o.output);
        status = SB_EXIT_IO;
    }
    /* After the report, so a plotting problem never costs the figures. */
    if (o.plot_dir && report && run.nresults > 0 && sb_plot_run(&analysis, o.plot_dir, stderr) &&
        !status)
        status = SB_EXIT_IO;
    sb_analysis_free(&analysis);
    sb_run_free(&run);
    return status;
}
