/* Host-side data: reproducible random inputs and the poison that marks
 * outputs nothing has written yet, made on every core through OpenMP where
 * the build has it, with results that do not depend on the number of
 * threads. */
#ifndef SB_HOST_DATA_H
#define SB_HOST_DATA_H

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

/* malloc that zeroes nothing but reports failure in err; NULL on failure. */
void *sb_host_alloc(size_t bytes, char *err, size_t n);

#endif
