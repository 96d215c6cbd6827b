/* The privatisation family (seed 001): a histogram of N 32-bit values into
 * B = 1, 32, 256, 4096 and 65536 bins, with uniform inputs and with every
 * input in one bin (the worst contention), and a sum; each with one global
 * atomic per input against private copies merged once per block.  The
 * seed's rule: privatising spends shared memory and a merge to relieve the
 * global atomics, so it pays only where their contention is the
 * bottleneck.  Beside each row, the atomics model (atomics_model.h): the
 * same-address updates per warp instruction, the private copy's bank ways
 * and the global atomics left per input.
 *
 * Size rows x cols: n = rows * cols inputs.  The figure is input GB/s (4
 * bytes an input); every input is one bin update, so updates per ns are
 * that figure over 4.  Verified exactly: every bin, and the sum modulo
 * 2^32, against the host's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomics_model.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define BLOCK 256
#define COARSE_FACTOR 32 /* inputs per thread of the coarsened variants */
#define MAX_BINS 65536
#define NBINS 5
#define SKEW_MASK 0xffff0000u /* skewed inputs: multiples of MAX_BINS, all in bin 0 */
#define WARPS (BLOCK / SB_WARP_LANES)
/* Words of the scratch `acc` (privatization.cl): a 128-byte line for the
   epoch and the done count, then two halves of the bins, each from a line
   of its own. */
#define ACC_LINE 32
#define ACC_WORDS(bins) (ACC_LINE + 2 * (((bins) + ACC_LINE - 1) / ACC_LINE * ACC_LINE))

static const long bin_counts[NBINS] = {1, 32, 256, 4096, 65536};

/* How a histogram variant counts. */
typedef enum hist_method { M_GLOBAL, M_SHARED, M_SHARED_COARSE, M_WARP, M_THREAD } hist_method;

static const struct method {
    const char *name, *kernel;
    int coarse;
    long max_bins; /* the kernel exists up to this many bins (privatization.cl) */
} methods[] = {
    [M_GLOBAL] = {"global", "hist_global", 1, MAX_BINS},
    [M_SHARED] = {"shared", "hist_shared", 1, MAX_BINS},
    [M_SHARED_COARSE] = {"shared_coarse", "hist_shared", COARSE_FACTOR, MAX_BINS},
    [M_WARP] = {"warp", "hist_warp", COARSE_FACTOR, 256},
    [M_THREAD] = {"thread", "hist_thread", COARSE_FACTOR, 32},
};
#define NMETHODS (int)(sizeof methods / sizeof methods[0])

/* What the plan needs of a variant: the histogram's, or the sum's (bins 1,
 * method M_GLOBAL for sum_global, M_SHARED and M_SHARED_COARSE for
 * sum_block). */
typedef struct priv_knobs {
    hist_method method;
    int coarse;        /* COARSE */
    long bins;         /* BINS */
    sb_bin_dist dist;  /* the histogram's inputs */
    int bin_index;     /* into bin_counts */
} priv_knobs;
SB_KNOBS(priv_knobs)

/* Inputs and references: both distributions, and every bin count's
 * histogram of each. */
typedef struct hist_host {
    long n;
    uint32_t *in[2];                /* by sb_bin_dist */
    uint32_t *want[2][NBINS];       /* the host's histograms */
    uint32_t *zeros;                /* the scratch `acc` as uploaded: ACC_WORDS(MAX_BINS) */
} hist_host;

typedef struct sum_host {
    long n;
    uint32_t *in;
    uint32_t total;                 /* modulo 2^32 */
    uint32_t zeros[ACC_WORDS(1)];   /* the scratch `acc` of one bin */
} sum_host;

/* ------------------------------------------------------------ variants */

static sb_variant *api_copy(sb_variant *out)
{
    sb_variant_init(out, "memcpy", NULL, 1, 1, 1);
    out->role = SB_ROLE_API_COPY;
    out->group = 0; /* the roof is no one's baseline */
    out->in_default = 1;
    return out;
}

/* One kernel variant with the family's definitions. */
static void priv_variant(sb_variant *v, const char *name, const char *kernel,
                         const priv_knobs *k, int private_copy)
{
    sb_variant_init(v, name, kernel, BLOCK, 1, 1);
    sb_variant_define(v, "BINS=%ld", k->bins);
    sb_variant_define(v, "BLOCK=%d", BLOCK);
    sb_variant_define(v, "COARSE=%d", k->coarse);
    if (private_copy)
        sb_variant_define(v, "PRIVATE=1");
    set_knobs(v, k);
    v->in_default = 1;
}

/* Every method at every bin count it exists for, uniform then skewed;
 * the slowdowns of each (bins, distribution) against its global atomics. */
static int hist_variants(sb_variant *out, int max)
{
    int n = 0;
    if (max > 0)
        api_copy(&out[n++]);
    for (int d = SB_BINS_UNIFORM; d <= SB_BINS_SKEWED; d++)
        for (int b = 0; b < NBINS; b++)
            for (int m = 0; m < NMETHODS && n < max; m++) {
                if (bin_counts[b] > methods[m].max_bins)
                    continue;
                priv_knobs k = {.method = (hist_method)m, .coarse = methods[m].coarse,
                                .bins = bin_counts[b], .dist = (sb_bin_dist)d, .bin_index = b};
                char name[48];
                snprintf(name, sizeof name, "%s-b%ld-%s", methods[m].name, k.bins,
                         sb_bin_dist_name(k.dist));
                sb_variant *v = &out[n++];
                priv_variant(v, name, methods[m].kernel, &k, m != M_GLOBAL);
                v->group = 1 + d * NBINS + b;
                v->baseline = m == M_GLOBAL;
            }
    return n;
}

static int sum_variants(sb_variant *out, int max)
{
    static const struct {
        const char *name, *kernel;
        hist_method method;
        int coarse;
    } sums[] = {{"global", "sum_global", M_GLOBAL, 1},
                {"block", "sum_block", M_SHARED, 1},
                {"block_coarse", "sum_block", M_SHARED_COARSE, COARSE_FACTOR}};
    int n = 0;
    if (max > 0)
        api_copy(&out[n++]);
    for (size_t s = 0; s < sizeof sums / sizeof sums[0] && n < max; s++) {
        priv_knobs k = {.method = sums[s].method, .coarse = sums[s].coarse, .bins = 1};
        sb_variant *v = &out[n++];
        priv_variant(v, sums[s].name, sums[s].kernel, &k, 0);
        v->group = 1;
        v->baseline = s == 0;
    }
    return n;
}

/* Shared memory a histogram variant's block declares, in bytes. */
static long shared_bytes_of(const priv_knobs *k)
{
    long words = 1; /* the epoch */
    if (k->method == M_SHARED || k->method == M_SHARED_COARSE)
        words += k->bins;
    else if (k->method == M_WARP)
        words += k->bins * WARPS;
    else if (k->method == M_THREAD)
        words += k->bins * BLOCK + BLOCK;
    return 4 * words;
}

static int hist_fits(const sb_variant *v, const sb_device_info *dev, char *why, size_t n)
{
    if (v->role != SB_ROLE_KERNEL)
        return 0;
    priv_knobs k = knobs_of(v);
    long need = shared_bytes_of(&k);
    if (dev->local_mem_bytes == 0 || (uint64_t)need <= dev->local_mem_bytes)
        return 0;
    snprintf(why, n, "its private histogram needs %ld bytes of shared memory per block; the "
                     "device has %llu",
             need, (unsigned long long)dev->local_mem_bytes);
    return -1;
}

static void priv_default_size(const sb_device_info *dev, sb_problem *p)
{
    p->rows = sb_stream_elements(dev);
    p->cols = 1;
}

/* ------------------------------------------------------------ host data */

/* n inputs, or -1 with the reason: room for the last block's indices. */
static long inputs_of(const sb_problem *p, const char *what, char *err, size_t n)
{
    long elems = p->rows * p->cols;
    long most = INT_MAX - (long)BLOCK * COARSE_FACTOR;
    if (elems < 1 || elems > most) {
        snprintf(err, n, "%s: %ld inputs; it takes 1 to %ld", what, elems, most);
        return -1;
    }
    return elems;
}

static void hist_release(void *host)
{
    hist_host *h = host;
    if (!h)
        return;
    for (int d = 0; d < 2; d++) {
        free(h->in[d]);
        for (int b = 0; b < NBINS; b++)
            free(h->want[d][b]);
    }
    free(h->zeros);
    free(h);
}

/* The histograms of one distribution's inputs: the finest by counting,
 * each coarser one (its bins dividing MAX_BINS) by folding it. */
static void reference(hist_host *h, int d)
{
    uint32_t *fine = h->want[d][NBINS - 1];
    memset(fine, 0, MAX_BINS * sizeof *fine);
    for (long i = 0; i < h->n; i++)
        fine[h->in[d][i] % MAX_BINS]++;
    for (int b = 0; b < NBINS - 1; b++) {
        long bins = bin_counts[b];
        memset(h->want[d][b], 0, (size_t)bins * sizeof(uint32_t));
        for (long f = 0; f < MAX_BINS; f++)
            h->want[d][b][f % bins] += fine[f];
    }
}

static int hist_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = inputs_of(p, "histogram", err, n);
    if (elems < 0)
        return -1;
    hist_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    h->n = elems;
    int ok = (h->zeros = calloc(ACC_WORDS(MAX_BINS), sizeof *h->zeros)) != NULL;
    for (int d = 0; d < 2 && ok; d++) {
        ok = (h->in[d] = sb_host_alloc((size_t)elems * 4, err, n)) != NULL;
        for (int b = 0; b < NBINS && ok; b++)
            ok = (h->want[d][b] = sb_host_alloc((size_t)bin_counts[b] * 4, err, n)) != NULL;
    }
    if (!ok) {
        if (!h->zeros)
            snprintf(err, n, "out of host memory");
        hist_release(h);
        return -1;
    }
    sb_random_words(h->in[SB_BINS_UNIFORM], (size_t)elems, seed);
    /* Skewed: random high halves, so the input stays incompressible. */
    sb_random_words(h->in[SB_BINS_SKEWED], (size_t)elems, (uint64_t)seed * 2654435761u + 7);
    for (long i = 0; i < elems; i++)
        h->in[SB_BINS_SKEWED][i] &= SKEW_MASK;
    reference(h, SB_BINS_UNIFORM);
    reference(h, SB_BINS_SKEWED);
    *host = h;
    return 0;
}

static void sum_release(void *host)
{
    sum_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

static int sum_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    long elems = inputs_of(p, "sum", err, n);
    if (elems < 0)
        return -1;
    sum_host *h = calloc(1, sizeof *h);
    if (!h || !(h->in = sb_host_alloc((size_t)elems * 4, err, n))) {
        if (!h)
            snprintf(err, n, "out of host memory");
        free(h);
        return -1;
    }
    h->n = elems;
    sb_random_words(h->in, (size_t)elems, seed);
    for (long i = 0; i < elems; i++)
        h->total += h->in[i];
    *host = h;
    return 0;
}

/* ------------------------------------------------------------ plans */

/* The API copy of the n inputs: buffer 0 into buffer 1. */
static void plan_copy(const uint32_t *in, long n, sb_plan *plan)
{
    size_t bytes = (size_t)n * 4;
    plan->nbuffers = 2;
    plan->buffer[0].bytes = bytes;
    plan->buffer[0].init = in;
    plan->buffer[1].bytes = bytes;
    plan->buffer[1].init = NULL;
    plan->bytes = 2.0 * (double)bytes;
}

/* The kernel's buffers and arguments: (n, [mask,] in, acc, out), out of
 * `bins` words, the histograms' bin mask among them; the grid covers the
 * inputs at COARSE a thread. */
static void plan_kernel(const uint32_t *in, long n, const uint32_t *zeros, const sb_variant *v,
                        int with_mask, sb_plan *plan)
{
    priv_knobs k = knobs_of(v);
    plan->nbuffers = 3;
    plan->buffer[0].bytes = (size_t)n * 4;
    plan->buffer[0].init = in;
    /* Small (at most ACC_WORDS(MAX_BINS)): uploaded, zero, for each variant. */
    plan->buffer[1].bytes = (size_t)ACC_WORDS(k.bins) * 4;
    plan->buffer[1].init = zeros;
    plan->buffer[2].bytes = (size_t)k.bins * 4;
    plan->buffer[2].init = NULL;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = (int32_t)n;
    plan->nargs = 1;
    if (with_mask) {
        plan->arg[1].kind = SB_PLAN_INT;
        plan->arg[1].i = (int32_t)(k.bins - 1);
        plan->nargs = 2;
    }
    for (int i = 0; i < 3; i++) {
        plan->arg[plan->nargs].kind = SB_PLAN_BUFFER;
        plan->arg[plan->nargs++].buffer = i;
    }
    sb_grid_2d(&plan->geometry, v, n, 1, (long)BLOCK * k.coarse, 1);
    plan->bytes = (double)n * 4; /* the inputs: the histogram's few bytes are not the point */
}

/* ------------------------------------------------------------ accesses */

/* Every global and shared access the kernels execute is declared with the
 * warp-level requests (instructions) one launch executes: what the
 * hardware's request counters count.  A warp instruction of the inputs
 * takes 32 consecutive ones (thread tx of block bx at step j reads input
 * bx * BLOCK * COARSE + j * BLOCK + tx), and a warp with no input left
 * skips it, so each per-input access is a walk over the n inputs; the
 * loops over bins give every lane of a warp the same trip count, so each
 * is a walk over its words. */

static long blocks_of(long n, int coarse)
{
    long per_block = (long)BLOCK * coarse;
    return (n + per_block - 1) / per_block;
}

/* Warp instructions of a walk over `count` elements, the last one partial. */
static double warps_over(long count)
{
    sb_warp_split w = sb_warps_of(count);
    return (double)w.full + (w.tail_lanes > 0);
}

/* The bookkeeping every kernel does (launch_epoch, publish_previous and
 * launch_done in privatization.cl) in a launch of `blocks` blocks: thread 0
 * of each block reads the epoch into shared memory and every warp reads it
 * back (one word: a broadcast); the grid's threads read the other half's
 * `bins` words, copy them into the output and zero them, a warp's 32
 * consecutive bins a request whatever the grid's size (a half starts on a
 * line: whole sectors); thread 0 counts its block done with an atomic, and
 * the last block's stores the count and the next epoch. */
static void declare_bookkeeping(sb_plan *plan, long blocks, long bins)
{
    sb_pattern g = sb_dense(SB_SPACE_GLOBAL, 4), s = sb_dense(SB_SPACE_SHARED, 4), one = s;
    one.stride = 0;
    double nb = (double)blocks;
    int loop = SB_SITES_COMPILER; /* publish_previous's loop, unrolled as it likes */
    sb_plan_declare_walk(plan, &(sb_access){"epoch load", SB_ACCESS_LOAD, g, 0, 1, 0}, 1, nb);
    sb_plan_declare_walk(plan, &(sb_access){"epoch smem st", SB_ACCESS_STORE, s, 0, 1, 0}, 1, nb);
    sb_plan_declare(plan, &(sb_access){"epoch smem ld", SB_ACCESS_LOAD, one, nb * WARPS, 1, 0});
    sb_plan_declare_walk(plan, &(sb_access){"publish load", SB_ACCESS_LOAD, g, 0, loop, 0}, bins,
                         1);
    sb_plan_declare_walk(plan, &(sb_access){"publish store", SB_ACCESS_STORE, g, 0, loop, 0}, bins,
                         2); /* the copy into the output, and the zero */
    sb_plan_declare_walk(plan, &(sb_access){"done atomic", SB_ACCESS_ATOMIC, g, 0, 1, 0}, 1, nb);
    sb_plan_declare_walk(plan, &(sb_access){"next launch st", SB_ACCESS_STORE, g, 0, 2, 0}, 1, 2);
}

/* What every kernel of n inputs, COARSE a thread, does: the input's
 * coalesced load (the access the figure counts) and the bookkeeping. */
static void declare_common(sb_plan *plan, long n, const priv_knobs *k)
{
    sb_plan_declare_walk(plan, &(sb_access){"input load", SB_ACCESS_LOAD,
                                            sb_dense(SB_SPACE_GLOBAL, 4), 0, k->coarse, 1},
                         n, 1);
    declare_bookkeeping(plan, blocks_of(n, k->coarse), k->bins);
}

/* The partial sums' tree (hist_thread's, sum_block's) over a block's BLOCK
 * words, piece-major over `bins` bins: every thread stores its sum; at
 * step s (G / 2 down to 1, of G = BLOCK / bins pieces a bin) the first
 * s * bins threads add the word s * bins above theirs (two loads and a
 * store, consecutive words); then the first `bins` threads read the
 * totals.  Every request is conflict-free. */
static void declare_tree(sb_plan *plan, long bins, long blocks)
{
    sb_pattern s = sb_dense(SB_SPACE_SHARED, 4);
    sb_access st = {"part smem st", SB_ACCESS_STORE, s, 0, SB_SITES_COMPILER, 0};
    sb_access ld = {"part smem ld", SB_ACCESS_LOAD, s, 0, SB_SITES_COMPILER, 0};
    sb_plan_declare_walk(plan, &st, BLOCK, (double)blocks);
    for (long step = BLOCK / bins / 2; step > 0; step /= 2) {
        sb_plan_declare_walk(plan, &ld, step * bins, 2.0 * (double)blocks);
        sb_plan_declare_walk(plan, &st, step * bins, (double)blocks);
    }
    sb_plan_declare_walk(plan, &ld, bins, (double)blocks);
}

/* ---------------------------------------------- what the inputs decide */

/* A request of 32 lanes that costs `units`: in global memory lanes on
 * `units` sectors (on one word for one sector, as lanes all in one bin
 * are, else on as many words as lanes), in shared memory on `units` words
 * of one bank.  It stands in for requests whose lanes the inputs place. */
static sb_pattern stand_in(sb_space space, int units)
{
    sb_pattern p = sb_dense(space, 4);
    const int sector = SB_SECTOR_BYTES / 4; /* words */
    p.walk = SB_WALK_LIST;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p.lane_index[l] = (int32_t)(space == SB_SPACE_GLOBAL
                                        ? l % units * sector + (units > 1) * (l / units % sector)
                                        : l % units * SB_BANKS);
    return p;
}

/* Declares `requests` warp instructions of access a (a's pattern gives
 * only its space) that cost `units` in all (sectors, or wavefronts),
 * counted from the inputs: as the two nearest whole costs per request,
 * each with its stand-in pattern, so that the totals carry the units
 * exactly. */
static void declare_counted(sb_plan *plan, const sb_access *a, double requests, double units)
{
    if (!(requests > 0))
        return;
    int low = (int)(units / requests);
    low = low < 1 ? 1 : low > SB_WARP_LANES ? SB_WARP_LANES : low;
    double dearer = low < SB_WARP_LANES ? units - low * requests : 0; /* at low + 1 */
    dearer = dearer < 0 ? 0 : dearer > requests ? requests : dearer;
    sb_access at = *a;
    at.pattern = stand_in(a->pattern.space, low);
    at.requests = requests - dearer;
    sb_plan_declare(plan, &at);
    if (at.requests > 0)
        at.sites = 0; /* counted by the cheaper one */
    at.pattern = stand_in(a->pattern.space, low + (low < SB_WARP_LANES));
    at.requests = dearer;
    sb_plan_declare(plan, &at);
}

/* The cost of the warp instructions that add the n inputs to their bins:
 * in global memory the distinct sectors of the bins (a half starts on a
 * line); in shared memory the lanes in the busiest bank of the private
 * copy (bin b in bank b % 32, in every copy), lanes on one word counted
 * each.  That is the atomics model's rule (atomics_model.h): each lane's
 * update is a read-modify-write of its own, so lanes on one word
 * serialise, a wavefront each, as lanes on one bank do (a load's lanes on
 * one word would share one).  0, or -1 out of memory. */
static int update_units(const uint32_t *in, long n, long bins, sb_space space, double *units)
{
    uint32_t mask = (uint32_t)(bins - 1);
    uint32_t *seen = calloc((size_t)(bins + 7) / 8, sizeof *seen); /* by sector: warp + 1 */
    if (!seen)
        return -1;
    double total = 0;
    for (long w = 0; w * SB_WARP_LANES < n; w++) {
        int in_bank[SB_BANKS] = {0}, most = 0, sectors = 0;
        long end = (w + 1) * SB_WARP_LANES < n ? (w + 1) * SB_WARP_LANES : n;
        for (long i = w * SB_WARP_LANES; i < end; i++) {
            uint32_t bin = in[i] & mask;
            if (space == SB_SPACE_GLOBAL && seen[bin / 8] != (uint32_t)w + 1) {
                seen[bin / 8] = (uint32_t)w + 1;
                sectors++;
            } else if (space == SB_SPACE_SHARED && ++in_bank[bin % SB_BANKS] > most) {
                most = in_bank[bin % SB_BANKS];
            }
        }
        total += space == SB_SPACE_GLOBAL ? sectors : most;
    }
    free(seen);
    *units = total;
    return 0;
}

/* A block's merge of its private copy (merge_bin): a warp's 32 consecutive
 * bins a request, a lane whose bin the block left empty idle, a warp with
 * all 32 empty skipping its atomic.  Counted from the n inputs in blocks
 * of `per_block`: the requests (the 32-bin groups each block filled) and
 * their sectors (the 8-bin sectors it filled).  0, or -1 out of memory. */
static int merge_counts(const uint32_t *in, long n, long bins, long per_block, double *requests,
                        double *sectors)
{
    uint32_t mask = (uint32_t)(bins - 1);
    size_t nsectors = (size_t)(bins + 7) / 8;
    uint32_t *seen = calloc(nsectors + (nsectors + 3) / 4, sizeof *seen); /* block + 1 */
    if (!seen)
        return -1;
    uint32_t *group = seen + nsectors;
    *requests = *sectors = 0;
    for (long first = 0, b = 1; first < n; first += per_block, b++) {
        long end = first + per_block < n ? first + per_block : n;
        for (long i = first; i < end; i++) {
            uint32_t s = (in[i] & mask) / 8;
            if (seen[s] == (uint32_t)b)
                continue;
            seen[s] = (uint32_t)b;
            *sectors += 1;
            if (group[s / 4] != (uint32_t)b) {
                group[s / 4] = (uint32_t)b;
                *requests += 1;
            }
        }
    }
    free(seen);
    return 0;
}

/* ---------------------------------------------- each kernel's own */

/* hist_global: an atomic per input on its bin. */
static int declare_global(sb_plan *plan, const priv_knobs *k, const uint32_t *in, long n)
{
    double units;
    if (update_units(in, n, k->bins, SB_SPACE_GLOBAL, &units))
        return -1;
    declare_counted(plan, &(sb_access){"bin atomic", SB_ACCESS_ATOMIC,
                                       sb_dense(SB_SPACE_GLOBAL, 4), 0, k->coarse, 0},
                    warps_over(n), units);
    return 0;
}

/* hist_shared and hist_warp: the block's copies (one, or one a warp)
 * cleared, a shared atomic per input, each bin read back (hist_warp: from
 * every warp's copy) and merged with a global atomic where filled. */
static int declare_private(sb_plan *plan, const priv_knobs *k, const uint32_t *in, long n)
{
    long blocks = blocks_of(n, k->coarse);
    int copies = k->method == M_WARP ? WARPS : 1;
    sb_pattern s = sb_dense(SB_SPACE_SHARED, 4), g = sb_dense(SB_SPACE_GLOBAL, 4);
    int loop = SB_SITES_COMPILER;
    double units, requests, sectors;
    if (update_units(in, n, k->bins, SB_SPACE_SHARED, &units) ||
        merge_counts(in, n, k->bins, (long)BLOCK * k->coarse, &requests, &sectors))
        return -1;
    sb_plan_declare_walk(plan, &(sb_access){"priv clear", SB_ACCESS_STORE, s, 0, loop, 0},
                         copies * k->bins, (double)blocks);
    declare_counted(plan, &(sb_access){"priv atomic", SB_ACCESS_ATOMIC, s, 0, k->coarse, 0},
                    warps_over(n), units);
    sb_plan_declare_walk(plan, &(sb_access){"merge smem ld", SB_ACCESS_LOAD, s, 0, loop, 0},
                         k->bins, (double)blocks * copies);
    declare_counted(plan, &(sb_access){"merge atomic", SB_ACCESS_ATOMIC, g, 0, loop, 0},
                    requests, sectors);
    return 0;
}

/* The counters of hist_thread: lane t's in bank t % 32, whatever its bin. */
static sb_pattern count_pattern(void)
{
    return sb_dense(SB_SPACE_SHARED, 4);
}

/* hist_thread: each thread's BINS counters cleared, each input counted
 * with a plain load and store, each bin's counters summed by pieces (BINS
 * loads a thread, 32 banks by the rotated start), the tree, and the first
 * BINS threads' merge of the totals (one warp a block, never all empty). */
static int declare_thread(sb_plan *plan, const priv_knobs *k, const uint32_t *in, long n)
{
    long blocks = blocks_of(n, k->coarse);
    double walks = (double)blocks * (double)k->bins; /* of BLOCK counters: one a bin */
    sb_pattern c = count_pattern();
    int loop = SB_SITES_COMPILER;
    double requests, sectors;
    if (merge_counts(in, n, k->bins, (long)BLOCK * k->coarse, &requests, &sectors))
        return -1;
    sb_access st = {"count smem st", SB_ACCESS_STORE, c, 0, loop, 0};
    sb_access ld = {"count smem ld", SB_ACCESS_LOAD, c, 0, loop, 0};
    sb_plan_declare_walk(plan, &st, BLOCK, walks);
    sb_plan_declare_walk(plan, &st, n, 1);
    sb_plan_declare_walk(plan, &ld, n, 1);
    sb_plan_declare_walk(plan, &ld, BLOCK, walks);
    declare_tree(plan, k->bins, blocks);
    declare_counted(plan, &(sb_access){"merge atomic", SB_ACCESS_ATOMIC,
                                       sb_dense(SB_SPACE_GLOBAL, 4), 0, 1, 0},
                    requests, sectors);
    return 0;
}

/* The atomics model's figures for a histogram variant of n inputs. */
static void hist_figures(const priv_knobs *k, long n, sb_plan *plan)
{
    long per_block = (long)BLOCK * k->coarse;
    double distinct = sb_atomic_distinct_addresses(k->bins, k->dist);
    double same = sb_atomic_same_address(k->bins, k->dist);
    double ways = sb_atomic_bank_ways(k->bins, k->dist);
    if (k->method == M_THREAD) {
        /* Each lane its own counter: the model of that access says the ways. */
        sb_pattern c = count_pattern();
        sb_prediction pr;
        distinct = SB_WARP_LANES;
        same = 1;
        ways = sb_predict(&c, &pr) == 0 ? pr.ways : -1;
    }
    sb_figure_add(plan->figure, &plan->nfigures, "same_address_per_warp", same, "");
    sb_figure_add(plan->figure, &plan->nfigures, "distinct_addresses", distinct, "");
    if (k->method != M_GLOBAL)
        sb_figure_add(plan->figure, &plan->nfigures, "bank_ways", ways, "");
    sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input",
                  k->method == M_GLOBAL
                      ? 1.0
                      : sb_private_atomics_per_input(k->bins, k->dist, per_block, n),
                  "");
}

static int hist_plan(void *host, const sb_problem *p, const sb_variant *v,
                     const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    hist_host *h = host;
    (void)p;
    if (v->role == SB_ROLE_API_COPY) {
        plan_copy(h->in[SB_BINS_UNIFORM], h->n, plan);
        return 0;
    }
    if (hist_fits(v, dev, err, n))
        return -1;
    priv_knobs k = knobs_of(v);
    const uint32_t *in = h->in[k.dist];
    plan_kernel(in, h->n, h->zeros, v, 1, plan);
    declare_common(plan, h->n, &k);
    int bad = k.method == M_GLOBAL   ? declare_global(plan, &k, in, h->n)
              : k.method == M_THREAD ? declare_thread(plan, &k, in, h->n)
                                     : declare_private(plan, &k, in, h->n);
    if (bad) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    hist_figures(&k, h->n, plan);
    return 0;
}

/* sum_global: an atomic per input, every lane on the one word (a
 * sector); sum_block: the tree over one bin and thread 0's atomic. */
static void declare_sum(sb_plan *plan, const priv_knobs *k, long n)
{
    sb_pattern one = sb_dense(SB_SPACE_GLOBAL, 4);
    one.stride = 0;
    if (k->method == M_GLOBAL) {
        sb_plan_declare_walk(plan, &(sb_access){"sum atomic", SB_ACCESS_ATOMIC, one, 0,
                                                k->coarse, 0},
                             n, 1);
        return;
    }
    long blocks = blocks_of(n, k->coarse);
    declare_tree(plan, 1, blocks);
    sb_plan_declare_walk(plan, &(sb_access){"block atomic", SB_ACCESS_ATOMIC, one, 0, 1, 0}, 1,
                         (double)blocks);
}

static int sum_plan(void *host, const sb_problem *p, const sb_variant *v,
                    const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    sum_host *h = host;
    (void)p;
    (void)dev;
    (void)err;
    (void)n;
    if (v->role == SB_ROLE_API_COPY) {
        plan_copy(h->in, h->n, plan);
        return 0;
    }
    priv_knobs k = knobs_of(v);
    plan_kernel(h->in, h->n, h->zeros, v, 0, plan);
    declare_common(plan, h->n, &k);
    declare_sum(plan, &k, h->n);
    if (k.method == M_GLOBAL) {
        sb_figure_add(plan->figure, &plan->nfigures, "same_address_per_warp", SB_WARP_LANES, "");
        sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input", 1.0, "");
    } else {
        sb_figure_add(plan->figure, &plan->nfigures, "global_atomics_per_input",
                      sb_private_atomics_per_input(1, SB_BINS_SKEWED, (long)BLOCK * k.coarse,
                                                   h->n),
                      "");
    }
    return 0;
}

/* ------------------------------------------------------------ checks */

static int verify_copy(const uint32_t *in, long n, const uint32_t *out, char *err, size_t en)
{
    long i = sb_first_word_mismatch(out, in, n);
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, en, "copy[%ld] = 0x%08x, expected 0x%08x%s", i, out[i], in[i],
             out[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* Why a published histogram of zeros is wrong in a way of its own. */
static const char *all_zero_note(const uint32_t *out, long bins)
{
    for (long b = 0; b < bins; b++)
        if (out[b] != 0)
            return "";
    return ": every bin is 0, and a launch publishes the histogram of the launch before it "
           "(privatization.cl), so one launch alone leaves zeros";
}

static int hist_verify(void *host, const sb_problem *p, const sb_variant *v,
                       void *const *outputs, char *err, size_t n)
{
    hist_host *h = host;
    (void)p;
    const uint32_t *out = outputs[0];
    if (v->role == SB_ROLE_API_COPY)
        return verify_copy(h->in[SB_BINS_UNIFORM], h->n, out, err, n);
    priv_knobs k = knobs_of(v);
    const uint32_t *want = h->want[k.dist][k.bin_index];
    long b = sb_first_word_mismatch(out, want, k.bins);
    if (b == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "bin %ld of %ld = %u, expected %u%s", b, k.bins, out[b], want[b],
             out[b] == SB_POISON_WORD ? ": never written" : all_zero_note(out, k.bins));
    return -1;
}

static int sum_verify(void *host, const sb_problem *p, const sb_variant *v,
                      void *const *outputs, char *err, size_t n)
{
    sum_host *h = host;
    (void)p;
    const uint32_t *out = outputs[0];
    if (v->role == SB_ROLE_API_COPY)
        return verify_copy(h->in, h->n, out, err, n);
    if (out[0] == h->total)
        return 0;
    snprintf(err, n, "sum = %u, expected %u (modulo 2^32)%s", out[0], h->total,
             out[0] == SB_POISON_WORD ? ": never written" : all_zero_note(out, 1));
    return -1;
}

/* What the two experiments share. */
#define PRIV_COMMON                                                                            \
    .family = "privatization", .source = "privatization.cl", .quantity = SB_QUANTITY_BANDWIDTH, \
    .size_kind = SB_SIZE_ELEMENTS, .in_default = 0, .test_sizes = "1,20000x1",                 \
    .default_size = priv_default_size, .headline = {SB_HEADLINE_BEST_SHARE}

/* What the histogram's rows teach (offers.h); its plot is throughput against
 * the bin count, a series per method and distribution. */
static const sb_lesson_rule histogram_lessons[] = {
    {.kind = SB_LESSON_PRIVATE, .dist = "skewed", .against = "global",
     .what = "with every value in one bin"},
    {.kind = SB_LESSON_PRIVATE, .dist = "uniform", .against = "global",
     .what = "with uniform values"},
    {.kind = SB_LESSON_PAIR, .tried = "shared_coarse-b4096-uniform",
     .against = "shared-b4096-uniform", .what = "coarsening the private copy (32 inputs a thread)"},
    {0},
};

const sb_experiment sb_exp_histogram = {
    .name = "histogram",
    .summary = "histogram into 1..65536 bins, uniform and all in one bin: global atomics "
               "against private copies in shared memory (per block, warp, thread); input GB/s",
    PRIV_COMMON,
    .variants = hist_variants,
    .prepare = hist_prepare,
    .release = hist_release,
    .plan = hist_plan,
    .verify = hist_verify,
    .fits = hist_fits,
    .plots = (const sb_plot_offer[]){{.kind = SB_PLOT_BINS, .name = "bins"}, {0}},
    .lessons = histogram_lessons,
};

static const sb_lesson_rule sum_lessons[] = {
    {.kind = SB_LESSON_PAIR, .tried = "block", .against = "global",
     .what = "summing per block before one atomic"},
    {.kind = SB_LESSON_PAIR, .tried = "block_coarse", .against = "block",
     .what = "coarsening the per-block sums (32 inputs a thread)"},
    {0},
};

const sb_experiment sb_exp_sum = {
    .name = "sum",
    .summary = "sum of 32-bit words: a global atomic per input against per-block partial "
               "sums; input GB/s",
    PRIV_COMMON,
    .variants = sum_variants,
    .prepare = sum_prepare,
    .release = sum_release,
    .plan = sum_plan,
    .verify = sum_verify,
    .lessons = sum_lessons,
};
