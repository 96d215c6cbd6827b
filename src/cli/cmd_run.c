/* The run command (cmd_run.h): the pipeline's stages in order, each
 * handing the next a typed value. */
#include "cli/cmd_run.h"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/output_file.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary_print.h"
#include "report/table.h"
#include "run/analysis.h"
#include "run/crossapi.h"
#include "run/drift.h"
#include "run/executor.h"
#include "run/interrupt.h"
#include "run/preflight.h"
#include "run/progress.h"
#include "run/provenance.h"
#include "run/session.h"
#include "run/suite.h"

/* The run's provenance: this program's version and revision, when, where,
 * and the command line that started it (its end is stamped after the
 * last variant). */
static void stamp(sb_run *run, const sb_options *o)
{
    snprintf(run->tool_version, sizeof run->tool_version, "%s", PACKAGE_VERSION);
    sb_utc_now(run->date, sizeof run->date);
    sb_provenance_stamp(run, o->argc, o->argv);
    if (gethostname(run->host, sizeof run->host))
        snprintf(run->host, sizeof run->host, "unknown");
    run->host[sizeof run->host - 1] = '\0';
}

/* One output through sb_output_*: to path (written beside it and renamed
 * when complete, so a failure leaves an existing file as it was), or to
 * standard output when path is NULL. */
static int write_output(const char *path, sb_format format, const sb_analysis *a)
{
    char err[1024];
    if (!path) {
        if (sb_report_write(format, a, stdout) == 0)
            return SB_EXIT_OK;
        fprintf(stderr, "simtbench: cannot write the report\n");
        return SB_EXIT_IO;
    }
    sb_output_file f;
    if (sb_output_open(&f, path, err, sizeof err)) {
        fprintf(stderr, "simtbench: %s\n", err);
        return SB_EXIT_IO;
    }
    if (sb_report_write(format, a, f.f)) {
        sb_output_abort(&f);
        fprintf(stderr, "simtbench: cannot write the report to %s\n", path);
        return SB_EXIT_IO;
    }
    if (sb_output_commit(&f, err, sizeof err)) {
        fprintf(stderr, "simtbench: %s\n", err);
        return SB_EXIT_IO;
    }
    return SB_EXIT_OK;
}

/* The table on standard output is printed as the run goes: the header
 * once the devices are open, each experiment's block as soon as every
 * session has measured it (flushed, so a pipe sees it too). */
typedef struct stream {
    const sb_options *o;
    int on;         /* the report is the table on standard output */
    size_t printed; /* blocks printed so far */
} stream;

static void stream_header(stream *st, sb_run *run)
{
    sb_analysis a;
    if (!st->on || sb_analyse(run, st->o->reference, &a))
        return;
    sb_table_header(&a, stdout);
    fflush(stdout);
    sb_analysis_free(&a);
}

/* sb_experiment_done: the blocks the run has finished since the last. */
static void stream_blocks(void *ctx, sb_run *run)
{
    stream *st = ctx;
    sb_analysis a;
    if (!st->on || sb_analyse(run, st->o->reference, &a))
        return;
    for (; st->printed < a.cross.nexperiments; st->printed++)
        sb_table_block(&a, st->printed, stdout);
    fflush(stdout);
    sb_analysis_free(&a);
}

/* The report, the saved JSON and the plots of whatever ran; the first
 * failure's status, or SB_EXIT_OK.  A streamed table has been printed
 * already, but for the blocks after the last full experiment. */
static int write_files(const sb_options *o, const sb_suite *suite, const sb_analysis *a,
                       stream *st)
{
    int status = SB_EXIT_OK, s2;
    if (a->run->ndevices == 0)
        return status;
    if (st->on) {
        for (; st->printed < a->cross.nexperiments; st->printed++)
            sb_table_block(a, st->printed, stdout);
        sb_table_footer(a, stdout);
        sb_summary_print_table(&a->summary, stdout);
        if (a->run->interrupted)
            printf("\ninterrupted: only the results that finished before the signal\n");
        if (fflush(stdout) || ferror(stdout)) {
            fprintf(stderr, "simtbench: cannot write the report\n");
            status = SB_EXIT_IO;
        }
    } else if ((s2 = write_output(o->output, o->format, a)) && !status)
        status = s2;
    int st2;
    if (suite->save && (st2 = write_output(suite->save, SB_FORMAT_JSON, a)) && !status)
        status = st2;
    /* After the report, so a plotting problem never costs the figures. */
    if (suite->plot_dir && a->run->nresults > 0 && sb_plot_run(a, suite->plot_dir, stderr) &&
        !status)
        status = SB_EXIT_IO;
    return status;
}

/* --reference must name a backend with a device in this run: checked once
 * the devices are open, before anything is measured. */
static int check_reference(const sb_options *o, const sb_run *run)
{
    if (!o->reference || run->ndevices == 0 || sb_crossapi_reference(run, o->reference) >= 0)
        return SB_EXIT_OK;
    fprintf(stderr, "simtbench: --reference: no %s device in this run\n", o->reference);
    return SB_EXIT_USAGE;
}

/* After SIGINT or SIGTERM: what was kept, and the status a signal earns
 * (128 plus its number, as a shell reports a death by it). */
static int interrupted_status(int sig, const sb_run *run, const sb_options *o)
{
    if (run->ndevices == 0)
        fprintf(stderr, "simtbench: interrupted (%s) before anything was measured\n",
                strsignal(sig));
    else
        fprintf(stderr, "simtbench: interrupted (%s): stopped after the variant it was "
                        "measuring; the %zu finished results are in the report%s, marked "
                        "interrupted\n",
                strsignal(sig), run->nresults, o->save ? " and the saved run" : "");
    return 128 + sig;
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
    sb_interrupt_catch();
    sb_run run;
    memset(&run, 0, sizeof run);
    stamp(&run, o);
    sb_session sessions[SB_RUN_MAX_DEVICES];
    int nsessions = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    status = sb_sessions_open(&suite, sessions, &nsessions, &run);
    if (status)
        run.ndevices = 0; /* a device that did not open: nothing measured, nothing to report */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("SIMTBENCH_TIMINGS"))
        sb_say("timings: backends loaded and devices opened in %.2f s",
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (status == SB_EXIT_OK && (status = check_reference(o, &run)) != SB_EXIT_OK)
        run.ndevices = 0; /* nothing measured, nothing to report */
    if (status == SB_EXIT_OK && (status = sb_preflight(&suite, sessions, nsessions, err,
                                                       sizeof err)) != SB_EXIT_OK) {
        fprintf(stderr, "simtbench: %s\n", err);
        run.ndevices = 0;
    }
    stream st = {.o = o, .on = o->format == SB_FORMAT_TABLE && !o->output};
    if (status == SB_EXIT_OK) {
        stream_header(&st, &run);
        status = sb_execute(&suite, sessions, nsessions, &run, stream_blocks, &st);
    }
    if (run.ndevices > 0 && !sb_interrupted())
        sb_sessions_drift_end(sessions, nsessions, &run);
    sb_sessions_clocks_end(sessions, nsessions, &run);
    sb_sessions_close(sessions, nsessions);
    sb_provenance_end(&run);
    int sig = sb_interrupted();
    run.interrupted = sig != 0;
    sb_analysis analysis;
    int analysed = sb_analyse(&run, o->reference, &analysis);
    if (analysed) {
        fprintf(stderr, "simtbench: out of host memory\n");
        if (!status)
            status = SB_EXIT_RUNTIME;
    } else {
        int s2 = write_files(o, &suite, &analysis, &st);
        if (s2 && !status)
            status = s2;
    }
    if (sig)
        status = interrupted_status(sig, &run, o);
    else if ((sig = sb_interrupted()) != 0) {
        /* After the last variant, while writing: the rendering stops at it. */
        fprintf(stderr, "simtbench: interrupted (%s) after every variant was measured: what "
                        "was written before it is whole, the rest is left as it was\n",
                strsignal(sig));
        status = 128 + sig;
    }
    sb_analysis_free(&analysis);
    sb_run_free(&run);
    sb_suite_free(&suite);
    return status;
}
