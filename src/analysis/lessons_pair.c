#include "config.h"

#include "analysis/lessons_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/lessons_noise.h"

/* ---------------------------------------------------------------- pairs */

/* One device's outcome of a pair. */
typedef struct outcome {
    int slot;
    sb_verdict v; /* the tried variant (other) against the other (ref) */
} outcome;

/* What happened on one device: "padded is 16.3x faster than tiled", "padded
 * and tiled run the same, within 1.0%", "padded is 1.20x slower than
 * tiled"; or, for a later device of the same outcome, only the figure. */
static void pair_outcome(const sb_lesson_rule *rule, const outcome *o, int figure_only, char *buf,
                         size_t n)
{
    char f[32];
    const sb_verdict *v = &o->v;
    if (v->kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(v, "", "", why, sizeof why);
        if (figure_only)
            sb_lesson_add(buf, n, "%s", why);
        else
            sb_lesson_add(buf, n, "%s against %s is %s", rule->tried, rule->against, why);
        return;
    }
    if (v->kind == SB_VERDICT_SAME) {
        if (figure_only)
            sb_lesson_add(buf, n, "%.1f%%", 100.0 * sb_verdict_within(v));
        else
            sb_lesson_add(buf, n, "%s and %s run the same, within %.1f%%", rule->tried,
                          rule->against, 100.0 * sb_verdict_within(v));
        return;
    }
    sb_lesson_factor(v->by + 1.0, f, sizeof f);
    if (figure_only)
        sb_lesson_add(buf, n, "%s", f);
    else
        sb_lesson_add(buf, n, "%s is %s %s than %s", rule->tried, f,
            v->kind == SB_VERDICT_FASTER ? "faster" : "slower", rule->against);
}

/* The lead of a pair's sentence for an outcome every device shares. */
static void pair_lead(const sb_lesson_rule *rule, sb_verdict_kind kind, const char *saving,
                      char *buf, size_t n)
{
    sb_lesson_add(buf, n, "%s%s", rule->what, saving);
    if (kind == SB_VERDICT_NOISY)
        sb_lesson_add(buf, n, saving[0] ? "; what it does to the time, this run cannot tell: "
                              : ": this run cannot tell: ");
    else if (kind == SB_VERDICT_SAME)
        sb_lesson_add(buf, n, saving[0] ? ", but not the time here: " : " changes nothing here: ");
    else if (kind == SB_VERDICT_SLOWER)
        sb_lesson_add(buf, n, saving[0] ? ", yet costs time here: " : " costs time here: ");
    else
        sb_lesson_add(buf, n, saving[0] ? ": " : " pays: ");
}

/* The pair's sentence from its outcomes: one lead and each device's
 * figure when they agree, else each device's own outcome. */
static void pair_sentence(const sb_analysis *a, const sb_lesson_rule *rule, const outcome *o,
                          int no, const char *saving, char *buf, size_t n)
{
    int agree = 1;
    for (int i = 1; i < no; i++)
        agree &= o[i].v.kind == o[0].v.kind;
    char where[40];
    if (agree) {
        pair_lead(rule, o[0].v.kind, saving, buf, n);
        for (int i = 0; i < no; i++) {
            if (i)
                sb_lesson_add(buf, n, ", ");
            pair_outcome(rule, &o[i], i > 0, buf, n);
            sb_lesson_add(buf, n, "%s", sb_lesson_on(a, o[i].slot, where, sizeof where));
        }
    } else {
        sb_lesson_add(buf, n, "%s%s: ", rule->what, saving);
        for (int i = 0; i < no; i++) {
            const char *at = sb_lesson_on(a, o[i].slot, where, sizeof where);
            sb_lesson_add(buf, n, "%s%s, ", i ? "; " : "", at[0] == ' ' ? at + 1 : at);
            pair_outcome(rule, &o[i], 0, buf, n);
        }
    }
    sb_lesson_add(buf, n, ".");
}

/* A pair rule's lesson into buf; 0 when the run lacks either variant. */
int sb_lesson_pair_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const sb_lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *tried = sb_lesson_find_row(a, e, rule->tried, NULL);
    const sb_cross_row *against =
        tried ? sb_lesson_find_row(a, e, rule->against, &a->run->results[tried->first]) : NULL;
    if (!against)
        return 0;
    outcome o[SB_RUN_MAX_DEVICES];
    int no = 0;
    char saving[96] = "";
    for (int s = 0; s < sb_lesson_slots(a); s++) {
        if (tried->result[s] < 0 || against->result[s] < 0)
            continue;
        const sb_result *t = &a->run->results[tried->result[s]];
        const sb_result *r = &a->run->results[against->result[s]];
        sb_verdict v = sb_lesson_judge(a, r, t, 0.0);
        if (v.kind == SB_VERDICT_NONE)
            continue;
        if (no == 0)
            sb_lesson_model_saving(t, r, saving, sizeof saving);
        o[no++] = (outcome){s, v};
    }
    if (no == 0)
        return 0;
    buf[0] = '\0';
    pair_sentence(a, rule, o, no, saving, buf, n);
    return 1;
}

/* ---------------------------------------------------------------- tracks */


/* One device's headline of a track rule: the row the model gives the
 * highest cost, its measured slowdown against its group's baseline. */
typedef struct track {
    int slot;
    const sb_result *r;
    double cost, slowdown;
    sb_track_kind kind;
} track;

/* The headline of slot s among experiment e's rows; 0 when no row has
 * both a slowdown and a model cost above the ideal. */
static int track_of(const sb_analysis *a, const sb_cross_experiment *e, const sb_lesson_rule *rule,
                    int s, track *t)
{
    t->r = NULL;
    t->cost = 1.0;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        double c = r ? sb_lesson_cost_of(r, 0, rule->cost) : 0.0;
        if (r && r->slowdown > 0 && c > t->cost) {
            t->r = r;
            t->cost = c;
        }
    }
    if (!t->r)
        return 0;
    t->slot = s;
    t->slowdown = t->r->slowdown;
    double ratio = t->slowdown / t->cost;
    t->kind = ratio > TRACK_TOLERANCE         ? TRACK_MORE
              : ratio < 1.0 / TRACK_TOLERANCE ? TRACK_LESS
                                              : TRACK_AS;
    return 1;
}

static void track_lead(const sb_lesson_rule *rule, sb_track_kind kind, char *buf, size_t n)
{
    static const char *const grows[] = {[TRACK_AS] = "the time follows",
                                        [TRACK_LESS] = "the time grows less than",
                                        [TRACK_MORE] = "the time grows more than"};
    sb_lesson_add(buf, n, "%s %s", grows[kind],
        rule->cost == SB_COST_WAYS ? "the model's conflict ways"
                                : "the traffic the model's sector efficiency implies");
}

/* "w4-s32-load (32-way in the model) takes 31.1x as long as its
 * baseline". */
static void track_row(const sb_lesson_rule *rule, const track *t, char *buf, size_t n)
{
    char f[32];
    sb_lesson_factor(t->slowdown, f, sizeof f);
    if (rule->cost == SB_COST_WAYS)
        sb_lesson_add(buf, n, "%s (%.0f-way in the model) takes %s as long as its baseline",
            t->r->variant, t->cost, f);
    else
        sb_lesson_add(buf, n,
                      "%s (%.1f%% of each fetched byte used in the model) takes %s as long as "
                      "its baseline",
                      t->r->variant, 100.0 / t->cost, f);
}

/* A track rule's lesson into buf; 0 when no device has a headline. */
int sb_lesson_track_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                        const sb_lesson_rule *rule, char *buf, size_t n)
{
    track t[SB_RUN_MAX_DEVICES];
    int nt = 0, agree = 1;
    for (int s = 0; s < sb_lesson_slots(a); s++)
        if (track_of(a, e, rule, s, &t[nt]))
            nt++;
    if (nt == 0)
        return 0;
    for (int i = 1; i < nt; i++)
        agree &= t[i].kind == t[0].kind && t[i].r->variant[0] &&
                 strcmp(t[i].r->variant, t[0].r->variant) == 0;
    buf[0] = '\0';
    char where[40], f[32];
    for (int i = 0; i < nt; i++) {
        if (agree && i > 0) {
            sb_lesson_factor(t[i].slowdown, f, sizeof f);
            sb_lesson_add(buf, n, ", %s%s", f, sb_lesson_on(a, t[i].slot, where, sizeof where));
            continue;
        }
        if (i)
            sb_lesson_add(buf, n, "; ");
        track_lead(rule, t[i].kind, buf, n);
        sb_lesson_add(buf, n, ": ");
        track_row(rule, &t[i], buf, n);
        sb_lesson_add(buf, n, "%s", sb_lesson_on(a, t[i].slot, where, sizeof where));
    }
    sb_lesson_add(buf, n, ".");
    return 1;
}
