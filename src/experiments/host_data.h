/* Host-side data: reproducible random inputs, the poison that marks
 * outputs nothing has written yet, and the parallel search for the first
 * mismatch that every experiment's check uses.  All of it runs on every
 * core through OpenMP where the build has it, with results that do not
 * depend on the number of threads. */
#ifndef SB_HOST_DATA_H
#define SB_HOST_DATA_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* A bit pattern no kernel produces from simtbench's inputs (a quiet NaN). */
#define SB_POISON_WORD 0x7fc0deadu

/* Fill n floats with values uniform in [-1, 1) from seed (xorshift64*).
 * The values are those of one serial stream whatever the thread count. */
void sb_random_floats(float *out, size_t n, uint64_t seed);

/* Fill n 32-bit words with random bits from seed, the same way. */
void sb_random_words(uint32_t *out, size_t n, uint64_t seed);

/* Fill bytes with the poison word. */
void sb_poison(void *out, size_t bytes);

/* The parallel first-mismatch search.  A check visits items (elements,
 * rows, tiles) and gives every element it compares a key: its place in the
 * order the serial check walks, so that the first mismatch a serial check
 * would report is the one with the smallest key (for a check in index
 * order the key is the index itself).  scan(ctx, begin, end) checks items
 * [begin, end) and returns the smallest key of a mismatch among them, or
 * SB_NO_MISMATCH; it must write nothing shared.  sb_first_mismatch scans
 * [0, items) in chunks of `grain` items on every thread and returns the
 * smallest key of all, or SB_NO_MISMATCH: the same answer with any number
 * of threads.  The caller then describes that one element, serially. */
#define SB_NO_MISMATCH LONG_MAX
typedef long (*sb_scan_fn)(const void *ctx, long begin, long end);
long sb_first_mismatch(long items, long grain, sb_scan_fn scan, const void *ctx);

/* The first i in [0, n) where got[i] != want[i], searched in parallel;
 * SB_NO_MISMATCH if none. */
long sb_first_word_mismatch(const uint32_t *got, const uint32_t *want, long n);

/* The first i in [0, n) where got[i] != pattern[i % period]: an output that
 * repeats one block's worth of words; SB_NO_MISMATCH if none. */
long sb_first_periodic_mismatch(const uint32_t *got, const uint32_t *pattern, long period,
                                long n);

/* Items per chunk for a scan of single elements: enough work per chunk to
   pay for handing it out, and chunks enough to balance the threads. */
#define SB_SCAN_GRAIN (1L << 16)

/* malloc that zeroes nothing but reports failure in err; NULL on failure. */
void *sb_host_alloc(size_t bytes, char *err, size_t n);

/* Bytes sb_host_alloc has handed out so far in this process, freed or not
 * (a running sum): the difference around a call is what it allocated. */
size_t sb_host_allocated(void);

#endif
