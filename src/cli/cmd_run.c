/* The run command (cmd_run.h): the pipeline's stages in order, each
 * handing the next a typed value. */
#include "cli/cmd_run.h"

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/run_keep.h"
#include "report/output_file.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary_print.h"
#include "report/table.h"
#include "cli/run_request.h"
#include "analysis/analysis.h"
#include "analysis/crossapi.h"
#include "analysis/drift.h"
#include "exec/executor.h"
#include "exec/fatal_signal.h"
#include "exec/interrupt.h"
#include "exec/preflight.h"
#include "exec/progress.h"
#include "exec/provenance.h"
#include "exec/session.h"
#include "plan/suite.h"

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

/* What became of the outputs asked for: the names of those written whole
 * and of those left as they were, for the line that ends an interrupted
 * run. */
typedef struct outcome {
    char written[2400], kept[2400];
} outcome;

static void name_into(char *list, size_t n, const char *name)
{
    size_t used = strlen(list);
    snprintf(list + used, n - used, "%s%s", used ? ", " : "", name);
}

static void mark(outcome *out, const char *name, int written)
{
    if (written)
        name_into(out->written, sizeof out->written, name);
    else
        name_into(out->kept, sizeof out->kept, name);
}

/* One output through sb_report_write_file: to path (written beside it and
 * renamed when complete, so a failure leaves an existing file as it was),
 * or to standard output when path is NULL.  A standard output whose
 * reader is gone (SIGPIPE) is no error of its own: the line that ends the
 * run says so. */
static int write_output(const char *path, sb_format format, const sb_analysis *a, outcome *out)
{
    char err[1400];
    int rc = sb_report_write_file(format, a, path, err, sizeof err);
    if (!path && sb_interrupt_pipe())
        return SB_EXIT_OK;
    mark(out, path ? path : "the report on standard output", rc == 0);
    if (rc == 0)
        return SB_EXIT_OK;
    fprintf(stderr, "simtbench: %s\n", err);
    return SB_EXIT_IO;
}

/* The table on standard output is printed as the run goes: the header
 * once the devices are open, each experiment's block as soon as every
 * session has measured it (flushed, so a pipe sees it too). */
typedef struct stream {
    const sb_options *o;
    const sb_suite *suite;
    int on;         /* the report is the table on standard output */
    size_t printed; /* blocks printed so far */
} stream;

static void stream_header(stream *st, sb_run *run)
{
    sb_analysis a;
    if (!st->on || sb_interrupt_pipe() || sb_analyse(run, st->o->reference, &a))
        return;
    sb_table_header(&a, stdout);
    fflush(stdout);
    sb_analysis_free(&a);
}

/* sb_experiment_done: the blocks the run has finished since the last;
 * the results so far kept for a crash (run_keep.h). */
static void stream_blocks(void *ctx, sb_run *run)
{
    stream *st = ctx;
    sb_analysis a;
    sb_run_keep(st->o, st->suite, run);
    if (!st->on || sb_interrupt_pipe() || sb_analyse(run, st->o->reference, &a))
        return;
    for (; st->printed < a.cross.nexperiments; st->printed++)
        sb_table_block(&a, st->printed, stdout);
    fflush(stdout);
    sb_analysis_free(&a);
}

/* The streamed table's end on standard output, unless its reader is gone. */
static int finish_stream(const sb_analysis *a, stream *st, outcome *out)
{
    if (sb_interrupt_pipe())
        return SB_EXIT_OK;
    for (; st->printed < a->cross.nexperiments; st->printed++)
        sb_table_block(a, st->printed, stdout);
    sb_table_footer(a, stdout);
    sb_summary_print_table(&a->summary, stdout);
    if (a->run->interrupted)
        printf("\ninterrupted: only the results that finished before the signal\n");
    if (fflush(stdout) == 0 && !ferror(stdout)) {
        mark(out, "the report on standard output", 1);
        return SB_EXIT_OK;
    }
    if (sb_interrupt_pipe())
        return SB_EXIT_OK;
    mark(out, "the report on standard output", 0);
    fprintf(stderr, "simtbench: cannot write the report to standard output: %s\n",
            strerror(errno));
    return SB_EXIT_IO;
}

/* The report, the saved JSON and the plots of whatever ran; the first
 * failure's status, or SB_EXIT_OK.  A streamed table has been printed
 * already, but for the blocks after the last full experiment.  A run that
 * failed or was interrupted before its first result replaces no file: it
 * has nothing to put in one (failed: its run status). */
static int write_files(const sb_options *o, const sb_suite *suite, const sb_analysis *a,
                       int failed, stream *st, outcome *out)
{
    int status = SB_EXIT_OK, s2;
    if (a->run->ndevices == 0)
        return status;
    int nothing =
        a->run->nresults == 0 && (failed || a->run->interrupted || sb_interrupt_signal());
    if (st->on)
        status = finish_stream(a, st, out);
    else if (!o->output || !nothing)
        status = write_output(o->output, o->format, a, out);
    else
        mark(out, o->output, 0);
    if (suite->save && nothing)
        mark(out, suite->save, 0);
    else if (suite->save && (s2 = write_output(suite->save, SB_FORMAT_JSON, a, out)) && !status)
        status = s2;
    /* After the report, so a plotting problem never costs the figures. */
    if (suite->plot_dir && a->run->nresults > 0) {
        int rc = sb_plot_run(a, suite->plot_dir, stderr), bad = rc != 0;
        char name[1024];
        /* Stopped by a signal, the data and scripts are whole, not every
           image is drawn. */
        snprintf(name, sizeof name, "the plots in %s%s", suite->plot_dir,
                 rc == SB_PLOT_INTERRUPTED ? " (data and scripts; not every image)" : "");
        mark(out, name, !bad || rc == SB_PLOT_INTERRUPTED);
        if (bad && !status)
            status = SB_EXIT_IO;
    } else if (suite->plot_dir) {
        mark(out, suite->plot_dir, 0);
    }
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

/* How the run ended, for the line after a signal. */
static const char *how_it_ended(int sig, const sb_run *run)
{
    if (!run->interrupted)
        return sig == SIGPIPE ? ": standard output has no reader; the run was complete"
                              : " after the last variant";
    if (run->nresults == 0)
        return " before the first result";
    return sig == SIGPIPE ? ": standard output has no reader, so the run stopped after the "
                            "variant it was measuring"
                          : ": stopped after the variant it was measuring";
}

/* After a signal: one line of what was kept, and the status a signal
 * earns (128 plus its number, as a shell reports a death by it). */
static int interrupted_status(int sig, const sb_run *run, const outcome *out)
{
    char what[2600], kept[2500] = "";
    if (out->kept[0])
        snprintf(kept, sizeof kept, "; not written, so as it was: %s", out->kept);
    if (run->interrupted && run->nresults == 0)
        snprintf(what, sizeof what, "no result to keep");
    else if (!out->written[0])
        snprintf(what, sizeof what, "nothing was written");
    else
        snprintf(what, sizeof what, "the %zu %sresult%s in %s%s", run->nresults,
                 run->interrupted ? "finished " : "", run->nresults == 1 ? " is" : "s are",
                 out->written, run->interrupted ? ", marked interrupted" : "");
    const char *by = run->interrupted || sig != SIGPIPE ? "interrupted by " : "";
    fprintf(stderr, "simtbench: %s%s%s: %s%s\n", by, sb_signal_name(sig), how_it_ended(sig, run),
            what, kept);
    return 128 + sig;
}

int sb_cmd_run(const sb_options *o)
{
    sb_suite suite;
    char err[1024];
    sb_run_request request;
    sb_options_request(o, &request);
    int status = sb_suite_plan(&request, &suite, err, sizeof err);
    if (status) {
        fprintf(stderr, "simtbench: %s\n", err);
        return status;
    }
    sb_interrupt_catch("simtbench");
    sb_fatal_catch("simtbench");
    /* A library's exit() from here (libgomp's, when the host checks'
       threads cannot start, in the preflight or the run) is an end of
       the run, said as one (fatal_signal.h). */
    sb_fatal_guard_exit(1);
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
    stream st = {.o = o, .suite = &suite, .on = o->format == SB_FORMAT_TABLE && !o->output};
    if (status == SB_EXIT_OK) {
        /* From here a signal stops the run, which keeps what finished;
           before, there was nothing to keep. */
        sb_interrupt_defer(!o->output && !suite.save && !suite.plot_dir);
        stream_header(&st, &run);
        /* After the backends loaded their runtimes, whose own crash
           handlers (LLVM's) would otherwise come first. */
        sb_fatal_catch("simtbench");
        status = sb_execute(&suite, sessions, nsessions, &run, stream_blocks, &st);
    }
    if (run.ndevices > 0 && !sb_interrupted())
        sb_sessions_drift_end(sessions, nsessions, &run);
    sb_sessions_clocks_end(sessions, nsessions, &run);
    sb_sessions_close(sessions, nsessions);
    sb_provenance_end(&run);
    /* The real files are written now: a crash from here keeps what was
       there before, as it would any other file. */
    sb_fatal_guard_exit(0);
    sb_run_keep_drop();
    run.interrupted = sb_interrupted() != 0;
    sb_interrupt_writing();
    sb_analysis analysis;
    outcome out = {"", ""};
    int analysed = sb_analyse(&run, o->reference, &analysis);
    if (analysed) {
        fprintf(stderr, "simtbench: out of host memory\n");
        if (!status)
            status = SB_EXIT_RUNTIME;
    } else {
        int s2 = write_files(o, &suite, &analysis, status != SB_EXIT_OK, &st, &out);
        if (s2 && !status)
            status = s2;
    }
    int sig = sb_interrupt_signal();
    if (sig)
        status = interrupted_status(sig, &run, &out);
    sb_analysis_free(&analysis);
    sb_run_free(&run);
    sb_suite_free(&suite);
    return status;
}
