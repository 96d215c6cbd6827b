/* The launch family (issue 17): what a launch costs.  An empty kernel and
 * BabelStream's copy kernel (stream_copy in launch.cl: its block, grid,
 * loop and element), in its default double and as --float, at its default
 * size (launch_small, 2^25 elements on a GPU) and at 1 GiB a buffer
 * (launch_large: 2^28 floats, 2^27 doubles), each timed twice: by the
 * device's events, as every row is, and on the host's clock from the
 * enqueue to the completion, as a benchmark timed on the host (BabelStream,
 * whose figure is the fastest of such times) sees it, with the launches
 * per second of a queue of them drained at once (plan.host_timed: the
 * executor's policy, timing.h).  The difference is where an API's launch
 * overhead lives.  Bytes are BabelStream's: 2 x sizeof(T) x n. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

/* BabelStream's CUDA TBSIZE, and the elements a thread's loop takes (its
   UNROLL_FACTOR: the grid is n / UNROLL / TBSIZE blocks, rounded up). */
#define COPY_BLOCK 256
#define COPY_UNROLL 4
/* The widest element: a double. */
#define WORD_MAX 8
/* What the empty kernel's one thread writes, never the poison. */
#define EMPTY_MARK 0x1a0c4e57

typedef enum launch_kernel { KERNEL_EMPTY, KERNEL_COPY } launch_kernel;

typedef struct launch_knobs {
    launch_kernel kernel;
    int word;       /* bytes of an element: 8 (double), 4 (float) */
    int same_bytes; /* 1: the size counts floats, a double copy moves as many bytes */
} launch_knobs;
SB_KNOBS(launch_knobs)

typedef struct launch_host {
    long n; /* the size's elements */
    uint32_t *a;
} launch_host;

static void variant_of(sb_variant *v, const char *name, launch_kernel kernel, int word,
                       int same_bytes)
{
    if (kernel == KERNEL_EMPTY)
        sb_variant_init(v, name, "launch_empty", 1, 1, 1);
    else
        sb_variant_init(v, name, "stream_copy", COPY_BLOCK, 1, 1);
    if (kernel == KERNEL_COPY)
        sb_variant_define(v, word == 8 ? "WORD=ulong" : "WORD=uint");
    launch_knobs k = {.kernel = kernel, .word = word, .same_bytes = same_bytes};
    set_knobs(v, &k);
    v->in_default = 1; /* the experiment is not in the default suite; its rows all run */
}

/* The empty kernel, then the copy in double (BabelStream's default) and
   in float (--float), at BabelStream's default size. */
static int launch_variants(sb_variant *out, int max)
{
    int n = 0;
    if (n < max)
        variant_of(&out[n++], "empty", KERNEL_EMPTY, 4, 0);
    if (n < max)
        variant_of(&out[n++], "copy", KERNEL_COPY, 8, 0);
    if (n < max)
        variant_of(&out[n++], "copy_float", KERNEL_COPY, 4, 0);
    return n;
}

/* The copy alone, at 1 GiB a buffer, in double and in float. */
static int launch_large_variants(sb_variant *out, int max)
{
    int n = 0;
    if (n < max)
        variant_of(&out[n++], "copy", KERNEL_COPY, 8, 1);
    if (n < max)
        variant_of(&out[n++], "copy_float", KERNEL_COPY, 4, 1);
    return n;
}

/* The elements a copy variant moves at the size's n. */
static long copy_elements(const launch_knobs *k, long n)
{
    return k->same_bytes ? n * 4 / k->word : n;
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
    if (elems > INT_MAX - COPY_BLOCK * COPY_UNROLL) {
        snprintf(err, n, "launch: %ld elements is too many; at most %d", elems,
                 INT_MAX - COPY_BLOCK * COPY_UNROLL);
        return -1;
    }
    launch_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    /* Enough for the widest element; a narrower one takes the first words. */
    if (!(h->a = sb_host_alloc((size_t)elems * WORD_MAX, err, n))) {
        free(h);
        return -1;
    }
    sb_random_words(h->a, (size_t)elems * WORD_MAX / 4, seed);
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

/* The copy's two accesses: each element once, 32 consecutive ones a warp
 * (a thread's elements are a grid apart, a warp's lanes neighbours); the
 * lanes below n of the last warp make a partial request.  The loop is
 * unrolled by 4 with a remainder: the compiler's count of instructions. */
static void launch_declare_copy(sb_plan *plan, long n, int word)
{
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, word);
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0,
                                            SB_SITES_COMPILER, 1}, n, 1);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, dense, 0,
                                            SB_SITES_COMPILER, 0}, n, 1);
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
    launch_knobs k = knobs_of(v);
    long elems = copy_elements(&k, h->n);
    size_t bytes = (size_t)elems * (size_t)k.word;
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = h->a;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    plan->nargs = 3;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)elems;
    plan->arg[1].kind = SB_PLAN_BUFFER;
    plan->arg[1].buffer = 0;
    plan->arg[2].kind = SB_PLAN_BUFFER;
    plan->arg[2].buffer = 1;
    /* BabelStream's grid: ceil_div(n / UNROLL_FACTOR, TBSIZE) blocks. */
    long blocks = (elems / COPY_UNROLL + COPY_BLOCK - 1) / COPY_BLOCK;
    sb_grid_2d(&plan->geometry, v, (blocks > 0 ? blocks : 1) * COPY_BLOCK, 1, COPY_BLOCK, 1);
    plan->bytes = 2.0 * (double)bytes;
    launch_declare_copy(plan, elems, k.word);
    sb_figure_add(plan->figure, &plan->nfigures, "element_bytes", k.word, "");
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
    launch_knobs k = knobs_of(v);
    long words = copy_elements(&k, h->n) * k.word / 4;
    const uint32_t *c = outputs[0], *a = h->a;
    long i = sb_first_word_mismatch(c, a, words);
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "c[%ld] = 0x%08x, expected 0x%08x%s", i, c[i], a[i],
             c[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule launch_small_lessons[] = {
    {.kind = SB_LESSON_LAUNCH, .tried = "empty"},
    {.kind = SB_LESSON_HOST, .tried = "copy"},
    {0},
};

const sb_experiment sb_exp_launch_small = {
    .name = "launch_small",
    .family = "launch",
    .source = "launch.cl",
    .summary = "launch cost: an empty kernel and BabelStream's copy (double and float) at its "
               "default 2^25 elements, device-event and host-observed time, launches per second",
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
    .lessons = launch_small_lessons,
};

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule launch_large_lessons[] = {
    {.kind = SB_LESSON_HOST, .tried = "copy"},
    {0},
};

const sb_experiment sb_exp_launch_large = {
    .name = "launch_large",
    .family = "launch",
    .source = "launch.cl",
    .summary = "launch cost of BabelStream's copy (double and float) at 1 GiB a buffer: "
               "device-event against host-observed time",
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
    .lessons = launch_large_lessons,
};
