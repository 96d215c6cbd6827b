/* The latency family: how long one load takes, the latency occupancy must
 * hide.  One thread chases a random cycle of links through a working set
 * of 16 KiB to 4 GiB (chase in common/kernels/latency.cl), one 128-byte
 * line per link, so that every load waits for the one before and the time
 * per load is the latency of wherever the working set lives: the L1, the
 * L2 or DRAM (with the TLB misses a large one adds).  Between 16 and 64
 * MiB the working sets are closer than powers of two, so that a level
 * that spans less than a doubling (the far partition of a split L2) has
 * points of its own.  The report finds the plateaus in the data, and
 * Little's law takes the DRAM one to the occupancy block.
 *
 * The cycles are made on the host from the seed: working set j's cycle
 * visits a run of lines in a random order, its links in one 8-byte word of
 * each line (place_levels packs the runs into a line's 16 words), so one
 * buffer holds every cycle.  Launches continue each other's walk
 * (latency.cl says why); the check walks the host's cycle as far as the
 * launches went and compares where it ends.
 *
 * Variant ws<W>: a working set of W bytes.  Size: the largest working set
 * in 4-byte words; larger ones are left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define LINE_BYTES 128
#define LINE_LINKS (LINE_BYTES / 8) /* 8-byte links: latency.cl's LINE_LINKS */
#define LINK_TAG (1ULL << 63)       /* a link the device has yet to turn into an address */
#define LAT_MIN (16L << 10)
#define LAT_MAX (4L << 30)
#define LAT_STEPS (1 << 16) /* a multiple of latency.cl's CHASE_UNROLL */
#define LAT_CPU_MAX (4L << 20)
#define STATE_WORDS 3 /* where the chase is, launches, the sum of links */
#define MIB (1L << 20)

/* The working sets, growing: powers of two, and between 16 and 64 MiB
   steps of an eighth to a quarter. */
static const long levels[] = {
    16L << 10, 32L << 10, 64L << 10, 128L << 10, 256L << 10, 512L << 10, 1 * MIB, 2 * MIB,
    4 * MIB, 8 * MIB, 16 * MIB, 24 * MIB, 28 * MIB, 32 * MIB, 36 * MIB, 40 * MIB, 44 * MIB,
    48 * MIB, 56 * MIB, 64 * MIB, 128 * MIB, 256 * MIB, 512 * MIB, 1024 * MIB, 2048 * MIB,
    4096 * MIB};
#define LAT_LEVELS ((int)(sizeof levels / sizeof levels[0]))

typedef struct latency_knobs {
    int level; /* the working set is levels[level] */
} latency_knobs;
SB_KNOBS(latency_knobs)

/* Where working set j's links live: word `slot` of lines first.. */
typedef struct latency_place {
    int slot;
    long first, lines;
} latency_place;

typedef struct latency_host {
    long bytes;                        /* the size's whole lines: the buffer uploaded */
    long top;                          /* the largest working set the size holds */
    uint64_t *next;                    /* bytes / 8 words: the cycles' tagged links */
    latency_place place[LAT_LEVELS];   /* lines 0 for a working set the size leaves out */
    uint32_t state[LAT_LEVELS][4];     /* each chase's start: its cycle's first link */
} latency_host;

static long working_set(int level)
{
    return levels[level];
}

/* "ws16K", "ws4M", "ws4G". */
static void ws_name(long bytes, char *buf, size_t n)
{
    if (bytes >= (1L << 30))
        snprintf(buf, n, "ws%ldG", bytes >> 30);
    else if (bytes >= (1L << 20))
        snprintf(buf, n, "ws%ldM", bytes >> 20);
    else
        snprintf(buf, n, "ws%ldK", bytes >> 10);
}

static int latency_variants(sb_variant *out, int max)
{
    int n = 0;
    for (int j = 0; j < LAT_LEVELS && n < max; j++) {
        char name[24];
        ws_name(working_set(j), name, sizeof name);
        sb_variant_init(&out[n], name, "chase", 1, 1, 1);
        latency_knobs k = {j};
        set_knobs(&out[n++], &k);
    }
    return n;
}

/* The largest working set: 4 GiB on a GPU within its memory and largest
   allocation, 4 MiB on a CPU. */
static void latency_default_size(const sb_device_info *dev, sb_problem *p)
{
    long bytes = dev->is_gpu ? LAT_MAX : LAT_CPU_MAX;
    while (bytes > LAT_MIN &&
           ((dev->max_alloc_bytes && (uint64_t)bytes > dev->max_alloc_bytes) ||
            (dev->global_mem_bytes && (uint64_t)bytes > dev->global_mem_bytes / 4)))
        bytes /= 2;
    p->rows = bytes / 4 / 1024;
    p->cols = 1024;
}

/* splitmix64: the cycles' random order, the same on every platform. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Each working set the size holds a run of lines in one word of a line,
   the largest first: runs sharing a word never overlap, and the 16 words
   of the buffer's lines hold them all (the largest fills one word, every
   smaller one together less than another). */
static void place_levels(latency_host *h)
{
    long used[LINE_LINKS] = {0}, total = h->bytes / LINE_BYTES;
    for (int j = LAT_LEVELS - 1; j >= 0; j--) {
        long lines = working_set(j) / LINE_BYTES;
        if (working_set(j) > h->top)
            continue;
        int s = 0;
        while (s < LINE_LINKS - 1 && used[s] + lines > total)
            s++;
        h->place[j] = (latency_place){s, used[s], lines};
        used[s] += lines;
    }
}

/* Working set j's cycle into its word of its lines: Sattolo's shuffle, in
   place, makes the lines' successors one random cycle through them all;
   the links are then the successors' words, tagged. */
static void make_cycle(latency_host *h, int j, unsigned seed)
{
    const latency_place *pl = &h->place[j];
    uint64_t rng = ((uint64_t)seed << 8) ^ (uint64_t)j;
    uint64_t *w = h->next + (size_t)pl->first * LINE_LINKS + (size_t)pl->slot;
    for (long i = 0; i < pl->lines; i++)
        w[(size_t)i * LINE_LINKS] = (uint64_t)i;
    for (long i = pl->lines - 1; i > 0; i--) {
        size_t a = (size_t)i * LINE_LINKS;
        size_t b = (size_t)(splitmix64(&rng) % (uint64_t)i) * LINE_LINKS; /* a line before i */
        uint64_t t = w[a];
        w[a] = w[b];
        w[b] = t;
    }
    for (long i = 0; i < pl->lines; i++)
        w[(size_t)i * LINE_LINKS] =
            LINK_TAG | ((w[(size_t)i * LINE_LINKS] + (uint64_t)pl->first) * LINE_LINKS +
                        (uint64_t)pl->slot);
    h->state[j][0] = (uint32_t)(pl->first * LINE_LINKS + pl->slot);
}

static int latency_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    double bytes = 4.0 * (double)p->rows * (double)p->cols;
    if (bytes < LAT_MIN) {
        snprintf(err, n, "a working set of %.0f bytes is under %ld KiB: give at least --size %ldx1",
                 bytes, LAT_MIN >> 10, LAT_MIN / 4);
        return -1;
    }
    latency_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    /* The buffer is the size itself, so that what a run holds grows with
       the size as the preflight reckons; the cycles fill its first lines. */
    h->bytes = (long)(bytes < LAT_MAX ? bytes : LAT_MAX) / LINE_BYTES * LINE_BYTES;
    h->top = LAT_MIN;
    while (h->top * 2 <= h->bytes)
        h->top *= 2;
    if (!(h->next = sb_host_alloc((size_t)h->bytes, err, n))) {
        free(h);
        return -1;
    }
    memset(h->next, 0, (size_t)h->bytes);
    place_levels(h);
    for (int j = 0; j < LAT_LEVELS && working_set(j) <= h->top; j++)
        make_cycle(h, j, seed);
    *host = h;
    return 0;
}

static void latency_release(void *host)
{
    latency_host *h = host;
    if (h)
        free(h->next);
    free(h);
}

/* The chase's buffers: every cycle (one upload for all working sets), the
   state it starts from, and where it ends. */
static void latency_launch(latency_host *h, int j, sb_plan *plan)
{
    plan->nbuffers = 3;
    plan->buffer[0].bytes = (size_t)h->bytes;
    plan->buffer[0].init = h->next;
    plan->buffer[1].bytes = sizeof h->state[j];
    plan->buffer[1].init = h->state[j];
    plan->buffer[2].bytes = sizeof h->state[j];
    plan->buffer[2].init = NULL;
    const latency_place *pl = &h->place[j];
    int32_t ints[4] = {LAT_STEPS, pl->slot, (int32_t)pl->first, (int32_t)pl->lines};
    plan->nargs = 7;
    for (int i = 0; i < 4; i++) {
        plan->arg[i].kind = SB_PLAN_INT;
        plan->arg[i].i = ints[i];
    }
    for (int i = 0; i < 3; i++) {
        plan->arg[4 + i].kind = SB_PLAN_BUFFER;
        plan->arg[4 + i].buffer = i;
    }
    plan->geometry = (sb_launch){{1, 1, 1}, {1, 1, 1}};
    plan->accesses = LAT_STEPS;
    plan->bytes = 8.0 * LAT_STEPS;
}

/* Every access of chase, per launch: its one thread is lane 0 of the one
 * warp, so each request is one lane's word, one sector.  The dependent
 * loads (the loop, unrolled as the compiler likes), the state it starts
 * from (where, the sum) and the launches counted, then the new state and
 * the output, three words each: static instructions all but the loop's.
 * The first launch's pass that turns links into addresses is in no later
 * launch, and so in no launch's count; its loads and stores (a loop the
 * compiler unrolls as it likes) are static instructions the chase's and
 * the state stores' counts leave to the compiler. */
static void latency_declare(sb_plan *plan)
{
    sb_pattern lane = sb_dense(SB_SPACE_GLOBAL, 4), link = sb_dense(SB_SPACE_GLOBAL, 8);
    lane.active = sb_first_lanes(1);
    link.active = sb_first_lanes(1);
    sb_plan_declare(plan, &(sb_access){"chase", SB_ACCESS_LOAD, link, LAT_STEPS,
                                       SB_SITES_COMPILER, 1});
    sb_plan_declare(plan, &(sb_access){"state load", SB_ACCESS_LOAD, lane, STATE_WORDS,
                                       STATE_WORDS, 0});
    sb_plan_declare(plan, &(sb_access){"state store", SB_ACCESS_STORE, lane, STATE_WORDS,
                                       SB_SITES_COMPILER, 0});
    sb_plan_declare(plan, &(sb_access){"result store", SB_ACCESS_STORE, lane, STATE_WORDS,
                                       STATE_WORDS, 0});
}

static int latency_plan(void *host, const sb_problem *p, const sb_variant *v,
                        const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    latency_host *h = host;
    (void)p;
    (void)dev;
    int j = knobs_of(v).level;
    long ws = working_set(j);
    if (ws > h->top) {
        snprintf(err, n, "%s needs a working set of %ld words: give --size %ldx1 or more",
                 v->name, ws / 4, ws / 4);
        return SB_PLAN_LEFT_OUT;
    }
    latency_launch(h, j, plan);
    latency_declare(plan);
    /* The figures say what the chase walks. */
    sb_figure_add(plan->figure, &plan->nfigures, "working_set", (double)ws, "B");
    sb_figure_add(plan->figure, &plan->nfigures, "lines", (double)(ws / LINE_BYTES), "");
    sb_figure_add(plan->figure, &plan->nfigures, "loads_per_launch", LAT_STEPS, "");
    return 0;
}

static int latency_verify(void *host, const sb_problem *p, const sb_variant *v,
                          void *const *outputs, char *err, size_t n)
{
    latency_host *h = host;
    (void)p;
    int j = knobs_of(v).level;
    const uint32_t *out = outputs[0];
    uint64_t lines = (uint64_t)(working_set(j) / LINE_BYTES);
    if (out[1] == 0 || out[1] == SB_POISON_WORD) {
        snprintf(err, n, "the chase counted %u launches%s", out[1],
                 out[1] == SB_POISON_WORD ? ": never written" : "");
        return -1;
    }
    /* The cycle is one loop through every line of its run: a whole lap
       adds every link's byte offset once, line first + i's word being
       (first + i) x LINE_LINKS + slot, and only the steps past the whole
       laps need walking. */
    const latency_place *pl = &h->place[j];
    uint64_t total = (uint64_t)out[1] * LAT_STEPS, laps = total / lines;
    uint64_t lap_words = LINE_LINKS * (lines * (uint64_t)pl->first + lines * (lines - 1) / 2) +
                         (uint64_t)pl->slot * lines;
    uint32_t at = h->state[j][0], sum = (uint32_t)(laps * lap_words * 8);
    for (uint64_t s = laps * lines; s < total; s++) {
        at = (uint32_t)(h->next[at] & ~LINK_TAG);
        sum += 8u * at;
    }
    if (out[0] == at && out[2] == sum)
        return 0;
    snprintf(err, n, "after %u launches of %d loads the chase ended at word %u with a sum of "
                     "links 0x%08x, the host's walk of the cycle at word %u with 0x%08x%s",
             out[1], LAT_STEPS, out[0], out[2], at, sum,
             out[0] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule latency_lessons[] = {
    {.kind = SB_LESSON_LATENCY},
    {0},
};

const sb_experiment sb_exp_latency = {
    .name = "latency",
    .family = "latency",
    .source = "latency.cl",
    .summary = "a dependent pointer chase, one lane, over working sets of 16 KiB..4 GiB: ns per "
               "load and cycles, the L1, L2 and DRAM plateaus (family latency)",
    .quantity = SB_QUANTITY_LATENCY,
    .size_kind = SB_SIZE_WORDS,
    .in_default = 0,
    .test_sizes = "256x256",
    .variants = latency_variants,
    .default_size = latency_default_size,
    .prepare = latency_prepare,
    .release = latency_release,
    .plan = latency_plan,
    .verify = latency_verify,
    .headline = {SB_HEADLINE_WORST},
    .lessons = latency_lessons,
};
