/* The compute family (issue 17): the FP32 FMA peak, against the
 * theoretical peak of the device (units x FP32 lanes x 2 x clock,
 * common/compute.h).  Every thread does the same FMAs, spread over 1, 2,
 * 4 or 8 independent chains; the eight-chain kernel is the device's
 * measured compute roof, which the roofline draws beside the theoretical
 * one.  Verified: each output against its lane's result, which the host
 * computes with fmaf in the kernel's order. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define FMA_BLOCK 256
#define FMA_UNROLL 16
/* FMAs every thread does, whatever its chains: enough that a launch of
   four waves of full occupancy lasts milliseconds on a large GPU. */
#define FMA_PER_THREAD 65536
/* The recurrence x = x * MUL + ADD drifts from each lane's start towards
   ADD / (1 - MUL) = 0.5 slowly enough that every FMA moves the value, in
   ordinary floats (no denormal, no overflow). */
#define FMA_MUL 0.999999f
#define FMA_ADD 0.0000005f
#define LANES 32
#define MAX_CHAINS 8

typedef struct compute_knobs {
    int chains;
} compute_knobs;
SB_KNOBS(compute_knobs)

static const int chain_counts[] = {1, 2, 4, MAX_CHAINS};
#define NCHAINS ((int)(sizeof chain_counts / sizeof chain_counts[0]))

typedef struct compute_host {
    long threads;               /* launched: the size rounded up to whole blocks */
    float want[NCHAINS][LANES]; /* each lane's output, per chain count */
} compute_host;

static int compute_variants(sb_variant *out, int max)
{
    int n = 0;
    for (int i = 0; i < NCHAINS && n < max; i++) {
        sb_variant *v = &out[n++];
        char name[32];
        snprintf(name, sizeof name, "fma_chains%d", chain_counts[i]);
        sb_variant_init(v, name, "fma_peak", FMA_BLOCK, 1, 1);
        sb_variant_define(v, "CHAINS=%d", chain_counts[i]);
        sb_variant_define(v, "UNROLL=%d", FMA_UNROLL);
        compute_knobs k = {.chains = chain_counts[i]};
        set_knobs(v, &k);
        v->group = 0;
        v->baseline = chain_counts[i] == MAX_CHAINS;
        v->role = chain_counts[i] == MAX_CHAINS ? SB_ROLE_COMPUTE_ROOF : SB_ROLE_KERNEL;
        v->in_default = 1; /* the experiment is not in the default suite; its rows all run */
    }
    return n;
}

/* Four waves of full occupancy (2048 threads a multiprocessor) on a GPU. */
static void compute_default_size(const sb_device_info *dev, sb_problem *p)
{
    long units = dev->compute_units > 0 ? dev->compute_units : 16;
    p->rows = dev->is_gpu ? units * 2048 * 4 : 1024;
    p->cols = 1;
}

/* One lane's output with `chains` chains: the kernel's arithmetic, in its
   order. */
static float lane_result(int lane, int chains)
{
    float x[MAX_CHAINS] = {0};
    for (int c = 0; c < chains; c++)
        x[c] = (float)lane * 0.03125f + (float)c * 0.0078125f;
    for (long k = 0; k < FMA_PER_THREAD / chains; k++)
        for (int c = 0; c < chains; c++)
            x[c] = fmaf(x[c], FMA_MUL, FMA_ADD);
    float sum = x[0];
    for (int c = 1; c < chains; c++)
        sum += x[c];
    return sum;
}

static int compute_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    (void)seed; /* the inputs are the lanes: nothing random */
    long threads = p->rows * p->cols;
    if (threads > INT_MAX - FMA_BLOCK) {
        snprintf(err, n, "compute: %ld threads is too many; at most %d", threads,
                 INT_MAX - FMA_BLOCK);
        return -1;
    }
    compute_host *h = sb_host_alloc(sizeof *h, err, n);
    if (!h)
        return -1;
    /* Every thread of the last block runs and writes too. */
    h->threads = (threads + FMA_BLOCK - 1) / FMA_BLOCK * FMA_BLOCK;
#pragma omp parallel for collapse(2) schedule(dynamic)
    for (int i = 0; i < NCHAINS; i++)
        for (int lane = 0; lane < LANES; lane++)
            h->want[i][lane] = lane_result(lane, chain_counts[i]);
    *host = h;
    return 0;
}

static void compute_release(void *host)
{
    free(host);
}

static int compute_plan(void *host, const sb_problem *p, const sb_variant *v,
                        const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    compute_host *h = host;
    (void)p, (void)err, (void)n;
    int chains = knobs_of(v).chains;
    plan->nbuffers = 1;
    plan->buffer[0].bytes = (size_t)h->threads * sizeof(float);
    plan->buffer[0].init = NULL;
    plan->nargs = 4;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = FMA_PER_THREAD / chains / FMA_UNROLL;
    plan->arg[1].kind = SB_PLAN_FLOAT;
    plan->arg[1].f = FMA_MUL;
    plan->arg[2].kind = SB_PLAN_FLOAT;
    plan->arg[2].f = FMA_ADD;
    plan->arg[3].kind = SB_PLAN_BUFFER;
    plan->arg[3].buffer = 0;
    sb_grid_2d(&plan->geometry, v, h->threads, 1, FMA_BLOCK, 1);
    plan->flops = 2.0 * FMA_PER_THREAD * (double)h->threads;
    plan->bytes = (double)plan->buffer[0].bytes;
    plan->intensity = 0; /* no traffic to speak of: the compute roof is the ceiling */
    /* Its one access: every launched thread stores its sum (no bound: the
       size is rounded up to whole blocks), 32 consecutive floats a warp. */
    sb_plan_declare_walk(plan, &(sb_access){"result store", SB_ACCESS_STORE,
                                            sb_dense(SB_SPACE_GLOBAL, (int)sizeof(float)), 0,
                                            1, 0},
                         h->threads, 1);
    double peak = sb_device_fp32_peak_gflops(dev);
    if (peak > 0)
        sb_figure_add(plan->figure, &plan->nfigures, "fp32_peak", peak / 1000.0, "TFLOP/s");
    return 0;
}

static int compute_verify(void *host, const sb_problem *p, const sb_variant *v,
                          void *const *outputs, char *err, size_t n)
{
    compute_host *h = host;
    (void)p;
    int which = 0;
    while (which < NCHAINS - 1 && chain_counts[which] != knobs_of(v).chains)
        which++;
    const uint32_t *got = outputs[0];
    for (long i = 0; i < h->threads; i++) {
        uint32_t want;
        memcpy(&want, &h->want[which][i & (LANES - 1)], sizeof want);
        if (got[i] != want) {
            float g;
            memcpy(&g, &got[i], sizeof g);
            snprintf(err, n, "out[%ld] = %.9g (0x%08x), expected %.9g (0x%08x)%s", i, g, got[i],
                     h->want[which][i & (LANES - 1)], want,
                     got[i] == SB_POISON_WORD ? ": never written" : "");
            return -1;
        }
    }
    return 0;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule compute_lessons[] = {
    {.kind = SB_LESSON_PEAK, .tried = "fma_chains8", .against = "fma_chains1"},
    {0},
};

const sb_experiment sb_exp_compute = {
    .name = "compute",
    .family = "compute",
    .source = "compute.cl",
    .summary = "FP32 FMA peak with 1, 2, 4, 8 independent chains a thread, against the "
               "theoretical peak (units x FP32 lanes x 2 x clock)",
    .quantity = SB_QUANTITY_FLOPS,
    .size_kind = SB_SIZE_THREADS,
    .in_default = 0,
    .test_sizes = "1,300x1",
    .variants = compute_variants,
    .default_size = compute_default_size,
    .prepare = compute_prepare,
    .release = compute_release,
    .plan = compute_plan,
    .verify = compute_verify,
    .headline = {SB_HEADLINE_BEST},
    .lessons = compute_lessons,
};
