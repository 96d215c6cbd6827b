#include "cli/cmd_report.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/json_read.h"

#define PROG "simtbench report"

static void usage(FILE *f)
{
    fputs("Usage: simtbench report [OPTION]... SAVED.json\n"
          "Write a saved run (simtbench --save FILE, or --format json) again, in any\n"
          "format, side by side when it holds two or more devices, and draw its plots.\n"
          "\n"
          "  -f, --format FMT       table, csv, json, markdown or html (default table)\n"
          "  -o, --output FILE      write to FILE instead of standard output\n"
          "      --plot DIR         write the plots and their data to DIR (see simtbench --help)\n"
          "  -h, --help             this text\n"
          "\n"
          "Exit status: 0 written, 2 bad usage, 5 a file cannot be read or written.\n",
          f);
}

int sb_cmd_report(int argc, char **argv)
{
    enum { OPT_PLOT = 256 };
    static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    sb_format format = SB_FORMAT_TABLE;
    const char *output = NULL, *plot_dir = NULL;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (sb_parse_format(optarg, &format)) {
                fprintf(stderr, PROG ": --format: expected table, csv, json, markdown or html, "
                                "got '%s'\n",
                        optarg);
                return SB_EXIT_USAGE;
            }
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_PLOT:
            plot_dir = optarg;
            break;
        case 'h':
            usage(stdout);
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
    sb_run run;
    char err[1024];
    if (sb_run_read_json(argv[optind], &run, err, sizeof err)) {
        fprintf(stderr, PROG ": %s\n", err);
        return SB_EXIT_IO;
    }
    int status = SB_EXIT_OK;
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        fprintf(stderr, PROG ": cannot write %s\n", output);
        sb_run_free(&run);
        return SB_EXIT_IO;
    }
    if (sb_report_write(format, &run, out)) {
        fprintf(stderr, PROG ": cannot write the report%s%s\n", output ? " to " : "",
                output ? output : "");
        status = SB_EXIT_IO;
    }
    if (out != stdout && fclose(out) && !status) {
        fprintf(stderr, PROG ": cannot write %s\n", output);
        status = SB_EXIT_IO;
    }
    if (plot_dir && run.nresults > 0 && sb_plot_run(&run, plot_dir, stderr) && !status)
        status = SB_EXIT_IO;
    sb_run_free(&run);
    return status;
}
