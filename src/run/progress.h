/* The progress line: on a terminal, one line on standard error that says
 * how many of the run's variants are done, which one is measuring, how
 * long the run has taken and about how long is left.  Every message the
 * run prints while it shows goes through sb_say (or calls
 * sb_progress_clear first), so that a note never lands inside it.  On a
 * non-terminal, or with --quiet, nothing is drawn. */
#ifndef SB_PROGRESS_H
#define SB_PROGRESS_H

#include <stdio.h>

/* Start counting: total variants (sessions x chosen variants); draw only
 * when enabled (not quiet and standard error a terminal). */
void sb_progress_begin(int total, int enabled);

/* The next variant starts: draw the line for it. */
void sb_progress_step(const char *backend, const char *experiment, const char *variant);

/* The current variant is done (measured, failed or left out). */
void sb_progress_done(void);

/* Remove the line, if drawn, so that what is printed next starts at the
 * beginning of a clean line; it comes back at the next step. */
void sb_progress_clear(void);

/* The line's text for done of total after elapsed_s seconds (with an
 * estimate of what is left once one variant is done), within width
 * columns; exposed for the tests. */
void sb_progress_format(char *buf, size_t n, int done, int total, double elapsed_s,
                        const char *backend, const char *experiment, const char *variant,
                        int width);

/* "simtbench: " and the message on stderr, on a line of its own. */
void sb_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
