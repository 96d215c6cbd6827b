#include "report/lessons.h"
#include "report/lessons_pattern.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"
#include "model.h"
#include "report/describe.h"
#include "report/lessons_memory.h"
#include "report/lessons_noise.h"

/* ---------------------------------------------------------------- rules */

typedef enum rule_kind {
    RULE_PAIR, /* one variant against another: what the change does to the time */
    RULE_TRACK,  /* every variant against the model's cost: does the time follow it */
    RULE_COARSEN, /* the coarseN variants: which factor pays, and where it stops */
    RULE_THREADS, /* bandwidth against the threads each configuration keeps busy */
    RULE_PRIVATE, /* a histogram's private copies against its global atomics, bins ascending */
    /* The memory hierarchy's (lessons_memory.h), one device at a time: */
    RULE_BURST,       /* the chunk that reaches 90% of the copy in place */
    RULE_CHANNELS,    /* power-of-two distances against random order */
    RULE_LATENCY,     /* the latency plateaus */
    RULE_WORKING_SET, /* the cache's plateau and DRAM's */
    RULE_LITTLE,      /* the knee Little's law predicts, and the knee measured */
    /* The launch and compute blocks': */
    RULE_LAUNCH,  /* the tried variant's device and host-observed time per launch */
    RULE_HOST,    /* what a host-timed benchmark of the tried variant loses to the launch
                     path, and whether the launch path makes the devices differ */
    RULE_PEAK,    /* the FMA peak against the theoretical FP32 peak, and fewer chains */
    /* The divergence blocks': */
    RULE_SPLIT,   /* lane % k against warp_index % k: the condition's granularity */
    RULE_FOLLOW   /* named variants' slowdowns against the model's predicted ones */
} rule_kind;

/* The model's cost of an access, relative to the ideal one. */
typedef enum cost_kind {
    COST_WAYS,   /* shared memory: the conflict ways */
    COST_TRAFFIC /* global memory: bytes fetched per byte used, 1 / efficiency */
} cost_kind;

typedef struct lesson_rule {
    const char *experiment;
    rule_kind kind;
    const char *tried, *against; /* pair: the variant tried, the one it is held against */
    const char *what;            /* pair: what the tried variant changes */
    cost_kind cost;              /* track: the model's figure the times are held against */
    const char *dist;            /* private: the inputs' distribution, "skewed" or "uniform" */
    const char *rows[2];         /* follow: the variants whose slowdowns it quotes */
    const char *base;            /* follow: what they are slowdowns against */
    const char *why;             /* follow: what the model's figure counts */
} lesson_rule;

static const lesson_rule rules[] = {
    {.experiment = "transpose", .kind = RULE_PAIR, .tried = "padded", .against = "tiled",
     .what = "padding the tile to [32][33]"},
    {.experiment = "transpose", .kind = RULE_PAIR, .tried = "swizzled", .against = "tiled",
     .what = "an XOR swizzle of the tile"},
    {.experiment = "transpose", .kind = RULE_PAIR, .tried = "naive_write",
     .against = "naive_read", .what = "coalescing the reads rather than the writes"},
    {.experiment = "transpose", .kind = RULE_PAIR, .tried = "diagonal", .against = "padded",
     .what = "taking the tiles in diagonal order (the fix for partition camping)"},
    {.experiment = "shared_tile", .kind = RULE_PAIR, .tried = "32x33-column-load",
     .against = "32x32-column-load", .what = "[32][33] padding"},
    {.experiment = "shared_tile", .kind = RULE_PAIR, .tried = "32x32-xor-column-load",
     .against = "32x32-column-load", .what = "an XOR swizzle"},
    {.experiment = "shared_stride", .kind = RULE_TRACK, .cost = COST_WAYS},
    {.experiment = "global_stride", .kind = RULE_TRACK, .cost = COST_TRAFFIC},
    {.experiment = "global_walk", .kind = RULE_PAIR, .tried = "row", .against = "column",
     .what = "walking rows instead of columns"},
    {.experiment = "matmul", .kind = RULE_PAIR, .tried = "tiled32", .against = "simple",
     .what = "tiling through shared memory"},
    {.experiment = "matmul", .kind = RULE_COARSEN},
    {.experiment = "matmul", .kind = RULE_PAIR, .tried = "corner_turning",
     .against = "colmajor_naive", .what = "corner turning the column-major operand"},
    {.experiment = "matmul", .kind = RULE_PAIR, .tried = "corner_turn_pad",
     .against = "corner_turning", .what = "padding the corner-turned tile"},
    {.experiment = "vecadd", .kind = RULE_COARSEN},
    {.experiment = "occupancy", .kind = RULE_THREADS},
    {.experiment = "histogram", .kind = RULE_PRIVATE, .dist = "skewed"},
    {.experiment = "histogram", .kind = RULE_PRIVATE, .dist = "uniform"},
    {.experiment = "histogram", .kind = RULE_PAIR, .tried = "shared_coarse-b4096-uniform",
     .against = "shared-b4096-uniform", .what = "coarsening the private copy (32 inputs a thread)"},
    {.experiment = "sum", .kind = RULE_PAIR, .tried = "block", .against = "global",
     .what = "summing per block before one atomic"},
    {.experiment = "sum", .kind = RULE_PAIR, .tried = "block_coarse", .against = "block",
     .what = "coarsening the per-block sums (32 inputs a thread)"},
    {.experiment = "occupancy", .kind = RULE_LITTLE},
    {.experiment = "dram_burst", .kind = RULE_BURST},
    {.experiment = "dram_channels", .kind = RULE_CHANNELS},
    {.experiment = "dram_working_set", .kind = RULE_WORKING_SET},
    {.experiment = "latency", .kind = RULE_LATENCY},
    {.experiment = "launch_small", .kind = RULE_LAUNCH, .tried = "empty"},
    {.experiment = "launch_small", .kind = RULE_HOST, .tried = "copy"},
    {.experiment = "launch_large", .kind = RULE_HOST, .tried = "copy"},
    {.experiment = "compute", .kind = RULE_PEAK},
    {.experiment = "divergence_split", .kind = RULE_SPLIT},
    {.experiment = "divergence_branch", .kind = RULE_FOLLOW, .rows = {"random", "sorted"},
     .base = "the uniform input", .why = "the distinct paths per warp"},
    {.experiment = "divergence_branch", .kind = RULE_PAIR, .tried = "sorted",
     .against = "random", .what = "sorting the input"},
    {.experiment = "divergence_predication", .kind = RULE_FOLLOW,
     .rows = {"branch-random", "predicated-random"}, .base = "its uniform input",
     .why = "the paths per warp, one where the sides only choose constants"},
    {.experiment = "divergence_predication", .kind = RULE_PAIR, .tried = "predicated-random",
     .against = "branch-random", .what = "letting the compiler predicate the branch"},
    {.experiment = "divergence_loop", .kind = RULE_FOLLOW, .rows = {"random", "sorted"},
     .base = "the uniform loop", .why = "each warp's longest trip count over the mean"},
    {.experiment = "divergence_loop", .kind = RULE_PAIR, .tried = "sorted", .against = "random",
     .what = "sorting the trip counts"},
};

/* The peak rule's rows: the eight-chain FMA kernel, and the one-chain one
   it is held against. */
#define PEAK_VARIANT "fma_chains8"
#define ONE_CHAIN_VARIANT "fma_chains1"

/* A track rule's verdict on one device: the headline row's measured
 * slowdown against the model's cost, within a quarter either way. */
#define TRACK_TOLERANCE 1.25

/* A threads rule's "near the best": within 5% of the best bandwidth. */
#define NEAR_BEST 0.95

/* The coarsening factors a coarsen rule walks, at most. */
#define COARSE_MAX 16

/* The bin counts a private rule walks, at most. */
#define BINS_MAX 16

/* ---------------------------------------------------------------- text */

/* Append to the sentence; what does not fit is cut. */
static void add(char *buf, size_t n, const char *fmt, ...)
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
static void factor(double f, char *buf, size_t n)
{
    snprintf(buf, n, f >= 10 ? "%.1fx" : "%.2fx", f);
}

/* A model's figure as a factor, to three digits: "32x", "1.94x". */
static void model_factor(double f, char *buf, size_t n)
{
    snprintf(buf, n, "%.3gx", f);
}

/* ---------------------------------------------------------------- model */

/* The result's family figure called name (result.h); 0 where it has none. */
static double figure_of(const sb_result *r, const char *name)
{
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(r->figure[i].name, name) == 0)
            return r->figure[i].value;
    return 0.0;
}

/* The model's cost of result r's access m; 0 where it has none. */
static double cost_of(const sb_result *r, int m, cost_kind kind)
{
    if (m >= r->npatterns || m >= SB_MAX_PATTERNS || r->pattern_extra[m])
        return 0.0;
    const sb_prediction *p = &r->prediction[m];
    if (kind == COST_WAYS)
        return r->pattern[m].space == SB_SPACE_SHARED && p->ways > 0 ? p->ways : 0.0;
    return r->pattern[m].space == SB_SPACE_GLOBAL && p->efficiency > 0 ? 1.0 / p->efficiency
                                                                        : 0.0;
}

/* What the model says the tried variant saves against the other, on the
 * first access where it predicts less ("removes the model's 32-way
 * conflict", "cuts the model's sectors per request from 32 to 4"); "" where
 * it predicts no saving. */
static void model_saving(const sb_result *tried, const sb_result *against, char *buf, size_t n)
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
    double tried_slowdown = figure_of(tried, "predicted_slowdown");
    double against_slowdown = figure_of(against, "predicted_slowdown");
    if (tried_slowdown > 0 && against_slowdown > tried_slowdown * 1.01) {
        char from[16], to[16];
        model_factor(against_slowdown, from, sizeof from);
        model_factor(tried_slowdown, to, sizeof to);
        snprintf(buf, n, " cuts the model's predicted slowdown from %s to %s", from, to);
    }
}

/* ---------------------------------------------------------------- rows */

/* The row of experiment e whose variant is `variant`, at like's size when
 * like is given; NULL when the run has none. */
static const sb_cross_row *find_row(const sb_analysis *a, const sb_cross_experiment *e,
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
static int slots(const sb_analysis *a)
{
    return a->cross.ndevices > 0 ? a->cross.ndevices : 1;
}

/* " on cuda" where the run has more than one device, else "". */
static const char *on(const sb_analysis *a, int s, char *buf, size_t n)
{
    if (a->cross.ndevices > 1)
        snprintf(buf, n, " on %s", a->cross.label[s]);
    else
        buf[0] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- pairs */

/* One device's outcome of a pair. */
typedef struct outcome {
    int slot;
    sb_verdict v; /* the tried variant (other) against the other (ref) */
} outcome;

/* What happened on one device: "padded is 16.3x faster than tiled", "padded
 * and tiled run the same, within 1.0%", "padded is 1.20x slower than
 * tiled"; or, for a later device of the same outcome, only the figure. */
static void pair_outcome(const lesson_rule *rule, const outcome *o, int figure_only, char *buf,
                         size_t n)
{
    char f[32];
    const sb_verdict *v = &o->v;
    if (v->kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(v, "", "", why, sizeof why);
        if (figure_only)
            add(buf, n, "%s", why);
        else
            add(buf, n, "%s against %s is %s", rule->tried, rule->against, why);
        return;
    }
    if (v->kind == SB_VERDICT_SAME) {
        if (figure_only)
            add(buf, n, "%.1f%%", 100.0 * sb_verdict_within(v));
        else
            add(buf, n, "%s and %s run the same, within %.1f%%", rule->tried, rule->against,
                100.0 * sb_verdict_within(v));
        return;
    }
    factor(v->by + 1.0, f, sizeof f);
    if (figure_only)
        add(buf, n, "%s", f);
    else
        add(buf, n, "%s is %s %s than %s", rule->tried, f,
            v->kind == SB_VERDICT_FASTER ? "faster" : "slower", rule->against);
}

/* The lead of a pair's sentence for an outcome every device shares. */
static void pair_lead(const lesson_rule *rule, sb_verdict_kind kind, const char *saving,
                      char *buf, size_t n)
{
    add(buf, n, "%s%s", rule->what, saving);
    if (kind == SB_VERDICT_NOISY)
        add(buf, n, saving[0] ? "; what it does to the time, this run cannot tell: "
                              : ": this run cannot tell: ");
    else if (kind == SB_VERDICT_SAME)
        add(buf, n, saving[0] ? ", but not the time here: " : " changes nothing here: ");
    else if (kind == SB_VERDICT_SLOWER)
        add(buf, n, saving[0] ? ", yet costs time here: " : " costs time here: ");
    else
        add(buf, n, saving[0] ? ": " : " pays: ");
}

/* The pair's sentence from its outcomes: one lead and each device's
 * figure when they agree, else each device's own outcome. */
static void pair_sentence(const sb_analysis *a, const lesson_rule *rule, const outcome *o,
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
                add(buf, n, ", ");
            pair_outcome(rule, &o[i], i > 0, buf, n);
            add(buf, n, "%s", on(a, o[i].slot, where, sizeof where));
        }
    } else {
        add(buf, n, "%s%s: ", rule->what, saving);
        for (int i = 0; i < no; i++) {
            const char *at = on(a, o[i].slot, where, sizeof where);
            add(buf, n, "%s%s, ", i ? "; " : "", at[0] == ' ' ? at + 1 : at);
            pair_outcome(rule, &o[i], 0, buf, n);
        }
    }
    add(buf, n, ".");
}

/* A pair rule's lesson into buf; 0 when the run lacks either variant. */
static int pair_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *tried = find_row(a, e, rule->tried, NULL);
    const sb_cross_row *against =
        tried ? find_row(a, e, rule->against, &a->run->results[tried->first]) : NULL;
    if (!against)
        return 0;
    outcome o[SB_RUN_MAX_DEVICES];
    int no = 0;
    char saving[96] = "";
    for (int s = 0; s < slots(a); s++) {
        if (tried->result[s] < 0 || against->result[s] < 0)
            continue;
        const sb_result *t = &a->run->results[tried->result[s]];
        const sb_result *r = &a->run->results[against->result[s]];
        sb_verdict v = sb_lesson_judge(a, r, t, 0.0);
        if (v.kind == SB_VERDICT_NONE)
            continue;
        if (no == 0)
            model_saving(t, r, saving, sizeof saving);
        o[no++] = (outcome){s, v};
    }
    if (no == 0)
        return 0;
    buf[0] = '\0';
    pair_sentence(a, rule, o, no, saving, buf, n);
    return 1;
}

/* ---------------------------------------------------------------- tracks */

typedef enum track_kind { TRACK_AS, TRACK_LESS, TRACK_MORE } track_kind;

/* One device's headline of a track rule: the row the model gives the
 * highest cost, its measured slowdown against its group's baseline. */
typedef struct track {
    int slot;
    const sb_result *r;
    double cost, slowdown;
    track_kind kind;
} track;

/* The headline of slot s among experiment e's rows; 0 when no row has
 * both a slowdown and a model cost above the ideal. */
static int track_of(const sb_analysis *a, const sb_cross_experiment *e, const lesson_rule *rule,
                    int s, track *t)
{
    t->r = NULL;
    t->cost = 1.0;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        double c = r ? cost_of(r, 0, rule->cost) : 0.0;
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

static void track_lead(const lesson_rule *rule, track_kind kind, char *buf, size_t n)
{
    static const char *const grows[] = {[TRACK_AS] = "the time follows",
                                        [TRACK_LESS] = "the time grows less than",
                                        [TRACK_MORE] = "the time grows more than"};
    add(buf, n, "%s %s", grows[kind],
        rule->cost == COST_WAYS ? "the model's conflict ways"
                                : "the traffic the model's sector efficiency implies");
}

/* "w4-s32-load (32-way in the model) takes 31.1x as long as its
 * baseline". */
static void track_row(const lesson_rule *rule, const track *t, char *buf, size_t n)
{
    char f[32];
    factor(t->slowdown, f, sizeof f);
    if (rule->cost == COST_WAYS)
        add(buf, n, "%s (%.0f-way in the model) takes %s as long as its baseline",
            t->r->variant, t->cost, f);
    else
        add(buf, n, "%s (%.1f%% of each fetched byte used in the model) takes %s as long as "
                    "its baseline",
            t->r->variant, 100.0 / t->cost, f);
}

/* A track rule's lesson into buf; 0 when no device has a headline. */
static int track_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                        const lesson_rule *rule, char *buf, size_t n)
{
    track t[SB_RUN_MAX_DEVICES];
    int nt = 0, agree = 1;
    for (int s = 0; s < slots(a); s++)
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
            factor(t[i].slowdown, f, sizeof f);
            add(buf, n, ", %s%s", f, on(a, t[i].slot, where, sizeof where));
            continue;
        }
        if (i)
            add(buf, n, "; ");
        track_lead(rule, t[i].kind, buf, n);
        add(buf, n, ": ");
        track_row(rule, &t[i], buf, n);
        add(buf, n, "%s", on(a, t[i].slot, where, sizeof where));
    }
    add(buf, n, ".");
    return 1;
}

/* ---------------------------------------------------------------- devices */

/* Device s's clause of a rule, from the clauses below. */
static int clause_of(const lesson_rule *rule, const sb_analysis *a, const sb_cross_experiment *e,
                     int s, char *buf, size_t n);

/* Each device's clause, as sentences of their own, "On cuda, ..." where
 * the run has more than one device, or one sentence for all of them when
 * every device's clause reads the same (the same words and figures as
 * printed); 0 when no device has one. */
static int per_device(const sb_analysis *a, const sb_cross_experiment *e,
                      const lesson_rule *rule, char *buf, size_t n)
{
    static _Thread_local char one[SB_RUN_MAX_DEVICES][SB_LESSON_BYTES];
    int made = 0, has[SB_RUN_MAX_DEVICES] = {0}, same = 1, first = -1;
    buf[0] = '\0';
    for (int s = 0; s < slots(a) && s < SB_RUN_MAX_DEVICES; s++) {
        if (!(has[s] = clause_of(rule, a, e, s, one[s], sizeof one[s])))
            continue;
        if (first < 0)
            first = s;
        same &= strcmp(one[s], one[first]) == 0;
        made++;
    }
    if (made > 1 && made == a->cross.ndevices && same) {
        add(buf, n, "%s, %s.", "on every device of the run", one[first]);
        return made;
    }
    int said = 0;
    for (int s = 0; s < slots(a) && s < SB_RUN_MAX_DEVICES; s++) {
        if (!has[s])
            continue;
        if (a->cross.ndevices > 1)
            add(buf, n, "%s %s, %s.", said ? " On" : "on", a->cross.label[s], one[s]);
        else
            add(buf, n, "%s%s.", said ? " " : "", one[s]);
        said++;
    }
    return made;
}

/* ---------------------------------------------------------------- coarsening */

typedef struct coarse_step {
    int factor;
    const sb_result *r;
} coarse_step;

/* Slot s's coarseN rows, at the first one's size, in ascending N; their
 * count. */
static int coarse_rows(const sb_analysis *a, const sb_cross_experiment *e, int s, coarse_step *c)
{
    int nc = 0;
    const sb_result *like = NULL;
    for (size_t j = 0; j < e->nrows && nc < COARSE_MAX; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strncmp(r->variant, "coarse", 6) != 0 || r->ms.median <= 0)
            continue;
        char *end;
        long f = strtol(r->variant + 6, &end, 10);
        if (end == r->variant + 6 || *end || f < 1 || f > 1 << 20 ||
            (like && (r->rows != like->rows || r->cols != like->cols)))
            continue;
        like = like ? like : r;
        int k = nc++;
        for (; k > 0 && c[k - 1].factor > f; k--)
            c[k] = c[k - 1];
        c[k] = (coarse_step){(int)f, r};
    }
    return nc;
}

/* Where coarsening stops paying on slot s: walking the factors upwards,
 * each is held against the best so far by the verdict, and the first that
 * is not faster ends the walk ("coarsening by 4 pays 1.26x over coarse1;
 * by 8 no more: the same as by 4, within 2.0%"). */
static int coarse_clause(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                         size_t n)
{
    coarse_step c[COARSE_MAX];
    int nc = coarse_rows(a, e, s, c), best = 0, k = 1;
    if (nc < 2)
        return 0;
    sb_verdict stop = {.kind = SB_VERDICT_NONE};
    for (; k < nc; k++) {
        sb_verdict v = sb_lesson_judge(a, c[best].r, c[k].r, 0.0);
        if (v.kind != SB_VERDICT_FASTER) {
            stop = v;
            break;
        }
        best = k;
    }
    if (best == 0 && stop.kind == SB_VERDICT_NONE)
        return 0;
    char f[32];
    buf[0] = '\0';
    if (best == 0)
        add(buf, n, "coarsening does not pay here: %s is fastest", c[0].r->variant);
    else {
        factor(c[0].r->ms.median / c[best].r->ms.median, f, sizeof f);
        add(buf, n, "coarsening by %d pays %s over %s", c[best].factor, f, c[0].r->variant);
    }
    if (stop.kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(&stop, "", "", why, sizeof why);
        add(buf, n, "; %s against %s is %s: no further conclusion", c[k].r->variant,
            c[best].r->variant, why);
    } else if (stop.kind == SB_VERDICT_SAME && best == 0) {
        add(buf, n, "; %s runs the same, within %.1f%%", c[k].r->variant,
            100.0 * sb_verdict_within(&stop));
    } else if (stop.kind == SB_VERDICT_SAME) {
        add(buf, n, "; by %d no more: the same as by %d, within %.1f%%", c[k].factor,
            c[best].factor, 100.0 * sb_verdict_within(&stop));
    } else if (stop.kind == SB_VERDICT_SLOWER) {
        factor(stop.by + 1.0, f, sizeof f);
        if (best == 0)
            add(buf, n, "; %s is %s slower", c[k].r->variant, f);
        else
            add(buf, n, "; by %d it is %s slower than by %d", c[k].factor, f, c[best].factor);
    } else if (best > 1) {
        factor(c[best - 1].r->ms.median / c[best].r->ms.median, f, sizeof f);
        add(buf, n, ", %s more than by %d", f, c[best - 1].factor);
    }
    return 1;
}

/* ---------------------------------------------------------------- threads */

/* The threads a configuration keeps busy: those in flight, or, where the
 * API does not say (in_flight 0), those it launches. */
static double threads_of(const sb_result *r, int in_flight)
{
    if (in_flight)
        return (double)r->threads_in_flight;
    return (double)r->grid[0] * r->grid[1] * r->grid[2] * r->block[0] * r->block[1] *
           r->block[2];
}

/* Slot s's configurations (every row but the memcpy reference): the best
 * bandwidth, the most starved, and whether all say their threads in
 * flight; 0 with fewer than two. */
static int threads_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                        const sb_result **best, const sb_result **worst, int *in_flight)
{
    int nr = 0;
    *best = *worst = NULL;
    *in_flight = 1;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strcmp(r->variant, "memcpy") == 0 || r->value <= 0)
            continue;
        nr++;
        *in_flight &= r->threads_in_flight > 0;
        if (!*best || r->value > (*best)->value)
            *best = r;
        if (!*worst || r->value < (*worst)->value)
            *worst = r;
    }
    return nr >= 2;
}

/* Bandwidth against threads on slot s: the fewest threads within 5% of
 * the best, and what the most starved launch loses; or that the
 * configurations do not differ beyond 5% and the noise. */
static int threads_clause(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                          size_t n)
{
    const sb_result *best, *worst, *fewest = NULL;
    int in_flight;
    if (!threads_rows(a, e, s, &best, &worst, &in_flight))
        return 0;
    const char *unit = sb_quantity_unit(best->quantity);
    sb_verdict v = sb_lesson_judge(a, best, worst, 0.0);
    buf[0] = '\0';
    if (v.kind == SB_VERDICT_NOISY) {
        char why[64];
        sb_verdict_text(&v, "", "", why, sizeof why);
        add(buf, n, "whether the threads matter, this run cannot tell: %s against %s is %s",
            worst->variant, best->variant, why);
        return 1;
    }
    if (worst->value >= NEAR_BEST * best->value || v.kind != SB_VERDICT_SLOWER) {
        add(buf, n, "the threads do not matter here: every configuration is within %.0f%% of "
                    "the best, %s's %.0f %s",
            100.0 * (1.0 - worst->value / best->value) + 0.5, best->variant, best->value, unit);
        return 1;
    }
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        if (!r || strcmp(r->variant, "memcpy") == 0 || r->value < NEAR_BEST * best->value)
            continue;
        if (!fewest || threads_of(r, in_flight) < threads_of(fewest, in_flight))
            fewest = r;
    }
    char f[32];
    factor(best->value / worst->value, f, sizeof f);
    add(buf, n, "about %.0f threads %s (%s) reach %.0f%% of the best bandwidth, %s's %.0f %s; "
                "the most starved, %s with %.0f, loses %s",
        threads_of(fewest, in_flight), in_flight ? "in flight" : "launched", fewest->variant,
        floor(100.0 * fewest->value / best->value), best->variant, best->value, unit,
        worst->variant, threads_of(worst, in_flight), f);
    return 1;
}

/* ---------------------------------------------------------------- privatisation */

/* One bin count of a histogram: its global atomics and the fastest of its
 * private copies. */
typedef struct bins_step {
    long bins;
    const sb_result *global, *best;
} bins_step;

/* Slot s's histogram rows of one distribution, at the first one's size,
 * by bin count ascending; their count. */
static int bins_rows(const sb_analysis *a, const sb_cross_experiment *e, int s, const char *dist,
                     bins_step *st)
{
    int ns = 0;
    const sb_result *like = NULL;
    for (size_t j = 0; j < e->nrows; j++) {
        long i = a->cross.rows[e->rows[j]].result[s];
        const sb_result *r = i >= 0 ? &a->run->results[i] : NULL;
        char method[48], d[24];
        long bins;
        if (!r || r->ms.median <= 0 ||
            sb_bins_variant(r->variant, method, sizeof method, &bins, d, sizeof d) ||
            strcmp(d, dist) != 0 || (like && (r->rows != like->rows || r->cols != like->cols)))
            continue;
        like = like ? like : r;
        int k = 0;
        while (k < ns && st[k].bins < bins)
            k++;
        if (k == ns || st[k].bins != bins) {
            if (ns == BINS_MAX)
                continue;
            memmove(&st[k + 1], &st[k], sizeof st[0] * (size_t)(ns - k));
            st[k] = (bins_step){bins, NULL, NULL};
            ns++;
        }
        if (strcmp(method, "global") == 0)
            st[k].global = r;
        else if (!st[k].best || r->ms.median < st[k].best->ms.median)
            st[k].best = r;
    }
    return ns;
}

/* Bin updates per ns: one per 4-byte input. */
static double updates_per_ns(const sb_result *r)
{
    return r->bytes / 4.0 / (r->ms.median * 1e6);
}

/* "at 1 bin", "at 4096 bins". */
static void at_bins(long bins, char *buf, size_t n)
{
    snprintf(buf, n, "at %ld bin%s", bins, bins == 1 ? "" : "s");
}

/* Where privatising stops paying: "X runs the same as global atomics,
 * within 2.0%" or "X is 1.30x slower than global atomics". */
static void no_pay(const sb_result *best, const sb_verdict *v, char *buf, size_t n)
{
    char f[64];
    if (v->kind == SB_VERDICT_NOISY) {
        sb_verdict_text(v, "", "", f, sizeof f);
        add(buf, n, "%s against global atomics is %s", best->variant, f);
    } else if (v->kind == SB_VERDICT_SAME) {
        add(buf, n, "%s runs the same as global atomics, within %.1f%%", best->variant,
            100.0 * sb_verdict_within(v));
    } else {
        factor(v->by + 1.0, f, sizeof f);
        add(buf, n, "%s is %s slower than global atomics", best->variant, f);
    }
}

/* Privatisation on slot s for one distribution: walking the bin counts
 * upwards, the fastest private copy held against the global atomics by the
 * verdict; the first that is not faster is where it stops paying. */
static int private_clause(const sb_analysis *a, const sb_cross_experiment *e, int s,
                          const char *dist, char *buf, size_t n)
{
    bins_step st[BINS_MAX];
    int ns = bins_rows(a, e, s, dist, st), m = 0;
    sb_verdict v[BINS_MAX];
    for (int k = 0; k < ns; k++)
        if (st[k].global && st[k].best &&
            (v[m] = sb_lesson_judge(a, st[k].global, st[k].best, 0.0)).kind != SB_VERDICT_NONE)
            st[m++] = st[k];
    if (m == 0)
        return 0;
    int stop = 0;
    while (stop < m && v[stop].kind == SB_VERDICT_FASTER)
        stop++;
    char f[32], at[32];
    buf[0] = '\0';
    add(buf, n, "%s, ", strcmp(dist, "skewed") == 0 ? "with every value in one bin"
                                                    : "with uniform values");
    at_bins(st[0].bins, at, sizeof at);
    if (stop == 0) {
        add(buf, n, "privatising does not pay even %s: ", at);
        no_pay(st[0].best, &v[0], buf, n);
        return 1;
    }
    factor(v[0].by + 1.0, f, sizeof f);
    add(buf, n, "privatising pays %s: %s is %s faster than global atomics (%.3g against %.3g "
                "bin updates per ns)",
        at, st[0].best->variant, f, updates_per_ns(st[0].best), updates_per_ns(st[0].global));
    if (stop < m) {
        at_bins(st[stop].bins, at, sizeof at);
        add(buf, n, "; it stops paying %s: ", at);
        no_pay(st[stop].best, &v[stop], buf, n);
    } else if (m > 1) {
        factor(v[m - 1].by + 1.0, f, sizeof f);
        at_bins(st[m - 1].bins, at, sizeof at);
        add(buf, n, "; it still pays %s, the most measured: %s is %s faster", at,
            st[m - 1].best->variant, f);
    }
    return 1;
}

/* ---------------------------------------------------------------- launch */

/* Slot s's result of row, where the host timed it too; NULL otherwise. */
static const sb_result *host_timed(const sb_analysis *a, const sb_cross_row *row, int s)
{
    const sb_result *r = row->result[s] >= 0 ? &a->run->results[row->result[s]] : NULL;
    return r && r->host_observed.n > 0 && r->ms.median > 0 ? r : NULL;
}

/* The empty kernel: each device's time per launch on its events and on
 * the host's clock, and what the host sees beyond the kernel. */
static int launch_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                         const lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *row = find_row(a, e, rule->tried, NULL);
    char where[40];
    int said = 0;
    buf[0] = '\0';
    for (int s = 0; row && s < slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (!r)
            continue;
        add(buf, n, "%sdevice %.1f us, host-observed %.1f us%s%s", said ? "; " :
            "the launch path of an empty kernel: ", 1e3 * r->ms.median,
            1e3 * r->host_observed.median, said ? "" : " a launch", on(a, s, where, sizeof where));
        if (r->launches_per_s > 0)
            add(buf, n, " (%.0f a second%s)", r->launches_per_s,
                said ? "" : " queued back to back");
        said++;
    }
    if (!said)
        return 0;
    add(buf, n, ": a host-timed benchmark sees");
    for (int s = 0, k = 0; s < slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (r)
            add(buf, n, "%s %.1f us%s", k++ ? "," : "",
                1e3 * (r->host_observed.median - r->ms.median), on(a, s, where, sizeof where));
    }
    add(buf, n, " more than the kernel per launch.");
    return 1;
}

/* Each device's share of a host-timed benchmark's bandwidth lost to the
 * launch path: "2.0% on cuda (2680 against 2736 GB/s)". */
static int host_losses(const sb_analysis *a, const sb_cross_row *row, char *buf, size_t n)
{
    char where[40];
    int said = 0;
    for (int s = 0; s < slots(a); s++) {
        const sb_result *r = host_timed(a, row, s);
        if (!r)
            continue;
        add(buf, n, "%s%.1f%%%s", said++ ? ", " : "",
            100.0 * sb_host_deficit(r->host_observed.median, r->ms.median),
            on(a, s, where, sizeof where));
        if (r->bytes > 0)
            add(buf, n, " (%.0f against %.0f GB/s)", r->bytes / (r->host_observed.median * 1e6),
                r->bytes / (r->ms.median * 1e6));
    }
    return said;
}

/* Whether the launch path makes another device differ from the reference:
 * the verdict on the host-observed times beside the one on the device's. */
static void host_against_reference(const sb_analysis *a, const sb_cross_row *row, char *buf,
                                   size_t n)
{
    const int ref = a->cross.reference;
    for (int s = 0; s < a->cross.ndevices; s++) {
        const sb_verdict *host = &row->host_verdict[s], *dev = &row->verdict[s];
        if (s == ref || host->kind == SB_VERDICT_NONE || dev->kind == SB_VERDICT_NONE)
            continue;
        char h[96], d[96];
        sb_verdict_text(host, a->cross.label[ref], a->cross.label[s], h, sizeof h);
        sb_verdict_text(dev, a->cross.label[ref], a->cross.label[s], d, sizeof d);
        add(buf, n, " %s against %s, host-observed: %s; on the device: %s", a->cross.label[s],
            a->cross.label[ref], h, d);
        int host_same = host->kind == SB_VERDICT_SAME, dev_same = dev->kind == SB_VERDICT_SAME;
        if (dev->kind == SB_VERDICT_NOISY) {
            add(buf, n, ": the device's times are noisy, so no conclusion.");
            continue;
        }
        add(buf, n, host_same && dev_same ? ": neither the launch path nor the kernel makes "
                                            "them differ here."
                    : host_same ? ": what the kernels' times differ by, the launch path hides "
                                  "from the host."
                    : dev_same  ? ": the launch path, not the kernel, makes the difference."
                                : ": the kernels' own times differ, not the launch path alone.");
    }
}

/* A kernel the host timed too: what a host-timed benchmark of it loses to
 * the launch path on each device, and, across devices, whether the launch
 * path is what makes them differ. */
static int host_lesson(const sb_analysis *a, const sb_cross_experiment *e,
                       const lesson_rule *rule, char *buf, size_t n)
{
    const sb_cross_row *row = find_row(a, e, rule->tried, NULL);
    if (!row)
        return 0;
    char size[64];
    sb_result_size_text(&a->run->results[row->first], size, sizeof size);
    buf[0] = '\0';
    add(buf, n, "at %s, a host-timed benchmark of the %s reports less bandwidth than the kernel "
        "delivers by ", size, rule->tried);
    if (!host_losses(a, row, buf, n))
        return 0;
    add(buf, n, ".");
    host_against_reference(a, row, buf, n);
    return 1;
}

/* ---------------------------------------------------------------- peak */

/* "61.2 TFLOP/s", or "13.3 GFLOP/s" below a thousand. */
static void gflops(double v, char *buf, size_t n)
{
    if (v >= 1000)
        snprintf(buf, n, "%.1f TFLOP/s", v / 1000);
    else
        snprintf(buf, n, "%.1f GFLOP/s", v);
}

/* Slot s's FMA peak against its theoretical peak, and what one chain a
 * thread reaches beside it. */
static int peak_clause(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                       size_t n)
{
    const sb_cross_row *best = find_row(a, e, PEAK_VARIANT, NULL);
    const sb_result *r = best && best->result[s] >= 0 ? &a->run->results[best->result[s]] : NULL;
    if (!r || !(r->value > 0))
        return 0;
    const sb_device_info *info = &a->run->devices[s].info;
    double peak = sb_device_fp32_peak_gflops(info);
    char v[32], p[32];
    gflops(r->value, v, sizeof v);
    buf[0] = '\0';
    if (peak > 0) {
        gflops(peak, p, sizeof p);
        add(buf, n, "FMA peak %s, %.0f%% of the theoretical %s", v, 100.0 * r->value / peak, p);
    } else {
        add(buf, n, "FMA peak %s, with no theoretical peak to hold it against (the FP32 lanes "
            "of %s are not known)", v, info->arch[0] ? info->arch : "its architecture");
    }
    const sb_cross_row *one = find_row(a, e, ONE_CHAIN_VARIANT, r);
    const sb_result *o = one && one->result[s] >= 0 ? &a->run->results[one->result[s]] : NULL;
    sb_verdict vd = o ? sb_lesson_judge(a, r, o, 0.0) : (sb_verdict){.kind = SB_VERDICT_NONE};
    char f[32];
    factor(vd.by + 1.0, f, sizeof f);
    if (vd.kind == SB_VERDICT_SAME)
        add(buf, n, "; one chain a thread runs the same, within %.1f%%: the threads in flight "
            "hide the FMA's latency without the chains", 100.0 * sb_verdict_within(&vd));
    else if (vd.kind == SB_VERDICT_SLOWER)
        add(buf, n, "; one chain a thread is %s slower: without independent chains the FMA's "
            "latency is not hidden", f);
    else if (vd.kind == SB_VERDICT_FASTER)
        add(buf, n, "; one chain a thread is %s faster", f);
    char why[64];
    if (vd.kind == SB_VERDICT_NOISY && sb_verdict_text(&vd, "", "", why, sizeof why) > 0)
        add(buf, n, "; one chain a thread against the peak is %s", why);
    return 1;
}

/* ---------------------------------------------------------------- divergence */

/* Slot s's row of experiment e whose variant is `variant`, at like's size
 * when like is given; NULL when there is none. */
static const sb_result *slot_row(const sb_analysis *a, const sb_cross_experiment *e, int s,
                                 const char *variant, const sb_result *like)
{
    const sb_cross_row *row = find_row(a, e, variant, like);
    return row && row->result[s] >= 0 ? &a->run->results[row->result[s]] : NULL;
}

/* How a measured slowdown stands to the model's: within a quarter either
 * way, less or more. */
static track_kind against_model(double slowdown, double predicted)
{
    double ratio = slowdown / predicted;
    return ratio > TRACK_TOLERANCE ? TRACK_MORE : ratio < 1.0 / TRACK_TOLERANCE ? TRACK_LESS
                                                                                : TRACK_AS;
}

/* ", every k within 25% of the model", or where the first k leaves it
 * ("; at k = 8 the time grows less than the model's 8x: 5.10x"). */
static void split_fit(const sb_analysis *a, const sb_cross_experiment *e, int s, int top,
                      const sb_result *like, char *buf, size_t n)
{
    for (int k = 2; k <= top; k *= 2) {
        char name[24], f[32], m[16];
        snprintf(name, sizeof name, "lane-k%d", k);
        const sb_result *r = slot_row(a, e, s, name, like);
        double predicted = r ? figure_of(r, "predicted_slowdown") : 0;
        if (!r || r->slowdown <= 0 || predicted <= 0)
            continue;
        track_kind kind = against_model(r->slowdown, predicted);
        if (kind == TRACK_AS)
            continue;
        factor(r->slowdown, f, sizeof f);
        model_factor(predicted, m, sizeof m);
        add(buf, n, "; at k = %d the time grows %s than the model's %s: %s", k,
            kind == TRACK_LESS ? "less" : "more", m, f);
        return;
    }
    add(buf, n, ", every k within %.0f%% of the model", 100.0 * (TRACK_TOLERANCE - 1.0));
}

/* The largest k that slot s measured both splits at (0: none above 1),
 * and those two rows. */
static int split_rows(const sb_analysis *a, const sb_cross_experiment *e, int s,
                      const sb_result **lane, const sb_result **warp)
{
    for (int k = 1 << 10; k >= 2; k /= 2) {
        char l[24], w[24];
        snprintf(l, sizeof l, "lane-k%d", k);
        snprintf(w, sizeof w, "warp-k%d", k);
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
static int split_clause(const sb_analysis *a, const sb_cross_experiment *e, int s, char *buf,
                        size_t n)
{
    const sb_result *lane, *warp;
    int k = split_rows(a, e, s, &lane, &warp);
    if (!k)
        return 0;
    const sb_result *base = slot_row(a, e, s, "lane-k1", lane);
    double pl = figure_of(lane, "predicted_slowdown"), pw = figure_of(warp, "predicted_slowdown");
    char f[32], m[16];
    buf[0] = '\0';
    factor(lane->slowdown, f, sizeof f);
    add(buf, n, "lane %% k: %d paths cost %s the uniform %s", k, f, pl > 0 ? "warp" : "case");
    if (pl > 0) {
        model_factor(pl, m, sizeof m);
        add(buf, n, ", the model's %s", m);
        split_fit(a, e, s, k, lane, buf, n);
    }
    factor(warp->slowdown, f, sizeof f);
    sb_verdict free_of = base ? sb_lesson_judge(a, base, warp, 0.0)
                              : (sb_verdict){.kind = SB_VERDICT_NONE};
    add(buf, n, "; warp_index %% k: %d paths cost %s%s", k,
        free_of.kind == SB_VERDICT_SAME ? "nothing, " : "", f);
    if (pw > 0) {
        model_factor(pw, m, sizeof m);
        add(buf, n, ", the model's %s", m);
    }
    sb_verdict v = sb_lesson_judge(a, warp, lane, 0.0);
    char why[64];
    if (v.kind == SB_VERDICT_NOISY && sb_verdict_text(&v, "", "", why, sizeof why) > 0)
        add(buf, n, ": the two splits against each other are %s", why);
    else if (v.kind == SB_VERDICT_SLOWER)
        add(buf, n, ": the condition's granularity matters, not the number of paths");
    else if (v.kind == SB_VERDICT_SAME)
        add(buf, n, ": the two splits run the same here, within %.1f%%",
            100.0 * sb_verdict_within(&v));
    else
        add(buf, n, ": lane %% k is the faster here");
    if (pl <= 0)
        add(buf, n, " (no warp: vector lanes, and the model predicts nothing)");
    return 1;
}

/* The rule's rows on slot s against its base, each with the model's
 * predicted slowdown beside it, and whether the times follow it. */
static int follow_clause(const sb_analysis *a, const sb_cross_experiment *e,
                         const lesson_rule *rule, int s, char *buf, size_t n)
{
    const sb_result *like = NULL;
    int quoted = 0, predicted = 0, off = -1;
    track_kind off_kind = TRACK_AS;
    buf[0] = '\0';
    for (int i = 0; i < 2 && rule->rows[i]; i++) {
        const sb_result *r = slot_row(a, e, s, rule->rows[i], like);
        if (!r || r->slowdown <= 0)
            continue;
        like = like ? like : r;
        char f[32], m[16];
        factor(r->slowdown, f, sizeof f);
        if (quoted)
            add(buf, n, ", %s %s", r->variant, f);
        else
            add(buf, n, "%s costs %s %s", r->variant, f, rule->base);
        double p = figure_of(r, "predicted_slowdown");
        if (p > 0) {
            model_factor(p, m, sizeof m);
            add(buf, n, " (the model's %s%s%s)", m, predicted ? "" : ": ",
                predicted ? "" : rule->why);
            track_kind kind = against_model(r->slowdown, p);
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
        add(buf, n, ": no warp (vector lanes), so the model predicts nothing");
    else if (off < 0)
        add(buf, n, ": the time follows the model");
    else
        add(buf, n, ": %s grows %s than the model says", rule->rows[off],
            off_kind == TRACK_LESS ? "less" : "more");
    return 1;
}

/* ---------------------------------------------------------------- lessons */

/* Device s's clause of a rule said device by device (per_device) into
   buf; 0 when the device has too little of the rule's data, and for the
   pair, track, launch and host rules, which put their devices together
   themselves. */
static int clause_of(const lesson_rule *rule, const sb_analysis *a, const sb_cross_experiment *e,
                     int s, char *buf, size_t n)
{
    switch (rule->kind) {
    case RULE_COARSEN: return coarse_clause(a, e, s, buf, n);
    case RULE_THREADS: return threads_clause(a, e, s, buf, n);
    case RULE_PRIVATE: return private_clause(a, e, s, rule->dist, buf, n);
    case RULE_BURST: return sb_lesson_burst(a, e, s, buf, n);
    case RULE_CHANNELS: return sb_lesson_channels(a, e, s, buf, n);
    case RULE_LATENCY: return sb_lesson_latency(a, e, s, buf, n);
    case RULE_WORKING_SET: return sb_lesson_working_set(a, e, s, buf, n);
    case RULE_LITTLE: return sb_lesson_littles_law(a, e, s, buf, n);
    case RULE_PEAK: return peak_clause(a, e, s, buf, n);
    case RULE_SPLIT: return split_clause(a, e, s, buf, n);
    case RULE_FOLLOW: return follow_clause(a, e, rule, s, buf, n);
    default: return 0;
    }
}

void sb_lessons_of(const sb_analysis *a, size_t e, sb_lessons *out)
{
    out->n = 0;
    if (e >= a->cross.nexperiments)
        return;
    const sb_cross_experiment *x = &a->cross.experiments[e];
    const char *name = a->run->results[x->first].experiment;
    /* A block of mostly noisy rows teaches nothing but that. */
    if (sb_lesson_noisy_block(a, x, out->text[0], SB_LESSON_BYTES)) {
        out->n = 1;
        return;
    }
    for (size_t k = 0; k < sizeof rules / sizeof rules[0] && out->n < SB_LESSONS_MAX; k++) {
        const lesson_rule *rule = &rules[k];
        if (strcmp(rule->experiment, name) != 0)
            continue;
        char *buf = out->text[out->n];
        int made = rule->kind == RULE_PAIR     ? pair_lesson(a, x, rule, buf, SB_LESSON_BYTES)
                   : rule->kind == RULE_TRACK  ? track_lesson(a, x, rule, buf, SB_LESSON_BYTES)
                   : rule->kind == RULE_LAUNCH ? launch_lesson(a, x, rule, buf, SB_LESSON_BYTES)
                   : rule->kind == RULE_HOST   ? host_lesson(a, x, rule, buf, SB_LESSON_BYTES)
                   : per_device(a, x, rule, buf, SB_LESSON_BYTES);
        if (made) {
            buf[0] = (char)(buf[0] >= 'a' && buf[0] <= 'z' ? buf[0] - 'a' + 'A' : buf[0]);
            out->n++;
        }
    }
    if (out->n < SB_LESSONS_MAX && sb_lesson_pattern(a, x, out->text[out->n], SB_LESSON_BYTES))
        out->n++;
    if (out->n < SB_LESSONS_MAX &&
        sb_lesson_noisy_rows_named(a, x, out->text[out->n], SB_LESSON_BYTES))
        out->n++;
}
