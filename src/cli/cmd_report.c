#include "cli/cmd_report.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/complete.h"
#include "cli/options.h"
#include "report/layout.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/json_read.h"
#include "plan/output_path.h"
#include "report/output_file.h"
#include "analysis/analysis.h"
#include "exec/interrupt.h"
#include "text.h"

#define PROG "simtbench report"

typedef struct settings {
    sb_format format;
    const char *output, *plot_dir, *reference, *saved;
} settings;

static void usage(FILE *f)
{
    sb_layout_help(f, sb_layout_width(), "Usage: simtbench report [OPTION]... SAVED.json\n"
          "Write a saved run (simtbench --save FILE, or --format json) again, in any\n"
          "format, side by side when it holds two or more devices, and draw its plots.\n"
          "\n"
          "  -f, --format FMT       table, csv, json, markdown or html (default table)\n"
          "  -o, --output FILE      write to FILE instead of standard output (replaced only\n"
          "                         once the report is complete)\n"
          "      --plot DIR         write the plots and their data to DIR (see simtbench --help)\n"
          "      --reference NAME   compare every device with the first device of backend NAME\n"
          "                         (default: the reference the run was saved with)\n"
          "  -h, --help             this text\n"
          "\n"
          "Exit status: 0 written, 2 bad usage, 5 a file cannot be read or written,\n"
          "129, 130, 141, 143 ended by SIGHUP, SIGINT, SIGPIPE or SIGTERM (no file is left\n"
          "half-written: each is whole or as it was).\n");
}

enum { OPT_PLOT = 256, OPT_REFERENCE };

/* The short options, getopt_long's string: ":" first, so that a missing
 * value is told apart from an unknown option. */
static const char shortopts[] = ":f:o:h";

static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"plot", required_argument, NULL, OPT_PLOT},
                                         {"reference", required_argument, NULL, OPT_REFERENCE},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

/* The options into s; SB_EXIT_OK, or the exit status after one line
 * (or the help text, with *done set). */
static int parse(int argc, char **argv, settings *s, int *done)
{
    memset(s, 0, sizeof *s);
    s->format = SB_FORMAT_TABLE;
    *done = 0;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (sb_report_find(optarg, &s->format)) {
                char names[256];
                sb_report_names(names, sizeof names);
                fprintf(stderr, PROG ": --format: expected %s, got '%s'\n", names, optarg);
                return SB_EXIT_USAGE;
            }
            break;
        case 'o':
            s->output = optarg;
            break;
        case OPT_PLOT:
            s->plot_dir = optarg;
            break;
        case OPT_REFERENCE:
            s->reference = optarg;
            break;
        case 'h':
            usage(stdout);
            *done = 1;
            return SB_EXIT_OK;
        case ':':
            fprintf(stderr, PROG ": option '%s' needs a value\n", argv[optind - 1]);
            return SB_EXIT_USAGE;
        default:
            fprintf(stderr, PROG ": unknown option '%s' (see simtbench report --help)\n",
                    argv[optind - 1]);
            return SB_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, PROG ": expected one saved run, SAVED.json (see simtbench report --help)\n");
        return SB_EXIT_USAGE;
    }
    s->saved = argv[optind];
    return SB_EXIT_OK;
}

/* The report, then the plots: a plotting problem never costs the report.
 * The report reaches -o's file only once it is complete; after a signal no
 * plot is begun.  *wrote says whether the report was written, *plotted
 * whether the plots were begun. */
static int write_all(const settings *s, const sb_analysis *a, int *wrote, int *plotted)
{
    int status = SB_EXIT_OK;
    char err[1024];
    *wrote = sb_report_write_file(s->format, a, s->output, err, sizeof err) == 0;
    if (!*wrote) {
        /* One cut short by a signal is said by the line that follows. */
        if (!sb_interrupted() && !(sb_interrupt_pipe() && !s->output))
            sb_text_message(stderr, PROG, err);
        status = SB_EXIT_IO;
    }
    *plotted = s->plot_dir && a->run->nresults > 0 && !sb_interrupted();
    if (*plotted && sb_plot_run(a, s->plot_dir, stderr) && !status)
        status = SB_EXIT_IO;
    return status;
}

/* After a signal while writing: what was kept, and 128 plus the signal. */
static int interrupted_status(int sig, const settings *s, int wrote, int plotted)
{
    char report[1100], plots[1100] = "";
    if (wrote)
        snprintf(report, sizeof report, "the report was written whole to %s",
                 s->output ? s->output : "standard output");
    else if (s->output)
        snprintf(report, sizeof report, "the report was not written (%s is as it was)",
                 s->output);
    else
        snprintf(report, sizeof report, "the report on standard output was cut short");
    if (s->plot_dir)
        snprintf(plots, sizeof plots, "; the plots in %s were %s", s->plot_dir,
                 !plotted       ? "not drawn"
                 : sb_interrupted() ? "not all drawn: run the command again"
                                    : "drawn");
    fprintf(stderr, PROG ": interrupted by %s: %s%s\n", sb_signal_name(sig), report, plots);
    return 128 + sig;
}

int sb_cmd_report(int argc, char **argv)
{
    settings s;
    int done;
    int status = parse(argc, argv, &s, &done);
    if (status || done)
        return status;
    sb_run run;
    int saved_reference;
    char err[1024];
    /* Until the writing starts, a signal ends the command at once: there
       is nothing to keep. */
    sb_interrupt_catch(PROG);
    /* An output that cannot be made is said before anything is read. */
    if (s.output && sb_output_check("--output", s.output, err, sizeof err)) {
        sb_text_message(stderr, PROG, err);
        return SB_EXIT_IO;
    }
    int rc = sb_run_read_saved(s.saved, &run, &saved_reference, err, sizeof err);
    if (rc) {
        sb_text_message(stderr, PROG, err);
        return rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
    }
    /* The saved reference is the first device of its backend, so naming
       that backend pairs the run as it was paired when saved. */
    const char *reference = s.reference;
    if (!reference && saved_reference >= 0)
        reference = run.devices[saved_reference].backend;
    sb_analysis a;
    int analysed = sb_analyse_saved(&run, reference, &a);
    if (analysed == SB_ANALYSIS_NO_REFERENCE) {
        fprintf(stderr, PROG ": --reference: no %s device in %s\n", reference, s.saved);
        status = SB_EXIT_USAGE;
    } else if (analysed) {
        fprintf(stderr, PROG ": out of host memory\n");
        status = SB_EXIT_RUNTIME;
    } else {
        int wrote, plotted;
        sb_interrupt_defer(0);
        sb_interrupt_writing();
        status = write_all(&s, &a, &wrote, &plotted);
        int sig = sb_interrupt_signal();
        if (sig)
            status = interrupted_status(sig, &s, wrote, plotted);
    }
    sb_analysis_free(&a);
    sb_run_free(&run);
    return status;
}

void sb_cmd_report_complete(FILE *out)
{
    static const sb_option_value values[] = {
        {"format", "format", NULL},
        {"output", "file", NULL},
        {"plot", "dir", NULL},
        {"reference", "backend", NULL},
        {NULL, NULL, NULL}};
    sb_complete_print(out, shortopts, longopts, values, "file");
}
