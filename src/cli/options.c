#include "cli/complete.h"
#include "cli/options.h"
#include "cli/pattern_options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "report/layout.h"
#include "report/plot.h"
#include "exec/registry.h"

void sb_options_defaults(sb_options *o)
{
    memset(o, 0, sizeof *o);
    o->platform = -1;
    o->device = -1;
    o->reps = 20;
    o->warmup = 3;
    o->seed = SB_DEFAULT_SEED;
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

/* What split_list found wrong. */
enum { LIST_OK, LIST_MALFORMED = -1, LIST_TOO_MANY = -2 };

/* Split a comma list into fixed slots: LIST_OK; LIST_TOO_MANY past max
 * items; LIST_MALFORMED for an empty item or one longer than a slot. */
static int split_list(const char *s, void *slots, size_t slot_size, int max, int *count)
{
    int n = 0;
    const char *p = s;
    if (!*p)
        return LIST_MALFORMED;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= slot_size)
            return LIST_MALFORMED;
        if (n == max)
            return LIST_TOO_MANY;
        char *slot = (char *)slots + (size_t)n * slot_size;
        memcpy(slot, p, len);
        slot[len] = '\0';
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    *count = n;
    return LIST_OK;
}

/* A --experiment, --variant or --backend list into its slots; a failure
 * says what was expected, or the limit. */
static int parse_names(const char *option, const char *expected, const char *list, void *slots,
                       size_t slot_size, int *count, char *err, size_t n)
{
    int st = split_list(list, slots, slot_size, SB_MAX_NAMES, count);
    if (st == LIST_TOO_MANY)
        return fail(err, n, "%s: at most %d names", option, SB_MAX_NAMES);
    if (st)
        return fail(err, n, "%s: expected %s, got '%s'", option, expected, list);
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
    char known[128], expected[200];
    sb_registry_names(known, sizeof known);
    if (strcmp(list, "all") == 0) {
        o->nbackends = 0;
        return 0;
    }
    snprintf(expected, sizeof expected, "%s, all or a comma list", known);
    if (parse_names("--backend", expected, list, o->backends, sizeof o->backends[0],
                    &o->nbackends, err, n))
        return SB_EXIT_USAGE;
    for (int i = 0; i < o->nbackends; i++)
        if (!sb_registry_knows(o->backends[i]))
            return fail(err, n, "--backend: unknown backend '%s' (known: %s, all)", o->backends[i],
                        known);
    return 0;
}

/* --device SPEC: "all", "auto", or indices 0..1023 as a comma list, each
 * once. */
static int parse_devices(const char *arg, sb_options *o, char *err, size_t n)
{
    static const char expected[] = "a device index 0..1023, a comma list of them, all or auto";
    o->device = -1;
    o->ndevice_list = 0;
    o->device_pick = strcmp(arg, "all") == 0    ? SB_DEVICE_ALL
                     : strcmp(arg, "auto") == 0 ? SB_DEVICE_AUTO
                                                : SB_DEVICE_LIST;
    if (o->device_pick != SB_DEVICE_LIST)
        return 0;
    char words[SB_MAX_DEVICE_LIST][8];
    int count = 0, st = split_list(arg, words, sizeof words[0], SB_MAX_DEVICE_LIST, &count);
    if (st == LIST_TOO_MANY)
        return fail(err, n, "--device: at most %d devices in a list", SB_MAX_DEVICE_LIST);
    for (int i = 0; st == LIST_OK && i < count; i++) {
        long v;
        if (parse_long(words[i], 0, 1023, &v))
            st = LIST_MALFORMED;
        for (int j = 0; st == LIST_OK && j < i; j++)
            if (o->device_list[j] == (int)v)
                return fail(err, n, "--device: device %ld is named twice in '%s'", v, arg);
        o->device_list[i] = (int)v;
    }
    if (st)
        return fail(err, n, "--device: expected %s, got '%s'", expected, arg);
    o->ndevice_list = count;
    if (count == 1)
        o->device = o->device_list[0];
    return 0;
}

enum {
    OPT_PLOT = 256,
    OPT_PTX,
    OPT_SEED,
    OPT_VARIANT,
    OPT_SAVE,
    OPT_REFERENCE,
    OPT_SERIAL,
    OPT_COUNTERS
};

/* The short options, getopt_long's string: ":" first, so that a missing
 * value is told apart from an unknown option. */
static const char shortopts[] = ":b:d:p:e:s:r:w:f:o:lqhV";

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
    {"counters", no_argument, NULL, OPT_COUNTERS},
    SB_PATTERN_LONGOPTS,
    {"seed", required_argument, NULL, OPT_SEED},
    {"list", no_argument, NULL, 'l'},
    {"quiet", no_argument, NULL, 'q'},
    {"serial", no_argument, NULL, OPT_SERIAL},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

/* The names an option takes: 0 when c is one of them (or its error),
 * 1 when c is not a name option. */
static int parse_name_option(int c, const char *arg, sb_options *o, char *err, size_t n)
{
    switch (c) {
    case 'b':
        return parse_backends(arg, o, err, n);
    case 'e':
        return parse_names("--experiment", "a name or a comma list", arg, o->experiments,
                           sizeof o->experiments[0], &o->nexperiments, err, n);
    case OPT_VARIANT:
        if (strcmp(arg, "all") == 0) {
            o->all_variants = 1;
            return 0;
        }
        return parse_names("--variant", "a name, a comma list or 'all'", arg, o->variants,
                           sizeof o->variants[0], &o->nvariants, err, n);
    default:
        return 1;
    }
}

/* The numbers: 0 when c is one of them (or its error), 1 when not. */
static int parse_number_option(int c, const char *arg, sb_options *o, char *err, size_t n)
{
    long v;
    switch (c) {
    case 'd':
        return parse_devices(arg, o, err, n);
    case 'p':
        if (parse_long(arg, 0, 1023, &v))
            return fail(err, n, "--platform: expected a platform index 0..1023, got '%s'", arg);
        o->platform = (int)v;
        return 0;
    case 's':
        if (sb_parse_size(arg, &o->rows, &o->cols))
            return fail(err, n, "--size: expected N or MxN, positive, under 2^31 elements, got '%s'",
                        arg);
        return 0;
    case 'r':
        if (parse_long(arg, 1, 100000, &v))
            return fail(err, n, "--reps: expected 1..100000, got '%s'", arg);
        o->reps = (int)v;
        return 0;
    case 'w':
        if (parse_long(arg, 0, 100000, &v))
            return fail(err, n, "--warmup: expected 0..100000, got '%s'", arg);
        o->warmup = (int)v;
        return 0;
    case OPT_SEED:
        if (parse_long(arg, 0, UINT_MAX > LONG_MAX ? LONG_MAX : UINT_MAX, &v))
            return fail(err, n, "--seed: expected a non-negative integer, got '%s'", arg);
        o->seed = (unsigned)v;
        return 0;
    default:
        return 1;
    }
}

/* The paths and the format: 0 when c is one of them (or its error), 1
 * when not.  An empty path names no file: bad usage, not a file error. */
static int parse_output_option(int c, const char *arg, sb_options *o, char *err, size_t n)
{
    static const struct {
        int c;
        const char *option, *what;
    } paths[] = {{'o', "--output", "a file name"},
                 {OPT_SAVE, "--save", "a file name"},
                 {OPT_PLOT, "--plot", "a directory"},
                 {OPT_PTX, "--dump-ptx", "a directory"},
                 {OPT_REFERENCE, "--reference", "a backend name"}};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (paths[i].c == c && !*arg)
            return fail(err, n, "%s: expected %s, got ''", paths[i].option, paths[i].what);
    switch (c) {
    case 'f':
        return sb_report_find(arg, &o->format) ? bad_format(err, n, arg) : 0;
    case OPT_REFERENCE:
        o->reference = arg;
        return 0;
    case 'o':
        o->output = arg;
        return 0;
    case OPT_SAVE:
        o->save = arg;
        return 0;
    case OPT_PLOT:
        o->plot_dir = arg;
        return 0;
    case OPT_PTX:
        o->ptx_dir = arg;
        return 0;
    default:
        return 1;
    }
}

/* The flags: 0 when c is one, 1 when not. */
static int parse_flag_option(int c, sb_options *o)
{
    int *flag = c == 'l' ? &o->list : c == 'q' ? &o->quiet : c == 'h' ? &o->help
              : c == 'V' ? &o->version : c == OPT_SERIAL ? &o->serial
              : c == OPT_COUNTERS ? &o->counters : NULL;
    if (!flag)
        return 1;
    *flag = 1;
    return 0;
}

/* "--s" is a prefix of more than one long option: which ones. */
static int ambiguous(const char *arg, char *err, size_t n)
{
    size_t len = strcspn(arg + 2, "=");
    char names[256] = "";
    size_t used = 0;
    int count = 0, total = 0;
    for (const struct option *lo = longopts; lo->name; lo++)
        total += strncmp(lo->name, arg + 2, len) == 0;
    for (const struct option *lo = longopts; lo->name && used < sizeof names; lo++) {
        if (strncmp(lo->name, arg + 2, len) != 0)
            continue;
        count++;
        int w = snprintf(names + used, sizeof names - used, "%s--%s",
                         count == 1 ? "" : count == total ? " or " : ", ", lo->name);
        used += w > 0 ? (size_t)w : 0;
    }
    if (total < 2)
        return 0;
    fail(err, n, "ambiguous option '%.*s' (could be %s)", (int)(len + 2), arg, names);
    return 1;
}

/* What getopt refused: a missing value, an ambiguous prefix or an
 * unknown option. */
static int bad_option(int c, char **argv, char *err, size_t n)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        return fail(err, n, "option '%s' needs a value", arg);
    if (optopt && strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
        return fail(err, n, "option '%.*s' takes no value", (int)strcspn(arg, "="), arg);
    if (optopt)
        return fail(err, n, "unknown option '-%c' (see --help)", optopt);
    if (strncmp(arg, "--", 2) == 0 && ambiguous(arg, err, n))
        return SB_EXIT_USAGE;
    return fail(err, n, "unknown option '%s' (see --help)", arg);
}

/* The pattern family's options (cli/pattern_options.h): 0 when c is one
   of them, 1 when not. */
static int pattern_option(int c, const char *arg, sb_options *o, char *err, size_t n)
{
    int r = sb_pattern_option(c, arg, &o->pattern, err, n);
    return r == 1 ? 1 : r ? SB_EXIT_USAGE : 0;
}

int sb_options_parse(int argc, char **argv, sb_options *o, char *err, size_t n)
{
    int c;
    optind = 0; /* glibc: a full re-initialisation, so parsing can be repeated */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int st = c == ':' || c == '?' ? bad_option(c, argv, err, n) : 1;
        if (st == 1)
            st = parse_name_option(c, optarg, o, err, n);
        if (st == 1)
            st = parse_number_option(c, optarg, o, err, n);
        if (st == 1)
            st = parse_output_option(c, optarg, o, err, n);
        if (st == 1)
            st = parse_flag_option(c, o);
        if (st == 1)
            st = pattern_option(c, optarg, o, err, n);
        if (st == 1)
            st = bad_option('?', argv, err, n);
        if (st)
            return SB_EXIT_USAGE;
    }
    if (optind < argc)
        return fail(err, n, "unexpected argument '%s' (see --help)", argv[optind]);
    if (sb_pattern_options_check(&o->pattern, err, n))
        return SB_EXIT_USAGE;
    for (int i = 0; i < o->nexperiments && !o->pattern.nindex; i++)
        if (strncmp(o->experiments[i], "pattern", 7) == 0)
            return fail(err, n, "--experiment %s: its rows are --index EXPR options; none given",
                        o->experiments[i]);
    return check_reference(o, err, n);
}

void sb_options_usage(FILE *f)
{
    sb_layout_help(f, sb_layout_width(),
        "Usage: simtbench [OPTION]...            run experiments\n"
        "       simtbench model [OPTION]...      ask the memory model (see simtbench model --help)\n"
        "       simtbench compare OLD.json NEW.json   what changed between two saved runs\n"
        "       simtbench report SAVED.json      a saved run again, in any format, with plots\n"
        "       simtbench merge RUN.json... [-o FLEET.json]   many saved runs into one result\n"
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
        "  -d, --device SPEC      device index N, a list N,M,..., all (every device of each\n"
        "                         backend; OpenCL: of --platform, else of the first platform\n"
        "                         with a GPU), or auto (the one Slurm's SLURM_LOCALID or an\n"
        "                         MPI launcher's local rank gives this task, counted among\n"
        "                         CUDA_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES where set);\n"
        "                         default: the first GPU, else the first device.  Devices\n"
        "                         run at the same time, each on a thread of its own\n"
        "      --serial           measure one device after another\n"
        "  -e, --experiment LIST  experiments or families to run (see --list)\n"
        "      --variant LIST     only these variants, or 'all' for every one\n"
        "  -s, --size N|MxN       problem size: N x N matrices (1-D experiments: N*N elements);\n"
        "                         default fills the device (matrices >= 4x its L2)\n"
        "  -r, --reps N           timed repetitions per variant (default 20)\n"
        "  -w, --warmup N         untimed warm-up launches (default 3, and when N > 0 until\n"
        "                         the device has been busy 20 ms)\n"
        "      --seed N           seed of the random inputs (default 12345)\n"
        "  -f, --format FMT       table, csv, json, markdown or html (default table)\n"
        "      --reference NAME   side by side, compare every device with the first device of\n"
        "                         backend NAME (default: the first device of the run)\n"
        "  -o, --output FILE      write the report to FILE instead of standard output\n"
        "      --save FILE        also save the results as JSON (for simtbench compare); in\n"
        "                         FILE %h is the host, %d the device, %j SLURM_JOB_ID, %t the\n"
        "                         task (SLURM_PROCID or the MPI rank), %% a percent sign\n"
        "      --plot DIR         write plots and their data to DIR: DIR/NAME.dat and NAME.gp,\n"
        "                         and NAME.png and NAME.svg when gnuplot is found ($GNUPLOT,\n"
        "                         else the one configure found, else gnuplot on $PATH)\n"
        "      --dump-ptx DIR     save the PTX each API produced for every variant as\n"
        "                         DIR/EXPERIMENT.VARIANT.BACKEND.ptx (the report compares the\n"
        "                         memory instructions whenever the APIs give PTX)\n"
        "      --index EXPR       -e pattern: a row whose lanes access element EXPR, in C over\n"
        "                         i, lane, warp, tx, ty, bx, by, bdx, bdy and n (repeatable;\n"
        "                         see simtbench(1), The pattern family)\n"
        "      --space global|shared  where --index accesses (default global)\n"
        "      --word 4|8|16      bytes per element of --index (default 4)\n"
        "      --store            --index stores instead of loading\n"
        "      --mask EXPR        only lanes where EXPR is non-zero take part\n"
        "      --counters         also launch every kernel once under the API's profiler\n"
        "                         (CUPTI on NVIDIA; never a timed launch) and put the\n"
        "                         hardware's counts beside the model's in every row\n"
        "  -l, --list             list experiments, backends (with availability) and devices\n"
        "  -q, --quiet            no progress on standard error\n"
        "  -h, --help             this help\n"
        "  -V, --version          version, license, and the backends and libraries of this build\n"
        "\n"
        "GB/s means 10^9 bytes per second: useful bytes read plus written over the\n"
        "median device-event time.  Side by side, X/REF is the speed ratio (REF's\n"
        "median time over X's); the verdict is \"same\" unless the 95% interval of the\n"
        "time ratio (Hodges-Lehmann, from every repetition) lies wholly beyond 2%.\n"
        "\n"
        "Exit status:\n"
        "  0  every variant ran and its output was verified\n"
        "  1  a variant's output did not match the host reference (no figure is reported for it)\n"
        "  2  bad usage: an unknown option or a value out of range\n"
        "  3  a requested backend or device is not available (e.g. no NVIDIA driver)\n"
        "  4  a backend call failed (kernel build, memory allocation, launch)\n"
        "     or the run does not fit in the device's or the host's memory (checked first)\n"
        "  5  a file could not be read or written (kernel sources, --output, --plot)\n"
        "  129, 130, 143  interrupted by SIGHUP, SIGINT or SIGTERM: before anything was\n"
        "     measured it ends at once, every file as it was; else the variant being measured\n"
        "     finished, and the report and --save hold the finished results, marked\n"
        "     interrupted (none finished: no file is replaced); a second signal ends it at once\n"
        "  141  SIGPIPE: standard output lost its reader; -o, --save and --plot are still\n"
        "     written whole (with none of them the run stops after the variant it was measuring)\n");
}

void sb_options_version(FILE *f)
{
    fprintf(f, "%s %s\n"
               "Copyright (C) 2026 the simtbench developers.\n"
               "License MIT: <https://opensource.org/licenses/MIT>.\n"
               "This is free software: you are free to change and redistribute it.\n"
               "There is NO WARRANTY, to the extent permitted by law.\n\n",
            PACKAGE_NAME, PACKAGE_VERSION);
    int built = 0;
    for (int i = 0; i < sb_nknown_backends; i++)
        if (sb_registry_built(sb_known_backends[i]))
            fprintf(f, "%s %s", built++ ? "," : "Backends built:", sb_known_backends[i]);
    fprintf(f, "%s\n", built ? "" : "Backends built: none");
    char path[2048];
    for (int i = 0; i < sb_nknown_backends; i++) {
        if (!sb_registry_built(sb_known_backends[i]))
            continue;
        sb_registry_module_path(sb_known_backends[i], path, sizeof path);
        fprintf(f, "  simtbench_%s.so looked for in: %s\n", sb_known_backends[i], path);
    }
    if (built && !getenv("SIMTBENCH_BACKEND_PATH"))
        fprintf(f, "  (the folders of $SIMTBENCH_BACKEND_PATH come first; it is unset)\n");
    fprintf(f, "Libraries the backends open at run time where installed: CLBlast, cuBLAS, NVRTC\n");
    char gnuplot[1024];
    if (sb_plot_find_gnuplot(gnuplot, sizeof gnuplot) == 0)
        fprintf(f, "gnuplot for plots: %s\n", gnuplot);
    else
        fprintf(f, "gnuplot for plots: not found ($GNUPLOT, then %s, then $PATH)\n",
                SB_GNUPLOT[0] ? SB_GNUPLOT : "none from configure");
}

void sb_options_complete(FILE *out)
{
    static const sb_option_value values[] = {
        {"backend", "backend", "all"},
        {"device", "choice", "all auto"},
        {"experiment", "names", NULL},
        {"format", "format", NULL},
        {"reference", "backend", NULL},
        {"output", "file", NULL},
        {"save", "file", NULL},
        {"plot", "dir", NULL},
        {"dump-ptx", "dir", NULL},
        {NULL, NULL, NULL}};
    sb_complete_print(out, shortopts, longopts, values, NULL);
}
