/* The words the compare writers share: a row's device, its verdict as a
 * word and as a phrase, and the rule the verdicts follow. */
#ifndef SB_COMPARE_WORDS_H
#define SB_COMPARE_WORDS_H

#include <stddef.h>

#include "analysis/compare.h"

/* The device slot label of r in run, else its backend's name. */
void sb_compare_label(const sb_run *run, const sb_result *r, char *buf, size_t n);

/* "same", "faster", "slower", "noisy", "n/a", "only in old" or "only in new". */
const char *sb_compare_kind_name(const sb_compare_match *m);

/* "faster by P%" and "slower by P%" give the median time's change, as
 * the change column does, so that the two never read as two figures;
 * "same (within M%)", "noisy (...)" or the kind's name otherwise. */
void sb_compare_verdict_text(const sb_compare_match *m, char *buf, size_t n);

/* The rule as printed with the table, the markdown and the JSON, with the
 * tolerance the threshold (a fraction) makes; it starts "a row is". */
void sb_compare_rule_text(double threshold, char *buf, size_t n);

#endif
