/* The closing summary of a run: what it found, in at most
 * SB_SUMMARY_LINES lines under the last block of every format.  Each
 * device's copy roof; one headline per family present, picked by the rule
 * the family's experiments declare (experiment.h's sb_headline: the best
 * share of the roof, the worst conflict and what removes it, ...); the
 * families measured without one; the cross-device verdict counts of each
 * pair of devices (crossapi.h); and what was not verified, not run or
 * interrupted.  Computed once by analysis (analysis.h), before any writer;
 * the writers only print its lines. */
#ifndef SB_SUMMARY_H
#define SB_SUMMARY_H

#include "result.h"
#include "analysis/counter_check.h"
#include "analysis/cross_pairs.h"
#include "analysis/noise.h"

/* The most lines a summary prints, its heading included. */
#define SB_SUMMARY_LINES 15

/* The most items it holds: one line each under the heading. */
#define SB_SUMMARY_MAX (SB_SUMMARY_LINES - 1)

/* The longest an item's text is made, so that it keeps to one line of 100
 * columns after the table's indent; a longer one (devices with long
 * labels) folds. */
#define SB_SUMMARY_WIDTH 96

#define SB_SUMMARY_BYTES 256

/* What an item is about. */
typedef enum sb_summary_topic {
    SB_SUMMARY_ROOF,     /* each device's copy roof */
    SB_SUMMARY_HEADLINE, /* one family's headline figure, from one of its experiments */
    SB_SUMMARY_OTHERS,   /* the families measured without a line of their own */
    SB_SUMMARY_VERDICTS, /* the verdict counts of a device against the reference */
    SB_SUMMARY_NOISE,    /* how many rows are noisy */
    SB_SUMMARY_CHECKS    /* verification, counters, backends not run, an interruption */
} sb_summary_topic;

typedef struct sb_summary_item {
    sb_summary_topic topic;
    char experiment[32]; /* SB_SUMMARY_HEADLINE: the experiment quoted; "" else */
    char text[SB_SUMMARY_BYTES];
} sb_summary_item;

/* The summary's items, in the order they are printed. */
typedef struct sb_summary {
    int n;
    sb_summary_item item[SB_SUMMARY_MAX];
} sb_summary;

/* The summary of run, from its pairing x, its counter checks (NULL where
 * none were asked for) and its rows' noise (NULL: not judged); 0, or -1
 * when out of host memory (out then holds no items). */
int sb_summary_of(const sb_run *run, const sb_crossapi *x, const sb_counter_check *checks,
                  const sb_noise *noise, sb_summary *out);

/* The topic as one word for data: "roof", "headline", "others",
 * "verdicts", "noise" or "checks". */
const char *sb_summary_topic_name(sb_summary_topic t);

#endif
