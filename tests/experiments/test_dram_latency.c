/* The host side of the dram and latency families, with no device: the
 * gathers' placements are permutations of the slots (random, or at the
 * distance said), the pointer chase's cycles visit every line of their
 * working set once, each check passes the output the kernel would give
 * and fails poison, a wrong word, a write past what the kernel may touch
 * and, for the chase, a walk that went nowhere (whose end alone looks
 * right after whole laps); and a working set past the size is left out. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "experiments/catalogue.h"
#include "experiments/dram_gather.h"
#include "experiments/host_data.h"
#include "experiments/variant.h"

static const sb_experiment *experiment(const char *name)
{
    const sb_experiment *e = NULL;
    if (sb_catalogue_select(name, &e, 1) != 1 || strcmp(e->name, name) != 0)
        fail_msg("no experiment %s in the catalogue", name);
    return e;
}

static sb_variant variant(const sb_experiment *e, const char *name)
{
    sb_variant *vs = calloc(SB_MAX_VARIANTS, sizeof *vs);
    int n = e->variants(vs, SB_MAX_VARIANTS);
    sb_variant v;
    memset(&v, 0, sizeof v);
    for (int i = 0; i < n; i++)
        if (strcmp(vs[i].name, name) == 0)
            v = vs[i];
    free(vs);
    if (!v.name[0])
        fail_msg("no variant %s in %s", name, e->name);
    return v;
}

/* The experiment prepared at words x 1 and variant planned on a CPU-like
 * device; plan's answer. */
static int plan_at(const sb_experiment *e, long words, const sb_variant *v, void **host,
                   sb_plan *plan, char *err, size_t n)
{
    sb_problem p = {words, 1};
    sb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.compute_units = 2;
    if (!*host && e->prepare(&p, 7, host, err, n))
        fail_msg("%s: prepare: %s", e->name, err);
    memset(plan, 0, sizeof *plan);
    return e->plan(*host, &p, v, &dev, plan, err, n);
}

static void gather_placements_are_permutations(void **state)
{
    (void)state;
    unsigned char *seen = malloc(1 << 16);
    for (int lchunks = 0; lchunks <= 16; lchunks++) {
        uint32_t chunks = 1u << lchunks;
        sb_gather random = {SB_GATHER_RANDOM, 64, 0};
        memset(seen, 0, chunks);
        for (uint32_t k = 0; k < chunks; k++) {
            uint32_t s = sb_gather_slot(&random, k, lchunks, 0x5bd1e995u);
            assert_true(s < chunks && !seen[s]);
            seen[s] = 1;
        }
        for (int ldist = 1; ldist < lchunks; ldist++) {
            sb_gather far = {SB_GATHER_DISTANCE, 128, 128L << ldist};
            uint32_t per_row = chunks >> ldist;
            memset(seen, 0, chunks);
            for (uint32_t k = 0; k < chunks; k++) {
                uint32_t s = sb_gather_slot(&far, k, lchunks, 0);
                assert_true(s < chunks && !seen[s]);
                seen[s] = 1;
                /* the next chunk in flight is the distance further on */
                if ((k + 1) % per_row)
                    assert_int_equal(sb_gather_slot(&far, k + 1, lchunks, 0), s + (1u << ldist));
            }
        }
    }
    /* Neighbours at random are not neighbours in the buffer. */
    sb_gather random = {SB_GATHER_RANDOM, 64, 0};
    int adjacent = 0;
    for (uint32_t k = 0; k + 1 < 4096; k++)
        adjacent += sb_gather_slot(&random, k + 1, 12, 1) == sb_gather_slot(&random, k, 12, 1) + 1;
    assert_true(adjacent < 16);
    free(seen);
}

/* The output a gather's kernel writes: its region, chunk by chunk, and
 * nothing past it. */
static uint32_t *gathered(const sb_plan *plan, const sb_gather *g, int lchunks, uint32_t seed)
{
    const uint32_t *in = plan->buffer[0].init;
    size_t bytes = plan->buffer[1].bytes, region = (size_t)plan->bytes / 2;
    uint32_t *out = malloc(bytes);
    sb_poison(out, bytes);
    long words = g->chunk_bytes / 4;
    for (uint32_t k = 0; k < (uint32_t)(region / (size_t)g->chunk_bytes); k++)
        memcpy(out + k * words, in + (long)sb_gather_slot(g, k, lchunks, seed) * words,
               (size_t)g->chunk_bytes);
    return out;
}

static void gather_check_passes_and_fails(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("dram_burst");
    sb_variant v = variant(e, "c64");
    void *host = NULL;
    sb_plan plan;
    char err[512];
    /* 48 KiB: a 32 KiB region gathered, 16 KiB after it left alone. */
    assert_int_equal(plan_at(e, 12288, &v, &host, &plan, err, sizeof err), 0);
    assert_int_equal(plan.buffer[1].bytes, 48 << 10);
    assert_double_equal(plan.bytes, 2.0 * (32 << 10), 0);
    assert_int_equal(plan.arg[1].i, 9); /* 2^9 chunks of 64 bytes */
    const sb_gather_host *h = host;
    sb_gather g = {SB_GATHER_RANDOM, 64, 0};
    uint32_t *out = gathered(&plan, &g, 9, h->seed);
    void *outputs[1] = {out};
    assert_int_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
    uint32_t saved = out[100];
    out[100] = SB_POISON_WORD;
    assert_int_not_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "out[100]"));
    assert_non_null(strstr(err, "never written"));
    out[100] = saved;
    out[(32 << 10) / 4 + 5] = 0;
    assert_int_not_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "past the 32768 bytes gathered"));
    free(out);
    /* The channel experiment's widest distance does not fit two rows here. */
    const sb_experiment *c = experiment("dram_channels");
    sb_variant far = variant(c, "d1M");
    assert_int_equal(plan_at(c, 12288, &far, &host, &plan, err, sizeof err), SB_PLAN_LEFT_OUT);
    assert_non_null(strstr(err, "d1M needs a buffer of 2048 KiB"));
    e->release(host);
}

/* Follows the kernel's walk on the host: launches of steps loads from the
 * state, as chase in latency.cl does, each link the tagged index of the
 * next one's 8-byte word; out gets end, launches and the sum of the
 * links' byte offsets. */
static void chase_on_host(const sb_plan *plan, int launches, uint32_t out[4])
{
    const uint64_t *next = plan->buffer[0].init;
    const uint32_t *start = plan->buffer[1].init;
    uint32_t p = start[0], sum = start[2];
    for (long s = 0; s < (long)launches * plan->arg[0].i; s++) {
        p = (uint32_t)(next[p] & ~(1ULL << 63));
        sum += 8u * p;
    }
    out[0] = p;
    out[1] = (uint32_t)launches;
    out[2] = sum;
    out[3] = SB_POISON_WORD;
}

/* Each working set's cycle visits its lines once each, in one word of
 * them, and no two working sets' cycles share a word. */
static void chase_cycles_visit_every_line(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("latency");
    void *host = NULL;
    sb_plan plan;
    char err[512];
    static const char *const names[] = {"ws16K", "ws32K", "ws64K", "ws128K", "ws256K"};
    char *line_seen = malloc(2048), *word_seen = calloc(2048 * 16, 1);
    for (int j = 0; j < 5; j++) {
        sb_variant v = variant(e, names[j]);
        assert_int_equal(plan_at(e, 65536, &v, &host, &plan, err, sizeof err), 0);
        const uint64_t *next = plan.buffer[0].init;
        const uint32_t *start = plan.buffer[1].init;
        uint32_t lines = (16u << 10 << j) / 128, at = start[0], slot = at % 16;
        assert_int_equal(plan.arg[1].i, (int32_t)slot);
        assert_int_equal(plan.arg[3].i, (int32_t)lines);
        memset(line_seen, 0, 2048);
        for (uint32_t s = 0; s < lines; s++) {
            assert_int_equal(at % 16, slot); /* its own word of each line */
            assert_true(at / 16 < 2048 && !line_seen[at / 16] && !word_seen[at]);
            assert_true(next[at] >> 63); /* tagged: the device makes it an address */
            line_seen[at / 16] = word_seen[at] = 1;
            at = (uint32_t)(next[at] & ~(1ULL << 63));
        }
        assert_int_equal(at, start[0]); /* one cycle through every line */
    }
    sb_variant v = variant(e, "ws512K");
    assert_int_equal(plan_at(e, 65536, &v, &host, &plan, err, sizeof err), SB_PLAN_LEFT_OUT);
    assert_non_null(strstr(err, "--size 131072x1"));
    free(line_seen);
    free(word_seen);
    e->release(host);
}

static void chase_check_passes_and_fails(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("latency");
    void *host = NULL;
    sb_plan plan;
    char err[512];
    uint32_t out[4];
    void *outputs[1] = {out};
    for (int j = 0; j < 2; j++) {
        sb_variant v = variant(e, j ? "ws64K" : "ws16K");
        assert_int_equal(plan_at(e, 16384, &v, &host, &plan, err, sizeof err), 0);
        chase_on_host(&plan, 3, out);
        assert_int_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
        /* A walk that went nowhere: 3 x 65536 loads are whole laps of 128
           (or 512) lines, so its end is the start, but its sum is not the
           links'. */
        const uint32_t *start = plan.buffer[1].init;
        uint32_t nowhere[4] = {start[0], 3, 0, SB_POISON_WORD};
        outputs[0] = nowhere;
        assert_int_equal(out[0], start[0]);
        assert_int_not_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
        assert_non_null(strstr(err, "after 3 launches"));
        outputs[0] = out;
        out[1] = 4; /* one launch more than it walked */
        assert_int_not_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
        out[1] = SB_POISON_WORD;
        assert_int_not_equal(e->verify(host, NULL, &v, outputs, err, sizeof err), 0);
        assert_non_null(strstr(err, "never written"));
    }
    e->release(host);
}

static void working_set_copies_and_leaves_out(void **state)
{
    (void)state;
    const sb_experiment *e = experiment("dram_working_set");
    void *host = NULL;
    sb_plan plan;
    char err[512];
    /* 96 KiB: buffers of 32 KiB (ws64K) and 64 KiB (ws128K, the largest,
       whose output is the whole 96 KiB). */
    sb_variant small = variant(e, "ws64K"), top = variant(e, "ws128K");
    assert_int_equal(plan_at(e, 24576, &small, &host, &plan, err, sizeof err), 0);
    assert_int_equal(plan.buffer[0].bytes, 96 << 10);
    assert_int_equal(plan.buffer[1].bytes, 32 << 10);
    long passes = plan.arg[1].i;
    assert_true(passes > 1); /* a small copy is repeated in its launch */
    assert_double_equal(plan.bytes, 2.0 * (32 << 10) * passes, 0);
    assert_int_equal(plan_at(e, 24576, &top, &host, &plan, err, sizeof err), 0);
    assert_int_equal(plan.buffer[1].bytes, 96 << 10);
    uint32_t *out = malloc(96 << 10);
    sb_poison(out, 96 << 10);
    memcpy(out, plan.buffer[0].init, 64 << 10);
    void *outputs[1] = {out};
    assert_int_equal(e->verify(host, NULL, &top, outputs, err, sizeof err), 0);
    out[(64 << 10) / 4] = 1;
    assert_int_not_equal(e->verify(host, NULL, &top, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "past the 16384 words copied"));
    out[(64 << 10) / 4] = SB_POISON_WORD;
    out[7] ^= 1;
    assert_int_not_equal(e->verify(host, NULL, &top, outputs, err, sizeof err), 0);
    assert_non_null(strstr(err, "out[7]"));
    sb_variant past = variant(e, "ws256K");
    assert_int_equal(plan_at(e, 24576, &past, &host, &plan, err, sizeof err), SB_PLAN_LEFT_OUT);
    free(out);
    e->release(host);
}

/* On a GPU every read launch reads the same bytes whatever its working
 * set (a small one over many passes), within the kernel's int count of
 * words, and more than a copy's launch moves: so that a cache's figure is
 * not a launch's fixed cost, as gpu-l2-cache's long launches measure it. */
static void read_launches_are_long_on_a_gpu(void **state)
{
    (void)state;
    const sb_experiment *read = experiment("dram_read_set"), *copy = experiment("dram_working_set");
    sb_problem p = {24576, 1};
    sb_device_info gpu;
    memset(&gpu, 0, sizeof gpu);
    gpu.compute_units = 2;
    gpu.is_gpu = 1;
    void *rh = NULL, *ch = NULL;
    char err[512];
    assert_int_equal(read->prepare(&p, 7, &rh, err, sizeof err), 0);
    assert_int_equal(copy->prepare(&p, 7, &ch, err, sizeof err), 0);
    sb_variant r32 = variant(read, "ws32K"), r64 = variant(read, "ws64K");
    sb_variant c64 = variant(copy, "ws64K");
    sb_plan a, b, c;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&c, 0, sizeof c);
    assert_int_equal(read->plan(rh, &p, &r32, &gpu, &a, err, sizeof err), 0);
    assert_int_equal(read->plan(rh, &p, &r64, &gpu, &b, err, sizeof err), 0);
    assert_int_equal(copy->plan(ch, &p, &c64, &gpu, &c, err, sizeof err), 0);
    assert_double_equal(a.bytes, b.bytes, 0);
    assert_true(a.bytes / 16 <= 2147483647.0);
    assert_true(a.bytes > c.bytes);
    read->release(rh);
    copy->release(ch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gather_placements_are_permutations),
        cmocka_unit_test(gather_check_passes_and_fails),
        cmocka_unit_test(chase_cycles_visit_every_line),
        cmocka_unit_test(chase_check_passes_and_fails),
        cmocka_unit_test(working_set_copies_and_leaves_out),
        cmocka_unit_test(read_launches_are_long_on_a_gpu),
    };
    SB_TEST_MAIN(tests);
}
