/* Plots of a run through gnuplot, chosen from the result records and what
 * each family offers (experiments/offers.h), so that an experiment added
 * later gets its plots without touching these files:
 *
 *   <exp>-bandwidth   a global-memory stride sweep: effective bandwidth
 *                     against stride, per device and word size, with the
 *                     model's curve dashed (predicted sector efficiency x
 *                     the series' bandwidth at its smallest stride)
 *   <exp>-conflicts   a shared-memory stride sweep: time per access
 *                     relative to the smallest stride, against stride, with
 *                     the model's wavefront ratio as a dashed step per word
 *                     size (log-log; a colour per word size throughout)
 *   <exp>-NAME        a plot of the family's own figures that its file
 *                     offers (experiments/offers.h, SB_PLOT_FIGURE): the
 *                     slowdown against figure x, log-log, a colour per
 *                     device and a point shape per kernel, the model's
 *                     figure dashed in the device's colour where a row
 *                     has it (the divergence split's -paths)
 *   <exp>-roofline    GFLOP/s against arithmetic intensity, per device,
 *                     log-log, under each device's memory roof (copy roof
 *                     x I) and compute roof (FP32 peak, compute.h), beside
 *                     its measured FMA peak where the run has the compute
 *                     family, the points numbered with a key beside it
 *   <exp>-bins        offered by a family (SB_PLOT_BINS), a sweep over
 *                     bin counts (variants named
 *                     METHOD-bBINS-DIST, the histogram's): throughput
 *                     against bins, log-log, a colour per method, dashes
 *                     per distribution, a point shape per device, and bin
 *                     updates per ns (one per 4-byte input) on the right
 *                     where the figure is input bandwidth
 *   <exp>-sweep       rows with a size in bytes (their first figure in
 *                     unit "B": a chunk, a distance, a working set): the
 *                     headline against it, log x with a tic per size, per
 *                     device; the rows at no one size (the copy in place,
 *                     random order) as dashed lines and, for bandwidths,
 *                     90% of the fastest dotted; over a working set the
 *                     plateaus found in the data (plateau.h) as thick
 *                     segments; latencies on a log y axis
 *   <exp>-inflight    rows that declare the bytes a thread keeps in flight
 *                     (occupancy): GB/s against threads x those bytes, log
 *                     x, every row a point and a line through the best at
 *                     each size, with the knee measured dashed and the one
 *                     Little's law predicts from the run's DRAM latency
 *                     dotted (run/memory_levels.h; where the run measured
 *                     none, a label says so); beside the bars
 *   <exp>-launch      rows timed on the host too (the launch family): per
 *                     variant, each device's device-event and host-observed
 *                     microseconds per launch side by side, log scale
 *   <exp>-bars        every other experiment (transpose, vector add,
 *                     occupancy, compute...): the headline figure of each
 *                     variant, one bar per device; bandwidths with each
 *                     device's copy roof as a dashed line and each bar's
 *                     share of it, GFLOP/s of no intensity likewise with
 *                     the FP32 peak
 *
 * Each plot is DIR/<name>.dat (the data, one block per series) and
 * DIR/<name>.gp (a script that writes <name>.png and <name>.svg when run
 * from DIR).  gnuplot is optional at run time: without it the data and
 * scripts are still written, and the user is told how to render them.
 * Every string from the run enters a script or data file through
 * sb_gp_quote (gnuplot_text.h); the scripts are ASCII and set no encoding,
 * so they render alike in any locale.  plot_exec.c runs gnuplot. */
#ifndef SB_PLOT_H
#define SB_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

#define SB_PLOT_MAX 64

typedef struct sb_plot_list {
    int n;
    char experiment[SB_PLOT_MAX][32]; /* the experiment plotted */
    char name[SB_PLOT_MAX][80];   /* file stem: "transpose-bars" */
    char title[SB_PLOT_MAX][160]; /* what the plot shows, for captions */
} sb_plot_list;

/* What sb_plot_run returns when SIGINT or SIGTERM stopped the rendering
 * (run/interrupt.h): the caller says so and exits 128 + the signal. */
#define SB_PLOT_INTERRUPTED (-2)

/* Seconds one gnuplot may run before it is stopped, unless
 * SIMTBENCH_GNUPLOT_TIMEOUT says otherwise: a script that hangs (or a
 * gnuplot that waits on something) must not hang the run. */
#define SB_PLOT_TIME_LIMIT 60.0

/* The time limit in force: SIMTBENCH_GNUPLOT_TIMEOUT when it is a number
 * of seconds above 0 (at most a day), else SB_PLOT_TIME_LIMIT. */
double sb_plot_time_limit(void);

/* Find gnuplot: $GNUPLOT when set (empty: do not plot), else the one
 * configure found if it is still there, else "gnuplot" on $PATH.  0 with
 * the path in buf, or -1 when there is none. */
int sb_plot_find_gnuplot(char *buf, size_t n);

/* Write every plot of the analysed run's data and script into dir
 * (created if missing) and list them; 0, or -1 with the reason in err on an I/O error. */
int sb_plot_write(const sb_analysis *a, const char *dir, sb_plot_list *list, char *err, size_t n);

/* Run gnuplot on each listed script inside dir, each within the time
 * limit, until SIGINT or SIGTERM (which stops the gnuplot running and
 * leaves no temporary file); returns how many rendered (a failing or
 * stopped script is reported on `note`, one line each; a signal is not). */
int sb_plot_render(const char *dir, const sb_plot_list *list, const char *gnuplot, FILE *note);

/* --plot DIR: write, then render when gnuplot is there, else one note on
 * `note` saying how to render (also after a signal); 0, -1 after one line
 * on `note` when a file cannot be written or a plot not rendered, or
 * SB_PLOT_INTERRUPTED. */
int sb_plot_run(const sb_analysis *a, const char *dir, FILE *note);

#endif
