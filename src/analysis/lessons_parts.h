/* What the lesson files share, inside src/analysis alone: the text and row
 * helpers (lessons_text.c) and one function per kind of rule
 * (experiments/offers.h), by file. */
#ifndef SB_LESSONS_PARTS_H
#define SB_LESSONS_PARTS_H

#include <stddef.h>

#include "analysis/lessons.h"
#include "experiments/offers.h"

/* How a measured slowdown stands against the model's. */
typedef enum sb_track_kind { TRACK_AS, TRACK_LESS, TRACK_MORE } sb_track_kind;

/* A verdict against the model: the measured slowdown within a quarter of
 * the predicted one, either way. */
#define TRACK_TOLERANCE 1.25

/* lessons_text.c */
void sb_lesson_add(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sb_lesson_factor(double f, char *buf, size_t n);
void sb_lesson_model_factor(double f, char *buf, size_t n);
double sb_lesson_figure_of(const sb_result *r, const char *name);
double sb_lesson_cost_of(const sb_result *r, int m, sb_lesson_cost kind);
void sb_lesson_model_saving(const sb_result *tried, const sb_result *against, char *buf, size_t n);
const sb_cross_row *sb_lesson_find_row(const sb_analysis *a, const sb_cross_experiment *e,
                                    const char *variant, const sb_result *like);
int sb_lesson_slots(const sb_analysis *a);
const char *sb_lesson_on(const sb_analysis *a, int s, char *buf, size_t n);

/* lessons_pair.c */
int sb_lesson_pair_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const sb_lesson_rule *rule, char *buf, size_t n);
int sb_lesson_track_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                        const sb_lesson_rule *rule, char *buf, size_t n);

/* lessons_scaling.c */
int sb_lesson_coarse_clause(const sb_analysis *a, const sb_cross_experiment *e,
                            const sb_lesson_rule *rule, int s, char *buf, size_t n);
int sb_lesson_threads_clause(const sb_analysis *a, const sb_cross_experiment *e,
                             const sb_lesson_rule *rule, int s, char *buf, size_t n);
int sb_lesson_private_clause(const sb_analysis *a, const sb_cross_experiment *e,
                             const sb_lesson_rule *rule, int s, char *buf, size_t n);

/* lessons_launch.c */
int sb_lesson_launch_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, char *buf, size_t n);
int sb_lesson_host_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const sb_lesson_rule *rule, char *buf, size_t n);
int sb_lesson_peak_clause(const sb_analysis *a, const sb_cross_experiment *e,
                          const sb_lesson_rule *rule, int s, char *buf, size_t n);

/* lessons_predicted.c */
sb_track_kind sb_lesson_against_model(double slowdown, double predicted);
int sb_lesson_split_clause(const sb_analysis *a, const sb_cross_experiment *e,
                           const sb_lesson_rule *rule, int s, char *buf, size_t n);
int sb_lesson_follow_clause(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, int s, char *buf, size_t n);

/* lessons.c: each device's clause of rule, as lessons.c puts them together. */
int sb_lesson_per_device(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, char *buf, size_t n);

#endif
