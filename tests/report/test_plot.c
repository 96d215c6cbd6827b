/* Plots chosen from result records alone: a global stride sweep gives a
 * bandwidth plot with the model's curve, a shared one a conflict plot with
 * the predicted ways, a divergence split its slowdown against paths with
 * the model's, GFLOP/s with an intensity a roofline (with the measured FMA
 * peak where the run has one), a histogram's bin counts throughput against
 * bins, rows with a size in bytes a sweep over it (log x, the rows at no
 * one size and 90% of the fastest as lines, the plateaus of a working
 * set), rows with bytes in flight a curve against them with the knee
 * measured and Little's law's, host-timed rows their device and
 * host-observed times side by side, anything else bars (GFLOP/s of no
 * intensity against the FP32 peak); without gnuplot the data and scripts
 * are written and the user is told, with it PNG and SVG appear; a gnuplot
 * that fails, or writes its images short, is an error that keeps the
 * images there were. */
#include "test_util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/plot.h"
#include "exec/interrupt.h"

static void add(sb_run *run, int slot, const char *exp, const char *variant, const char *kernel,
                const char *unit, double ms, const sb_pattern *p)
{
    sb_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.backend, sizeof r.backend, "%s", run->devices[slot].backend);
    r.device_slot = slot;
    snprintf(r.experiment, sizeof r.experiment, "%s", exp);
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    r.rows = r.cols = 4096;
    r.reps = 5;
    r.ms.median = ms;
    r.ms.min = ms;
    r.ms.max = ms;
    if (sb_quantity_parse(unit, &r.quantity))
        fail_msg("unknown unit %s", unit);
    r.value = 1.0 / ms;
    r.accesses = 1000;
    r.occupancy = -1;
    r.verified = 1;
    if (p) {
        r.npatterns = 1;
        r.pattern[0] = *p;
        snprintf(r.pattern_label[0], sizeof r.pattern_label[0], "access");
        assert_int_equal(sb_predict(p, &r.prediction[0]), 0);
    }
    assert_int_equal(sb_run_add(run, &r), 0);
}

static void fixture(sb_run *run)
{
    memset(run, 0, sizeof *run);
    run->ndevices = 2;
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "cuda");
    snprintf(run->devices[1].backend, sizeof run->devices[1].backend, "opencl");
    run->devices[0].memcpy_gbs = 4000;
    run->devices[1].copy_gbs = 3900;
    snprintf(run->devices[0].info.arch, sizeof run->devices[0].info.arch, "sm_90");
    run->devices[0].info.compute_units = 132;
    run->devices[0].info.clock_mhz = 1980;
    snprintf(run->devices[1].info.arch, sizeof run->devices[1].info.arch, "gfx1100");
    for (int slot = 0; slot < 2; slot++) {
        for (int word = 4; word <= 8; word += 4)
            for (long stride = 1; stride <= 32; stride *= 2) {
                sb_pattern p = sb_pattern_default();
                p.space = SB_SPACE_GLOBAL;
                p.word_bytes = word;
                p.stride = stride;
                char v[48];
                snprintf(v, sizeof v, "stride-%ld-w%d", stride, word);
                add(run, slot, "coalescing", v, "stride_read", "GB/s", 0.1 * stride, &p);
            }
        sb_pattern off = sb_pattern_default(); /* not a sweep point: misaligned */
        off.space = SB_SPACE_GLOBAL;
        off.offset = 1;
        add(run, slot, "coalescing", "misaligned", "stride_read", "GB/s", 0.2, &off);
        for (long stride = 1; stride <= 32; stride *= 2) {
            sb_pattern p = sb_pattern_default();
            p.stride = stride;
            char v[48];
            snprintf(v, sizeof v, "stride-%ld", stride);
            add(run, slot, "banks", v, "smem_stride", "ns/access", 0.01 * stride, &p);
        }
        add(run, slot, "matmul", "simple", "mm_simple", "GFLOP/s", 1.0, NULL);
        run->results[run->nresults - 1].intensity = 0.25;
        add(run, slot, "matmul", "tiled", "mm_tiled", "GFLOP/s", 0.1, NULL);
        run->results[run->nresults - 1].intensity = 8.0;
        add(run, slot, "occupancy", "blocks-1 \"odd\" 'name'", "occ", "GB/s", 0.3, NULL);
    }
}

static char dir[] = "/tmp/simtbench-plot-XXXXXX";

static int exists(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return stat(p, &st) == 0 && st.st_size > 0;
}

static char *slurp(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void chooses_plots_from_records(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    /* The second device's tiled point apart from the first's: numbered too. */
    for (size_t i = 0; i < run.nresults; i++)
        if (run.results[i].device_slot == 1 && strcmp(run.results[i].variant, "tiled") == 0)
            run.results[i].value /= 4;
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_int_equal(list.n, 4);
    assert_string_equal(list.name[0], "coalescing-bandwidth");
    assert_string_equal(list.name[1], "banks-conflicts");
    assert_string_equal(list.name[2], "matmul-roofline");
    assert_string_equal(list.name[3], "occupancy-bars");
    for (int i = 0; i < list.n; i++) {
        char f[128];
        snprintf(f, sizeof f, "%s.dat", list.name[i]);
        assert_true(exists(f));
        snprintf(f, sizeof f, "%s.gp", list.name[i]);
        assert_true(exists(f));
    }
    /* Bandwidth: four series (2 devices x 2 word sizes), model = efficiency
       x the smallest stride's bandwidth (over its efficiency), the copy roof
       said beside it; the misaligned variant is not on the stride axis. */
    char *dat = slurp("coalescing-bandwidth.dat");
    assert_non_null(strstr(dat, "# cuda, 4-byte words (model: efficiency x 10.0 GB/s, the bandwidth at "
                               "stride 1 over its efficiency; copy roof 4000.0)"));
    assert_non_null(strstr(dat, "# opencl, 8-byte words (model: efficiency x 10.0 GB/s"));
    assert_non_null(strstr(dat, "\n1 10 10 1\n"));
    assert_non_null(strstr(dat, "\n8 1.25 1.25 0.125\n")); /* stride 8, 4-byte: 12.5% */
    free(dat);
    char *gp = slurp("coalescing-bandwidth.gp");
    assert_non_null(strstr(gp, "index 3 using 1:3 with lines"));
    assert_non_null(strstr(gp, "set output 'coalescing-bandwidth.png'"));
    assert_non_null(strstr(gp, "set output 'coalescing-bandwidth.svg'"));
    free(gp);
    /* Conflicts: stride 2 is 2-way, stride 32 is 32-way. */
    dat = slurp("banks-conflicts.dat");
    assert_non_null(strstr(dat, "\n2 2 2 2 2\n"));
    assert_non_null(strstr(dat, "\n32 32 32 32 32\n"));
    free(dat);
    gp = slurp("banks-conflicts.gp");
    assert_non_null(strstr(gp, "model: wavefront ratio, 4-byte words"));
    assert_non_null(strstr(gp, "with steps dt 2"));
    assert_non_null(strstr(gp, "set logscale xy 2"));
    free(gp);
    /* Roofline: each device's points with their key numbers, its memory
       roof, and the compute roof where the FP32 lanes of its architecture
       are known (132 x 1980 MHz x 128 x 2 = 66 908 GFLOP/s); numbered
       labels and the key to them, no names at the points. */
    dat = slurp("matmul-roofline.dat");
    assert_non_null(strstr(dat, "0.25 1 1 \"simple\""));
    assert_non_null(strstr(dat, "8 10 2 \"tiled\""));
    assert_non_null(strstr(dat, "# cuda memory roof: 4000 GB/s x intensity"));
    assert_non_null(strstr(dat, "# opencl memory roof: 3900 GB/s x intensity"));
    assert_non_null(strstr(dat, "# cuda compute roof: FP32 peak 66908 GFLOP/s (132 units x "
                                "1980 MHz x 128 lanes x 2)\n0.125 66908.2\n16 66908.2\n"));
    assert_null(strstr(dat, "opencl compute roof"));
    free(dat);
    gp = slurp("matmul-roofline.gp");
    assert_non_null(strstr(gp, "no compute roof for opencl (gfx1100): its FP32 lanes"));
    assert_non_null(strstr(gp, "set label '1' at 0.25,1 "));
    assert_null(strstr(strstr(gp, "set label '1' at 0.25,1 ") + 1, "set label '1' "));
    assert_non_null(strstr(gp, "set label '2' at 8,10 offset char -0.8,0.6 right"));
    assert_non_null(strstr(gp, "set label '2' at 8,2.5 offset char 0.8,0.6 left"));
    assert_non_null(strstr(gp, "' 2  tiled (8)'"));
    assert_null(strstr(gp, "with labels"));
    free(gp);
    /* Bars: quotes in a name cannot break the data file or the script;
       the share labels at the bars, far under the roofs. */
    dat = slurp("occupancy-bars.dat");
    assert_non_null(strstr(dat, "\"blocks-1 \\x22odd\\x22 'name'\" 3.33333 3.33333 3.33333 "
                                "3.33333\n"));
    free(dat);
    /* Bars of bandwidths: each device's copy roof across them, and each
       bar's share of it above the bar. */
    gp = slurp("occupancy-bars.gp");
    assert_non_null(strstr(gp, "set arrow from graph 0, first 4000 to graph 1, first 4000 "));
    assert_non_null(strstr(gp, "title 'opencl copy roof: 3900 GB/s"));
    assert_non_null(strstr(gp, "using ($0 +0.1667):(column(5)):(sprintf('%.0f%%', 100 * "
                               "column(3) / 3900))"));
    free(gp);
    /* The roofline's key two lines under its x label, clear of it. */
    gp = slurp("matmul-roofline.gp");
    assert_non_null(strstr(gp, "set key below height 2\n"));
    free(gp);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* The style given in the plot command to the series titled `title`:
   the text between "with linespoints" and its title. */
static void style_of(const char *gp, const char *title, char *buf, size_t n)
{
    char want[128];
    snprintf(want, sizeof want, " title '%s'", title);
    const char *t = strstr(gp, want);
    assert_non_null(t);
    const char *w = t;
    while (w > gp && strncmp(w, "with linespoints", 16) != 0)
        w--;
    assert_true(w > gp);
    snprintf(buf, n, "%.*s", (int)(t - w), w);
}

/* A histogram's variants, METHOD-bBINS-DIST, on two devices: one series a
 * device, method and distribution, by bins on a log axis, the bin updates
 * per ns on the right; a colour per method, dashes per distribution, a
 * point shape per device; a variant at one bin count is no series. */
static void histogram_bins_sweep(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    run.nresults = 0;
    static const char *const methods[] = {"global", "shared_coarse"};
    static const char *const dists[] = {"uniform", "skewed"};
    static const long bins[] = {1, 32, 4096};
    for (int slot = 0; slot < 2; slot++) {
        add(&run, slot, "histogram", "memcpy", "(API copy)", "GB/s", 0.001, NULL);
        for (int d = 0; d < 2; d++)
            for (int m = 0; m < 2; m++)
                for (int b = 0; b < 3; b++) {
                    char v[48];
                    snprintf(v, sizeof v, "%s-b%ld-%s", methods[m], bins[b], dists[d]);
                    add(&run, slot, "histogram", v, "hist", "GB/s", 0.1 * (m + 1) * (b + 1), NULL);
                }
        add(&run, slot, "histogram", "thread-b32-uniform", "hist_thread", "GB/s", 0.5, NULL);
    }
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_int_equal(list.n, 1);
    assert_string_equal(list.name[0], "histogram-bins");
    char *gp = slurp("histogram-bins.gp");
    assert_non_null(strstr(gp, "set title 'histogram: throughput against bins"));
    assert_non_null(strstr(gp, "set logscale x 2\nset logscale y 10\nset xtics (1, 32, 4096)\n"));
    assert_non_null(strstr(gp, "set xlabel 'bins (log scale)'"));
    assert_non_null(strstr(gp, "set ylabel 'input throughput (GB/s, log scale)'"));
    assert_non_null(strstr(gp, "set y2label 'bin updates per ns (one per 4-byte input)'"));
    /* The right axis is the left one over 4: 10 GB/s at 0.1 ms to 1.67
       at 0.6 ms, widened by 1.5 either way. */
    assert_non_null(strstr(gp, "set yrange [1.11111:15]"));
    assert_non_null(strstr(gp, "set y2range [0.277778:3.75]"));
    assert_null(strstr(gp, "thread"));
    assert_null(strstr(gp, "memcpy"));
    char a1[160], a2[160], b1[160], c1[160];
    style_of(gp, "cuda, global, uniform", a1, sizeof a1);
    style_of(gp, "cuda, global, skewed", a2, sizeof a2);
    style_of(gp, "opencl, global, uniform", b1, sizeof b1);
    style_of(gp, "cuda, shared_coarse, uniform", c1, sizeof c1);
    assert_non_null(strstr(a1, " dt 1 ") && strstr(a2, " dt 2 "));
    assert_string_not_equal(a1, b1); /* another point shape on the other device */
    assert_string_equal(strstr(a1, "lc rgb"), strstr(b1, "lc rgb"));
    assert_string_equal(strstr(a1, "lc rgb"), strstr(a2, "lc rgb"));
    assert_string_not_equal(strstr(a1, "lc rgb"), strstr(c1, "lc rgb"));
    free(gp);
    char *dat = slurp("histogram-bins.dat");
    assert_non_null(strstr(dat, "# cuda, shared_coarse, skewed\n1 5 1.25\n32 2.5 0.625\n"
                                "4096 1.66667 0.416667\n"));
    assert_non_null(strstr(dat, "# opencl, global, uniform\n1 10 2.5\n"));
    free(dat);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static sb_result *memory_row(sb_run *run, int slot, const char *exp, const char *variant,
                             const char *unit, double value, const char *name, double bytes)
{
    add(run, slot, exp, variant, "k", unit, 1.0 / value, NULL);
    sb_result *r = &run->results[run->nresults - 1];
    r->value = value;
    if (bytes > 0)
        assert_int_equal(sb_figure_add(r->figure, &r->nfigures, name, bytes, "B"), 0);
    return r;
}

/* The burst sweep on both devices, a latency sweep on cuda only (unless
 * no_latency), then the occupancy rows with what each thread keeps in
 * flight on both. */
static void memory_fixture(sb_run *run, int no_latency)
{
    /* One L2 level, no far half (which would be a plateau of its own). */
    static const double ns[19] = {33,  33,  34,  35,  150, 236, 238, 240, 240, 242,
                                  244, 400, 650, 670, 685, 700, 725, 745, 760};
    static const struct { const char *v; double gbs; long in_flight; } occ[] = {
        {"b32-g1x", 284, 4224}, {"b256-g4x", 3461, 135168}, {"b256-g8x", 3608, 270336},
        {"b256-g32x", 3762, 270336}};
    memset(run, 0, sizeof *run);
    run->ndevices = 2;
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "cuda");
    snprintf(run->devices[1].backend, sizeof run->devices[1].backend, "opencl");
    for (int s = 0; s < 2; s++) {
        run->devices[s].info.l2_bytes = 60 << 20;
        run->devices[s].info.clock_mhz = 1980;
        memory_row(run, s, "dram_burst", "sequential", "GB/s", 4000, NULL, 0);
        for (int k = 0; k < 9; k++) {
            char v[16];
            snprintf(v, sizeof v, "c%d", 32 << k);
            memory_row(run, s, "dram_burst", v, "GB/s", 500.0 * (k + 1), "chunk", 32 << k);
        }
    }
    for (int j = 0; j < 19 && !no_latency; j++) {
        char v[16];
        snprintf(v, sizeof v, "ws%d", j);
        memory_row(run, 0, "latency", v, "ns/load", ns[j], "working_set", 16384.0 * (1 << j));
    }
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sizeof occ / sizeof occ[0]; i++) {
            sb_result *r = memory_row(run, s, "occupancy", occ[i].v, "GB/s", occ[i].gbs, NULL, 0);
            r->threads_in_flight = occ[i].in_flight;
            r->roof_share = occ[i].gbs / 4170;
            assert_int_equal(sb_figure_add(r->figure, &r->nfigures, "bytes_per_thread", 4, ""), 0);
        }
}

static void memory_sweeps_and_bytes_in_flight(void **state)
{
    (void)state;
    sb_run run;
    memory_fixture(&run, 0);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_int_equal(list.n, 4);
    assert_string_equal(list.name[0], "dram_burst-sweep");
    assert_string_equal(list.name[1], "latency-sweep");
    assert_string_equal(list.name[2], "occupancy-inflight");
    assert_string_equal(list.name[3], "occupancy-bars");
    /* The chunks on a log axis named in bytes; the copy in place and 90%
       of it as lines; no plateaus: a chunk is not a working set. */
    char *gp = slurp("dram_burst-sweep.gp");
    assert_non_null(strstr(gp, "set logscale x 2\n"));
    assert_non_null(strstr(gp, "set xtics rotate by -45 ('32' 32, '64' 64, "));
    assert_non_null(strstr(gp, "'8K' 8192)\n"));
    assert_non_null(strstr(gp, "set yrange [0:4950]\n")); /* 1.1 x the best point, 4500 */
    assert_non_null(strstr(gp, "title 'cuda sequential: 4000 GB/s'"));
    assert_non_null(strstr(gp, "title 'opencl 90% of sequential: 3600 GB/s'"));
    assert_null(strstr(gp, "plateaus"));
    free(gp);
    char *dat = slurp("dram_burst-sweep.dat");
    assert_non_null(strstr(dat, "# cuda: bytes, headline, variant\n32 500 \"c32\"\n"));
    free(dat);
    /* Latency: log-log, cuda alone, its three plateaus as segments. */
    gp = slurp("latency-sweep.gp");
    assert_non_null(strstr(gp, "set logscale y\n"));
    assert_non_null(strstr(gp, "title 'cuda plateaus (3 found in the data)'"));
    assert_null(strstr(gp, "opencl"));
    free(gp);
    dat = slurp("latency-sweep.dat");
    assert_non_null(strstr(dat, "16384 33.5\n131072 33.5\n\n524288 240\n16777216 240\n\n"
                                "67108864 700\n4294967296 700\n"));
    free(dat);
    dat = slurp("occupancy-inflight.dat");
    /* Bytes in flight: sorted, with cuda's knee and Little's law's (its
       latency came first), opencl's knee alone. */
    assert_non_null(strstr(dat, "# cuda: bytes in flight, GB/s, variant\n16896 284 \"b32-g1x\"\n"
                                "540672 3461 \"b256-g4x\"\n1081344 3608 \"b256-g8x\"\n"));
    /* Two rows at one size (b256-g8x, b256-g32x): both points, and the
       line through the best alone, so no vertical segment. */
    assert_non_null(strstr(dat, "# cuda: the best GB/s at each size in flight\n16896 284\n"
                                "540672 3461\n1081344 3762\n\n"));
    free(dat);
    gp = slurp("occupancy-inflight.gp");
    assert_non_null(strstr(gp, "title 'cuda knee measured: 1.08 MB (b256-g8x, 95% of the best)'"));
    /* Little's law dotted where the run has the latency, as the title says. */
    assert_non_null(strstr(gp, "; dotted: Little''s law''s"));
    assert_non_null(strstr(gp, "with lines dt 3 lw 4 lc 1 title 'cuda Little''s law: 1.46 MB "
                               "(2085 GB/s of reads x 700 ns)'"));
    assert_non_null(strstr(gp, "title 'opencl knee measured: 1.08 MB"));
    assert_null(strstr(gp, "opencl Little"));
    assert_null(strstr(gp, "no Little"));
    /* Tics named in binary units, one space before the unit. */
    assert_non_null(strstr(gp, "set xtics ('16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144, "
                               "'1 MiB' 1048576)\n"));
    assert_null(strstr(gp, "%B"));
    assert_non_null(strstr(gp, "index 0 using 1:2 with points pt 7 ps 1.3 lc 1 notitle, "
                               "'occupancy-inflight.dat' index 1 using 1:2 with linespoints"));
    free(gp);
    sb_analysis_free(&a);
    sb_run_free(&run);
    /* Without a latency sweep no dotted line, and the plot says why. */
    memory_fixture(&run, 1);
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    gp = slurp("occupancy-inflight.gp");
    assert_null(strstr(gp, "dotted"));
    assert_null(strstr(gp, "dt 3"));
    assert_non_null(strstr(gp, "set label 'no Little''s law knee: the run measured no DRAM "
                               "latency"));
    free(gp);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* divergence_split on a GPU (cuda, with the model's figures) and a CPU
 * (opencl, with none that need a warp): lane-kK and warp-kK for K = 1..32,
 * the lane split's slowdown 0.98 K on the GPU, 1 elsewhere. */
static void split_fixture(sb_run *run)
{
    memset(run, 0, sizeof *run);
    run->ndevices = 2;
    snprintf(run->devices[0].backend, sizeof run->devices[0].backend, "cuda");
    snprintf(run->devices[1].backend, sizeof run->devices[1].backend, "opencl");
    for (int slot = 0; slot < 2; slot++)
        for (int by_warp = 0; by_warp < 2; by_warp++)
            for (int k = 1; k <= 32; k *= 2) {
                char v[16];
                snprintf(v, sizeof v, "%s-k%d", by_warp ? "warp" : "lane", k);
                double slowdown = slot == 0 && !by_warp && k > 1 ? 0.98 * k : 1.0;
                add(run, slot, "divergence_split", v, by_warp ? "split_by_warp" : "split_by_lane",
                    "ns/element", slowdown, NULL);
                sb_result *r = &run->results[run->nresults - 1];
                r->slowdown = slowdown;
                sb_figure_add(r->figure, &r->nfigures, "warp_size", slot ? 0 : 32, "lanes");
                sb_figure_add(r->figure, &r->nfigures, "split_paths", k, "");
                if (slot == 0) {
                    sb_figure_add(r->figure, &r->nfigures, "paths_per_warp", by_warp ? 1 : k, "");
                    sb_figure_add(r->figure, &r->nfigures, "predicted_slowdown",
                                  by_warp ? 1 : k, "x");
                }
            }
    /* A row of the branch experiment: no paths to plot against, so bars. */
    add(run, 0, "divergence_branch", "random", "branch_on_key", "ns/element", 2.0, NULL);
}

/* Slowdown against paths: a series per device and split, log-log, the
 * model dashed in its device's colour where the device has a warp. */
static void paths_sweep_with_its_model(void **state)
{
    (void)state;
    sb_run run;
    split_fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_int_equal(list.n, 2);
    assert_string_equal(list.name[0], "divergence_split-paths");
    assert_string_equal(list.name[1], "divergence_branch-bars");
    char *dat = slurp("divergence_split-paths.dat");
    assert_non_null(strstr(dat, "# cuda, split_by_lane\n1 1 1 1\n2 1.96 2 2\n"));
    assert_non_null(strstr(dat, "\n32 31.36 32 32\n"));
    assert_non_null(strstr(dat, "# cuda, split_by_warp\n1 1 1 1\n2 1 1 1\n"));
    assert_non_null(strstr(dat, "# opencl, split_by_lane\n1 1 ? ?\n"));
    free(dat);
    char *gp = slurp("divergence_split-paths.gp");
    assert_non_null(strstr(gp, "set logscale xy 2"));
    assert_non_null(strstr(gp, "set xlabel 'k: paths"));
    assert_non_null(strstr(gp, "set ylabel 'slowdown (x)"));
    /* Four measured series, two models (the CPU has none), each model in
       its series' colour; the splits told apart by their points. */
    assert_non_null(strstr(gp, "index 0 using 1:2 with linespoints lw 2 pt 7 ps 1.4 lc rgb "
                               "'#1f77b4' title 'cuda, split_by_lane', 'divergence_split-paths.dat' "
                               "index 0 using 1:3 with lines dt 2 lw 4.0 lc rgb '#1f77b4' title "
                               "'model, cuda, split_by_lane'"));
    assert_non_null(strstr(gp, "index 1 using 1:2 with linespoints lw 2 pt 4 ps 1.4 lc rgb "
                               "'#1f77b4' title 'cuda, split_by_warp'"));
    assert_non_null(strstr(gp, "title 'opencl, split_by_lane'"));
    assert_null(strstr(gp, "model, opencl"));
    int models = 0;
    for (const char *p = gp; (p = strstr(p, "using 1:3 with lines dt 2")); p++)
        models++;
    assert_int_equal(models, 2 * 2); /* two per plot command, PNG and SVG */
    free(gp);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static void without_gnuplot_a_note(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    setenv("GNUPLOT", "", 1);
    char *note = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&note, &len);
    assert_int_equal(sb_plot_run(&a, dir, f), 0);
    fclose(f);
    assert_non_null(strstr(note, "gnuplot not found"));
    assert_non_null(strstr(note, dir));
    assert_non_null(strstr(note, "gnuplot \"$f\""));
    int lines = 0;
    for (char *p = note; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1);
    free(note);
    /* A GNUPLOT that is not there is not guessed around. */
    setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
    char path[256];
    assert_int_equal(sb_plot_find_gnuplot(path, sizeof path), -1);
    unsetenv("GNUPLOT");
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static void with_gnuplot_png_and_svg(void **state)
{
    (void)state;
    char gp[4096];
    if (sb_plot_find_gnuplot(gp, sizeof gp)) {
        print_message("# gnuplot not found: rendering not exercised\n");
        return;
    }
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char *note = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&note, &len);
    assert_int_equal(sb_plot_run(&a, dir, f), 0);
    fclose(f);
    assert_string_equal(note, ""); /* every script rendered */
    free(note);
    const char *names[] = {"coalescing-bandwidth", "banks-conflicts", "matmul-roofline",
                           "occupancy-bars"};
    for (size_t i = 0; i < 4; i++) {
        char file[128];
        snprintf(file, sizeof file, "%s.png", names[i]);
        assert_true(exists(file));
        snprintf(file, sizeof file, "%s.svg", names[i]);
        assert_true(exists(file));
    }
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static void unwritable_dir_is_an_error(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char *note = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&note, &len);
    assert_int_equal(sb_plot_run(&a, "/nonexistent/dir/plots", f), -1);
    fclose(f);
    assert_non_null(strstr(note, "simtbench: --plot: cannot create /nonexistent/dir/plots"));
    free(note);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* An executable script at dir/NAME standing in for gnuplot. */
static void fake_gnuplot(const char *name, const char *body, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nname=$(basename \"$1\" .gp)\n%s", body);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
}

static void failing_gnuplot_keeps_the_old_images(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char plots[300], image[400], gp[400];
    snprintf(plots, sizeof plots, "%s/kept", dir);
    assert_int_equal(mkdir(plots, 0777), 0);
    snprintf(image, sizeof image, "%s/occupancy-bars.png", plots);
    FILE *f = fopen(image, "w");
    fputs("old", f);
    fclose(f);
    const char *bodies[] = {"printf half >\"$name.png\"; exit 3\n",
                            "printf '<svg' >\"$name.svg\"; printf x >\"$name.png\"\n"};
    for (int k = 0; k < 2; k++) {
        fake_gnuplot(k ? "short-gnuplot" : "failing-gnuplot", bodies[k], gp, sizeof gp);
        setenv("GNUPLOT", gp, 1);
        char *note = NULL;
        size_t len = 0;
        FILE *nf = open_memstream(&note, &len);
        assert_int_equal(sb_plot_run(&a, plots, nf), -1);
        fclose(nf);
        assert_non_null(strstr(note, k ? "whole" : "gnuplot failed on"));
        assert_non_null(strstr(note, "occupancy-bars"));
        free(note);
        char *old = slurp("kept/occupancy-bars.png");
        assert_string_equal(old, "old");
        free(old);
        char cmd[400];
        snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep '^\\.')\"", plots);
        assert_int_equal(system(cmd), 0); /* no render directory left */
    }
    unsetenv("GNUPLOT");
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* Whether the process whose pid the fake gnuplot wrote to dir/NAME.pid
   is gone: the fake itself, stopped and reaped. */
static int fake_gone(const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s.pid", dir, name);
    FILE *f = fopen(path, "r");
    int pid = 0;
    if (!f)
        return 0;
    int got = fscanf(f, "%d", &pid);
    fclose(f);
    return got == 1 && pid > 0 && kill(pid, 0) != 0;
}

/* No render directory left in dir/sub. */
static int no_render_dir(const char *sub)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s/%s' | grep '^\\.')\"", dir, sub);
    return system(cmd) == 0;
}

/* A gnuplot that never exits is stopped at the time limit, with one
 * line, and the plots after it are not tried. */
static void hanging_gnuplot_is_stopped(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char gp[400], plots[300], body[600];
    snprintf(plots, sizeof plots, "%s/hang", dir);
    assert_int_equal(mkdir(plots, 0777), 0);
    snprintf(body, sizeof body, "echo $$ >'%s/hang.pid'\nexec sleep 600\n", dir);
    fake_gnuplot("hanging-gnuplot", body, gp, sizeof gp);
    setenv("GNUPLOT", gp, 1);
    setenv("SIMTBENCH_GNUPLOT_TIMEOUT", "0.3", 1);
    assert_true(sb_plot_time_limit() == 0.3);
    char *note = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&note, &len);
    assert_int_equal(sb_plot_run(&a, plots, f), -1);
    fclose(f);
    assert_non_null(strstr(note, "gnuplot did not finish "));
    assert_non_null(strstr(note, "coalescing-bandwidth.gp within 0.3 s"));
    assert_non_null(strstr(note, "so it was stopped and 4 plot(s) are not rendered"));
    assert_non_null(strchr(note, '\n'));
    assert_string_equal(strchr(note, '\n'), "\n"); /* one line */
    free(note);
    assert_true(fake_gone("hang"));
    assert_true(no_render_dir("hang"));
    setenv("SIMTBENCH_GNUPLOT_TIMEOUT", "soon", 1);
    assert_true(sb_plot_time_limit() == SB_PLOT_TIME_LIMIT);
    unsetenv("SIMTBENCH_GNUPLOT_TIMEOUT");
    unsetenv("GNUPLOT");
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* SIGTERM while gnuplot runs (sent by the fake, as a user would): the
 * rendering stops, the gnuplot is stopped, no temporary file is left,
 * and sb_plot_run says SB_PLOT_INTERRUPTED.  In a child, since the
 * signal stays caught for the rest of the process. */
static void signal_stops_the_rendering(void **state)
{
    (void)state;
    sb_run run;
    fixture(&run);
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    char gp[400], plots[300], body[600];
    snprintf(plots, sizeof plots, "%s/signal", dir);
    assert_int_equal(mkdir(plots, 0777), 0);
    snprintf(body, sizeof body, "echo $$ >'%s/signal.pid'\nkill -TERM $PPID\nexec sleep 600\n",
             dir);
    fake_gnuplot("signalling-gnuplot", body, gp, sizeof gp);
    setenv("GNUPLOT", gp, 1);
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        sb_interrupt_catch("test");
        sb_interrupt_defer(0); /* writing: a signal asks the rendering to stop */
        FILE *devnull = fopen("/dev/null", "w");
        int rc = sb_plot_run(&a, plots, devnull);
        _exit(rc == SB_PLOT_INTERRUPTED && sb_interrupted() == SIGTERM ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(child, &st, 0), child);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_true(fake_gone("signal"));
    assert_true(no_render_dir("signal"));
    char png[400];
    snprintf(png, sizeof png, "signal/coalescing-bandwidth.png");
    assert_false(exists(png));
    unsetenv("GNUPLOT");
    sb_analysis_free(&a);
    sb_run_free(&run);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    /* Only this test's own directory, made by mkdtemp above. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 0;
}

/* The launch family's plot: per variant, each device's device-event and
 * host-observed microseconds side by side on a log scale; the compute
 * family's bars against the FP32 peak; the roofline with the measured FMA
 * peak beside the theoretical compute roof. */
static void launch_and_compute_plots(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 2;
    for (int d = 0; d < 2; d++) {
        snprintf(run.devices[d].backend, sizeof run.devices[d].backend, "%s",
                 d ? "opencl" : "cuda");
        snprintf(run.devices[d].info.arch, sizeof run.devices[d].info.arch, "sm_90");
        run.devices[d].info.compute_units = 132;
        run.devices[d].info.clock_mhz = 1980;
        run.devices[d].memcpy_gbs = 4000;
    }
    run.devices[0].fma_gflops = 61200;
    for (int slot = 0; slot < 2; slot++) {
        add(&run, slot, "launch_small", "empty", "launch_empty", "us/launch", 0.0021, NULL);
        run.results[run.nresults - 1].host_observed =
            (sb_stats){.n = 5, .median = slot ? 0.0079 : 0.0043};
        add(&run, slot, "compute", "fma_chains8", "fma_peak", "GFLOP/s", 2.0, NULL);
        run.results[run.nresults - 1].value = 61200;
        add(&run, slot, "matmul", "tiled", "mm_tiled", "GFLOP/s", 0.1, NULL);
        run.results[run.nresults - 1].intensity = 8.0;
    }
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_int_equal(list.n, 3);
    assert_string_equal(list.name[0], "launch_small-launch");
    assert_string_equal(list.name[1], "compute-bars");
    assert_string_equal(list.name[2], "matmul-roofline");
    char *dat = slurp("launch_small-launch.dat");
    assert_non_null(strstr(dat, "\n\"empty\" 2.1 4.3 2.1 7.9\n"));
    free(dat);
    char *gp = slurp("launch_small-launch.gp");
    assert_non_null(strstr(gp, "set logscale y"));
    assert_non_null(strstr(gp, "title 'cuda device events'"));
    assert_non_null(strstr(gp, "title 'opencl host-observed'"));
    free(gp);
    gp = slurp("compute-bars.gp");
    assert_non_null(strstr(gp, "title 'cuda FP32 peak: 66908 GFLOP/s"));
    assert_non_null(strstr(gp, "against the FP32 peak"));
    free(gp);
    dat = slurp("matmul-roofline.dat");
    assert_non_null(strstr(dat, "# cuda compute roof: FP32 peak 66908 GFLOP/s"));
    assert_non_null(strstr(dat, "# cuda FMA peak measured: 61200 GFLOP/s (the compute family's "
                                "fma_chains8)\n4 61200\n16 61200\n"));
    assert_null(strstr(dat, "opencl FMA peak"));
    free(dat);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

/* The label height in the bars' data for variant `name`. */
static double share_label_at(const char *dat, const char *name)
{
    char want[64];
    snprintf(want, sizeof want, "\n\"%s\" ", name);
    const char *line = strstr(dat, want);
    assert_non_null(line);
    double value = 0, label = 0;
    assert_int_equal(sscanf(line + strlen(want), "%lf %lf", &value, &label), 2);
    return label;
}

/* A bar's share sits above it, unless the roof line crosses the label
 * there (a share just under or at 100%): then above the line, clear. */
static void bars_share_labels_clear_the_roof(void **state)
{
    (void)state;
    sb_run run;
    memset(&run, 0, sizeof run);
    run.ndevices = 1;
    snprintf(run.devices[0].backend, sizeof run.devices[0].backend, "cuda");
    run.devices[0].memcpy_gbs = 4000;
    add(&run, 0, "transpose", "far", "k", "GB/s", 1.0, NULL);
    run.results[run.nresults - 1].value = 1000;
    add(&run, 0, "transpose", "near", "k", "GB/s", 1.0, NULL);
    run.results[run.nresults - 1].value = 3880;
    add(&run, 0, "transpose", "above", "k", "GB/s", 1.0, NULL);
    run.results[run.nresults - 1].value = 4010;
    sb_analysis a;
    assert_int_equal(sb_analyse_saved(&run, NULL, &a), 0);
    sb_plot_list list;
    char err[256];
    assert_int_equal(sb_plot_write(&a, dir, &list, err, sizeof err), 0);
    assert_string_equal(list.name[0], "transpose-bars");
    char *dat = slurp("transpose-bars.dat");
    assert_true(share_label_at(dat, "far") == 1000);
    assert_true(share_label_at(dat, "near") > 4040);
    assert_true(share_label_at(dat, "above") > 4040);
    free(dat);
    char *gp = slurp("transpose-bars.gp");
    assert_non_null(strstr(gp, ":(column(3)):(sprintf('%.0f%%', 100 * column(2) / 4000))"));
    free(gp);
    sb_analysis_free(&a);
    sb_run_free(&run);
}

int main(void)
{
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot create a temporary directory");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chooses_plots_from_records),
        cmocka_unit_test(histogram_bins_sweep),
        cmocka_unit_test(memory_sweeps_and_bytes_in_flight),
        cmocka_unit_test(launch_and_compute_plots),
        cmocka_unit_test(paths_sweep_with_its_model),
        cmocka_unit_test(bars_share_labels_clear_the_roof),
        cmocka_unit_test(without_gnuplot_a_note),
        cmocka_unit_test(with_gnuplot_png_and_svg),
        cmocka_unit_test(unwritable_dir_is_an_error),
        cmocka_unit_test(failing_gnuplot_keeps_the_old_images),
        cmocka_unit_test(hanging_gnuplot_is_stopped),
        cmocka_unit_test(signal_stops_the_rendering),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, teardown);
}
