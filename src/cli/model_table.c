#include "cli/model_table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/layout.h"

void sb_model_comment(FILE *out, int width, const char *text)
{
    char *folded = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&folded, &size);
    if (!f) {
        fprintf(out, "# %s\n", text);
        return;
    }
    sb_layout_fold(f, width - 2 > 20 ? width - 2 : 20, "", 2, text);
    fclose(f);
    for (char *line = folded, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        fprintf(out, "# %.*s\n", (int)(end ? end - line : (long)strlen(line)), line);
        if (!end)
            break;
    }
    free(folded);
}

void sb_model_variant_header(const sb_model_variant *m, long units, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s at %ldx%ld, for %ld multiprocessors: every access its kernel "
             "executes", m->experiment->name, m->variant.name, m->size.rows, m->size.cols, units);
}

enum { L_LANE, L_ADDRESS, L_INDEX, L_BANKS, L_PHASE, L_SECTOR, L_SEGMENT, L_COLUMNS };

/* One lane's cells. */
static void lane_cells(const sb_pattern *p, const uint64_t *a, int l, sb_layout_cells *c)
{
    int nb = p->word_bytes / SB_BANK_BYTES, b = sb_bank_of(a[l]);
    memset(c, 0, sizeof *c);
    snprintf(c->cell[L_LANE], SB_LAYOUT_CELL, "%d", l);
    snprintf(c->cell[L_ADDRESS], SB_LAYOUT_CELL, "%llu", (unsigned long long)a[l]);
    snprintf(c->cell[L_INDEX], SB_LAYOUT_CELL, "%llu",
             (unsigned long long)(a[l] / (uint64_t)p->word_bytes));
    if (nb == 1)
        snprintf(c->cell[L_BANKS], SB_LAYOUT_CELL, "%d", b);
    else
        snprintf(c->cell[L_BANKS], SB_LAYOUT_CELL, "%d-%d", b, b + nb - 1);
    snprintf(c->cell[L_PHASE], SB_LAYOUT_CELL, "%d", l / (SB_WARP_LANES / nb));
    snprintf(c->cell[L_SECTOR], SB_LAYOUT_CELL, "%llu",
             (unsigned long long)(a[l] / SB_SECTOR_BYTES));
    snprintf(c->cell[L_SEGMENT], SB_LAYOUT_CELL, "%llu",
             (unsigned long long)(a[l] / SB_SEGMENT_BYTES));
}

void sb_model_lanes_table(FILE *out, const sb_pattern *p)
{
    static const sb_layout_column columns[L_COLUMNS] = {
        {.heading = "lane", .gap = 4, .right = 1},
        {.heading = "address", .gap = 2, .right = 1},
        {.heading = "index", .gap = 2, .right = 1},
        {.heading = "banks", .gap = 2, .right = 1},
        {.heading = "phase", .gap = 2, .right = 1},
        {.heading = "sector", .gap = 2, .right = 1, .give_way = 1, .noted = 1, .note = "sector"},
        {.heading = "segment", .gap = 2, .right = 1, .give_way = 1, .noted = 1,
         .note = "segment"},
    };
    uint64_t a[SB_WARP_LANES];
    if (sb_pattern_addresses(p, a) != 0)
        return;
    sb_layout l;
    sb_layout_cells cells;
    sb_layout_init(&l, sb_layout_width());
    for (int c = 0; c < L_COLUMNS; c++)
        sb_layout_add(&l, &columns[c]);
    for (int i = 0; i < SB_WARP_LANES; i++) {
        lane_cells(p, a, i, &cells);
        sb_layout_measure(&l, &cells);
    }
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    for (int i = 0; i < SB_WARP_LANES; i++) {
        char note[256];
        lane_cells(p, a, i, &cells);
        sb_layout_row(&l, &cells, out);
        sb_layout_given_way(&l, &cells, note, sizeof note);
        if (note[0])
            sb_layout_fold(out, l.width, "          ", 12, note);
    }
}

enum { A_ACCESS, A_KIND, A_STUDIED, A_REQUESTS, A_PER_REQUEST, A_PATTERN, A_COLUMNS };

/* Access i of the plan: its cells. */
static void access_cells(const sb_plan *plan, int i, sb_layout_cells *c)
{
    sb_prediction r;
    memset(c, 0, sizeof *c);
    sb_predict(&plan->pattern[i], &r);
    snprintf(c->cell[A_ACCESS], SB_LAYOUT_CELL, "%s", plan->pattern_label[i]);
    snprintf(c->cell[A_KIND], SB_LAYOUT_CELL, "%s", sb_access_kind_name(plan->kind[i]));
    snprintf(c->cell[A_STUDIED], SB_LAYOUT_CELL, "%s", plan->studied[i] ? "yes" : "no");
    snprintf(c->cell[A_REQUESTS], SB_LAYOUT_CELL, "%.0f", plan->requests[i]);
    sb_prediction_format(&r, c->cell[A_PER_REQUEST], SB_LAYOUT_CELL);
    sb_pattern_describe(&plan->pattern[i], c->cell[A_PATTERN], SB_LAYOUT_CELL);
}

/* The totals, one a line: the name, the value, and the counter it is held
 * against on the same line where that fits, else on a line of its own. */
static void totals_lines(FILE *out, const sb_access_totals *t, int width)
{
    int name_w = 0, value_w = 0;
    char value[64];
    for (size_t k = 0; sb_access_totals_field_at(k); k++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(k);
        int w = snprintf(value, sizeof value, f->ratio ? "%.4f" : "%.0f",
                         sb_access_totals_value(t, f));
        int nw = (int)strlen(f->name);
        name_w = nw > name_w ? nw : name_w;
        value_w = w > value_w ? w : value_w;
    }
    sb_model_comment(out, width, "the whole kernel, per launch: the model's totals and the counter "
                                 "each is held against");
    for (size_t k = 0; sb_access_totals_field_at(k); k++) {
        const sb_access_totals_field *f = sb_access_totals_field_at(k);
        double v = sb_access_totals_value(t, f);
        if (!(v > 0))
            continue;
        snprintf(value, sizeof value, f->ratio ? "%.4f" : "%.0f", v);
        const char *counter = f->ratio || !f->counter ? "" : f->counter;
        int line = 2 + name_w + 2 + value_w + (counter[0] ? 2 + (int)strlen(counter) : 0);
        fprintf(out, "# %-*s  %*s", name_w, f->name, value_w, value);
        if (counter[0] && line <= width)
            fprintf(out, "  %s\n", counter);
        else if (counter[0]) /* under its name, as far in as the line allows */
            fprintf(out, "\n#%*s%s\n", width - 1 - (int)strlen(counter) >= 5 ? 5 : 1, "",
                    counter);
        else
            fputc('\n', out);
    }
}

void sb_model_variant_table(FILE *out, const sb_model_variant *m, const sb_access_totals *t,
                            long units, int lanes)
{
    static const sb_layout_column columns[A_COLUMNS] = {
        {.heading = "access"},
        {.heading = "kind", .gap = 2},
        {.heading = "studied", .gap = 2, .give_way = 1, .noted = 1, .note = "studied"},
        {.heading = "requests", .gap = 2, .right = 1},
        {.heading = "per request", .gap = 2},
        {.heading = "pattern", .gap = 2, .give_way = 2, .noted = 1, .note = "pattern",
         .fold = 24},
    };
    const sb_plan *plan = &m->plan;
    char header[256];
    sb_layout l;
    sb_layout_cells cells;
    sb_model_variant_header(m, units, header, sizeof header);
    sb_layout_init(&l, sb_layout_width());
    sb_model_comment(out, l.width, header);
    for (int c = 0; c < A_COLUMNS; c++)
        sb_layout_add(&l, &columns[c]);
    for (int i = 0; i < plan->npatterns; i++) {
        access_cells(plan, i, &cells);
        sb_layout_measure(&l, &cells);
    }
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    for (int i = 0; i < plan->npatterns; i++) {
        char note[256];
        access_cells(plan, i, &cells);
        sb_layout_row(&l, &cells, out);
        sb_layout_given_way(&l, &cells, note, sizeof note);
        if (note[0])
            sb_layout_fold(out, l.width, "    ", 6, note);
        if (lanes)
            sb_model_lanes_table(out, &plan->pattern[i]);
    }
    totals_lines(out, t, l.width);
}

/* The pattern table's columns, global memory's and shared memory's; the
 * byte counts and the ideal give way first when a line would be too wide. */
static const sb_layout_column global_columns[] = {
    {.heading = "pattern"},
    {.heading = "sectors", .gap = 2, .right = 1},
    {.heading = "segments", .gap = 2, .right = 1, .give_way = 2, .noted = 1, .note = "segments"},
    {.heading = "requested", .gap = 2, .right = 1, .give_way = 1, .noted = 1,
     .note = "requested", .unit = " B"},
    {.heading = "unique", .gap = 2, .right = 1, .give_way = 1, .noted = 1, .note = "unique",
     .unit = " B"},
    {.heading = "transferred", .gap = 2, .right = 1, .give_way = 1, .noted = 1,
     .note = "transferred", .unit = " B"},
    {.heading = "efficiency", .gap = 2, .right = 1},
    {.heading = "summary", .gap = 2, .fold = 20},
};
static const sb_layout_column shared_columns[] = {
    {.heading = "pattern"},
    {.heading = "ways", .gap = 2, .right = 1},
    {.heading = "wavefronts", .gap = 2, .right = 1},
    {.heading = "ideal", .gap = 2, .right = 1, .give_way = 1, .noted = 1, .note = "ideal"},
    {.heading = "conflicts", .gap = 2, .right = 1, .give_way = 1, .noted = 1,
     .note = "conflicts"},
    {.heading = "broadcast", .gap = 2, .right = 1},
    {.heading = "summary", .gap = 2, .fold = 20},
};

const sb_layout_column *sb_model_pattern_columns(int space, int *n)
{
    *n = space == SB_SPACE_GLOBAL ? 8 : 7;
    return space == SB_SPACE_GLOBAL ? global_columns : shared_columns;
}

void sb_model_pattern_cells(const char *label, const sb_pattern *p, sb_layout_cells *c)
{
    sb_prediction r;
    memset(c, 0, sizeof *c);
    if (sb_predict(p, &r) != 0)
        return; /* cannot happen: every row was checked */
    char *k[8];
    for (int j = 0; j < 8; j++)
        k[j] = c->cell[j];
    snprintf(k[0], SB_LAYOUT_CELL, "%s", label);
    if (p->space == SB_SPACE_GLOBAL) {
        snprintf(k[1], SB_LAYOUT_CELL, "%d", r.sectors);
        snprintf(k[2], SB_LAYOUT_CELL, "%d", r.segments);
        snprintf(k[3], SB_LAYOUT_CELL, "%d", r.requested_bytes);
        snprintf(k[4], SB_LAYOUT_CELL, "%d", r.unique_bytes);
        snprintf(k[5], SB_LAYOUT_CELL, "%d", r.transferred_bytes);
        snprintf(k[6], SB_LAYOUT_CELL, "%.1f%%", 100.0 * r.efficiency);
        sb_prediction_format(&r, k[7], SB_LAYOUT_CELL);
    } else {
        snprintf(k[1], SB_LAYOUT_CELL, "%d", r.ways);
        snprintf(k[2], SB_LAYOUT_CELL, "%d", r.wavefronts);
        snprintf(k[3], SB_LAYOUT_CELL, "%d", r.ideal_wavefronts);
        snprintf(k[4], SB_LAYOUT_CELL, "%d", r.conflicts);
        snprintf(k[5], SB_LAYOUT_CELL, "%s", r.broadcast ? "yes" : "no");
        sb_prediction_format(&r, k[6], SB_LAYOUT_CELL);
    }
}


/* Writes a JSON string; the texts here are plain ASCII, but escape anyway. */
void sb_model_json_string(FILE *out, const char *t)
{
    fputc('"', out);
    for (; *t; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Every lane's address, bank and sector, as the row's "per_lane" member. */
static void print_lanes_json(FILE *out, const sb_pattern *p)
{
    uint64_t a[SB_WARP_LANES];
    sb_pattern_addresses(p, a);
    int per_phase = SB_WARP_LANES / (p->word_bytes / SB_BANK_BYTES);
    /* "per_lane", not "lanes": that key is the prediction's lane count. */
    fputs(", \"per_lane\": [", out);
    for (int l = 0; l < SB_WARP_LANES; l++)
        fprintf(out,
                "%s{\"lane\": %d, \"address\": %llu, \"index\": %llu, \"bank\": %d, "
                "\"banks\": %d, \"phase\": %d, \"sector\": %llu, \"segment\": %llu}",
                l ? ", " : "", l, (unsigned long long)a[l],
                (unsigned long long)(a[l] / (uint64_t)p->word_bytes), sb_bank_of(a[l]),
                p->word_bytes / SB_BANK_BYTES, l / per_phase,
                (unsigned long long)(a[l] / SB_SECTOR_BYTES),
                (unsigned long long)(a[l] / SB_SEGMENT_BYTES));
    fputc(']', out);
}

/* One row's object, its closing brace left to the caller: the pattern,
   the prediction, the summary and (lanes) every lane. */
void sb_model_json_row_open(FILE *out, const char *label, const sb_pattern *p, int lanes)
{
    sb_prediction r;
    char summary[96], desc[640];
    sb_predict(p, &r);
    sb_prediction_format(&r, summary, sizeof summary);
    sb_pattern_describe(p, desc, sizeof desc);
    fputs("{\"label\": ", out);
    sb_model_json_string(out, label);
    fputs(", \"description\": ", out);
    sb_model_json_string(out, desc);
    fprintf(out,
            ", \"space_name\": \"%s\", \"stride\": %ld, \"offset\": %ld, \"perm\": \"%s\", "
            "\"perm_arg\": %u, \"spread\": %d, \"same\": %d, \"tile_rows\": %d, "
            "\"tile_cols\": %d, \"pad\": %d, \"swizzle\": %d, \"walk\": \"%s\", "
            "\"walk_index\": %d",
            sb_space_name(p->space), p->stride, p->offset, sb_perm_name(p->perm), p->perm_arg,
            p->spread, p->same, p->tile_rows, p->tile_cols, p->pad, p->swizzle,
            sb_walk_name(p->walk), p->walk_index);
    if (p->active)
        fprintf(out, ", \"active\": %u", (unsigned)p->active);
    for (int l = 0; p->walk == SB_WALK_LIST && l < SB_WARP_LANES; l++)
        fprintf(out, "%s%d", l ? ", " : ", \"lane_index\": [", (int)p->lane_index[l]);
    if (p->walk == SB_WALK_LIST)
        fputc(']', out);
    for (size_t k = 0; sb_prediction_field_at(k); k++) {
        const sb_prediction_field *f = sb_prediction_field_at(k);
        double v = sb_prediction_value(&r, f);
        if (f->type == SB_FIELD_DOUBLE)
            fprintf(out, ", \"%s\": %.10g", f->name, v);
        else
            fprintf(out, ", \"%s\": %d", f->name, (int)v);
    }
    fputs(", \"summary\": ", out);
    sb_model_json_string(out, summary);
    if (lanes)
        print_lanes_json(out, p);
}

