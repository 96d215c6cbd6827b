/* The run command (cmd_run.h): the pipeline's stages in order, each
 * handing the next a typed value. */
#include "cli/cmd_run.h"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/report.h"
#include "run/analysis.h"
#include "run/executor.h"
#include "run/session.h"
#include "run/suite.h"

/* The run's provenance: this program's version, when, and where. */
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

/* The report, to --output or standard output; the file is opened only
 * now, so that a run that failed earlier leaves it as it was. */
static int write_report(const sb_options *o, const sb_run *run)
{
    FILE *out = stdout;
    if (o->output && !(out = fopen(o->output, "w"))) {
        fprintf(stderr, "simtbench: cannot write %s\n", o->output);
        return SB_EXIT_IO;
    }
    int status = SB_EXIT_OK;
    if (sb_report_write(o->format, run, out)) {
        fprintf(stderr, "simtbench: cannot write the report%s%s\n", o->output ? " to " : "",
                o->output ? o->output : "");
        status = SB_EXIT_IO;
    }
    if (out != stdout && fclose(out) && !status) {
        fprintf(stderr, "simtbench: cannot write %s\n", o->output);
        status = SB_EXIT_IO;
    }
    return status;
}

static int save_json(const char *path, const sb_run *run)
{
    FILE *f = fopen(path, "w");
    int bad = !f || sb_report_write(SB_FORMAT_JSON, run, f);
    if ((f && fclose(f)) || bad) {
        fprintf(stderr, "simtbench: cannot write %s\n", path);
        return SB_EXIT_IO;
    }
    return SB_EXIT_OK;
}

/* The report, the saved JSON and the plots of whatever ran; the first
 * failure's status, or SB_EXIT_OK. */
static int write_files(const sb_options *o, const sb_suite *suite, const sb_run *run)
{
    int status = SB_EXIT_OK, st;
    if (run->ndevices == 0)
        return status;
    if ((st = write_report(o, run)) && !status)
        status = st;
    if (suite->save && (st = save_json(suite->save, run)) && !status)
        status = st;
    /* After the report, so a plotting problem never costs the figures. */
    if (suite->plot_dir && run->nresults > 0 && sb_plot_run(run, suite->plot_dir, stderr) &&
        !status)
        status = SB_EXIT_IO;
    return status;
}

int sb_cmd_run(const sb_options *o)
{
    sb_suite suite;
    char err[1024];
    int status = sb_suite_plan(o, &suite, err, sizeof err);
    if (status) {
        fprintf(stderr, "simtbench: %s\n", err);
        return status;
    }
    sb_run run;
    memset(&run, 0, sizeof run);
    stamp(&run);
    sb_session sessions[SB_RUN_MAX_DEVICES];
    int nsessions = 0;
    status = sb_sessions_open(&suite, sessions, &nsessions, &run);
    if (status == SB_EXIT_OK)
        status = sb_execute(&suite, sessions, nsessions, &run);
    sb_sessions_close(sessions, nsessions);
    sb_analysis analysis;
    if (sb_analyse(&run, &analysis)) {
        fprintf(stderr, "simtbench: out of host memory\n");
        if (!status)
            status = SB_EXIT_RUNTIME;
    }
    int st = write_files(o, &suite, &run);
    if (st && !status)
        status = st;
    sb_analysis_free(&analysis);
    sb_run_free(&run);
    sb_suite_free(&suite);
    return status;
}
