#include "config.h"

#include "report/plot_parts.h"

#include "experiments/variant.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- bins */

#define BINS_SERIES 64
#define BINS_POINTS 32

/* A sweep over bin counts (the histogram's): its series, one per device
 * and METHOD-DIST (sb_bins_variant), each of two or more bin counts,
 * sorted by them; and the methods and distributions in order of first
 * appearance, which give each series its colour and its dashes. */
typedef struct bins_sweep {
    int nseries;
    int slot[BINS_SERIES], method[BINS_SERIES], dist[BINS_SERIES];
    int count[BINS_SERIES];
    size_t idx[BINS_SERIES][BINS_POINTS];
    long bins[BINS_SERIES][BINS_POINTS];
    int nmethods, ndists;
    char methods[16][48], dists[8][48];
} bins_sweep;

/* The index of name in list[0..*n), added at the end when missing; -1 when
   the list is full. */
static int name_index(char (*list)[48], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(list[*n], sizeof list[0], "%s", name);
    return (*n)++;
}

/* Result i into its series, in bin order. */
static void bins_add(bins_sweep *bw, int slot, int m, int d, long bins, size_t i)
{
    int s = 0;
    while (s < bw->nseries && !(bw->slot[s] == slot && bw->method[s] == m && bw->dist[s] == d))
        s++;
    if (s == bw->nseries) {
        if (s == BINS_SERIES)
            return;
        bw->slot[s] = slot;
        bw->method[s] = m;
        bw->dist[s] = d;
        bw->count[s] = 0;
        bw->nseries++;
    }
    int k = bw->count[s];
    if (k == BINS_POINTS)
        return;
    while (k > 0 && bw->bins[s][k - 1] > bins) {
        bw->bins[s][k] = bw->bins[s][k - 1];
        bw->idx[s][k] = bw->idx[s][k - 1];
        k--;
    }
    bw->bins[s][k] = bins;
    bw->idx[s][k] = i;
    bw->count[s]++;
}

static void collect_bins(const sb_run *run, const sb_cross_experiment *e, bins_sweep *bw)
{
    memset(bw, 0, sizeof *bw);
    for (size_t j = 0; j < e->nresults; j++) {
        const sb_result *r = &run->results[e->results[j]];
        char method[48], dist[48];
        long bins;
        if (r->value <= 0 ||
            sb_bins_variant(r->variant, method, sizeof method, &bins, dist, sizeof dist))
            continue;
        int m = name_index(bw->methods, &bw->nmethods, 16, method);
        int d = name_index(bw->dists, &bw->ndists, 8, dist);
        if (m >= 0 && d >= 0)
            bins_add(bw, r->device_slot, m, d, bins, e->results[j]);
    }
    int kept = 0; /* a series of one bin count is not a sweep */
    for (int s = 0; s < bw->nseries; s++)
        if (bw->count[s] >= 2) {
            bw->slot[kept] = bw->slot[s];
            bw->method[kept] = bw->method[s];
            bw->dist[kept] = bw->dist[s];
            bw->count[kept] = bw->count[s];
            memmove(bw->idx[kept], bw->idx[s], sizeof bw->idx[s]);
            memmove(bw->bins[kept], bw->bins[s], sizeof bw->bins[s]);
            kept++;
        }
    bw->nseries = kept;
}

/* A colour per method, a dash pattern per distribution, a point shape per
 * device (filled on the first, hollow on the others). */
static void bins_style(const bins_sweep *bw, int s, cmd_buf *cmd)
{
    static const char *const colour[] = {"#7f7f7f", "#1f77b4", "#2ca02c", "#d62728",
                                         "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};
    static const int point[] = {7, 4, 8, 12, 10, 14};
    sb_plot_cmd_add(cmd, " lw 2 dt %d pt %d ps 1.3 lc rgb '%s'", 1 + bw->dist[s] % 4,
            point[bw->slot[s] % 6], colour[bw->method[s] % 8]);
}

/* "set xtics (1, 32, ...)": a tic at each bin count measured; the most. */
static long bins_tics(const bins_sweep *bw, plot_files *pf)
{
    long seen[BINS_POINTS * 2], most = 1;
    int nseen = 0;
    fputs("set xtics (", pf->gp);
    for (int s = 0; s < bw->nseries; s++)
        for (int k = 0; k < bw->count[s]; k++) {
            long b = bw->bins[s][k];
            int known = 0;
            for (int i = 0; i < nseen; i++)
                known |= seen[i] == b;
            most = b > most ? b : most;
            if (!known && nseen < BINS_POINTS * 2) {
                fprintf(pf->gp, "%s%ld", nseen ? ", " : "", b);
                seen[nseen++] = b;
            }
        }
    fputs(")\n", pf->gp);
    return most;
}

/* The axes: bins on log 2; the headline on log 10 and, where it is input
 * bandwidth, bin updates per ns (one per 4-byte input) on the right, over
 * the same range divided by 4 so that the two scales coincide. */
static void bins_axes(const plot_ctx *c, const bins_sweep *bw, plot_files *pf)
{
    double lo = 0, hi = 0;
    for (int s = 0; s < bw->nseries; s++)
        for (int k = 0; k < bw->count[s]; k++) {
            double v = c->run->results[bw->idx[s][k]].value;
            lo = lo > 0 && lo < v ? lo : v;
            hi = hi > v ? hi : v;
        }
    fputs("set logscale x 2\nset logscale y 10\n", pf->gp);
    long most = bins_tics(bw, pf);
    fprintf(pf->gp, "set xrange [0.7:%g]\nset xlabel 'bins (log scale)'\n", 1.4 * (double)most);
    lo /= 1.5;
    hi *= 1.5;
    fprintf(pf->gp, "set yrange [%.6g:%.6g]\nset ytics nomirror\n", lo, hi);
    const sb_result *f = &c->run->results[bw->idx[0][0]];
    if (f->quantity == SB_QUANTITY_BANDWIDTH)
        fprintf(pf->gp, "set ylabel 'input throughput (GB/s, log scale)'\n"
                        "set logscale y2 10\nset y2range [%.6g:%.6g]\nset y2tics\n"
                        "set y2label 'bin updates per ns (one per 4-byte input)'\n",
                lo / 4, hi / 4);
    else {
        char label[64];
        snprintf(label, sizeof label, "%s (log scale)", sb_quantity_unit(f->quantity));
        sb_plot_gp_set(pf->gp, "ylabel", label);
    }
    fputs("set key below maxcols 3\n", pf->gp);
}

static int bins_plot(const plot_ctx *c, const sb_plot_offer *o, const char *exp,
                     const bins_sweep *bw)
{
    char name[80], title[200];
    sb_plot_stem(exp, o->name, name, sizeof name);
    snprintf(title, sizeof title, "%s: throughput against bins, a colour per variant, dashes "
                                  "per input distribution",
             exp);
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 680 + 14 * ((bw->nseries + 2) / 3);
    sb_plot_script_head(&pf, title);
    bins_axes(c, bw, &pf);
    fputs("# blocks: one per series (device, variant, distribution); columns: bins, the "
          "headline figure, a quarter of it (bin updates per ns where it is input GB/s)\n",
          pf.dat);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < bw->nseries; s++) {
        char label[24], series[160];
        sb_slot_label(c->run, bw->slot[s], label, sizeof label);
        snprintf(series, sizeof series, "%s, %s, %s", label, bw->methods[bw->method[s]],
                 bw->dists[bw->dist[s]]);
        char text[SB_GP_QUOTED_MAX];
        fprintf(pf.dat, "%s# %s\n", s ? "\n\n" : "", sb_plot_dat_text(series, text, sizeof text));
        for (int k = 0; k < bw->count[s]; k++) {
            const sb_result *r = &c->run->results[bw->idx[s][k]];
            fprintf(pf.dat, "%ld %.6g %.6g\n", bw->bins[s][k], r->value, r->value / 4);
        }
        sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with linespoints", s ? "," : "", pf.data, s);
        bins_style(bw, s, cmd);
        sb_plot_cmd_title(cmd, series);
    }
    return sb_plot_finish_plot(&pf, cmd, exp, title, c);
}

/* The sweep over bin counts where the experiment's family offers one. */
int sb_plot_bins(const plot_ctx *c, int *plotted)
{
    const sb_plot_offer *o = c->offers;
    while (o && o->kind && o->kind != SB_PLOT_BINS)
        o++;
    if (!o || o->kind != SB_PLOT_BINS)
        return 0;
    bins_sweep *bw = malloc(sizeof *bw);
    if (!bw) {
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    collect_bins(c->run, c->e, bw);
    int rc = 0;
    if (bw->nseries > 0) {
        rc = bins_plot(c, o, c->run->results[c->e->first].experiment, bw);
        *plotted = 1;
    }
    free(bw);
    return rc;
}
