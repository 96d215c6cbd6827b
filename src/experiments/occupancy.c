/* The occupancy family (seed 001): a copy over block sizes 32..1024 and
 * grids from one block per multiprocessor up to one thread per element,
 * beside the API's copy as the roof.  DRAM bandwidth needs enough accesses
 * in flight to cover its latency: too few threads leave the bus idle
 * whatever the access pattern.  With CUDA the run records how many blocks
 * of each size fit on a multiprocessor (the API's occupancy), so the table
 * can print the threads actually in flight; OpenCL has no such query.
 *
 * Variant b<B>-g<G>x: blocks of B threads, G blocks per multiprocessor
 * (compute unit); b<B>-full: one thread per element.  Grids are capped at
 * one thread per element, so a small size can launch fewer than G per unit.
 *
 * Each kernel row declares the bytes a thread keeps in flight, so that the
 * report can hold the bandwidth against the bytes in flight and against
 * the knee Little's law predicts from the latency family's DRAM latency.
 *
 * Size rows x cols: n = rows * cols elements.  Verified bit for bit. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define OCC_MAX_ELEMENTS (1L << 30) /* keeps the grid-stride index inside an int */

/* How the grid is sized: blocks per multiprocessor, or one thread per element. */
typedef enum occupancy_grid { GRID_PER_UNIT, GRID_PER_ELEMENT } occupancy_grid;

/* What the plan needs of a variant (its block size is the variant's block). */
typedef struct occupancy_knobs {
    occupancy_grid grid;
    int blocks_per_unit; /* GRID_PER_UNIT: blocks per multiprocessor */
} occupancy_knobs;
SB_KNOBS(occupancy_knobs)

/* The sweep's two axes. */
static const unsigned block_sizes[] = {32, 64, 128, 256, 512, 1024};
static const occupancy_knobs grids[] = {
    {GRID_PER_UNIT, 1},  {GRID_PER_UNIT, 2},  {GRID_PER_UNIT, 4}, {GRID_PER_UNIT, 8},
    {GRID_PER_UNIT, 16}, {GRID_PER_UNIT, 32}, {GRID_PER_ELEMENT, 0},
};

typedef struct occupancy_host {
    long n;
    float *a;
} occupancy_host;

static int occupancy_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[0], "memcpy", NULL, 1, 1, 1);
        out[0].role = SB_ROLE_API_COPY;
        out[0].group = -1; /* the roof belongs to no block size */
        n = 1;
    }
    for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; b++)
        for (size_t g = 0; g < sizeof grids / sizeof grids[0] && n < max; g++) {
            const occupancy_knobs *k = &grids[g];
            bool full = k->grid == GRID_PER_ELEMENT;
            char name[32];
            if (full)
                snprintf(name, sizeof name, "b%u-full", block_sizes[b]);
            else
                snprintf(name, sizeof name, "b%u-g%dx", block_sizes[b], k->blocks_per_unit);
            sb_variant *v = &out[n++];
            sb_variant_init(v, name, "copy_grid_stride", block_sizes[b], 1, 1);
            set_knobs(v, k);
            /* Slowdowns against the full grid of the same block size: what
               too few threads in flight costs. */
            v->group = (int)b;
            v->baseline = full;
            /* By default the grid sweep at 256 threads, and the full grid
               plus the starved extreme at the smallest and largest block:
               the rest with --variant all. */
            v->in_default = block_sizes[b] == 256 ||
                            ((block_sizes[b] == 32 || block_sizes[b] == 1024) &&
                             (full || k->blocks_per_unit == 1));
        }
    return n;
}

static void occupancy_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = sb_stream_elements(dev);
    p->cols = 1;
}

static int occupancy_prepare(const sb_problem *p, unsigned seed, void **host, char *err,
                             size_t n)
{
    long elems = p->rows * p->cols;
    if (elems > OCC_MAX_ELEMENTS) {
        snprintf(err, n, "occupancy: %ld elements is too many; at most %ld", elems,
                 OCC_MAX_ELEMENTS);
        return -1;
    }
    occupancy_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    h->a = sb_host_alloc((size_t)elems * sizeof(float), err, n);
    if (!h->a) {
        free(h);
        return -1;
    }
    sb_random_floats(h->a, (size_t)elems, seed);
    *host = h;
    return 0;
}

static void occupancy_release(void *host)
{
    occupancy_host *h = host;
    if (h)
        free(h->a);
    free(h);
}

static int occupancy_plan(void *host, const sb_problem *p, const sb_variant *v,
                          const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    occupancy_host *h = host;
    (void)p;
    (void)err;
    (void)n;
    size_t bytes = (size_t)h->n * sizeof(float);
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    plan->bytes = 2.0 * (double)bytes;
    if (v->role == SB_ROLE_API_COPY)
        return 0;
    plan->nargs = 3;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)h->n;
    plan->arg[1].kind = SB_PLAN_BUFFER;
    plan->arg[1].buffer = 0;
    plan->arg[2].kind = SB_PLAN_BUFFER;
    plan->arg[2].buffer = 1;
    occupancy_knobs k = knobs_of(v);
    long block = v->block[0];
    long cover = (h->n + block - 1) / block;
    long units = dev->compute_units > 0 ? dev->compute_units : 1;
    long grid = k.grid == GRID_PER_ELEMENT ? cover : k.blocks_per_unit * units;
    sb_grid_2d(&plan->geometry, v, grid < cover ? grid : cover, 1, 1, 1);
    /* The grid-stride walk still reads and writes every element once, 32
       consecutive ones a warp, whatever the grid; the loop is unrolled as
       the compiler likes. */
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, 4);
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0,
                                            SB_SITES_COMPILER, 1}, h->n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, dense, 0,
                                            SB_SITES_COMPILER, 0}, h->n, 1);
    /* What a thread keeps in flight as the kernel is written: one float
       load at a time (the store that follows does not wait).  Threads in
       flight x this is the curve Little's law is held against. */
    sb_figure_add(plan->figure, &plan->nfigures, "bytes_per_thread", sizeof(float), "");
    return 0;
}

static int occupancy_verify(void *host, const sb_problem *p, const sb_variant *v,
                            void *const *outputs, char *err, size_t n)
{
    occupancy_host *h = host;
    const uint32_t *want = (const uint32_t *)h->a;
    const uint32_t *got = outputs[0];
    (void)p;
    (void)v;
    long i = sb_first_word_mismatch(got, want, h->n);
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "c[%ld] = 0x%08x, expected 0x%08x%s", i, got[i], want[i],
             got[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule occupancy_lessons[] = {
    {.kind = SB_LESSON_THREADS, .against = "memcpy"},
    {.kind = SB_LESSON_LITTLE},
    {0},
};

const sb_experiment sb_exp_occupancy = {
    .name = "occupancy",
    .family = "occupancy",
    .source = "copy.cl",
    .summary = "copy over block sizes 32..1024 and grids from 1 block per multiprocessor up: "
               "bandwidth against threads in flight",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 1,
    .test_sizes = "1,1000x1,4097x1,65536x1",
    .variants = occupancy_variants,
    .default_size = occupancy_default_size,
    .prepare = occupancy_prepare,
    .release = occupancy_release,
    .plan = occupancy_plan,
    .verify = occupancy_verify,
    .headline = {SB_HEADLINE_BEST_SHARE},
    .notes_launched = 1,
    .lessons = occupancy_lessons,
};
