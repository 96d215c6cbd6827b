#include "config.h"

#include "analysis/lessons_parts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- text */

/* Append to the sentence; what does not fit is cut. */
void sb_lesson_add(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

/* "16.3x", "2.41x". */
void sb_lesson_factor(double f, char *buf, size_t n)
{
    snprintf(buf, n, f >= 10 ? "%.1fx" : "%.2fx", f);
}

/* A model's figure as a factor, to three digits: "32x", "1.94x". */
void sb_lesson_model_factor(double f, char *buf, size_t n)
{
    snprintf(buf, n, "%.3gx", f);
}

/* ---------------------------------------------------------------- model */

/* The result's family figure called name (result.h); 0 where it has none. */
double sb_lesson_figure_of(const sb_result *r, const char *name)
{
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(r->figure[i].name, name) == 0)
            return r->figure[i].value;
    return 0.0;
}

/* The model's cost of result r's access m; 0 where it has none. */
double sb_lesson_cost_of(const sb_result *r, int m, sb_lesson_cost kind)
{
    if (m >= r->npatterns || m >= SB_MAX_PATTERNS || r->pattern_extra[m])
        return 0.0;
    const sb_prediction *p = &r->prediction[m];
    if (kind == SB_COST_WAYS)
        return r->pattern[m].space == SB_SPACE_SHARED && p->ways > 0 ? p->ways : 0.0;
    return r->pattern[m].space == SB_SPACE_GLOBAL && p->efficiency > 0 ? 1.0 / p->efficiency
                                                                        : 0.0;
}

/* What the model says the tried variant saves against the other, on the
 * first access where it predicts less ("removes the model's 32-way
 * conflict", "cuts the model's sectors per request from 32 to 4"); "" where
 * it predicts no saving. */
void sb_lesson_model_saving(const sb_result *tried, const sb_result *against, char *buf, size_t n)
{
    buf[0] = '\0';
    /* The studied accesses come first: the others (tails, fills) say nothing
       of what a variant changes. */
    for (int m = 0; m < tried->npatterns && m < against->npatterns && m < SB_MAX_PATTERNS &&
                    !tried->pattern_extra[m] && !against->pattern_extra[m];
         m++) {
        if (tried->pattern[m].space != against->pattern[m].space)
            continue;
        const sb_prediction *t = &tried->prediction[m], *a = &against->prediction[m];
        if (tried->pattern[m].space == SB_SPACE_SHARED && a->ways > t->ways && t->ways > 0) {
            if (t->ways == 1)
                snprintf(buf, n, " removes the model's %d-way conflict", a->ways);
            else
                snprintf(buf, n, " cuts the model's %d-way conflict to %d-way", a->ways, t->ways);
            return;
        }
        if (tried->pattern[m].space == SB_SPACE_GLOBAL && a->sectors > t->sectors &&
            t->sectors > 0) {
            snprintf(buf, n, " cuts the model's sectors per request from %d to %d", a->sectors,
                     t->sectors);
            return;
        }
    }
    /* A family's own prediction, where its accesses are the same. */
    double tried_slowdown = sb_lesson_figure_of(tried, "predicted_slowdown");
    double against_slowdown = sb_lesson_figure_of(against, "predicted_slowdown");
    if (tried_slowdown > 0 && against_slowdown > tried_slowdown * 1.01) {
        char from[16], to[16];
        sb_lesson_model_factor(against_slowdown, from, sizeof from);
        sb_lesson_model_factor(tried_slowdown, to, sizeof to);
        snprintf(buf, n, " cuts the model's predicted slowdown from %s to %s", from, to);
    }
}

/* ---------------------------------------------------------------- rows */

/* The row of experiment e whose variant is `variant`, at like's size when
 * like is given; NULL when the run has none. */
const sb_cross_row *sb_lesson_find_row(const sb_analysis *a, const sb_cross_experiment *e,
                                    const char *variant, const sb_result *like)
{
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &a->cross.rows[e->rows[j]];
        const sb_result *r = &a->run->results[row->first];
        if (strcmp(r->variant, variant) == 0 &&
            (!like || (r->rows == like->rows && r->cols == like->cols)))
            return row;
    }
    return NULL;
}

/* The device slots a lesson speaks of: every slot of the run, or slot 0 of
 * a run without devices (whose results are all there is). */
int sb_lesson_slots(const sb_analysis *a)
{
    return a->cross.ndevices > 0 ? a->cross.ndevices : 1;
}

/* " on cuda" where the run has more than one device, else "". */
const char *sb_lesson_on(const sb_analysis *a, int s, char *buf, size_t n)
{
    if (a->cross.ndevices > 1)
        snprintf(buf, n, " on %s", a->cross.label[s]);
    else
        buf[0] = '\0';
    return buf;
}
