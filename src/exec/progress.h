/* The progress line: on a terminal, one line on standard error that says
 * how many of the run's variants are done, which one is measuring, how
 * long the run has taken and about how long is left.  Every message the
 * run prints while it shows goes through sb_say (or calls
 * sb_progress_clear first), so that a note never lands inside it.  On a
 * non-terminal, or with --quiet, nothing is drawn. */
#ifndef SB_PROGRESS_H
#define SB_PROGRESS_H

#include <stdio.h>

/* Start counting: total variants (sessions x chosen variants), of which
 * builds need a kernel built (at most: a build a cache holds is quick);
 * draw only when enabled (not quiet and standard error a terminal). */
void sb_progress_begin(int total, int builds, int enabled);

/* The next variant starts: draw the line for it. */
void sb_progress_step(const char *backend, const char *experiment, const char *variant);

/* The current variant is done (measured, failed or left out). */
void sb_progress_done(void);

/* A kernel build starts: the line says so. */
void sb_progress_build_begin(void);

/* The build is done, after seconds. */
void sb_progress_build_end(double seconds);

/* Remove the line, if drawn, so that what is printed next starts at the
 * beginning of a clean line; it comes back at the next step. */
void sb_progress_clear(void);

/* Where a run stands, for the line. */
typedef struct sb_progress_state {
    int done, total;           /* variants */
    int builds_done, builds;   /* kernel builds: made so far, planned at most */
    double elapsed_s, build_s; /* the run's time, and the builds' part of it */
    int building;              /* a build is under way */
} sb_progress_state;

/* The line's text for st (with an estimate of what is left once the
 * rates it needs are known: one variant measured and, while builds remain,
 * one build made; builds and measurements apart, since a cold kernel cache
 * makes the first far slower than the second), within width columns;
 * exposed for the tests. */
void sb_progress_format(char *buf, size_t n, const sb_progress_state *st, const char *backend,
                        const char *experiment, const char *variant, int width);

/* "simtbench: " and the message on stderr, on a line of its own. */
void sb_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
