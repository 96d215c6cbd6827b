/* The launch family (issue 17): what a launch costs.  An empty kernel and
 * BabelStream's copy kernel, at BabelStream's default size (launch, 2^25
 * floats on a GPU) and at 1 GiB a buffer (launch_large, 2^28), each timed
 * twice: by the device's events, as every row is, and on the host's clock
 * from the enqueue to the completion, as a benchmark timed on the host
 * (BabelStream) sees it, with the launches per second of a queue of them
 * drained at once (plan.host_timed: the executor's policy, timing.h).  The
 * difference is where an API's launch overhead lives. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/host_data.h"
#include "experiments/variant.h"

/* BabelStream's CUDA block. */
#define COPY_BLOCK 1024
/* What the empty kernel's one thread writes, never the poison. */
#define EMPTY_MARK 0x1a0c4e57

typedef enum launch_kernel { KERNEL_EMPTY, KERNEL_COPY } launch_kernel;

typedef struct launch_knobs {
    launch_kernel kernel;
} launch_knobs;
SB_KNOBS(launch_knobs)

typedef struct launch_host {
    long n;
    float *a;
} launch_host;

static void variant_of(sb_variant *v, const char *name, launch_kernel kernel)
{
    if (kernel == KERNEL_EMPTY)
        sb_variant_init(v, name, "launch_empty", 1, 1, 1);
    else
        sb_variant_init(v, name, "launch_copy", COPY_BLOCK, 1, 1);
    launch_knobs k = {.kernel = kernel};
    set_knobs(v, &k);
    v->in_default = 1; /* the experiment is not in the default suite; its rows all run */
}

/* The empty kernel, then the copy, at BabelStream's default size. */
static int launch_variants(sb_variant *out, int max)
{
    int n = 0;
    if (n < max)
        variant_of(&out[n++], "empty", KERNEL_EMPTY);
    if (n < max)
        variant_of(&out[n++], "copy", KERNEL_COPY);
    return n;
}

/* The copy alone, at 1 GiB a buffer. */
static int launch_large_variants(sb_variant *out, int max)
{
    if (max < 1)
        return 0;
    variant_of(&out[0], "copy", KERNEL_COPY);
    return 1;
}

/* BabelStream's default array: 2^25 floats; on a CPU a size for seconds. */
static void launch_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = dev->is_gpu ? 1L << 25 : 1L << 18;
    p->cols = 1;
}

/* The 1 GiB arrays BabelStream's host-timed deficit was seen at. */
static void launch_large_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = dev->is_gpu ? 1L << 28 : 1L << 20;
    p->cols = 1;
}

static int launch_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = p->rows * p->cols;
    if (elems > INT_MAX - COPY_BLOCK) {
        snprintf(err, n, "launch: %ld elements is too many; at most %d", elems,
                 INT_MAX - COPY_BLOCK);
        return -1;
    }
    launch_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    if (!(h->a = sb_host_alloc((size_t)elems * sizeof(float), err, n))) {
        free(h);
        return -1;
    }
    sb_random_floats(h->a, (size_t)elems, seed);
    *host = h;
    return 0;
}

static void launch_release(void *host)
{
    launch_host *h = host;
    if (h)
        free(h->a);
    free(h);
}

/* The empty kernel's one access: its one thread, lane 0 of the one warp,
   stores the mark, one lane's word in one sector. */
static void launch_declare_empty(sb_plan *plan)
{
    sb_pattern lane = sb_dense(SB_SPACE_GLOBAL, (int)sizeof(int32_t));
    lane.active = sb_first_lanes(1);
    sb_plan_declare(plan, &(sb_access){"mark store", SB_ACCESS_STORE, lane, 1, 1, 0});
}

/* The copy's two accesses: one element a thread, 32 consecutive ones a
 * warp, each once; the threads past n (the last block's) make neither,
 * and the lanes below n of the last warp make a partial request. */
static void launch_declare_copy(sb_plan *plan, long n)
{
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, (int)sizeof(float));
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0, 1, 1}, n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, dense, 0, 1, 0}, n, 1);
}

static int launch_plan(void *host, const sb_problem *p, const sb_variant *v,
                       const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    launch_host *h = host;
    (void)p, (void)dev, (void)err, (void)n;
    plan->host_timed = 1;
    if (knobs_of(v).kernel == KERNEL_EMPTY) {
        plan->nbuffers = 1;
        plan->buffer[0].bytes = sizeof(int32_t);
        plan->buffer[0].init = NULL;
        plan->nargs = 2;
        plan->arg[0].kind = SB_PLAN_INT;
        plan->arg[0].i = EMPTY_MARK;
        plan->arg[1].kind = SB_PLAN_BUFFER;
        plan->arg[1].buffer = 0;
        sb_grid_2d(&plan->geometry, v, 1, 1, 1, 1);
        launch_declare_empty(plan);
        return 0;
    }
    size_t bytes = (size_t)h->n * sizeof(float);
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    plan->nargs = 3;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)h->n;
    plan->arg[1].kind = SB_PLAN_BUFFER;
    plan->arg[1].buffer = 0;
    plan->arg[2].kind = SB_PLAN_BUFFER;
    plan->arg[2].buffer = 1;
    sb_grid_2d(&plan->geometry, v, h->n, 1, COPY_BLOCK, 1);
    plan->bytes = 2.0 * (double)bytes;
    launch_declare_copy(plan, h->n);
    return 0;
}

static int launch_verify(void *host, const sb_problem *p, const sb_variant *v,
                         void *const *outputs, char *err, size_t n)
{
    launch_host *h = host;
    (void)p;
    if (knobs_of(v).kernel == KERNEL_EMPTY) {
        int32_t got;
        memcpy(&got, outputs[0], sizeof got);
        if (got == EMPTY_MARK)
            return 0;
        snprintf(err, n, "the empty kernel's mark is 0x%08x, expected 0x%08x%s", (unsigned)got,
                 (unsigned)EMPTY_MARK,
                 (uint32_t)got == SB_POISON_WORD ? ": the kernel never ran" : "");
        return -1;
    }
    const uint32_t *c = outputs[0], *a = (const uint32_t *)h->a;
    long i = sb_first_word_mismatch(c, a, h->n);
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "c[%ld] = 0x%08x, expected 0x%08x%s", i, c[i], a[i],
             c[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

const sb_experiment sb_exp_launch_small = {
    .name = "launch_small",
    .family = "launch",
    .source = "launch.cl",
    .summary = "launch cost: an empty kernel and BabelStream's copy at its default 2^25 floats, "
               "device-event and host-observed time, launches per second",
    .quantity = SB_QUANTITY_LAUNCH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 0,
    .test_sizes = "1,4097x1",
    .variants = launch_variants,
    .default_size = launch_default_size,
    .prepare = launch_prepare,
    .release = launch_release,
    .plan = launch_plan,
    .verify = launch_verify,
    .headline = {SB_HEADLINE_BEST},
};

const sb_experiment sb_exp_launch_large = {
    .name = "launch_large",
    .family = "launch",
    .source = "launch.cl",
    .summary = "launch cost of BabelStream's copy at 1 GiB a buffer: device-event against "
               "host-observed time",
    .quantity = SB_QUANTITY_LAUNCH,
    .size_kind = SB_SIZE_ELEMENTS,
    .in_default = 0,
    .test_sizes = "1000x1",
    .variants = launch_large_variants,
    .default_size = launch_large_default_size,
    .prepare = launch_prepare,
    .release = launch_release,
    .plan = launch_plan,
    .verify = launch_verify,
    .headline = {SB_HEADLINE_BEST},
};
