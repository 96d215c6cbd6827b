#include "experiments/variant.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

void sb_variant_init(sb_variant *v, const char *name, const char *kernel, unsigned bx,
                     unsigned by, unsigned bz)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->kernel, sizeof v->kernel, "%s", kernel ? kernel : "");
    v->block[0] = bx;
    v->block[1] = by;
    v->block[2] = bz;
    v->in_default = 1;
}

void sb_variant_define(sb_variant *v, const char *fmt, ...)
{
    if (v->ndefines >= SB_MAX_DEFINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->defines[v->ndefines], sizeof v->defines[0], fmt, ap);
    va_end(ap);
    v->ndefines++;
}

void sb_variant_params(const sb_variant *v, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < v->ndefines && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", v->defines[i]);
}

static unsigned ceil_div(long a, long b)
{
    return (unsigned)((a + b - 1) / b);
}

void sb_grid_2d(sb_launch *g, const sb_variant *v, long extent_x, long extent_y,
                long per_block_x, long per_block_y)
{
    g->grid[0] = ceil_div(extent_x, per_block_x);
    g->grid[1] = ceil_div(extent_y, per_block_y);
    g->grid[2] = 1;
    memcpy(g->block, v->block, sizeof g->block);
}

long sb_stream_elements(const sb_device_info *dev)
{
    if (!dev->is_gpu)
        return 1L << 20;
    /* 256 MiB per buffer where the API does not say how big the L2 is. */
    double want = dev->l2_bytes ? 4.0 * (double)dev->l2_bytes : 256.0 * 1048576.0;
    long n = 1L << 24;
    while ((double)n * 4.0 < want && n < (1L << 29))
        n *= 2;
    return n;
}

/* Whether two requests cost the totals the same. */
static int same_cost(const sb_pattern *a, const sb_pattern *b)
{
    sb_prediction pa, pb;
    if (a->space != b->space || sb_predict(a, &pa) || sb_predict(b, &pb))
        return 0;
    if (a->space == SB_SPACE_GLOBAL)
        return pa.sectors == pb.sectors;
    return pa.wavefronts == pb.wavefronts && pa.conflicts == pb.conflicts;
}

/* Copies declaration `from` of plan src to declaration `to` of dst. */
static void move_access(sb_plan *dst, const sb_plan *src, int to, int from)
{
    memcpy(dst->pattern_label[to], src->pattern_label[from], sizeof dst->pattern_label[to]);
    dst->pattern[to] = src->pattern[from];
    dst->kind[to] = src->kind[from];
    dst->requests[to] = src->requests[from];
    dst->lanes[to] = src->lanes[from];
    dst->sites[to] = src->sites[from];
    dst->studied[to] = src->studied[from];
}

static int add_sites(int a, int b)
{
    return a < 0 || b < 0 ? SB_SITES_COMPILER : a + b;
}

/* Lanes taking part in a pattern's request. */
static int lanes_of(const sb_pattern *p)
{
    int n = 0;
    for (int l = 0; l < SB_WARP_LANES; l++)
        n += p->active == 0 || (p->active >> l & 1u);
    return n;
}

/* Moves declaration i up past the others until it follows the studied
   ones: the accesses the variant is about come first, in their order, so
   that a report's first access is the one under study. */
static void bring_forward(sb_plan *plan, int i)
{
    while (plan->studied[i] && i > 0 && !plan->studied[i - 1]) {
        sb_plan held;
        move_access(&held, plan, 0, i);
        move_access(plan, plan, i, i - 1);
        move_access(plan, &held, i - 1, 0);
        i--;
    }
}

/* Adds a into declaration i, of the same cost: the pattern with more
   lanes taking part stands for both (a full warp rather than an edge). */
static void merge_into(sb_plan *plan, int i, const sb_access *a)
{
    plan->requests[i] += a->requests;
    plan->lanes[i] += a->requests * lanes_of(&a->pattern);
    plan->sites[i] = add_sites(plan->sites[i], a->sites);
    if (lanes_of(&a->pattern) > lanes_of(&plan->pattern[i]))
        plan->pattern[i] = a->pattern;
    plan->studied[i] |= a->studied;
    bring_forward(plan, i);
}

/* Frees a declaration: the last of two of one kind and cost (under two
   labels) is counted in the first.  0 where every one differs. */
static int make_room(sb_plan *plan)
{
    for (int j = plan->npatterns - 1; j > 0; j--)
        for (int i = 0; i < j; i++)
            if (plan->kind[i] == plan->kind[j] && same_cost(&plan->pattern[i], &plan->pattern[j])) {
                plan->requests[i] += plan->requests[j];
                plan->lanes[i] += plan->lanes[j];
                plan->sites[i] = add_sites(plan->sites[i], plan->sites[j]);
                plan->studied[i] |= plan->studied[j];
                for (int k = j; k + 1 < plan->npatterns; k++)
                    move_access(plan, plan, k, k + 1);
                plan->npatterns--;
                bring_forward(plan, i);
                return 1;
            }
    return 0;
}

void sb_plan_declare(sb_plan *plan, const sb_access *a)
{
    if (!(a->requests > 0))
        return;
    for (int i = 0; i < plan->npatterns; i++)
        if (strncmp(plan->pattern_label[i], a->label, sizeof plan->pattern_label[i] - 1) == 0 &&
            plan->kind[i] == a->kind && same_cost(&plan->pattern[i], &a->pattern)) {
            merge_into(plan, i, a);
            return;
        }
    if (plan->npatterns >= SB_MAX_PATTERNS) {
        /* No room for a declaration of its own: one of the same kind and
           cost counts it, under its own label, so the totals stay exact. */
        for (int i = 0; i < plan->npatterns; i++)
            if (plan->kind[i] == a->kind && same_cost(&plan->pattern[i], &a->pattern)) {
                merge_into(plan, i, a);
                return;
            }
        if (!make_room(plan)) {
            plan->undeclared++;
            return;
        }
    }
    int i = plan->npatterns++;
    snprintf(plan->pattern_label[i], sizeof plan->pattern_label[i], "%s", a->label);
    plan->pattern[i] = a->pattern;
    plan->kind[i] = a->kind;
    plan->requests[i] = a->requests;
    plan->lanes[i] = a->requests * lanes_of(&a->pattern);
    plan->sites[i] = a->sites;
    plan->studied[i] = a->studied;
    bring_forward(plan, i);
}

sb_pattern sb_dense(sb_space space, int word)
{
    sb_pattern p = sb_pattern_default();
    p.space = space;
    p.word_bytes = word;
    return p;
}

sb_warp_split sb_warps_of(long count)
{
    sb_warp_split w = {count > 0 ? count / SB_WARP_LANES : 0,
                       count > 0 ? (int)(count % SB_WARP_LANES) : 0};
    return w;
}

uint32_t sb_first_lanes(int lanes)
{
    return lanes <= 0 || lanes >= SB_WARP_LANES ? 0u : (1u << lanes) - 1u;
}

void sb_plan_declare_walk(sb_plan *plan, const sb_access *a, long count, double times)
{
    sb_warp_split w = sb_warps_of(count);
    sb_access full = *a;
    full.requests = (double)w.full * times;
    sb_plan_declare(plan, &full);
    if (w.tail_lanes == 0)
        return;
    sb_access part = *a;
    part.pattern.active = sb_first_lanes(w.tail_lanes);
    part.requests = times;
    part.sites = w.full > 0 ? 0 : a->sites;
    part.studied = 0; /* an edge of the access, not what the variant is about */
    sb_plan_declare(plan, &part);
}

int sb_block_classes(long extent_x, long extent_y, long tile_x, long tile_y,
                     sb_block_class out[4])
{
    if (extent_x <= 0 || extent_y <= 0 || tile_x <= 0 || tile_y <= 0)
        return 0;
    long whole_x = extent_x / tile_x, rest_x = extent_x % tile_x;
    long whole_y = extent_y / tile_y, rest_y = extent_y % tile_y;
    const sb_block_class all[4] = {
        {tile_x, tile_y, (double)whole_x * (double)whole_y},
        {rest_x, tile_y, rest_x ? (double)whole_y : 0},
        {tile_x, rest_y, rest_y ? (double)whole_x : 0},
        {rest_x, rest_y, rest_x && rest_y ? 1 : 0},
    };
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (all[i].count > 0)
            out[n++] = all[i];
    return n;
}

uint32_t sb_lanes_between(int first, int end)
{
    if (first < 0)
        first = 0;
    if (end > SB_WARP_LANES)
        end = SB_WARP_LANES;
    if (first >= end)
        return 0; /* callers skip a warp with no lane: this is never "all" for them */
    if (first == 0 && end == SB_WARP_LANES)
        return 0;
    uint32_t below_end = end == SB_WARP_LANES ? ~0u : (1u << end) - 1u;
    return below_end & ~((1u << first) - 1u);
}

/* Whether idx steps by one stride >= 0 from lane to lane. */
static int steps_evenly(const long idx[SB_WARP_LANES], long *stride)
{
    *stride = idx[1] - idx[0];
    for (int l = 1; l < SB_WARP_LANES; l++)
        if (idx[l] - idx[l - 1] != *stride)
            return 0;
    return *stride >= 0 && *stride <= SB_MODEL_MAX_STRIDE;
}

sb_pattern sb_global_request(int word, const long idx[SB_WARP_LANES], uint32_t active)
{
    sb_pattern p = sb_dense(SB_SPACE_GLOBAL, word);
    p.active = active;
    long line = SB_SEGMENT_BYTES / word, low = idx[0], stride;
    for (int l = 1; l < SB_WARP_LANES; l++)
        if (idx[l] < low)
            low = idx[l];
    long base = (low >= 0 ? low / line : (low - line + 1) / line) * line;
    if (steps_evenly(idx, &stride)) {
        p.stride = stride;
        p.offset = idx[0] - base;
        return p;
    }
    p.walk = SB_WALK_LIST;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p.lane_index[l] = (int32_t)(idx[l] - base);
    return p;
}

void sb_tally_flush(sb_tally *t, sb_plan *plan)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++)
        sb_plan_declare(plan, &t->item[i]);
    t->n = 0;
}

void sb_tally_add(sb_tally *t, sb_plan *plan, const sb_access *a)
{
    if (!t) {
        sb_plan_declare(plan, a);
        return;
    }
    if (!(a->requests > 0))
        return;
    for (int i = 0; i < t->n; i++) {
        sb_access *it = &t->item[i];
        if (it->kind == a->kind && strcmp(it->label, a->label) == 0 &&
            memcmp(&it->pattern, &a->pattern, sizeof it->pattern) == 0) {
            it->requests += a->requests;
            it->sites = add_sites(it->sites, a->sites);
            it->studied |= a->studied;
            return;
        }
    }
    if (t->n == SB_TALLY_MAX)
        sb_tally_flush(t, plan);
    t->item[t->n++] = *a;
}

int sb_bins_variant(const char *variant, char *method, size_t mn, long *bins, char *dist,
                    size_t dn)
{
    const char *b = strstr(variant, "-b");
    if (!b || b == variant)
        return -1;
    char *end;
    long v = strtol(b + 2, &end, 10);
    if (end == b + 2 || b[2] < '0' || b[2] > '9' || *end != '-' || !end[1] || v < 1)
        return -1;
    *bins = v;
    snprintf(method, mn, "%.*s", (int)(b - variant), variant);
    snprintf(dist, dn, "%s", end + 1);
    return 0;
}
