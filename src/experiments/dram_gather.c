#include "experiments/dram_gather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define GATHER_MIN_BYTES (32L << 10)
#define GATHER_GPU_BYTES (1L << 30)
#define GATHER_MAX_BYTES (4L << 30) /* 2^28 uint4s: the kernel's indices */
#define GATHER_CPU_BYTES (2L << 20)

/* The largest power of two not above v (v >= 1). */
static long floor_pow2(long v)
{
    long p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

static int log2_of(long pow2)
{
    int l = 0;
    while ((1L << l) < pow2)
        l++;
    return l;
}

void sb_gather_default_size(const sb_device_info *dev, sb_problem *p)
{
    long bytes = GATHER_CPU_BYTES;
    if (dev->is_gpu) {
        /* Many times the L2, so that a chunk read is a DRAM read. */
        bytes = GATHER_GPU_BYTES;
        while ((double)bytes < 4.0 * (double)dev->l2_bytes && bytes < GATHER_MAX_BYTES)
            bytes *= 2;
        /* The input and the gathered copy both stay on the device. */
        while (bytes > GATHER_MIN_BYTES &&
               ((dev->max_alloc_bytes && (uint64_t)bytes > dev->max_alloc_bytes) ||
                (dev->global_mem_bytes && (uint64_t)bytes > dev->global_mem_bytes / 4)))
            bytes /= 2;
    }
    p->rows = bytes / 4 / 4096;
    p->cols = 4096;
}

int sb_gather_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    double bytes = 4.0 * (double)p->rows * (double)p->cols;
    if (bytes < GATHER_MIN_BYTES) {
        snprintf(err, n, "a size of %ld words is under %ld KiB: give at least --size %ldx1",
                 p->rows * p->cols, GATHER_MIN_BYTES >> 10, GATHER_MIN_BYTES / 4);
        return -1;
    }
    sb_gather_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->bytes = (long)(bytes > GATHER_MAX_BYTES ? GATHER_MAX_BYTES : bytes) / SB_GATHER_WORD *
               SB_GATHER_WORD;
    h->region = floor_pow2(h->bytes);
    h->seed = (uint32_t)seed ^ 0x5bd1e995u;
    if (!(h->in = sb_host_alloc((size_t)h->bytes, err, n))) {
        free(h);
        return -1;
    }
    sb_random_words(h->in, (size_t)h->bytes / 4, seed);
    *host = h;
    return 0;
}

void sb_gather_release(void *host)
{
    sb_gather_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

uint32_t sb_gather_slot(const sb_gather *g, uint32_t k, int lchunks, uint32_t seed)
{
    if (g->order == SB_GATHER_RANDOM) {
        uint32_t mask = lchunks >= 32 ? 0xffffffffu : (1u << lchunks) - 1u;
        uint32_t shift = (uint32_t)(lchunks + 1) / 2u, s = (k ^ seed) & mask;
        s = (s * 0x9e3779b1u) & mask;
        s ^= s >> shift;
        s = (s * 0x85ebca6bu) & mask;
        return s ^ (s >> shift);
    }
    if (g->order == SB_GATHER_DISTANCE) {
        int ldist = log2_of(g->distance_bytes / g->chunk_bytes), lrows = lchunks - ldist;
        return ((k & ((1u << lrows) - 1u)) << ldist) + (k >> lrows);
    }
    return k;
}

/* One warp's first request, for the model: 16-byte lanes, a chunk's worth
 * of neighbouring lanes together and each chunk elsewhere (a row walk
 * whose rows are the chunks, `pitch` bytes apart); a plain dense access
 * where one chunk holds the whole warp. */
static sb_pattern gather_pattern(long chunk_bytes, long pitch_bytes)
{
    sb_pattern p = sb_pattern_default();
    p.space = SB_SPACE_GLOBAL;
    p.word_bytes = SB_GATHER_WORD;
    long lanes = chunk_bytes / SB_GATHER_WORD;
    if (lanes >= SB_WARP_LANES)
        return p;
    p.walk = SB_WALK_ROW;
    p.tile_cols = (int)lanes;
    p.tile_rows = SB_WARP_LANES / (int)lanes;
    p.pad = (int)(pitch_bytes / SB_GATHER_WORD - lanes);
    return p;
}

/* The kernel's arguments and grid for a gather of 2^lchunks chunks of
   2^lcw words. */
static void gather_launch(const sb_gather_host *h, const sb_gather *g, const sb_variant *v,
                          int lcw, int lchunks, sb_plan *plan)
{
    plan->nbuffers = 2;
    plan->buffer[0].bytes = (size_t)h->bytes;
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = (size_t)h->bytes;
    plan->buffer[1].init = NULL;
    const int32_t ints[] = {lcw, lchunks, (int32_t)g->order,
                            g->order == SB_GATHER_DISTANCE
                                ? log2_of(g->distance_bytes / g->chunk_bytes)
                                : 0,
                            (int32_t)h->seed};
    plan->nargs = 7;
    for (int i = 0; i < 5; i++) {
        plan->arg[i].kind = SB_PLAN_INT;
        plan->arg[i].i = ints[i];
    }
    for (int i = 0; i < 2; i++) {
        plan->arg[5 + i].kind = SB_PLAN_BUFFER;
        plan->arg[5 + i].buffer = i;
    }
    sb_grid_2d(&plan->geometry, v, h->region / SB_GATHER_WORD, 1, SB_GATHER_BLOCK, 1);
    plan->bytes = 2.0 * (double)h->region;
}

/* Every access of chunk_gather, per launch: one thread per 16-byte word
 * of the region (a power of two of 32 KiB or more: whole warps, no thread
 * past the end), each loading its word of a chunk and storing it in
 * place in the dense copy; the slot is computed, no table is read.  Every
 * warp's load costs the first one's: its chunks are distinct slots, each
 * a whole number of sectors (every variant's chunk is 32 bytes or more),
 * or a 512-byte piece of a chunk that holds the warp. */
static void gather_declare(sb_plan *plan, const sb_gather_host *h, sb_pattern chunks)
{
    long words = h->region / SB_GATHER_WORD;
    sb_plan_declare_walk(plan, &(sb_access){"chunks", SB_ACCESS_LOAD, chunks, 0, 1, 1}, words, 1);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE,
                                            sb_dense(SB_SPACE_GLOBAL, SB_GATHER_WORD), 0, 1, 0},
                         words, 1);
}

int sb_gather_plan(const sb_gather_host *h, const sb_gather *g, const sb_variant *v,
                   sb_plan *plan, char *err, size_t n)
{
    long chunk = g->chunk_bytes, span = g->order == SB_GATHER_DISTANCE ? g->distance_bytes : chunk;
    if (chunk < SB_GATHER_WORD || (chunk & (chunk - 1)) || span < chunk || (span & (span - 1))) {
        snprintf(err, n, "a gather of %ld-byte chunks %ld bytes apart is not one", chunk, span);
        return -1;
    }
    if (h->region / span < 2) {
        snprintf(err, n, "%s needs a buffer of %ld KiB or more: give --size %ldx1 or more",
                 v->name, 2 * span >> 10, 2 * span / 4);
        return SB_PLAN_LEFT_OUT;
    }
    gather_launch(h, g, v, log2_of(chunk / SB_GATHER_WORD), log2_of(h->region / chunk), plan);
    gather_declare(plan, h, gather_pattern(chunk, g->order == SB_GATHER_DISTANCE ? span : 1024));
    return 0;
}

typedef struct gather_scan {
    const sb_gather_host *h;
    const sb_gather *g;
    const uint32_t *out;
    long chunk_words;
    int lchunks;
} gather_scan;

/* Chunks [begin, end): the first wrong word's index in out. */
static long scan_chunks(const void *ctx, long begin, long end)
{
    const gather_scan *s = ctx;
    for (long k = begin; k < end; k++) {
        uint32_t slot = sb_gather_slot(s->g, (uint32_t)k, s->lchunks, s->h->seed);
        const uint32_t *want = s->h->in + (long)slot * s->chunk_words;
        const uint32_t *got = s->out + k * s->chunk_words;
        for (long w = 0; w < s->chunk_words; w++)
            if (got[w] != want[w])
                return k * s->chunk_words + w;
    }
    return SB_NO_MISMATCH;
}

int sb_gather_verify(const sb_gather_host *h, const sb_gather *g, const uint32_t *out, char *err,
                     size_t n)
{
    gather_scan s = {h, g, out, g->chunk_bytes / 4, log2_of(h->region / g->chunk_bytes)};
    long chunks = h->region / g->chunk_bytes;
    long grain = SB_SCAN_GRAIN / s.chunk_words > 0 ? SB_SCAN_GRAIN / s.chunk_words : 1;
    long i = sb_first_mismatch(chunks, grain, scan_chunks, &s);
    if (i == SB_NO_MISMATCH) {
        for (long w = h->region / 4; w < h->bytes / 4; w++)
            if (out[w] != SB_POISON_WORD) {
                snprintf(err, n, "out[%ld] = 0x%08x, past the %ld bytes gathered: nothing may "
                                 "write there", w, out[w], h->region);
                return -1;
            }
        return 0;
    }
    long k = i / s.chunk_words;
    uint32_t slot = sb_gather_slot(g, (uint32_t)k, s.lchunks, h->seed);
    long from = (long)slot * s.chunk_words + i % s.chunk_words;
    snprintf(err, n, "out[%ld] = 0x%08x, expected in[%ld] = 0x%08x (chunk %ld, from slot %u)%s", i,
             out[i], from, h->in[from], k, slot,
             out[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}
