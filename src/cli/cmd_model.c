/* `simtbench model`: prints what the memory-access model (common/model.h)
 * predicts for one access pattern, or for a sweep of strides, or for every
 * access one variant's kernel executes with the totals per launch
 * (--variant), as a table or as JSON.  Nothing reaches stdout until every
 * requested pattern has been checked, so a usage error leaves stdout empty
 * and one line on stderr. */
#include "cli/cmd_model.h"

#include "cli/model_index.h"
#include "cli/model_table.h"
#include "cli/model_variant.h"
#include "cli/complete.h"
#include "cli/options.h"
#include "model.h"
#include "report/layout.h"
#include "text.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "simtbench model"
#define MAX_ROWS 65536 /* a sweep longer than this is surely a typo */

enum { FMT_TABLE, FMT_JSON };

/* What the command line asked for. */
typedef struct spec {
    sb_pattern base;      /* every field but the swept ones */
    long stride_lo, stride_hi;
    int have_stride, have_broadcast;
    int have_tile, have_walk, have_pad, have_swizzle, have_walk_index;
    int format;
    int lanes;
    int have_pattern;     /* an option that shapes one access was given */
    const char *variant;  /* --variant EXPERIMENT/VARIANT, or NULL */
    long rows, cols;      /* --size; 0 for the experiment's own */
    long units;           /* --units */
} spec;

static void usage(FILE *f)
{
    sb_layout_help(f, sb_layout_width(), "Usage: simtbench model [OPTION]...\n"
          "Predict what one warp-wide memory access costs, from the access pattern alone.\n"
          "\n"
          "  --space global|shared   memory space (default shared)\n"
          "  --word 4|8|16           bytes per lane (default 4)\n"
          "  --stride S | A-B        words between lanes (default 1); A-B sweeps, one row each\n"
          "  --broadcast             every lane the same word (stride 0)\n"
          "  --offset K              words added to every lane (misalignment)\n"
          "  --perm P                none, reverse, xor[:MASK] (default 1), random[:SEED] (default 1)\n"
          "  --spread                each lane in its own 128-byte segment\n"
          "  --same K                groups of K consecutive lanes share one address\n"
          "  --tile RxC              walk a tile[R][C + pad] instead (both walks unless --walk)\n"
          "  --pad P                 extra columns per tile row\n"
          "  --swizzle               store column c of row r at c ^ (r % C)\n"
          "  --walk row|column       lanes go along a row or down a column\n"
          "  --walk-index N          the row or column walked (default 0)\n"
          "  --active N              only the first N lanes take part (a tail)\n"
          "  --format table|json     output (default table)\n"
          "  --lanes                 also print every lane's address, bank, sector\n"
          "  -h, --help              this text\n"
          "\n"
          "Or every access one variant's kernel executes, with the model's totals per launch\n"
          "(what the hardware's counters count), planned without a device:\n"
          "  --variant EXP/VARIANT   a variant of an experiment (see simtbench --list)\n"
          "  --size N|MxN            its size, as simtbench's --size (default: a CPU device's)\n"
          "  --units N               multiprocessors of the device planned for (default 132)\n"
          "\n"
          "Or an access you write, traced by the pattern family's kernel on a device (the\n"
          "first that opens; PoCL does without a GPU), each --index one row:\n"
          "  --index EXPR            the element lane takes, in C over i, lane, warp, tx, ty,\n"
          "                          bx, by, bdx, bdy and n (simtbench(1): The pattern family)\n"
          "  --mask EXPR             only the lanes where EXPR is non-zero take part\n"
          "  --store                 stores instead of loads\n"
          "  -b, --backend NAME      the backend to trace on (default: the first that opens)\n"
          "  --size N|MxN            threads launched, as simtbench's --size (default 1x4096)\n"
          "\n"
          "Examples: simtbench model --stride 6            (2-way bank conflict)\n"
          "          simtbench model --space global --stride 8  (32 sectors, 12.5%)\n"
          "          simtbench model --tile 32x32 --pad 1\n"
          "          simtbench model --variant global_perm/w4-random1-spread-load --size 8192\n");
}

#if defined(__GNUC__)
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_PRINTF(f, a)
#endif

static int fail(const char *fmt, ...) SB_PRINTF(1, 2);

/* Prints the one line a usage error gets and returns the usage status. */
static int fail(const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    sb_text_message(stderr, PROG, message);
    return 2;
}

/* Parses a whole decimal number in [lo, hi]: 0 ok, 1 not a number, 2 out of range. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    if (s == NULL || !((*s >= '0' && *s <= '9') || *s == '-'))
        return 1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0')
        return 1;
    if (errno == ERANGE || v < lo || v > hi)
        return 2;
    *out = v;
    return 0;
}

/* Parses a bounded number for option `name`, printing the error itself. */
static int opt_long(const char *name, const char *arg, long lo, long hi, const char *what,
                    long *out)
{
    if (parse_long(arg, lo, hi, out) == 0)
        return 0;
    return fail("--%s must be %s, not '%s'", name, what, arg);
}

static int parse_stride(spec *s, const char *arg)
{
    char what[64];
    snprintf(what, sizeof what, "0..%ld words or a range A-B", SB_MODEL_MAX_STRIDE);
    const char *dash = arg[0] ? strchr(arg + 1, '-') : NULL;
    if (dash == NULL) {
        if (opt_long("stride", arg, 0, SB_MODEL_MAX_STRIDE, what, &s->stride_lo))
            return 2;
        s->stride_hi = s->stride_lo;
        return 0;
    }
    char first[32];
    size_t len = (size_t)(dash - arg);
    if (len >= sizeof first)
        return fail("--stride must be %s, not '%s'", what, arg);
    memcpy(first, arg, len);
    first[len] = '\0';
    if (parse_long(first, 0, SB_MODEL_MAX_STRIDE, &s->stride_lo) != 0 ||
        parse_long(dash + 1, 0, SB_MODEL_MAX_STRIDE, &s->stride_hi) != 0)
        return fail("--stride must be %s, not '%s'", what, arg);
    if (s->stride_hi < s->stride_lo)
        return fail("--stride range '%s' runs backwards", arg);
    if (s->stride_hi - s->stride_lo >= MAX_ROWS)
        return fail("--stride range '%s' gives more than 65536 rows", arg);
    return 0;
}

static int parse_perm(spec *s, const char *arg)
{
    const char *colon = strchr(arg, ':');
    size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
    long v = 1; /* the default mask or seed when none is given */
    if (len == 4 && strncmp(arg, "none", 4) == 0 && !colon) {
        s->base.perm = SB_PERM_NONE;
        v = 0;
    } else if (len == 7 && strncmp(arg, "reverse", 7) == 0 && !colon) {
        s->base.perm = SB_PERM_REVERSE;
        v = 0;
    } else if (len == 3 && strncmp(arg, "xor", 3) == 0) {
        s->base.perm = SB_PERM_XOR;
        if (colon && parse_long(colon + 1, 0, SB_WARP_LANES - 1, &v) != 0)
            return fail("--perm xor takes a mask 0..31, not '%s'", arg);
    } else if (len == 6 && strncmp(arg, "random", 6) == 0) {
        s->base.perm = SB_PERM_RANDOM;
        if (colon && parse_long(colon + 1, 0, (long)(UINT_MAX > LONG_MAX ? LONG_MAX : UINT_MAX),
                                &v) != 0)
            return fail("--perm random takes a seed 0..4294967295, not '%s'", arg);
    } else {
        return fail("--perm must be none, reverse, xor[:MASK] or random[:SEED], not '%s'", arg);
    }
    s->base.perm_arg = (unsigned)v;
    return 0;
}

static int parse_tile(spec *s, const char *arg)
{
    const char *x = strpbrk(arg, "xX");
    char rows[32];
    size_t len = x ? (size_t)(x - arg) : 0;
    long r, c;
    if (x == NULL || len >= sizeof rows)
        return fail("--tile must be ROWSxCOLS (e.g. 32x33), not '%s'", arg);
    memcpy(rows, arg, len);
    rows[len] = '\0';
    if (parse_long(rows, 1, SB_MODEL_MAX_TILE, &r) != 0 ||
        parse_long(x + 1, 1, SB_MODEL_MAX_TILE, &c) != 0)
        return fail("--tile must be ROWSxCOLS, each 1..65536, not '%s'", arg);
    s->base.tile_rows = (int)r;
    s->base.tile_cols = (int)c;
    s->have_tile = 1;
    return 0;
}

enum { O_SPACE = 256, O_WORD, O_STRIDE, O_OFFSET, O_PERM, O_SPREAD, O_BROADCAST, O_SAME,
       O_TILE, O_PAD, O_SWIZZLE, O_WALK, O_WALK_INDEX, O_FORMAT, O_LANES, O_ACTIVE, O_VARIANT,
       O_SIZE, O_UNITS, O_NEEDS_INDEX };

/* The short options, getopt_long's string: ":" first, so that a missing
 * value is told apart from an unknown option. */
static const char shortopts[] = ":h";

static const struct option longopts[] = {
    {"space", required_argument, NULL, O_SPACE},
    {"word", required_argument, NULL, O_WORD},
    {"stride", required_argument, NULL, O_STRIDE},
    {"offset", required_argument, NULL, O_OFFSET},
    {"perm", required_argument, NULL, O_PERM},
    {"spread", no_argument, NULL, O_SPREAD},
    {"broadcast", no_argument, NULL, O_BROADCAST},
    {"same", required_argument, NULL, O_SAME},
    {"tile", required_argument, NULL, O_TILE},
    {"pad", required_argument, NULL, O_PAD},
    {"swizzle", no_argument, NULL, O_SWIZZLE},
    {"walk", required_argument, NULL, O_WALK},
    {"walk-index", required_argument, NULL, O_WALK_INDEX},
    {"format", required_argument, NULL, O_FORMAT},
    {"lanes", no_argument, NULL, O_LANES},
    {"active", required_argument, NULL, O_ACTIVE},
    {"variant", required_argument, NULL, O_VARIANT},
    {"size", required_argument, NULL, O_SIZE},
    {"units", required_argument, NULL, O_UNITS},
    /* --index's (cli/model_index.c, which takes the command when --index is given) */
    {"index", required_argument, NULL, O_NEEDS_INDEX},
    {"mask", required_argument, NULL, O_NEEDS_INDEX},
    {"store", no_argument, NULL, O_NEEDS_INDEX},
    {"backend", required_argument, NULL, O_NEEDS_INDEX},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The options that shape one warp's access; 0 ok, 2 usage error, 1 not
   one of these. */
static int parse_access_option(int c, const char *arg, spec *s)
{
    long v;
    switch (c) {
    case O_SPACE:
        if (strcmp(arg, "global") == 0)
            s->base.space = SB_SPACE_GLOBAL;
        else if (strcmp(arg, "shared") == 0)
            s->base.space = SB_SPACE_SHARED;
        else
            return fail("--space must be global or shared, not '%s'", arg);
        return 0;
    case O_WORD:
        if (parse_long(arg, 4, 16, &v) != 0 || (v != 4 && v != 8 && v != 16))
            return fail("--word must be 4, 8 or 16 bytes, not '%s'", arg);
        s->base.word_bytes = (int)v;
        return 0;
    case O_STRIDE:
        if (parse_stride(s, arg))
            return 2;
        s->have_stride = 1;
        return 0;
    case O_OFFSET:
        if (opt_long("offset", arg, 0, SB_MODEL_MAX_OFFSET, "0..16777216 words", &v))
            return 2;
        s->base.offset = v;
        return 0;
    case O_PERM:
        return parse_perm(s, arg) ? 2 : 0;
    case O_SPREAD:
        s->base.spread = 1;
        return 0;
    case O_BROADCAST:
        s->have_broadcast = 1;
        return 0;
    case O_SAME:
        if (opt_long("same", arg, 0, SB_WARP_LANES, "0..32 lanes", &v))
            return 2;
        s->base.same = (int)v;
        return 0;
    case O_ACTIVE:
        if (opt_long("active", arg, 1, SB_WARP_LANES, "1..32 lanes", &v))
            return 2;
        s->base.active = v == SB_WARP_LANES ? 0u : (1u << v) - 1u;
        return 0;
    }
    return 1;
}

/* The options of --variant; 0 ok, 2 usage error, 1 not one of these. */
static int parse_variant_option(int c, const char *arg, spec *s)
{
    switch (c) {
    case O_VARIANT:
        s->variant = arg;
        return 0;
    case O_SIZE:
        if (sb_parse_size(arg, &s->rows, &s->cols))
            return fail("--size must be N or MxN, each 1 or more, not '%s'", arg);
        /* The experiment's inputs are made on the host, as for a run. */
        if ((double)s->rows * (double)s->cols > (double)(1L << 30))
            return fail("--size %s is more than 2^30 elements", arg);
        return 0;
    case O_UNITS:
        return opt_long("units", arg, 1, 65536, "1..65536 multiprocessors", &s->units) ? 2 : 0;
    }
    return 1;
}

/* The shared-memory tile's options and the output's; 0 ok, 2 usage
   error, 1 not one of these. */
static int parse_tile_option(int c, const char *arg, spec *s)
{
    long v;
    switch (c) {
    case O_TILE:
        return parse_tile(s, arg) ? 2 : 0;
    case O_PAD:
        if (opt_long("pad", arg, 0, SB_MODEL_MAX_TILE, "0..65536 columns", &v))
            return 2;
        s->base.pad = (int)v;
        s->have_pad = 1;
        return 0;
    case O_SWIZZLE:
        s->base.swizzle = 1;
        s->have_swizzle = 1;
        return 0;
    case O_WALK:
        if (strcmp(arg, "row") == 0)
            s->base.walk = SB_WALK_ROW;
        else if (strcmp(arg, "column") == 0 || strcmp(arg, "col") == 0)
            s->base.walk = SB_WALK_COLUMN;
        else
            return fail("--walk must be row or column, not '%s'", arg);
        s->have_walk = 1;
        return 0;
    case O_WALK_INDEX:
        if (opt_long("walk-index", arg, 0, SB_MODEL_MAX_TILE - 1, "0..65535", &v))
            return 2;
        s->base.walk_index = (int)v;
        s->have_walk_index = 1;
        return 0;
    case O_FORMAT:
        if (strcmp(arg, "table") == 0)
            s->format = FMT_TABLE;
        else if (strcmp(arg, "json") == 0)
            s->format = FMT_JSON;
        else
            return fail("--format must be table or json, not '%s'", arg);
        return 0;
    case O_LANES:
        s->lanes = 1;
        return 0;
    }
    return 1;
}

/* getopt's complaints as our own one-line messages; always 2. */
static int getopt_failure(int c, char **argv)
{
    if (c == ':')
        return fail("option '%s' needs a value", argv[optind - 1]);
    if (optopt > 0 && optopt < 256)
        return fail("unknown option '-%c' (see --help)", optopt);
    if (optopt >= 256) /* a known long option given a value it does not take */
        return fail("option '%s' takes no value", argv[optind - 1]);
    return fail("unknown option '%s' (see --help)", argv[optind - 1]);
}

/* Contradictions the model would report less clearly; 0 or 2. */
static int check_combination(spec *s)
{
    if (s->variant && s->have_pattern)
        return fail("--variant takes its accesses from the variant: drop the pattern options");
    if (!s->variant && (s->rows || s->units != 132))
        return fail("--size and --units need --variant");
    if (s->have_broadcast && s->have_stride)
        return fail("--broadcast and --stride contradict each other");
    if (s->have_tile && (s->have_stride || s->have_broadcast))
        return fail("--stride and --broadcast do not apply to --tile");
    if (!s->have_tile && (s->have_pad || s->have_swizzle || s->have_walk || s->have_walk_index))
        return fail("--pad, --swizzle, --walk and --walk-index need --tile");
    if (s->base.spread && (s->have_stride || s->have_broadcast))
        return fail("--spread sets the lane step itself: drop --stride/--broadcast");
    if (s->have_broadcast)
        s->stride_lo = s->stride_hi = 0;
    return 0;
}

/* Parses argv into *s; 0 ok, 2 usage error (printed), -1 help printed. */
static int parse_args(int argc, char **argv, spec *s)
{
    memset(s, 0, sizeof *s);
    s->base = sb_pattern_default();
    s->stride_lo = s->stride_hi = 1;
    s->format = FMT_TABLE;
    s->units = 132;

    /* getopt keeps state between calls and the main program may already
       have parsed its own options.  glibc only forgets a half-parsed option
       cluster when optind is 0; elsewhere 1 is the reset. */
#ifdef __GLIBC__
    optind = 0;
#else
    optind = 1;
#endif
    opterr = 0; /* our own one-line messages instead of getopt's */
    for (;;) {
        int c = getopt_long(argc, argv, shortopts, longopts, NULL);
        if (c == -1)
            break;
        if (c == 'h') {
            usage(stdout);
            return -1;
        }
        if (c == O_NEEDS_INDEX)
            return fail("--index, --mask, --store and --backend go together: no --index given");
        int st = parse_access_option(c, optarg, s);
        if (st == 1)
            st = parse_tile_option(c, optarg, s);
        if (st == 1)
            st = parse_variant_option(c, optarg, s);
        else
            s->have_pattern |= c != O_FORMAT && c != O_LANES;
        if (st == 1)
            return getopt_failure(c, argv);
        if (st)
            return st;
    }
    if (optind < argc)
        return fail("unexpected argument '%s'", argv[optind]);
    return check_combination(s);
}

/* Number of rows: a stride sweep, or both walks of a tile when none is named. */
static long row_count(const spec *s)
{
    if (s->have_tile)
        return s->have_walk ? 1 : 2;
    return s->stride_hi - s->stride_lo + 1;
}

/* The pattern of row i. */
static sb_pattern row_pattern(const spec *s, long i)
{
    sb_pattern p = s->base;
    if (s->have_tile) {
        if (!s->have_walk)
            p.walk = i == 0 ? SB_WALK_ROW : SB_WALK_COLUMN;
    } else {
        p.stride = s->stride_lo + i;
    }
    return p;
}

/* The short name of what varies between rows. */
static void row_label(const sb_pattern *p, char *buf, size_t n)
{
    if (p->walk != SB_WALK_NONE)
        snprintf(buf, n, "%s walk %d", sb_walk_name(p->walk), p->walk_index);
    else if (p->spread)
        snprintf(buf, n, "spread");
    else if (p->stride == 0)
        snprintf(buf, n, "broadcast");
    else
        snprintf(buf, n, "stride %ld", p->stride);
}

/* The header's name of the whole request (a sweep shows its range). */
static void header_text(const spec *s, char *buf, size_t n)
{
    sb_pattern p = row_pattern(s, 0);
    if (s->have_tile && !s->have_walk)
        p.walk = SB_WALK_ROW;
    int sweep = !s->have_tile && s->stride_hi > s->stride_lo;
    if (sweep)
        p.stride = 1; /* described as ", stride 1", then widened below */
    char d[512];
    if (sb_pattern_describe(&p, d, sizeof d) < 0)
        d[0] = '\0';
    if (s->have_tile && !s->have_walk) {
        /* Both walks are rows: name the tile without one. */
        char *w = strstr(d, ", row walk at row");
        if (w)
            *w = '\0';
        snprintf(buf, n, "%s, row and column walks", d);
        return;
    }
    char *st = sweep ? strstr(d, ", stride 1") : NULL;
    if (st) {
        *st = '\0';
        snprintf(buf, n, "%s, stride %ld-%ld%s", d, s->stride_lo, s->stride_hi,
                 st + strlen(", stride 1"));
        return;
    }
    snprintf(buf, n, "%s", d);
}

/* Row i's cells, in the pattern table's columns (model_table.h). */
static void table_cells(const spec *s, long i, sb_pattern *p, sb_layout_cells *c)
{
    char label[SB_LAYOUT_CELL];
    *p = row_pattern(s, i);
    row_label(p, label, sizeof label);
    sb_model_pattern_cells(label, p, c);
}

static void print_table(FILE *out, const spec *s, const char *header)
{
    int ncolumns;
    const sb_layout_column *columns = sb_model_pattern_columns(s->base.space, &ncolumns);
    sb_layout l;
    sb_layout_cells cells;
    sb_pattern p;
    sb_layout_init(&l, sb_layout_width());
    sb_model_comment(out, l.width, header);
    for (int c = 0; c < ncolumns; c++)
        sb_layout_add(&l, &columns[c]);
    long rows = row_count(s);
    for (long i = 0; i < rows; i++) {
        table_cells(s, i, &p, &cells);
        sb_layout_measure(&l, &cells);
    }
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    for (long i = 0; i < rows; i++) {
        char note[256];
        table_cells(s, i, &p, &cells);
        sb_layout_row(&l, &cells, out);
        sb_layout_given_way(&l, &cells, note, sizeof note);
        if (note[0])
            sb_layout_fold(out, l.width, "    ", 6, note);
        if (s->lanes)
            sb_model_lanes_table(out, &p);
    }
}

static void print_json(FILE *out, const spec *s, const char *header)
{
    fputs("{\n  \"schema\": \"simtbench-model/1\",\n  \"pattern\": ", out);
    sb_model_json_string(out, header);
    fputs(",\n  \"rows\": [", out);
    long rows = row_count(s);
    for (long i = 0; i < rows; i++) {
        sb_pattern p = row_pattern(s, i);
        char label[64];
        row_label(&p, label, sizeof label);
        fputs(i ? ",\n    " : "\n    ", out);
        sb_model_json_row_open(out, label, &p, s->lanes);
        fputc('}', out);
    }
    fputs("\n  ]\n}\n", out);
}

/* ------------------------------------------------------------ --variant */

static void print_variant_json(FILE *out, const sb_model_variant *m, const sb_access_totals *t,
                               const spec *s)
{
    char header[256];
    sb_model_variant_header(m, s->units, header, sizeof header);
    fputs("{\n  \"schema\": \"simtbench-model/1\",\n  \"pattern\": ", out);
    sb_model_json_string(out, header);
    fputs(",\n  \"rows\": [", out);
    const sb_plan *plan = &m->plan;
    for (int i = 0; i < plan->npatterns; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        sb_model_json_row_open(out, plan->pattern_label[i], &plan->pattern[i], s->lanes);
        fprintf(out, ", \"kind\": \"%s\", \"requests\": %.0f, \"studied\": %s}",
                sb_access_kind_name(plan->kind[i]), plan->requests[i],
                plan->studied[i] ? "true" : "false");
    }
    fputs("\n  ],\n  \"totals\": {", out);
    for (size_t k = 0; sb_access_totals_field_at(k); k++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(k);
        double v = sb_access_totals_value(t, f);
        fprintf(out, k ? ", \"%s\": " : "\"%s\": ", f->name);
        if (f->ratio && !(v > 0))
            fputs("null", out);
        else
            fprintf(out, f->ratio ? "%.10g" : "%.0f", v);
    }
    fputs("}\n}\n", out);
}

/* --variant: plan it, then print its accesses and their totals. */
static int model_variant(const spec *s)
{
    static sb_model_variant m; /* a plan is large for the stack */
    char err[640];
    if (sb_model_variant_plan(s->variant, s->rows, s->cols, (int)s->units, &m, err, sizeof err))
        return fail("%s", err);
    sb_access_totals t;
    if (sb_access_totals_of(m.plan.pattern, m.plan.requests, m.plan.kind, m.plan.npatterns, &t))
        return fail("%s: the model rejects a declared access", s->variant);
    if (s->format == FMT_JSON)
        print_variant_json(stdout, &m, &t, s);
    else
        sb_model_variant_table(stdout, &m, &t, s->units, s->lanes);
    return 0;
}

/* Output that could not be written is a file error (5), as for every
   command, never the wrong-result status: 0 when stdout took it all. */
static int stdout_status(void)
{
    int error = fflush(stdout) ? errno : 0;
    if (!error && !ferror(stdout))
        return 0;
    fprintf(stderr, PROG ": could not write the output: %s\n",
            error ? strerror(error) : "a write failed");
    return 5;
}

int sb_cmd_model(int argc, char **argv)
{
    if (sb_model_index_asked(argc, argv))
        return sb_model_index(argc, argv);
    spec s;
    int rc = parse_args(argc, argv, &s);
    if (rc == -1)
        return stdout_status();
    if (rc != 0)
        return rc;
    if (s.variant)
        return model_variant(&s) ? 2 : stdout_status();

    /* Check every row before printing anything, so that an error leaves
       stdout empty (rows are few and checks cheap). */
    long rows = row_count(&s);
    for (long i = 0; i < rows; i++) {
        sb_pattern p = row_pattern(&s, i);
        const char *why = sb_pattern_check(&p);
        if (why != NULL)
            return fail("%s", why);
    }

    char header[640];
    header_text(&s, header, sizeof header);
    if (s.format == FMT_JSON)
        print_json(stdout, &s, header);
    else
        print_table(stdout, &s, header);
    return stdout_status();
}

void sb_cmd_model_complete(FILE *out)
{
    static const sb_option_value values[] = {
        {"space", "choice", "global shared"},
        {"word", "choice", "4 8 16"},
        {"perm", "choice", "none reverse xor random"},
        {"walk", "choice", "row column"},
        {"format", "choice", "table json"},
        {NULL, NULL, NULL}};
    sb_complete_print(out, shortopts, longopts, values, NULL);
}
