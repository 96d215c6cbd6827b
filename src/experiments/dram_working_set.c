/* The working-set experiment (family dram): copy bandwidth against the
 * bytes a copy touches, 64 KiB to 8 GiB (its two buffers together).
 * While both buffers fit the L2 the copy runs at the L2's speed; past it,
 * at DRAM's: the plateaus say where the L2 ends, and why every bandwidth
 * experiment's default buffers are at least four L2 sizes each (the copy
 * of such buffers is well onto the DRAM plateau).  A small working set is
 * copied many times in one launch (ws_copy in common/kernels/dram.cl), so
 * that the launch's own cost does not hide the cache's speed.
 *
 * Variant ws<W>: buffers of W / 2 bytes each.  Size: the largest buffer in
 * 4-byte words (a working set larger than twice the size is left out).
 * The input is the size's bytes, and the largest working set the size
 * holds writes into an output of the size's bytes too (the rest must stay
 * poison), so that what a run holds is twice the size, as the preflight
 * reckons it from small sizes.  Verified word for word.
 *
 * dram_read_set: the same working sets read and not copied (ws_read), each
 * thread's xor of its words its one output, for gpu-l2-cache's read-only
 * L2 and DRAM plateaus; bytes are the bytes read.  Variant ws<W>: one
 * buffer of W bytes, 32 KiB..4 GiB. */
#include <stdio.h>
#include <stdlib.h>

#include "experiments/host_data.h"
#include "experiments/variant.h"

#define WS_MIN (64L << 10)
#define WS_MAX (8L << 30)
#define WS_BLOCK 256
#define WS_WORD 16                /* bytes a thread moves: one uint4 */
#define WS_GPU_FLOOR (256L << 20) /* bytes read per launch at least */
#define WS_CPU_FLOOR (2L << 20)
/* The read's bytes per launch on a GPU: a launch's fixed cost (microseconds
   beside the bytes) is a share of a 256 MiB read's time at the L2's speed
   that hides the cache's figure; gpu-l2-cache's launches read gigabytes.
   4 GiB keeps passes x words (2^28) within the kernel's int. */
#define READ_GPU_FLOOR (4L << 30)
#define WS_THREADS (1L << 21)     /* threads of a launch that repeats its copy */
#define WS_ROTATE (32u * 40503u)  /* dram.cl's: a pass's rotation of the words */

typedef struct ws_knobs {
    long working_set; /* bytes: both buffers */
} ws_knobs;
SB_KNOBS(ws_knobs)

typedef struct ws_host {
    long bytes; /* of the input: the size's, in whole 16-byte words */
    long top;   /* the largest working set's buffer the size holds */
    uint32_t *in;
} ws_host;

/* "ws256K", "ws32M", "ws8G". */
static void ws_name(long bytes, char *buf, size_t n)
{
    if (bytes >= (1L << 30))
        snprintf(buf, n, "ws%ldG", bytes >> 30);
    else if (bytes >= (1L << 20))
        snprintf(buf, n, "ws%ldM", bytes >> 20);
    else
        snprintf(buf, n, "ws%ldK", bytes >> 10);
}

/* The working sets from `from` up, of kernel `kernel`. */
static int ws_variants_of(const char *kernel, long from, sb_variant *out, int max)
{
    int n = 0;
    for (long w = from; w <= WS_MAX && n < max; w *= 2) {
        char name[16];
        ws_name(w, name, sizeof name);
        sb_variant_init(&out[n], name, kernel, WS_BLOCK, 1, 1);
        ws_knobs k = {w};
        set_knobs(&out[n++], &k);
    }
    return n;
}

static int ws_variants(sb_variant *out, int max)
{
    return ws_variants_of("ws_copy", WS_MIN, out, max);
}

/* The largest buffer: 4 GiB on a GPU within its memory (both buffers
   stay there), 16 MiB on a CPU. */
static void ws_default_size(const sb_device_info *dev, sb_problem *p)
{
    long bytes = dev->is_gpu ? WS_MAX / 2 : 16L << 20;
    while (bytes > WS_MIN / 2 &&
           ((dev->max_alloc_bytes && (uint64_t)bytes > dev->max_alloc_bytes) ||
            (dev->global_mem_bytes && (uint64_t)bytes > dev->global_mem_bytes / 4)))
        bytes /= 2;
    p->rows = bytes / 4 / 1024;
    p->cols = 1024;
}

static int ws_prepare(const sb_problem *p, unsigned seed, void **host, char *err, size_t n)
{
    double words = (double)p->rows * (double)p->cols;
    ws_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    double bytes = 4.0 * words < WS_MAX / 2 ? 4.0 * words : WS_MAX / 2;
    h->bytes = (long)bytes / WS_WORD * WS_WORD;
    h->top = WS_MIN / 2;
    while (h->top * 2 <= h->bytes)
        h->top *= 2;
    if (h->bytes < WS_MIN / 2) {
        snprintf(err, n, "a size of %.0f words is under the smallest buffer, %ld KiB: give at "
                         "least --size %ldx1",
                 words, WS_MIN / 2 >> 10, WS_MIN / 2 / 4);
        free(h);
        return -1;
    }
    if (!(h->in = sb_host_alloc((size_t)h->bytes, err, n))) {
        free(h);
        return -1;
    }
    sb_random_words(h->in, (size_t)h->bytes / 4, seed);
    *host = h;
    return 0;
}

static void ws_release(void *host)
{
    ws_host *h = host;
    if (h)
        free(h->in);
    free(h);
}

static int log2_of(long pow2)
{
    int l = 0;
    while ((1L << l) < pow2)
        l++;
    return l;
}

/* The copy's arguments and grid: one thread a word when one pass is
   enough, else a fixed grid that walks every pass. */
static void ws_launch(const ws_host *h, const sb_variant *v, long buffer, long passes,
                      sb_plan *plan)
{
    plan->nbuffers = 2;
    plan->buffer[0].bytes = (size_t)h->bytes; /* the whole input: one upload for all */
    plan->buffer[0].init = h->in;
    plan->buffer[1].bytes = (size_t)(buffer == h->top ? h->bytes : buffer);
    plan->buffer[1].init = NULL;
    plan->nargs = 4;
    plan->arg[0].kind = SB_PLAN_INT;
    plan->arg[0].i = log2_of(buffer / WS_WORD);
    plan->arg[1].kind = SB_PLAN_INT;
    plan->arg[1].i = (int32_t)passes;
    for (int i = 0; i < 2; i++) {
        plan->arg[2 + i].kind = SB_PLAN_BUFFER;
        plan->arg[2 + i].buffer = i;
    }
    long total = passes * (buffer / WS_WORD);
    long threads = passes == 1 || total <= WS_THREADS ? total : WS_THREADS;
    sb_grid_2d(&plan->geometry, v, threads, 1, WS_BLOCK, 1);
    plan->bytes = 2.0 * (double)buffer * (double)passes;
}

/* Every access of ws_copy, per launch: each pass loads and stores every
 * word of the buffer once, 32 consecutive words a warp (the grid's
 * threads, a power of two, divide the passes' words; a pass's rotation is
 * a whole number of warps' spans, so no warp's words wrap apart).  The
 * loop is unrolled as the compiler likes. */
static void ws_declare(sb_plan *plan, long buffer, long passes)
{
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, WS_WORD);
    long words = buffer / WS_WORD;
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0,
                                            SB_SITES_COMPILER, 1}, words, (double)passes);
    sb_plan_declare_walk(plan, &(sb_access){"store", SB_ACCESS_STORE, dense, 0,
                                            SB_SITES_COMPILER, 0}, words, (double)passes);
}

static int ws_plan(void *host, const sb_problem *p, const sb_variant *v,
                   const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    ws_host *h = host;
    (void)p;
    long ws = knobs_of(v).working_set, buffer = ws / 2;
    if (buffer > h->top) {
        snprintf(err, n, "%s needs buffers of %ld words: give --size %ldx1 or more", v->name,
                 buffer / 4, buffer / 4);
        return SB_PLAN_LEFT_OUT;
    }
    long floor = dev->is_gpu ? WS_GPU_FLOOR : WS_CPU_FLOOR;
    long passes = buffer >= floor ? 1 : floor / buffer;
    ws_launch(h, v, buffer, passes, plan);
    ws_declare(plan, buffer, passes);
    sb_figure_add(plan->figure, &plan->nfigures, "working_set", (double)ws, "B");
    sb_figure_add(plan->figure, &plan->nfigures, "passes", (double)passes, "");
    return 0;
}

static int ws_verify(void *host, const sb_problem *p, const sb_variant *v, void *const *outputs,
                     char *err, size_t n)
{
    ws_host *h = host;
    (void)p;
    const uint32_t *got = outputs[0];
    long words = knobs_of(v).working_set / 2 / 4;
    long i = sb_first_word_mismatch(got, h->in, words);
    if (i == SB_NO_MISMATCH && words * 4 == h->top) {
        for (long w = words; w < h->bytes / 4; w++)
            if (got[w] != SB_POISON_WORD) {
                snprintf(err, n, "out[%ld] = 0x%08x, past the %ld words copied: nothing may "
                                 "write there", w, got[w], words);
                return -1;
            }
    }
    if (i == SB_NO_MISMATCH)
        return 0;
    snprintf(err, n, "out[%ld] = 0x%08x, expected 0x%08x%s", i, got[i], h->in[i],
             got[i] == SB_POISON_WORD ? ": never written" : "");
    return -1;
}

/* The lessons its rows can teach (offers.h). */
static const sb_lesson_rule dram_working_set_lessons[] = {
    {.kind = SB_LESSON_WORKING_SET},
    {0},
};

const sb_experiment sb_exp_dram_working_set = {
    .name = "dram_working_set",
    .family = "dram",
    .source = "dram.cl",
    .summary = "copy bandwidth against the working set, 64 KiB..8 GiB (both buffers): the L2 "
               "plateau and the DRAM one (family dram)",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_WORDS,
    .in_default = 0,
    .test_sizes = "256x512",
    .variants = ws_variants,
    .default_size = ws_default_size,
    .prepare = ws_prepare,
    .release = ws_release,
    .plan = ws_plan,
    .verify = ws_verify,
    .headline = {SB_HEADLINE_BEST_SHARE},
    .lessons = dram_working_set_lessons,
};

/* ---- dram_read_set: the read side alone ------------------------------ */

/* From half the copy's smallest: one buffer, so that every size the copy
   takes holds a read's smallest working set whole. */
static int read_variants(sb_variant *out, int max)
{
    return ws_variants_of("ws_read", WS_MIN / 2, out, max);
}

/* The read's threads: one a word when that is fewer, else a fixed grid
   that walks every pass, in whole blocks; each thread's xor in its word
   of out, which is the size's bytes (so that what a run holds is twice
   the size, as the preflight reckons it), after the passes' word. */
static long read_threads(const ws_host *h, long words, long passes)
{
    long t = passes * words, room = h->bytes / 4 - 1;
    t = t < WS_THREADS ? t : WS_THREADS;
    t = (t < room ? t : room) / WS_BLOCK * WS_BLOCK;
    return t > WS_BLOCK ? t : WS_BLOCK;
}

static int read_plan(void *host, const sb_problem *p, const sb_variant *v,
                     const sb_device_info *dev, sb_plan *plan, char *err, size_t n)
{
    ws_host *h = host;
    (void)p;
    long ws = knobs_of(v).working_set;
    if (ws > h->top) {
        snprintf(err, n, "%s needs a buffer of %ld words: give --size %ldx1 or more", v->name,
                 ws / 4, ws / 4);
        return SB_PLAN_LEFT_OUT;
    }
    long floor = dev->is_gpu ? READ_GPU_FLOOR : WS_CPU_FLOOR;
    long passes = ws >= floor ? 1 : floor / ws, words = ws / WS_WORD;
    long threads = read_threads(h, words, passes);
    ws_launch(h, v, ws, passes, plan);
    plan->buffer[1].bytes = (size_t)h->bytes;
    sb_grid_2d(&plan->geometry, v, threads, 1, WS_BLOCK, 1);
    plan->bytes = (double)ws * (double)passes;
    /* Each pass loads every word once, 32 consecutive ones a warp; each
       thread stores its one word, at out[1 + thread]: a word after the
       128-byte boundary, so that a warp's 128 bytes span five sectors
       (the H200's counters, RESULTS.md run 35). */
    sb_pattern dense = sb_dense(SB_SPACE_GLOBAL, WS_WORD), xored = sb_dense(SB_SPACE_GLOBAL, 4);
    xored.offset = 1;
    sb_plan_declare_walk(plan, &(sb_access){"load", SB_ACCESS_LOAD, dense, 0,
                                            SB_SITES_COMPILER, 1}, words, (double)passes);
    sb_plan_declare_walk(plan, &(sb_access){"xor store", SB_ACCESS_STORE, xored, 0, 1, 0},
                         threads, 1);
    sb_pattern one = sb_dense(SB_SPACE_GLOBAL, 4);
    one.active = sb_first_lanes(1);
    sb_plan_declare(plan, &(sb_access){"passes store", SB_ACCESS_STORE, one, 1, 1, 0});
    sb_figure_add(plan->figure, &plan->nfigures, "working_set", (double)ws, "B");
    sb_figure_add(plan->figure, &plan->nfigures, "passes", (double)passes, "");
    return 0;
}

/* Each thread's xor of the words it read, as ws_read walks them: into
   want[0..threads). */
static void read_reference(const ws_host *h, long words, long passes, long threads,
                           uint32_t *want)
{
    int ln = log2_of(words);
    for (long x = 0; x < passes * words; x++) {
        uint32_t e = ((uint32_t)x + ((uint32_t)x >> ln) * WS_ROTATE) & (uint32_t)(words - 1);
        const uint32_t *w = h->in + (size_t)e * 4;
        want[x % threads] ^= w[0] ^ w[1] ^ w[2] ^ w[3];
    }
}

static int read_verify(void *host, const sb_problem *p, const sb_variant *v,
                       void *const *outputs, char *err, size_t n)
{
    const ws_host *h = host;
    (void)p;
    long ws = knobs_of(v).working_set, words = ws / WS_WORD;
    const uint32_t *got = outputs[0];
    /* The passes the kernel says it made: a GPU's or a CPU's floor's. */
    long gpu = ws >= READ_GPU_FLOOR ? 1 : READ_GPU_FLOOR / ws;
    long cpu = ws >= WS_CPU_FLOOR ? 1 : WS_CPU_FLOOR / ws, passes = got[0];
    if (passes != gpu && passes != cpu) {
        snprintf(err, n, "out[0] = 0x%08x, the passes made: expected %ld or %ld%s", got[0], gpu,
                 cpu, got[0] == SB_POISON_WORD ? ": never written" : "");
        return -1;
    }
    long threads = read_threads(h, words, passes), bad = -1;
    uint32_t *want = calloc((size_t)threads, sizeof *want);
    if (!want) {
        snprintf(err, n, "out of host memory");
        return -1;
    }
    read_reference(h, words, passes, threads, want);
    for (long t = 0; t < threads && bad < 0; t++)
        bad = got[1 + t] == want[t] ? -1 : t;
    if (bad >= 0)
        snprintf(err, n, "thread %ld's xor of its words is 0x%08x, expected 0x%08x%s", bad,
                 got[1 + bad], want[bad],
                 got[1 + bad] == SB_POISON_WORD ? ": never written" : "");
    free(want);
    return bad >= 0 ? -1 : 0;
}

const sb_experiment sb_exp_dram_read_set = {
    .name = "dram_read_set",
    .family = "dram",
    .source = "dram.cl",
    .summary = "read bandwidth against the working set, 32 KiB..4 GiB, nothing written but a "
               "word a thread: the L2 plateau and the DRAM one (family dram)",
    .quantity = SB_QUANTITY_BANDWIDTH,
    .size_kind = SB_SIZE_WORDS,
    .in_default = 0,
    .test_sizes = "256x512",
    .variants = read_variants,
    .default_size = ws_default_size,
    .prepare = ws_prepare,
    .release = ws_release,
    .plan = read_plan,
    .verify = read_verify,
};
