#include "cli/cmd_compare.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/compare_diff.h"
#include "cli/compare_match.h"
#include "cli/complete.h"
#include "cli/options.h"
#include "report/format.h"
#include "report/json_build.h"
#include "report/json_read.h"
#include "report/layout.h"
#include "plan/output_path.h"
#include "report/output_file.h"
#include "analysis/counter_check.h"
#include "analysis/crossapi.h"
#include "text.h"

#define PROG "simtbench compare"

typedef struct settings {
    double threshold; /* fraction */
    sb_format format;
    int all;
    const char *old_path, *new_path;
    const char *output; /* -o FILE, or NULL for the caller's stream */
} settings;

typedef sb_compare_match match;

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
            if (sb_report_find(optarg, &s->format) ||
                (s->format != SB_FORMAT_TABLE && s->format != SB_FORMAT_JSON &&
                 s->format != SB_FORMAT_MARKDOWN)) {
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

static void label_of(const sb_run *run, const sb_result *r, char *buf, size_t n)
{
    if (r->device_slot >= 0 && r->device_slot < run->ndevices)
        sb_slot_label(run, r->device_slot, buf, n);
    else
        snprintf(buf, n, "%s", r->backend);
}

/* ---------------------------------------------------------------- header */

static const char *kind_name(const match *m)
{
    if (m->old_i < 0)
        return "only in new";
    if (m->new_i < 0)
        return "only in old";
    switch (m->v.kind) {
    case SB_VERDICT_SAME:
        return "same";
    case SB_VERDICT_FASTER:
        return "faster";
    case SB_VERDICT_SLOWER:
        return "slower";
    case SB_VERDICT_NOISY:
        return "noisy";
    default:
        return "n/a";
    }
}

/* "faster by P%" and "slower by P%" give the median time's change, as
 * the change column does, so that the two never read as two figures. */
static void verdict_text(const match *m, char *buf, size_t n)
{
    if (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER)
        snprintf(buf, n, "%s by %.1f%%", kind_name(m), 100.0 * fabs(m->v.change));
    else if (m->v.kind == SB_VERDICT_SAME || m->v.kind == SB_VERDICT_NOISY)
        sb_verdict_text(&m->v, "old", "new", buf, n);
    else
        snprintf(buf, n, "%s", kind_name(m));
}

/* The rule as printed with the table, the markdown and the JSON, with the
 * tolerance the threshold makes. */
static void rule_text(const settings *s, char *buf, size_t n)
{
    snprintf(buf, n,
             "a row is faster or slower when the 95%% interval of its time ratio new/old, from "
             "both runs' saved repetitions (Hodges-Lehmann shift of the log times with its "
             "distribution-free Mann-Whitney interval), lies wholly beyond the tolerance, "
             "%.1f%% (%.0f%% plus the threshold), either way: a change larger than the "
             "tolerance at 95%% confidence.  Where a run saved fewer than %d repetitions (files "
             "that predate samples_ms: none), the spread rule, as the interval column says: "
             "changed when the median time moved by more than the larger of the two runs' "
             "spreads ((max - min) / median) plus the threshold (%.1f%%).  \"By\" is the median "
             "time's change.  A row noisy in either run (its spread, the half-width of the "
             "distribution-free 95%% interval of its median, or its device's drift, beyond the "
             "tolerance) is called noisy, by how much, and neither faster, slower nor the same.",
             100.0 * (SB_VERDICT_TOLERANCE + s->threshold), 100.0 * SB_VERDICT_TOLERANCE,
             SB_VERDICT_MIN_SAMPLES, 100.0 * s->threshold);
}

static int changed(const match *m)
{
    return m->old_i >= 0 && m->new_i >= 0 &&
           (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER);
}

static int noisy(const match *m)
{
    return m->old_i >= 0 && m->new_i >= 0 && m->v.kind == SB_VERDICT_NOISY;
}

typedef struct tally {
    size_t matched, changed, only_old, only_new, noisy;
} tally;

static tally count(const match *m, size_t nm)
{
    tally t = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < nm; i++) {
        if (m[i].old_i < 0)
            t.only_new++;
        else if (m[i].new_i < 0)
            t.only_old++;
        else {
            t.matched++;
            t.changed += changed(&m[i]);
            t.noisy += noisy(&m[i]);
        }
    }
    return t;
}

/* ---------------------------------------------------------------- writers */

/* The counters both sides of a matched row counted that moved by more
 * than the counters' tolerance, into which[0..max): how many. */
static int counters_moved(const sb_run *o, const sb_run *n, const match *m, int *which, int max)
{
    if (m->old_i < 0 || m->new_i < 0)
        return 0;
    const sb_result *a = &o->results[m->old_i], *b = &n->results[m->new_i];
    int k = 0;
    for (int c = 0; a->counted && b->counted && c < SB_COUNTER_COUNT && k < max; c++) {
        double x = a->counts[c], y = b->counts[c];
        double top = x > y ? x : y;
        if (isfinite(x) && isfinite(y) && top > 0 && fabs(x - y) > SB_COUNTER_TOLERANCE * top)
            which[k++] = c;
    }
    return k;
}

/* The table's columns; those that give way to the note under a row leave
 * in this order: the size, the two times, the change, the interval. */
enum { T_NAME, T_DEVICE, T_SIZE, T_OLD, T_NEW, T_INTERVAL, T_CHANGE, T_VERDICT, T_COLUMNS };

static void table_layout(sb_layout *l)
{
    static const sb_layout_column columns[T_COLUMNS] = {
        {.heading = "experiment/variant", .gap = 2},
        {.heading = "device", .gap = 2},
        {.heading = "size", .gap = 2, .give_way = 4, .noted = 1, .note = "size"},
        {.heading = "old ms", .gap = 2, .right = 1, .give_way = 3, .noted = 1, .note = "ms",
         .subject = "old"},
        {.heading = "new ms", .gap = 2, .right = 1, .give_way = 3, .noted = 1, .note = "ms",
         .subject = "new"},
        {.heading = "95% interval", .gap = 2, .give_way = 1, .noted = 1,
         .note = "95% interval"},
        {.heading = "change", .gap = 2, .right = 1, .give_way = 2, .noted = 1, .note = "change"},
        {.heading = "verdict", .gap = 2},
    };
    sb_layout_init(l, sb_layout_width());
    for (int c = 0; c < T_COLUMNS; c++)
        sb_layout_add(l, &columns[c]);
}

static void table_cells(const sb_run *o, const sb_run *n, const match *m, sb_layout_cells *c)
{
    const sb_run *run = m->old_i >= 0 ? o : n;
    const sb_result *r = &run->results[m->old_i >= 0 ? m->old_i : m->new_i];
    memset(c, 0, sizeof *c);
    snprintf(c->cell[T_NAME], SB_LAYOUT_CELL, "%s/%s", r->experiment, r->variant);
    label_of(run, r, c->cell[T_DEVICE], SB_LAYOUT_CELL);
    snprintf(c->cell[T_SIZE], SB_LAYOUT_CELL, "%ldx%ld", r->rows, r->cols);
    verdict_text(m, c->cell[T_VERDICT], SB_LAYOUT_CELL);
    snprintf(c->cell[T_INTERVAL], SB_LAYOUT_CELL, "-");
    if (m->old_i >= 0 && m->new_i >= 0 && m->v.kind != SB_VERDICT_NONE)
        sb_verdict_interval_text(&m->v, SB_INTERVAL_CHANGE, c->cell[T_INTERVAL], SB_LAYOUT_CELL);
    snprintf(c->cell[T_OLD], SB_LAYOUT_CELL, "-");
    snprintf(c->cell[T_NEW], SB_LAYOUT_CELL, "-");
    snprintf(c->cell[T_CHANGE], SB_LAYOUT_CELL, "-");
    if (m->old_i >= 0)
        snprintf(c->cell[T_OLD], SB_LAYOUT_CELL, "%.4f", o->results[m->old_i].ms.median);
    if (m->new_i >= 0)
        snprintf(c->cell[T_NEW], SB_LAYOUT_CELL, "%.4f", n->results[m->new_i].ms.median);
    if (m->old_i >= 0 && m->new_i >= 0)
        snprintf(c->cell[T_CHANGE], SB_LAYOUT_CELL, "%+.1f%%", 100.0 * m->v.change);
}

/* Whether the table lists row m: a change, any matched row with --all, or
 * (unmatched) an unmatched one. */
static int listed(const settings *s, const match *m, int unmatched)
{
    if (unmatched)
        return m->old_i < 0 || m->new_i < 0;
    return changed(m) || noisy(m) || (s->all && m->old_i >= 0 && m->new_i >= 0);
}

/* The rows the table lists (or the unmatched ones), their columns sized
 * together, each with what gave way noted under it. */
static void table_rows(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                       size_t nm, int unmatched, FILE *out)
{
    sb_layout l;
    sb_layout_cells cells;
    table_layout(&l);
    for (size_t i = 0; i < nm; i++)
        if (listed(s, &m[i], unmatched)) {
            table_cells(o, n, &m[i], &cells);
            sb_layout_measure(&l, &cells);
        }
    sb_layout_fit(&l);
    int header = 0;
    for (size_t i = 0; i < nm; i++) {
        if (!listed(s, &m[i], unmatched))
            continue;
        if (!header++) {
            fputs(unmatched ? "\nUnmatched rows:\n" : "\n", out);
            sb_layout_heading(&l, out);
        }
        char note[512];
        table_cells(o, n, &m[i], &cells);
        sb_layout_row(&l, &cells, out);
        sb_layout_given_way(&l, &cells, note, sizeof note);
        if (note[0])
            sb_layout_fold(out, l.width, "      ", 8, note);
    }
}

/* Under the rows: each matched row whose hardware counts moved, with the
 * counts old and new (a change of code or of driver the times may hide). */
static void write_counters_moved(const sb_run *o, const sb_run *n, const match *m, size_t nm,
                                 int width, FILE *out)
{
    int header = 0;
    for (size_t i = 0; i < nm; i++) {
        int which[SB_COUNTER_COUNT];
        int k = counters_moved(o, n, &m[i], which, SB_COUNTER_COUNT);
        if (!k)
            continue;
        if (!header++)
            fprintf(out, "\nCounters that moved by more than %.0f%% (--counters in both runs):\n",
                    100 * SB_COUNTER_TOLERANCE);
        const sb_result *r = &o->results[m[i].old_i];
        char label[SB_SLOT_LABEL], line[512];
        label_of(o, r, label, sizeof label);
        for (int j = 0; j < k; j++) {
            snprintf(line, sizeof line, "%s/%s on %s: %s %.0f -> %.0f", r->experiment,
                     r->variant, label, sb_counter_key(which[j]), r->counts[which[j]],
                     n->results[m[i].new_i].counts[which[j]]);
            sb_layout_fold(out, width, "  ", 6, line);
        }
    }
}

/* "  old: PATH  (simtbench VERSION, DATE, HOST)", folded. */
static void side_line(const char *which, const char *path, const sb_run *r, int width, FILE *out)
{
    char line[2048];
    snprintf(line, sizeof line, "%s: %s  (simtbench %s, %s, %s)", which, path, r->tool_version,
             r->date, r->host);
    sb_layout_fold(out, width, "  ", 7, line);
}

static void write_table(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                        size_t nm, FILE *out)
{
    sb_difference d[64];
    int nd = sb_compare_differences(o, n, d, 64), width = sb_layout_width();
    tally t = count(m, nm);
    fputs("simtbench compare\n", out);
    side_line("old", s->old_path, o, width, out);
    side_line("new", s->new_path, n, width, out);
    int besides_date = 0;
    for (int i = 0; i < nd; i++)
        besides_date |= strcmp(d[i].what, "date") != 0;
    fputc('\n', out);
    sb_layout_fold(out, width, "", 2,
                   besides_date ? "What differs between the runs:"
                                : "What differs between the runs (same host, devices, drivers "
                                  "and tool version):");
    for (int i = 0; i < nd; i++) {
        char first[96], line[400];
        snprintf(first, sizeof first, "  %-18.64s ", d[i].what);
        snprintf(line, sizeof line, "%s  ->  %s", d[i].old_value, d[i].new_value);
        sb_layout_fold(out, width, first, 21, line);
    }
    if (nd == 0)
        fputs("  nothing\n", out);
    char rule[2048] = "Rule: ";
    rule_text(s, rule + strlen(rule), sizeof rule - strlen(rule));
    fputc('\n', out);
    sb_layout_fold(out, width < 78 ? width : 78, "", 0, rule);
    fprintf(out, "\n%zu of %zu matched rows changed; %zu only in old, %zu only in new.\n",
            t.changed, t.matched, t.only_old, t.only_new);
    if (t.noisy) {
        char line[256];
        snprintf(line, sizeof line, "%zu of %zu matched rows noisy%s", t.noisy, t.matched,
                 2 * t.noisy > t.matched ? ": most rows are, so these runs cannot show what "
                                           "changed between them."
                                         : ".");
        sb_layout_fold(out, width < 78 ? width : 78, "", 0, line);
    }
    table_rows(s, o, n, m, nm, 0, out);
    write_counters_moved(o, n, m, nm, width, out);
    table_rows(s, o, n, m, nm, 1, out);
}

/* s for a markdown cell, control characters shown as escapes (as the
 * report's markdown shows them). */
static void md_cell(FILE *out, const char *raw)
{
    size_t size = sb_text_visible_size(raw);
    char *shown = malloc(size);
    const char *s = shown ? sb_text_visible(raw, shown, size) : "";
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '`' || *s == '*')
            fputc('\\', out);
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s == '\n' ? ' ' : *s, out);
    }
    free(shown);
}

static void write_markdown(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                           size_t nm, FILE *out)
{
    sb_difference d[64];
    int nd = sb_compare_differences(o, n, d, 64);
    tally t = count(m, nm);
    fputs("# simtbench compare\n\n- old: `", out);
    md_cell(out, s->old_path);
    fputs("` (simtbench ", out);
    md_cell(out, o->tool_version);
    fputs(", ", out);
    md_cell(out, o->date);
    fputs(")\n- new: `", out);
    md_cell(out, s->new_path);
    fputs("` (simtbench ", out);
    md_cell(out, n->tool_version);
    fputs(", ", out);
    md_cell(out, n->date);
    fputs(")\n\n## What differs\n\n| what | old | new |\n|---|---|---|\n", out);
    for (int i = 0; i < nd; i++) {
        fputs("| ", out);
        md_cell(out, d[i].what);
        fputs(" | ", out);
        md_cell(out, d[i].old_value);
        fputs(" | ", out);
        md_cell(out, d[i].new_value);
        fputs(" |\n", out);
    }
    char rule[2048];
    rule_text(s, rule, sizeof rule);
    rule[0] = 'A';
    fprintf(out, "\n%s %zu of %zu matched rows changed; %zu only in old, %zu only in new.",
            rule, t.changed, t.matched, t.only_old, t.only_new);
    if (t.noisy)
        fprintf(out, "  %s%zu of %zu matched rows noisy%s", 2 * t.noisy > t.matched ? "**" : "",
                t.noisy, t.matched,
                2 * t.noisy > t.matched ? ": most rows are, so these runs cannot show what "
                                          "changed between them.**"
                                        : ".");
    fputs("\n\n", out);
    fputs("| device | experiment | variant | size | old ms | new ms | 95% interval of change | "
          "change | verdict |\n"
          "|---|---|---|---|---:|---:|---|---:|---|\n",
          out);
    for (size_t i = 0; i < nm; i++) {
        const match *x = &m[i];
        int unmatched = x->old_i < 0 || x->new_i < 0;
        if (!changed(x) && !noisy(x) && !unmatched && !s->all)
            continue;
        const sb_run *run = x->old_i >= 0 ? o : n;
        const sb_result *r = &run->results[x->old_i >= 0 ? x->old_i : x->new_i];
        char label[SB_SLOT_LABEL], verdict[64];
        label_of(run, r, label, sizeof label);
        verdict_text(x, verdict, sizeof verdict);
        fputs("| ", out);
        md_cell(out, label);
        fputs(" | ", out);
        md_cell(out, r->experiment);
        fputs(" | ", out);
        md_cell(out, r->variant);
        fprintf(out, " | %ldx%ld | ", r->rows, r->cols);
        if (x->old_i >= 0)
            fprintf(out, "%.4f", o->results[x->old_i].ms.median);
        fputs(" | ", out);
        if (x->new_i >= 0)
            fprintf(out, "%.4f", n->results[x->new_i].ms.median);
        fputs(" | ", out);
        if (!unmatched && x->v.kind != SB_VERDICT_NONE) {
            char interval[48];
            sb_verdict_interval_text(&x->v, SB_INTERVAL_CHANGE, interval, sizeof interval);
            md_cell(out, interval);
        }
        fputs(" | ", out);
        if (!unmatched)
            fprintf(out, "%+.1f%%", 100.0 * x->v.change);
        fputs(" | ", out);
        md_cell(out, verdict);
        fputs(" |\n", out);
    }
}

/* One run's provenance: the file, the tool, and each device. */
static json_t *side_json(const char *path, const sb_run *r, sb_json_builder *b)
{
    json_t *side = json_object(), *devs = json_array();
    sb_json_put_str(side, "file", path, b);
    sb_json_put_str(side, "tool_version", r->tool_version, b);
    sb_json_put_str(side, "date", r->date, b);
    sb_json_put_str(side, "host", r->host, b);
    sb_json_put(side, "devices", devs, b);
    for (int i = 0; devs && i < r->ndevices; i++) {
        char label[24];
        sb_slot_label(r, i, label, sizeof label);
        json_t *d = json_object();
        sb_json_put_str(d, "device", label, b);
        sb_json_put_str(d, "name", r->devices[i].info.name, b);
        sb_json_put_str(d, "driver", r->devices[i].info.driver, b);
        sb_json_put_str(d, "api_version", r->devices[i].info.api_version, b);
        if (json_array_append_new(devs, d))
            sb_json_put(NULL, "devices", NULL, b);
    }
    return side;
}

/* One side's time of a matched or unmatched row. */
static void time_json(json_t *row, const char *key, const sb_result *r, sb_json_builder *b)
{
    json_t *t = sb_json_put_object(row, key, b);
    sb_json_put_real(t, "median_ms", r->ms.median, b);
    sb_json_put_real(t, "spread", r->ms.spread, b);
}

/* The time ratio new/old of the medians, its 95% interval (null under the
 * spread rule) and what the verdict was reached by. */
static void interval_json(json_t *row, const sb_verdict *v, sb_json_builder *b)
{
    int known = v->basis == SB_BASIS_INTERVAL;
    char basis[48];
    sb_verdict_interval_text(v, SB_INTERVAL_CHANGE, basis, sizeof basis);
    if (v->speed_ratio > 0)
        sb_json_put_real(row, "time_ratio", 1.0 / v->speed_ratio, b);
    if (known) {
        sb_json_put_real(row, "ci_low", v->ratio_low, b);
        sb_json_put_real(row, "ci_high", v->ratio_high, b);
    } else {
        sb_json_put(row, "ci_low", json_null(), b);
        sb_json_put(row, "ci_high", json_null(), b);
    }
    sb_json_put_str(row, "basis", known ? "interval" : basis, b);
}

static json_t *row_json(const sb_run *o, const sb_run *n, const match *x, sb_json_builder *b)
{
    const sb_run *run = x->old_i >= 0 ? o : n;
    const sb_result *r = &run->results[x->old_i >= 0 ? x->old_i : x->new_i];
    char label[24];
    label_of(run, r, label, sizeof label);
    json_t *row = json_object();
    sb_json_put_str(row, "device", label, b);
    sb_json_put_str(row, "experiment", r->experiment, b);
    sb_json_put_str(row, "variant", r->variant, b);
    sb_json_put_int(row, "rows", r->rows, b);
    sb_json_put_int(row, "cols", r->cols, b);
    sb_json_put_str(row, "verdict", kind_name(x), b);
    if (x->old_i >= 0)
        time_json(row, "old", &o->results[x->old_i], b);
    if (x->new_i >= 0)
        time_json(row, "new", &n->results[x->new_i], b);
    if (x->old_i >= 0 && x->new_i >= 0) {
        sb_json_put_real(row, "change", x->v.change, b);
        interval_json(row, &x->v, b);
        sb_json_put_real(row, "margin", x->v.margin, b);
        sb_json_put_real(row, "by", x->v.by, b);
        if (noisy(x))
            sb_json_put_real(row, "noise", x->v.noise, b);
    }
    int which[SB_COUNTER_COUNT];
    int k = counters_moved(o, n, x, which, SB_COUNTER_COUNT);
    json_t *moved = k ? sb_json_put_object(row, "counters_moved", b) : NULL;
    for (int j = 0; moved && j < k; j++)
        sb_json_put(moved, sb_counter_key(which[j]),
                    json_pack("[f,f]", o->results[x->old_i].counts[which[j]],
                              n->results[x->new_i].counts[which[j]]),
                    b);
    return row;
}

/* Everything before the rows; NULL with the reason in why. */
static json_t *head_json(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                         size_t nm, char *why, size_t wn)
{
    sb_difference d[64];
    int nd = sb_compare_differences(o, n, d, 64);
    tally t = count(m, nm);
    sb_json_builder b = {NULL, NULL};
    json_t *root = json_object(), *diffs = json_array(), *sum;
    sb_json_put_str(root, "schema", "simtbench-compare/1", &b);
    sb_json_put(root, "old", side_json(s->old_path, o, &b), &b);
    sb_json_put(root, "new", side_json(s->new_path, n, &b), &b);
    sb_json_put_real(root, "threshold", s->threshold, &b);
    char rule[2048];
    rule_text(s, rule, sizeof rule);
    rule[0] = 'A';
    sb_json_put_str(root, "rule", rule, &b);
    sb_json_put(root, "differences", diffs, &b);
    for (int i = 0; diffs && i < nd; i++) {
        json_t *e = json_object();
        sb_json_put_str(e, "what", d[i].what, &b);
        sb_json_put_str(e, "old", d[i].old_value, &b);
        sb_json_put_str(e, "new", d[i].new_value, &b);
        if (json_array_append_new(diffs, e))
            sb_json_put(NULL, "differences", NULL, &b);
    }
    if ((sum = sb_json_put_object(root, "summary", &b))) {
        sb_json_put_int(sum, "matched", (json_int_t)t.matched, &b);
        sb_json_put_int(sum, "changed", (json_int_t)t.changed, &b);
        sb_json_put_int(sum, "noisy", (json_int_t)t.noisy, &b);
        sb_json_put(sum, "mostly_noisy", json_boolean(2 * t.noisy > t.matched), &b);
        sb_json_put_int(sum, "only_in_old", (json_int_t)t.only_old, &b);
        sb_json_put_int(sum, "only_in_new", (json_int_t)t.only_new, &b);
    }
    if (!b.refused)
        return root;
    char old_file[300], new_file[300];
    sb_json_printable(s->old_path, old_file, sizeof old_file);
    sb_json_printable(s->new_path, new_file, sizeof new_file);
    snprintf(why, wn, "the header of %s against %s: its %s %s", old_file, new_file, b.refused,
             b.why);
    json_decref(root);
    return NULL;
}

/* Every row built and checked (out == NULL), or written; 0, or -1 with
 * the row named in why. */
static int rows_pass(const sb_run *o, const sb_run *n, const match *m, size_t nm, FILE *out,
                     char *why, size_t wn)
{
    for (size_t i = 0; i < nm; i++) {
        sb_json_builder b = {NULL, NULL};
        json_t *row = row_json(o, n, &m[i], &b);
        if (b.refused) {
            const sb_run *run = m[i].old_i >= 0 ? o : n;
            const sb_result *r = &run->results[m[i].old_i >= 0 ? m[i].old_i : m[i].new_i];
            char experiment[128], variant[192];
            sb_json_printable(r->experiment, experiment, sizeof experiment);
            sb_json_printable(r->variant, variant, sizeof variant);
            snprintf(why, wn, "rows[%zu] (%s/%s): its %s %s", i, experiment, variant, b.refused,
                     b.why);
            json_decref(row);
            return -1;
        }
        if (out) {
            fputs(i ? ",\n    " : "[\n    ", out);
            sb_json_dump_at(row, 4, out);
        }
        json_decref(row);
    }
    if (out)
        fputs(nm ? "\n  ]\n}\n" : "[]\n}\n", out);
    return 0;
}

/* The comparison as JSON, every row checked before the first byte is
 * written and then written one at a time; 0, or -1 with the reason. */
static int write_json(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                      size_t nm, FILE *out, char *why, size_t wn)
{
    json_t *head = head_json(s, o, n, m, nm, why, wn);
    if (!head || rows_pass(o, n, m, nm, NULL, why, wn)) {
        json_decref(head);
        return -1;
    }
    fputs("{\n", out);
    const char *key;
    json_t *v;
    json_object_foreach(head, key, v)
    {
        fprintf(out, "  \"%s\": ", key);
        sb_json_dump_at(v, 2, out);
        fputs(",\n", out);
    }
    json_decref(head);
    fputs("  \"rows\": ", out);
    return rows_pass(o, n, m, nm, out, why, wn);
}

/* The comparison in the asked format on out; 0, or -1 with the reason. */
static int write_comparison(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                            size_t nm, FILE *out, char *why, size_t wn)
{
    why[0] = '\0';
    if (s->format == SB_FORMAT_JSON && write_json(s, o, n, m, nm, out, why, wn))
        return -1;
    if (s->format == SB_FORMAT_MARKDOWN)
        write_markdown(s, o, n, m, nm, out);
    else if (s->format != SB_FORMAT_JSON)
        write_table(s, o, n, m, nm, out);
    if (fflush(out) || ferror(out)) {
        snprintf(why, wn, "%s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The comparison to -o's file (replaced only when complete) or to out;
 * SB_EXIT_OK, or SB_EXIT_IO after one line on err. */
static int output(const settings *s, const sb_run *o, const sb_run *n, const match *m, size_t nm,
                  FILE *out, FILE *err)
{
    char why[1024], msg[1200];
    sb_output_file file;
    if (s->output && sb_output_open(&file, s->output, msg, sizeof msg)) {
        sb_text_message(err, PROG, msg);
        return SB_EXIT_IO;
    }
    errno = 0;
    if (write_comparison(s, o, n, m, nm, s->output ? file.f : out, why, sizeof why)) {
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
    size_t nm = 0;
    match *m = sb_compare_match_rows(&o, &n, s.threshold, &nm);
    if (!m) {
        fprintf(err, PROG ": out of host memory\n");
        sb_run_free(&o);
        sb_run_free(&n);
        return SB_EXIT_RUNTIME;
    }
    st = output(&s, &o, &n, m, nm, out, err);
    free(m);
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
