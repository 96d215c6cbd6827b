/* The model held against the hardware's counts (--counters): for each
 * row with both, the figures the counters can judge side by side (the
 * requests of each kind, sectors and wavefronts per request), each with
 * its verdict, "matches" within SB_COUNTER_TOLERANCE or "differs by X%",
 * with the reason where the counts name one; and what only the counters
 * say (DRAM bytes, the intensity they give a FLOP-counting row). */
#ifndef SB_COUNTER_CHECK_H
#define SB_COUNTER_CHECK_H

#include <stddef.h>

#include "result.h"

/* How far a counted figure may be from the model's and still match. */
#define SB_COUNTER_TOLERANCE 0.02

#define SB_COUNTER_CHECK_ITEMS 10

typedef enum sb_counter_verdict {
    SB_COUNTER_NONE,    /* nothing to hold against the counts */
    SB_COUNTER_MATCHES, /* every figure within the tolerance */
    SB_COUNTER_DIFFERS  /* at least one beyond it */
} sb_counter_verdict;

/* One figure: what it is, the model's and the counters' value. */
typedef struct sb_counter_item {
    const char *key;  /* "global_ld_sectors_per_request", as in model_totals */
    const char *what; /* "global ld sectors/request", for people */
    double model, counted;
    int matches;      /* within the tolerance (both 0 counts as a match) */
    int per_request;  /* 1: a cost per request; 0: a count of requests */
} sb_counter_item;

typedef struct sb_counter_check {
    sb_counter_verdict verdict;
    int nitems, ndiffer;
    sb_counter_item item[SB_COUNTER_CHECK_ITEMS];
    double dram_bytes;         /* read plus written, counted; 0 where not */
    double counted_intensity;  /* FLOP per DRAM byte counted, for rows that count FLOP; 0 else */
    double declared_intensity; /* the row's own (the seed's): FLOP per byte it implies */
    const char *none;          /* counters asked for and none had: why (the record's note,
                                  which must outlive the check); NULL else */
} sb_counter_check;

/* The check of one record: SB_COUNTER_NONE where it has no counts or no
 * model totals (no request counts known). */
void sb_counter_check_of(const sb_result *r, sb_counter_check *out);

/* "counted: ld 26.40 sectors/req (model 26.40), st 4.00 sectors/req
 * (model 4.00); requests as declared; matches within 2%", or the figures
 * that differ and why; the intensity the counted DRAM bytes give a FLOP
 * row; "counted: none: WHY" where counters were asked for and none had;
 * "" with nothing to say. */
void sb_counter_check_text(const sb_counter_check *c, char *buf, size_t n);

/* Why the item differs, where the counts say (more requests than declared:
 * an access the model is not told of); "" for one that matches. */
void sb_counter_item_reason(const sb_counter_item *it, char *buf, size_t n);

/* The name of the measured reason the item differs by, one that no
 * address model can know and RESULTS.md documents ("arbitration": shared
 * wavefronts beyond the declared addresses', another block's conflicting
 * accesses on the multiprocessor); NULL for a match, or for a difference
 * the model should not have (its reason is only what the counts suggest). */
const char *sb_counter_item_named_reason(const sb_counter_item *it);

/* "matches", "differs" or "" (none). */
const char *sb_counter_verdict_name(sb_counter_verdict v);

#endif
