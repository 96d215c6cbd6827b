#include "config.h"

#include "analysis/lessons_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/lessons_noise.h"

/* ---------------------------------------------------------------- divergence */

/* Slot s's row of experiment e whose variant is `variant`, at like's size
 * when like is given; NULL when there is none. */
static const sb_result *slot_row(const sb_analysis *a, const sb_cross_experiment *e, int s,
                                 const char *variant, const sb_result *like)
{
    const sb_cross_row *row = sb_lesson_find_row(a, e, variant, like);
    return row && row->result[s] >= 0 ? &a->run->results[row->result[s]] : NULL;
}

/* How a measured slowdown stands to the model's: within a quarter either
 * way, less or more. */
sb_track_kind sb_lesson_against_model(double slowdown, double predicted)
{
    double ratio = slowdown / predicted;
    return ratio > TRACK_TOLERANCE ? TRACK_MORE : ratio < 1.0 / TRACK_TOLERANCE ? TRACK_LESS
                                                                                : TRACK_AS;
}

/* ", every k within 25% of the model", or where the first k leaves it
 * ("; at k = 8 the time grows less than the model's 8x: 5.10x"). */
static void split_fit(const sb_analysis *a, const sb_cross_experiment *e, int s,
                      const sb_lesson_rule *rule, int top, const sb_result *like, char *buf,
                      size_t n)
{
    for (int k = 2; k <= top; k *= 2) {
        char name[64], f[32], m[16];
        snprintf(name, sizeof name, "%s%d", rule->tried, k);
        const sb_result *r = slot_row(a, e, s, name, like);
        double predicted = r ? sb_lesson_figure_of(r, "predicted_slowdown") : 0;
        if (!r || r->slowdown <= 0 || predicted <= 0)
            continue;
        sb_track_kind kind = sb_lesson_against_model(r->slowdown, predicted);
        if (kind == TRACK_AS)
            continue;
        sb_lesson_factor(r->slowdown, f, sizeof f);
        sb_lesson_model_factor(predicted, m, sizeof m);
        sb_lesson_add(buf, n, "; at k = %d the time grows %s than the model's %s: %s", k,
            kind == TRACK_LESS ? "less" : "more", m, f);
        return;
    }
    sb_lesson_add(buf, n, ", every k within %.0f%% of the model", 100.0 * (TRACK_TOLERANCE - 1.0));
}

/* The largest k that slot s measured both splits at (0: none above 1),
 * and those two rows: the rule's tried split (by lane, "lane-k8") and the
 * one it is held against (by warp). */
static int split_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                      const sb_lesson_rule *rule, const sb_result **lane,
                      const sb_result **warp)
{
    for (int k = 1 << 10; k >= 2; k /= 2) {
        char l[64], w[64];
        snprintf(l, sizeof l, "%s%d", rule->tried, k);
        snprintf(w, sizeof w, "%s%d", rule->against, k);
        *lane = slot_row(a, e, s, l, NULL);
        *warp = *lane ? slot_row(a, e, s, w, *lane) : NULL;
        if (*warp && (*lane)->slowdown > 0 && (*warp)->slowdown > 0)
            return k;
    }
    return 0;
}

/* lane % k against warp_index % k on slot s, at the largest k both ran:
 * what each costs over one path, the model's figure beside each, and
 * whether the condition's granularity is what matters. */
int sb_lesson_split_clause(const sb_analysis *a, const sb_cross_experiment *e,
                           const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    const sb_result *lane, *warp;
    int k = split_rows(a, e, s, rule, &lane, &warp);
    if (!k)
        return 0;
    char one[64];
    snprintf(one, sizeof one, "%s1", rule->tried);
    const sb_result *base = slot_row(a, e, s, one, lane);
    double pl = sb_lesson_figure_of(lane, "predicted_slowdown"),
           pw = sb_lesson_figure_of(warp, "predicted_slowdown");
    char f[32], m[16];
    buf[0] = '\0';
    sb_lesson_factor(lane->slowdown, f, sizeof f);
    sb_lesson_add(buf, n, "lane %% k: %d paths cost %s the uniform %s", k, f,
                  pl > 0 ? "warp" : "case");
    if (pl > 0) {
        sb_lesson_model_factor(pl, m, sizeof m);
        sb_lesson_add(buf, n, ", the model's %s", m);
        split_fit(a, e, s, rule, k, lane, buf, n);
    }
    sb_lesson_factor(warp->slowdown, f, sizeof f);
    sb_verdict free_of = base ? sb_lesson_judge(a, base, warp, 0.0)
                              : (sb_verdict){.kind = SB_VERDICT_NONE};
    sb_lesson_add(buf, n, "; warp_index %% k: %d paths cost %s%s", k,
        free_of.kind == SB_VERDICT_SAME ? "nothing, " : "", f);
    if (pw > 0) {
        sb_lesson_model_factor(pw, m, sizeof m);
        sb_lesson_add(buf, n, ", the model's %s", m);
    }
    sb_verdict v = sb_lesson_judge(a, warp, lane, 0.0);
    char why[64];
    if (v.kind == SB_VERDICT_NOISY && sb_verdict_text(&v, "", "", why, sizeof why) > 0)
        sb_lesson_add(buf, n, ": the two splits against each other are %s", why);
    else if (v.kind == SB_VERDICT_SLOWER)
        sb_lesson_add(buf, n, ": the condition's granularity matters, not the number of paths");
    else if (v.kind == SB_VERDICT_SAME)
        sb_lesson_add(buf, n, ": the two splits run the same here, within %.1f%%",
            100.0 * sb_verdict_within(&v));
    else
        sb_lesson_add(buf, n, ": lane %% k is the faster here");
    if (pl <= 0)
        sb_lesson_add(buf, n, " (no warp: vector lanes, and the model predicts nothing)");
    return 1;
}

/* The rule's rows on slot s against its base, each with the model's
 * predicted slowdown beside it, and whether the times follow it. */
int sb_lesson_follow_clause(const sb_analysis *a, const sb_cross_experiment *e,
                         const sb_lesson_rule *rule, int s, char *buf, size_t n)
{
    const sb_result *like = NULL;
    int quoted = 0, predicted = 0, off = -1;
    sb_track_kind off_kind = TRACK_AS;
    buf[0] = '\0';
    for (int i = 0; i < 2 && rule->rows[i]; i++) {
        const sb_result *r = slot_row(a, e, s, rule->rows[i], like);
        if (!r || r->slowdown <= 0)
            continue;
        like = like ? like : r;
        char f[32], m[16];
        sb_lesson_factor(r->slowdown, f, sizeof f);
        if (quoted)
            sb_lesson_add(buf, n, ", %s %s", r->variant, f);
        else
            sb_lesson_add(buf, n, "%s costs %s %s", r->variant, f, rule->base);
        double p = sb_lesson_figure_of(r, "predicted_slowdown");
        if (p > 0) {
            sb_lesson_model_factor(p, m, sizeof m);
            sb_lesson_add(buf, n, " (the model's %s%s%s)", m, predicted ? "" : ": ",
                predicted ? "" : rule->why);
            sb_track_kind kind = sb_lesson_against_model(r->slowdown, p);
            if (kind != TRACK_AS && off < 0) {
                off = i;
                off_kind = kind;
            }
            predicted++;
        }
        quoted++;
    }
    if (!quoted)
        return 0;
    if (!predicted)
        sb_lesson_add(buf, n, ": no warp (vector lanes), so the model predicts nothing");
    else if (off < 0)
        sb_lesson_add(buf, n, ": the time follows the model");
    else
        sb_lesson_add(buf, n, ": %s grows %s than the model says", rule->rows[off],
            off_kind == TRACK_LESS ? "less" : "more");
    return 1;
}
