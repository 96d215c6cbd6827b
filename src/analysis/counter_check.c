#include "analysis/counter_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure the counters judge: a count of requests, or a cost per request
 * (the counted cost is the counter's count over the requests counted). */
typedef struct judged {
    const char *key, *what, *short_what;
    int count;              /* the counter of the count (or of the cost's numerator) */
    int per;                /* the counter of the requests a cost is per; -1 for a count */
    size_t model;           /* offsetof the model's figure in sb_access_totals */
} judged;

#define AT(m) offsetof(sb_access_totals, m)
static const judged judged_figures[] = {
    {"global_ld_requests", "global ld requests", "ld", SB_COUNTER_GLOBAL_LD_REQUESTS, -1,
     AT(global_ld_requests)},
    {"global_st_requests", "global st requests", "st", SB_COUNTER_GLOBAL_ST_REQUESTS, -1,
     AT(global_st_requests)},
    {"global_atom_requests", "global atomic requests", "atom", SB_COUNTER_GLOBAL_ATOM_REQUESTS,
     -1, AT(global_atom_requests)},
    {"shared_ld_requests", "shared ld requests", "shared ld", SB_COUNTER_SHARED_LD_REQUESTS, -1,
     AT(shared_ld_requests)},
    {"shared_st_requests", "shared st requests", "shared st", SB_COUNTER_SHARED_ST_REQUESTS, -1,
     AT(shared_st_requests)},
    {"global_ld_sectors_per_request", "global ld sectors/request", "ld",
     SB_COUNTER_GLOBAL_LD_SECTORS, SB_COUNTER_GLOBAL_LD_REQUESTS,
     AT(global_ld_sectors_per_request)},
    {"global_st_sectors_per_request", "global st sectors/request", "st",
     SB_COUNTER_GLOBAL_ST_SECTORS, SB_COUNTER_GLOBAL_ST_REQUESTS,
     AT(global_st_sectors_per_request)},
    {"shared_ld_wavefronts_per_request", "shared ld wavefronts/request", "shared ld",
     SB_COUNTER_SHARED_LD_WAVEFRONTS, SB_COUNTER_SHARED_LD_REQUESTS,
     AT(shared_ld_wavefronts_per_request)},
    {"shared_st_wavefronts_per_request", "shared st wavefronts/request", "shared st",
     SB_COUNTER_SHARED_ST_WAVEFRONTS, SB_COUNTER_SHARED_ST_REQUESTS,
     AT(shared_st_wavefronts_per_request)},
};
#undef AT
#define NJUDGED (sizeof judged_figures / sizeof judged_figures[0])

static double model_of(const sb_result *r, const judged *j)
{
    double v;
    memcpy(&v, (const char *)&r->totals + j->model, sizeof v);
    return v;
}

static int within(double counted, double model)
{
    if (model == 0)
        return counted == 0;
    return fabs(counted / model - 1.0) <= SB_COUNTER_TOLERANCE;
}

/* Why a count of requests is not the model's: more requests than declared
 * is an access the model is not told of; fewer, one the kernel does not
 * make as often as declared.  A cost per request that differs with the
 * requests as declared: the addresses are not the pattern's. */
const char *sb_counter_item_named_reason(const sb_counter_item *it)
{
    if (!it->matches && it->per_request && it->counted > it->model &&
        strstr(it->key, "wavefronts"))
        return "arbitration";
    return NULL;
}

void sb_counter_item_reason(const sb_counter_item *it, char *buf, size_t n)
{
    if (it->matches)
        snprintf(buf, n, "%s", "");
    else if (sb_counter_item_named_reason(it))
        /* Past one wave of blocks, a block's shared accesses meet the
           conflicting ones of blocks in another phase on the same
           multiprocessor, and the wavefront counter counts that
           arbitration as well (RESULTS.md, runs 26-28). */
        snprintf(buf, n, "more passes than the declared addresses need: bank conflicts, or "
                         "arbitration with other blocks' conflicting accesses on the multiprocessor");
    else if (it->per_request)
        snprintf(buf, n, "the requests touch %s than the declared pattern's addresses give",
                 it->counted > it->model ? "more" : "less");
    else if (it->counted > it->model)
        snprintf(buf, n, "%.0f %s more than declared: an access the model is not told of",
                 it->counted - it->model, it->what);
    else
        snprintf(buf, n, "%.0f %s fewer than declared: a declared access made less often",
                 it->model - it->counted, it->what);
}

/* The figure j of r into item; 0 where neither side has it. */
static int judge(const sb_result *r, const judged *j, sb_counter_item *item)
{
    double model = model_of(r, j), top = r->counts[j->count];
    if (!isfinite(top))
        return 0;
    double counted = top;
    if (j->per >= 0) {
        double per = r->counts[j->per];
        if (!isfinite(per) || per <= 0 || model <= 0)
            return 0; /* no requests on one side: the count says so */
        counted = top / per;
    } else if (model == 0 && counted == 0) {
        return 0;
    }
    memset(item, 0, sizeof *item);
    item->key = j->key;
    item->what = j->what;
    item->model = model;
    item->counted = counted;
    item->matches = within(counted, model);
    item->per_request = j->per >= 0;
    return 1;
}

void sb_counter_check_of(const sb_result *r, sb_counter_check *out)
{
    memset(out, 0, sizeof *out);
    if (!r->counted) {
        out->none = r->counters_note[0] ? r->counters_note : NULL;
        return;
    }
    out->declared_intensity = r->intensity;
    double rd = r->counts[SB_COUNTER_DRAM_READ_BYTES], wr = r->counts[SB_COUNTER_DRAM_WRITE_BYTES];
    if (isfinite(rd) && isfinite(wr))
        out->dram_bytes = rd + wr;
    if (r->flops > 0 && out->dram_bytes > 0)
        out->counted_intensity = r->flops / out->dram_bytes;
    if (!r->has_totals)
        return;
    for (size_t k = 0; k < NJUDGED && out->nitems < SB_COUNTER_CHECK_ITEMS; k++) {
        sb_counter_item *item = &out->item[out->nitems];
        if (judge(r, &judged_figures[k], item)) {
            out->nitems++;
            out->ndiffer += !item->matches;
        }
    }
    if (out->nitems)
        out->verdict = out->ndiffer ? SB_COUNTER_DIFFERS : SB_COUNTER_MATCHES;
}

const char *sb_counter_verdict_name(sb_counter_verdict v)
{
    return v == SB_COUNTER_MATCHES ? "matches" : v == SB_COUNTER_DIFFERS ? "differs" : "";
}

/* The short name of the item's figure, for the costs' list. */
static const judged *judged_of(const sb_counter_item *item)
{
    for (size_t k = 0; k < NJUDGED; k++)
        if (judged_figures[k].key == item->key)
            return &judged_figures[k];
    return NULL;
}

void sb_counter_check_text(const sb_counter_check *c, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (used < n) {                                                                            \
            int w_ = snprintf(buf + used, n - used, __VA_ARGS__);                                  \
            used += w_ > 0 ? (size_t)w_ : 0;                                                       \
        }                                                                                          \
    } while (0)
    if (c->none) {
        ADD("counted: none: %s", c->none);
        return;
    }
    if (c->counted_intensity > 0) {
        ADD("counted: %.3g FLOP per DRAM byte (the row's own: %.3g)%s", c->counted_intensity,
            c->declared_intensity, c->verdict == SB_COUNTER_NONE ? "" : "; ");
        if (c->verdict == SB_COUNTER_NONE)
            return;
    }
    if (c->verdict == SB_COUNTER_NONE)
        return;
    ADD("%s", c->counted_intensity > 0 ? "" : "counted:");
    int costs = 0, counts_ok = 1;
    for (int i = 0; i < c->nitems; i++) {
        const sb_counter_item *it = &c->item[i];
        const judged *j = judged_of(it);
        if (!j || j->per < 0) {
            counts_ok &= it->matches;
            continue;
        }
        ADD("%s %s %.2f %s (model %.2f)", costs++ ? "," : "", j->short_what, it->counted,
            j->count == SB_COUNTER_GLOBAL_LD_SECTORS || j->count == SB_COUNTER_GLOBAL_ST_SECTORS
                ? "sectors/req"
                : "wavefronts/req",
            it->model);
    }
    ADD("%s requests%s", costs ? ";" : "", counts_ok ? " as declared" : ":");
    for (int i = 0, k = 0; i < c->nitems && !counts_ok; i++) {
        const sb_counter_item *it = &c->item[i];
        const judged *j = judged_of(it);
        if (j && j->per < 0)
            ADD("%s %s %.0f (model %.0f)", k++ ? "," : "", j->short_what, it->counted, it->model);
    }
    if (c->ndiffer == 0) {
        ADD("; matches within %.0f%%", 100 * SB_COUNTER_TOLERANCE);
        return;
    }
    for (int i = 0; i < c->nitems; i++) {
        const sb_counter_item *it = &c->item[i];
        char reason[200];
        sb_counter_item_reason(it, reason, sizeof reason);
        if (!it->matches)
            ADD("; %s differs by %+.1f%%: %s", it->what,
                it->model ? 100.0 * (it->counted / it->model - 1.0) : 100.0, reason);
    }
#undef ADD
}
