/* `simtbench compare` as JSON (compare.h's writer for "json"). */
#include "report/compare.h"

#include <jansson.h>
#include <stdio.h>

#include "report/compare_words.h"
#include "report/json_build.h"
#include "report/report.h"

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

static json_t *row_json(const sb_comparison *c, size_t i, sb_json_builder *b)
{
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_compare_match *x = &c->rows[i];
    const sb_run *run = x->old_i >= 0 ? o : n;
    const sb_result *r = &run->results[x->old_i >= 0 ? x->old_i : x->new_i];
    char label[24];
    sb_compare_label(run, r, label, sizeof label);
    json_t *row = json_object();
    sb_json_put_str(row, "device", label, b);
    sb_json_put_str(row, "experiment", r->experiment, b);
    sb_json_put_str(row, "variant", r->variant, b);
    sb_json_put_int(row, "rows", r->rows, b);
    sb_json_put_int(row, "cols", r->cols, b);
    sb_json_put_str(row, "verdict", sb_compare_kind_name(x), b);
    if (x->old_i >= 0)
        time_json(row, "old", &o->results[x->old_i], b);
    if (x->new_i >= 0)
        time_json(row, "new", &n->results[x->new_i], b);
    if (x->old_i >= 0 && x->new_i >= 0) {
        sb_json_put_real(row, "change", x->v.change, b);
        interval_json(row, &x->v, b);
        sb_json_put_real(row, "margin", x->v.margin, b);
        sb_json_put_real(row, "by", x->v.by, b);
        if (sb_compare_noisy(x))
            sb_json_put_real(row, "noise", x->v.noise, b);
    }
    const int *which = c->moved[i].which;
    int k = c->moved[i].n;
    json_t *moved = k ? sb_json_put_object(row, "counters_moved", b) : NULL;
    for (int j = 0; moved && j < k; j++)
        sb_json_put(moved, sb_counter_key(which[j]),
                    json_pack("[f,f]", o->results[x->old_i].counts[which[j]],
                              n->results[x->new_i].counts[which[j]]),
                    b);
    return row;
}

/* Everything before the rows; NULL with the reason in why. */
static json_t *head_json(const sb_comparison *c, char *why, size_t wn)
{
    const sb_difference *d = c->differences;
    int nd = c->ndifferences;
    const sb_compare_tally t = c->tally;
    sb_json_builder b = {NULL, NULL};
    json_t *root = json_object(), *diffs = json_array(), *sum;
    sb_json_put_str(root, "schema", "simtbench-compare/1", &b);
    sb_json_put(root, "old", side_json(c->old_path, c->old_run, &b), &b);
    sb_json_put(root, "new", side_json(c->new_path, c->new_run, &b), &b);
    sb_json_put_real(root, "threshold", c->threshold, &b);
    char rule[2048];
    sb_compare_rule_text(c->threshold, rule, sizeof rule);
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
    sb_json_printable(c->old_path, old_file, sizeof old_file);
    sb_json_printable(c->new_path, new_file, sizeof new_file);
    snprintf(why, wn, "the header of %s against %s: its %s %s", old_file, new_file, b.refused,
             b.why);
    json_decref(root);
    return NULL;
}

/* Every row built and checked (out == NULL), or written; 0, or -1 with
 * the row named in why. */
static int rows_pass(const sb_comparison *c, FILE *out, char *why, size_t wn)
{
    const sb_run *o = c->old_run, *n = c->new_run;
    const sb_compare_match *m = c->rows;
    size_t nm = c->nrows;
    for (size_t i = 0; i < nm; i++) {
        sb_json_builder b = {NULL, NULL};
        json_t *row = row_json(c, i, &b);
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
int sb_compare_json(const sb_comparison *c, FILE *out, char *why, size_t wn)
{
    json_t *head = head_json(c, why, wn);
    if (!head || rows_pass(c, NULL, why, wn)) {
        json_decref(head);
        return SB_REPORT_REFUSED;
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
    return rows_pass(c, out, why, wn) ? SB_REPORT_REFUSED : 0;
}
