#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- sweeps */

/* A point of a plain stride sweep: one declared linear access with nothing
 * but a stride (no offset, permutation, grouping or tile walk), so that the
 * stride alone places it on the x axis. */
static int sweep_point(const sb_result *r, int space)
{
    const sb_pattern *p = &r->pattern[0];
    /* A figure that is not about memory (GFLOP/s) is not plotted against a
       stride even when its loads declare one. */
    if (r->quantity == SB_QUANTITY_FLOPS)
        return 0;
    if (space == SB_SPACE_GLOBAL && r->quantity != SB_QUANTITY_BANDWIDTH)
        return 0;
    return r->npatterns >= 1 && (int)p->space == space && p->walk == SB_WALK_NONE &&
           p->perm == SB_PERM_NONE && !p->spread && p->same <= 1 && p->offset == 0 &&
           p->stride > 0;
}

/* The sweep points of experiment `exp` in one space, grouped into series
 * (device slot, kernel, word size) and sorted by stride within each.  A
 * series is one kernel run at two or more strides: that, and not merely
 * points with different strides, is a sweep (a transpose's copy and naive
 * kernels declare different strides, but each kernel only one). */
typedef struct sweep {
    size_t n;
    size_t *idx;    /* result indices, series after series */
    int nseries;
    size_t start[64], count[64];
    int slot[64], word[64];
    const char *kernel[64];
    int nkernels;   /* distinct kernels among the series: named in titles when several */
} sweep;

static int in_series(const sb_result *r, const sweep *sw, int s)
{
    return r->device_slot == sw->slot[s] && r->pattern[0].word_bytes == sw->word[s] &&
           strcmp(r->kernel, sw->kernel[s]) == 0;
}

/* Every (slot, kernel, word) among the experiment's sweep points into
 * cand, with distinct[s] = 2 where that series has two or more strides. */
static int candidate_series(const sb_run *run, const sb_cross_experiment *e, int space,
                            sweep *cand, int distinct[64])
{
    long first_stride[64];
    int candidates = 0;
    memset(cand, 0, sizeof *cand);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        if (!sweep_point(r, space))
            continue;
        int s;
        for (s = 0; s < candidates && !in_series(r, cand, s); s++)
            ;
        if (s == candidates) {
            if (candidates == 64)
                continue;
            cand->slot[s] = r->device_slot;
            cand->word[s] = r->pattern[0].word_bytes;
            cand->kernel[s] = r->kernel;
            first_stride[s] = r->pattern[0].stride;
            distinct[s] = 1;
            candidates++;
        } else if (distinct[s] == 1 && r->pattern[0].stride != first_stride[s]) {
            distinct[s] = 2;
        }
    }
    return candidates;
}

/* A sweep point's place: its stride, then run order. */
typedef struct point {
    long stride;
    size_t i;
} point;

static int by_stride(const void *pa, const void *pb)
{
    const point *a = pa, *b = pb;
    if (a->stride != b->stride)
        return a->stride < b->stride ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Series s's points into sw->idx from `at`, by stride, equal strides in
 * run order; returns how many, or (size_t)-1 out of memory. */
static size_t fill_series(const sb_run *run, const sb_cross_experiment *e, int space, sweep *sw,
                          int s, size_t at)
{
    point *p = malloc((e->nresults + 1) * sizeof *p);
    if (!p)
        return (size_t)-1;
    size_t k = 0;
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        if (sweep_point(r, space) && in_series(r, sw, s))
            p[k++] = (point){r->pattern[0].stride, e->results[i]};
    }
    qsort(p, k, sizeof *p, by_stride);
    for (size_t j = 0; j < k; j++)
        sw->idx[at + j] = p[j].i;
    free(p);
    return k;
}

static int collect_sweep(const sb_run *run, const sb_cross_experiment *e, int space, sweep *sw)
{
    memset(sw, 0, sizeof *sw);
    sw->idx = malloc((e->nresults + 1) * sizeof *sw->idx);
    if (!sw->idx)
        return -1;
    int distinct[64];
    sweep cand; /* every (slot, kernel, word) seen, before the two-stride test */
    int candidates = candidate_series(run, e, space, &cand, distinct);
    for (int c = 0; c < candidates; c++) {
        if (distinct[c] < 2)
            continue;
        int s = sw->nseries++;
        sw->slot[s] = cand.slot[c];
        sw->word[s] = cand.word[c];
        sw->kernel[s] = cand.kernel[c];
        int seen = 0;
        for (int k = 0; k < s; k++)
            seen |= strcmp(sw->kernel[k], sw->kernel[s]) == 0;
        sw->nkernels += !seen;
    }
    size_t at = 0;
    for (int s = 0; s < sw->nseries; s++) {
        sw->start[s] = at;
        sw->count[s] = fill_series(run, e, space, sw, s, at);
        if (sw->count[s] == (size_t)-1) {
            free(sw->idx);
            sw->idx = NULL;
            return -1;
        }
        at += sw->count[s];
    }
    sw->n = at;
    return 0;
}

/* The series name, its label then its word size, with the kernel when the
 * sweep has several. */
static void series_name(const sb_run *run, const sweep *sw, int s, char *buf, size_t n)
{
    char label[SB_SLOT_LABEL];
    sb_slot_label(run, sw->slot[s], label, sizeof label);
    if (sw->nkernels > 1)
        snprintf(buf, n, "%s, %s, %d-byte words", label, sw->kernel[s], sw->word[s]);
    else
        snprintf(buf, n, "%s, %d-byte words", label, sw->word[s]);
}

/* A series' look, the same in every sweep plot: its colour from its word
 * size (a model drawn in it too), its point shape from its kernel, filled
 * on the first device and hollow on the others. */
static const char *word_colour(int word)
{
    switch (word) {
    case 1: return "#9467bd";
    case 2: return "#ff7f0e";
    case 4: return "#1f77b4";
    case 8: return "#d62728";
    case 16: return "#2ca02c";
    case 32: return "#8c564b";
    default: return "#7f7f7f";
    }
}

static void series_style(const sweep *sw, int s, cmd_buf *cmd)
{
    static const int hollow[] = {6, 4, 8, 12, 10, 14}; /* circle, square, triangles, diamond */
    int f = 0; /* the first series of this kernel; the shape counts the kernels before it */
    while (strcmp(sw->kernel[f], sw->kernel[s]) != 0)
        f++;
    int kernel = 0;
    for (int k = 0; k < f; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(sw->kernel[j], sw->kernel[k]) != 0;
        kernel += first;
    }
    int pt = hollow[kernel % 6] + (sw->slot[s] == 0);
    sb_plot_cmd_add(cmd, " lw 2 pt %d ps 1.4 lc rgb '%s'", pt, word_colour(sw->word[s]));
}

/* The share of the moved bytes a variant uses, over the global accesses it
 * is about: each moves an equal share of the useful bytes (a strided load
 * and the dense store beside it), so the time is the sum of each side's
 * bytes over its efficiency: n / sum(1 / efficiency). */
static double traffic_efficiency(const sb_result *r)
{
    double inv = 0.0;
    int n = 0;
    for (int i = 0; i < r->npatterns && i < SB_MAX_PATTERNS && !r->pattern_extra[i]; i++)
        if (r->pattern[i].space == SB_SPACE_GLOBAL && r->prediction[i].efficiency > 0) {
            inv += 1.0 / r->prediction[i].efficiency;
            n++;
        }
    return n ? n / inv : 0.0;
}

/* One bandwidth series: its block of data, its curve and its model's: the
 * model's efficiency scaled to the series' smallest stride, so that the
 * two meet there and the shape is what is compared. */
static void bandwidth_series(const plot_ctx *c, const sweep *sw, int s, plot_files *pf,
                             cmd_buf *cmd)
{
    const sb_run *run = c->run;
    const sb_result *first = &run->results[sw->idx[sw->start[s]]];
    double eff0 = traffic_efficiency(first);
    double scale = eff0 > 0 ? first->value / eff0 : 0.0;
    char series[128];
    series_name(run, sw, s, series, sizeof series);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s (model: efficiency x %.1f %s, the bandwidth at stride %ld over "
                     "its efficiency; copy roof %.1f)\n",
            s ? "\n\n" : "", sb_plot_dat_text(series, text, sizeof text), scale,
            sb_quantity_unit(first->quantity), first->pattern[0].stride,
            sb_plot_device_roof(run, sw->slot[s]));
    for (size_t k = 0; k < sw->count[s]; k++) {
        const sb_result *r = &run->results[sw->idx[sw->start[s] + k]];
        fprintf(pf->dat, "%ld %.6g %.6g %.6g\n", r->pattern[0].stride, r->value,
                scale * traffic_efficiency(r), traffic_efficiency(r));
    }
    char model[192];
    snprintf(model, sizeof model, "model, %s", series);
    /* A series and its model share a colour, so each curve has its prediction. */
    sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with linespoints", s ? "," : "", pf->data, s);
    series_style(sw, s, cmd);
    sb_plot_cmd_title(cmd, series);
    sb_plot_cmd_add(cmd, ", %s index %d using 1:3 with lines dt 2 lw 1.5 lc rgb '%s'", pf->data, s,
            word_colour(sw->word[s]));
    sb_plot_cmd_title(cmd, model);
}

static int bandwidth_plot(const plot_ctx *c, const char *exp, const sweep *sw)
{
    char name[80], title[160];
    sb_plot_stem(exp, "bandwidth", name, sizeof name);
    snprintf(title, sizeof title, "%s: bandwidth against stride; dashed: the model's sector "
                                  "efficiency x the smallest stride's bandwidth",
             exp);
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 620 + 12 * sw->nseries;
    sb_plot_script_head(&pf, title);
    const sb_result *r0 = &c->run->results[sw->idx[0]];
    fprintf(pf.gp, "set logscale x 2\nset xlabel 'stride (words between neighbouring lanes)'\n"
                   "set ylabel 'effective bandwidth (%s)'\nset yrange [0:*]\n"
                   "set key below maxcols 2\n",
            sb_quantity_unit(r0->quantity));
    fputs("# columns: stride, measured, model (used/moved bytes over every declared "
          "global access, x the smallest stride's bandwidth over its share), that share\n",
          pf.dat);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < sw->nseries; s++)
        bandwidth_series(c, sw, s, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, exp, title, c);
}

/* Time per access of a result: what a conflict multiplies. */
static double access_cost(const sb_result *r)
{
    return r->accesses > 0 ? r->ms.median / r->accesses : r->ms.median;
}

/* The predicted wavefronts over the conflict-free ones: the ways. */
static double predicted_ways(const sb_prediction *p)
{
    return p->ideal_wavefronts > 0 ? (double)p->wavefronts / p->ideal_wavefronts : 1.0;
}

/* One conflict series: its block of data, relative to its smallest stride;
 * a ratio that is not known is '?', which a log axis can skip. */
static void conflict_series(const plot_ctx *c, const sweep *sw, int s, plot_files *pf,
                            cmd_buf *cmd)
{
    const sb_run *run = c->run;
    const sb_result *first = &run->results[sw->idx[sw->start[s]]];
    double cost0 = access_cost(first);
    double pred0 = predicted_ways(&first->prediction[0]);
    char series[128];
    series_name(run, sw, s, series, sizeof series);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s\n", s ? "\n\n" : "", sb_plot_dat_text(series, text, sizeof text));
    for (size_t k = 0; k < sw->count[s]; k++) {
        const sb_result *r = &run->results[sw->idx[sw->start[s] + k]];
        const sb_prediction *p = &r->prediction[0];
        double measured = cost0 > 0 ? access_cost(r) / cost0 : 0.0;
        double model = pred0 > 0 ? predicted_ways(p) / pred0 : 0.0;
        fprintf(pf->dat, "%ld ", r->pattern[0].stride);
        fprintf(pf->dat, measured > 0 ? "%.6g " : "? ", measured);
        fprintf(pf->dat, model > 0 ? "%.6g " : "? ", model);
        fprintf(pf->dat, "%d %d\n", p->ways, p->wavefronts);
    }
    sb_plot_cmd_add(cmd, ", %s index %d using 1:2 with linespoints", pf->data, s);
    series_style(sw, s, cmd);
    sb_plot_cmd_title(cmd, series);
}

/* The model's step once per word size (it does not depend on the device),
 * dashed in that word size's colour, under the measured curves; the widest
 * first, so that steps that coincide still show each colour. */
static void conflict_models(const sweep *sw, plot_files *pf, cmd_buf *cmd)
{
    int first[64], nwords = 0;
    for (int s = 0; s < sw->nseries; s++) {
        int seen = 0;
        for (int m = 0; m < nwords; m++)
            seen |= sw->word[first[m]] == sw->word[s];
        if (!seen)
            first[nwords++] = s;
    }
    for (int m = 0; m < nwords; m++) {
        int s = first[m];
        char model[96];
        snprintf(model, sizeof model, "model: wavefront ratio, %d-byte words", sw->word[s]);
        sb_plot_cmd_add(cmd, "%s %s index %d using 1:3 with steps dt 2 lw %.1f lc rgb '%s'",
                m ? "," : "", pf->data, s, 1.5 + 1.5 * (nwords - 1 - m),
                word_colour(sw->word[s]));
        sb_plot_cmd_title(cmd, model);
    }
}

static int conflict_plot(const plot_ctx *c, const char *exp, const sweep *sw)
{
    char name[80], title[200];
    sb_plot_stem(exp, "conflicts", name, sizeof name);
    snprintf(title, sizeof title, "%s: shared-memory slowdown against stride; dashed steps: the "
                                  "bank model's wavefront ratio",
             exp);
    plot_files pf;
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 620 + 12 * sw->nseries;
    sb_plot_script_head(&pf, title);
    fputs("set logscale xy 2\nset xlabel 'stride (words between neighbouring lanes)'\n"
          "set ylabel 'slowdown (x): time per access / time at the smallest stride'\n"
          "set key below maxcols 2\n",
          pf.gp);
    fputs("# columns: stride, measured slowdown, predicted slowdown (wavefronts / ideal, "
          "relative), ways, wavefronts\n",
          pf.dat);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    conflict_models(sw, &pf, cmd);
    for (int s = 0; s < sw->nseries; s++)
        conflict_series(c, sw, s, &pf, cmd);
    return sb_plot_finish_plot(&pf, cmd, exp, title, c);
}

/* A sweep per memory space that has one: bandwidth for global memory,
 * conflicts for shared. */
int sb_plot_sweeps(const plot_ctx *c, int *plotted)
{
    const char *exp = c->run->results[c->e->first].experiment;
    int rc = 0;
    for (int space = SB_SPACE_GLOBAL; space <= SB_SPACE_SHARED && rc == 0; space++) {
        sweep sw;
        if (collect_sweep(c->run, c->e, space, &sw)) {
            snprintf(c->err, c->errn, "out of host memory");
            return -1;
        }
        if (sw.nseries > 0) {
            rc = space == SB_SPACE_GLOBAL ? bandwidth_plot(c, exp, &sw)
                                          : conflict_plot(c, exp, &sw);
            *plotted = 1;
        }
        free(sw.idx);
    }
    return rc;
}
