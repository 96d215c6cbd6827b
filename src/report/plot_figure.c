#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

/* The plots of a family's own figures (offers.h's SB_PLOT_FIGURE): the
 * slowdown against figure x, the model's figure dashed.  The divergence
 * split's paths plot is one: slowdown against the paths k its threads are
 * split into. */

/* The family figure called name of a result (result.h); 0 where none. */
static double figure_value(const sb_result *r, const char *name)
{
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(r->figure[i].name, name) == 0)
            return r->figure[i].value;
    return 0.0;
}

/* A point of the plot: a row with the offer's x figure, and a slowdown
 * against its group's base. */
static int figure_point(const sb_plot_offer *o, const sb_result *r)
{
    return figure_value(r, o->x) > 0 && r->slowdown > 0;
}

/* The sweep of an experiment over figure x: one series per (device slot,
 * kernel) with two or more points, each series' result indices by x. */
typedef struct paths_sweep {
    int nseries;
    int slot[16];
    const char *kernel[16];
    int shape[16]; /* the series' kernel among the sweep's, in order of first sight */
    size_t count[16];
    size_t idx[16][64];
} paths_sweep;

/* Series s's points by x, equal x in run order (few: an insertion sort). */
static void sort_by_x(const sb_plot_offer *o, const sb_run *run, size_t *idx, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t v = idx[i], j = i;
        double x = figure_value(&run->results[v], o->x);
        for (; j > 0 && figure_value(&run->results[idx[j - 1]], o->x) > x; j--)
            idx[j] = idx[j - 1];
        idx[j] = v;
    }
}

static void collect_paths(const sb_plot_offer *o, const sb_run *run,
                          const sb_cross_experiment *e, paths_sweep *pw)
{
    paths_sweep all;
    memset(&all, 0, sizeof all);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        if (!figure_point(o, r))
            continue;
        int s = 0;
        while (s < all.nseries &&
               (all.slot[s] != r->device_slot || strcmp(all.kernel[s], r->kernel) != 0))
            s++;
        if (s == all.nseries) {
            if (s == 16)
                continue;
            all.slot[s] = r->device_slot;
            all.kernel[s] = r->kernel;
            all.nseries++;
        }
        if (all.count[s] < 64)
            all.idx[s][all.count[s]++] = e->results[i];
    }
    memset(pw, 0, sizeof *pw);
    int nkernels = 0;
    const char *kernels[16];
    for (int s = 0; s < all.nseries; s++) {
        if (all.count[s] < 2)
            continue;
        int t = pw->nseries++;
        pw->slot[t] = all.slot[s];
        pw->kernel[t] = all.kernel[s];
        pw->count[t] = all.count[s];
        memcpy(pw->idx[t], all.idx[s], all.count[s] * sizeof all.idx[s][0]);
        sort_by_x(o, run, pw->idx[t], pw->count[t]);
        int k = 0;
        while (k < nkernels && strcmp(kernels[k], pw->kernel[t]) != 0)
            k++;
        if (k == nkernels)
            kernels[nkernels++] = pw->kernel[t];
        pw->shape[t] = k;
    }
}

/* A device's colour, its model dashed in the same. */
static const char *slot_colour(int slot)
{
    static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                          "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"};
    return colours[slot % 8];
}

/* Series s's block of data and its curves: the measured slowdown with
 * points (filled for the first kernel, hollow shapes for the others), and
 * where the device has a warp the model's predicted slowdown dashed in
 * the same colour, the first device's widest so that coinciding models
 * still show each colour. */
static void paths_series(const plot_ctx *c, const sb_plot_offer *o, const paths_sweep *pw,
                         int s, plot_files *pf, cmd_buf *cmd)
{
    static const int shapes[] = {7, 4, 8, 12, 10, 14};
    char label[24], series[128];
    sb_slot_label(c->run, pw->slot[s], label, sizeof label);
    snprintf(series, sizeof series, "%s, %s", label, pw->kernel[s]);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s\n", s ? "\n\n" : "", sb_plot_dat_text(series, text, sizeof text));
    int modelled = 0;
    for (size_t j = 0; j < pw->count[s]; j++) {
        const sb_result *r = &c->run->results[pw->idx[s][j]];
        double model = o->model ? figure_value(r, o->model) : 0;
        double extra = o->extra ? figure_value(r, o->extra) : 0;
        fprintf(pf->dat, "%.6g %.6g ", figure_value(r, o->x), r->slowdown);
        fprintf(pf->dat, model > 0 ? "%.6g" : "?", model);
        if (o->extra)
            fprintf(pf->dat, extra > 0 ? " %.6g" : " ?", extra);
        fputc('\n', pf->dat);
        modelled |= model > 0;
    }
    const char *colour = slot_colour(pw->slot[s]);
    sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.4 lc rgb '%s'",
            s ? "," : "", pf->data, s, shapes[pw->shape[s] % 6], colour);
    sb_plot_cmd_title(cmd, series);
    if (modelled) {
        char model[160];
        snprintf(model, sizeof model, "model, %s", series);
        sb_plot_cmd_add(cmd, ", %s index %d using 1:3 with lines dt 2 lw %.1f lc rgb '%s'",
                pf->data, s, pw->slot[s] == 0 ? 4.0 : 2.0, colour);
        sb_plot_cmd_title(cmd, model);
    }
}

static int paths_plot(const plot_ctx *c, const sb_plot_offer *o, const char *exp,
                      const paths_sweep *pw)
{
    char name[80], title[200];
    sb_plot_stem(exp, o->name, name, sizeof name);
    snprintf(title, sizeof title, "%s: %s", exp, o->title);
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.height = 620 + 12 * pw->nseries;
    sb_plot_script_head(&pf, title);
    fputs("set logscale xy 2\n", pf.gp);
    sb_plot_gp_set(pf.gp, "xlabel", o->xlabel);
    sb_plot_gp_set(pf.gp, "ylabel", o->ylabel);
    fputs("set key below maxcols 2\nset offsets 0, 0, graph 0.05, graph 0.05\n", pf.gp);
    fprintf(pf.dat, "# columns: %s\n", o->columns);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < pw->nseries; s++)
        paths_series(c, o, pw, s, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, exp, title, c);
}

/* Each figure plot the experiment's family offers, where its rows have
 * the points. */
int sb_plot_figures(const plot_ctx *c, int *plotted)
{
    int rc = 0;
    for (const sb_plot_offer *o = c->offers; o && o->kind && rc == 0; o++) {
        if (o->kind != SB_PLOT_FIGURE)
            continue;
        paths_sweep *pw = calloc(1, sizeof *pw);
        if (!pw) {
            snprintf(c->err, c->errn, "out of host memory");
            return -1;
        }
        collect_paths(o, c->run, c->e, pw);
        if (pw->nseries > 0) {
            rc = paths_plot(c, o, c->run->results[c->e->first].experiment, pw);
            *plotted = 1;
        }
        free(pw);
    }
    return rc;
}
