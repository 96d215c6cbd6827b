#include "cli/cmd_compare.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/complete.h"
#include "cli/options.h"
#include "report/format.h"
#include "report/json_read.h"
#include "report/layout.h"
#include "plan/output_path.h"
#include "report/output_file.h"
#include "analysis/compare.h"
#include "report/compare.h"
#include "text.h"

#define PROG "simtbench compare"

typedef struct settings {
    double threshold; /* fraction */
    sb_format format;
    int all;
    const char *old_path, *new_path;
    const char *output; /* -o FILE, or NULL for the caller's stream */
} settings;

static void usage(FILE *f)
{
    sb_layout_help(f, sb_layout_width(), "Usage: simtbench compare [OPTION]... OLD.json NEW.json\n"
          "List what got faster or slower between two runs saved with --format json.\n"
          "\n"
          "Rows are matched on device (backend, numbered when a run opened one twice),\n"
          "experiment, variant and size.  A row changed when the 95% interval of its time\n"
          "ratio new/old, from both runs' saved repetitions (Hodges-Lehmann, with its\n"
          "distribution-free Mann-Whitney interval), lies wholly beyond 2% plus the\n"
          "threshold either way; anything else is within the noise.  Where a run saved\n"
          "fewer than 5 repetitions (older files: none), a row changed when its median\n"
          "time moved by more than the larger of the two runs' spreads ((max - min) /\n"
          "median) plus the threshold.  A row whose repetitions in either run are too\n"
          "scattered to resolve the tolerance, or whose device drifted, is noisy: never\n"
          "called faster, slower or the same.\n"
          "\n"
          "  --threshold PCT           extra margin in percent (default 0)\n"
          "  --format table|json|markdown   output (default table)\n"
          "  -o, --output FILE         write to FILE instead of standard output (replaced\n"
          "                            only once the comparison is complete)\n"
          "  --all                     list unchanged rows too\n"
          "  -h, --help                this text\n"
          "\n"
          "Exit status: 0 compared (whether or not anything changed), 2 bad usage,\n"
          "5 a file cannot be read, is not JSON or is not a simtbench result, or the\n"
          "comparison cannot be written.\n");
}

/* The short options, getopt_long's string: ":" first, so that a missing
 * value is told apart from an unknown option. */
static const char shortopts[] = ":ho:";

static const struct option longopts[] = {{"threshold", required_argument, NULL, 't'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"all", no_argument, NULL, 'a'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

static int parse(int argc, char **argv, settings *s, FILE *err, int *help)
{
    memset(s, 0, sizeof *s);
    *help = 0;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 't': {
            char *end;
            errno = 0;
            double v = strtod(optarg, &end);
            if (errno || end == optarg || *end || !(v >= 0) || v > 1000) {
                fprintf(err, PROG ": --threshold: expected a percentage 0..1000, got '%s'\n",
                        optarg);
                return SB_EXIT_USAGE;
            }
            s->threshold = v / 100.0;
            break;
        }
        case 'f':
            /* The run's format names, of the formats compare writes. */
            if (sb_report_find(optarg, &s->format) || !sb_compare_format_known(s->format)) {
                fprintf(err, PROG ": --format: expected table, json or markdown, got '%s'\n",
                        optarg);
                return SB_EXIT_USAGE;
            }
            break;
        case 'a':
            s->all = 1;
            break;
        case 'o':
            s->output = optarg;
            break;
        case 'h':
            *help = 1;
            return SB_EXIT_OK;
        case ':':
            fprintf(err, PROG ": option '%s' needs a value\n", argv[optind - 1]);
            return SB_EXIT_USAGE;
        default:
            fprintf(err, PROG ": unknown option '%s' (see simtbench compare --help)\n",
                    argv[optind - 1]);
            return SB_EXIT_USAGE;
        }
    }
    if (argc - optind != 2) {
        fprintf(err, PROG ": expected two files, OLD.json and NEW.json (see simtbench compare "
                     "--help)\n");
        return SB_EXIT_USAGE;
    }
    s->old_path = argv[optind];
    s->new_path = argv[optind + 1];
    return SB_EXIT_OK;
}

/* The comparison to -o's file (replaced only when complete) or to out;
 * SB_EXIT_OK, or SB_EXIT_IO after one line on err. */
static int output(const settings *s, const sb_comparison *c, FILE *out, FILE *err)
{
    char why[1024], msg[1200];
    sb_output_file file;
    if (s->output && sb_output_open(&file, s->output, msg, sizeof msg)) {
        sb_text_message(err, PROG, msg);
        return SB_EXIT_IO;
    }
    errno = 0;
    if (sb_compare_write_to(s->format, c, s->output ? file.f : out, why, sizeof why)) {
        if (s->output)
            sb_output_abort(&file);
        fprintf(err, PROG ": cannot write %s: %s\n", s->output ? s->output : "the comparison",
                why[0] ? why : "write error");
        return SB_EXIT_IO;
    }
    if (s->output && sb_output_commit(&file, msg, sizeof msg)) {
        sb_text_message(err, PROG, msg);
        return SB_EXIT_IO;
    }
    return SB_EXIT_OK;
}

int sb_cmd_compare_to(int argc, char **argv, FILE *out, FILE *err)
{
    settings s;
    int help;
    int st = parse(argc, argv, &s, err, &help);
    if (st)
        return st;
    if (help) {
        usage(out);
        return SB_EXIT_OK;
    }
    sb_run o, n;
    char why[1024];
    /* An output that cannot be made is said before anything is read. */
    if (s.output && sb_output_check("--output", s.output, why, sizeof why)) {
        sb_text_message(err, PROG, why);
        return SB_EXIT_IO;
    }
    int rc = sb_run_read_json(s.old_path, &o, why, sizeof why);
    if (rc) {
        sb_text_message(err, PROG, why);
        return rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
    }
    if ((rc = sb_run_read_json(s.new_path, &n, why, sizeof why))) {
        sb_text_message(err, PROG, why);
        sb_run_free(&o);
        return rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
    }
    /* The analysis, once, before any writer runs. */
    sb_comparison c;
    if (sb_compare_analyse(&o, s.old_path, &n, s.new_path, s.threshold, s.all, &c)) {
        fprintf(err, PROG ": out of host memory\n");
        sb_run_free(&o);
        sb_run_free(&n);
        return SB_EXIT_RUNTIME;
    }
    st = output(&s, &c, out, err);
    sb_comparison_free(&c);
    sb_run_free(&o);
    sb_run_free(&n);
    return st;
}

int sb_cmd_compare(int argc, char **argv)
{
    return sb_cmd_compare_to(argc, argv, stdout, stderr);
}

void sb_cmd_compare_complete(FILE *out)
{
    static const sb_option_value values[] = {
        {"threshold", "value", NULL},
        {"format", "choice", "table json markdown md"},
        {"output", "file", NULL},
        {NULL, NULL, NULL}};
    sb_complete_print(out, shortopts, longopts, values, "file");
}
