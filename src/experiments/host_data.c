#include "experiments/host_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Work below this many elements stays on the calling thread: waking the
   team costs more than it saves. */
#define PARALLEL_MIN (1L << 15)

/* ------------------------------------------------------------ xorshift64* */

/* One step of the state: three shift-and-XORs, a linear map over GF(2). */
static uint64_t step(uint64_t x)
{
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x;
}

static uint64_t next(uint64_t *s)
{
    *s = step(*s);
    return *s * 0x2545F4914F6CDD1DULL;
}

static uint64_t start(uint64_t seed)
{
    /* xorshift must not start at zero. */
    return seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
}

/* A linear map on 64-bit states over GF(2), by the images of single bits. */
typedef struct gf2_map {
    uint64_t col[64];
} gf2_map;

static uint64_t map_apply(const gf2_map *m, uint64_t x)
{
    uint64_t y = 0;
    for (int b = 0; x; b++, x >>= 1)
        if (x & 1)
            y ^= m->col[b];
    return y;
}

/* Jumping ahead in the stream: the step map's powers of two, enough of
 * them for jumps below 2^nbits, so that a thread can start its share of a
 * fill where a serial fill would be by then. */
typedef struct jumps {
    int nbits;
    gf2_map pow2[64]; /* pow2[p]: 2^p steps */
} jumps;

static void jumps_init(jumps *j, uint64_t max_jump)
{
    j->nbits = 0;
    while (j->nbits < 64 && (max_jump >> j->nbits) != 0)
        j->nbits++;
    for (int b = 0; b < 64 && j->nbits > 0; b++)
        j->pow2[0].col[b] = step(1ULL << b);
    for (int p = 1; p < j->nbits; p++)
        for (int b = 0; b < 64; b++)
            j->pow2[p].col[b] = map_apply(&j->pow2[p - 1], j->pow2[p - 1].col[b]);
}

static uint64_t jump(const jumps *j, uint64_t s, uint64_t steps)
{
    for (int p = 0; p < j->nbits; p++)
        if (steps >> p & 1)
            s = map_apply(&j->pow2[p], s);
    return s;
}

/* Elements per chunk of a parallel fill; each chunk starts with a jump. */
#define FILL_CHUNK (1L << 16)

/* n values of one stream from seed: floats uniform in [-1, 1) or words. */
static void fill(void *out, size_t n, uint64_t seed, int as_floats)
{
    long nchunks = (long)((n + FILL_CHUNK - 1) / FILL_CHUNK);
    jumps j;
    if (nchunks > 1)
        jumps_init(&j, n);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (long c = 0; c < nchunks; c++) {
        size_t begin = (size_t)c * FILL_CHUNK;
        size_t end = n - begin > FILL_CHUNK ? begin + FILL_CHUNK : n;
        uint64_t s = c ? jump(&j, start(seed), begin) : start(seed);
        if (as_floats) {
            float *f = out;
            for (size_t i = begin; i < end; i++)
                f[i] = (float)((double)(next(&s) >> 40) / (double)(1u << 23) - 1.0);
        } else {
            uint32_t *w = out;
            for (size_t i = begin; i < end; i++)
                w[i] = (uint32_t)(next(&s) >> 32);
        }
    }
}

void sb_random_floats(float *out, size_t n, uint64_t seed)
{
    fill(out, n, seed, 1);
}

void sb_random_words(uint32_t *out, size_t n, uint64_t seed)
{
    fill(out, n, seed, 0);
}

void sb_poison(void *out, size_t bytes)
{
    const uint32_t w = SB_POISON_WORD;
    unsigned char *p = out;
    long words = (long)(bytes / 4);
#pragma omp parallel for schedule(static) if (words > PARALLEL_MIN)
    for (long i = 0; i < words; i++)
        memcpy(p + 4 * i, &w, 4);
    for (size_t i = (size_t)words * 4; i < bytes; i++)
        p[i] = 0xad;
}

/* ----------------------------------------------------- first mismatch */

long sb_first_mismatch(long items, long grain, sb_scan_fn scan, const void *ctx)
{
    if (grain < 1)
        grain = 1;
    long nchunks = items > 0 ? (items + grain - 1) / grain : 0;
    long first = SB_NO_MISMATCH;
    /* Dynamic: a chunk that fails stops early, and the others go on. */
#pragma omp parallel for schedule(dynamic) reduction(min : first) if (nchunks > 1)
    for (long c = 0; c < nchunks; c++) {
        long begin = c * grain, end = items - begin > grain ? begin + grain : items;
        long key = scan(ctx, begin, end);
        if (key < first)
            first = key;
    }
    return first;
}

/* got against a pattern of `period` words repeated; a plain comparison of
   two arrays is the pattern as long as the array. */
typedef struct word_scan {
    const uint32_t *got, *pattern;
    long period;
} word_scan;

static long scan_words(const void *ctx, long begin, long end)
{
    const word_scan *w = ctx;
    long p = begin % w->period;
    for (long i = begin; i < end; i++) {
        if (w->got[i] != w->pattern[p])
            return i;
        if (++p == w->period)
            p = 0;
    }
    return SB_NO_MISMATCH;
}

long sb_first_word_mismatch(const uint32_t *got, const uint32_t *want, long n)
{
    word_scan w = {got, want, n > 0 ? n : 1};
    return sb_first_mismatch(n, SB_SCAN_GRAIN, scan_words, &w);
}

long sb_first_periodic_mismatch(const uint32_t *got, const uint32_t *pattern, long period,
                                long n)
{
    word_scan w = {got, pattern, period};
    return sb_first_mismatch(n, SB_SCAN_GRAIN, scan_words, &w);
}

/* Bytes sb_host_alloc has handed out: the preflight reads it around an
   experiment's prepare (which runs on one thread) to learn what that
   allocates. */
static _Atomic size_t host_allocated; /* the next experiment's inputs are made on a thread */

void *sb_host_alloc(size_t bytes, char *err, size_t n)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        snprintf(err, n, "out of host memory (%.1f MiB)", bytes / 1048576.0);
    else
        host_allocated += bytes;
    return p;
}

size_t sb_host_allocated(void)
{
    return host_allocated;
}
