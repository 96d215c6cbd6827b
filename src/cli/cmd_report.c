#include "cli/cmd_report.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/json_read.h"
#include "report/output_file.h"
#include "run/analysis.h"

#define PROG "simtbench report"

typedef struct settings {
    sb_format format;
    const char *output, *plot_dir, *reference, *saved;
} settings;

static void usage(FILE *f)
{
    fputs("Usage: simtbench report [OPTION]... SAVED.json\n"
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
          "Exit status: 0 written, 2 bad usage, 5 a file cannot be read or written.\n",
          f);
}

/* The options into s; SB_EXIT_OK, or the exit status after one line
 * (or the help text, with *done set). */
static int parse(int argc, char **argv, settings *s, int *done)
{
    enum { OPT_PLOT = 256, OPT_REFERENCE };
    static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"reference", required_argument, NULL, OPT_REFERENCE},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    memset(s, 0, sizeof *s);
    s->format = SB_FORMAT_TABLE;
    *done = 0;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
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
 * The report reaches -o's file only once it is complete. */
static int write_all(const settings *s, const sb_analysis *a)
{
    int status = SB_EXIT_OK;
    char err[1024];
    if (sb_report_write_file(s->format, a, s->output, err, sizeof err)) {
        fprintf(stderr, PROG ": %s\n", err);
        status = SB_EXIT_IO;
    }
    if (s->plot_dir && a->run->nresults > 0 && sb_plot_run(a, s->plot_dir, stderr) && !status)
        status = SB_EXIT_IO;
    return status;
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
    /* An output that cannot be made is said before anything is read. */
    if (s.output && sb_output_check("--output", s.output, err, sizeof err)) {
        fprintf(stderr, PROG ": %s\n", err);
        return SB_EXIT_IO;
    }
    int rc = sb_run_read_saved(s.saved, &run, &saved_reference, err, sizeof err);
    if (rc) {
        fprintf(stderr, PROG ": %s\n", err);
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
        status = write_all(&s, &a);
    }
    sb_analysis_free(&a);
    sb_run_free(&run);
    return status;
}
