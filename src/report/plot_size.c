#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- size sweeps */

/* Each device's sweep of the experiment (memory_levels.h), malloc'd, one
   per slot; NULL out of memory.  *plotted: how many have two points. */
static sb_sweep *size_sweeps(const plot_ctx *c, int *plotted)
{
    const sb_run *run = c->run;
    sb_sweep *sw = calloc((size_t)(run->ndevices > 0 ? run->ndevices : 1), sizeof *sw);
    *plotted = 0;
    for (int s = 0; sw && s < run->ndevices; s++)
        *plotted += sb_sweep_of(run, run->results[c->e->first].experiment, s, run->nresults,
                                &sw[s]) >= 2;
    return sw;
}

/* A size on the axis: "64", "16K", "4G". */
static void axis_label(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"", "K", "M", "G", "T"};
    int k = 0;
    while (bytes >= 1024 && k < 4) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.0f%s", bytes, unit[k]);
}

/* Whether x is among the points before point i of device s's sweep (or
   of any device before s). */
static int axis_seen(const sb_sweep *sw, int s, int i, double x)
{
    for (int t = 0; t <= s; t++)
        for (int j = 0; j < (t < s ? sw[t].n : i); j++)
            if (sw[t].x[j] == x)
                return 1;
    return 0;
}

/* Tics at every size some device measured, named in binary units; *lo,
   *hi: the smallest and largest. */
static void sweep_xtics(const plot_ctx *c, const sb_sweep *sw, plot_files *pf, double *lo,
                        double *hi)
{
    *lo = *hi = 0;
    fputs("set xtics rotate by -45 (", pf->gp);
    int any = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        for (int i = 0; i < sw[s].n; i++) {
            double x = sw[s].x[i];
            if (axis_seen(sw, s, i, x))
                continue;
            char label[16];
            axis_label(x, label, sizeof label);
            fputs(any++ ? ", " : "", pf->gp);
            sb_plot_gp_string(pf->gp, label);
            fprintf(pf->gp, " %.0f", x);
            *lo = *lo > 0 && *lo < x ? *lo : x;
            *hi = *hi > x ? *hi : x;
        }
    fputs(")\n", pf->gp);
}

/* One device's curve: its block of data and its line. */
static void sweep_series(const plot_ctx *c, const sb_sweep *sw, int s, int block,
                         plot_files *pf, cmd_buf *cmd)
{
    char label[24];
    sb_slot_label(c->run, s, label, sizeof label);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s: bytes, headline, variant\n", block ? "\n\n" : "",
            sb_plot_dat_text(label, text, sizeof text));
    for (int i = 0; i < sw->n; i++) {
        fprintf(pf->dat, "%.0f %.6g ", sw->x[i], sw->y[i]);
        sb_plot_dat_string(pf->dat, c->run->results[sw->row[i]].variant);
        fputc('\n', pf->dat);
    }
    sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.3 lc %d",
            block ? "," : "", pf->data, block, s ? 6 : 7, s + 1);
    sb_plot_cmd_title(cmd, label);
}

/* The name of a sweep's axis, from its first point's figure: "working set". */
static void axis_name(const sb_result *f, char *buf, size_t n)
{
    snprintf(buf, n, "size");
    for (int i = 0; i < f->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(f->figure[i].unit, "B") == 0) {
            snprintf(buf, n, "%s", f->figure[i].name);
            break;
        }
    for (char *p = buf; *p; p++)
        *p = *p == '_' ? ' ' : *p;
}

/* gnuplot's colour of line type s + 1, as "#AARRGGBB" with some of it
   transparent, so that a plateau drawn thick leaves its points seen. */
static const char *translucent(int s)
{
    static const char *const colour[] = {"#a09400d3", "#a0009e73", "#a056b4e9", "#a0e69f00",
                                         "#a0f0e442", "#a00072b2", "#a0e51e10", "#a0000000"};
    return colour[s % 8];
}

/* One device's plateaus (plateau.h) as thick segments at their levels,
   where the sweep is over a working set (the levels of the memory
   hierarchy); the blocks written (0 or 1). */
static int sweep_plateaus(const plot_ctx *c, const sb_sweep *sw, int s, int block,
                          plot_files *pf, cmd_buf *cmd)
{
    char axis[32];
    axis_name(&c->run->results[sw->row[0]], axis, sizeof axis);
    if (strcmp(axis, "working set") != 0)
        return 0;
    sb_plateau p[SB_PLATEAUS_MAX];
    int np = sb_plateaus(sw->y, sw->n, p, SB_PLATEAUS_MAX);
    if (np == 0)
        return 0;
    char label[24], title[96];
    sb_slot_label(c->run, s, label, sizeof label);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "\n\n# %s plateaus: from and to, at the level\n",
            sb_plot_dat_text(label, text, sizeof text));
    for (int k = 0; k < np; k++)
        fprintf(pf->dat, "%s%.0f %.6g\n%.0f %.6g\n", k ? "\n" : "", sw->x[p[k].first],
                p[k].level, sw->x[p[k].last], p[k].level);
    snprintf(title, sizeof title, "%s plateaus (%d found in the data)", label, np);
    sb_plot_cmd_add(cmd, ", %s index %d using 1:2 with lines lw 10 lc rgb '%s'", pf->data, block,
            translucent(s));
    sb_plot_cmd_title(cmd, title);
    return 1;
}

/* One device's rows without a size (the copy in place, random order) as
   dashed lines across the sweep, and for bandwidths 90% of the fastest
   of them dotted; the blocks written. */
static int sweep_references(const plot_ctx *c, int s, int block, double lo, double hi,
                            plot_files *pf, cmd_buf *cmd)
{
    const sb_run *run = c->run;
    char label[24], title[160], style[48];
    sb_slot_label(run, s, label, sizeof label);
    const sb_result *fastest = NULL;
    int made = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &run->results[c->e->results[i]];
        if (r->device_slot != s || sb_sweep_axis(r) > 0 || !(r->value > 0))
            continue;
        snprintf(title, sizeof title, "%s %s: %.4g %s", label, r->variant, r->value,
                 sb_quantity_unit(r->quantity));
        snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
        sb_plot_roof_line(pf, cmd, block + made++, title, lo / 1.5, r->value, hi * 1.5, r->value,
                          style);
        if (r->quantity == SB_QUANTITY_BANDWIDTH && (!fastest || r->value > fastest->value))
            fastest = r;
    }
    if (fastest) {
        snprintf(title, sizeof title, "%s 90%% of %s: %.4g GB/s", label, fastest->variant,
                 0.9 * fastest->value);
        snprintf(style, sizeof style, "dt 3 lw 2 lc %d", s + 1);
        sb_plot_roof_line(pf, cmd, block + made++, title, lo / 1.5, 0.9 * fastest->value, hi * 1.5,
                  0.9 * fastest->value, style);
    }
    return made;
}

/* The top of the y axis: above every point and reference row, so that
   none lies on the frame; 0 (gnuplot's own) for a log axis. */
static double sweep_top(const plot_ctx *c, const sb_sweep *sw, int *references)
{
    double top = 0;
    *references = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        for (int i = 0; i < sw[s].n; i++)
            top = sw[s].y[i] > top ? sw[s].y[i] : top;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        if (sb_sweep_axis(r) > 0 || !(r->value > 0))
            continue;
        top = r->value > top ? r->value : top;
        (*references)++;
    }
    return 1.1 * top;
}

/* The headline against the size the rows sweep (their first figure in
   bytes), log x, per device, with the plateaus found and the rows
   without a size as references. */
static int size_sweep_plot(const plot_ctx *c, const sb_sweep *sw)
{
    const sb_run *run = c->run;
    int s0 = 0, references;
    while (sw[s0].n < 2)
        s0++;
    const sb_result *f = &run->results[sw[s0].row[0]];
    double top = sweep_top(c, sw, &references);
    char name[80], title[200], what[32];
    axis_name(f, what, sizeof what);
    sb_plot_stem(f->experiment, "sweep", name, sizeof name);
    snprintf(title, sizeof title, "%s: %s against %s%s%s", f->experiment,
             sb_quantity_unit(f->quantity), what,
             strcmp(what, "working set") == 0 ? "; thick: the plateaus found" : "",
             !references                          ? ""
             : f->quantity == SB_QUANTITY_BANDWIDTH ? "; dashed: the rows at no one size, "
                                                      "dotted: 90% of the fastest"
                                                    : "; dashed: the rows at no one size");
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    sb_plot_script_head(&pf, title);
    double lo, hi;
    sweep_xtics(c, sw, &pf, &lo, &hi);
    char label[64];
    snprintf(label, sizeof label, "%s (bytes)", what);
    fprintf(pf.gp, "set logscale x 2\nset xrange [%.6g:%.6g]\n", lo / 1.5, hi * 1.5);
    sb_plot_gp_set(pf.gp, "xlabel", label);
    sb_plot_gp_set(pf.gp, "ylabel", sb_quantity_unit(f->quantity));
    if (f->quantity == SB_QUANTITY_LATENCY)
        fputs("set logscale y\n", pf.gp);
    else
        fprintf(pf.gp, "set yrange [0:%.6g]\n", top);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    int block = 0;
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            sweep_series(c, &sw[s], s, block++, &pf, cmd);
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            block += sweep_plateaus(c, &sw[s], s, block, &pf, cmd);
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            block += sweep_references(c, s, block, lo, hi, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, f->experiment, title, c);
}

/* A sweep over a size where the experiment's rows have one. */
int sb_plot_sizes(const plot_ctx *c, int *plotted)
{
    int sweeps = 0;
    sb_sweep *sw = size_sweeps(c, &sweeps);
    if (!sw) {
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    int rc = 0;
    if (sweeps) {
        rc = size_sweep_plot(c, sw);
        *plotted = 1;
    }
    free(sw);
    return rc;
}
