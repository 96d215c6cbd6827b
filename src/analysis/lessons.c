#include "config.h"

#include "analysis/lessons.h"
#include "analysis/lessons_pattern.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lessons_memory.h"
#include "analysis/lessons_noise.h"
#include "analysis/lessons_parts.h"
#include "experiments/catalogue.h"

/* The lessons of a block, by the rules its family declares in its own file
 * (experiments/offers.h): each rule's kind says which function draws it. */

/* Device s's clause of a rule said device by device (per_device) into
   buf; 0 when the device has too little of the rule's data, and for the
   pair, track, launch and host rules, which put their devices together
   themselves. */
static int clause_of(const sb_lesson_rule *rule, const sb_analysis *a,
                     const sb_cross_experiment *e, int s, char *buf, size_t n)
{
    switch (rule->kind) {
    case SB_LESSON_COARSEN: return sb_lesson_coarse_clause(a, e, rule, s, buf, n);
    case SB_LESSON_THREADS: return sb_lesson_threads_clause(a, e, rule, s, buf, n);
    case SB_LESSON_PRIVATE: return sb_lesson_private_clause(a, e, rule, s, buf, n);
    case SB_LESSON_BURST: return sb_lesson_burst(a, e, s, rule->against, buf, n);
    case SB_LESSON_CHANNELS: return sb_lesson_channels(a, e, s, rule->against, buf, n);
    case SB_LESSON_LATENCY: return sb_lesson_latency(a, e, s, buf, n);
    case SB_LESSON_WORKING_SET: return sb_lesson_working_set(a, e, s, buf, n);
    case SB_LESSON_LITTLE: return sb_lesson_littles_law(a, e, s, buf, n);
    case SB_LESSON_PEAK: return sb_lesson_peak_clause(a, e, rule, s, buf, n);
    case SB_LESSON_SPLIT: return sb_lesson_split_clause(a, e, rule, s, buf, n);
    case SB_LESSON_FOLLOW: return sb_lesson_follow_clause(a, e, rule, s, buf, n);
    default: return 0;
    }
}

/* Each device's clause, as sentences of their own, "On cuda, ..." where
 * the run has more than one device, or one sentence for all of them when
 * every device's clause reads the same (the same words and figures as
 * printed); 0 when no device has one. */
int sb_lesson_per_device(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, char *buf, size_t n)
{
    static _Thread_local char one[SB_RUN_MAX_DEVICES][SB_LESSON_BYTES];
    int made = 0, has[SB_RUN_MAX_DEVICES] = {0}, same = 1, first = -1;
    buf[0] = '\0';
    for (int s = 0; s < sb_lesson_slots(a) && s < SB_RUN_MAX_DEVICES; s++) {
        if (!(has[s] = clause_of(rule, a, e, s, one[s], sizeof one[s])))
            continue;
        if (first < 0)
            first = s;
        same &= strcmp(one[s], one[first]) == 0;
        made++;
    }
    if (made > 1 && made == a->cross.ndevices && same) {
        sb_lesson_add(buf, n, "%s, %s.", "on every device of the run", one[first]);
        return made;
    }
    int said = 0;
    for (int s = 0; s < sb_lesson_slots(a) && s < SB_RUN_MAX_DEVICES; s++) {
        if (!has[s])
            continue;
        if (a->cross.ndevices > 1)
            sb_lesson_add(buf, n, "%s %s, %s.", said ? " On" : "on", a->cross.label[s], one[s]);
        else
            sb_lesson_add(buf, n, "%s%s.", said ? " " : "", one[s]);
        said++;
    }
    return made;
}

/* One rule's lesson into buf: the rules that put their devices together
 * themselves, else each device's clause; 0 where it has nothing to say. */
static int rule_lesson(const sb_analysis *a, const sb_cross_experiment *x,
                       const sb_lesson_rule *rule, char *buf, size_t n)
{
    switch (rule->kind) {
    case SB_LESSON_PAIR: return sb_lesson_pair_lesson(a, x, rule, buf, n);
    case SB_LESSON_TRACK: return sb_lesson_track_lesson(a, x, rule, buf, n);
    case SB_LESSON_LAUNCH: return sb_lesson_launch_lesson(a, x, rule, buf, n);
    case SB_LESSON_HOST: return sb_lesson_host_lesson(a, x, rule, buf, n);
    case SB_LESSON_WORST_WARP: return sb_lesson_pattern(a, x, buf, n);
    default: return sb_lesson_per_device(a, x, rule, buf, n);
    }
}

/* Block e's lessons, by its family's rules. */
static void draw(const sb_analysis *a, size_t e, sb_lessons *out)
{
    out->n = 0;
    if (e >= a->cross.nexperiments)
        return;
    const sb_cross_experiment *x = &a->cross.experiments[e];
    const sb_experiment *family = sb_catalogue_find(a->run->results[x->first].experiment);
    /* A block of mostly noisy rows teaches nothing but that. */
    if (sb_lesson_noisy_block(a, x, out->text[0], SB_LESSON_BYTES)) {
        out->n = 1;
        return;
    }
    const sb_lesson_rule *rules = family ? family->lessons : NULL;
    for (const sb_lesson_rule *rule = rules; rule && rule->kind && out->n < SB_LESSONS_MAX;
         rule++) {
        char *buf = out->text[out->n];
        int made = rule_lesson(a, x, rule, buf, SB_LESSON_BYTES);
        if (made) {
            buf[0] = (char)(buf[0] >= 'a' && buf[0] <= 'z' ? buf[0] - 'a' + 'A' : buf[0]);
            out->n++;
        }
    }
    if (out->n < SB_LESSONS_MAX &&
        sb_lesson_noisy_rows_named(a, x, out->text[out->n], SB_LESSON_BYTES))
        out->n++;
}

int sb_lessons_draw(sb_analysis *a)
{
    free(a->lessons);
    a->lessons = NULL;
    if (a->cross.nexperiments == 0)
        return 0;
    a->lessons = malloc(a->cross.nexperiments * sizeof *a->lessons);
    if (!a->lessons)
        return -1;
    for (size_t e = 0; e < a->cross.nexperiments; e++)
        draw(a, e, &a->lessons[e]);
    return 0;
}

void sb_lessons_of(const sb_analysis *a, size_t e, sb_lessons *out)
{
    if (a->lessons && e < a->cross.nexperiments)
        *out = a->lessons[e];
    else
        out->n = 0;
}
