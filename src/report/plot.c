#include "config.h"

#include "report/plot.h"

#include <errno.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "report/plot_parts.h"

/* The plots of one experiment, each kind where its rows call for it (a
 * sweep per memory space, the figures its family declares, a roofline, a
 * sweep over bin counts, over a size, the bytes in flight, the launch
 * times), and bars where none of the others but the bytes in flight
 * drew. */
static int plot_experiment(const plot_ctx *c)
{
    static int (*const kinds[])(const plot_ctx *, int *) = {
        sb_plot_sweeps, sb_plot_figures, sb_plot_roofline, sb_plot_bins,
        sb_plot_sizes,  sb_plot_inflight, sb_plot_launch,
    };
    int plotted = 0, rc = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && rc == 0; k++)
        rc = kinds[k](c, &plotted);
    if (rc == 0 && !plotted)
        rc = sb_plot_bars(c);
    return rc;
}

int sb_plot_write(const sb_analysis *a, const char *dir, sb_plot_list *list, char *err, size_t n)
{
    memset(list, 0, sizeof *list);
    if (sb_plot_make_dir(dir)) {
        snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (size_t e = 0; e < a->cross.nexperiments && rc == 0; e++) {
        const sb_cross_experiment *x = &a->cross.experiments[e];
        const sb_experiment *family = sb_catalogue_find(a->run->results[x->first].experiment);
        const plot_ctx c = {a->run, &a->cross, x,   a->memory, family ? family->plots : NULL,
                            dir,    list,      err, n};
        rc = plot_experiment(&c);
    }
    return rc;
}
