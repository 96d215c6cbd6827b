/* What the burst and channel experiments share: one buffer of random
 * words many times the L2, gathered chunk by chunk into a dense copy by
 * chunk_gather (common/kernels/dram.cl), in place, at random or at a
 * power-of-two distance; the plan of one such gather, its declared accesses
 * and the check of its output. */
#ifndef SB_DRAM_GATHER_H
#define SB_DRAM_GATHER_H

#include <stdint.h>

#include "experiments/experiment.h"

#define SB_GATHER_WORD 16 /* bytes a thread moves: one uint4 */
#define SB_GATHER_BLOCK 256

/* How a gather places its chunks (the kernel's `order`). */
typedef enum sb_gather_order {
    SB_GATHER_IN_PLACE,
    SB_GATHER_RANDOM,
    SB_GATHER_DISTANCE
} sb_gather_order;

/* One gather: chunks of chunk_bytes (a power of two, 16 or more), placed
 * by order; distance_bytes is SB_GATHER_DISTANCE's (a power of two, at
 * least chunk_bytes). */
typedef struct sb_gather {
    sb_gather_order order;
    long chunk_bytes;
    long distance_bytes;
} sb_gather;

/* The host's data: the buffer as uploaded (the size's bytes, so that what
 * a run holds grows with the size as the preflight reckons), the part of
 * it the gathers move (its largest power of two of bytes) and the seed of
 * the random placement. */
typedef struct sb_gather_host {
    long bytes, region;
    uint32_t *in;
    uint32_t seed;
} sb_gather_host;

/* Default size, in 4-byte words: on a GPU 1 GiB, or four L2 sizes where
 * the L2 is larger, within the device's memory; on a CPU 2 MiB. */
void sb_gather_default_size(const sb_device_info *dev, sb_problem *p);

/* Random words for the size; 0, or -1 with err (a size under 32 KiB). */
int sb_gather_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n);

void sb_gather_release(void *host);

/* The plan of gather g over the host's buffer: 0; SB_PLAN_LEFT_OUT with
 * err when the buffer holds fewer than two chunks, or two rows at the
 * distance; -1 for a gather that is not one. */
int sb_gather_plan(const sb_gather_host *h, const sb_gather *g, const sb_variant *v,
                   sb_plan *plan, char *err, size_t n);

/* The slot chunk k is read from among 2^lchunks (what the kernel computes). */
uint32_t sb_gather_slot(const sb_gather *g, uint32_t k, int lchunks, uint32_t seed);

/* Whether out is the gather of the host's region, with the rest of it
 * untouched (poison): 0, or -1 with the first wrong word in err. */
int sb_gather_verify(const sb_gather_host *h, const sb_gather *g, const uint32_t *out, char *err,
                     size_t n);

#endif
