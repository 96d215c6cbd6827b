/* The burst experiment (seed 001, family dram): how large a contiguous
 * piece must be before DRAM delivers.  Warps read chunks of C bytes, C =
 * 32 B to 8 KiB, each from a random place in a buffer many times the L2,
 * into a dense copy; the same kernel in place is the sequential copy they
 * are held against.  The sector model sees every chunk of 32 bytes or more
 * used whole: whatever a small chunk loses against the sequential copy is
 * what the model does not see, the DRAM row and burst each chunk opens.
 *
 * Variant sequential: the chunks in place (the roof); c<C>: random chunks
 * of C bytes.  Size: the buffer in 4-byte words (its largest power of two
 * of bytes is used).  Verified word for word against the host's gather. */
#include <stdio.h>
#include <stdlib.h>

#include "dram.h"
#include "experiments/dram_gather.h"
#include "experiments/variant.h"

#define BURST_MIN_CHUNK 32
#define BURST_MAX_CHUNK 8192
#define SEQUENTIAL_CHUNK 512 /* any: in place, the chunks make one stream */

typedef struct burst_knobs {
    sb_gather gather;
} burst_knobs;
SB_KNOBS(burst_knobs)

/* "c32", "c1K", "c8K". */
static void chunk_name(long bytes, char *buf, size_t n)
{
    if (bytes >= 1024)
        snprintf(buf, n, "c%ldK", bytes / 1024);
    else
        snprintf(buf, n, "c%ld", bytes);
}

static int burst_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[n], "sequential", "chunk_gather", SB_GATHER_BLOCK, 1, 1);
        burst_knobs k = {{SB_GATHER_IN_PLACE, SEQUENTIAL_CHUNK, 0}};
        set_knobs(&out[n], &k);
        out[n].role = SB_ROLE_COPY_ROOF;
        out[n++].baseline = 1;
    }
    for (long c = BURST_MIN_CHUNK; c <= BURST_MAX_CHUNK && n < max; c *= 2) {
        char name[16];
        chunk_name(c, name, sizeof name);
        sb_variant_init(&out[n], name, "chunk_gather", SB_GATHER_BLOCK, 1, 1);
        burst_knobs k = {{SB_GATHER_RANDOM, c, 0}};
        set_knobs(&out[n++], &k);
    }
    return n;
}

static int burst_plan(void *host, const sb_problem *p, const sb_variant *v,
                      const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    (void)p;
    (void)dev;
    burst_knobs k = knobs_of(v);
    int rc = sb_gather_plan(host, &k.gather, v, plan, err, n);
    if (rc || k.gather.order == SB_GATHER_IN_PLACE)
        return rc;
    /* The chunk (the sweep's axis), and what the model and the seed's
       bursts say of it: 32-byte sectors, 128-byte lines. */
    long c = k.gather.chunk_bytes;
    sb_figure_add(plan->figure, &plan->nfigures, "chunk", (double)c, "B");
    sb_figure_add(plan->figure, &plan->nfigures, "sectors_per_chunk",
                  (double)sb_burst_count(c, SB_SECTOR_BYTES, 0), "");
    sb_figure_add(plan->figure, &plan->nfigures, "lines_per_chunk",
                  (double)sb_burst_count(c, SB_SEGMENT_BYTES, 0), "");
    return 0;
}

static int burst_verify(void *host, const sb_problem *p, const sb_variant *v,
                        void *const *outputs, char *err, size_t n)
{
    (void)p;
    burst_knobs k = knobs_of(v);
    return sb_gather_verify(host, &k.gather, outputs[0], err, n);
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule dram_burst_lessons[] = {
    {.kind = SB_LESSON_BURST, .against = "sequential"},
    {0},
};

const sb_experiment sb_exp_dram_burst = {
    .name = "dram_burst",
    .family = "dram",
    .source = "dram.cl",
    .summary = "warps read randomly placed chunks of 32 B..8 KiB into a dense copy, against the "
               "same copy in place: GB/s against chunk size (family dram)",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_WORDS,
    .in_default = 0,
    .test_sizes = "512x1024",
    .variants = burst_variants,
    .default_size = sb_gather_default_size,
    .prepare = sb_gather_prepare,
    .release = sb_gather_release,
    .plan = burst_plan,
    .verify = burst_verify,
    .headline = {SB_HEADLINE_BEST_SHARE},
    .lessons = dram_burst_lessons,
};
