/* The terminal table fits: fixture runs (one device; two side by side; a
 * variant name of 22 characters and more; a variant at its own size; long
 * model text, notes, PTX comparisons, lessons, device names and reasons
 * a backend did not run) keep every line within 100 columns with COLUMNS
 * unset, within 80 and 60 with COLUMNS set so; the numbers of every row
 * end where their heading does; and every figure of a row is still in
 * its block, in the row or on the lines under it. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "report/layout.h"
#include "report/report.h"
#include "analysis/analysis.h"
#include "analysis/noise.h"

#define LONG_NAME "32x32-xor-column-store"       /* 22 characters */
#define LONGER_NAME "corner_turn_pad_a4_coarse8_x" /* 28 */

static const char *const backends[2] = {"cuda", "opencl"};

static void devices(sb_run *run, int ndevices)
{
    memset(run, 0, sizeof *run);
    snprintf(run->tool_version, sizeof run->tool_version, "9.9.9");
    snprintf(run->date, sizeof run->date, "2026-12-01T00:00:00Z");
    snprintf(run->host, sizeof run->host, "testhost");
    run->ndevices = ndevices;
    for (int d = 0; d < ndevices; d++) {
        sb_run_device *dev = &run->devices[d];
        sb_device_info *in = &dev->info;
        snprintf(dev->backend, sizeof dev->backend, "%s", backends[d]);
        snprintf(in->name, sizeof in->name, "pthread-skylake-avx512-AMD EPYC 9654 96-Core "
                                            "Processor with a name as long as PoCL's");
        snprintf(in->platform, sizeof in->platform, "Portable Computing Language");
        snprintf(in->api_version, sizeof in->api_version,
                 "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512");
        snprintf(in->driver, sizeof in->driver, "3.1+debian");
        snprintf(in->arch, sizeof in->arch, "OpenCL C 1.2 PoCL");
        snprintf(in->cache_name, sizeof in->cache_name, "global memory cache");
        in->compute_units = 132;
        in->clock_mhz = 1980;
        in->global_mem_bytes = 143156ull << 20;
        in->l2_bytes = 60ull << 20;
        in->local_mem_bytes = 48 << 10;
        in->bus_width_bits = 6016;
        in->mem_clock_mhz = 3201;
        dev->memcpy_gbs = 4146.11;
    }
    /* A backend built but unusable, with a reason longer than a line. */
    run->nunavailable = 1;
    snprintf(run->unavailable[0].backend, sizeof run->unavailable[0].backend, "hip");
    snprintf(run->unavailable[0].reason, sizeof run->unavailable[0].reason,
             "HIP runtime libamdhip64.so.6 not found: no ROCm driver is installed (looked in "
             "/opt/rocm/lib, /usr/lib/x86_64-linux-gnu and LD_LIBRARY_PATH)");
}

typedef struct row_spec {
    const char *experiment, *variant;
    sb_quantity quantity;
    sb_size_kind kind;
    long rows, cols;
    double ms, value, roof, slowdown, intensity;
    int patterns; /* 0, 1, or 2 with long labels */
} row_spec;

/* One result of spec on device slot d: its figures a little different on
 * each device, 8 samples for the verdict's interval. */
static void add(sb_run *run, int d, const row_spec *s)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", backends[d]);
    r.device_slot = d;
    snprintf(r.experiment, sizeof r.experiment, "%s", s->experiment);
    snprintf(r.family, sizeof r.family, "%s", s->experiment);
    snprintf(r.variant, sizeof r.variant, "%s", s->variant);
    r.rows = s->rows;
    r.cols = s->cols;
    r.size_kind = s->kind;
    r.reps = 8;
    r.warmup = 3;
    double f = d ? 1.25 : 1.0;
    r.ms.median = s->ms * f;
    r.ms.min = 0.98 * r.ms.median;
    r.ms.max = 1.03 * r.ms.median;
    r.ms.spread = d ? 0.031 : 0.05;
    double samples[8];
    for (int i = 0; i < 8; i++)
        samples[i] = r.ms.median * (0.99 + 0.02 * i / 7.0); /* quiet: noise.h */
    r.samples = samples;
    r.nsamples = 8;
    r.quantity = s->quantity;
    r.value = s->value / f;
    r.value_best = 1.02 * r.value;
    r.roof_share = s->roof / f;
    r.slowdown = s->slowdown;
    r.intensity = s->intensity;
    r.occupancy = s->intensity > 0 ? 2 : -1;
    r.threads_in_flight = s->intensity > 0 ? 270336 : -1;
    r.regs = r.shared_bytes = r.private_bytes = -1;
    /* One access: the shared tile's column walk (padded: [32][33]); two:
       a strided global load before it, both with long labels. */
    r.npatterns = s->patterns;
    for (int i = 0; i < s->patterns; i++) {
        int tile = i == s->patterns - 1;
        snprintf(r.pattern_label[i], sizeof r.pattern_label[i], "%s",
                 tile ? (s->patterns == 2 ? "smem col store" : "smem col") : "global col load");
        r.pattern[i] = sb_pattern_default();
        r.pattern[i].space = tile ? SB_SPACE_SHARED : SB_SPACE_GLOBAL;
        r.pattern[i].stride = tile ? 1 : 8;
        if (tile) {
            r.pattern[i].tile_rows = r.pattern[i].tile_cols = 32;
            r.pattern[i].pad = strcmp(s->variant, "padded") == 0;
            r.pattern[i].walk = SB_WALK_COLUMN;
        }
        assert_int_equal(sb_predict(&r.pattern[i], &r.prediction[i]), 0);
    }
    snprintf(r.ptx_memory, sizeof r.ptx_memory, "%s",
             d ? "64 x ld.shared.f32, 8 x ld.shared.v4.f32, 4 x st.global.v4.f32, 1 x bar.sync"
               : "16 x ld.shared.f32, 2 x ld.shared.v4.f32, 4 x st.global.v4.f32, 1 x bar.sync");
    r.verified = 1;
    assert_int_equal(sb_run_add(run, &r), 0);
}

static const row_spec rows[] = {
    {"transpose", "memcpy", SB_QUANTITY_BANDWIDTH, SB_SIZE_MATRIX, 8192, 8192, 0.1295, 4146.11,
     1.0, 0, 0, 0},
    {"transpose", "tiled", SB_QUANTITY_BANDWIDTH, SB_SIZE_MATRIX, 8192, 8192, 0.3288, 1633.06,
     0.394, 0, 0, 1},
    {"transpose", "padded", SB_QUANTITY_BANDWIDTH, SB_SIZE_MATRIX, 8192, 8192, 0.1500, 3578.38,
     0.863, 0, 0, 1},
    {"transpose", LONGER_NAME, SB_QUANTITY_BANDWIDTH, SB_SIZE_MATRIX, 8192, 8192, 0.5407, 992.88,
     0.240, 0, 0, 2},
    {"transpose", "vec64x64_cm", SB_QUANTITY_BANDWIDTH, SB_SIZE_MATRIX, 4096, 4096, 0.1326,
     4048.56, 0.976, 0, 0, 2},
    {"matmul", "coarse4", SB_QUANTITY_FLOPS, SB_SIZE_MATRIX, 4096, 4096, 10.9363, 12567.20,
     0.237, 1.0, 12.8, 2},
    {"matmul", "corner_turn_pad", SB_QUANTITY_FLOPS, SB_SIZE_MATRIX, 4096, 4096, 25.4796,
     5394.07, 5.204, 2.33, 8, 2},
    {"shared_tile", "32x32-row-store", SB_QUANTITY_ACCESS, SB_SIZE_THREADS, 1056, 2048, 0.2800,
     0.53, 0, 1.0, 0, 1},
    {"shared_tile", LONG_NAME, SB_QUANTITY_ACCESS, SB_SIZE_THREADS, 1056, 2048, 8.5821, 16.37, 0,
     30.65, 0, 1},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* The first n rows on each of ndevices devices. */
static void fixture_of(sb_run *run, int ndevices, size_t n)
{
    devices(run, ndevices);
    for (int d = 0; d < ndevices; d++)
        for (size_t i = 0; i < n; i++)
            add(run, d, &rows[i]);
}

static void fixture(sb_run *run, int ndevices)
{
    fixture_of(run, ndevices, NROWS);
}

/* The run's table with COLUMNS set to `columns` (NULL: unset). */
static char *render(const sb_run *run, const char *columns)
{
    if (columns)
        setenv("COLUMNS", columns, 1);
    else
        unsetenv("COLUMNS");
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write(SB_FORMAT_TABLE, &a, out), 0);
    fclose(out);
    sb_analysis_free(&a);
    unsetenv("COLUMNS");
    return buf;
}

/* Line `at` of text (from its start) into buf; the next line's start. */
static const char *line_at(const char *at, char *buf, size_t n)
{
    size_t len = strcspn(at, "\n");
    snprintf(buf, n, "%.*s", (int)len, at);
    return at[len] ? at + len + 1 : at + len;
}

static void every_line_within(const char *text, int width)
{
    char line[1024];
    for (const char *p = text; *p;) {
        p = line_at(p, line, sizeof line);
        if (sb_layout_text_width(line) > width)
            fail_msg("a line of %d columns, over %d: '%s'", sb_layout_text_width(line), width,
                     line);
    }
}

/* A figure's cell: digits, a point, perhaps an "x" before or a "%" after,
 * or "-" for none. */
static int numeric(const char *tok, size_t len)
{
    if (len == 1 && tok[0] == '-')
        return 1;
    size_t digits = 0;
    for (size_t i = 0; i < len; i++) {
        char c = tok[i];
        if (c >= '0' && c <= '9')
            digits++;
        else if (!(c == '.' || (c == 'x' && i == 0) || (c == '%' && i == len - 1)))
            return 0;
    }
    return digits > 0;
}

/* The columns where the run of figures of line ends, from column `from`
 * (after the variant's cell): the cells before the first figure are text
 * (a backend), the run stops at the first text after it (a verdict). */
static int figure_ends(const char *line, int from, int *ends, int max)
{
    int n = 0, started = 0;
    for (int i = from; line[i] && n < max;) {
        while (line[i] == ' ')
            i++;
        int start = i;
        while (line[i] && line[i] != ' ')
            i++;
        if (i == start)
            break;
        if (numeric(line + start, (size_t)(i - start))) {
            ends[n++] = i;
            started = 1;
        } else if (started) {
            break;
        }
    }
    return n;
}

/* Whether some word of the heading line ends at column `end`. */
static int heading_ends_at(const char *heading, int end)
{
    return end > 0 && end <= (int)strlen(heading) && heading[end - 1] != ' ' &&
           (heading[end] == ' ' || heading[end] == '\0');
}

/* The block of experiment `name`: from its heading to the next blank line. */
static const char *block_of(const char *text, const char *name, char *buf, size_t n)
{
    char want[64];
    snprintf(want, sizeof want, "\n%s  ", name);
    const char *at = strstr(text, want);
    assert_non_null(at);
    at++;
    const char *end = strstr(at, "\n\n");
    size_t len = end ? (size_t)(end - at) + 1 : strlen(at);
    snprintf(buf, n, "%.*s", (int)len, at);
    return buf;
}

/* The row of a variant in a block: the line that starts with its cell,
 * and the line of its figures (the same one, or the next where the cell
 * has a line of its own); the row and the lines under it up to the next
 * row into under, each line under it (indented six spaces) with the
 * lines it was folded into (eight) joined again. */
static void row_of(const char *block, const char *cell, char *figures, size_t n, int *from,
                   char *under, size_t un)
{
    char want[128];
    snprintf(want, sizeof want, "\n  %s", cell);
    const char *at = strstr(block, want);
    assert_non_null(at);
    at++;
    char line[1024];
    const char *next = line_at(at, line, sizeof line);
    size_t name_end = 2 + strlen(cell);
    assert_true(line[name_end] == ' ' || line[name_end] == '\0');
    if (line[name_end] == '\0') { /* the cell alone: its figures on the next line */
        next = line_at(next, line, sizeof line);
        *from = 0;
    } else {
        *from = (int)name_end;
    }
    snprintf(figures, n, "%s", line);
    size_t used = (size_t)snprintf(under, un, "%.*s", (int)(next - at), at);
    while (used + 1 < un && strncmp(next, "      ", 6) == 0) {
        int more = next[6] == ' ';
        if (more && strncmp(next, "        ", 8) != 0)
            break;
        next = line_at(next, line, sizeof line);
        if (more && used > 0)
            under[used - 1] = ' '; /* the newline before a folded line's rest */
        used += (size_t)snprintf(under + used, un - used, "%s\n", more ? line + 8 : line);
    }
}

/* The figures of every row of the block end where a word of its heading
 * does, the first (the median) at one column for all. */
static void block_aligned(const char *text, const char *experiment, int ndevices)
{
    char block[16384], heading[1024], figures[1024], under[4096];
    block_of(text, experiment, block, sizeof block);
    const char *h = strstr(block, "\n  variant");
    assert_non_null(h);
    line_at(h + 1, heading, sizeof heading);
    int median_end = -1;
    for (size_t i = 0; i < NROWS; i++) {
        if (strcmp(rows[i].experiment, experiment) != 0)
            continue;
        char cell[96];
        if (rows[i].rows == 8192 || strcmp(experiment, "transpose") != 0)
            snprintf(cell, sizeof cell, "%s", rows[i].variant);
        else
            snprintf(cell, sizeof cell, "%s@%ld x %ld floats", rows[i].variant, rows[i].rows,
                     rows[i].cols);
        int from, ends[64];
        row_of(block, cell, figures, sizeof figures, &from, under, sizeof under);
        int n = figure_ends(figures, from, ends, 64);
        assert_true(n >= ndevices);
        for (int k = 0; k < n; k++)
            if (!heading_ends_at(heading, ends[k]))
                fail_msg("%s: a figure ends at column %d, under no heading:\n%s\n%s", cell,
                         ends[k], heading, figures);
        if (median_end < 0)
            median_end = ends[0];
        assert_int_equal(ends[0], median_end);
    }
}

/* Every figure of each row is in its block: in the row or under it. */
static void figures_kept(const char *text, const sb_run *run)
{
    char block[16384], figures[1024], under[4096], want[64];
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        block_of(text, r->experiment, block, sizeof block);
        char cell[96];
        if (r->rows == 4096 && strcmp(r->experiment, "transpose") == 0)
            snprintf(cell, sizeof cell, "%s@%ld x %ld floats", r->variant, r->rows, r->cols);
        else
            snprintf(cell, sizeof cell, "%s", r->variant);
        int from;
        row_of(block, cell, figures, sizeof figures, &from, under, sizeof under);
        /* The spread is the noise analysis's (noise.h), quiet here. */
        const double values[] = {r->ms.median, 100.0 * sb_noise_spread(r), r->value,
                                 100.0 * r->roof_share, r->ms.min, r->ms.max, r->value_best};
        const char *formats[] = {"%.4f", "%.1f%%", "%.2f", "%.1f", "%.4f", "%.4f", "%.2f"};
        assert_true(sb_noise_spread(r) <= SB_VERDICT_TOLERANCE);
        size_t shown = run->ndevices > 1 ? 4 : 7; /* side by side: no min, max, best */
        for (size_t k = 0; k < shown; k++) {
            if (k == 3 && r->roof_share <= 0)
                continue;
            snprintf(want, sizeof want, formats[k], values[k]);
            if (!strstr(under, want))
                fail_msg("%s on %s: %s is not in its row:\n%s", cell, r->backend, want, under);
        }
        if (r->slowdown > 0 && run->ndevices == 1) { /* side by side shows none, as before */
            snprintf(want, sizeof want, "x%.2f", r->slowdown);
            assert_non_null(strstr(under, want));
        }
        if (r->intensity > 0)
            assert_non_null(strstr(under, "FLOP/B, occ 2 blk/unit, 270336 in flight"));
        if (r->npatterns)
            assert_non_null(strstr(under, "\n      model: "));
        if (run->ndevices > 1) {
            assert_non_null(strstr(under, "\n      opencl/cuda 95% interval ["));
            assert_true(strstr(under, "same (within ") || strstr(under, "faster by "));
            assert_non_null(strstr(under, "\n      PTX opencl vs cuda: "));
        }
    }
}

/* What is in the table at any width: the sizes in their units, the
 * reason a backend did not run, the lessons. */
static void says_it_all(const char *text)
{
    assert_non_null(strstr(text, "\ntranspose  8192 x 8192 floats  ("));
    assert_non_null(strstr(text, "\nshared_tile  2 162 688 threads  ("));
    assert_non_null(strstr(text, "\n  not run: hip: HIP runtime libamdhip64.so.6"));
    assert_non_null(strstr(text, "\n  Lesson: Padding the tile to [32][33]"));
    assert_non_null(strstr(text, "  roof% = GFLOP/s over FLOP/B"));
}

static void fits(int ndevices)
{

    sb_run run;
    fixture(&run, ndevices);
    const char *columns[] = {NULL, "80", "60"};
    const int widths[] = {100, 80, 60};
    for (int w = 0; w < 3; w++) {
        char *t = render(&run, columns[w]);
        every_line_within(t, widths[w]);
        says_it_all(t);
        block_aligned(t, "transpose", ndevices);
        block_aligned(t, "matmul", ndevices);
        block_aligned(t, "shared_tile", ndevices);
        figures_kept(t, &run);
        free(t);
    }
    sb_run_free(&run);
}

static void one_device_fits(void **state)
{
    (void)state;
    fits(1);
}

static void two_devices_fit(void **state)
{
    (void)state;
    fits(2);
}

/* At 100 columns nothing of a two-device transpose block of short names
 * gives way: each row has both devices' four figures, the ratio and the
 * verdict; and a long lesson is folded into lines indented under it. */
static void two_devices_whole_rows_at_100(void **state)
{
    (void)state;
    sb_run run;
    fixture_of(&run, 2, 3); /* memcpy, tiled, padded */
    char *t = render(&run, NULL), block[16384], figures[1024], under[4096];
    block_of(t, "transpose", block, sizeof block);
    assert_non_null(strstr(block, "\n  variant"));
    assert_non_null(strstr(block, "median spread    GB/s roof%"));
    assert_non_null(strstr(block, "ratio verdict\n"));
    int from, ends[64];
    row_of(block, "padded", figures, sizeof figures, &from, under, sizeof under);
    assert_int_equal(figure_ends(figures, from, ends, 64), 9);
    assert_non_null(strstr(figures, " 0.800 cuda faster by 25.0%"));
    const char *lesson = strstr(block, "\n  Lesson: ");
    assert_non_null(lesson);
    char line[1024];
    line_at(strchr(lesson + 1, '\n') + 1, line, sizeof line);
    assert_true(strncmp(line, "    ", 4) == 0 && line[4] != ' ');
    free(t);
    sb_run_free(&run);
}

/* text with every run of blanks and newlines one space: what a folded
 * line says, wherever it was folded. */
static void flatten(const char *text, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < n; p++) {
        int blank = *p == ' ' || *p == '\n';
        if (!blank || (k > 0 && buf[k - 1] != ' '))
            buf[k++] = blank ? ' ' : *p;
    }
    buf[k] = '\0';
}

/* The run's report in format f, with COLUMNS unset and no gnuplot. */
static char *render_as(sb_format f, const sb_run *run)
{
    unsetenv("COLUMNS");
    setenv("GNUPLOT", "", 1);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(run, NULL, &a), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(sb_report_write(f, &a, out), 0);
    fclose(out);
    sb_analysis_free(&a);
    unsetenv("GNUPLOT");
    return buf;
}

/* Launch rows (host-observed times) and FMA rows (roof% of the FP32 peak)
 * on two devices: the host column and the host verdict in the table at
 * every width, the formula of the peak under the compute block, and
 * device and host times side by side in Markdown and HTML. */
static void launch_and_compute_blocks(void **state)
{
    (void)state;
    static const row_spec launch_rows[] = {
        {"launch_small", "empty", SB_QUANTITY_LAUNCH, SB_SIZE_ELEMENTS, 33554432, 1, 0.0021, 2.1,
         0, 0, 0, 0},
        {"launch_small", "copy", SB_QUANTITY_LAUNCH, SB_SIZE_ELEMENTS, 33554432, 1, 0.0891,
         89.1, 0, 0, 0, 1},
        {"compute", "fma_chains8", SB_QUANTITY_FLOPS, SB_SIZE_THREADS, 1081344, 1, 2.3160,
         61200.0, 0.915, 1.0, 0, 0},
    };
    sb_run run;
    devices(&run, 2);
    for (int d = 0; d < 2; d++) {
        snprintf(run.devices[d].info.arch, sizeof run.devices[d].info.arch, "sm_90");
        for (size_t i = 0; i < sizeof launch_rows / sizeof launch_rows[0]; i++)
            add(&run, d, &launch_rows[i]);
    }
    for (size_t i = 0; i < run.nresults; i++) {
        sb_result *r = &run.results[i];
        if (r->quantity != SB_QUANTITY_LAUNCH)
            continue;
        double host = r->ms.median + (r->device_slot ? 0.0058 : 0.0022);
        r->host_observed = (sb_stats){.n = 8, .median = host, .min = 0.99 * host,
                                      .max = 1.01 * host, .spread = 0.02};
        r->launches_per_s = r->device_slot ? 126582.0 : 232558.0;
        r->queued_launches = 1000;
    }
    const char *columns[] = {NULL, "80", "60"};
    const int widths[] = {100, 80, 60};
    for (int w = 0; w < 3; w++) {
        char *t = render(&run, columns[w]);
        every_line_within(t, widths[w]);
        char block[16384], flat[16384];
        block_of(t, "launch_small", flat, sizeof flat);
        flatten(flat, block, sizeof block);
        assert_non_null(strstr(block, "host"));
        assert_non_null(strstr(block, "0.0043")); /* cuda's empty, host-observed */
        assert_non_null(strstr(block, "0.0084")); /* opencl's, 0.0021 x 1.25 + 0.0058 */
        assert_non_null(strstr(block, "launches/s: cuda 232558, opencl 126582"));
        assert_non_null(strstr(block, "host-observed opencl/cuda"));
        assert_non_null(strstr(block, "cuda faster by"));
        block_of(t, "compute", flat, sizeof flat);
        flatten(flat, block, sizeof block);
        assert_non_null(strstr(block, "roof% without FLOP/B: of cuda's theoretical FP32 peak, "));
        assert_non_null(strstr(block, "66908 GFLOP/s (132 units x 128 lanes x 2 x 1980 MHz)"));
        assert_null(strstr(block, "memory-bound ceiling"));
        assert_null(strstr(block, "no copy measured"));
        free(t);
    }
    char *md = render_as(SB_FORMAT_MARKDOWN, &run);
    assert_non_null(strstr(md, "| variant | cuda device ms | cuda host ms | cuda unseen | cuda "
                               "launches/s | opencl device ms |"));
    assert_non_null(strstr(md, "| empty | 0.0021 | 0.0043 | 51.2% | 232558 (1000 queued) |"));
    free(md);
    char *html = render_as(SB_FORMAT_HTML, &run);
    assert_non_null(strstr(html, "<th>cuda host ms</th>"));
    assert_non_null(strstr(html, "<td>empty</td><td class=\"num\">0.0021</td><td "
                                 "class=\"num\">0.0043</td>"));
    free(html);
    sb_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(launch_and_compute_blocks),
        cmocka_unit_test(one_device_fits),
        cmocka_unit_test(two_devices_fit),
        cmocka_unit_test(two_devices_whole_rows_at_100),
    };
    SB_TEST_MAIN(tests);
}
