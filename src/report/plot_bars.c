#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- bars */

static double bars_roof(const plot_ctx *c, int s);
static double label_base(const plot_ctx *c, double value);

/* One line per variant of the experiment: its name, then each device's
 * figure, then where each device's share label goes (label_base). */
static void bars_data(const plot_ctx *c, plot_files *pf)
{
    const sb_run *run = c->run;
    const sb_crossapi *x = c->x;
    const sb_result *f = &run->results[c->e->first];
    fputs("# columns: variant, then one per device, then per device the height of its share "
          "label (its figure, or a roof line just above it):",
          pf->dat);
    char text[SB_GP_QUOTED_MAX];
    for (int s = 0; s < x->ndevices; s++)
        fprintf(pf->dat, " %s", sb_plot_dat_text(x->label[s], text, sizeof text));
    fputc('\n', pf->dat);
    for (size_t j = 0; j < c->e->nrows; j++) {
        const sb_cross_row *row = &x->rows[c->e->rows[j]];
        const sb_result *any = &run->results[row->first];
        char variant[80];
        if (any->rows == f->rows && any->cols == f->cols)
            snprintf(variant, sizeof variant, "%s", any->variant);
        else
            snprintf(variant, sizeof variant, "%s %ldx%ld", any->variant, any->rows, any->cols);
        sb_plot_dat_string(pf->dat, variant);
        for (int s = 0; s < x->ndevices; s++) {
            if (row->result[s] >= 0)
                fprintf(pf->dat, " %.6g", run->results[row->result[s]].value);
            else
                fputs(" ?", pf->dat);
        }
        for (int s = 0; s < x->ndevices; s++) {
            if (row->result[s] >= 0)
                fprintf(pf->dat, " %.6g", label_base(c, run->results[row->result[s]].value));
            else
                fputs(" ?", pf->dat);
        }
        fputc('\n', pf->dat);
    }
}

/* Device column s's roof: its copy roof when the bars are bandwidths, its
 * theoretical FP32 peak when they are GFLOP/s of no intensity (the
 * compute family); 0 otherwise. */
static double bars_roof(const plot_ctx *c, int s)
{
    const sb_result *f = &c->run->results[c->e->first];
    int compute = f->quantity == SB_QUANTITY_FLOPS && !(f->intensity > 0);
    if (f->quantity != SB_QUANTITY_BANDWIDTH && !compute)
        return 0.0;
    for (size_t j = 0; j < c->e->nrows; j++) {
        int i = c->x->rows[c->e->rows[j]].result[s];
        if (i < 0)
            continue;
        int slot = c->run->results[i].device_slot;
        return compute ? sb_device_fp32_peak_gflops(&c->run->devices[slot].info)
                       : sb_plot_device_roof(c->run, slot);
    }
    return 0.0;
}

/* What the bars' roof is: "copy roof", "FP32 peak". */
static const char *bars_roof_name(const plot_ctx *c)
{
    return c->run->results[c->e->first].quantity == SB_QUANTITY_FLOPS ? "FP32 peak" : "copy roof";
}

/* The top of the bars' y axis, over the highest bar and roof with room
 * for the staggered shares above them. */
static double bars_top(const plot_ctx *c)
{
    const sb_crossapi *x = c->x;
    double top = 0;
    for (size_t j = 0; j < c->e->nrows; j++)
        for (int s = 0; s < x->ndevices; s++) {
            int i = x->rows[c->e->rows[j]].result[s];
            if (i >= 0 && c->run->results[i].value > top)
                top = c->run->results[i].value;
        }
    for (int s = 0; s < x->ndevices; s++) {
        double roof = bars_roof(c, s);
        if (roof > 0)
            top = (roof > top ? roof : top) * 1.04;
    }
    return top * 1.12;
}

/* Where a bar's share label goes: above the bar, unless a roof line
 * crosses the two lines of text there (a share just under 100%), when it
 * goes above that line instead, clear of it.  The text spans about a
 * tenth of the axis above its base. */
static double label_base(const plot_ctx *c, double value)
{
    double top = bars_top(c), base = value;
    for (int pass = 0; pass < c->x->ndevices; pass++) /* a roof just above another */
        for (int s = 0; s < c->x->ndevices; s++) {
            double roof = bars_roof(c, s);
            if (roof > 0 && roof - base >= -0.015 * top && roof - base <= 0.1 * top)
                base = roof + 0.015 * top;
        }
    return base;
}

/* Whether device column s has a figure in the experiment: in a merged
 * run a device may have none, and a column of '?' alone is no bar (gnuplot
 * warns of it); each used column's place among them into *k, of *used. */
static int column_used(const plot_ctx *c, int s, int *k, int *used)
{
    *k = *used = 0;
    int mine = 0;
    for (int t = 0; t < c->x->ndevices; t++) {
        int any = 0;
        for (size_t j = 0; j < c->e->nrows && !any; j++)
            any = c->x->rows[c->e->rows[j]].result[t] >= 0;
        *k += any && t < s;
        *used += any;
        mine |= any && t == s;
    }
    return mine;
}

/* Each device's copy roof as a dashed line across the bars, and each
 * bar's share of it as a percentage above the bar; the y range holds the
 * highest roof. */
static void bars_roofs(const plot_ctx *c, plot_files *pf, cmd_buf *cmd)
{
    const sb_crossapi *x = c->x;
    double top = bars_top(c);
    for (int s = 0; s < x->ndevices; s++) {
        double roof = bars_roof(c, s);
        int k, used; /* the bar's place in its cluster, and the bars there */
        if (!(roof > 0) || !column_used(c, s, &k, &used))
            continue;
        fprintf(pf->gp, "set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dt 2 "
                        "lw 2 lc %d back\n",
                roof, roof, k + 1);
        char title[96];
        snprintf(title, sizeof title, "%s %s: %.0f %s (%% above a bar: its share)", x->label[s],
                 bars_roof_name(c), roof, sb_quantity_unit(c->run->results[c->e->first].quantity));
        sb_plot_cmd_add(cmd, ", NaN with lines dt 2 lw 2 lc %d", k + 1);
        sb_plot_cmd_title(cmd, title);
        double at = (k - (used - 1) / 2.0) / (used + 1.0); /* gap 1 */
        sb_plot_cmd_add(cmd, ", %s using ($0 %+.4f):(column(%d)):(sprintf('%%.0f%%%%', "
                     "100 * column(%d) / %.6g)) with labels offset 0,%.1f font ',8' notitle",
                pf->data, at, x->ndevices + 2 + s, s + 2, roof,
                0.7 + 1.1 * (k % 2)); /* neighbours staggered */
    }
    if (top > 0)
        fprintf(pf->gp, "set yrange [0:%.6g]\n", top);
}

int sb_plot_bars(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    const sb_crossapi *x = c->x;
    char name[80], title[256], size[96];
    sb_plot_stem(f->experiment, "bars", name, sizeof name);
    sb_result_size_text(f, size, sizeof size);
    snprintf(title, sizeof title, "%s, %s: %s of each variant", f->experiment, size,
             sb_quantity_unit(f->quantity));
    if (bars_roof(c, 0) > 0)
        snprintf(title, sizeof title, "%s, %s: %s of each variant, against the %s",
                 f->experiment, size, sb_quantity_unit(f->quantity), bars_roof_name(c));
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    size_t nbars = c->e->nrows;
    int w = 160 + (int)nbars * (30 * x->ndevices + 20); /* room for each bar's share */
    pf.width = w < 1100 ? 1100 : w > 4000 ? 4000 : w;
    sb_plot_script_head(&pf, title);
    fprintf(pf.gp, "set style data histograms\nset style histogram clustered gap 1\n"
                   "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
                   "set xtics rotate by -35 left\nset yrange [0:*]\n");
    sb_plot_gp_set(pf.gp, "ylabel", sb_quantity_unit(f->quantity));
    /* The last name, slanted to the right, needs room past the axis. */
    size_t longest = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        size_t len = strlen(c->run->results[c->e->results[i]].variant);
        longest = len > longest ? len : longest;
    }
    fprintf(pf.gp, "set rmargin %d\n", longest > 8 ? (int)(longest * 0.7) + 2 : 4);
    bars_data(c, &pf);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < x->ndevices; s++) {
        int k, used;
        if (!column_used(c, s, &k, &used))
            continue;
        if (k == 0)
            sb_plot_cmd_add(cmd, " %s using %d:xtic(1)", pf.data, s + 2);
        else
            sb_plot_cmd_add(cmd, ", '' using %d", s + 2);
        sb_plot_cmd_title(cmd, x->label[s]);
    }
    bars_roofs(c, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, f->experiment, title, c);
}
