#include "analysis/summary.h"
#include "analysis/crossapi.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"

/* A device's clause ("96.9%", "31.0x faster") before its label. */
#define CLAUSE 64

/* What the items are made from: the run, its pairing and checks, each
 * experiment's catalogue entry and whether each result competes for its
 * headline (a kernel its family ranks: a run read back carries no roles,
 * so its variants are looked up in the catalogue). */
typedef struct ctx {
    const sb_run *run;
    const sb_crossapi *x;
    const sb_counter_check *checks;
    const sb_noise *noise;        /* the rows' spreads and drifts (noise.h); NULL: none */
    unsigned char *ranked;        /* per result */
    const sb_experiment **entry;  /* per x->experiments; NULL: not in this catalogue */
} ctx;

const char *sb_summary_topic_name(sb_summary_topic t)
{
    switch (t) {
    case SB_SUMMARY_ROOF:
        return "roof";
    case SB_SUMMARY_HEADLINE:
        return "headline";
    case SB_SUMMARY_OTHERS:
        return "others";
    case SB_SUMMARY_VERDICTS:
        return "verdicts";
    case SB_SUMMARY_NOISE:
        return "noise";
    case SB_SUMMARY_CHECKS:
        return "checks";
    }
    return "";
}

/* An item at the end of s, printf-style; nothing once s is full. */
static void __attribute__((format(printf, 4, 5)))
add(sb_summary *s, sb_summary_topic topic, const char *experiment, const char *fmt, ...)
{
    if (s->n >= SB_SUMMARY_MAX)
        return;
    sb_summary_item *it = &s->item[s->n++];
    it->topic = topic;
    snprintf(it->experiment, sizeof it->experiment, "%s", experiment ? experiment : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->text, sizeof it->text, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ the rows */

static const sb_experiment *catalogue_entry(const char *name)
{
    for (int i = 0; i < sb_catalogue_count(); i++)
        if (strcmp(sb_catalogue_get(i)->name, name) == 0)
            return sb_catalogue_get(i);
    return NULL;
}

/* Whether a row of this role is a kernel under study (the compute roof
 * is one: its peak is the compute family's headline). */
static int is_kernel(sb_role role)
{
    return role == SB_ROLE_KERNEL || role == SB_ROLE_COMPUTE_ROOF;
}

/* Each experiment's entry, and whether each result competes: its variant
 * in the catalogue a kernel the family ranks, or, for a variant the
 * catalogue does not know, its own role a kernel; 0, or -1 when out of
 * memory. */
static int find_roles(ctx *c)
{
    const sb_crossapi *x = c->x;
    sb_variant *vs = malloc(SB_MAX_VARIANTS * sizeof *vs);
    if (!vs)
        return -1;
    for (size_t e = 0; e < x->nexperiments; e++) {
        const sb_cross_experiment *ce = &x->experiments[e];
        const sb_experiment *entry = catalogue_entry(c->run->results[ce->first].experiment);
        c->entry[e] = entry;
        int nv = entry && entry->variants ? entry->variants(vs, SB_MAX_VARIANTS) : 0;
        for (size_t k = 0; k < ce->nresults; k++) {
            const sb_result *r = &c->run->results[ce->results[k]];
            int v = 0;
            while (v < nv && strcmp(vs[v].name, r->variant) != 0)
                v++;
            c->ranked[ce->results[k]] =
                v == nv ? is_kernel((sb_role)r->role)
                        : is_kernel(vs[v].role) &&
                              (!entry->headline.ranks || entry->headline.ranks(&vs[v]));
        }
    }
    free(vs);
    return 0;
}

/* Whether a larger figure is better: a rate, not a time. */
static int is_rate(sb_quantity q)
{
    return q == SB_QUANTITY_BANDWIDTH || q == SB_QUANTITY_FLOPS;
}

/* The most conflict ways of the accesses a row is about; 0 with none in
 * shared memory. */
static int studied_ways(const sb_result *r)
{
    int ways = 0;
    for (int i = 0; i < r->npatterns && i < SB_MAX_PATTERNS; i++)
        if (!r->pattern_extra[i] && r->prediction[i].space == SB_SPACE_SHARED &&
            r->prediction[i].ways > ways)
            ways = r->prediction[i].ways;
    return ways;
}

/* The model's cost of the first access a row is about: "32-way" or
 * "32 sectors/req"; "" with none. */
static void studied_cost(const sb_result *r, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < r->npatterns && i < SB_MAX_PATTERNS; i++) {
        if (r->pattern_extra[i])
            continue;
        const sb_prediction *p = &r->prediction[i];
        if (p->space == SB_SPACE_SHARED)
            snprintf(buf, n, "%d-way", p->ways);
        else
            snprintf(buf, n, "%d sectors/req", p->sectors);
        return;
    }
}

/* Whether result i may be an experiment's headline under rule: a kernel
 * (the compute roof is one) with a figure the rule can rank. */
static int candidate(const ctx *c, size_t i, sb_headline_rule rule)
{
    const sb_result *r = &c->run->results[i];
    if (!c->ranked[i] || !(r->value > 0))
        return 0;
    if (rule == SB_HEADLINE_BEST_SHARE || rule == SB_HEADLINE_WORST_SHARE)
        return r->roof_share > 0;
    if (rule == SB_HEADLINE_WORST_WAYS)
        return studied_ways(r) > 0;
    return 1;
}

/* How much the rule wants a row: the largest is picked. */
static double score(const sb_result *r, sb_headline_rule rule)
{
    switch (rule) {
    case SB_HEADLINE_BEST_SHARE:
        return r->roof_share;
    case SB_HEADLINE_WORST_SHARE:
        return -r->roof_share;
    case SB_HEADLINE_BEST:
        return is_rate(r->quantity) ? r->value : -r->value;
    case SB_HEADLINE_WORST:
        return is_rate(r->quantity) ? -r->value : r->value;
    case SB_HEADLINE_WORST_WAYS:
        return studied_ways(r);
    case SB_HEADLINE_NONE:
        break;
    }
    return 0;
}

/* The slots in the order the summary names them: the reference first. */
static int nth_slot(const sb_crossapi *x, int k)
{
    return k == 0 ? x->reference : k <= x->reference ? k - 1 : k;
}

/* The row of experiment e the rule picks, on the first device (the
 * reference first, then in slot order) that has a candidate; the first in
 * run order among equals; -1 where none has one. */
static long pick(const ctx *c, const sb_cross_experiment *ce, sb_headline_rule rule)
{
    const sb_crossapi *x = c->x;
    for (int k = 0; k < x->ndevices; k++) {
        int slot = nth_slot(x, k);
        long best = -1;
        for (size_t j = 0; j < ce->nresults; j++) {
            size_t i = ce->results[j];
            const sb_result *r = &c->run->results[i];
            if (r->device_slot == slot && candidate(c, i, rule) &&
                (best < 0 || score(r, rule) > score(&c->run->results[best], rule)))
                best = (long)i;
        }
        if (best >= 0)
            return best;
    }
    return -1;
}

/* --------------------------------------------------------- the devices */

/* Each device's clause with its label ("96.9% of the roof on cuda, 96.8%
 * on opencl"), first_more after the first clause only; where that is
 * longer than room: the one clause, where every device's reads the same;
 * else the range of value from the lowest to the highest; else the
 * reference's alone.  Slots with an empty clause are left out. */
static void on_devices(const ctx *c, char (*clause)[CLAUSE], const double *value,
                       const char *first_more, size_t room, char *buf, size_t n)
{
    const sb_crossapi *x = c->x;
    int count = 0, first = -1, same = 1, lo = -1, hi = -1;
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < x->ndevices; k++) {
        int s = nth_slot(x, k);
        if (!clause[s][0])
            continue;
        if (first < 0)
            first = s;
        same &= strcmp(clause[s], clause[first]) == 0;
        lo = lo < 0 || value[s] < value[lo] ? s : lo;
        hi = hi < 0 || value[s] > value[hi] ? s : hi;
        int w = snprintf(buf + used, n - used, "%s%s%s on %s", count ? ", " : "", clause[s],
                         count ? "" : first_more, x->label[s]);
        used = w < 0 ? used : used + (size_t)w < n ? used + (size_t)w : n - 1;
        count++;
    }
    if (count < 2 || strlen(buf) <= room)
        return;
    if (same)
        snprintf(buf, n, "%s%s on each of %d devices", clause[first], first_more, count);
    else
        snprintf(buf, n, "from %s%s on %s to %s on %s (%d devices)", clause[lo], first_more,
                 x->label[lo], clause[hi], x->label[hi], count);
    if (strlen(buf) > room)
        snprintf(buf, n, "%s%s on %s", clause[first], first_more, x->label[first]);
}

/* Each device's copy roof: the API's own copy where it was measured, else
 * the copy kernel. */
static void roof_item(const ctx *c, sb_summary *s)
{
    const sb_run *run = c->run;
    char clause[SB_RUN_MAX_DEVICES][CLAUSE];
    double value[SB_RUN_MAX_DEVICES];
    int api = 0, kernel = 0;
    for (int d = 0; d < c->x->ndevices && d < run->ndevices; d++) {
        const sb_run_device *dev = &run->devices[d];
        value[d] = dev->memcpy_gbs > 0 ? dev->memcpy_gbs : dev->copy_gbs;
        api += dev->memcpy_gbs > 0;
        kernel += !(dev->memcpy_gbs > 0) && dev->copy_gbs > 0;
        clause[d][0] = '\0';
        if (value[d] > 0)
            snprintf(clause[d], sizeof clause[d], "%.1f GB/s", value[d]);
    }
    if (!api && !kernel) {
        add(s, SB_SUMMARY_ROOF, NULL, "roof: no copy measured, so no share of one");
        return;
    }
    /* A clause marks its kind only where the devices' differ. */
    for (int d = 0; api && kernel && d < c->x->ndevices; d++)
        if (value[d] > 0)
            snprintf(clause[d], sizeof clause[d], "%.1f GB/s (%s)", value[d],
                     run->devices[d].memcpy_gbs > 0 ? "API copy" : "copy kernel");
    const char *head = !kernel ? "roof (API copy): " : !api ? "roof (copy kernel): " : "roof: ";
    char text[SB_SUMMARY_BYTES];
    on_devices(c, clause, value, "", SB_SUMMARY_WIDTH - strlen(head), text, sizeof text);
    add(s, SB_SUMMARY_ROOF, NULL, "%s%s", head, text);
}

/* --------------------------------------------------------- the families */

/* A figure in its unit's usual precision. */
static void figure_text(double v, char *buf, size_t n)
{
    snprintf(buf, n, v >= 100 ? "%.1f" : v >= 1 ? "%.2f" : "%.3g", v);
}

/* Row i's figure (share: its share of the roof) on every device of its
 * cross-device row, as clauses for on_devices. */
static void row_clauses(const ctx *c, size_t i, int share, char (*clause)[CLAUSE], double *value)
{
    const sb_crossapi *x = c->x;
    long row = x->row_of ? x->row_of[i] : -1;
    for (int d = 0; d < x->ndevices; d++) {
        long j = row >= 0 ? x->rows[row].result[d] : d == c->run->results[i].device_slot
                                                         ? (long)i
                                                         : -1;
        clause[d][0] = '\0';
        if (j < 0)
            continue;
        const sb_result *r = &c->run->results[j];
        value[d] = share ? r->roof_share : r->value;
        if (share && r->roof_share > 0)
            snprintf(clause[d], sizeof clause[d], "%.1f%%", 100.0 * r->roof_share);
        else if (!share && r->value > 0)
            figure_text(r->value, clause[d], sizeof clause[d]);
    }
}

/* "NAME: fastest VARIANT, 96.9% of the roof on cuda, 96.8% on opencl", or
 * its figure in its unit; with_cost, the model's cost of its access,
 * which says why a worst share is the worst. */
static void ranked_text(const ctx *c, size_t i, sb_headline_rule rule, int with_cost,
                        const char *name, char *buf, size_t n)
{
    const sb_result *r = &c->run->results[i];
    int share = rule == SB_HEADLINE_BEST_SHARE || rule == SB_HEADLINE_WORST_SHARE;
    int best = rule == SB_HEADLINE_BEST_SHARE || rule == SB_HEADLINE_BEST;
    char clause[SB_RUN_MAX_DEVICES][CLAUSE], more[48], cost[48] = "", head[160], tail[64] = "";
    double value[SB_RUN_MAX_DEVICES];
    row_clauses(c, i, share, clause, value);
    snprintf(more, sizeof more, " %s", share ? "of the roof" : sb_quantity_unit(r->quantity));
    if (with_cost)
        studied_cost(r, cost, sizeof cost);
    if (cost[0])
        snprintf(tail, sizeof tail, "; model %s", cost);
    snprintf(head, sizeof head, "%s: %s %s, ", name, best ? "fastest" : "slowest", r->variant);
    char devices[SB_SUMMARY_BYTES];
    size_t fixed = strlen(head) + strlen(tail);
    on_devices(c, clause, value, more, fixed < SB_SUMMARY_WIDTH ? SB_SUMMARY_WIDTH - fixed : 0,
               devices, sizeof devices);
    snprintf(buf, n, "%s%s%s", head, devices, tail);
}

/* The row of the same experiment, size and device as result w named
 * variant; -1 where there is none. */
static long sibling(const ctx *c, const sb_cross_experiment *ce, size_t w, const char *variant)
{
    const sb_result *r = &c->run->results[w];
    for (size_t j = 0; j < ce->nresults; j++) {
        const sb_result *o = &c->run->results[ce->results[j]];
        if (o->device_slot == r->device_slot && o->rows == r->rows && o->cols == r->cols &&
            strcmp(o->variant, variant) == 0)
            return (long)ce->results[j];
    }
    return -1;
}

/* How much faster the fix runs than the conflicted row, device by device,
 * by the verdict of crossapi.h: "31.0x faster", "no faster", "1.2x
 * slower". */
static void fix_clauses(const ctx *c, size_t w, size_t f, char (*clause)[CLAUSE], double *value)
{
    const sb_crossapi *x = c->x;
    long wrow = x->row_of ? x->row_of[w] : -1, frow = x->row_of ? x->row_of[f] : -1;
    for (int d = 0; d < x->ndevices; d++) {
        long a = wrow >= 0 ? x->rows[wrow].result[d] : d == c->run->results[w].device_slot
                                                           ? (long)w
                                                           : -1;
        long b = frow >= 0 ? x->rows[frow].result[d] : d == c->run->results[f].device_slot
                                                           ? (long)f
                                                           : -1;
        clause[d][0] = '\0';
        if (a < 0 || b < 0)
            continue;
        sb_verdict v =
            sb_verdict_judge(c->run, &c->run->results[a], c->run, &c->run->results[b], 0);
        value[d] = v.kind == SB_VERDICT_FASTER ? 1 + v.by : v.kind == SB_VERDICT_SLOWER
                                                                ? 1 / (1 + v.by)
                                                                : 1;
        if (v.kind == SB_VERDICT_FASTER || v.kind == SB_VERDICT_SLOWER)
            snprintf(clause[d], sizeof clause[d], "%.1fx %s", 1 + v.by,
                     v.kind == SB_VERDICT_FASTER ? "faster" : "slower");
        else if (v.kind == SB_VERDICT_SAME)
            snprintf(clause[d], sizeof clause[d], "no faster");
        else if (v.kind == SB_VERDICT_NOISY)
            snprintf(clause[d], sizeof clause[d], "noisy");
    }
}

/* "32x32-column-load 32-way; padding [32][33] makes it 1 way, 31.0x
 * faster on cuda", or the worst row's figure where no fix is declared or
 * measured. */
static void ways_text(const ctx *c, size_t e, size_t w, const char *name, char *buf, size_t n)
{
    const sb_headline *h = &c->entry[e]->headline;
    const sb_result *r = &c->run->results[w];
    char fixed[48];
    const char *how = "";
    long f = h->fix && h->fix(r->variant, fixed, sizeof fixed, &how) == 0
                 ? sibling(c, &c->x->experiments[e], w, fixed)
                 : -1;
    int ways = studied_ways(r);
    char clause[SB_RUN_MAX_DEVICES][CLAUSE], head[192], devices[SB_SUMMARY_BYTES];
    double value[SB_RUN_MAX_DEVICES];
    if (ways <= 1) {
        snprintf(buf, n, "%s: no bank conflict, every access 1 way", name);
        return;
    }
    if (f < 0) {
        row_clauses(c, w, 0, clause, value);
        snprintf(head, sizeof head, "%s: worst %s, %d-way, ", name, r->variant, ways);
        char more[32];
        snprintf(more, sizeof more, " %s", sb_quantity_unit(r->quantity));
        on_devices(c, clause, value, more, SB_SUMMARY_WIDTH - strlen(head), devices,
                   sizeof devices);
        snprintf(buf, n, "%s%s", head, devices);
        return;
    }
    int after = studied_ways(&c->run->results[f]);
    char verb[48];
    if (after <= 1)
        snprintf(verb, sizeof verb, "makes it 1 way");
    else
        snprintf(verb, sizeof verb, "%s it %d-way", after < ways ? "cuts" : "leaves", after);
    snprintf(head, sizeof head, "%s: %s %d-way; %s %s, ", name, r->variant, ways, how, verb);
    fix_clauses(c, w, (size_t)f, clause, value);
    size_t used = strlen(head);
    on_devices(c, clause, value, "", used < SB_SUMMARY_WIDTH ? SB_SUMMARY_WIDTH - used : 0,
               devices, sizeof devices);
    snprintf(buf, n, "%s%s", head, devices);
}

/* Experiment e's headline into buf by its declared rule; 0, or -1 where
 * it has no rule or no row the rule can rank. */
static int headline_text(const ctx *c, size_t e, char *buf, size_t n)
{
    const sb_experiment *entry = c->entry[e];
    sb_headline_rule rule = entry ? entry->headline.rule : SB_HEADLINE_NONE;
    int with_cost = rule == SB_HEADLINE_WORST_SHARE;
    if (rule == SB_HEADLINE_NONE)
        return -1;
    long i = pick(c, &c->x->experiments[e], rule);
    /* Without a roof there are no shares: the figures rank the rows. */
    if (i < 0 && (rule == SB_HEADLINE_BEST_SHARE || rule == SB_HEADLINE_WORST_SHARE)) {
        rule = rule == SB_HEADLINE_BEST_SHARE ? SB_HEADLINE_BEST : SB_HEADLINE_WORST;
        i = pick(c, &c->x->experiments[e], rule);
    }
    if (i < 0)
        return -1;
    const char *name = entry->name;
    if (rule == SB_HEADLINE_WORST_WAYS)
        ways_text(c, e, (size_t)i, name, buf, n);
    else
        ranked_text(c, (size_t)i, rule, with_cost, name, buf, n);
    return 0;
}

/* The families in run order, each with the experiment that speaks for it
 * (the first with a headline) or none. */
typedef struct family {
    const char *name;
    long speaker;  /* an index into x->experiments; -1: none */
    char text[SB_SUMMARY_BYTES];
} family;

static size_t families_of(const ctx *c, family *fam)
{
    size_t nf = 0;
    for (size_t e = 0; e < c->x->nexperiments; e++) {
        const sb_result *first = &c->run->results[c->x->experiments[e].first];
        /* A row that names no family is a family of its own. */
        const char *name = first->family[0] ? first->family : first->experiment;
        size_t k = 0;
        while (k < nf && strcmp(fam[k].name, name) != 0)
            k++;
        if (k == nf)
            fam[nf++] = (family){.name = name, .speaker = -1};
        if (fam[k].speaker < 0 && headline_text(c, e, fam[k].text, sizeof fam[k].text) == 0)
            fam[k].speaker = (long)e;
    }
    return nf;
}

#define OTHERS "also measured, as their blocks say: "
#define MORE ", and more"

/* One item per family that has a headline, as many as room allows; the
 * families left without one (none declared or measured, or no room) in
 * one item after them. */
static int family_items(const ctx *c, int room, sb_summary *s)
{
    family *fam = calloc(c->x->nexperiments + 1, sizeof *fam);
    if (!fam)
        return -1;
    size_t nf = families_of(c, fam);
    int speaking = 0, silent = 0;
    for (size_t k = 0; k < nf; k++)
        fam[k].speaker >= 0 ? speaking++ : silent++;
    if (silent || speaking > room)
        room--;
    char others[SB_SUMMARY_BYTES] = "";
    size_t used = 0;
    int listed = 0, left = 0;
    for (size_t k = 0; k < nf; k++) {
        if (fam[k].speaker >= 0 && room > 0) {
            add(s, SB_SUMMARY_HEADLINE,
                c->run->results[c->x->experiments[fam[k].speaker].first].experiment, "%s",
                fam[k].text);
            room--;
            continue;
        }
        if (used + strlen(fam[k].name) + 2 > SB_SUMMARY_WIDTH - sizeof OTHERS - sizeof MORE) {
            left++;
            continue;
        }
        int w = snprintf(others + used, sizeof others - used, "%s%s", listed++ ? ", " : "",
                         fam[k].name);
        used += w > 0 ? (size_t)w : 0;
    }
    if (listed)
        add(s, SB_SUMMARY_OTHERS, NULL, OTHERS "%s%s", others, left ? MORE : "");
    free(fam);
    return 0;
}

/* ------------------------------------------------------- the whole run */

/* Each device's verdicts against the reference: a line per device, or
 * one for them all where they are more than three. */
static void verdict_items(const ctx *c, sb_summary *s)
{
    const sb_crossapi *x = c->x;
    if (x->ndevices < 2)
        return;
    size_t all[4] = {0, 0, 0, 0};
    int others = x->ndevices - 1;
    for (int d = 0; d < x->ndevices; d++) {
        if (d == x->reference)
            continue;
        size_t n[4] = {0, 0, 0, 0};
        for (size_t r = 0; r < x->nrows; r++) {
            sb_verdict_kind k = x->rows[r].verdict[d].kind;
            n[0] += k == SB_VERDICT_SAME;
            n[1] += k == SB_VERDICT_FASTER;
            n[2] += k == SB_VERDICT_SLOWER;
            n[3] += k == SB_VERDICT_NOISY;
        }
        for (int k = 0; k < 4; k++)
            all[k] += n[k];
        char noisy[48] = "";
        if (n[3])
            snprintf(noisy, sizeof noisy, ", noisy in %zu", n[3]);
        if (others <= 3)
            add(s, SB_SUMMARY_VERDICTS, NULL, "%s against %s: %zu of %zu rows the same, "
                "%s faster in %zu, slower in %zu%s", x->label[d], x->label[x->reference], n[0],
                n[0] + n[1] + n[2] + n[3], x->label[d], n[1], n[2], noisy);
    }
    if (others > 3)
        add(s, SB_SUMMARY_VERDICTS, NULL, "%d devices against %s: %zu of %zu rows the same, "
            "faster in %zu, slower in %zu, noisy in %zu", others, x->label[x->reference],
            all[0], all[0] + all[1] + all[2] + all[3], all[1], all[2], all[3]);
}

/* How many rows are noisy, and whether most are (noise.h): then no figure
 * above is to be taken as the hardware's. */
static void noise_items(const ctx *c, sb_summary *s)
{
    if (!c->noise || c->noise->noisy == 0)
        return;
    if (sb_noise_mostly(c->noise))
        add(s, SB_SUMMARY_NOISE, NULL, "noise: %zu of %zu rows noisy: a noisy run, its times "
            "and verdicts are not to be trusted", c->noise->noisy, c->noise->nrows);
    else
        add(s, SB_SUMMARY_NOISE, NULL, "noise: %zu of %zu rows noisy (spread or drift beyond "
            "%.0f%%), never called faster or slower", c->noise->noisy, c->noise->nrows,
            100.0 * c->noise->margin);
}

/* Every row verified (or which were not), what failed, the model against
 * the counters, the backends not run and an interruption. */
static void check_items(const ctx *c, sb_summary *s)
{
    const sb_run *run = c->run;
    size_t unverified = 0, first = 0;
    for (size_t i = 0; i < run->nresults; i++)
        if (!run->results[i].verified && !unverified++)
            first = i;
    if (!unverified && run->nresults == 1)
        add(s, SB_SUMMARY_CHECKS, NULL, "checks: the one row verified against its host "
            "reference");
    else if (!unverified)
        add(s, SB_SUMMARY_CHECKS, NULL, "checks: every one of the %zu rows verified against "
            "its host reference", run->nresults);
    else
        add(s, SB_SUMMARY_CHECKS, NULL, "checks: %zu of the %zu rows not verified, the first "
            "%s/%s", unverified, run->nresults, run->results[first].experiment,
            run->results[first].variant);
    if (run->failures > 0)
        add(s, SB_SUMMARY_CHECKS, NULL, "failed: %d reported on stderr, each leaving no figure",
            run->failures);
    int matches = 0, differs = 0;
    for (size_t i = 0; c->checks && i < run->nresults; i++) {
        matches += c->checks[i].verdict == SB_COUNTER_MATCHES;
        differs += c->checks[i].verdict == SB_COUNTER_DIFFERS;
    }
    if (matches + differs)
        add(s, SB_SUMMARY_CHECKS, NULL, "counters: the model matches them in %d of %d rows, "
            "differs in %d", matches, matches + differs, differs);
    char names[SB_SUMMARY_BYTES] = "";
    size_t used = 0;
    for (int i = 0; i < run->nunavailable && i < SB_RUN_MAX_DEVICES; i++) {
        int w = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         run->unavailable[i].backend);
        if (w < 0 || used + (size_t)w >= sizeof names) {
            names[used] = '\0'; /* whole names only */
            break;
        }
        used += (size_t)w;
    }
    if (run->nunavailable > 0)
        add(s, SB_SUMMARY_CHECKS, NULL, "not run here: %s (the Devices section says why)", names);
    if (run->interrupted)
        add(s, SB_SUMMARY_CHECKS, NULL, "interrupted: only the rows that finished before the "
            "signal");
}

/* The run-wide items after the families', in the order printed; a new
 * kind of line is one more entry here, and the families make room for it.
 * The noise's line ("N of M rows noisy") belongs between the verdicts and
 * the checks. */
static void (*const closing[])(const ctx *, sb_summary *) = {verdict_items, noise_items,
                                                              check_items};

int sb_summary_of(const sb_run *run, const sb_crossapi *x, const sb_counter_check *checks,
                  const sb_noise *noise, sb_summary *out)
{
    memset(out, 0, sizeof *out);
    if (run->nresults == 0 || x->nexperiments == 0)
        return 0;
    ctx c = {.run = run, .x = x, .checks = checks, .noise = noise};
    c.ranked = calloc(run->nresults, sizeof *c.ranked);
    c.entry = calloc(x->nexperiments, sizeof *c.entry);
    sb_summary tail;
    memset(&tail, 0, sizeof tail);
    int rc = !c.ranked || !c.entry || find_roles(&c) ? -1 : 0;
    if (!rc) {
        for (size_t k = 0; k < sizeof closing / sizeof closing[0]; k++)
            closing[k](&c, &tail);
        roof_item(&c, out);
        rc = family_items(&c, SB_SUMMARY_MAX - out->n - tail.n, out);
    }
    for (int k = 0; !rc && k < tail.n && out->n < SB_SUMMARY_MAX; k++)
        out->item[out->n++] = tail.item[k];
    if (rc)
        memset(out, 0, sizeof *out);
    free(c.ranked);
    free(c.entry);
    return rc;
}
