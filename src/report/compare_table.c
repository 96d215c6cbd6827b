/* `simtbench compare` as a table (compare.h's writer for "table"). */
#include "report/compare.h"

#include <stdio.h>
#include <string.h>

#include "report/compare_words.h"
#include "report/layout.h"

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

static void table_cells(const sb_run *o, const sb_run *n, const sb_compare_match *m,
                        sb_layout_cells *c)
{
    const sb_run *run = m->old_i >= 0 ? o : n;
    const sb_result *r = &run->results[m->old_i >= 0 ? m->old_i : m->new_i];
    memset(c, 0, sizeof *c);
    snprintf(c->cell[T_NAME], SB_LAYOUT_CELL, "%s/%s", r->experiment, r->variant);
    sb_compare_label(run, r, c->cell[T_DEVICE], SB_LAYOUT_CELL);
    snprintf(c->cell[T_SIZE], SB_LAYOUT_CELL, "%ldx%ld", r->rows, r->cols);
    sb_compare_verdict_text(m, c->cell[T_VERDICT], SB_LAYOUT_CELL);
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
static int listed(const sb_comparison *c, const sb_compare_match *m, int unmatched)
{
    if (unmatched)
        return m->old_i < 0 || m->new_i < 0;
    return sb_compare_changed(m) || sb_compare_noisy(m) || (c->all && m->old_i >= 0 && m->new_i >= 0);
}

/* The rows the table lists (or the unmatched ones), their columns sized
 * together, each with what gave way noted under it. */
static void table_rows(const sb_comparison *c, int unmatched, FILE *out)
{
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_compare_match *m = c->rows;
    size_t nm = c->nrows;
    sb_layout l;
    sb_layout_cells cells;
    table_layout(&l);
    for (size_t i = 0; i < nm; i++)
        if (listed(c, &m[i], unmatched)) {
            table_cells(o, n, &m[i], &cells);
            sb_layout_measure(&l, &cells);
        }
    sb_layout_fit(&l);
    int header = 0;
    for (size_t i = 0; i < nm; i++) {
        if (!listed(c, &m[i], unmatched))
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
static void write_counters_moved(const sb_comparison *c, int width, FILE *out)
{
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_compare_match *m = c->rows;
    int header = 0;
    for (size_t i = 0; i < c->nrows; i++) {
        const int *which = c->moved[i].which;
        int k = c->moved[i].n;
        if (!k)
            continue;
        if (!header++)
            fprintf(out, "\nCounters that moved by more than %.0f%% (--counters in both runs):\n",
                    100 * SB_COUNTER_TOLERANCE);
        const sb_result *r = &o->results[m[i].old_i];
        char label[SB_SLOT_LABEL], line[512];
        sb_compare_label(o, r, label, sizeof label);
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

int sb_compare_table(const sb_comparison *c, FILE *out, char *err, size_t en)
{
    (void)err, (void)en;
    const sb_difference *d = c->differences;
    int nd = c->ndifferences, width = sb_layout_width();
    const sb_compare_tally t = c->tally;
    fputs("simtbench compare\n", out);
    side_line("old", c->old_path, c->old_run, width, out);
    side_line("new", c->new_path, c->new_run, width, out);
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
    sb_compare_rule_text(c->threshold, rule + strlen(rule), sizeof rule - strlen(rule));
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
    table_rows(c, 0, out);
    write_counters_moved(c, width, out);
    table_rows(c, 1, out);
    return 0;
}
