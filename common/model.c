/* The memory-access model; see model.h for the rules it follows.
 *
 * Every cost is found by listing what the 32 lanes touch and counting
 * distinct things (sectors, lines, bytes, words per bank), so a pattern the
 * notes never mention is treated by the same rules as those they do. */
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sb_pattern sb_pattern_default(void)
{
    sb_pattern p = {0};
    p.space = SB_SPACE_SHARED;
    p.word_bytes = 4;
    p.stride = 1;
    p.perm = SB_PERM_NONE;
    p.walk = SB_WALK_NONE;
    return p;
}

const char *sb_space_name(sb_space s)
{
    switch (s) {
    case SB_SPACE_GLOBAL: return "global";
    case SB_SPACE_SHARED: return "shared";
    }
    return NULL;
}

const char *sb_perm_name(sb_perm p)
{
    switch (p) {
    case SB_PERM_NONE: return "none";
    case SB_PERM_REVERSE: return "reverse";
    case SB_PERM_XOR: return "xor";
    case SB_PERM_RANDOM: return "random";
    }
    return NULL;
}

const char *sb_walk_name(sb_walk w)
{
    switch (w) {
    case SB_WALK_NONE: return "none";
    case SB_WALK_ROW: return "row";
    case SB_WALK_COLUMN: return "column";
    case SB_WALK_LIST: return "list";
    }
    return NULL;
}

int sb_bank_of(uint64_t byte_addr)
{
    return (int)((byte_addr / SB_BANK_BYTES) % SB_BANKS);
}

/* splitmix64: tiny, well mixed, and trivially reproducible elsewhere (host
 * code that must upload the same permutation uses sb_perm_table anyway). */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int sb_perm_table(sb_perm perm, unsigned arg, int out[SB_WARP_LANES])
{
    int t[SB_WARP_LANES];
    switch (perm) {
    case SB_PERM_NONE:
        for (int l = 0; l < SB_WARP_LANES; l++)
            t[l] = l;
        break;
    case SB_PERM_REVERSE:
        for (int l = 0; l < SB_WARP_LANES; l++)
            t[l] = SB_WARP_LANES - 1 - l;
        break;
    case SB_PERM_XOR:
        /* A larger mask would send lanes outside 0..31: not a permutation. */
        if (arg >= SB_WARP_LANES)
            return -1;
        for (int l = 0; l < SB_WARP_LANES; l++)
            t[l] = l ^ (int)arg;
        break;
    case SB_PERM_RANDOM: {
        /* Fisher-Yates from the identity, driven by splitmix64(seed): the same
           seed always gives the same permutation, on every platform. */
        uint64_t state = arg;
        for (int l = 0; l < SB_WARP_LANES; l++)
            t[l] = l;
        for (int i = SB_WARP_LANES - 1; i > 0; i--) {
            int j = (int)(splitmix64(&state) % (uint64_t)(i + 1));
            int tmp = t[i];
            t[i] = t[j];
            t[j] = tmp;
        }
        break;
    }
    default:
        return -1;
    }
    for (int l = 0; l < SB_WARP_LANES; l++)
        out[l] = t[l];
    return 0;
}

static int is_pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Checks the fields a tile walk uses; the linear fields are checked by the caller. */
static const char *check_tile(const sb_pattern *p)
{
    if (p->walk != SB_WALK_ROW && p->walk != SB_WALK_COLUMN)
        return "walk must be none, row, column or list";
    if (p->stride != 1)
        return "a tile walk steps one element per lane: stride must be 1";
    if (p->perm != SB_PERM_NONE || p->perm_arg != 0 || p->spread != 0 || p->same > 1)
        return "a tile walk takes no permutation, spread or same";
    if (p->same < 0)
        return "same must be 0..32 lanes";
    if (p->tile_rows < 1 || p->tile_cols < 1)
        return "a tile needs at least 1 row and 1 column";
    if (p->tile_rows > SB_MODEL_MAX_TILE || p->tile_cols > SB_MODEL_MAX_TILE)
        return "tile too large (at most 65536 rows and columns)";
    if (p->pad < 0 || p->pad > SB_MODEL_MAX_TILE)
        return "pad must be 0..65536 columns";
    if (p->swizzle != 0 && p->swizzle != 1)
        return "swizzle must be 0 or 1";
    /* c ^ (r % cols) stays below cols only when cols is a power of two;
       otherwise the swizzle would store outside the row. */
    if (p->swizzle && !is_pow2(p->tile_cols))
        return "swizzle needs a power-of-two column count";
    if (p->walk_index < 0)
        return "walk index must be 0 or more";
    if (p->walk == SB_WALK_ROW) {
        if (p->walk_index >= p->tile_rows)
            return "row walk index past the tile's last row";
        /* Lanes past the row's end wrap onto the next rows. */
        if ((long)p->walk_index + (SB_WARP_LANES - 1) / p->tile_cols >= p->tile_rows)
            return "the warp's 32 lanes run past the tile's last row";
    } else {
        if (p->walk_index >= p->tile_cols)
            return "column walk index past the tile's last column";
        if ((long)p->walk_index + (SB_WARP_LANES - 1) / p->tile_rows >= p->tile_cols)
            return "the warp's 32 lanes run past the tile's last column";
    }
    return NULL;
}

/* Checks a list walk: each lane's index given, nothing else of the layout. */
static const char *check_list(const sb_pattern *p)
{
    if (p->stride != 1)
        return "a list walk gives each lane's index: stride must be 1";
    if (p->perm != SB_PERM_NONE || p->perm_arg != 0 || p->spread != 0 || p->same > 1 ||
        p->same < 0)
        return "a list walk takes no permutation, spread or same";
    if (p->tile_rows != 0 || p->tile_cols != 0 || p->pad != 0 || p->swizzle != 0 ||
        p->walk_index != 0)
        return "a list walk takes no tile, pad, swizzle or walk index";
    for (int l = 0; l < SB_WARP_LANES; l++)
        if (p->lane_index[l] < 0 || p->lane_index[l] > SB_MODEL_MAX_INDEX)
            return "a list walk's lane index must be 0..1073741824";
    return NULL;
}

/* Lane indices belong to list walks alone, so that two patterns that say
   the same are the same bytes. */
static int has_lane_index(const sb_pattern *p)
{
    for (int l = 0; l < SB_WARP_LANES; l++)
        if (p->lane_index[l] != 0)
            return 1;
    return 0;
}

const char *sb_pattern_check(const sb_pattern *p)
{
    if (p == NULL)
        return "no pattern";
    if (sb_space_name(p->space) == NULL)
        return "space must be global or shared";
    if (p->word_bytes != 4 && p->word_bytes != 8 && p->word_bytes != 16)
        return "word size must be 4, 8 or 16 bytes";
    if (p->offset < 0)
        return "offset must be 0 or more words";
    if (p->offset > SB_MODEL_MAX_OFFSET)
        return "offset too large (at most 16777216 words)";
    if (sb_walk_name(p->walk) == NULL)
        return "walk must be none, row, column or list";
    if (p->walk == SB_WALK_LIST)
        return check_list(p);
    if (has_lane_index(p))
        return "lane indices need a list walk";
    if (p->walk != SB_WALK_NONE)
        return check_tile(p);

    if (p->tile_rows != 0 || p->tile_cols != 0 || p->pad != 0 || p->swizzle != 0 ||
        p->walk_index != 0)
        return "tile, pad, swizzle and walk index need a row or column walk";
    if (p->stride < 0)
        return "stride must be 0 or more words";
    if (p->stride > SB_MODEL_MAX_STRIDE)
        return "stride too large (at most 16777216 words)";
    if (sb_perm_name(p->perm) == NULL)
        return "permutation must be none, reverse, xor or random";
    if ((p->perm == SB_PERM_NONE || p->perm == SB_PERM_REVERSE) && p->perm_arg != 0)
        return "a permutation argument is only used by xor and random";
    if (p->perm == SB_PERM_XOR && p->perm_arg >= SB_WARP_LANES)
        return "XOR mask must be 0..31 (it permutes 32 lanes)";
    if (p->spread != 0 && p->spread != 1)
        return "spread must be 0 or 1";
    if (p->spread && p->stride != 1)
        return "spread sets the lane step itself (one 128-byte segment per lane): leave stride at 1";
    if (p->same < 0 || p->same > SB_WARP_LANES)
        return "same must be 0..32 lanes";
    return NULL;
}

/* Element index of every lane; the pattern must be valid. */
static void lane_indices(const sb_pattern *p, uint64_t idx[SB_WARP_LANES])
{
    uint64_t off = (uint64_t)p->offset;
    if (p->walk == SB_WALK_LIST) {
        for (int l = 0; l < SB_WARP_LANES; l++)
            idx[l] = (uint64_t)p->lane_index[l] + off;
        return;
    }
    if (p->walk != SB_WALK_NONE) {
        uint64_t ld = (uint64_t)p->tile_cols + (uint64_t)p->pad;
        for (int l = 0; l < SB_WARP_LANES; l++) {
            int r, c;
            if (p->walk == SB_WALK_ROW) {
                r = p->walk_index + l / p->tile_cols;
                c = l % p->tile_cols;
            } else {
                c = p->walk_index + l / p->tile_rows;
                r = l % p->tile_rows;
            }
            if (p->swizzle)
                c ^= r % p->tile_cols;
            idx[l] = (uint64_t)r * ld + (uint64_t)c + off;
        }
        return;
    }
    int q[SB_WARP_LANES];
    (void)sb_perm_table(p->perm, p->perm_arg, q); /* cannot fail: checked */
    uint64_t step = p->spread ? (uint64_t)(SB_SEGMENT_BYTES / p->word_bytes) : (uint64_t)p->stride;
    int same = p->same > 1 ? p->same : 1;
    for (int l = 0; l < SB_WARP_LANES; l++)
        idx[l] = (uint64_t)(q[l] / same) * step + off;
}

int sb_pattern_addresses(const sb_pattern *p, uint64_t addr[SB_WARP_LANES])
{
    if (sb_pattern_check(p) != NULL || addr == NULL)
        return -1;
    uint64_t idx[SB_WARP_LANES];
    lane_indices(p, idx);
    for (int l = 0; l < SB_WARP_LANES; l++)
        addr[l] = idx[l] * (uint64_t)p->word_bytes;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts v and returns how many distinct values it holds. */
static int count_distinct(uint64_t *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    int d = 1;
    for (int i = 1; i < n; i++)
        d += v[i] != v[i - 1];
    return d;
}

/* Whether lane l takes part in the pattern's request. */
static int lane_active(const sb_pattern *p, int l)
{
    return p->active == 0 || (p->active >> l & 1u);
}

/* The byte addresses of the lanes taking part, in lane order; how many. */
static int active_addresses(const sb_pattern *p, const uint64_t addr[SB_WARP_LANES],
                            uint64_t out[SB_WARP_LANES])
{
    int n = 0;
    for (int l = 0; l < SB_WARP_LANES; l++)
        if (lane_active(p, l))
            out[n++] = addr[l];
    return n;
}

/* Distinct blocks of `unit` bytes covered by n lanes' [addr, addr + w). */
static int count_units(const uint64_t *addr, int nlanes, int w, uint64_t unit)
{
    /* An aligned element of at most 16 bytes lies in one 32-byte unit; the
       room for 2 per lane keeps this exact for any future misalignment.
       Wider units (128) only get fewer. */
    uint64_t v[2 * SB_WARP_LANES];
    int n = 0;
    for (int l = 0; l < nlanes; l++) {
        uint64_t first = addr[l] / unit, last = (addr[l] + (uint64_t)w - 1) / unit;
        for (uint64_t u = first; u <= last && n < 2 * SB_WARP_LANES; u++)
            v[n++] = u;
    }
    return count_distinct(v, n);
}

int sb_global_cost_of(const sb_pattern *p, sb_global_cost *out)
{
    uint64_t addr[SB_WARP_LANES], s[SB_WARP_LANES];
    if (out == NULL || sb_pattern_addresses(p, addr) != 0)
        return -1;
    int w = p->word_bytes, lanes = active_addresses(p, addr, s);
    sb_global_cost c;
    c.sectors = count_units(s, lanes, w, SB_SECTOR_BYTES);
    c.segments = count_units(s, lanes, w, SB_SEGMENT_BYTES);
    c.requested_bytes = lanes * w;

    /* Distinct bytes: the union of the lanes' intervals, walked in order. */
    qsort(s, (size_t)lanes, sizeof *s, cmp_u64);
    uint64_t unique = 0, covered_to = 0;
    for (int l = 0; l < lanes; l++) {
        uint64_t lo = s[l], hi = s[l] + (uint64_t)w;
        if (l > 0 && lo < covered_to)
            lo = covered_to;
        if (hi > lo)
            unique += hi - lo;
        if (l == 0 || hi > covered_to)
            covered_to = hi;
    }
    c.unique_bytes = (int)unique;
    c.transferred_bytes = c.sectors * SB_SECTOR_BYTES;
    c.efficiency = (double)c.unique_bytes / (double)c.transferred_bytes;
    *out = c;
    return 0;
}

/* The phases of a shared request: a 4-byte one is served whole, wider ones
   a half-warp at a time.  Not 16-byte quarter-warps: on the H200 the matrix
   multiply's 16-byte row reads, every lane of a half-warp (or of the warp)
   on one element, took 2 wavefronts, where quarter-warps would take 4
   (RESULTS.md); for distinct words both give the same passes. */
static int shared_phases(const sb_pattern *p)
{
    return p->word_bytes > SB_BANK_BYTES ? 2 : 1;
}

/* Wavefronts one phase of a shared request needs: the most distinct bank
   words any bank must deliver, 0 when no lane of the phase takes part;
   *ideal the fewest it could take, its distinct words over the 32 banks. */
static int phase_wavefronts(const sb_pattern *p, const uint64_t addr[SB_WARP_LANES], int ph,
                            int *ideal)
{
    int words_per_lane = p->word_bytes / SB_BANK_BYTES;
    int lanes_per_phase = SB_WARP_LANES / shared_phases(p);
    uint64_t words[SB_WARP_LANES * 4];
    int n = 0;
    *ideal = 0;
    for (int l = ph * lanes_per_phase; l < (ph + 1) * lanes_per_phase; l++)
        for (int j = 0; j < words_per_lane && lane_active(p, l); j++)
            words[n++] = addr[l] / SB_BANK_BYTES + (uint64_t)j;
    if (n == 0)
        return 0;
    /* Lanes on the same word share it (broadcast / multicast): only
       distinct words of a bank cost a pass each. */
    int distinct = count_distinct(words, n); /* sorts, so repeats are adjacent */
    *ideal = (distinct + SB_BANKS - 1) / SB_BANKS;
    int per_bank[SB_BANKS] = {0};
    int worst = 1;
    for (int i = 0; i < n; i++) {
        if (i > 0 && words[i] == words[i - 1])
            continue;
        int b = (int)(words[i] % SB_BANKS);
        if (++per_bank[b] > worst)
            worst = per_bank[b];
    }
    return worst;
}

int sb_shared_cost_of(const sb_pattern *p, sb_shared_cost *out)
{
    uint64_t addr[SB_WARP_LANES], act[SB_WARP_LANES];
    if (out == NULL || sb_pattern_addresses(p, addr) != 0)
        return -1;
    /* A lane's element covers word_bytes / 4 consecutive banks; a phase
       delivers each bank's distinct words one a pass, 32 banks a pass.  The
       conflict degree is how many times the phase's fewest passes its worst
       bank takes. */
    int phases = shared_phases(p);
    sb_shared_cost c = {0};
    c.ways = 1;
    for (int ph = 0; ph < phases; ph++) {
        int ideal;
        int worst = phase_wavefronts(p, addr, ph, &ideal);
        c.ideal_wavefronts += ideal;
        c.wavefronts += worst;
        int ways = ideal > 0 ? (worst + ideal - 1) / ideal : 0;
        if (ways > c.ways)
            c.ways = ways;
    }
    c.conflicts = c.wavefronts - c.ideal_wavefronts;
    int lanes = active_addresses(p, addr, act);
    c.broadcast = lanes > 1;
    for (int l = 1; l < lanes; l++)
        if (act[l] != act[0])
            c.broadcast = 0;
    *out = c;
    return 0;
}

/* Lanes taking part in the pattern's request. */
static int active_lanes(const sb_pattern *p)
{
    int n = 0;
    for (int l = 0; l < SB_WARP_LANES; l++)
        n += lane_active(p, l);
    return n;
}

int sb_predict(const sb_pattern *p, sb_prediction *out)
{
    sb_global_cost g;
    sb_shared_cost s;
    if (out == NULL || sb_global_cost_of(p, &g) != 0 || sb_shared_cost_of(p, &s) != 0)
        return -1;
    sb_prediction r;
    r.space = (int)p->space;
    r.word_bytes = p->word_bytes;
    r.lanes = active_lanes(p);
    r.sectors = g.sectors;
    r.segments = g.segments;
    r.requested_bytes = g.requested_bytes;
    r.unique_bytes = g.unique_bytes;
    r.transferred_bytes = g.transferred_bytes;
    r.efficiency = g.efficiency;
    r.wavefronts = s.wavefronts;
    r.ideal_wavefronts = s.ideal_wavefronts;
    r.ways = s.ways;
    r.conflicts = s.conflicts;
    r.broadcast = s.broadcast;
    *out = r;
    return 0;
}

int sb_prediction_format(const sb_prediction *p, char *buf, size_t n)
{
    if (p == NULL || (buf == NULL && n > 0))
        return -1;
    if (p->space == SB_SPACE_GLOBAL)
        return snprintf(buf, n, "%d sector%s/req, %.1f%% used", p->sectors,
                        p->sectors == 1 ? "" : "s", 100.0 * p->efficiency);
    if (p->space != SB_SPACE_SHARED)
        return -1;
    const char *wf = p->wavefronts == 1 ? "wavefront" : "wavefronts";
    if (p->ways <= 1)
        return snprintf(buf, n, "%s, %d %s", p->broadcast ? "broadcast" : "no conflict",
                        p->wavefronts, wf);
    return snprintf(buf, n, "%d-way, %d %s", p->ways, p->wavefronts, wf);
}

#define FIELD(m, t, what) {#m, t, offsetof(sb_prediction, m), what}
static const sb_prediction_field fields[] = {
    FIELD(space, SB_FIELD_INT, "0 = global, 1 = shared: which cost the experiment measures"),
    FIELD(word_bytes, SB_FIELD_INT, "bytes per lane"),
    FIELD(lanes, SB_FIELD_INT, "lanes taking part (32 but in a tail or an edge)"),
    FIELD(sectors, SB_FIELD_INT, "global: distinct 32-byte sectors per request"),
    FIELD(segments, SB_FIELD_INT, "global: distinct 128-byte lines per request"),
    FIELD(requested_bytes, SB_FIELD_INT, "global: lanes x word bytes"),
    FIELD(unique_bytes, SB_FIELD_INT, "global: distinct bytes used"),
    FIELD(transferred_bytes, SB_FIELD_INT, "global: sectors x 32 bytes"),
    FIELD(efficiency, SB_FIELD_DOUBLE, "global: unique / transferred bytes (0..1)"),
    FIELD(wavefronts, SB_FIELD_INT, "shared: serialised passes per request"),
    FIELD(ideal_wavefronts, SB_FIELD_INT, "shared: minimum passes for the word size"),
    FIELD(ways, SB_FIELD_INT, "shared: bank-conflict degree (worst phase)"),
    FIELD(conflicts, SB_FIELD_INT, "shared: wavefronts beyond the ideal"),
    FIELD(broadcast, SB_FIELD_INT, "shared: 1 when every lane taking part reads one address"),
};
#undef FIELD

const sb_prediction_field *sb_prediction_field_at(size_t i)
{
    return i < sizeof fields / sizeof fields[0] ? &fields[i] : NULL;
}

double sb_prediction_value(const sb_prediction *p, const sb_prediction_field *f)
{
    if (p == NULL || f == NULL)
        return 0.0;
    const char *base = (const char *)p + f->offset;
    if (f->type == SB_FIELD_DOUBLE)
        return *(const double *)(const void *)base;
    return (double)*(const int *)(const void *)base;
}

const char *sb_access_kind_name(sb_access_kind k)
{
    switch (k) {
    case SB_ACCESS_LOAD: return "load";
    case SB_ACCESS_STORE: return "store";
    case SB_ACCESS_ATOMIC: return "atomic";
    }
    return NULL;
}

/* Where one access's figures go in the totals: its space's counts of its kind. */
typedef struct totals_slot {
    double *requests, *units, *conflicts; /* units: sectors or wavefronts */
} totals_slot;

static totals_slot slot_of(sb_access_totals *t, sb_space space, sb_access_kind kind)
{
    totals_slot s = {NULL, NULL, NULL};
    if (space == SB_SPACE_GLOBAL && kind == SB_ACCESS_LOAD)
        s = (totals_slot){&t->global_ld_requests, &t->global_ld_sectors, NULL};
    else if (space == SB_SPACE_GLOBAL && kind == SB_ACCESS_STORE)
        s = (totals_slot){&t->global_st_requests, &t->global_st_sectors, NULL};
    else if (space == SB_SPACE_GLOBAL)
        s = (totals_slot){&t->global_atom_requests, &t->global_atom_sectors, NULL};
    else if (kind == SB_ACCESS_LOAD)
        s = (totals_slot){&t->shared_ld_requests, &t->shared_ld_wavefronts,
                          &t->shared_ld_conflicts};
    else if (kind == SB_ACCESS_STORE)
        s = (totals_slot){&t->shared_st_requests, &t->shared_st_wavefronts,
                          &t->shared_st_conflicts};
    else
        s = (totals_slot){&t->shared_atom_requests, &t->shared_atom_wavefronts,
                          &t->shared_atom_conflicts};
    return s;
}

static double per_request(double units, double requests)
{
    return requests > 0 ? units / requests : 0.0;
}

void sb_access_totals_ratios(sb_access_totals *t)
{
    t->global_ld_sectors_per_request = per_request(t->global_ld_sectors, t->global_ld_requests);
    t->global_st_sectors_per_request = per_request(t->global_st_sectors, t->global_st_requests);
    t->shared_ld_wavefronts_per_request =
        per_request(t->shared_ld_wavefronts, t->shared_ld_requests);
    t->shared_st_wavefronts_per_request =
        per_request(t->shared_st_wavefronts, t->shared_st_requests);
}

int sb_access_totals_of(const sb_pattern *p, const double *requests, const sb_access_kind *kind,
                        int n, sb_access_totals *out)
{
    if (out == NULL || n < 0 || (n > 0 && (p == NULL || requests == NULL || kind == NULL)))
        return -1;
    sb_access_totals t = {0};
    for (int i = 0; i < n; i++) {
        sb_prediction pred;
        /* !(x >= 0) so that a NaN is refused too; 2^53 keeps counts exact. */
        if (sb_access_kind_name(kind[i]) == NULL || !(requests[i] >= 0) ||
            requests[i] > 9007199254740992.0 || sb_predict(&p[i], &pred) != 0)
            return -1;
        totals_slot s = slot_of(&t, p[i].space, kind[i]);
        *s.requests += requests[i];
        if (p[i].space == SB_SPACE_GLOBAL) {
            *s.units += requests[i] * pred.sectors;
        } else {
            *s.units += requests[i] * pred.wavefronts;
            *s.conflicts += requests[i] * pred.conflicts;
        }
    }
    sb_access_totals_ratios(&t);
    *out = t;
    return 0;
}

#define TOTAL(m, ratio, counter, what) {#m, offsetof(sb_access_totals, m), ratio, counter, what}
static const sb_access_totals_field totals_fields[] = {
    TOTAL(global_ld_requests, 0, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          "global loads: warp-level requests per launch"),
    TOTAL(global_ld_sectors, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "global loads: 32-byte sectors per launch"),
    TOTAL(global_st_requests, 0, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
          "global stores: warp-level requests per launch"),
    TOTAL(global_st_sectors, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
          "global stores: 32-byte sectors per launch"),
    TOTAL(global_atom_requests, 0, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
          "global atomics and reductions: warp-level requests per launch"),
    TOTAL(global_atom_sectors, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
          "global atomics and reductions: 32-byte sectors per launch"),
    TOTAL(shared_ld_requests, 0, "smsp__sass_inst_executed_op_shared_ld.sum",
          "shared loads: warp-level instructions per launch"),
    TOTAL(shared_ld_wavefronts, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "shared loads: wavefronts per launch"),
    TOTAL(shared_ld_conflicts, 0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "shared loads: wavefronts beyond the ideal (bank conflicts) per launch"),
    TOTAL(shared_st_requests, 0, "smsp__sass_inst_executed_op_shared_st.sum",
          "shared stores: warp-level instructions per launch"),
    TOTAL(shared_st_wavefronts, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "shared stores: wavefronts per launch"),
    TOTAL(shared_st_conflicts, 0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
          "shared stores: wavefronts beyond the ideal (bank conflicts) per launch"),
    TOTAL(shared_atom_requests, 0, "smsp__sass_inst_executed_op_shared_atom.sum",
          "shared atomics: warp-level instructions per launch"),
    TOTAL(shared_atom_wavefronts, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
          "shared atomics: wavefronts per launch"),
    TOTAL(shared_atom_conflicts, 0, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
          "shared atomics: wavefronts beyond the ideal per launch"),
    TOTAL(global_ld_sectors_per_request, 1, NULL, "global loads: sectors per request"),
    TOTAL(global_st_sectors_per_request, 1, NULL, "global stores: sectors per request"),
    TOTAL(shared_ld_wavefronts_per_request, 1, NULL, "shared loads: wavefronts per request"),
    TOTAL(shared_st_wavefronts_per_request, 1, NULL, "shared stores: wavefronts per request"),
};
#undef TOTAL

const sb_access_totals_field *sb_access_totals_field_at(size_t i)
{
    return i < sizeof totals_fields / sizeof totals_fields[0] ? &totals_fields[i] : NULL;
}

const sb_access_totals_field *sb_access_totals_field_named(const char *name)
{
    for (size_t i = 0; name && i < sizeof totals_fields / sizeof totals_fields[0]; i++)
        if (strcmp(totals_fields[i].name, name) == 0)
            return &totals_fields[i];
    return NULL;
}

double sb_access_totals_value(const sb_access_totals *t, const sb_access_totals_field *f)
{
    if (t == NULL || f == NULL)
        return 0.0;
    return *(const double *)(const void *)((const char *)t + f->offset);
}

#if defined(__GNUC__)
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_PRINTF(f, a)
#endif

/* Appends to buf at *pos like snprintf, keeping *pos the would-be length. */
static void append(char *buf, size_t n, size_t *pos, const char *fmt, ...) SB_PRINTF(4, 5);

static void append(char *buf, size_t n, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*pos < n ? buf + *pos : NULL, *pos < n ? n - *pos : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *pos += (size_t)k;
}

/* ", first 7 lanes" or ", lanes 0x0000ff0f" where not every lane takes part. */
static void describe_active(const sb_pattern *p, char *buf, size_t n, size_t *pos)
{
    int lanes = active_lanes(p);
    if (lanes == SB_WARP_LANES)
        return;
    if (p->active == (1u << lanes) - 1u)
        append(buf, n, pos, ", first %d lane%s", lanes, lanes == 1 ? "" : "s");
    else
        append(buf, n, pos, ", lanes 0x%08x", (unsigned)p->active);
}

int sb_pattern_describe(const sb_pattern *p, char *buf, size_t n)
{
    if (sb_pattern_check(p) != NULL || (buf == NULL && n > 0))
        return -1;
    size_t pos = 0;
    if (n > 0)
        buf[0] = '\0';
    append(buf, n, &pos, "%s, %d-byte words", sb_space_name(p->space), p->word_bytes);
    if (p->walk == SB_WALK_LIST) {
        append(buf, n, &pos, ", lane indices");
        for (int l = 0; l < SB_WARP_LANES; l++)
            append(buf, n, &pos, "%s%d", l ? "," : " ", (int)p->lane_index[l]);
    } else if (p->walk != SB_WALK_NONE) {
        append(buf, n, &pos, ", tile[%d][%d]", p->tile_rows, p->tile_cols + p->pad);
        if (p->pad)
            append(buf, n, &pos, " (%d columns + pad %d)", p->tile_cols, p->pad);
        if (p->swizzle)
            append(buf, n, &pos, ", xor swizzle");
        append(buf, n, &pos, ", %s walk at %s %d", sb_walk_name(p->walk),
               p->walk == SB_WALK_ROW ? "row" : "column", p->walk_index);
    } else if (p->spread) {
        append(buf, n, &pos, ", one 128-byte segment per lane");
    } else if (p->stride == 0) {
        append(buf, n, &pos, ", broadcast (stride 0)");
    } else {
        append(buf, n, &pos, ", stride %ld", p->stride);
    }
    if (p->offset)
        append(buf, n, &pos, ", offset %ld", p->offset);
    if (p->perm == SB_PERM_REVERSE)
        append(buf, n, &pos, ", reversed lanes");
    else if (p->perm == SB_PERM_XOR)
        append(buf, n, &pos, ", lanes xor %u", p->perm_arg);
    else if (p->perm == SB_PERM_RANDOM)
        append(buf, n, &pos, ", random lanes (seed %u)", p->perm_arg);
    if (p->same > 1)
        append(buf, n, &pos, ", %d lanes per address", p->same);
    describe_active(p, buf, n, &pos);
    return pos > (size_t)INT32_MAX ? -1 : (int)pos;
}

int sb_access_totals_format(const sb_access_totals *t, char *buf, size_t n)
{
    if (t == NULL || (buf == NULL && n > 0))
        return -1;
    size_t pos = 0;
    if (n > 0)
        buf[0] = '\0';
    const char *sep = "";
    if (t->global_ld_requests > 0 || t->global_st_requests > 0) {
        append(buf, n, &pos, "global");
        if (t->global_ld_requests > 0)
            append(buf, n, &pos, " ld %.2f sectors/req", t->global_ld_sectors_per_request);
        if (t->global_st_requests > 0)
            append(buf, n, &pos, "%s st %.2f%s", t->global_ld_requests > 0 ? "," : "",
                   t->global_st_sectors_per_request,
                   t->global_ld_requests > 0 ? "" : " sectors/req");
        sep = "; ";
    }
    if (t->shared_ld_requests > 0 || t->shared_st_requests > 0) {
        append(buf, n, &pos, "%sshared", sep);
        if (t->shared_ld_requests > 0)
            append(buf, n, &pos, " ld %.2f wavefronts/req", t->shared_ld_wavefronts_per_request);
        if (t->shared_st_requests > 0)
            append(buf, n, &pos, "%s st %.2f%s", t->shared_ld_requests > 0 ? "," : "",
                   t->shared_st_wavefronts_per_request,
                   t->shared_ld_requests > 0 ? "" : " wavefronts/req");
    }
    return pos > (size_t)INT32_MAX ? -1 : (int)pos;
}
