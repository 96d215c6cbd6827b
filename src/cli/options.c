#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/registry.h"

void sb_options_defaults(sb_options *o)
{
    memset(o, 0, sizeof *o);
    o->platform = -1;
    o->device = -1;
    o->reps = 20;
    o->warmup = 3;
    o->seed = 12345;
    o->format = SB_FORMAT_TABLE;
}

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return SB_EXIT_USAGE;
}

/* Strict integer parsing: the whole string, in range, no sign tricks. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s || !(*s == '-' || (*s >= '0' && *s <= '9')))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int sb_parse_size(const char *s, long *rows, long *cols)
{
    char buf[64];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *x = strpbrk(buf, "xX");
    long r, c;
    if (x) {
        *x = '\0';
        if (parse_long(buf, 1, INT_MAX, &r) || parse_long(x + 1, 1, INT_MAX, &c))
            return -1;
    } else {
        if (parse_long(buf, 1, INT_MAX, &r))
            return -1;
        c = r;
    }
    if ((double)r * (double)c > (double)INT_MAX)
        return -1;
    *rows = r;
    *cols = c;
    return 0;
}

/* Split a comma list into fixed slots; empty items and overflow are errors. */
static int split_list(const char *s, void *slots, size_t slot_size, int max, int *count)
{
    int n = 0;
    const char *p = s;
    if (!*p)
        return -1;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= slot_size || n == max)
            return -1;
        char *slot = (char *)slots + (size_t)n * slot_size;
        memcpy(slot, p, len);
        slot[len] = '\0';
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    *count = n;
    return 0;
}

/* "--format: expected table, csv, json, markdown or html, got 'X'". */
static int bad_format(char *err, size_t n, const char *got)
{
    char names[256];
    sb_report_names(names, sizeof names);
    return fail(err, n, "--format: expected %s, got '%s'", names, got);
}

/* --reference names a backend the run opens: with an explicit --backend,
 * one of its list; otherwise analysis checks it against the devices. */
static int check_reference(const sb_options *o, char *err, size_t n)
{
    if (!o->reference || o->nbackends == 0)
        return 0;
    for (int i = 0; i < o->nbackends; i++)
        if (strcmp(o->backends[i], o->reference) == 0)
            return 0;
    return fail(err, n, "--reference: no %s device in this run (not in --backend)", o->reference);
}

/* --backend LIST: names the registry knows, one session each. */
static int parse_backends(const char *list, sb_options *o, char *err, size_t n)
{
    char known[128];
    sb_registry_names(known, sizeof known);
    if (split_list(list, o->backends, sizeof o->backends[0], SB_MAX_NAMES, &o->nbackends))
        return fail(err, n, "--backend: expected %s, all or a comma list, got '%s'", known, list);
    for (int i = 0; i < o->nbackends; i++)
        if (!sb_registry_knows(o->backends[i]))
            return fail(err, n, "--backend: unknown backend '%s' (known: %s, all)", o->backends[i],
                        known);
    return 0;
}

int sb_options_parse(int argc, char **argv, sb_options *o, char *err, size_t n)
{
    enum { OPT_PLOT = 256, OPT_PTX, OPT_SEED, OPT_VARIANT, OPT_SAVE, OPT_REFERENCE };
    static const struct option longopts[] = {
        {"backend", required_argument, NULL, 'b'},
        {"device", required_argument, NULL, 'd'},
        {"platform", required_argument, NULL, 'p'},
        {"experiment", required_argument, NULL, 'e'},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"size", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'r'},
        {"warmup", required_argument, NULL, 'w'},
        {"format", required_argument, NULL, 'f'},
        {"reference", required_argument, NULL, OPT_REFERENCE},
        {"output", required_argument, NULL, 'o'},
        {"save", required_argument, NULL, OPT_SAVE},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"dump-ptx", required_argument, NULL, OPT_PTX},
        {"seed", required_argument, NULL, OPT_SEED},
        {"list", no_argument, NULL, 'l'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    long v;
    int c;

    optind = 0; /* glibc: a full re-initialisation, so parsing can be repeated */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":b:d:p:e:s:r:w:f:o:lqhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (strcmp(optarg, "all") == 0) {
                o->nbackends = 0;
                break;
            }
            if (parse_backends(optarg, o, err, n))
                return SB_EXIT_USAGE;
            break;
        case 'e':
            if (split_list(optarg, o->experiments, sizeof o->experiments[0],
                           SB_MAX_NAMES, &o->nexperiments))
                return fail(err, n, "--experiment: expected a name or a comma list, got '%s'",
                            optarg);
            break;
        case OPT_VARIANT:
            if (strcmp(optarg, "all") == 0) {
                o->all_variants = 1;
                break;
            }
            if (split_list(optarg, o->variants, sizeof o->variants[0], SB_MAX_NAMES,
                           &o->nvariants))
                return fail(err, n, "--variant: expected a name, a comma list or 'all', got '%s'",
                            optarg);
            break;
        case 'd':
            if (parse_long(optarg, 0, 1023, &v))
                return fail(err, n, "--device: expected a device index 0..1023, got '%s'", optarg);
            o->device = (int)v;
            break;
        case 'p':
            if (parse_long(optarg, 0, 1023, &v))
                return fail(err, n, "--platform: expected a platform index 0..1023, got '%s'",
                            optarg);
            o->platform = (int)v;
            break;
        case 's':
            if (sb_parse_size(optarg, &o->rows, &o->cols))
                return fail(err, n,
                            "--size: expected N or MxN, positive, under 2^31 elements, got '%s'",
                            optarg);
            break;
        case 'r':
            if (parse_long(optarg, 1, 100000, &v))
                return fail(err, n, "--reps: expected 1..100000, got '%s'", optarg);
            o->reps = (int)v;
            break;
        case 'w':
            if (parse_long(optarg, 0, 100000, &v))
                return fail(err, n, "--warmup: expected 0..100000, got '%s'", optarg);
            o->warmup = (int)v;
            break;
        case OPT_SEED:
            if (parse_long(optarg, 0, UINT_MAX > LONG_MAX ? LONG_MAX : UINT_MAX, &v))
                return fail(err, n, "--seed: expected a non-negative integer, got '%s'", optarg);
            o->seed = (unsigned)v;
            break;
        case 'f':
            if (sb_report_find(optarg, &o->format))
                return bad_format(err, n, optarg);
            break;
        case OPT_REFERENCE:
            if (!*optarg)
                return fail(err, n, "--reference: expected a backend name, got ''");
            o->reference = optarg;
            break;
        case 'o':
            o->output = optarg;
            break;
        case OPT_SAVE:
            o->save = optarg;
            break;
        case OPT_PLOT:
            o->plot_dir = optarg;
            break;
        case OPT_PTX:
            o->ptx_dir = optarg;
            break;
        case 'l':
            o->list = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            o->help = 1;
            break;
        case 'V':
            o->version = 1;
            break;
        case ':':
            return fail(err, n, "option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return fail(err, n, "unknown option '-%c' (see --help)", optopt);
            return fail(err, n, "unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return fail(err, n, "unexpected argument '%s' (see --help)", argv[optind]);
    return check_reference(o, err, n);
}

void sb_options_usage(FILE *f)
{
    fputs(
        "Usage: simtbench [OPTION]...            run experiments\n"
        "       simtbench model [OPTION]...      ask the memory model (see simtbench model --help)\n"
        "       simtbench compare OLD.json NEW.json   what changed between two saved runs\n"
        "       simtbench report SAVED.json      a saved run again, in any format, with plots\n"
        "\n"
        "Runs the same GPU memory experiments, from one kernel source, through CUDA\n"
        "and OpenCL, verifies every output and prints the measurement beside the\n"
        "memory model's prediction.  With no option: the default suite on every\n"
        "available backend.\n"
        "\n"
        "  -b, --backend LIST     cuda, opencl, all, or a comma list (default: all available);\n"
        "                         with two or more, the report puts them side by side (a\n"
        "                         backend named twice opens two sessions: opencl,opencl)\n"
        "  -p, --platform N       OpenCL platform index (default: the first with a GPU)\n"
        "  -d, --device N         device index (default: the first GPU, else the first device)\n"
        "  -e, --experiment LIST  experiments or families to run (see --list)\n"
        "      --variant LIST     only these variants, or 'all' for every one\n"
        "  -s, --size N|MxN       problem size: N x N matrices (1-D experiments: N*N elements);\n"
        "                         default fills the device (matrices >= 4x its L2)\n"
        "  -r, --reps N           timed repetitions per variant (default 20)\n"
        "  -w, --warmup N         untimed warm-up launches (default 3, and at least 20 ms of\n"
        "                         device time when N > 0)\n"
        "      --seed N           seed of the random inputs (default 12345)\n"
        "  -f, --format FMT       table, csv, json, markdown or html (default table)\n"
        "      --reference NAME   side by side, compare every device with the first device of\n"
        "                         backend NAME (default: the first device of the run)\n"
        "  -o, --output FILE      write the report to FILE instead of standard output\n"
        "      --save FILE        also save the results as JSON (for simtbench compare)\n"
        "      --plot DIR         write plots and their data to DIR: DIR/NAME.dat and NAME.gp,\n"
        "                         and NAME.png and NAME.svg when gnuplot is found ($GNUPLOT,\n"
        "                         else the one configure found, else gnuplot on $PATH)\n"
        "      --dump-ptx DIR     save the PTX each API produced for every variant as\n"
        "                         DIR/EXPERIMENT.VARIANT.BACKEND.ptx (the report compares the\n"
        "                         memory instructions whenever the APIs give PTX)\n"
        "  -l, --list             list experiments, backends (with availability) and devices\n"
        "  -q, --quiet            no progress on standard error\n"
        "  -h, --help             this help\n"
        "  -V, --version          version\n"
        "\n"
        "GB/s means 10^9 bytes per second: useful bytes read plus written over the\n"
        "median device-event time.  Side by side, X/REF is the speed ratio (REF's\n"
        "median time over X's); the verdict is \"same\" when the medians differ by no\n"
        "more than the larger of the two spreads ((max - min) / median).\n"
        "\n"
        "Exit status:\n"
        "  0  every variant ran and its output was verified\n"
        "  1  a variant's output did not match the host reference (no figure is reported for it)\n"
        "  2  bad usage: an unknown option or a value out of range\n"
        "  3  a requested backend or device is not available (e.g. no NVIDIA driver)\n"
        "  4  a backend call failed (kernel build, memory allocation, launch)\n"
        "  5  a file could not be read or written (kernel sources, --output, --plot)\n",
        f);
}
