/* The terminal table: the devices, then per experiment one row per variant
 * and backend, or, with two or more devices, one row per variant with the
 * devices side by side.  Every line keeps within the layout's width
 * (layout.h): the columns are as wide as their content, the model's text,
 * the notes and the PTX comparison go on folded lines under the row, and
 * a column that would make a row too wide gives way to those lines. */
#include <stdarg.h>
#include <string.h>

#include "experiments/experiment.h"
#include "report/describe.h"
#include "report/fleet_table.h"
#include "report/layout.h"
#include "analysis/lessons.h"
#include "report/report.h"
#include "report/summary_print.h"
#include "report/table.h"

/* Where the lines under a row start, and their continuation lines. */
#define UNDER_ROW "      "
#define UNDER_ROW_MORE 8
/* A device line's continuation lines: past the backend's name. */
#define DEVICE_MORE 12

/* printf, folded (sb_layout_fold). */
static void __attribute__((format(printf, 5, 6)))
foldf(FILE *out, int width, const char *first, int indent, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sb_layout_fold(out, width, first, indent, text);
}

/* printf at the end of buf, which holds *used bytes. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    *used = w < 0 ? *used : *used + (size_t)w < n ? *used + (size_t)w : n - 1;
}

/* `more` after what buf holds, "; " between them. */
static void join(char *buf, size_t n, const char *more)
{
    size_t used = strlen(buf);
    if (more[0])
        append(buf, n, &used, "%s%s", used ? "; " : "", more);
}

/* ------------------------------------------------------------ devices */

/* One figure of the device, or "<what> unknown" when the API gave none: the
 * report never prints a 0 it was not told. */
static void figure(char *buf, size_t n, size_t *used, const char *sep, double value,
                   const char *fmt, const char *what)
{
    append(buf, n, used, "%s", sep);
    if (value > 0)
        append(buf, n, used, fmt, value);
    else
        append(buf, n, used, "%s unknown", what);
}

/* The device's memory: its theoretical peak, or why there is none.  The
 * copy it measured is under each block whose roof% it is. */
static void device_memory(const sb_run_device *d, int width, FILE *out)
{
    const sb_device_info *in = &d->info;
    const char *at = "          ";
    char line[512];
    size_t used = 0;
    double peak = sb_device_peak_gbs(in);
    if (peak > 0) {
        foldf(out, width, at, DEVICE_MORE, "memory bus %d bits at %d MHz: theoretical peak %.0f "
              "GB/s (bus bytes x 2 x clock)", in->bus_width_bits, in->mem_clock_mhz, peak);
    } else if (in->bus_width_bits > 0 || in->mem_clock_mhz > 0) {
        figure(line, sizeof line, &used, "memory bus ", in->bus_width_bits, "%.0f bits", "width");
        figure(line, sizeof line, &used, ", ", in->mem_clock_mhz, "clock %.0f MHz", "clock");
        foldf(out, width, at, DEVICE_MORE, "%s (the %s API does not say the rest), so no "
              "theoretical peak", line, d->backend);
    } else {
        foldf(out, width, at, DEVICE_MORE, "memory bus width and clock: not exposed by the %s "
              "API, so no theoretical peak", d->backend);
    }
}

static void device_section(const sb_run *run, const sb_crossapi *x, int width, FILE *out)
{
    fprintf(out, "Devices\n");
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *d = &run->devices[i];
        const sb_device_info *in = &d->info;
        char first[SB_SLOT_LABEL + 8], line[512];
        size_t used = 0;
        snprintf(first, sizeof first, "  %-7s ", i < x->ndevices ? x->label[i] : d->backend);
        foldf(out, width, first, DEVICE_MORE, "%s [%s], %s, driver %s, %s", in->name,
              in->platform, in->api_version, in->driver[0] ? in->driver : "unknown", in->arch);
        figure(line, sizeof line, &used, "", in->compute_units, "%.0f compute units",
               "compute units");
        figure(line, sizeof line, &used, " at ", in->clock_mhz, "%.0f MHz", "clock");
        figure(line, sizeof line, &used, ", ", in->global_mem_bytes / 1048576.0,
               "%.0f MiB memory", "memory size");
        /* Each API's figure under the API's own name for the cache. */
        append(line, sizeof line, &used, ", %s", in->cache_name[0] ? in->cache_name : "cache");
        figure(line, sizeof line, &used, " ", in->l2_bytes / 1048576.0, "%.1f MiB", "size");
        figure(line, sizeof line, &used, ", ", in->local_mem_bytes / 1024.0,
               "%.0f KiB shared per block", "shared memory per block");
        sb_layout_fold(out, width, "          ", DEVICE_MORE, line);
        device_memory(d, width, out);
        /* The start's only: the table printed as the run goes has no end
           yet, and must read as the saved run's report does. */
        if (d->sm_mhz_start > 0 || d->mem_mhz_start > 0)
            foldf(out, width, "          ", DEVICE_MORE,
                  "clocks at the start, from the driver: SM %d MHz, memory %d MHz",
                  d->sm_mhz_start, d->mem_mhz_start);
        /* Which one it is, where the run holds more than one. */
        if (run->ndevices > 1) {
            sb_device_identity_text(run, i, line, sizeof line);
            sb_layout_fold(out, width, "          ", DEVICE_MORE, line);
        }
    }
    for (int i = 0; i < run->nunavailable; i++)
        foldf(out, width, "  ", 4, "not run: %s: %s", run->unavailable[i].backend,
              run->unavailable[i].reason);
}

/* ------------------------------------------------------------ blocks */

static void experiment_heading(const sb_result *f, int width, FILE *out)
{
    char size[64];
    sb_result_size_text(f, size, sizeof size);
    fputc('\n', out);
    foldf(out, width, "", 2,
          "%s  %s  (%d reps after %d+ warm-ups and 20 ms busy; every row verified)",
          f->experiment, size, f->reps, f->warmup);
}

/* The copy roof a row's roof% is of, GB/s: a bandwidth's, or a GFLOP/s
 * row's of intensity x the roof; 0 where it has none (a GFLOP/s row with
 * no intensity is of the FP32 peak, which is no copy roof). */
static double row_roof(const sb_result *r)
{
    if (r->roof_share <= 0 || r->value <= 0)
        return 0;
    if (r->quantity == SB_QUANTITY_BANDWIDTH)
        return r->value / r->roof_share;
    if (r->quantity == SB_QUANTITY_FLOPS && r->intensity > 0)
        return r->value / (r->roof_share * r->intensity);
    return 0;
}

/* Whether the block has an API copy row of device slot at f's size. */
static int own_api_copy(const sb_run *run, const sb_cross_experiment *e, int slot,
                        const sb_result *f)
{
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        if (r->device_slot == slot && sb_result_role(r) == SB_ROLE_API_COPY &&
            r->rows == f->rows && r->cols == f->cols)
            return 1;
    }
    return 0;
}

/* Under a GFLOP/s block with rows of no intensity (the FMA peak, a vendor
 * SGEMM): their roof% is of each device's theoretical FP32 peak, said
 * with its formula, or why a device has none. */
static void compute_legend(const sb_run *run, const sb_cross_experiment *e, int width, FILE *out)
{
    char said[320] = "";
    for (int slot = 0; slot < run->ndevices; slot++) {
        int any = 0;
        for (size_t i = 0; i < e->nresults && !any; i++) {
            const sb_result *r = &run->results[e->results[i]];
            any = r->device_slot == slot && !(r->intensity > 0);
        }
        if (!any)
            continue;
        const sb_device_info *in = &run->devices[slot].info;
        double peak = sb_device_fp32_peak_gflops(in);
        char line[320];
        if (peak > 0)
            snprintf(line, sizeof line, "roof%% without FLOP/B: of %s's theoretical FP32 peak, "
                     "%.0f GFLOP/s (%d units x %d lanes x 2 x %d MHz)",
                     run->devices[slot].backend, peak, in->compute_units,
                     sb_arch_fp32_lanes(in->arch), in->clock_mhz);
        else
            snprintf(line, sizeof line, "roof%% without FLOP/B: %s has no theoretical FP32 "
                     "peak (FP32 lanes per unit of %s not known)", run->devices[slot].backend,
                     in->arch[0] ? in->arch : "its architecture");
        /* Two sessions of one device say it once. */
        if (strcmp(line, said) != 0)
            sb_layout_fold(out, width, "  ", 4, line);
        snprintf(said, sizeof said, "%s", line);
    }
}

/* Under a block with roofs: what each device's roof% is taken against
 * (the block's own API copy, or the fastest copy measured before it), and
 * what that is of the theoretical peak; for GFLOP/s, what roof% means. */
static void roof_legend(const sb_run *run, const sb_cross_experiment *e, int width, FILE *out)
{
    const sb_result *f = &run->results[e->first];
    if (f->quantity != SB_QUANTITY_BANDWIDTH && f->quantity != SB_QUANTITY_FLOPS)
        return;
    int bound_by_memory = f->quantity == SB_QUANTITY_BANDWIDTH;
    for (size_t i = 0; i < e->nresults; i++)
        bound_by_memory |= run->results[e->results[i]].intensity > 0;
    if (f->quantity == SB_QUANTITY_FLOPS && bound_by_memory)
        foldf(out, width, "  ", 4, "roof%% = GFLOP/s over FLOP/B x the copy roof, the "
              "memory-bound ceiling; over 100 means caches cut the traffic FLOP/B counts");
    if (f->quantity == SB_QUANTITY_FLOPS)
        compute_legend(run, e, width, out);
    if (!bound_by_memory)
        return;
    int any = 0;
    for (int slot = 0; slot < run->ndevices; slot++) {
        double roof = 0;
        for (size_t i = 0; i < e->nresults && roof <= 0; i++)
            if (run->results[e->results[i]].device_slot == slot)
                roof = row_roof(&run->results[e->results[i]]);
        if (roof <= 0)
            continue;
        any = 1;
        const sb_run_device *d = &run->devices[slot];
        double peak = sb_device_peak_gbs(&d->info);
        char of_peak[48] = "";
        if (peak > 0)
            snprintf(of_peak, sizeof of_peak, ", %.1f%% of the theoretical peak",
                     100.0 * roof / peak);
        char label[SB_SLOT_LABEL];
        sb_slot_label(run, slot, label, sizeof label);
        foldf(out, width, "  ", 4, "roof: %s %.1f GB/s, %s%s", label, roof,
              own_api_copy(run, e, slot, f) ? "this block's API copy"
                                            : "the fastest copy measured before this block",
              of_peak);
    }
    if (!any)
        foldf(out, width, "  ", 4, "roof%%: no copy measured before this block (transpose, "
              "vecadd and occupancy measure one)");
}

/* The variant's name, with its size when it is not the experiment's. */
static void variant_cell(const sb_result *f, const sb_result *r, char *buf, size_t n)
{
    char size[64];
    sb_result_size_text(r, size, sizeof size);
    if (r->rows == f->rows && r->cols == f->cols)
        snprintf(buf, n, "%s", r->variant);
    else
        snprintf(buf, n, "%s@%s", r->variant, size);
}

/* Under a row: what it adds (the columns that gave way, the notes, the
 * interval) on one folded line, and the model's prediction on another. */
static void under_row(const char *details, const char *model, int width, FILE *out)
{
    if (details[0])
        sb_layout_fold(out, width, UNDER_ROW, UNDER_ROW_MORE, details);
    if (model[0])
        foldf(out, width, UNDER_ROW, UNDER_ROW_MORE, "model: %s", model);
}

/* Under a row of a run with --counters: the model against the
 * hardware's counts of result i (label: whose, where several devices
 * share the row). */
static void counted_line(const sb_analysis *a, long i, const char *label, int width, FILE *out)
{
    if (!a->checks || i < 0 || (size_t)i >= a->run->nresults)
        return;
    char text[1024];
    sb_counter_check_text(&a->checks[i], text, sizeof text);
    if (text[0] && label)
        foldf(out, width, UNDER_ROW, UNDER_ROW_MORE, "%s %s", label, text);
    else if (text[0])
        sb_layout_fold(out, width, UNDER_ROW, UNDER_ROW_MORE, text);
}

/* -------------------------------------------------------- one device */

enum { ONE_VARIANT, ONE_BACKEND, ONE_MEDIAN, ONE_HOST, ONE_MIN, ONE_MAX, ONE_SPREAD, ONE_VALUE,
       ONE_BEST, ONE_ROOF, ONE_SLOWDOWN, ONE_COLUMNS };

/* The one-device columns, and the order in which they give way: the
 * backend (the run's only one, in the header) first, the median last. */
static void one_device_columns(sb_layout *l, sb_quantity q)
{
    static const sb_layout_column columns[ONE_COLUMNS] = {
        [ONE_VARIANT] = {.heading = "variant", .gap = 2},
        [ONE_BACKEND] = {.heading = "backend", .gap = 2, .give_way = 9},
        [ONE_MEDIAN] = {.heading = "median ms", .gap = 2, .right = 1, .give_way = 1,
                        .noted = 1, .note = "median", .unit = " ms"},
        [ONE_HOST] = {.heading = "host ms", .gap = 1, .right = 1, .give_way = 1, .noted = 1,
                      .note = "host-observed", .unit = " ms"},
        [ONE_MIN] = {.heading = "min ms", .gap = 1, .right = 1, .give_way = 6, .noted = 1,
                     .note = "min", .unit = " ms"},
        [ONE_MAX] = {.heading = "max ms", .gap = 1, .right = 1, .give_way = 7, .noted = 1,
                     .note = "max", .unit = " ms"},
        [ONE_SPREAD] = {.heading = "spread", .gap = 1, .right = 1, .give_way = 4, .noted = 1,
                        .note = "spread"},
        [ONE_VALUE] = {.gap = 1, .right = 1, .give_way = 2, .noted = 1},
        [ONE_BEST] = {.heading = "best", .gap = 1, .right = 1, .give_way = 8, .noted = 1,
                      .note = "best"},
        [ONE_ROOF] = {.heading = "roof%", .gap = 1, .right = 1, .give_way = 5, .noted = 1,
                      .note = "roof", .unit = "%"},
        [ONE_SLOWDOWN] = {.heading = "vs base", .gap = 1, .right = 1, .give_way = 3,
                          .noted = 1, .note = "vs base"},
    };
    sb_layout_column value = columns[ONE_VALUE], best = columns[ONE_BEST];
    const char *unit = sb_quantity_unit(q);
    snprintf(value.heading, sizeof value.heading, "%s", unit);
    snprintf(value.unit, sizeof value.unit, " %s", unit);
    snprintf(best.unit, sizeof best.unit, " %s", unit);
    for (int c = 0; c < ONE_COLUMNS; c++)
        sb_layout_add(l, c == ONE_VALUE ? &value : c == ONE_BEST ? &best : &columns[c]);
}

/* The spread and roof% cells of r, as the noise analysis judged them. */
static void noise_cells(const sb_noise *noise, const sb_run *run, const sb_result *r,
                        char *spread, char *roof)
{
    sb_noise_cells(noise, (size_t)(r - run->results), r, spread, roof,
                   SB_LAYOUT_CELL);
}

static void one_device_cells(const sb_analysis *a, const sb_result *f, const sb_result *r,
                             sb_layout_cells *c)
{
    memset(c, 0, sizeof *c);
    variant_cell(f, r, c->cell[ONE_VARIANT], SB_LAYOUT_CELL);
    snprintf(c->cell[ONE_BACKEND], SB_LAYOUT_CELL, "%s", r->backend);
    snprintf(c->cell[ONE_MEDIAN], SB_LAYOUT_CELL, "%.4f", r->ms.median);
    snprintf(c->cell[ONE_MIN], SB_LAYOUT_CELL, "%.4f", r->ms.min);
    snprintf(c->cell[ONE_MAX], SB_LAYOUT_CELL, "%.4f", r->ms.max);
    snprintf(c->cell[ONE_VALUE], SB_LAYOUT_CELL, "%.2f", r->value);
    snprintf(c->cell[ONE_BEST], SB_LAYOUT_CELL, "%.2f", r->value_best);
    noise_cells(&a->noise, a->run, r, c->cell[ONE_SPREAD], c->cell[ONE_ROOF]);
    if (r->slowdown > 0)
        snprintf(c->cell[ONE_SLOWDOWN], SB_LAYOUT_CELL, "x%.2f", r->slowdown);
    if (r->host_observed.n > 0)
        snprintf(c->cell[ONE_HOST], SB_LAYOUT_CELL, "%.4f", r->host_observed.median);
}

static void experiment_section(const sb_analysis *a, const sb_cross_experiment *e, int width,
                               FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    sb_layout l;
    sb_layout_cells cells;
    experiment_heading(f, width, out);
    sb_layout_init(&l, width);
    one_device_columns(&l, f->quantity);
    for (size_t i = 0; i < e->nresults; i++) {
        one_device_cells(a, f, &run->results[e->results[i]], &cells);
        sb_layout_measure(&l, &cells);
    }
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        char details[1024], notes[160], model[SB_MODEL_TEXT];
        one_device_cells(a, f, r, &cells);
        sb_layout_row(&l, &cells, out);
        sb_layout_given_way(&l, &cells, details, sizeof details);
        sb_result_host_notes(r, notes, sizeof notes);
        join(details, sizeof details, notes);
        sb_result_notes(r, notes, sizeof notes);
        join(details, sizeof details, notes);
        sb_result_model_text(r, model, sizeof model);
        under_row(details, model, width, out);
        counted_line(a, (long)e->results[i], NULL, width, out);
    }
    roof_legend(run, e, width, out);
}

/* ------------------------------------------------------- side by side */

/* Each device's four columns, then each other device's ratio and verdict. */
enum { CROSS_MEDIAN, CROSS_HOST, CROSS_SPREAD, CROSS_VALUE, CROSS_ROOF, CROSS_PER_DEVICE };
enum { CROSS_RATIO, CROSS_VERDICT, CROSS_PER_OTHER };

typedef struct cross_layout {
    sb_layout l;
    int device_col[SB_RUN_MAX_DEVICES]; /* the first of each device's columns */
    int other_col[SB_RUN_MAX_DEVICES];  /* each other device's ratio column; -1 for the
                                           reference */
} cross_layout;

/* The side-by-side columns, each device's under its label and each
 * other device's ratio and verdict under "X/REF"; the spreads give way
 * first, the ratios last. */
static void cross_columns(cross_layout *cl, const sb_crossapi *x, sb_quantity q)
{
    const char *unit = sb_quantity_unit(q);
    const sb_layout_column variant = {.heading = "variant", .gap = 2};
    sb_layout_add(&cl->l, &variant);
    /* One space after the names (left-aligned, so only the longest
       touches), two between devices: two devices fit 100 columns with
       every figure in the row more often. */
    for (int s = 0; s < x->ndevices; s++) {
        int g = sb_layout_add_group(&cl->l, x->label[s]);
        sb_layout_column c[CROSS_PER_DEVICE] = {
            [CROSS_MEDIAN] = {.heading = "median", .gap = s ? 2 : 1, .right = 1, .give_way = 2,
                              .noted = 1, .note = "median", .unit = " ms", .group = g},
            [CROSS_HOST] = {.heading = "host", .gap = 1, .right = 1, .give_way = 2, .noted = 1,
                            .note = "host-observed", .unit = " ms", .group = g},
            [CROSS_SPREAD] = {.heading = "spread", .gap = 1, .right = 1, .give_way = 6,
                              .noted = 1, .note = "spread", .group = g},
            [CROSS_VALUE] = {.gap = 1, .right = 1, .give_way = 4, .noted = 1, .group = g},
            [CROSS_ROOF] = {.heading = "roof%", .gap = 1, .right = 1, .give_way = 5,
                            .noted = 1, .note = "roof", .unit = "%", .group = g},
        };
        snprintf(c[CROSS_VALUE].heading, sizeof c[0].heading, "%s", unit);
        snprintf(c[CROSS_VALUE].unit, sizeof c[0].unit, " %s", unit);
        for (int k = 0; k < CROSS_PER_DEVICE; k++)
            snprintf(c[k].subject, sizeof c[k].subject, "%s", x->label[s]);
        cl->device_col[s] = cl->l.ncolumns;
        for (int k = 0; k < CROSS_PER_DEVICE; k++)
            sb_layout_add(&cl->l, &c[k]);
    }
    for (int s = 0; s < x->ndevices; s++) {
        cl->other_col[s] = -1;
        if (s == x->reference)
            continue;
        char ratio[64];
        snprintf(ratio, sizeof ratio, "%s/%s", x->label[s], x->label[x->reference]);
        int g = sb_layout_add_group(&cl->l, ratio);
        sb_layout_column c[CROSS_PER_OTHER] = {
            [CROSS_RATIO] = {.heading = "ratio", .gap = 2, .right = 1, .give_way = 1,
                             .noted = 1, .group = g},
            [CROSS_VERDICT] = {.heading = "verdict", .gap = 1, .give_way = 3, .noted = 1,
                               .group = g},
        };
        snprintf(c[CROSS_RATIO].note, sizeof c[0].note, "%s", ratio);
        cl->other_col[s] = cl->l.ncolumns;
        for (int k = 0; k < CROSS_PER_OTHER; k++)
            sb_layout_add(&cl->l, &c[k]);
    }
}

/* A variant's cells: each device's figures ("-" where it has none), each
 * other device's ratio and verdict. */
static void cross_cells(const sb_analysis *a, const sb_crossapi *x, const cross_layout *cl,
                        const sb_result *f, const sb_cross_row *row, sb_layout_cells *c)
{
    const sb_run *run = a->run;
    const int ref = x->reference;
    memset(c, 0, sizeof *c);
    variant_cell(f, &run->results[row->result[ref] >= 0 ? (size_t)row->result[ref] : row->first],
                 c->cell[0], SB_LAYOUT_CELL);
    for (int s = 0; s < x->ndevices; s++) {
        char(*d)[SB_LAYOUT_CELL] = &c->cell[cl->device_col[s]];
        if (row->result[s] < 0) {
            snprintf(d[CROSS_MEDIAN], SB_LAYOUT_CELL, "-");
            continue;
        }
        const sb_result *r = &run->results[row->result[s]];
        snprintf(d[CROSS_MEDIAN], SB_LAYOUT_CELL, "%.4f", r->ms.median);
        if (r->host_observed.n > 0)
            snprintf(d[CROSS_HOST], SB_LAYOUT_CELL, "%.4f", r->host_observed.median);
        snprintf(d[CROSS_VALUE], SB_LAYOUT_CELL, "%.2f", r->value);
        noise_cells(&a->noise, run, r, d[CROSS_SPREAD], d[CROSS_ROOF]);
    }
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        char(*o)[SB_LAYOUT_CELL] = &c->cell[cl->other_col[s]];
        snprintf(o[CROSS_RATIO], SB_LAYOUT_CELL, "-");
        if (row->verdict[s].kind != SB_VERDICT_NONE)
            snprintf(o[CROSS_RATIO], SB_LAYOUT_CELL, "%.3f", row->verdict[s].speed_ratio);
        sb_verdict_text(&row->verdict[s], x->label[ref], x->label[s], o[CROSS_VERDICT],
                        SB_LAYOUT_CELL);
    }
}

/* Where the host timed the row too: each device's launches per second,
 * and each other device's host-observed ratio and verdict against the
 * reference, after what details holds. */
static void host_details(const sb_run *run, const sb_crossapi *x, const sb_cross_row *row,
                         char *details, size_t n)
{
    const int ref = x->reference;
    char more[256];
    size_t used = 0;
    more[0] = '\0';
    for (int s = 0; s < x->ndevices; s++)
        if (row->result[s] >= 0 && run->results[row->result[s]].launches_per_s > 0)
            append(more, sizeof more, &used, "%s%s %.0f", used ? ", " : "launches/s: ",
                   x->label[s], run->results[row->result[s]].launches_per_s);
    join(details, n, more);
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref || row->host_verdict[s].kind == SB_VERDICT_NONE)
            continue;
        char verdict[96];
        sb_verdict_text(&row->host_verdict[s], x->label[ref], x->label[s], verdict,
                        sizeof verdict);
        snprintf(more, sizeof more, "host-observed %s/%s %.3f: %s", x->label[s], x->label[ref],
                 row->host_verdict[s].speed_ratio, verdict);
        join(details, n, more);
    }
}

/* Under a side-by-side row: each verdict's interval (or the rule it was
 * reached by), the columns that gave way and the notes; the model; then a
 * line per device whose PTX was compared. */
static void cross_under_row(const sb_run *run, const sb_crossapi *x, const sb_layout *l,
                            const sb_cross_row *row, const sb_layout_cells *cells, int width,
                            FILE *out)
{
    const int ref = x->reference;
    /* Notes (intensity, occupancy) from the reference's row where it has one. */
    const sb_result *any =
        &run->results[row->result[ref] >= 0 ? (size_t)row->result[ref] : row->first];
    char details[1024] = "", more[512], model[SB_MODEL_TEXT];
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref || row->verdict[s].kind == SB_VERDICT_NONE)
            continue;
        char interval[64];
        sb_verdict_interval_text(&row->verdict[s], SB_INTERVAL_SPEED, interval, sizeof interval);
        snprintf(more, sizeof more, "%s/%s%s%s", x->label[s], x->label[ref],
                 interval[0] == '[' ? " 95% interval " : ": ", interval);
        join(details, sizeof details, more);
    }
    sb_layout_given_way(l, cells, more, sizeof more);
    join(details, sizeof details, more);
    host_details(run, x, row, details, sizeof details);
    sb_result_notes(any, more, sizeof more);
    join(details, sizeof details, more);
    sb_result_model_text(any, model, sizeof model);
    under_row(details, model, width, out);
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref && row->ptx[s][0])
            foldf(out, width, UNDER_ROW, UNDER_ROW_MORE, "PTX %s vs %s: %s", x->label[s],
                  x->label[ref], row->ptx[s]);
}

/* Side by side: one row per variant, each device's median, spread, figure
 * and roof share, then each other device's speed against the reference
 * and the verdict, with the lines under it. */
static void cross_section(const sb_analysis *a, const sb_crossapi *x,
                          const sb_cross_experiment *e, int width, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    cross_layout cl;
    sb_layout_cells cells;
    experiment_heading(f, width, out);
    sb_layout_init(&cl.l, width);
    cross_columns(&cl, x, f->quantity);
    for (size_t j = 0; j < e->nrows; j++) {
        cross_cells(a, x, &cl, f, &x->rows[e->rows[j]], &cells);
        sb_layout_measure(&cl.l, &cells);
    }
    sb_layout_fit(&cl.l);
    sb_layout_heading(&cl.l, out);
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &x->rows[e->rows[j]];
        cross_cells(a, x, &cl, f, row, &cells);
        sb_layout_row(&cl.l, &cells, out);
        cross_under_row(run, x, &cl.l, row, &cells, width, out);
        /* Where one device of the row was counted, the others' "none" is
           the note the run gave once, not a line under every row. */
        int any = 0;
        for (int s = 0; s < x->ndevices; s++)
            any |= row->result[s] >= 0 && a->run->results[row->result[s]].counted;
        for (int s = 0; s < x->ndevices; s++)
            if (!any || (row->result[s] >= 0 && a->run->results[row->result[s]].counted))
                counted_line(a, row->result[s], x->label[s], width, out);
    }
    roof_legend(run, e, width, out);
}

/* ------------------------------------------------------------ stacked */

/* With more devices than this, side by side would be wider than any
   terminal: each variant takes a line per device instead. */
#define SIDE_BY_SIDE_MAX 3

enum { STACK_VARIANT, STACK_DEVICE, STACK_MEDIAN, STACK_SPREAD, STACK_VALUE, STACK_ROOF,
       STACK_RATIO, STACK_VERDICT, STACK_INTERVAL, STACK_COLUMNS };

/* The stacked columns: the variant (on its first line only), the device,
   its figures, and its speed ratio and verdict against the reference;
   the interval gives way first, the ratio last. */
static void stacked_columns(sb_layout *l, const sb_crossapi *x, sb_quantity q)
{
    static const sb_layout_column columns[STACK_COLUMNS] = {
        [STACK_VARIANT] = {.heading = "variant", .gap = 2},
        [STACK_DEVICE] = {.heading = "device", .gap = 1},
        [STACK_MEDIAN] = {.heading = "median", .gap = 2, .right = 1, .give_way = 2, .noted = 1,
                          .note = "median", .unit = " ms"},
        [STACK_SPREAD] = {.heading = "spread", .gap = 1, .right = 1, .give_way = 6, .noted = 1,
                          .note = "spread"},
        [STACK_VALUE] = {.gap = 1, .right = 1, .give_way = 4, .noted = 1},
        [STACK_ROOF] = {.heading = "roof%", .gap = 1, .right = 1, .give_way = 5, .noted = 1,
                        .note = "roof", .unit = "%"},
        [STACK_RATIO] = {.gap = 2, .right = 1, .give_way = 1, .noted = 1, .note = "ratio"},
        [STACK_VERDICT] = {.heading = "verdict", .gap = 1, .give_way = 3, .noted = 1},
        [STACK_INTERVAL] = {.heading = "95% interval", .gap = 1, .give_way = 7, .noted = 1,
                            .note = "95% interval"},
    };
    sb_layout_column value = columns[STACK_VALUE], ratio = columns[STACK_RATIO];
    const char *unit = sb_quantity_unit(q);
    snprintf(value.heading, sizeof value.heading, "%s", unit);
    snprintf(value.unit, sizeof value.unit, " %s", unit);
    snprintf(ratio.heading, sizeof ratio.heading, "X/%.20s", x->label[x->reference]);
    for (int c = 0; c < STACK_COLUMNS; c++)
        sb_layout_add(l, c == STACK_VALUE ? &value : c == STACK_RATIO ? &ratio : &columns[c]);
}

/* Device s's line of a row: the variant's name on the first line only. */
static void stacked_cells(const sb_analysis *a, const sb_crossapi *x, const sb_result *f,
                          const sb_cross_row *row, int s, int first_line, sb_layout_cells *c)
{
    const sb_run *run = a->run;
    memset(c, 0, sizeof *c);
    const sb_result *r = &run->results[row->result[s]];
    if (first_line)
        variant_cell(f, r, c->cell[STACK_VARIANT], SB_LAYOUT_CELL);
    snprintf(c->cell[STACK_DEVICE], SB_LAYOUT_CELL, "%s", x->label[s]);
    snprintf(c->cell[STACK_MEDIAN], SB_LAYOUT_CELL, "%.4f", r->ms.median);
    snprintf(c->cell[STACK_VALUE], SB_LAYOUT_CELL, "%.2f", r->value);
    noise_cells(&a->noise, run, r, c->cell[STACK_SPREAD], c->cell[STACK_ROOF]);
    if (s == x->reference) {
        snprintf(c->cell[STACK_VERDICT], SB_LAYOUT_CELL, "(reference)");
        return;
    }
    const sb_verdict *v = &row->verdict[s];
    snprintf(c->cell[STACK_RATIO], SB_LAYOUT_CELL, "-");
    if (v->kind != SB_VERDICT_NONE)
        snprintf(c->cell[STACK_RATIO], SB_LAYOUT_CELL, "%.3f", v->speed_ratio);
    sb_verdict_text(v, x->label[x->reference], x->label[s], c->cell[STACK_VERDICT],
                    SB_LAYOUT_CELL);
    sb_verdict_interval_text(v, SB_INTERVAL_SPEED, c->cell[STACK_INTERVAL], SB_LAYOUT_CELL);
}

/* Stacked: a line per device under each variant, each against the
   reference, then the variant's notes, model and PTX comparisons. */
static void stacked_section(const sb_analysis *a, const sb_crossapi *x,
                            const sb_cross_experiment *e, int width, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    sb_layout l;
    sb_layout_cells cells;
    experiment_heading(f, width, out);
    sb_layout_init(&l, width);
    stacked_columns(&l, x, f->quantity);
    for (size_t j = 0; j < e->nrows; j++)
        for (int s = 0; s < x->ndevices; s++)
            if (x->rows[e->rows[j]].result[s] >= 0) {
                stacked_cells(a, x, f, &x->rows[e->rows[j]], s, 1, &cells);
                sb_layout_measure(&l, &cells);
            }
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &x->rows[e->rows[j]];
        const sb_result *any = &run->results[row->first];
        char details[1024], model[256];
        for (int s = 0, lines = 0; s < x->ndevices; s++) {
            if (row->result[s] < 0)
                continue;
            stacked_cells(a, x, f, row, s, lines++ == 0, &cells);
            sb_layout_row(&l, &cells, out);
            sb_layout_given_way(&l, &cells, details, sizeof details);
            under_row(details, "", width, out);
        }
        sb_result_notes(any, details, sizeof details);
        sb_result_model_text(any, model, sizeof model);
        under_row(details, model, width, out);
        for (int s = 0; s < x->ndevices; s++)
            if (s != x->reference && row->ptx[s][0])
                foldf(out, width, UNDER_ROW, UNDER_ROW_MORE, "PTX %s vs %s: %s", x->label[s],
                      x->label[x->reference], row->ptx[s]);
    }
    roof_legend(run, e, width, out);
}

/* What block e's numbers show, under its table. */
static void lessons_block(const sb_analysis *a, size_t e, int width, FILE *out)
{
    const sb_lessons *l = a->lessons ? &a->lessons[e] : NULL;
    for (int i = 0; l && i < l->n; i++)
        sb_layout_fold(out, width, "  Lesson: ", 4, l->text[i]);
}

sb_report_writer sb_report_table;

/* The revision and the CPU (with the system) in one folded line; none for
 * a saved run that predates them. */
static void provenance_line(const sb_run_provenance *p, int width, FILE *out)
{
    if (!p->revision[0] && !p->cpu[0])
        return;
    foldf(out, width, "", 2, "revision %s  cpu %s  %s %s %s", p->revision[0] ? p->revision : "?",
          p->cpu[0] ? p->cpu : "?", p->os, p->kernel, p->machine);
}

void sb_table_header(const sb_analysis *a, FILE *out)
{
    const sb_run *run = a->run;
    const sb_crossapi *x = &a->cross;
    const int width = sb_layout_width();
    foldf(out, width, "", 2, "simtbench %s  %s  %s", run->tool_version, run->date, run->host);
    provenance_line(&run->provenance, width, out);
    if (run->interrupted)
        sb_layout_fold(out, width, "", 2,
                       "interrupted: only the results that finished before the signal");
    sb_layout_fold(out, width, "", 2, "GB/s = 10^9 bytes/s of useful bytes read plus written "
                   "over the median device-event time");
    fputc('\n', out);
    device_section(run, x, width, out);
    if (sb_crossapi_side_by_side(x)) {
        const char *ref = x->label[x->reference];
        fputc('\n', out);
        if (x->ndevices > SIDE_BY_SIDE_MAX)
            foldf(out, width, "", 0, "Against %s: a line per device under each variant, its "
                  "median time in ms, spread, figure and roof%%; X/%s is the speed ratio (%s's "
                  "median time over X's; above 1, X is faster), with its 95%% interval.",
                  ref, ref, ref);
        else
            foldf(out, width, "", 0, "Side by side against %s: each device's median time in "
                  "ms, its spread, figure and roof%%; X/%s is the speed ratio (%s's median time "
                  "over X's; above 1, X is faster), with its 95%% interval on the line under "
                  "the row.", ref, ref, ref);
        sb_layout_fold(out, width, "", 0, SB_VERDICT_RULE);
    }
    sb_layout_fold(out, width, "", 0, SB_NOISE_RULE);
    sb_table_fleet_legend(a, width, out);
}

void sb_table_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_crossapi *x = &a->cross;
    const int width = sb_layout_width();
    if (e >= x->nexperiments)
        return;
    if (x->ndevices > SIDE_BY_SIDE_MAX)
        stacked_section(a, x, &x->experiments[e], width, out);
    else if (sb_crossapi_side_by_side(x))
        cross_section(a, x, &x->experiments[e], width, out);
    else
        experiment_section(a, &x->experiments[e], width, out);
    lessons_block(a, e, width, out);
    sb_table_fleet_block(a, e, width, out);
}

int sb_report_table(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    (void)err, (void)n; /* nothing a text format cannot hold */
    sb_table_header(a, out);
    for (size_t e = 0; e < a->cross.nexperiments; e++)
        sb_table_block(a, e, out);
    sb_table_footer(a, out);
    sb_summary_print_table(&a->summary, out);
    return ferror(out) ? -1 : 0;
}
