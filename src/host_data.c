#include "host_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static uint64_t start(uint64_t seed)
{
    /* xorshift must not start at zero. */
    return seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
}

void sb_random_floats(float *out, size_t n, uint64_t seed)
{
    uint64_t s = start(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = (float)((double)(next(&s) >> 40) / (double)(1u << 23) - 1.0);
}

void sb_random_words(uint32_t *out, size_t n, uint64_t seed)
{
    uint64_t s = start(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)(next(&s) >> 32);
}

void sb_poison(void *out, size_t bytes)
{
    uint32_t w = SB_POISON_WORD;
    unsigned char *p = out;
    size_t i = 0;
    for (; i + 4 <= bytes; i += 4)
        memcpy(p + i, &w, 4);
    for (; i < bytes; i++)
        p[i] = 0xad;
}

void *sb_host_alloc(size_t bytes, char *err, size_t n)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        snprintf(err, n, "out of host memory (%.1f MiB)", bytes / 1048576.0);
    return p;
}
