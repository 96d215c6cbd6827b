/* The merge command (cmd_merge.h). */
#include "cli/cmd_merge.h"

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/complete.h"
#include "cli/options.h"
#include "report/layout.h"
#include "report/json_read.h"
#include "plan/output_path.h"
#include "report/output_file.h"
#include "report/report.h"
#include "analysis/analysis.h"
#include "exec/interrupt.h"
#include "analysis/merge.h"
#include "exec/provenance.h"
#include "text.h"

#define PROG "simtbench merge"

typedef struct settings {
    sb_format format;   /* of the report on standard output beside -o */
    const char *output; /* the merged result; NULL: standard output */
    const char *reference;
    int quiet;
    int nfiles;
    char **files;
} settings;

static void usage(FILE *f)
{
    sb_layout_help(f, sb_layout_width(), "Usage: simtbench merge [OPTION]... RUN.json...\n"
          "Merge saved runs (simtbench --save, --format json, or merge) into one result\n"
          "that keeps each device's run: host, start, build revision, command and file.\n"
          "Its devices are compared as one run's are, and like devices (one backend, one\n"
          "device name) make a fleet: per variant its median, fastest and slowest device\n"
          "and outliers (see simtbench(1) for the rule).\n"
          "\n"
          "  -o, --output FILE      write the merged result (JSON) to FILE, replaced only once\n"
          "                         it is complete, and the report of it on standard output;\n"
          "                         without -o the merged result goes to standard output\n"
          "  -f, --format FMT       the report beside -o: table, csv, json, markdown or html\n"
          "                         (default table)\n"
          "      --reference NAME   compare every device with the first device of backend NAME\n"
          "                         (default: the first device of the first run)\n"
          "  -q, --quiet            with -o, no report on standard output\n"
          "  -h, --help             this text\n"
          "\n"
          "Exit status: 0 merged, 2 bad usage (a run given twice, more than 64 devices),\n"
          "5 a file cannot be read, is not a simtbench result, or cannot be written,\n"
          "129, 130, 141, 143 ended by SIGHUP, SIGINT, SIGPIPE or SIGTERM (no file is left\n"
          "half-written: each is whole or as it was).\n");
}

enum { OPT_REFERENCE = 256 };

/* The short options, getopt_long's string: ":" first, so that a missing
 * value is told apart from an unknown option. */
static const char shortopts[] = ":o:f:qh";

static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"reference", required_argument, NULL, OPT_REFERENCE},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

/* The options into s; SB_EXIT_OK, or the exit status after one line (or
 * the help text, with *done set). */
static int parse(int argc, char **argv, settings *s, int *done)
{
    memset(s, 0, sizeof *s);
    s->format = SB_FORMAT_TABLE;
    *done = 0;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'o' && !*optarg) {
            fprintf(stderr, PROG ": --output: expected a file name, got ''\n");
            return SB_EXIT_USAGE;
        }
        if (c == 'f' && sb_report_find(optarg, &s->format)) {
            char names[256];
            sb_report_names(names, sizeof names);
            fprintf(stderr, PROG ": --format: expected %s, got '%s'\n", names, optarg);
            return SB_EXIT_USAGE;
        }
        if (c == 'h') {
            usage(stdout);
            *done = 1;
            return SB_EXIT_OK;
        }
        if (c == ':' || c == '?') {
            fprintf(stderr, c == ':' ? PROG ": option '%s' needs a value\n"
                                     : PROG ": unknown option '%s' (see simtbench merge --help)\n",
                    argv[optind - 1]);
            return SB_EXIT_USAGE;
        }
        s->output = c == 'o' ? optarg : s->output;
        s->reference = c == OPT_REFERENCE ? optarg : s->reference;
        s->quiet |= c == 'q';
    }
    if (argc - optind < 1) {
        fprintf(stderr, PROG ": expected one or more saved runs (see simtbench merge --help)\n");
        return SB_EXIT_USAGE;
    }
    s->nfiles = argc - optind;
    s->files = argv + optind;
    return SB_EXIT_OK;
}

/* Every file into merged, in the order given; the status of the first
 * that cannot be read (5) or merged (2), after one line. */
static int read_all(const settings *s, sb_run *merged)
{
    char err[1400];
    for (int i = 0; i < s->nfiles; i++) {
        sb_run *one = calloc(1, sizeof *one);
        if (!one) {
            fprintf(stderr, PROG ": out of host memory\n");
            return SB_EXIT_RUNTIME;
        }
        int st = SB_EXIT_OK, rc = sb_run_read_json(s->files[i], one, err, sizeof err);
        if (rc)
            st = rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
        else if (sb_run_merge(merged, one, s->files[i], err, sizeof err))
            st = SB_EXIT_USAGE;
        if (st)
            sb_text_message(stderr, PROG, err);
        sb_run_free(one);
        free(one);
        if (st)
            return st;
    }
    return SB_EXIT_OK;
}

/* The merged result's own provenance: this program, now, here, and the
 * merge command line. */
static void stamp(sb_run *merged, int argc, char **argv)
{
    snprintf(merged->tool_version, sizeof merged->tool_version, "%s", PACKAGE_VERSION);
    sb_utc_now(merged->date, sizeof merged->date);
    if (gethostname(merged->host, sizeof merged->host))
        snprintf(merged->host, sizeof merged->host, "unknown");
    merged->host[sizeof merged->host - 1] = '\0';
    /* The whole command line, "simtbench merge ...": argv[0] is "merge". */
    const char **words = calloc((size_t)argc + 2, sizeof *words);
    if (words) {
        words[0] = "simtbench";
        for (int i = 0; i < argc; i++)
            words[i + 1] = argv[i];
    }
    sb_provenance_stamp(merged, words ? argc + 1 : 0, words);
    sb_provenance_end(merged);
    free(words);
}

/* The merged result where -o says (else standard output), then, beside a
 * file, the report of it on standard output unless -q. */
static int write_all(const settings *s, const sb_analysis *a, int *wrote)
{
    char err[1024];
    *wrote = 0;
    /* A signal stops an HTML report's charts (report/plot.h); one cut short
       by a signal is said by the line that follows. */
    if (sb_report_write_file(SB_FORMAT_JSON, a, s->output, err, sizeof err)) {
        if (!sb_interrupted() && (s->output || !sb_interrupt_pipe()))
            sb_text_message(stderr, PROG, err);
        return SB_EXIT_IO;
    }
    *wrote = 1;
    if (s->output && !s->quiet && sb_report_write_file(s->format, a, NULL, err, sizeof err)) {
        if (!sb_interrupted() && !sb_interrupt_pipe())
            sb_text_message(stderr, PROG, err);
        return SB_EXIT_IO;
    }
    return SB_EXIT_OK;
}

/* After a signal while writing: what was kept, and 128 plus the signal. */
static int interrupted_status(int sig, const settings *s, int wrote)
{
    const char *where = s->output ? s->output : "standard output";
    if (wrote)
        fprintf(stderr, PROG ": interrupted by %s: the merged result was written whole to %s\n",
                sb_signal_name(sig), where);
    else if (s->output)
        fprintf(stderr, PROG ": interrupted by %s: the merged result was not written (%s is as "
                             "it was)\n",
                sb_signal_name(sig), s->output);
    else
        fprintf(stderr, PROG ": interrupted by %s: the merged result on standard output was cut "
                             "short\n",
                sb_signal_name(sig));
    return 128 + sig;
}

int sb_cmd_merge(int argc, char **argv)
{
    settings s;
    int done;
    int status = parse(argc, argv, &s, &done);
    if (status || done)
        return status;
    char err[1024];
    /* An output that cannot be made is said before anything is read. */
    if (s.output && sb_output_check("--output", s.output, err, sizeof err)) {
        sb_text_message(stderr, PROG, err);
        return SB_EXIT_IO;
    }
    /* Until the writing starts, a signal ends the command at once: there
       is nothing to keep. */
    sb_interrupt_catch(PROG);
    sb_run *merged = calloc(1, sizeof *merged);
    if (!merged) {
        fprintf(stderr, PROG ": out of host memory\n");
        return SB_EXIT_RUNTIME;
    }
    status = read_all(&s, merged);
    sb_analysis a;
    memset(&a, 0, sizeof a);
    if (!status) {
        stamp(merged, argc, argv);
        int analysed = sb_analyse_saved(merged, s.reference, &a);
        if (analysed == SB_ANALYSIS_NO_REFERENCE) {
            fprintf(stderr, PROG ": --reference: no %s device in the runs\n", s.reference);
            status = SB_EXIT_USAGE;
        } else if (analysed) {
            fprintf(stderr, PROG ": out of host memory\n");
            status = SB_EXIT_RUNTIME;
        } else {
            int wrote;
            sb_interrupt_defer(0);
            sb_interrupt_writing();
            status = write_all(&s, &a, &wrote);
            int sig = sb_interrupt_signal();
            if (sig)
                status = interrupted_status(sig, &s, wrote);
        }
    }
    sb_analysis_free(&a);
    sb_run_free(merged);
    free(merged);
    return status;
}

void sb_cmd_merge_complete(FILE *out)
{
    static const sb_option_value values[] = {
        {"output", "file", NULL},
        {"format", "format", NULL},
        {"reference", "backend", NULL},
        {NULL, NULL, NULL}};
    sb_complete_print(out, shortopts, longopts, values, "file");
}
