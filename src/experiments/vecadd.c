/* The coarsening family, vector add (seed 001): c = a + b with 1, 2, 4 and 8
 * elements per thread, beside the API's copy as the roof.  The seed's
 * counter-example: parallel elements share no loads, so coarsening has no
 * price of parallelism to remove and the rows should stay flat, or drop
 * once too few threads remain to cover the memory latency.
 *
 * Size rows x cols: n = rows * cols elements.  Verified bit for bit: the
 * device adds the same two floats the host does. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define VECADD_BLOCK 256
#define VECADD_MAX_COARSE 8

/* What the plan needs of a variant. */
typedef struct vecadd_knobs {
    int coarse; /* COARSE: elements per thread */
} vecadd_knobs;
SB_KNOBS(vecadd_knobs)

typedef struct vecadd_host {
    long n;
    float *a, *b;
} vecadd_host;

static int vecadd_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0) {
        sb_variant_init(&out[0], "memcpy", NULL, 1, 1, 1);
        out[0].role = SB_ROLE_API_COPY;
        out[0].group = 1; /* the roof is not a coarsening step */
        n = 1;
    }
    for (int c = 1; c <= VECADD_MAX_COARSE && n < max; c *= 2) {
        char name[16];
        snprintf(name, sizeof name, "coarse%d", c);
        sb_variant *v = &out[n++];
        sb_variant_init(v, name, "vecadd", VECADD_BLOCK, 1, 1);
        sb_variant_define(v, "COARSE=%d", c);
        vecadd_knobs k = {.coarse = c};
        set_knobs(v, &k);
        v->baseline = c == 1;
    }
    return n;
}

static void vecadd_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = sb_stream_elements(dev);
    p->cols = 1;
}

static int vecadd_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = p->rows * p->cols;
    /* Room for the last block's indices past n, so no int overflows. */
    if (elems > INT_MAX - VECADD_BLOCK * VECADD_MAX_COARSE) {
        snprintf(err, n, "vecadd: %ld elements is too many; at most %d", elems,
                 INT_MAX - VECADD_BLOCK * VECADD_MAX_COARSE);
        return -1;
    }
    vecadd_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    h->a = sb_host_alloc((size_t)elems * sizeof(float), err, n);
    h->b = h->a ? sb_host_alloc((size_t)elems * sizeof(float), err, n) : NULL;
    if (!h->b) {
        free(h->a);
        free(h);
        return -1;
    }
    sb_random_floats(h->a, (size_t)elems, seed);
    sb_random_floats(h->b, (size_t)elems, (uint64_t)seed * 2654435761u + 1);
    *host = h;
    return 0;
}

static void vecadd_release(void *host)
{
    vecadd_host *h = host;
    if (h) {
        free(h->a);
        free(h->b);
    }
    free(h);
}

static int vecadd_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    vecadd_host *h = host;
    (void)p;
    (void)dev;
    (void)err;
    (void)n;
    size_t bytes = (size_t)h->n * sizeof(float);
    if (v->role == SB_ROLE_API_COPY) {
        /* The runner copies buffer 0 into buffer 1. */
        plan->nbuffers = 2;
        plan->buffer[0].bytes = bytes;
        plan->buffer[0].init = h->a;
        plan->buffer[1].bytes = bytes;
        plan->buffer[1].init = NULL;
        plan->bytes = 2.0 * (double)bytes;
        return 0;
    }
    plan->nbuffers = 3;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = h->b;
    plan->buffer[2].bytes = bytes;
    plan->buffer[2].init = NULL;
    plan->nargs = 4;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)h->n;
    for (int i = 0; i < 3; i++) {
        plan->arg[1 + i].kind = SB_PLAN_BUFFER;
        plan->arg[1 + i].buffer = i;
    }
    sb_grid_2d(&plan->geometry, v, h->n, 1, (long)VECADD_BLOCK * knobs_of(v).coarse, 1);
    plan->bytes = 3.0 * (double)bytes; /* 12 useful bytes per element */
    plan->flops = (double)h->n;
    plan->intensity = sb_intensity(plan->flops, plan->bytes);
    /* Each of the three walks every element once, 32 consecutive ones a
       warp, COARSE copies of each access in the unrolled loop. */
    int coarse = knobs_of(v).coarse;
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, 4);
    sb_plan_declare_walk(plan, &(sb_access){"a load", SB_ACCESS_LOAD, dense, 0, coarse, 1},
                         h->n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"b load", SB_ACCESS_LOAD, dense, 0, coarse, 0},
                         h->n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"c store", SB_ACCESS_STORE, dense, 0, coarse, 0},
                         h->n, 1);
    return 0;
}

/* What element i must be, bit for bit. */
static float vecadd_want(const vecadd_host *h, int api_copy, long i)
{
    return api_copy ? h->a[i] : h->a[i] + h->b[i];
}

typedef struct vecadd_scan {
    const vecadd_host *h;
    const float *c;
    int api_copy;
} vecadd_scan;

static long scan_sums(const void *ctx, long begin, long end)
{
    const vecadd_scan *s = ctx;
    for (long i = begin; i < end; i++) {
        float want = vecadd_want(s->h, s->api_copy, i);
        if (memcmp(&want, &s->c[i], 4) != 0)
            return i;
    }
    return SB_NO_MISMATCH;
}

static int vecadd_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    vecadd_host *h = host;
    const float *c = outputs[0];
    (void)p;
    vecadd_scan s = {h, c, v->role == SB_ROLE_API_COPY};
    long i = sb_first_mismatch(h->n, SB_SCAN_GRAIN, scan_sums, &s);
    if (i == SB_NO_MISMATCH)
        return 0;
    float want = vecadd_want(h, s.api_copy, i);
    uint32_t wb, gb;
    memcpy(&wb, &want, 4);
    memcpy(&gb, &c[i], 4);
    snprintf(err, n, "c[%ld] = %g (0x%08x), expected %g (0x%08x)%s", i, c[i], gb, want, wb,
             gb == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule vecadd_lessons[] = {
    {.kind = SB_LESSON_COARSEN, .tried = "coarse"},
    {0},
};

const sb_experiment sb_exp_vecadd = {
    .name = "vecadd",
    .family = "coarsening",
    .source = "vecadd.cl",
    .summary = "vector add with 1, 2, 4, 8 elements per thread: coarsening that does not pay",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 1,
    .test_sizes = "1,1000x1,4097x1,65536x1",
    .variants = vecadd_variants,
    .default_size = vecadd_default_size,
    .prepare = vecadd_prepare,
    .release = vecadd_release,
    .plan = vecadd_plan,
    .verify = vecadd_verify,
    .headline = {SB_HEADLINE_BEST_SHARE},
    .lessons = vecadd_lessons,
};
