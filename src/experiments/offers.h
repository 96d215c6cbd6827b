/* What a family offers the stages after the run, declared as data in its
 * own file (src/experiments/NAME.c) and read by generic code that names no
 * experiment:
 *
 *   plots    beyond those every row's common fields call for (a stride
 *            sweep from the declared accesses, a roofline from GFLOP/s and
 *            an intensity, a size sweep, launch times, bars), the plots
 *            that need the family's own figures: which figure on the x
 *            axis, which the model predicts the y axis with, the texts
 *            (src/report/plot_figure.c, plot_bins.c draw them);
 *   lessons  the rules its lessons are drawn by, over the analysed rows
 *            (src/analysis/lessons.c evaluates them once, before any
 *            writer runs).
 *
 * Both are tables ending in a zero row (kind 0). */
#ifndef SB_OFFERS_H
#define SB_OFFERS_H

/* ---------------------------------------------------------------- plots */

typedef enum sb_plot_kind {
    SB_PLOT_END = 0,
    /* The slowdown against the rows' base (analysis.h) against figure x,
       log-log, a colour per device, a point shape per kernel; the model's
       figure dashed in the device's colour where a row has it.  Drawn
       where a device and kernel have two or more rows with x. */
    SB_PLOT_FIGURE,
    /* The headline against the bin count of variants named
       METHOD-bBINS-DIST (describe.h's sb_bins_variant): a colour per
       method, dashes per distribution.  Drawn where a series has two or
       more bin counts. */
    SB_PLOT_BINS,
} sb_plot_kind;

typedef struct sb_plot_offer {
    sb_plot_kind kind;
    const char *name;  /* the file stem's end, EXPERIMENT-NAME: "paths" */
    const char *title; /* after "EXPERIMENT: " */
    /* SB_PLOT_FIGURE alone: */
    const char *x;       /* the figure on the x axis (result.h): "split_paths" */
    const char *model;   /* the model's prediction of the slowdown, dashed; NULL: none */
    const char *extra;   /* a figure written as the data's fourth column; NULL: none */
    const char *xlabel;  /* the axes' labels */
    const char *ylabel;
    const char *columns; /* the data file's comment on its columns */
} sb_plot_offer;

#endif
