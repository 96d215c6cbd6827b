#include "cli/cmd_compare.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "report/format.h"
#include "report/json_build.h"
#include "report/json_read.h"
#include "report/output_file.h"
#include "run/counter_check.h"
#include "run/crossapi.h"

#define PROG "simtbench compare"

typedef struct settings {
    double threshold; /* fraction */
    sb_format format;
    int all;
    const char *old_path, *new_path;
    const char *output; /* -o FILE, or NULL for the caller's stream */
} settings;

/* One matched, or unmatched, row. */
typedef struct match {
    long old_i, new_i; /* -1 where the row is only in the other run */
    sb_verdict v;
} match;

static void usage(FILE *f)
{
    fputs("Usage: simtbench compare [OPTION]... OLD.json NEW.json\n"
          "List what got faster or slower between two runs saved with --format json.\n"
          "\n"
          "Rows are matched on device (backend, numbered when a run opened one twice),\n"
          "experiment, variant and size.  A row changed when the 95% interval of its time\n"
          "ratio new/old, from both runs' saved repetitions (Hodges-Lehmann, with its\n"
          "distribution-free Mann-Whitney interval), lies wholly beyond 2% plus the\n"
          "threshold either way; anything else is within the noise.  Where a run saved\n"
          "fewer than 5 repetitions (older files: none), a row changed when its median\n"
          "time moved by more than the larger of the two runs' spreads ((max - min) /\n"
          "median) plus the threshold.\n"
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
          "comparison cannot be written.\n",
          f);
}

static int parse(int argc, char **argv, settings *s, FILE *err, int *help)
{
    static const struct option longopts[] = {{"threshold", required_argument, NULL, 't'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"all", no_argument, NULL, 'a'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    memset(s, 0, sizeof *s);
    *help = 0;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
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

/* A result with what it is matched on: its device's label, experiment,
 * variant and size; then its place in its run. */
typedef struct keyed {
    char label[SB_SLOT_LABEL];
    const sb_result *r;
    size_t i;
} keyed;

static int key_order(const keyed *a, const keyed *b)
{
    int c = strcmp(a->label, b->label);
    if (!c)
        c = strcmp(a->r->experiment, b->r->experiment);
    if (!c)
        c = strcmp(a->r->variant, b->r->variant);
    if (!c)
        c = (a->r->rows > b->r->rows) - (a->r->rows < b->r->rows);
    if (!c)
        c = (a->r->cols > b->r->cols) - (a->r->cols < b->r->cols);
    return c;
}

static int by_key(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = key_order(a, b);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The run's results keyed and sorted; NULL out of memory. */
static keyed *sorted_keys(const sb_run *run)
{
    keyed *k = malloc((run->nresults + 1) * sizeof *k);
    char (*labels)[SB_SLOT_LABEL] = malloc(sizeof *labels * SB_RUN_MAX_DEVICES);
    if (!k || !labels) {
        free(k);
        free(labels);
        return NULL;
    }
    sb_slot_labels(run, labels); /* once, not once a result */
    for (size_t i = 0; i < run->nresults; i++) {
        k[i].r = &run->results[i];
        k[i].i = i;
        int slot = k[i].r->device_slot;
        snprintf(k[i].label, sizeof k[i].label, "%s",
                 slot >= 0 && slot < run->ndevices ? labels[slot] : k[i].r->backend);
    }
    free(labels);
    qsort(k, run->nresults, sizeof *k, by_key);
    return k;
}

/* Where the new results of old result ko's key start in nk (sorted), or
 * nn when there are none. */
static size_t first_of_key(const keyed *nk, size_t nn, const keyed *ko)
{
    size_t lo = 0, hi = nn;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_order(&nk[mid], ko) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nn && key_order(&nk[lo], ko) == 0 ? lo : nn;
}

/* Old rows in order, each with the first new row of its key that no
 * earlier old row took; then the new rows nobody took.  Within one key
 * the new rows are taken in run order, so each key keeps a cursor. */
static match *match_rows(const sb_run *o, const sb_run *n, double threshold, size_t *count)
{
    match *m = calloc(o->nresults + n->nresults + 1, sizeof *m);
    char *taken = calloc(n->nresults + 1, 1);
    size_t *cursor = malloc((n->nresults + 1) * sizeof *cursor);
    keyed *ok = sorted_keys(o), *nk = sorted_keys(n);
    size_t k = 0;
    if (m && taken && cursor && ok && nk) {
        for (size_t j = 0; j < n->nresults; j++)
            cursor[j] = j;
        for (size_t i = 0; i < o->nresults; i++) {
            const keyed *key = &ok[i];
            size_t at = first_of_key(nk, n->nresults, key);
            size_t next = at < n->nresults ? cursor[at] : at;
            match *x = &m[key->i];
            x->old_i = (long)key->i;
            x->new_i = -1;
            if (next < n->nresults && key_order(&nk[next], key) == 0) {
                cursor[at] = next + 1;
                taken[nk[next].i] = 1;
                x->new_i = (long)nk[next].i;
                x->v = sb_verdict_compare(key->r, nk[next].r, threshold);
            }
        }
        k = o->nresults;
        for (size_t j = 0; j < n->nresults; j++)
            if (!taken[j])
                m[k++] = (match){-1, (long)j, {0}};
    } else {
        free(m);
        m = NULL;
    }
    free(taken);
    free(cursor);
    free(ok);
    free(nk);
    *count = k;
    return m;
}

/* ---------------------------------------------------------------- header */

typedef struct difference {
    char what[64];
    char old_value[160], new_value[160];
} difference;

static int add_diff(difference *d, int nd, int max, const char *what, const char *a,
                    const char *b)
{
    if (nd >= max || strcmp(a, b) == 0)
        return nd;
    snprintf(d[nd].what, sizeof d[nd].what, "%s", what);
    snprintf(d[nd].old_value, sizeof d[nd].old_value, "%s", a[0] ? a : "(none)");
    snprintf(d[nd].new_value, sizeof d[nd].new_value, "%s", b[0] ? b : "(none)");
    return nd + 1;
}

/* What differs besides the timings, device by device (matched on label). */
static int differences(const sb_run *o, const sb_run *n, difference *d, int max)
{
    int nd = 0;
    nd = add_diff(d, nd, max, "tool version", o->tool_version, n->tool_version);
    nd = add_diff(d, nd, max, "host", o->host, n->host);
    nd = add_diff(d, nd, max, "date", o->date, n->date);
    const sb_run *runs[2] = {o, n};
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < runs[side]->ndevices; i++) {
            char label[SB_SLOT_LABEL], what[96];
            sb_slot_label(runs[side], i, label, sizeof label);
            int j, found = -1;
            const sb_run *other = runs[1 - side];
            for (j = 0; j < other->ndevices && found < 0; j++) {
                char l2[SB_SLOT_LABEL];
                sb_slot_label(other, j, l2, sizeof l2);
                if (strcmp(label, l2) == 0)
                    found = j;
            }
            const sb_device_info *a = &runs[side]->devices[i].info;
            if (found < 0) {
                snprintf(what, sizeof what, "%s device", label);
                nd = side == 0 ? add_diff(d, nd, max, what, a->name, "")
                               : add_diff(d, nd, max, what, "", a->name);
                continue;
            }
            if (side == 1)
                continue; /* matched devices were compared from the old side */
            const sb_device_info *b = &n->devices[found].info;
            const struct {
                const char *what;
                const char *a, *b;
            } fields[] = {{"device", a->name, b->name},
                          {"platform", a->platform, b->platform},
                          {"API", a->api_version, b->api_version},
                          {"driver", a->driver, b->driver},
                          {"arch", a->arch, b->arch}};
            for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
                snprintf(what, sizeof what, "%s %s", label, fields[f].what);
                nd = add_diff(d, nd, max, what, fields[f].a, fields[f].b);
            }
        }
    return nd;
}

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
    default:
        return "n/a";
    }
}

static void verdict_text(const match *m, char *buf, size_t n)
{
    if (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER)
        snprintf(buf, n, "%s by %.1f%%", kind_name(m), 100.0 * m->v.by);
    else if (m->v.kind == SB_VERDICT_SAME)
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
             "spreads ((max - min) / median) plus the threshold (%.1f%%).",
             100.0 * (SB_VERDICT_TOLERANCE + s->threshold), 100.0 * SB_VERDICT_TOLERANCE,
             SB_VERDICT_MIN_SAMPLES, 100.0 * s->threshold);
}

/* text on lines of at most `width` columns, broken at spaces. */
static void print_wrapped(FILE *out, const char *text, size_t width)
{
    while (strlen(text) > width) {
        size_t cut = width;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (cut == 0)
            break;
        fprintf(out, "%.*s\n", (int)cut, text);
        text += cut;
        while (*text == ' ')
            text++;
    }
    fprintf(out, "%s\n", text);
}

static int changed(const match *m)
{
    return m->old_i >= 0 && m->new_i >= 0 &&
           (m->v.kind == SB_VERDICT_FASTER || m->v.kind == SB_VERDICT_SLOWER);
}

typedef struct tally {
    size_t matched, changed, only_old, only_new;
} tally;

static tally count(const match *m, size_t nm)
{
    tally t = {0, 0, 0, 0};
    for (size_t i = 0; i < nm; i++) {
        if (m[i].old_i < 0)
            t.only_new++;
        else if (m[i].new_i < 0)
            t.only_old++;
        else {
            t.matched++;
            t.changed += changed(&m[i]);
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

/* Under the rows: each matched row whose hardware counts moved, with the
 * counts old and new (a change of code or of driver the times may hide). */
static void write_counters_moved(const sb_run *o, const sb_run *n, const match *m, size_t nm,
                                 FILE *out)
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
        char label[SB_SLOT_LABEL];
        label_of(o, r, label, sizeof label);
        for (int j = 0; j < k; j++)
            fprintf(out, "  %-9s %-14s %-18s %-22s %14.0f -> %-14.0f\n", label, r->experiment,
                    r->variant, sb_counter_key(which[j]), r->counts[which[j]],
                    n->results[m[i].new_i].counts[which[j]]);
    }
}

static void table_row(const sb_run *o, const sb_run *n, const match *m, FILE *out)
{
    const sb_run *run = m->old_i >= 0 ? o : n;
    const sb_result *r = &run->results[m->old_i >= 0 ? m->old_i : m->new_i];
    char label[SB_SLOT_LABEL], size[48], verdict[64], om[24] = "-", nm[24] = "-";
    char change[24] = "-";
    char interval[48] = "-";
    label_of(run, r, label, sizeof label);
    snprintf(size, sizeof size, "%ldx%ld", r->rows, r->cols);
    verdict_text(m, verdict, sizeof verdict);
    if (m->old_i >= 0 && m->new_i >= 0 && m->v.kind != SB_VERDICT_NONE)
        sb_verdict_interval_text(&m->v, SB_INTERVAL_CHANGE, interval, sizeof interval);
    if (m->old_i >= 0)
        snprintf(om, sizeof om, "%.4f", o->results[m->old_i].ms.median);
    if (m->new_i >= 0)
        snprintf(nm, sizeof nm, "%.4f", n->results[m->new_i].ms.median);
    if (m->old_i >= 0 && m->new_i >= 0)
        snprintf(change, sizeof change, "%+.1f%%", 100.0 * m->v.change);
    fprintf(out, "  %-9s %-14s %-18s %-11s %10s %10s  %-24s %8s  %s\n", label, r->experiment,
            r->variant, size, om, nm, interval, change, verdict);
}

static void write_table(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                        size_t nm, FILE *out)
{
    difference d[64];
    int nd = differences(o, n, d, 64);
    tally t = count(m, nm);
    fprintf(out, "simtbench compare\n  old: %s  (simtbench %s, %s, %s)\n  new: %s  (simtbench "
                 "%s, %s, %s)\n",
            s->old_path, o->tool_version, o->date, o->host, s->new_path, n->tool_version,
            n->date, n->host);
    int besides_date = 0;
    for (int i = 0; i < nd; i++)
        besides_date |= strcmp(d[i].what, "date") != 0;
    fprintf(out, "\nWhat differs between the runs%s:\n",
            besides_date ? "" : " (same host, devices, drivers and tool version)");
    for (int i = 0; i < nd; i++)
        fprintf(out, "  %-18s %s  ->  %s\n", d[i].what, d[i].old_value, d[i].new_value);
    if (nd == 0)
        fputs("  nothing\n", out);
    char rule[1024] = "Rule: ";
    rule_text(s, rule + strlen(rule), sizeof rule - strlen(rule));
    fputc('\n', out);
    print_wrapped(out, rule, 78);
    fprintf(out, "\n%zu of %zu matched rows changed; %zu only in old, %zu only in new.\n",
            t.changed, t.matched, t.only_old, t.only_new);
    int header = 0;
    for (size_t i = 0; i < nm; i++) {
        if (!changed(&m[i]) && !(s->all && m[i].old_i >= 0 && m[i].new_i >= 0))
            continue;
        if (!header++)
            fprintf(out, "\n  %-9s %-14s %-18s %-11s %10s %10s  %-24s %8s  %s\n", "device",
                    "experiment", "variant", "size", "old ms", "new ms", "95% interval of change",
                    "change", "verdict");
        table_row(o, n, &m[i], out);
    }
    write_counters_moved(o, n, m, nm, out);
    if (t.only_old + t.only_new) {
        fputs("\nUnmatched rows:\n", out);
        for (size_t i = 0; i < nm; i++)
            if (m[i].old_i < 0 || m[i].new_i < 0)
                table_row(o, n, &m[i], out);
    }
}

static void md_cell(FILE *out, const char *s)
{
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
}

static void write_markdown(const settings *s, const sb_run *o, const sb_run *n, const match *m,
                           size_t nm, FILE *out)
{
    difference d[64];
    int nd = differences(o, n, d, 64);
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
    char rule[1024];
    rule_text(s, rule, sizeof rule);
    rule[0] = 'A';
    fprintf(out, "\n%s %zu of %zu matched rows changed; %zu only in old, %zu only in new.\n\n",
            rule, t.changed, t.matched, t.only_old, t.only_new);
    fputs("| device | experiment | variant | size | old ms | new ms | 95% interval of change | "
          "change | verdict |\n"
          "|---|---|---|---|---:|---:|---|---:|---|\n",
          out);
    for (size_t i = 0; i < nm; i++) {
        const match *x = &m[i];
        int unmatched = x->old_i < 0 || x->new_i < 0;
        if (!changed(x) && !unmatched && !s->all)
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
    difference d[64];
    int nd = differences(o, n, d, 64);
    tally t = count(m, nm);
    sb_json_builder b = {NULL, NULL};
    json_t *root = json_object(), *diffs = json_array(), *sum;
    sb_json_put_str(root, "schema", "simtbench-compare/1", &b);
    sb_json_put(root, "old", side_json(s->old_path, o, &b), &b);
    sb_json_put(root, "new", side_json(s->new_path, n, &b), &b);
    sb_json_put_real(root, "threshold", s->threshold, &b);
    char rule[1024];
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
        fprintf(err, PROG ": %s\n", msg);
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
        fprintf(err, PROG ": %s\n", msg);
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
        fprintf(err, PROG ": %s\n", why);
        return SB_EXIT_IO;
    }
    int rc = sb_run_read_json(s.old_path, &o, why, sizeof why);
    if (rc) {
        fprintf(err, PROG ": %s\n", why);
        return rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
    }
    if ((rc = sb_run_read_json(s.new_path, &n, why, sizeof why))) {
        fprintf(err, PROG ": %s\n", why);
        sb_run_free(&o);
        return rc == SB_RUN_READ_NOMEM ? SB_EXIT_RUNTIME : SB_EXIT_IO;
    }
    size_t nm = 0;
    match *m = match_rows(&o, &n, s.threshold, &nm);
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
