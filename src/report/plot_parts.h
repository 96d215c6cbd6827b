/* What the plot files share, inside src/report alone: a plot's two files
 * (plot_files.c), the command it builds, the context of one --plot, and
 * one entry point per kind of plot (plot.h lists the kinds), each in its
 * own file.  Each entry point draws its kind for experiment c->e where the
 * rows call for it, sets *plotted when it drew one, and returns 0, or -1
 * with err set. */
#ifndef SB_PLOT_PARTS_H
#define SB_PLOT_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "experiments/offers.h"
#include "report/describe.h"
#include "report/gnuplot_text.h"
#include "report/output_file.h"
#include "report/plot.h"

/* A plot's data and script, each written beside its file and renamed over
 * it when complete (output_file.h). */
typedef struct plot_files {
    sb_output_file dat_file, gp_file;
    FILE *dat, *gp; /* where to write: the two files' streams */
    char name[80];
    char data[96]; /* 'NAME.dat', quoted for a plot command */
    int width; /* pixels; bars widen it so that every label stays readable */
    int height; /* pixels; sweeps heighten it for a key of many series */
} plot_files;

/* A growing string for a plot command; `failed` once out of memory. */
typedef struct cmd_buf {
    char *text;
    size_t used, size;
    int failed;
} cmd_buf;

/* What every plot of one --plot needs: the run and its pairing, where the
 * files go, the list they join, and where an error is said. */
typedef struct plot_ctx {
    const sb_run *run;
    const sb_crossapi *x;
    const sb_cross_experiment *e; /* the experiment being plotted */
    const sb_memory_levels *memory; /* per device slot (analysis.h) */
    const sb_plot_offer *offers;    /* what its family offers (offers.h); NULL: none */
    const char *dir;
    sb_plot_list *list;
    char *err;
    size_t errn;
} plot_ctx;

void sb_plot_stem(const char *experiment, const char *kind, char *buf, size_t n);
void sb_plot_gp_string(FILE *f, const char *s);
void sb_plot_dat_string(FILE *f, const char *s);
const char *sb_plot_dat_text(const char *s, char *buf, size_t n);
void sb_plot_gp_set(FILE *f, const char *what, const char *text);
void sb_plot_gp_file(FILE *f, const char *name, const char *ext);
int sb_plot_make_dir(const char *dir);
int sb_plot_open_plot(const char *dir, const char *name, plot_files *pf, char *err,
                      size_t n);
void sb_plot_abandon_plot(plot_files *pf);
void sb_plot_script_head(plot_files *pf, const char *title);
void sb_plot_script_outputs(plot_files *pf, const char *plot_command);
int sb_plot_close_plot(plot_files *pf, char *err, size_t n);
void sb_plot_list_add(sb_plot_list *list, const char *exp, const char *name,
                      const char *title);
void sb_plot_cmd_add(cmd_buf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_plot_cmd_title(cmd_buf *c, const char *s);
/* One roof line as a block of two points and its curve in the command. */
void sb_plot_roof_line(plot_files *pf, cmd_buf *cmd, int block, const char *title, double x0,
                       double y0, double x1, double y1, const char *style);
double sb_plot_device_roof(const sb_run *run, int slot);
cmd_buf *sb_plot_new_command(plot_files *pf, const plot_ctx *c);
int sb_plot_finish_plot(plot_files *pf, cmd_buf *cmd, const char *exp, const char *title,
                        const plot_ctx *c);

/* The kinds, in the order plot.c draws them. */
int sb_plot_sweeps(const plot_ctx *c, int *plotted);   /* plot_sweep.c */
int sb_plot_figures(const plot_ctx *c, int *plotted);  /* plot_figure.c */
int sb_plot_roofline(const plot_ctx *c, int *plotted); /* plot_roofline.c */
int sb_plot_bins(const plot_ctx *c, int *plotted);     /* plot_bins.c */
int sb_plot_sizes(const plot_ctx *c, int *plotted);    /* plot_size.c */
int sb_plot_inflight(const plot_ctx *c, int *plotted); /* plot_inflight.c */
int sb_plot_launch(const plot_ctx *c, int *plotted);   /* plot_launch.c */
int sb_plot_bars(const plot_ctx *c);                   /* plot_bars.c */

#endif
