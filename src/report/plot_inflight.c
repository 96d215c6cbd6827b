#include "config.h"

#include "report/plot_parts.h"

#include "dram.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- bytes in flight */

/* Whether device slot s's Little's law is about this experiment. */
static int inflight_of(const plot_ctx *c, int s)
{
    return s < SB_RUN_MAX_DEVICES && c->memory[s].knee_row >= 0 &&
           strcmp(c->memory[s].inflight, c->run->results[c->e->first].experiment) == 0;
}

static int has_inflight(const plot_ctx *c)
{
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            return 1;
    return 0;
}

/* One device's rows by bytes in flight, sorted; their count. */
enum { INFLIGHT_POINTS = 256 };
static int inflight_points(const plot_ctx *c, int s, double *x, size_t *at)
{
    const sb_memory_levels *m = &c->memory[s];
    int np = 0;
    for (size_t i = 0; i < c->e->nresults && np < INFLIGHT_POINTS; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        double b = sb_bytes_in_flight(r, m->in_flight);
        if (r->device_slot != s || !(b > 0) || !(r->value > 0))
            continue;
        int k = np++;
        for (; k > 0 && x[k - 1] > b; k--) {
            x[k] = x[k - 1];
            at[k] = at[k - 1];
        }
        x[k] = b;
        at[k] = c->e->results[i];
    }
    return np;
}

/* One device's rows by bytes in flight: every row as a point (a block),
 * and a line through the best at each size (a second block), so that rows
 * at one size (a full grid's variants) are not joined by a vertical
 * segment; the blocks written. */
static int inflight_series(const plot_ctx *c, int s, int block, plot_files *pf, cmd_buf *cmd)
{
    const sb_memory_levels *m = &c->memory[s];
    double x[INFLIGHT_POINTS];
    size_t at[INFLIGHT_POINTS];
    int np = inflight_points(c, s, x, at);
    char label[24], title[96], text[SB_GP_QUOTED_MAX];
    sb_slot_label(c->run, s, label, sizeof label);
    fprintf(pf->dat, "%s# %s: bytes in flight, GB/s, variant\n", block ? "\n\n" : "",
            sb_plot_dat_text(label, text, sizeof text));
    for (int k = 0; k < np; k++) {
        fprintf(pf->dat, "%.0f %.6g ", x[k], c->run->results[at[k]].value);
        sb_plot_dat_string(pf->dat, c->run->results[at[k]].variant);
        fputc('\n', pf->dat);
    }
    fprintf(pf->dat, "\n\n# %s: the best GB/s at each size in flight\n", text);
    for (int k = 0; k < np;) {
        double best = 0;
        int j = k;
        for (; j < np && x[j] == x[k]; j++)
            best = c->run->results[at[j]].value > best ? c->run->results[at[j]].value : best;
        fprintf(pf->dat, "%.0f %.6g\n", x[k], best);
        k = j;
    }
    snprintf(title, sizeof title, "%s (threads %s x %.0f B; the line: the best at each)", label,
             m->in_flight ? "in flight" : "launched", m->bytes_per_thread);
    sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with points pt %d ps 1.3 lc %d notitle",
            block ? "," : "", pf->data, block, s ? 6 : 7, s + 1);
    sb_plot_cmd_add(cmd, ", %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.3 lc %d",
                    pf->data, block + 1, s ? 6 : 7, s + 1);
    sb_plot_cmd_title(cmd, title);
    return 2;
}

/* Little's law's bytes in flight for device slot s: the copy's reads x
 * the DRAM latency, from the run's latency sweep wherever it ran (the
 * lesson asks for one before the rows, the plot need not); 0 without. */
static double littles_bytes(const sb_memory_levels *m)
{
    if (m->need_bytes > 0)
        return m->need_bytes;
    return m->dram_ns > 0 && m->copy_gbs > 0 ? sb_littles_bytes(m->copy_gbs / 2.0, m->dram_ns)
                                             : 0.0;
}

/* One device's knees as vertical lines, measured dashed and predicted
   dotted; the blocks written. */
static int inflight_knees(const plot_ctx *c, int s, int block, plot_files *pf, cmd_buf *cmd)
{
    const sb_memory_levels *m = &c->memory[s];
    char label[24], title[160], style[48];
    sb_slot_label(c->run, s, label, sizeof label);
    double top = 1.1 * m->best_gbs, need = littles_bytes(m);
    snprintf(title, sizeof title, "%s knee measured: %.3g MB (%s, %.0f%% of the best)", label,
             m->knee_bytes / 1e6, c->run->results[m->knee_row].variant, 100 * SB_KNEE_NEAR_BEST);
    snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
    sb_plot_roof_line(pf, cmd, block, title, m->knee_bytes, 0, m->knee_bytes, top, style);
    if (!(need > 0))
        return 1;
    snprintf(title, sizeof title, "%s Little's law: %.3g MB (%.0f GB/s of reads x %.3g ns)",
             label, need / 1e6, m->copy_gbs / 2, m->dram_ns);
    /* The first device's widest, so that coinciding predictions show each colour. */
    snprintf(style, sizeof style, "dt 3 lw %d lc %d", s ? 2 : 4, s + 1);
    sb_plot_roof_line(pf, cmd, block + 1, title, need, 0, need, top, style);
    return 2;
}

/* A size in flight on the axis: "256 B", "4 KiB", "1 MiB". */
static void bytes_tic(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (bytes >= 1024 && k < 4) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.0f %s", bytes, unit[k]);
}

/* Tics at powers of 4 (of 16 over a wide range) across the sizes the
 * devices keep in flight, each named in binary units. */
static void inflight_tics(const plot_ctx *c, plot_files *pf)
{
    double lo = 0, hi = 0, x[INFLIGHT_POINTS];
    size_t at[INFLIGHT_POINTS];
    for (int s = 0; s < c->run->ndevices; s++) {
        int np = inflight_of(c, s) ? inflight_points(c, s, x, at) : 0;
        if (np > 0) {
            lo = lo > 0 && lo < x[0] ? lo : x[0];
            hi = hi > x[np - 1] ? hi : x[np - 1];
        }
    }
    if (!(hi > 0))
        return;
    double first = 1;
    while (first * 4 <= lo)
        first *= 4;
    int tics = 1;
    for (double t = first; t < hi; t *= 4)
        tics++;
    double step = tics > 12 ? 16 : 4;
    fputs("set xtics (", pf->gp);
    for (double t = first; t <= hi; t *= step) {
        char label[24];
        bytes_tic(t, label, sizeof label);
        fputs(t > first ? ", " : "", pf->gp);
        sb_plot_gp_string(pf->gp, label);
        fprintf(pf->gp, " %.0f", t);
    }
    fputs(")\n", pf->gp);
}

/* Bandwidth against the bytes in flight, log x, with the knee Little's
   law predicts beside the one measured, or why there is none. */
static int inflight_plot(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    char name[80], title[200];
    int littles = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        littles |= inflight_of(c, s) && littles_bytes(&c->memory[s]) > 0;
    sb_plot_stem(f->experiment, "inflight", name, sizeof name);
    snprintf(title, sizeof title, "%s: GB/s against bytes in flight; dashed: the knee measured%s",
             f->experiment,
             littles ? "; dotted: Little's law's (the copy's reads x DRAM latency)" : "");
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    sb_plot_script_head(&pf, title);
    fputs("set logscale x 2\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, 0, 0\n"
          "set xlabel 'bytes in flight: threads x the bytes each keeps in flight'\n"
          "set ylabel 'GB/s'\n",
          pf.gp);
    inflight_tics(c, &pf);
    if (!littles)
        fputs("set label 'no Little''s law knee: the run measured no DRAM latency (the latency "
              "family: --experiment latency,occupancy)' at graph 0.02, graph 0.95 left front\n",
              pf.gp);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    int block = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            block += inflight_series(c, s, block, &pf, cmd);
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            block += inflight_knees(c, s, block, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, f->experiment, title, c);
}

/* The bytes in flight where Little's law is about the experiment: beside
 * the bars, so it leaves *plotted alone. */
int sb_plot_inflight(const plot_ctx *c, int *plotted)
{
    (void)plotted;
    return has_inflight(c) ? inflight_plot(c) : 0;
}
