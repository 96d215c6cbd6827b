/* The fleet blocks of the terminal table (fleet_table.h). */
#include "report/fleet_table.h"

#include <stdarg.h>
#include <string.h>

#include "report/describe.h"
#include "report/layout.h"
#include "report/noise_table.h"
#include "report/table.h"
#include "text.h"

enum { FLEET_VARIANT, FLEET_GROUP, FLEET_MEDIAN, FLEET_FASTEST, FLEET_SLOWEST, FLEET_OUTLIERS,
       FLEET_COLUMNS };

static void __attribute__((format(printf, 5, 6)))
foldf(FILE *out, int width, const char *first, int indent, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sb_layout_fold(out, width, first, indent, text);
}

void sb_table_fleet_legend(const sb_analysis *a, int width, FILE *out)
{
    if (!sb_fleet_possible(a->run))
        return;
    fputc('\n', out);
    sb_layout_fold(out, width, "", 0,
                   "Fleet: under each experiment, for each variant and group of like devices "
                   "(one backend, one device name), the median of their figures, the fastest "
                   "and the slowest device, and the outliers.");
    sb_layout_fold(out, width, "", 0, SB_OUTLIER_RULE);
}

/* The columns: the group, its median, fastest, slowest and outliers; the
   slowest gives way first, the outliers never. */
static void fleet_columns(sb_layout *l, sb_quantity q)
{
    static const sb_layout_column columns[FLEET_COLUMNS] = {
        [FLEET_VARIANT] = {.heading = "variant", .gap = 2},
        [FLEET_GROUP] = {.heading = "devices", .gap = 1},
        [FLEET_MEDIAN] = {.gap = 2, .right = 1, .give_way = 3, .noted = 1, .note = "median"},
        [FLEET_FASTEST] = {.heading = "fastest", .gap = 2, .give_way = 2, .noted = 1,
                           .note = "fastest"},
        [FLEET_SLOWEST] = {.heading = "slowest", .gap = 2, .give_way = 4, .noted = 1,
                           .note = "slowest"},
        [FLEET_OUTLIERS] = {.heading = "outliers", .gap = 2},
    };
    sb_layout_column median = columns[FLEET_MEDIAN];
    snprintf(median.heading, sizeof median.heading, "median %s", sb_quantity_unit(q));
    for (int c = 0; c < FLEET_COLUMNS; c++)
        sb_layout_add(l, c == FLEET_MEDIAN ? &median : &columns[c]);
}

/* A row's cells; the variant on its first line only. */
static void fleet_cells(const sb_analysis *a, const sb_result *f, const sb_fleet_row *fr,
                        int first_line, sb_layout_cells *c)
{
    sb_fleet_text t;
    sb_fleet_row_text(a, f, fr, &t);
    memset(c, 0, sizeof *c);
    if (first_line)
        sb_utf8_copy(c->cell[FLEET_VARIANT], SB_LAYOUT_CELL, t.variant);
    sb_utf8_copy(c->cell[FLEET_GROUP], SB_LAYOUT_CELL, t.group);
    sb_utf8_copy(c->cell[FLEET_MEDIAN], SB_LAYOUT_CELL, t.median);
    sb_utf8_copy(c->cell[FLEET_FASTEST], SB_LAYOUT_CELL, t.fastest);
    sb_utf8_copy(c->cell[FLEET_SLOWEST], SB_LAYOUT_CELL, t.slowest);
    sb_utf8_copy(c->cell[FLEET_OUTLIERS], SB_LAYOUT_CELL, t.outliers);
}

/* Under a row: each outlier named, with how far below its peers it is
   and the verdict that confirms it. */
static void outlier_lines(const sb_analysis *a, const sb_fleet_row *fr, int width, FILE *out)
{
    for (size_t k = 0; k < fr->noutliers; k++) {
        char text[1024];
        sb_fleet_outlier_text(a, fr, k, text, sizeof text);
        sb_layout_fold(out, width, "      ", 8, text);
    }
}

void sb_table_fleet_block(const sb_analysis *a, size_t e, int width, FILE *out)
{
    const sb_crossapi *x = &a->cross;
    const sb_fleet *f = &a->fleet;
    if (e >= x->nexperiments || f->nrows == 0)
        return;
    const sb_cross_experiment *ce = &x->experiments[e];
    size_t rows = 0;
    for (size_t j = 0; j < ce->nrows; j++)
        rows += f->count_of[ce->rows[j]];
    if (rows == 0)
        return;
    sb_layout l;
    sb_layout_cells cells;
    const sb_result *first = &a->run->results[ce->first];
    sb_layout_init(&l, width);
    fleet_columns(&l, first->quantity);
    for (size_t j = 0; j < ce->nrows; j++)
        for (size_t k = 0; k < f->count_of[ce->rows[j]]; k++) {
            fleet_cells(a, first, &f->rows[f->first_of[ce->rows[j]] + k], 1, &cells);
            sb_layout_measure(&l, &cells);
        }
    sb_layout_fit(&l);
    fputs("  fleet\n", out);
    sb_layout_heading(&l, out);
    for (size_t j = 0; j < ce->nrows; j++)
        for (size_t k = 0; k < f->count_of[ce->rows[j]]; k++) {
            const sb_fleet_row *fr = &f->rows[f->first_of[ce->rows[j]] + k];
            char details[1024];
            fleet_cells(a, first, fr, k == 0, &cells);
            sb_layout_row(&l, &cells, out);
            sb_layout_given_way(&l, &cells, details, sizeof details);
            if (details[0])
                sb_layout_fold(out, width, "      ", 8, details);
            outlier_lines(a, fr, width, out);
        }
}

/* One device's outliers over the whole run: in how many of the rows it
   had peers, and the worst. */
static void device_summary(const sb_analysis *a, int slot, int width, FILE *out)
{
    const sb_fleet *f = &a->fleet;
    size_t rows = 0, flagged = 0;
    const sb_outlier *worst = NULL;
    const sb_fleet_row *worst_row = NULL;
    for (size_t j = 0; j < f->nrows; j++) {
        const sb_fleet_row *fr = &f->rows[j];
        rows += a->cross.rows[fr->row].result[slot] >= 0 && fr->ndevices >= 2;
        for (size_t k = 0; k < fr->noutliers; k++) {
            const sb_outlier *o = &f->outliers[fr->outlier + k];
            if (o->slot != slot)
                continue;
            flagged++;
            if (!worst || o->below > worst->below)
                worst = o, worst_row = fr;
        }
    }
    if (!worst)
        return;
    char who[512];
    const sb_result *r = &a->run->results[a->cross.rows[worst_row->row].first];
    sb_device_identity_text(a->run, slot, who, sizeof who);
    foldf(out, width, "  ", 4, "%s (%s): an outlier in %zu of the %zu variants it ran beside "
          "peers; at worst %s/%s, %.1f%% below its peers' median", a->cross.label[slot], who,
          flagged, rows, r->experiment, r->variant, 100.0 * worst->below);
}

void sb_table_footer(const sb_analysis *a, FILE *out)
{
    const int width = sb_layout_width();
    sb_table_noise_footer(a, width, out);
    if (!sb_fleet_possible(a->run) || a->run->nresults == 0)
        return;
    fputs("\nOutliers\n", out);
    if (a->fleet.noutliers == 0) {
        sb_layout_fold(out, width, "  ", 4, "none: no device is slower than its peers by the "
                       "rule above in any variant");
        return;
    }
    for (int s = 0; s < a->cross.ndevices; s++)
        device_summary(a, s, width, out);
}
