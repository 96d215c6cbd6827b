#include "cli/model_index.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model_table.h"
#include "cli/options.h"
#include "cli/pattern_options.h"
#include "exec/trace_pass.h"
#include "experiments/experiment.h"
#include "experiments/pattern.h"
#include "report/layout.h"

/* What the command line asked for. */
typedef struct index_spec {
    sb_pattern_request r;
    const char *backend; /* -b NAME; NULL: the first with a device */
    long threads;        /* --size: threads launched (n) */
    int json, lanes;
} index_spec;

/* One row: the expression's worst sampled warp, and what the trace said. */
typedef struct index_row {
    sb_pattern_traced t;
} index_row;

enum { O_FORMAT = 500, O_LANES, O_SIZE };

static const struct option longopts[] = {
    SB_PATTERN_LONGOPTS,
    {"backend", required_argument, NULL, 'b'},
    {"format", required_argument, NULL, O_FORMAT},
    {"lanes", no_argument, NULL, O_LANES},
    {"size", required_argument, NULL, 's'},
    {NULL, 0, NULL, 0},
};

int sb_model_index_asked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--index") == 0 || strncmp(argv[i], "--index=", 8) == 0)
            return 1;
    return 0;
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "simtbench model: %s\n", msg);
    return SB_EXIT_USAGE;
}

static int parse_one(int c, const char *arg, index_spec *s, char *err, size_t n)
{
    int r = sb_pattern_option(c, arg, &s->r, err, n);
    if (r != 1)
        return r ? -1 : 0;
    long rows, cols;
    switch (c) {
    case 'b':
        s->backend = arg;
        return 0;
    case O_FORMAT:
        if (strcmp(arg, "json") && strcmp(arg, "table")) {
            snprintf(err, n, "--format must be table or json, not '%s'", arg);
            return -1;
        }
        s->json = strcmp(arg, "json") == 0;
        return 0;
    case O_LANES:
        s->lanes = 1;
        return 0;
    case 's':
    case O_SIZE:
        if (sb_parse_size(arg, &rows, &cols) || rows * cols > (1L << 24)) {
            snprintf(err, n, "--size must be N or MxN threads, at most 2^24, not '%s'", arg);
            return -1;
        }
        s->threads = rows * cols;
        return 0;
    }
    snprintf(err, n, "option '%s' does not go with --index (see simtbench model --help)",
             arg ? arg : "?");
    return -1;
}

static int parse(int argc, char **argv, index_spec *s)
{
    char err[512];
    memset(s, 0, sizeof *s);
    s->threads = 4096;
    s->r.space = SB_SPACE_SHARED; /* as the model's other queries */
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":b:s:", longopts, NULL)) != -1;) {
        if (c == ':' || c == '?') {
            snprintf(err, sizeof err, "option '%s' %s", argv[optind - 1],
                     c == ':' ? "needs a value" : "does not go with --index");
            return usage_error(err);
        }
        if (parse_one(c, optarg, s, err, sizeof err))
            return usage_error(err);
    }
    if (optind < argc) {
        snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
        return usage_error(err);
    }
    if (sb_pattern_options_check(&s->r, err, sizeof err))
        return usage_error(err);
    if (!s->r.word)
        s->r.word = 4;
    return 0;
}

/* Each expression's trace pass on d, into rows: 0, or an exit status
   with its line said. */
static int trace_all(const index_spec *s, sb_trace_device *d, index_row *rows)
{
    static char err[4096], line[4096];
    long blocks = (s->threads + 255) / 256;
    sb_launch g = {{(unsigned)blocks, 1, 1}, {SB_PATTERN_BLOCK_X, SB_PATTERN_BLOCK_Y, 1}};
    for (int i = 0; i < s->r.nindex; i++) {
        sb_variant v;
        int32_t trace[SB_TRACE_INTS];
        if (sb_pattern_variant(&s->r, i, &v, err, sizeof err))
            return usage_error(err);
        const char *defs[SB_MAX_DEFINES];
        for (int k = 0; k < v.ndefines; k++)
            defs[k] = v.defines[k];
        int rc = sb_trace_device_run(d, defs, v.ndefines, "pattern_trace", (int32_t)s->threads,
                                     &g, trace, SB_TRACE_INTS, err, sizeof err);
        if (rc == 1) {
            int mask = s->r.mask[0] && strstr(err, "MASK");
            sb_pattern_build_message(mask ? "--mask" : "--index", mask ? s->r.mask : s->r.index[i],
                                     d->slot.name, err, line, sizeof line);
            fprintf(stderr, "simtbench: %s\n", line);
            return SB_EXIT_USAGE;
        }
        if (rc || sb_pattern_from_trace(trace, s->threads, s->r.space, s->r.word, &rows[i].t, err,
                                        sizeof err)) {
            fprintf(stderr, "simtbench model: %s\n", err);
            return SB_EXIT_RUNTIME;
        }
    }
    return 0;
}

/* What the trace says beyond the worst warp's request. */
static void row_note(const index_spec *s, const index_row *row, char *buf, size_t n)
{
    const sb_pattern_traced *t = &row->t;
    int w = snprintf(buf, n, "worst of %d sampled warps: warp %ld", t->nsamples + t->idle,
                     t->warp[t->worst]);
    if (t->reduced && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w,
                 "; %d lanes' index reduced into the buffer of %ld elements, so not what "
                 "was written", t->reduced, sb_pattern_elements(&s->r, s->threads));
}

static void header(const index_spec *s, const sb_trace_device *d, char *buf, size_t n)
{
    snprintf(buf, n, "%s, %d-byte words, %ss%s%s, %ld threads (32x8 blocks), traced on %s (%s)",
             sb_space_name(s->r.space), s->r.word, s->r.store ? "store" : "load",
             s->r.mask[0] ? " of lanes where " : "", s->r.mask, s->threads, d->info.name,
             d->slot.name);
}

static void print_table(const index_spec *s, const sb_trace_device *d, const index_row *rows)
{
    char head[1024], note[512];
    int ncolumns;
    const sb_layout_column *columns = sb_model_pattern_columns(s->r.space, &ncolumns);
    sb_layout l;
    sb_layout_cells cells;
    sb_layout_init(&l, sb_layout_width());
    header(s, d, head, sizeof head);
    sb_model_comment(stdout, l.width, head);
    for (int c = 0; c < ncolumns; c++)
        sb_layout_add(&l, &columns[c]);
    for (int i = 0; i < s->r.nindex; i++) {
        sb_model_pattern_cells(s->r.index[i], &rows[i].t.pattern[rows[i].t.worst], &cells);
        sb_layout_measure(&l, &cells);
    }
    sb_layout_fit(&l);
    sb_layout_heading(&l, stdout);
    for (int i = 0; i < s->r.nindex; i++) {
        const sb_pattern *p = &rows[i].t.pattern[rows[i].t.worst];
        sb_model_pattern_cells(s->r.index[i], p, &cells);
        sb_layout_row(&l, &cells, stdout);
        sb_layout_given_way(&l, &cells, note, sizeof note);
        if (note[0])
            sb_layout_fold(stdout, l.width, "    ", 6, note);
        row_note(s, &rows[i], note, sizeof note);
        sb_layout_fold(stdout, l.width, "    ", 6, note);
        if (s->lanes)
            sb_model_lanes_table(stdout, p);
    }
}

static void print_json(const index_spec *s, const sb_trace_device *d, const index_row *rows)
{
    char head[1024];
    header(s, d, head, sizeof head);
    fputs("{\n  \"schema\": \"simtbench-model/1\",\n  \"pattern\": ", stdout);
    sb_model_json_string(stdout, head);
    fputs(",\n  \"rows\": [", stdout);
    for (int i = 0; i < s->r.nindex; i++) {
        const sb_pattern_traced *t = &rows[i].t;
        fputs(i ? ",\n    " : "\n    ", stdout);
        sb_model_json_row_open(stdout, s->r.index[i], &t->pattern[t->worst], s->lanes);
        fputs(", \"expression\": ", stdout);
        sb_model_json_string(stdout, s->r.index[i]);
        printf(", \"worst_warp\": %ld, \"sampled_warps\": %d, \"reduced_lanes\": %d}",
               t->warp[t->worst], t->nsamples + t->idle, t->reduced);
    }
    fputs("\n  ]\n}\n", stdout);
}

int sb_model_index(int argc, char **argv)
{
    index_spec s;
    int rc = parse(argc, argv, &s);
    if (rc)
        return rc;
    char err[2048];
    sb_trace_device d;
    if (sb_trace_device_open(&d, s.backend, "pattern.cl", err, sizeof err)) {
        fprintf(stderr, "simtbench model: %s\n", err);
        return SB_EXIT_UNAVAILABLE;
    }
    index_row *rows = calloc((size_t)s.r.nindex, sizeof *rows);
    rc = rows ? trace_all(&s, &d, rows) : SB_EXIT_RUNTIME;
    if (!rc && s.json)
        print_json(&s, &d, rows);
    else if (!rc)
        print_table(&s, &d, rows);
    sb_trace_device_close(&d);
    free(rows);
    return rc ? rc : fflush(stdout) || ferror(stdout) ? SB_EXIT_IO : SB_EXIT_OK;
}
