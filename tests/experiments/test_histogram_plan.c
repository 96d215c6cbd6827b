/* The model's totals per launch of every histogram and sum variant at
 * 4097 inputs (16 blocks of 256 and one of a single input, or one
 * coarsened block of 8192), worked out by hand below from
 * common/kernels/privatization.cl and held against the plans that
 * src/experiments/privatization.c makes.
 *
 * The rules used by hand (those of test_edge_plan.c): a warp with no lane
 * past the guard makes no request; 32 consecutive words from a 128-byte
 * line take 4 sectors, 1 to 8 of them one; a shared request of distinct
 * banks takes one wavefront, a broadcast one.  The atomics' requests are
 * declared as the manual's "Atomics" paragraph says the H200 counts them
 * (Nsight Compute): one ATOMG request (global_atom_requests, the count
 * --counters holds) a warp instruction, of one sector for a lane alone
 * (the done count, a merge of one bin); one ATOMS request
 * (shared_atom_requests) a warp instruction.  Their other costs are the
 * model's own rule, which the manual says the hardware does not follow
 * and --counters does not hold: an update's distinct sectors (the H200
 * counts 32 for a warp on one bin), a shared update's lanes in its
 * busiest bank, lanes on one word each (it counts one wavefront for a
 * warp on one word).  Where the inputs place the
 * lanes (an update's sectors or busiest bank, a merge's filled bins) the
 * skewed inputs (every value a multiple of 65536: all in bin 0) and one
 * bin are worked by hand; the uniform ones are random words that no hand
 * can place, so their costs are counted below, lane by lane, from the
 * same generator and seed the plan's inputs come from. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

#define N 4097
#define SEED 1

/* What a launch makes: global loads, stores and atomics (requests,
   sectors), shared loads, stores (requests; as many wavefronts: every
   such request here is conflict-free) and atomics (requests, wavefronts). */
typedef struct counts {
    double ld_req, ld_sectors, st_req, st_sectors, atom_req, atom_sectors;
    double sld_req, sst_req, satom_req, satom_wavefronts;
} counts;

static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

/* The plan's totals of exp/variant at N inputs on a GPU-less device with
   48 KiB of shared memory a block (the H200's); -1 when the plan refuses. */
static int totals_of(const char *exp, const char *name, sb_access_totals *t)
{
    const sb_experiment *e = experiment(exp);
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    sb_plan *plan = calloc(1, sizeof *plan);
    assert_non_null(vs);
    assert_non_null(plan);
    int nv = e->variants(vs, SB_MAX_VARIANTS), i = 0;
    while (i < nv && strcmp(vs[i].name, name) != 0)
        i++;
    if (i == nv)
        fail_msg("%s has no variant %s", exp, name);
    sb_problem p = {N, 1};
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 2;
    dev.warp_size = 32;
    dev.local_mem_bytes = 48 * 1024;
    void *host = NULL;
    char err[512] = "";
    if (e->prepare(&p, SEED, &host, err, sizeof err))
        fail_msg("%s: prepare: %s", exp, err);
    int rc = e->plan(host, &p, &vs[i], &dev, plan, err, sizeof err);
    e->release(host);
    if (rc == 0)
        assert_int_equal(sb_access_totals_of(plan->pattern, plan->requests, plan->kind,
                                             plan->npatterns, t), 0);
    free(plan);
    free(vs);
    return rc ? -1 : 0;
}

static void expect(const char *exp, const char *variant, counts w)
{
    sb_access_totals t;
    if (totals_of(exp, variant, &t))
        fail_msg("%s/%s: the plan refused 4097 inputs", exp, variant);
    const double got[] = {t.global_ld_requests, t.global_ld_sectors, t.global_st_requests,
                          t.global_st_sectors, t.global_atom_requests, t.global_atom_sectors,
                          t.shared_ld_requests, t.shared_st_requests, t.shared_atom_requests,
                          t.shared_atom_wavefronts, t.shared_ld_wavefronts,
                          t.shared_st_wavefronts};
    const double want[] = {w.ld_req,    w.ld_sectors, w.st_req,    w.st_sectors,
                           w.atom_req,  w.atom_sectors, w.sld_req, w.sst_req,
                           w.satom_req, w.satom_wavefronts, w.sld_req, w.sst_req};
    static const char *const what[] = {
        "global ld requests", "global ld sectors",    "global st requests",
        "global st sectors",  "global atom requests", "global atom sectors",
        "shared ld requests", "shared st requests",   "shared atom requests",
        "shared atom wavefronts", "shared ld wavefronts", "shared st wavefronts"};
    for (size_t i = 0; i < sizeof got / sizeof got[0]; i++)
        if (got[i] != want[i])
            fail_msg("%s/%s at 4097: %s %.0f, worked out by hand %.0f", exp, variant, what[i],
                     got[i], want[i]);
}

/* ---- what every kernel does (B blocks, K bins) ---------------------------
 *
 * The input: 4097 = 128 x 32 + 1 words from a line, at every step j a
 * warp's 32 consecutive ones (input_index): 128 requests of one line (4
 * sectors) and one of lane 0 alone: 129 requests, 513 sectors, in one
 * block of 8192 as in 17 of 256.
 * launch_epoch: thread 0 of each block loads acc[0] (B requests of one
 * sector) and stores it to `slot` (B shared stores); every warp of every
 * block, those past the inputs too, loads `slot` back: 8B shared loads,
 * a broadcast (one wavefront).
 * publish_previous: the other half's K words, from a line, a warp's 32
 * consecutive bins a request: P = ceil(K / 32) loads of S sectors in all
 * (K / 8, or 1 for K = 1), and twice that in stores (the copy into the
 * output and the zero).
 * launch_done: thread 0's ATOMG on the done count, B requests of one lane
 * (one sector each), and the last block's two stores of one lane. */
static long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

static counts common(long blocks, long bins)
{
    double b = (double)blocks, p = (double)ceil_div(bins, 32), s = bins < 8 ? 1 : bins / 8;
    return (counts){.ld_req = 129 + b + p,
                    .ld_sectors = 513 + b + s,
                    .st_req = 2 * p + 2,
                    .st_sectors = 2 * s + 2,
                    .atom_req = b,
                    .atom_sectors = b,
                    .sld_req = 8 * b,
                    .sst_req = b};
}

/* ---- the costs the uniform inputs decide, counted lane by lane -----------
 *
 * The plan's inputs: sb_random_words(n, seed), bin v & (K - 1).  Each warp
 * instruction of the updates takes inputs 32w .. 32w + 31 (the last one
 * lane); a global update costs the distinct 8-bin sectors of its lanes, a
 * shared one the most lanes on one bank (bin % 32), lanes on one word
 * counted each (the atomics model's rule).  A block of `per` inputs merges
 * each 32-bin group it filled with one request, of as many sectors as the
 * 8-bin sectors it filled. */
typedef struct placed {
    double global_units, shared_units, merge_req, merge_sectors;
} placed;

static placed place(long bins, long per)
{
    uint32_t *in = malloc(N * sizeof *in);
    unsigned char *sector = calloc((size_t)bins / 8 + 1, 1);
    assert_non_null(in);
    assert_non_null(sector);
    sb_random_words(in, N, SEED);
    placed pl = {0, 0, 0, 0};
    for (long w = 0; w < N; w += 32) {
        long end = w + 32 < N ? w + 32 : N;
        int bank[32] = {0}, most = 0;
        for (long i = w; i < end; i++) {
            uint32_t bin = in[i] & (uint32_t)(bins - 1);
            int first = 1;
            for (long k = w; k < i; k++)
                first &= (in[k] & (uint32_t)(bins - 1)) / 8 != bin / 8;
            pl.global_units += first;
            most = ++bank[bin % 32] > most ? bank[bin % 32] : most;
        }
        pl.shared_units += most;
    }
    for (long first = 0; first < N; first += per) {
        memset(sector, 0, (size_t)bins / 8 + 1);
        for (long i = first; i < N && i < first + per; i++)
            sector[(in[i] & (uint32_t)(bins - 1)) / 8] = 1;
        for (long g = 0; g * 4 < bins / 8 + 1; g++) {
            int filled = 0;
            for (long s = 4 * g; s < 4 * g + 4 && s <= bins / 8; s++)
                filled += sector[s];
            pl.merge_req += filled > 0;
            pl.merge_sectors += filled;
        }
    }
    free(sector);
    free(in);
    return pl;
}

/* What the inputs decide for K bins in blocks of `per` inputs: by hand
 * where every input falls in bin 0 (skewed inputs, or one bin): a global
 * update's lanes on one sector, 128 + 1 = 129 sectors; a shared one's
 * on one word, 32 wavefronts a full warp, 128 x 32 + 1 = 4097; each block
 * merges bin 0 alone, one request of one sector. */
static placed decided(long bins, int uniform, long blocks, long per)
{
    if (uniform && bins > 1)
        return place(bins, per);
    return (placed){129, 4097, (double)blocks, (double)blocks};
}

/* ---- hist_global: one ATOMG per input, COARSE 1, 17 blocks -------------- */
static counts want_global(long bins, int uniform)
{
    counts c = common(17, bins);
    placed pl = decided(bins, uniform, 17, 256);
    c.atom_req += 129;
    c.atom_sectors += pl.global_units;
    return c;
}

/* ---- hist_shared (COARSE 1, 17 blocks; shared_coarse: 32, one block) and
 * hist_warp (32, one block, 8 copies) --------------------------------------
 *
 * Each block clears its copies, a warp's 32 consecutive words a store
 * (P = ceil(K / 32) a copy; hist_warp's 8 copies of K words: ceil(8K /
 * 32)), adds each input with an ATOMS (129 requests, as the input load),
 * reads each bin back (hist_warp: from every warp's copy, 8P loads; the
 * others P), and merges what it filled with an ATOMG. */
static counts want_private(long bins, int uniform, int coarse, int copies)
{
    long blocks = coarse == 1 ? 17 : 1;
    counts c = common(blocks, bins);
    placed pl = decided(bins, uniform, blocks, 256L * coarse);
    double p = (double)ceil_div(bins, 32), b = (double)blocks;
    c.sst_req += b * (double)ceil_div(copies * bins, 32);
    c.satom_req = 129;
    c.satom_wavefronts = pl.shared_units;
    c.sld_req += b * copies * p;
    c.atom_req += pl.merge_req;
    c.atom_sectors += pl.merge_sectors;
    return c;
}

/* The reduction tree over a block's 256 partial sums, K bins piece-major
 * (declare_tree, hist_thread's and sum_block's loops): every thread
 * stores its sum (8 stores); at each step s = 256 / K / 2 .. 1 the first
 * sK threads load two words and store one: T = the sum over the steps of
 * ceil(sK / 32) warps (K = 1: 4 + 2 + 1 x 6 = 12; K = 32: steps 4, 2, 1,
 * 4 + 2 + 1 = 7); then the first K threads load the totals (P).  Loads 2T
 * + P, stores 8 + T, conflict-free. */
static void add_tree(counts *c, long bins, double blocks)
{
    double t = 0;
    for (long s = 256 / bins / 2; s > 0; s /= 2)
        t += (double)ceil_div(s * bins, 32);
    c->sld_req += blocks * (2 * t + (double)ceil_div(bins, 32));
    c->sst_req += blocks * (8 + t);
}

/* ---- hist_thread: COARSE 32, one block, no atomics but the merge ---------
 *
 * Each thread clears its K counters (8K stores a block), counts each input
 * with a load and a store of its own counter (129 each, lane t in bank t
 * % 32), sums its bin's piece (K loads a thread: 8K), the tree, and the
 * first K threads merge the totals (one warp, one ATOMG of the filled
 * bins' sectors).  K = 1: loads 129 + 8 + 25 and stores 8 + 129 + 20 with
 * the epoch's; K = 32: 129 + 256 + 15 and 256 + 129 + 15. */
static counts want_thread(long bins, int uniform)
{
    counts c = common(1, bins);
    placed pl = decided(bins, uniform, 1, 8192);
    c.sst_req += 8.0 * (double)bins + 129;
    c.sld_req += 129 + 8.0 * (double)bins;
    add_tree(&c, bins, 1);
    c.atom_req += pl.merge_req;
    c.atom_sectors += pl.merge_sectors;
    return c;
}

/* Every histogram variant at every bin count it exists for, both inputs. */
static void histogram_4097(void **state)
{
    (void)state;
    static const long bins[] = {1, 32, 256, 4096, 65536};
    for (int u = 0; u <= 1; u++)
        for (size_t b = 0; b < sizeof bins / sizeof bins[0]; b++) {
            long k = bins[b];
            char name[48];
            const char *dist = u ? "uniform" : "skewed";
#define VARIANT(m) (snprintf(name, sizeof name, "%s-b%ld-%s", m, k, dist), name)
            expect("histogram", VARIANT("global"), want_global(k, u));
            if (k <= 4096) { /* 65536 bins, 256 KiB: past the 48 KiB of a block */
                expect("histogram", VARIANT("shared"), want_private(k, u, 1, 1));
                expect("histogram", VARIANT("shared_coarse"), want_private(k, u, 32, 1));
            }
            if (k <= 256)
                expect("histogram", VARIANT("warp"), want_private(k, u, 32, 8));
            if (k <= 32)
                expect("histogram", VARIANT("thread"), want_thread(k, u));
#undef VARIANT
        }
}

/* The private copies of 65536 bins do not fit a block of 48 KiB: the plan
   refuses them rather than model a launch that cannot run. */
static void histogram_too_large(void **state)
{
    (void)state;
    sb_access_totals t;
    assert_int_equal(totals_of("histogram", "shared-b65536-uniform", &t), -1);
    assert_int_equal(totals_of("histogram", "shared_coarse-b65536-skewed", &t), -1);
}

/* ---- the sums: one bin, every input's word added -------------------------
 *
 * sum_global (COARSE 1, 17 blocks): one ATOMG per input warp, every lane
 * on the one word: 129 requests of one sector.  sum_block (17 blocks) and
 * block_coarse (one): the tree over one bin (T = 12) and thread 0's ATOMG,
 * one a block. */
static void sum_4097(void **state)
{
    (void)state;
    counts g = common(17, 1);
    g.atom_req += 129;
    g.atom_sectors += 129;
    expect("sum", "global", g);
    counts b = common(17, 1);
    add_tree(&b, 1, 17);
    b.atom_req += 17;
    b.atom_sectors += 17;
    expect("sum", "block", b);
    counts c = common(1, 1);
    add_tree(&c, 1, 1);
    c.atom_req += 1;
    c.atom_sectors += 1;
    expect("sum", "block_coarse", c);
}

/* The figures above, spelled out for two variants, so that the helpers'
 * arithmetic is itself checked by hand: shared-b32-skewed (17 blocks, P =
 * 1, S = 4): loads 129 + 17 + 1 = 147 requests, 513 + 17 + 4 = 534
 * sectors; stores 2 + 2 = 4, 8 + 2 = 10 sectors; ATOMG 17 done + 17
 * merges; shared loads 8 x 17 + 17 = 153, stores 17 + 17 = 34; ATOMS 129
 * requests, 4097 wavefronts.  sum/block: shared loads 136 + 17 x 25 = 561,
 * stores 17 + 17 x 20 = 357. */
static void spelled_out(void **state)
{
    (void)state;
    expect("histogram", "shared-b32-skewed",
           (counts){147, 534, 4, 10, 34, 34, 153, 34, 129, 4097});
    expect("sum", "block", (counts){147, 531, 4, 4, 34, 34, 561, 357, 0, 0});
    expect("histogram", "thread-b1-skewed",
           (counts){131, 515, 4, 4, 2, 2, 8 + 129 + 8 + 25, 1 + 8 + 129 + 20, 0, 0});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(histogram_4097),
        cmocka_unit_test(histogram_too_large),
        cmocka_unit_test(sum_4097),
        cmocka_unit_test(spelled_out),
    };
    SB_TEST_MAIN(tests);
}
