#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- launch */

/* Whether the experiment's rows were timed on the host too. */
static int host_timed(const plot_ctx *c)
{
    for (size_t i = 0; i < c->e->nresults; i++)
        if (c->run->results[c->e->results[i]].host_observed.n > 0)
            return 1;
    return 0;
}

/* Per variant, each device's device-event and host-observed microseconds
 * per launch, side by side ("?" where a device has none). */
static void launch_data(const plot_ctx *c, plot_files *pf)
{
    const sb_crossapi *x = c->x;
    fputs("# columns: variant, then per device: device-event us, host-observed us:", pf->dat);
    char text[SB_GP_QUOTED_MAX];
    for (int s = 0; s < x->ndevices; s++)
        fprintf(pf->dat, " %s", sb_plot_dat_text(x->label[s], text, sizeof text));
    fputc('\n', pf->dat);
    for (size_t j = 0; j < c->e->nrows; j++) {
        const sb_cross_row *row = &x->rows[c->e->rows[j]];
        sb_plot_dat_string(pf->dat, c->run->results[row->first].variant);
        for (int s = 0; s < x->ndevices; s++) {
            const sb_result *r = row->result[s] >= 0 ? &c->run->results[row->result[s]] : NULL;
            if (r && r->host_observed.n > 0)
                fprintf(pf->dat, " %.6g %.6g", 1e3 * r->ms.median, 1e3 * r->host_observed.median);
            else
                fputs(" ? ?", pf->dat);
        }
        fputc('\n', pf->dat);
    }
}

/* Whether device column s has a row timed on the host too: in a merged
 * run a device may have none, and a column of '?' alone is no bar. */
static int launch_timed(const plot_ctx *c, int s)
{
    for (size_t j = 0; j < c->e->nrows; j++) {
        int i = c->x->rows[c->e->rows[j]].result[s];
        if (i >= 0 && c->run->results[i].host_observed.n > 0)
            return 1;
    }
    return 0;
}

/* Where the launch overhead lives: per variant, each device's time on its
 * events beside the time the host observed, on a log scale (an empty
 * kernel's microseconds beside a 1 GiB copy's). */
static int launch_plot(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    const sb_crossapi *x = c->x;
    char name[80], title[160];
    sb_plot_stem(f->experiment, "launch", name, sizeof name);
    snprintf(title, sizeof title, "%s: microseconds per launch, device events against the "
                                  "host's clock", f->experiment);
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    sb_plot_script_head(&pf, title);
    fputs("set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset logscale y 10\n"
          "set ylabel 'us per launch'\nset yrange [*:*]\n",
          pf.gp);
    launch_data(c, &pf);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    int first = 1;
    for (int s = 0; s < x->ndevices; s++)
        for (int k = 0; k < 2 && launch_timed(c, s); k++) {
            int col = 2 + 2 * s + k;
            if (first)
                sb_plot_cmd_add(cmd, " %s using %d:xtic(1) fs solid 0.8 lc %d", pf.data, col,
                                s + 1);
            else
                sb_plot_cmd_add(cmd, ", '' using %d fs %s lc %d", col,
                                k ? "pattern 4" : "solid 0.8", s + 1);
            first = 0;
            char series[64];
            snprintf(series, sizeof series, "%s %s", x->label[s],
                     k ? "host-observed" : "device events");
            sb_plot_cmd_title(cmd, series);
        }
    return sb_plot_finish_plot(&pf, cmd, f->experiment, title, c);
}

int sb_plot_launch(const plot_ctx *c, int *plotted)
{
    if (!host_timed(c))
        return 0;
    *plotted = 1;
    return launch_plot(c);
}
