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

/* ---------------------------------------------------------------- lessons */

/* What a rule compares; each says its sentence from the figures, per
 * device, and only where the run measured the rows it names. */
typedef enum sb_lesson_kind {
    SB_LESSON_END = 0,
    SB_LESSON_PAIR,    /* variant tried against variant against: what the change does */
    SB_LESSON_TRACK,   /* every variant against the model's cost: does the time follow it */
    SB_LESSON_COARSEN, /* the coarseN variants: which factor pays, and where it stops */
    SB_LESSON_THREADS, /* bandwidth against the threads each configuration keeps busy */
    SB_LESSON_PRIVATE, /* private copies against global atomics (METHOD-bBINS-DIST), bins up */
    /* The memory hierarchy's (lessons_memory.h), one device at a time: */
    SB_LESSON_BURST,       /* the chunk that reaches 90% of the copy in place */
    SB_LESSON_CHANNELS,    /* power-of-two distances against random order */
    SB_LESSON_LATENCY,     /* the latency plateaus */
    SB_LESSON_WORKING_SET, /* the cache's plateau and DRAM's */
    SB_LESSON_LITTLE,      /* the knee Little's law predicts, and the knee measured */
    SB_LESSON_LAUNCH, /* variant tried's device and host-observed time per launch */
    SB_LESSON_HOST,   /* what a host-timed benchmark of variant tried loses to the launch
                         path, and whether the launch path makes the devices differ */
    SB_LESSON_PEAK,   /* variant tried's FMA peak against the theoretical FP32 peak, and
                         against (fewer chains) */
    SB_LESSON_SPLIT,  /* lane % k against warp_index % k: the condition's granularity */
    SB_LESSON_FOLLOW, /* named variants' slowdowns against the model's predicted ones */
    SB_LESSON_WORST_WARP, /* traced rows: the one whose worst sampled warp costs the most,
                             and why (which lanes share a bank, how much of a sector is used) */
} sb_lesson_kind;

/* The model's cost of an access a track rule holds the times against. */
typedef enum sb_lesson_cost {
    SB_COST_WAYS,   /* shared memory: the conflict ways */
    SB_COST_TRAFFIC /* global memory: bytes fetched per byte used, 1 / efficiency */
} sb_lesson_cost;

typedef struct sb_lesson_rule {
    sb_lesson_kind kind;
    const char *tried, *against; /* pair, peak: the variant tried, the one it is held against;
                                    coarsen: tried, the prefix of the variants TRIEDn walked;
                                    threads: against, the copy reference left out;
                                    burst: against, the copy in place; channels:
                                    against, the chunks in random order; split: the
                                    prefixes of the two splits TRIEDk, AGAINSTk;
                                    private: against, the method the copies are held against */
    const char *what;            /* pair: what the tried variant changes; private: the inputs */
    sb_lesson_cost cost;         /* track: the model's figure the times are held against */
    const char *dist;            /* private: the inputs' distribution, "skewed" or "uniform" */
    const char *rows[2];         /* follow: the variants whose slowdowns it quotes */
    const char *base;            /* follow: what they are slowdowns against */
    const char *why;             /* follow: what the model's figure counts */
} sb_lesson_rule;

#endif
