/* `simtbench compare` as Markdown (compare.h's writer for "markdown"). */
#include "report/compare.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/compare_words.h"
#include "text.h"

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

/* The two runs and what differs between them. */
static void md_head(const sb_comparison *c, FILE *out)
{
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_difference *d = c->differences;
    fputs("# simtbench compare\n\n- old: `", out);
    md_cell(out, c->old_path);
    fputs("` (simtbench ", out);
    md_cell(out, o->tool_version);
    fputs(", ", out);
    md_cell(out, o->date);
    fputs(")\n- new: `", out);
    md_cell(out, c->new_path);
    fputs("` (simtbench ", out);
    md_cell(out, n->tool_version);
    fputs(", ", out);
    md_cell(out, n->date);
    fputs(")\n\n## What differs\n\n| what | old | new |\n|---|---|---|\n", out);
    for (int i = 0; i < c->ndifferences; i++) {
        fputs("| ", out);
        md_cell(out, d[i].what);
        fputs(" | ", out);
        md_cell(out, d[i].old_value);
        fputs(" | ", out);
        md_cell(out, d[i].new_value);
        fputs(" |\n", out);
    }
}

int sb_compare_markdown(const sb_comparison *c, FILE *out, char *err, size_t en)
{
    (void)err, (void)en;
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_compare_match *m = c->rows;
    size_t nm = c->nrows;
    const sb_compare_tally t = c->tally;
    md_head(c, out);
    char rule[2048];
    sb_compare_rule_text(c->threshold, rule, sizeof rule);
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
        const sb_compare_match *x = &m[i];
        int unmatched = x->old_i < 0 || x->new_i < 0;
        if (!sb_compare_changed(x) && !sb_compare_noisy(x) && !unmatched && !c->all)
            continue;
        const sb_run *run = x->old_i >= 0 ? o : n;
        const sb_result *r = &run->results[x->old_i >= 0 ? x->old_i : x->new_i];
        char label[SB_SLOT_LABEL], verdict[64];
        sb_compare_label(run, r, label, sizeof label);
        sb_compare_verdict_text(x, verdict, sizeof verdict);
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
    return 0;
}
