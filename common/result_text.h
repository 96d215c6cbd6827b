/* A result's size and a bins sweep's variant name in words: what the
 * lessons (analysis) and every writer say of a row alike, so it sits
 * below both. */
#ifndef SB_RESULT_TEXT_H
#define SB_RESULT_TEXT_H

#include <stddef.h>

#include "result.h"

/* The result's size in the units its size kind counts: "8192 x 8192
 * floats", "67 108 864 elements", "16 777 216 4-byte words", "2 162 688
 * threads", "4096 threads, 64 words each"; "ROWSxCOLS" where the kind is
 * not known.  Numbers of five digits or more are grouped in thousands with
 * spaces. */
void sb_result_size_text(const sb_result *r, char *buf, size_t n);

/* A variant of a sweep over bin counts, named METHOD-bBINS-DIST
 * ("shared_coarse-b4096-skewed", the histogram's): 0 with its method, bin
 * count and distribution, each cut to its buffer; -1 for another name. */
int sb_bins_variant(const char *variant, char *method, size_t mn, long *bins, char *dist,
                    size_t dn);

#endif
