/* The channel experiment (seed 001, family dram): whether the address
 * mapping spreads requests over the channels.  Warps read 128-byte chunks
 * (one cache line each) whose neighbours in flight sit a power-of-two
 * distance apart, 256 B to 1 MiB, against the same chunks, every one of
 * the buffer's once, in a random order.  The seed's mapping fills a burst
 * of every channel before the next bank: with a plain interleave, chunks
 * a multiple of (channels x burst) apart all queue on one channel; a
 * mapping that hashes the address spreads them, and every distance runs
 * as fast as the random order.
 *
 * Variant random: the chunks at random (the baseline); d<D>: chunks D
 * bytes apart.  Size: the buffer in 4-byte words.  Verified word for
 * word against the host's gather. */
#include <stdio.h>
#include <stdlib.h>

#include "experiments/dram_gather.h"
#include "experiments/variant.h"

#define CHANNEL_CHUNK 128
#define MIN_DISTANCE 256
#define MAX_DISTANCE (1L << 20)

typedef struct channel_knobs {
    sb_gather gather;
} channel_knobs;
SB_KNOBS(channel_knobs)

/* "d256", "d4K", "d1M". */
static void distance_name(long bytes, char *buf, size_t n)
{
    if (bytes >= (1L << 20))
        snprintf(buf, n, "d%ldM", bytes >> 20);
    else if (bytes >= 1024)
        snprintf(buf, n, "d%ldK", bytes >> 10);
    else
        snprintf(buf, n, "d%ld", bytes);
}

static int channel_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[n], "random", "chunk_gather", SB_GATHER_BLOCK, 1, 1);
        channel_knobs k = {{SB_GATHER_RANDOM, CHANNEL_CHUNK, 0}};
        set_knobs(&out[n], &k);
        out[n++].baseline = 1;
    }
    for (long d = MIN_DISTANCE; d <= MAX_DISTANCE && n < max; d *= 2) {
        char name[16];
        distance_name(d, name, sizeof name);
        sb_variant_init(&out[n], name, "chunk_gather", SB_GATHER_BLOCK, 1, 1);
        channel_knobs k = {{SB_GATHER_DISTANCE, CHANNEL_CHUNK, d}};
        set_knobs(&out[n++], &k);
    }
    return n;
}

static int channel_plan(void *host, const sb_problem *p, const sb_variant *v,
                        const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    (void)p;
    (void)dev;
    channel_knobs k = knobs_of(v);
    int rc = sb_gather_plan(host, &k.gather, v, plan, err, n);
    if (rc == 0 && k.gather.order == SB_GATHER_DISTANCE)
        sb_figure_add(plan->figure, &plan->nfigures, "distance", (double)k.gather.distance_bytes,
                      "B");
    return rc;
}

static int channel_verify(void *host, const sb_problem *p, const sb_variant *v,
                          void *const *outputs, char *err, size_t n)
{
    (void)p;
    channel_knobs k = knobs_of(v);
    return sb_gather_verify(host, &k.gather, outputs[0], err, n);
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule dram_channels_lessons[] = {
    {.kind = SB_LESSON_CHANNELS, .against = "random"},
    {0},
};

const sb_experiment sb_exp_dram_channels = {
    .name = "dram_channels",
    .family = "dram",
    .source = "dram.cl",
    .summary = "128-byte chunks at power-of-two distances 256 B..1 MiB against the same chunks "
               "at random: do some strides camp on few channels? (family dram)",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_WORDS,
    .in_default = 0,
    .test_sizes = "512x1024",
    .variants = channel_variants,
    .default_size = sb_gather_default_size,
    .prepare = sb_gather_prepare,
    .release = sb_gather_release,
    .plan = channel_plan,
    .verify = channel_verify,
    .headline = {SB_HEADLINE_WORST_SHARE},
    .lessons = dram_channels_lessons,
};
