#include "config.h"

#include "report/plot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dram.h"
#include "file_name.h"
#include "report/describe.h"
#include "report/gnuplot_text.h"
#include "report/output_file.h"

/* ---------------------------------------------------------------- helpers */

/* A file stem from an experiment name: nothing a shell or gnuplot would
 * read specially (file_name.h). */
static void stem(const char *experiment, const char *kind, char *buf, size_t n)
{
    const char *const parts[] = {experiment, kind};
    sb_file_name(buf, n, '-', parts, 2, "experiment");
}

/* s in a script, in gnuplot's single quotes (gnuplot_text.h). */
static void gp_string(FILE *f, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    fputs(sb_gp_quote(s, '\'', q, sizeof q), f);
}

/* s as a string column of a data file, in double quotes. */
static void dat_string(FILE *f, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    fputs(sb_gp_quote(s, '"', q, sizeof q), f);
}

/* s in a data file's comment, one line: the bare text. */
static const char *dat_text(const char *s, char *buf, size_t n)
{
    return sb_gp_quote(s, 0, buf, n);
}

/* "set WHAT 'TEXT'", TEXT quoted; for text made from a run's strings. */
static void gp_set(FILE *f, const char *what, const char *text)
{
    fprintf(f, "set %s ", what);
    gp_string(f, text);
    fputc('\n', f);
}

/* A file name in a script, quoted: "NAME.EXT". */
static void gp_file(FILE *f, const char *name, const char *ext)
{
    char file[96];
    snprintf(file, sizeof file, "%s.%s", name, ext);
    gp_string(f, file);
}

static int make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* A plot's data and script, each written beside its file and renamed over
 * it when complete (output_file.h). */
typedef struct plot_files {
    sb_output_file dat_file, gp_file;
    FILE *dat, *gp; /* where to write: the two files' streams */
    char name[80];
    char data[96]; /* 'NAME.dat', quoted for a plot command */
    int width; /* pixels; bars widen it so that every label stays readable */
    int height; /* pixels; sweeps heighten it for a key of many series */
} plot_files;

static int open_plot(const char *dir, const char *name, plot_files *pf, char *err, size_t n)
{
    char path[4096];
    snprintf(pf->name, sizeof pf->name, "%s", name);
    snprintf(path, sizeof path, "%s.dat", name);
    sb_gp_quote(path, '\'', pf->data, sizeof pf->data);
    pf->width = 1100;
    pf->height = 620;
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    if (sb_output_open(&pf->dat_file, path, err, n))
        return -1;
    snprintf(path, sizeof path, "%s/%s.gp", dir, name);
    if (sb_output_open(&pf->gp_file, path, err, n)) {
        sb_output_abort(&pf->dat_file);
        return -1;
    }
    pf->dat = pf->dat_file.f;
    pf->gp = pf->gp_file.f;
    return 0;
}

/* Give a plot up: neither file is replaced. */
static void abandon_plot(plot_files *pf)
{
    sb_output_abort(&pf->dat_file);
    sb_output_abort(&pf->gp_file);
}

/* The script's head: what it is, how to run it, and the shared settings. */
static void script_head(plot_files *pf, const char *title)
{
    char text[SB_GP_QUOTED_MAX];
    fputs("# simtbench plot: ", pf->gp);
    gp_string(pf->gp, title);
    /* The name is a stem (stem()): letters, digits, '-' and '_' alone. */
    fprintf(pf->gp, "\n# Render from this directory: gnuplot %s.gp (writes %s.png and %s.svg)\n",
            pf->name, pf->name, pf->name);
    /* No encoding: the text is ASCII (gnuplot_text.h), and `set encoding
       utf8` warns in a locale without UTF-8. */
    fputs("set datafile missing '?'\nset termoption noenhanced\n", pf->gp);
    fputs("set title ", pf->gp);
    gp_string(pf->gp, title);
    fputs("\nset key below\nset grid\n", pf->gp);
    fprintf(pf->dat, "# simtbench plot data: %s\n", dat_text(title, text, sizeof text));
}

/* Two outputs from one plot command, PNG (cairo when built in) and SVG. */
static void script_outputs(plot_files *pf, const char *plot_command)
{
    fprintf(pf->gp,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "    set terminal pngcairo size %d,%d noenhanced\n"
            "} else {\n"
            "    set terminal png size %d,%d noenhanced\n"
            "}\n"
            "set output ",
            pf->width, pf->height, pf->width, pf->height);
    gp_file(pf->gp, pf->name, "png");
    fprintf(pf->gp, "\n%s\nset terminal svg size %d,%d noenhanced background rgb 'white'\n"
                    "set output ",
            plot_command, pf->width, pf->height);
    gp_file(pf->gp, pf->name, "svg");
    fprintf(pf->gp, "\n%s\nunset output\n", plot_command);
}

/* Both files complete: each renamed over its target. */
static int close_plot(plot_files *pf, char *err, size_t n)
{
    if (sb_output_commit(&pf->dat_file, err, n)) {
        sb_output_abort(&pf->gp_file);
        return -1;
    }
    return sb_output_commit(&pf->gp_file, err, n);
}

static void list_add(sb_plot_list *list, const char *exp, const char *name, const char *title)
{
    if (list->n >= SB_PLOT_MAX)
        return;
    snprintf(list->experiment[list->n], sizeof list->experiment[0], "%s", exp);
    snprintf(list->name[list->n], sizeof list->name[0], "%s", name);
    snprintf(list->title[list->n], sizeof list->title[0], "%s", title);
    list->n++;
}

/* A growing string for a plot command; `failed` once out of memory. */
typedef struct cmd_buf {
    char *text;
    size_t used, size;
    int failed;
} cmd_buf;

static void cmd_add(cmd_buf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cmd_add(cmd_buf *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = c->failed ? -1 : vsnprintf(c->text + c->used, c->size - c->used, fmt, ap);
    va_end(ap);
    if (len < 0)
        return;
    if ((size_t)len >= c->size - c->used) {
        size_t size = 2 * (c->size + (size_t)len);
        char *more = realloc(c->text, size);
        if (!more) {
            c->failed = 1;
            c->text[c->used] = '\0';
            return;
        }
        c->text = more;
        c->size = size;
        va_start(ap, fmt);
        vsnprintf(c->text + c->used, c->size - c->used, fmt, ap);
        va_end(ap);
    }
    c->used += (size_t)len;
}

/* A title inside a plot command, in gnuplot's quoting. */
static void cmd_title(cmd_buf *c, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    cmd_add(c, " title %s", sb_gp_quote(s, '\'', q, sizeof q));
}

/* What every plot of one --plot needs: the run and its pairing, where the
 * files go, the list they join, and where an error is said. */
typedef struct plot_ctx {
    const sb_run *run;
    const sb_crossapi *x;
    const sb_cross_experiment *e; /* the experiment being plotted */
    const sb_memory_levels *memory; /* per device slot (analysis.h) */
    const char *dir;
    sb_plot_list *list;
    char *err;
    size_t errn;
} plot_ctx;

/* The copy roof device slot measured in this run; 0 when it measured none. */
static double device_roof(const sb_run *run, int slot)
{
    return sb_device_copy_roof(&run->devices[slot]);
}

/* A plot command to build, starting "plot"; on failure the plot's files
 * are closed and err says why. */
static cmd_buf *new_command(plot_files *pf, const plot_ctx *c)
{
    cmd_buf *cmd = calloc(1, sizeof *cmd);
    if (cmd && !(cmd->text = malloc(cmd->size = 4096))) {
        free(cmd);
        cmd = NULL;
    }
    if (!cmd) {
        abandon_plot(pf);
        snprintf(c->err, c->errn, "out of host memory");
        return NULL;
    }
    cmd_add(cmd, "plot");
    return cmd;
}

/* The end of every plot: the outputs, the list entry, the files closed. */
static int finish_plot(plot_files *pf, cmd_buf *cmd, const char *exp, const char *title,
                       const plot_ctx *c)
{
    int failed = cmd->failed;
    if (!failed)
        script_outputs(pf, cmd->text);
    free(cmd->text);
    free(cmd);
    if (failed) {
        abandon_plot(pf);
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    list_add(c->list, exp, pf->name, title);
    return close_plot(pf, c->err, c->errn);
}

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
    cmd_add(cmd, " lw 2 pt %d ps 1.4 lc rgb '%s'", pt, word_colour(sw->word[s]));
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
            s ? "\n\n" : "", dat_text(series, text, sizeof text), scale,
            sb_quantity_unit(first->quantity), first->pattern[0].stride,
            device_roof(run, sw->slot[s]));
    for (size_t k = 0; k < sw->count[s]; k++) {
        const sb_result *r = &run->results[sw->idx[sw->start[s] + k]];
        fprintf(pf->dat, "%ld %.6g %.6g %.6g\n", r->pattern[0].stride, r->value,
                scale * traffic_efficiency(r), traffic_efficiency(r));
    }
    char model[192];
    snprintf(model, sizeof model, "model, %s", series);
    /* A series and its model share a colour, so each curve has its prediction. */
    cmd_add(cmd, "%s %s index %d using 1:2 with linespoints", s ? "," : "", pf->data, s);
    series_style(sw, s, cmd);
    cmd_title(cmd, series);
    cmd_add(cmd, ", %s index %d using 1:3 with lines dt 2 lw 1.5 lc rgb '%s'", pf->data, s,
            word_colour(sw->word[s]));
    cmd_title(cmd, model);
}

static int bandwidth_plot(const plot_ctx *c, const char *exp, const sweep *sw)
{
    char name[80], title[160];
    stem(exp, "bandwidth", name, sizeof name);
    snprintf(title, sizeof title, "%s: bandwidth against stride; dashed: the model's sector "
                                  "efficiency x the smallest stride's bandwidth",
             exp);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 620 + 12 * sw->nseries;
    script_head(&pf, title);
    const sb_result *r0 = &c->run->results[sw->idx[0]];
    fprintf(pf.gp, "set logscale x 2\nset xlabel 'stride (words between neighbouring lanes)'\n"
                   "set ylabel 'effective bandwidth (%s)'\nset yrange [0:*]\n"
                   "set key below maxcols 2\n",
            sb_quantity_unit(r0->quantity));
    fputs("# columns: stride, measured, model (used/moved bytes over every declared "
          "global access, x the smallest stride's bandwidth over its share), that share\n",
          pf.dat);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < sw->nseries; s++)
        bandwidth_series(c, sw, s, &pf, cmd);
    return finish_plot(&pf, cmd, exp, title, c);
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
    fprintf(pf->dat, "%s# %s\n", s ? "\n\n" : "", dat_text(series, text, sizeof text));
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
    cmd_add(cmd, ", %s index %d using 1:2 with linespoints", pf->data, s);
    series_style(sw, s, cmd);
    cmd_title(cmd, series);
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
        cmd_add(cmd, "%s %s index %d using 1:3 with steps dt 2 lw %.1f lc rgb '%s'",
                m ? "," : "", pf->data, s, 1.5 + 1.5 * (nwords - 1 - m),
                word_colour(sw->word[s]));
        cmd_title(cmd, model);
    }
}

static int conflict_plot(const plot_ctx *c, const char *exp, const sweep *sw)
{
    char name[80], title[200];
    stem(exp, "conflicts", name, sizeof name);
    snprintf(title, sizeof title, "%s: shared-memory slowdown against stride; dashed steps: the "
                                  "bank model's wavefront ratio",
             exp);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 620 + 12 * sw->nseries;
    script_head(&pf, title);
    fputs("set logscale xy 2\nset xlabel 'stride (words between neighbouring lanes)'\n"
          "set ylabel 'slowdown (x): time per access / time at the smallest stride'\n"
          "set key below maxcols 2\n",
          pf.gp);
    fputs("# columns: stride, measured slowdown, predicted slowdown (wavefronts / ideal, "
          "relative), ways, wavefronts\n",
          pf.dat);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    conflict_models(sw, &pf, cmd);
    for (int s = 0; s < sw->nseries; s++)
        conflict_series(c, sw, s, &pf, cmd);
    return finish_plot(&pf, cmd, exp, title, c);
}

/* ---------------------------------------------------------------- paths */

/* The family figure called name of a result (result.h); 0 where none. */
static double figure_value(const sb_result *r, const char *name)
{
    for (int i = 0; i < r->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(r->figure[i].name, name) == 0)
            return r->figure[i].value;
    return 0.0;
}

/* A point of a paths sweep: a row whose model says how many paths its
 * threads are split into (split_paths), with a slowdown against its
 * group's base. */
static int paths_point(const sb_result *r)
{
    return figure_value(r, "split_paths") > 0 && r->slowdown > 0;
}

/* The paths sweep of an experiment: one series per (device slot, kernel)
 * with two or more points, each series' result indices by paths. */
typedef struct paths_sweep {
    int nseries;
    int slot[16];
    const char *kernel[16];
    int shape[16]; /* the series' kernel among the sweep's, in order of first sight */
    size_t count[16];
    size_t idx[16][64];
} paths_sweep;

/* Series s's points by paths, equal paths in run order (few: an insertion sort). */
static void sort_by_paths(const sb_run *run, size_t *idx, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t v = idx[i], j = i;
        double x = figure_value(&run->results[v], "split_paths");
        for (; j > 0 && figure_value(&run->results[idx[j - 1]], "split_paths") > x; j--)
            idx[j] = idx[j - 1];
        idx[j] = v;
    }
}

static void collect_paths(const sb_run *run, const sb_cross_experiment *e, paths_sweep *pw)
{
    paths_sweep all;
    memset(&all, 0, sizeof all);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        if (!paths_point(r))
            continue;
        int s = 0;
        while (s < all.nseries &&
               (all.slot[s] != r->device_slot || strcmp(all.kernel[s], r->kernel) != 0))
            s++;
        if (s == all.nseries) {
            if (s == 16)
                continue;
            all.slot[s] = r->device_slot;
            all.kernel[s] = r->kernel;
            all.nseries++;
        }
        if (all.count[s] < 64)
            all.idx[s][all.count[s]++] = e->results[i];
    }
    memset(pw, 0, sizeof *pw);
    int nkernels = 0;
    const char *kernels[16];
    for (int s = 0; s < all.nseries; s++) {
        if (all.count[s] < 2)
            continue;
        int t = pw->nseries++;
        pw->slot[t] = all.slot[s];
        pw->kernel[t] = all.kernel[s];
        pw->count[t] = all.count[s];
        memcpy(pw->idx[t], all.idx[s], all.count[s] * sizeof all.idx[s][0]);
        sort_by_paths(run, pw->idx[t], pw->count[t]);
        int k = 0;
        while (k < nkernels && strcmp(kernels[k], pw->kernel[t]) != 0)
            k++;
        if (k == nkernels)
            kernels[nkernels++] = pw->kernel[t];
        pw->shape[t] = k;
    }
}

/* A device's colour in the paths plot, its model dashed in the same. */
static const char *slot_colour(int slot)
{
    static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                          "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"};
    return colours[slot % 8];
}

/* Series s's block of data and its curves: the measured slowdown with
 * points (filled for the first kernel, hollow shapes for the others), and
 * where the device has a warp the model's predicted slowdown dashed in
 * the same colour, the first device's widest so that coinciding models
 * still show each colour. */
static void paths_series(const plot_ctx *c, const paths_sweep *pw, int s, plot_files *pf,
                         cmd_buf *cmd)
{
    static const int shapes[] = {7, 4, 8, 12, 10, 14};
    char label[24], series[128];
    sb_slot_label(c->run, pw->slot[s], label, sizeof label);
    snprintf(series, sizeof series, "%s, %s", label, pw->kernel[s]);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s\n", s ? "\n\n" : "", dat_text(series, text, sizeof text));
    int modelled = 0;
    for (size_t j = 0; j < pw->count[s]; j++) {
        const sb_result *r = &c->run->results[pw->idx[s][j]];
        double model = figure_value(r, "predicted_slowdown");
        double per_warp = figure_value(r, "paths_per_warp");
        fprintf(pf->dat, "%.6g %.6g ", figure_value(r, "split_paths"), r->slowdown);
        fprintf(pf->dat, model > 0 ? "%.6g " : "? ", model);
        fprintf(pf->dat, per_warp > 0 ? "%.6g\n" : "?\n", per_warp);
        modelled |= model > 0;
    }
    const char *colour = slot_colour(pw->slot[s]);
    cmd_add(cmd, "%s %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.4 lc rgb '%s'",
            s ? "," : "", pf->data, s, shapes[pw->shape[s] % 6], colour);
    cmd_title(cmd, series);
    if (modelled) {
        char model[160];
        snprintf(model, sizeof model, "model, %s", series);
        cmd_add(cmd, ", %s index %d using 1:3 with lines dt 2 lw %.1f lc rgb '%s'",
                pf->data, s, pw->slot[s] == 0 ? 4.0 : 2.0, colour);
        cmd_title(cmd, model);
    }
}

static int paths_plot(const plot_ctx *c, const char *exp, const paths_sweep *pw)
{
    char name[80], title[200];
    stem(exp, "paths", name, sizeof name);
    snprintf(title, sizeof title, "%s: slowdown against the paths k the threads are split "
                                  "into; dashed: the divergence model's prediction",
             exp);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.height = 620 + 12 * pw->nseries;
    script_head(&pf, title);
    fputs("set logscale xy 2\n"
          "set xlabel 'k: paths the threads are split into (lane % k: k paths per warp)'\n"
          "set ylabel 'slowdown (x): median time / the one-path base row median time'\n"
          "set key below maxcols 2\nset offsets 0, 0, graph 0.05, graph 0.05\n",
          pf.gp);
    fputs("# columns: paths k, measured slowdown, the model's predicted slowdown ('?': no "
          "warp, no prediction), the model's paths per warp\n",
          pf.dat);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < pw->nseries; s++)
        paths_series(c, pw, s, &pf, cmd);
    return finish_plot(&pf, cmd, exp, title, c);
}

/* ---------------------------------------------------------------- roofline */

/* The number a variant has in the roofline's key: its place among the
 * experiment's distinct variants with an intensity, from 1; 0 for none. */
static int variant_number(const plot_ctx *c, const char *variant)
{
    int number = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        if (!(r->intensity > 0))
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const sb_result *q = &c->run->results[c->e->results[j]];
            seen = q->intensity > 0 && strcmp(q->variant, r->variant) == 0;
        }
        if (seen)
            continue;
        number++;
        if (strcmp(r->variant, variant) == 0)
            return number;
    }
    return 0;
}

/* Whether "3,4,10" holds the number already. */
static int lists_number(const char *text, int number)
{
    for (const char *p = text; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (atoi(p) == number)
            return 1;
    }
    return 0;
}

/* Each point of every device numbered by its variant; points that
 * (nearly) coincide share one label, "3,4,10", a number once, so that no
 * two labels overlap; of the labels at one intensity, every other one is
 * put on the left of its point.  Returns how many variants there are. */
static int roofline_numbers(const plot_ctx *c, plot_files *pf)
{
    enum { MAXG = 128 };
    double gx[MAXG], gy[MAXG];
    char text[MAXG][48];
    int ngroups = 0, nvariants = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        int number = r->intensity > 0 && r->value > 0 ? variant_number(c, r->variant) : 0;
        if (!number)
            continue;
        nvariants = number > nvariants ? number : nvariants;
        int g = 0; /* the same intensity and within a quarter in GFLOP/s: one place */
        while (g < ngroups && !(gx[g] == r->intensity && r->value < gy[g] * 1.25 &&
                                r->value * 1.25 > gy[g]))
            g++;
        if (g == ngroups && ngroups < MAXG) {
            gx[g] = r->intensity;
            gy[g] = r->value;
            text[g][0] = '\0';
            ngroups++;
        }
        if (g < ngroups && !lists_number(text[g], number)) {
            size_t len = strlen(text[g]);
            snprintf(text[g] + len, sizeof text[g] - len, "%s%d", len ? "," : "", number);
        }
    }
    for (int g = 0; g < ngroups; g++) {
        int before = 0; /* labels at the same intensity, lower down */
        for (int h = 0; h < ngroups; h++)
            before += h != g && gx[h] == gx[g] && gy[h] < gy[g];
        fputs("set label ", pf->gp);
        gp_string(pf->gp, text[g]);
        fprintf(pf->gp, " at %.6g,%.6g offset char %s,0.6 %s front\n", gx[g], gy[g],
                before % 2 ? "-0.8" : "0.8", before % 2 ? "right" : "left");
    }
    return nvariants;
}

/* The key to the numbers (number, variant, intensity) as a text block
 * right of the graph, where names at the points overlapped. */
static void roofline_key(const plot_ctx *c, plot_files *pf)
{
    int nvariants = roofline_numbers(c, pf);
    double dy = nvariants > 0 && 0.8 / nvariants < 0.04 ? 0.8 / nvariants : 0.04;
    fputs("set rmargin at screen 0.74\nset label 'key: number, variant (FLOP/byte)' at screen "
          "0.76, screen 0.92 left\n",
          pf->gp);
    for (int k = 1; k <= nvariants; k++)
        for (size_t i = 0; i < c->e->nresults; i++) {
            const sb_result *r = &c->run->results[c->e->results[i]];
            if (!(r->intensity > 0) || variant_number(c, r->variant) != k)
                continue;
            char line[128];
            snprintf(line, sizeof line, "%2d  %s (%.3g)", k, r->variant, r->intensity);
            fprintf(pf->gp, "set label at screen 0.77, screen %.4f left ", 0.92 - dy * k);
            gp_string(pf->gp, line);
            fputc('\n', pf->gp);
            break;
        }
}

/* Each device's variants as points, one block per device that has any;
 * returns the number of blocks written. */
static int roofline_points(const plot_ctx *c, plot_files *pf, cmd_buf *cmd)
{
    const sb_run *run = c->run;
    int block = 0;
    for (int s = 0; s < run->ndevices; s++) {
        char label[SB_SLOT_LABEL];
        sb_slot_label(run, s, label, sizeof label);
        int any = 0;
        for (size_t i = 0; i < c->e->nresults; i++) {
            const sb_result *r = &run->results[c->e->results[i]];
            if (!(r->intensity > 0) || r->device_slot != s)
                continue;
            char text[SB_GP_QUOTED_MAX];
            if (!any++)
                fprintf(pf->dat, "%s# %s\n", block ? "\n\n" : "",
                        dat_text(label, text, sizeof text));
            fprintf(pf->dat, "%.6g %.6g %d ", r->intensity, r->value,
                    variant_number(c, r->variant));
            dat_string(pf->dat, r->variant);
            fputc('\n', pf->dat);
        }
        if (!any)
            continue;
        cmd_add(cmd, "%s %s index %d using 1:2 with points pt %d ps 1.5 lc %d",
                block ? "," : "", pf->data, block, block ? 6 : 7, s + 1);
        cmd_title(cmd, label);
        block++;
    }
    return block;
}

/* Whether device slot s has a point in the roofline. */
static int roofline_measured(const plot_ctx *c, int s)
{
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        if (r->intensity > 0 && r->device_slot == s)
            return 1;
    }
    return 0;
}

/* One roof line as a block of two points and its curve in the command. */
static void roof_line(plot_files *pf, cmd_buf *cmd, int block, const char *title, double x0,
                      double y0, double x1, double y1, const char *style)
{
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "\n\n# %s\n%.6g %.6g\n%.6g %.6g\n", dat_text(title, text, sizeof text), x0,
            y0, x1, y1);
    cmd_add(cmd, ", %s index %d using 1:2 with lines %s", pf->data, block, style);
    cmd_title(cmd, title);
}

/* The measured devices without a compute roof, each with its
 * architecture, into `missing` ("" when every one has one). */
static void roofline_missing(const plot_ctx *c, char *missing, size_t n)
{
    size_t used = 0;
    missing[0] = '\0';
    for (int s = 0; s < c->run->ndevices && used < n; s++) {
        const sb_device_info *info = &c->run->devices[s].info;
        if (!roofline_measured(c, s) || sb_device_fp32_peak_gflops(info) > 0)
            continue;
        char label[SB_SLOT_LABEL];
        sb_slot_label(c->run, s, label, sizeof label);
        used += (size_t)snprintf(missing + used, n - used, "%s%s (%s)", used ? ", " : "", label,
                                 *info->arch ? info->arch : "architecture not given");
    }
}

/* Each measured device's memory roof (copy roof x intensity) and compute
 * roof (its FP32 peak) over the intensities lo..hi, as blocks from `block`
 * on. */
static void roofline_roofs(const plot_ctx *c, double lo, double hi, int block, plot_files *pf,
                           cmd_buf *cmd)
{
    const sb_run *run = c->run;
    for (int s = 0; s < run->ndevices; s++) {
        if (!roofline_measured(c, s))
            continue;
        char label[SB_SLOT_LABEL], title[160], style[48];
        sb_slot_label(run, s, label, sizeof label);
        double roof = device_roof(run, s);
        if (roof > 0) {
            snprintf(title, sizeof title, "%s memory roof: %.0f GB/s x intensity", label, roof);
            snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
            roof_line(pf, cmd, block++, title, lo / 2, roof * lo / 2, hi * 2, roof * hi * 2,
                      style);
        }
        const sb_device_info *info = &run->devices[s].info;
        double peak = sb_device_fp32_peak_gflops(info);
        if (peak > 0) {
            snprintf(title, sizeof title, "%s compute roof: FP32 peak %.0f GFLOP/s (%d units x "
                                          "%d MHz x %d lanes x 2)",
                     label, peak, info->compute_units, info->clock_mhz,
                     sb_arch_fp32_lanes(info->arch));
            snprintf(style, sizeof style, "dt 4 lw 2 lc %d", s + 1);
            roof_line(pf, cmd, block++, title, lo / 2, peak, hi * 2, peak, style);
        }
        double fma = run->devices[s].fma_gflops;
        if (fma > 0) {
            snprintf(title, sizeof title, "%s FMA peak measured: %.0f GFLOP/s (the compute "
                                          "family's fma_chains8)", label, fma);
            snprintf(style, sizeof style, "dt 3 lw 2 lc %d", s + 1);
            roof_line(pf, cmd, block++, title, lo / 2, fma, hi * 2, fma, style);
        }
    }
}

static int roofline_plot(const plot_ctx *c, const char *exp)
{
    char name[80], title[160], missing[160];
    stem(exp, "roofline", name, sizeof name);
    double lo = 0, hi = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        if (!(r->intensity > 0))
            continue;
        lo = lo > 0 && lo < r->intensity ? lo : r->intensity;
        hi = hi > r->intensity ? hi : r->intensity;
    }
    roofline_missing(c, missing, sizeof missing);
    snprintf(title, sizeof title, "%s: GFLOP/s against arithmetic intensity, under the "
                                  "memory and FP32 compute roofs",
             exp);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1400;
    script_head(&pf, title);
    /* The key below, two lines clear of the x label: a key of one row
       (one device) otherwise touches it. */
    fputs("set logscale xy 2\nset xlabel 'arithmetic intensity (FLOP per byte of DRAM traffic)'\n"
          "set ylabel 'GFLOP/s'\nset key below height 2\n",
          pf.gp);
    fputs("# blocks: per device, the variants (intensity, GFLOP/s, key number, name); then per "
          "device its memory roof (copy roof x intensity), its compute roof (FP32 peak) and, "
          "where the run has it, its measured FMA peak\n",
          pf.dat);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    int blocks = roofline_points(c, &pf, cmd);
    roofline_roofs(c, lo, hi, blocks, &pf, cmd);
    if (*missing) {
        char why[256];
        snprintf(why, sizeof why, "no compute roof for %s: its FP32 lanes per unit are not known",
                 missing);
        fputs("set label at graph 0.02, graph 0.95 left front ", pf.gp);
        gp_string(pf.gp, why);
        fputc('\n', pf.gp);
    }
    roofline_key(c, &pf);
    return finish_plot(&pf, cmd, exp, title, c);
}

/* ---------------------------------------------------------------- bins */

#define BINS_SERIES 64
#define BINS_POINTS 32

/* A sweep over bin counts (the histogram's): its series, one per device
 * and METHOD-DIST (sb_bins_variant), each of two or more bin counts,
 * sorted by them; and the methods and distributions in order of first
 * appearance, which give each series its colour and its dashes. */
typedef struct bins_sweep {
    int nseries;
    int slot[BINS_SERIES], method[BINS_SERIES], dist[BINS_SERIES];
    int count[BINS_SERIES];
    size_t idx[BINS_SERIES][BINS_POINTS];
    long bins[BINS_SERIES][BINS_POINTS];
    int nmethods, ndists;
    char methods[16][48], dists[8][48];
} bins_sweep;

/* The index of name in list[0..*n), added at the end when missing; -1 when
   the list is full. */
static int name_index(char (*list)[48], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(list[*n], sizeof list[0], "%s", name);
    return (*n)++;
}

/* Result i into its series, in bin order. */
static void bins_add(bins_sweep *bw, int slot, int m, int d, long bins, size_t i)
{
    int s = 0;
    while (s < bw->nseries && !(bw->slot[s] == slot && bw->method[s] == m && bw->dist[s] == d))
        s++;
    if (s == bw->nseries) {
        if (s == BINS_SERIES)
            return;
        bw->slot[s] = slot;
        bw->method[s] = m;
        bw->dist[s] = d;
        bw->count[s] = 0;
        bw->nseries++;
    }
    int k = bw->count[s];
    if (k == BINS_POINTS)
        return;
    while (k > 0 && bw->bins[s][k - 1] > bins) {
        bw->bins[s][k] = bw->bins[s][k - 1];
        bw->idx[s][k] = bw->idx[s][k - 1];
        k--;
    }
    bw->bins[s][k] = bins;
    bw->idx[s][k] = i;
    bw->count[s]++;
}

static void collect_bins(const sb_run *run, const sb_cross_experiment *e, bins_sweep *bw)
{
    memset(bw, 0, sizeof *bw);
    for (size_t j = 0; j < e->nresults; j++) {
        const sb_result *r = &run->results[e->results[j]];
        char method[48], dist[48];
        long bins;
        if (r->value <= 0 ||
            sb_bins_variant(r->variant, method, sizeof method, &bins, dist, sizeof dist))
            continue;
        int m = name_index(bw->methods, &bw->nmethods, 16, method);
        int d = name_index(bw->dists, &bw->ndists, 8, dist);
        if (m >= 0 && d >= 0)
            bins_add(bw, r->device_slot, m, d, bins, e->results[j]);
    }
    int kept = 0; /* a series of one bin count is not a sweep */
    for (int s = 0; s < bw->nseries; s++)
        if (bw->count[s] >= 2) {
            bw->slot[kept] = bw->slot[s];
            bw->method[kept] = bw->method[s];
            bw->dist[kept] = bw->dist[s];
            bw->count[kept] = bw->count[s];
            memmove(bw->idx[kept], bw->idx[s], sizeof bw->idx[s]);
            memmove(bw->bins[kept], bw->bins[s], sizeof bw->bins[s]);
            kept++;
        }
    bw->nseries = kept;
}

/* A colour per method, a dash pattern per distribution, a point shape per
 * device (filled on the first, hollow on the others). */
static void bins_style(const bins_sweep *bw, int s, cmd_buf *cmd)
{
    static const char *const colour[] = {"#7f7f7f", "#1f77b4", "#2ca02c", "#d62728",
                                         "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};
    static const int point[] = {7, 4, 8, 12, 10, 14};
    cmd_add(cmd, " lw 2 dt %d pt %d ps 1.3 lc rgb '%s'", 1 + bw->dist[s] % 4,
            point[bw->slot[s] % 6], colour[bw->method[s] % 8]);
}

/* "set xtics (1, 32, ...)": a tic at each bin count measured; the most. */
static long bins_tics(const bins_sweep *bw, plot_files *pf)
{
    long seen[BINS_POINTS * 2], most = 1;
    int nseen = 0;
    fputs("set xtics (", pf->gp);
    for (int s = 0; s < bw->nseries; s++)
        for (int k = 0; k < bw->count[s]; k++) {
            long b = bw->bins[s][k];
            int known = 0;
            for (int i = 0; i < nseen; i++)
                known |= seen[i] == b;
            most = b > most ? b : most;
            if (!known && nseen < BINS_POINTS * 2) {
                fprintf(pf->gp, "%s%ld", nseen ? ", " : "", b);
                seen[nseen++] = b;
            }
        }
    fputs(")\n", pf->gp);
    return most;
}

/* The axes: bins on log 2; the headline on log 10 and, where it is input
 * bandwidth, bin updates per ns (one per 4-byte input) on the right, over
 * the same range divided by 4 so that the two scales coincide. */
static void bins_axes(const plot_ctx *c, const bins_sweep *bw, plot_files *pf)
{
    double lo = 0, hi = 0;
    for (int s = 0; s < bw->nseries; s++)
        for (int k = 0; k < bw->count[s]; k++) {
            double v = c->run->results[bw->idx[s][k]].value;
            lo = lo > 0 && lo < v ? lo : v;
            hi = hi > v ? hi : v;
        }
    fputs("set logscale x 2\nset logscale y 10\n", pf->gp);
    long most = bins_tics(bw, pf);
    fprintf(pf->gp, "set xrange [0.7:%g]\nset xlabel 'bins (log scale)'\n", 1.4 * (double)most);
    lo /= 1.5;
    hi *= 1.5;
    fprintf(pf->gp, "set yrange [%.6g:%.6g]\nset ytics nomirror\n", lo, hi);
    const sb_result *f = &c->run->results[bw->idx[0][0]];
    if (f->quantity == SB_QUANTITY_BANDWIDTH)
        fprintf(pf->gp, "set ylabel 'input throughput (GB/s, log scale)'\n"
                        "set logscale y2 10\nset y2range [%.6g:%.6g]\nset y2tics\n"
                        "set y2label 'bin updates per ns (one per 4-byte input)'\n",
                lo / 4, hi / 4);
    else {
        char label[64];
        snprintf(label, sizeof label, "%s (log scale)", sb_quantity_unit(f->quantity));
        gp_set(pf->gp, "ylabel", label);
    }
    fputs("set key below maxcols 3\n", pf->gp);
}

static int bins_plot(const plot_ctx *c, const char *exp, const bins_sweep *bw)
{
    char name[80], title[200];
    stem(exp, "bins", name, sizeof name);
    snprintf(title, sizeof title, "%s: throughput against bins, a colour per variant, dashes "
                                  "per input distribution",
             exp);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    pf.height = 680 + 14 * ((bw->nseries + 2) / 3);
    script_head(&pf, title);
    bins_axes(c, bw, &pf);
    fputs("# blocks: one per series (device, variant, distribution); columns: bins, the "
          "headline figure, a quarter of it (bin updates per ns where it is input GB/s)\n",
          pf.dat);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < bw->nseries; s++) {
        char label[24], series[160];
        sb_slot_label(c->run, bw->slot[s], label, sizeof label);
        snprintf(series, sizeof series, "%s, %s, %s", label, bw->methods[bw->method[s]],
                 bw->dists[bw->dist[s]]);
        char text[SB_GP_QUOTED_MAX];
        fprintf(pf.dat, "%s# %s\n", s ? "\n\n" : "", dat_text(series, text, sizeof text));
        for (int k = 0; k < bw->count[s]; k++) {
            const sb_result *r = &c->run->results[bw->idx[s][k]];
            fprintf(pf.dat, "%ld %.6g %.6g\n", bw->bins[s][k], r->value, r->value / 4);
        }
        cmd_add(cmd, "%s %s index %d using 1:2 with linespoints", s ? "," : "", pf.data, s);
        bins_style(bw, s, cmd);
        cmd_title(cmd, series);
    }
    return finish_plot(&pf, cmd, exp, title, c);
}

/* ---------------------------------------------------------------- bars */

static double bars_roof(const plot_ctx *c, int s);
static double label_base(const plot_ctx *c, double value);

/* One line per variant of the experiment: its name, then each device's
 * figure, then where each device's share label goes (label_base). */
static void bars_data(const plot_ctx *c, plot_files *pf)
{
    const sb_run *run = c->run;
    const sb_crossapi *x = c->x;
    const sb_result *f = &run->results[c->e->first];
    fputs("# columns: variant, then one per device, then per device the height of its share "
          "label (its figure, or a roof line just above it):",
          pf->dat);
    char text[SB_GP_QUOTED_MAX];
    for (int s = 0; s < x->ndevices; s++)
        fprintf(pf->dat, " %s", dat_text(x->label[s], text, sizeof text));
    fputc('\n', pf->dat);
    for (size_t j = 0; j < c->e->nrows; j++) {
        const sb_cross_row *row = &x->rows[c->e->rows[j]];
        const sb_result *any = &run->results[row->first];
        char variant[80];
        if (any->rows == f->rows && any->cols == f->cols)
            snprintf(variant, sizeof variant, "%s", any->variant);
        else
            snprintf(variant, sizeof variant, "%s %ldx%ld", any->variant, any->rows, any->cols);
        dat_string(pf->dat, variant);
        for (int s = 0; s < x->ndevices; s++) {
            if (row->result[s] >= 0)
                fprintf(pf->dat, " %.6g", run->results[row->result[s]].value);
            else
                fputs(" ?", pf->dat);
        }
        for (int s = 0; s < x->ndevices; s++) {
            if (row->result[s] >= 0)
                fprintf(pf->dat, " %.6g", label_base(c, run->results[row->result[s]].value));
            else
                fputs(" ?", pf->dat);
        }
        fputc('\n', pf->dat);
    }
}

/* Device column s's roof: its copy roof when the bars are bandwidths, its
 * theoretical FP32 peak when they are GFLOP/s of no intensity (the
 * compute family); 0 otherwise. */
static double bars_roof(const plot_ctx *c, int s)
{
    const sb_result *f = &c->run->results[c->e->first];
    int compute = f->quantity == SB_QUANTITY_FLOPS && !(f->intensity > 0);
    if (f->quantity != SB_QUANTITY_BANDWIDTH && !compute)
        return 0.0;
    for (size_t j = 0; j < c->e->nrows; j++) {
        int i = c->x->rows[c->e->rows[j]].result[s];
        if (i < 0)
            continue;
        int slot = c->run->results[i].device_slot;
        return compute ? sb_device_fp32_peak_gflops(&c->run->devices[slot].info)
                       : device_roof(c->run, slot);
    }
    return 0.0;
}

/* What the bars' roof is: "copy roof", "FP32 peak". */
static const char *bars_roof_name(const plot_ctx *c)
{
    return c->run->results[c->e->first].quantity == SB_QUANTITY_FLOPS ? "FP32 peak" : "copy roof";
}

/* The top of the bars' y axis, over the highest bar and roof with room
 * for the staggered shares above them. */
static double bars_top(const plot_ctx *c)
{
    const sb_crossapi *x = c->x;
    double top = 0;
    for (size_t j = 0; j < c->e->nrows; j++)
        for (int s = 0; s < x->ndevices; s++) {
            int i = x->rows[c->e->rows[j]].result[s];
            if (i >= 0 && c->run->results[i].value > top)
                top = c->run->results[i].value;
        }
    for (int s = 0; s < x->ndevices; s++) {
        double roof = bars_roof(c, s);
        if (roof > 0)
            top = (roof > top ? roof : top) * 1.04;
    }
    return top * 1.12;
}

/* Where a bar's share label goes: above the bar, unless a roof line
 * crosses the two lines of text there (a share just under 100%), when it
 * goes above that line instead, clear of it.  The text spans about a
 * tenth of the axis above its base. */
static double label_base(const plot_ctx *c, double value)
{
    double top = bars_top(c), base = value;
    for (int pass = 0; pass < c->x->ndevices; pass++) /* a roof just above another */
        for (int s = 0; s < c->x->ndevices; s++) {
            double roof = bars_roof(c, s);
            if (roof > 0 && roof - base >= -0.015 * top && roof - base <= 0.1 * top)
                base = roof + 0.015 * top;
        }
    return base;
}

/* Whether device column s has a figure in the experiment: in a merged
 * run a device may have none, and a column of '?' alone is no bar (gnuplot
 * warns of it); each used column's place among them into *k, of *used. */
static int column_used(const plot_ctx *c, int s, int *k, int *used)
{
    *k = *used = 0;
    int mine = 0;
    for (int t = 0; t < c->x->ndevices; t++) {
        int any = 0;
        for (size_t j = 0; j < c->e->nrows && !any; j++)
            any = c->x->rows[c->e->rows[j]].result[t] >= 0;
        *k += any && t < s;
        *used += any;
        mine |= any && t == s;
    }
    return mine;
}

/* Each device's copy roof as a dashed line across the bars, and each
 * bar's share of it as a percentage above the bar; the y range holds the
 * highest roof. */
static void bars_roofs(const plot_ctx *c, plot_files *pf, cmd_buf *cmd)
{
    const sb_crossapi *x = c->x;
    double top = bars_top(c);
    for (int s = 0; s < x->ndevices; s++) {
        double roof = bars_roof(c, s);
        int k, used; /* the bar's place in its cluster, and the bars there */
        if (!(roof > 0) || !column_used(c, s, &k, &used))
            continue;
        fprintf(pf->gp, "set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dt 2 "
                        "lw 2 lc %d back\n",
                roof, roof, k + 1);
        char title[96];
        snprintf(title, sizeof title, "%s %s: %.0f %s (%% above a bar: its share)", x->label[s],
                 bars_roof_name(c), roof, sb_quantity_unit(c->run->results[c->e->first].quantity));
        cmd_add(cmd, ", NaN with lines dt 2 lw 2 lc %d", k + 1);
        cmd_title(cmd, title);
        double at = (k - (used - 1) / 2.0) / (used + 1.0); /* gap 1 */
        cmd_add(cmd, ", %s using ($0 %+.4f):(column(%d)):(sprintf('%%.0f%%%%', "
                     "100 * column(%d) / %.6g)) with labels offset 0,%.1f font ',8' notitle",
                pf->data, at, x->ndevices + 2 + s, s + 2, roof,
                0.7 + 1.1 * (k % 2)); /* neighbours staggered */
    }
    if (top > 0)
        fprintf(pf->gp, "set yrange [0:%.6g]\n", top);
}

static int bars_plot(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    const sb_crossapi *x = c->x;
    char name[80], title[256], size[96];
    stem(f->experiment, "bars", name, sizeof name);
    sb_result_size_text(f, size, sizeof size);
    snprintf(title, sizeof title, "%s, %s: %s of each variant", f->experiment, size,
             sb_quantity_unit(f->quantity));
    if (bars_roof(c, 0) > 0)
        snprintf(title, sizeof title, "%s, %s: %s of each variant, against the %s",
                 f->experiment, size, sb_quantity_unit(f->quantity), bars_roof_name(c));
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    size_t nbars = c->e->nrows;
    int w = 160 + (int)nbars * (30 * x->ndevices + 20); /* room for each bar's share */
    pf.width = w < 1100 ? 1100 : w > 4000 ? 4000 : w;
    script_head(&pf, title);
    fprintf(pf.gp, "set style data histograms\nset style histogram clustered gap 1\n"
                   "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
                   "set xtics rotate by -35 left\nset yrange [0:*]\n");
    gp_set(pf.gp, "ylabel", sb_quantity_unit(f->quantity));
    /* The last name, slanted to the right, needs room past the axis. */
    size_t longest = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        size_t len = strlen(c->run->results[c->e->results[i]].variant);
        longest = len > longest ? len : longest;
    }
    fprintf(pf.gp, "set rmargin %d\n", longest > 8 ? (int)(longest * 0.7) + 2 : 4);
    bars_data(c, &pf);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    for (int s = 0; s < x->ndevices; s++) {
        int k, used;
        if (!column_used(c, s, &k, &used))
            continue;
        if (k == 0)
            cmd_add(cmd, " %s using %d:xtic(1)", pf.data, s + 2);
        else
            cmd_add(cmd, ", '' using %d", s + 2);
        cmd_title(cmd, x->label[s]);
    }
    bars_roofs(c, &pf, cmd);
    return finish_plot(&pf, cmd, f->experiment, title, c);
}

/* ---------------------------------------------------------------- size sweeps */

/* Each device's sweep of the experiment (memory_levels.h), malloc'd, one
   per slot; NULL out of memory.  *plotted: how many have two points. */
static sb_sweep *size_sweeps(const plot_ctx *c, int *plotted)
{
    const sb_run *run = c->run;
    sb_sweep *sw = calloc((size_t)(run->ndevices > 0 ? run->ndevices : 1), sizeof *sw);
    *plotted = 0;
    for (int s = 0; sw && s < run->ndevices; s++)
        *plotted += sb_sweep_of(run, run->results[c->e->first].experiment, s, run->nresults,
                                &sw[s]) >= 2;
    return sw;
}

/* A size on the axis: "64", "16K", "4G". */
static void axis_label(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"", "K", "M", "G", "T"};
    int k = 0;
    while (bytes >= 1024 && k < 4) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.0f%s", bytes, unit[k]);
}

/* Whether x is among the points before point i of device s's sweep (or
   of any device before s). */
static int axis_seen(const sb_sweep *sw, int s, int i, double x)
{
    for (int t = 0; t <= s; t++)
        for (int j = 0; j < (t < s ? sw[t].n : i); j++)
            if (sw[t].x[j] == x)
                return 1;
    return 0;
}

/* Tics at every size some device measured, named in binary units; *lo,
   *hi: the smallest and largest. */
static void sweep_xtics(const plot_ctx *c, const sb_sweep *sw, plot_files *pf, double *lo,
                        double *hi)
{
    *lo = *hi = 0;
    fputs("set xtics rotate by -45 (", pf->gp);
    int any = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        for (int i = 0; i < sw[s].n; i++) {
            double x = sw[s].x[i];
            if (axis_seen(sw, s, i, x))
                continue;
            char label[16];
            axis_label(x, label, sizeof label);
            fputs(any++ ? ", " : "", pf->gp);
            gp_string(pf->gp, label);
            fprintf(pf->gp, " %.0f", x);
            *lo = *lo > 0 && *lo < x ? *lo : x;
            *hi = *hi > x ? *hi : x;
        }
    fputs(")\n", pf->gp);
}

/* One device's curve: its block of data and its line. */
static void sweep_series(const plot_ctx *c, const sb_sweep *sw, int s, int block,
                         plot_files *pf, cmd_buf *cmd)
{
    char label[24];
    sb_slot_label(c->run, s, label, sizeof label);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "%s# %s: bytes, headline, variant\n", block ? "\n\n" : "",
            dat_text(label, text, sizeof text));
    for (int i = 0; i < sw->n; i++) {
        fprintf(pf->dat, "%.0f %.6g ", sw->x[i], sw->y[i]);
        dat_string(pf->dat, c->run->results[sw->row[i]].variant);
        fputc('\n', pf->dat);
    }
    cmd_add(cmd, "%s %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.3 lc %d",
            block ? "," : "", pf->data, block, s ? 6 : 7, s + 1);
    cmd_title(cmd, label);
}

/* The name of a sweep's axis, from its first point's figure: "working set". */
static void axis_name(const sb_result *f, char *buf, size_t n)
{
    snprintf(buf, n, "size");
    for (int i = 0; i < f->nfigures && i < SB_MAX_FIGURES; i++)
        if (strcmp(f->figure[i].unit, "B") == 0) {
            snprintf(buf, n, "%s", f->figure[i].name);
            break;
        }
    for (char *p = buf; *p; p++)
        *p = *p == '_' ? ' ' : *p;
}

/* gnuplot's colour of line type s + 1, as "#AARRGGBB" with some of it
   transparent, so that a plateau drawn thick leaves its points seen. */
static const char *translucent(int s)
{
    static const char *const colour[] = {"#a09400d3", "#a0009e73", "#a056b4e9", "#a0e69f00",
                                         "#a0f0e442", "#a00072b2", "#a0e51e10", "#a0000000"};
    return colour[s % 8];
}

/* One device's plateaus (plateau.h) as thick segments at their levels,
   where the sweep is over a working set (the levels of the memory
   hierarchy); the blocks written (0 or 1). */
static int sweep_plateaus(const plot_ctx *c, const sb_sweep *sw, int s, int block,
                          plot_files *pf, cmd_buf *cmd)
{
    char axis[32];
    axis_name(&c->run->results[sw->row[0]], axis, sizeof axis);
    if (strcmp(axis, "working set") != 0)
        return 0;
    sb_plateau p[SB_PLATEAUS_MAX];
    int np = sb_plateaus(sw->y, sw->n, p, SB_PLATEAUS_MAX);
    if (np == 0)
        return 0;
    char label[24], title[96];
    sb_slot_label(c->run, s, label, sizeof label);
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "\n\n# %s plateaus: from and to, at the level\n",
            dat_text(label, text, sizeof text));
    for (int k = 0; k < np; k++)
        fprintf(pf->dat, "%s%.0f %.6g\n%.0f %.6g\n", k ? "\n" : "", sw->x[p[k].first],
                p[k].level, sw->x[p[k].last], p[k].level);
    snprintf(title, sizeof title, "%s plateaus (%d found in the data)", label, np);
    cmd_add(cmd, ", %s index %d using 1:2 with lines lw 10 lc rgb '%s'", pf->data, block,
            translucent(s));
    cmd_title(cmd, title);
    return 1;
}

/* One device's rows without a size (the copy in place, random order) as
   dashed lines across the sweep, and for bandwidths 90% of the fastest
   of them dotted; the blocks written. */
static int sweep_references(const plot_ctx *c, int s, int block, double lo, double hi,
                            plot_files *pf, cmd_buf *cmd)
{
    const sb_run *run = c->run;
    char label[24], title[160], style[48];
    sb_slot_label(run, s, label, sizeof label);
    const sb_result *fastest = NULL;
    int made = 0;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &run->results[c->e->results[i]];
        if (r->device_slot != s || sb_sweep_axis(r) > 0 || !(r->value > 0))
            continue;
        snprintf(title, sizeof title, "%s %s: %.4g %s", label, r->variant, r->value,
                 sb_quantity_unit(r->quantity));
        snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
        roof_line(pf, cmd, block + made++, title, lo / 1.5, r->value, hi * 1.5, r->value, style);
        if (r->quantity == SB_QUANTITY_BANDWIDTH && (!fastest || r->value > fastest->value))
            fastest = r;
    }
    if (fastest) {
        snprintf(title, sizeof title, "%s 90%% of %s: %.4g GB/s", label, fastest->variant,
                 0.9 * fastest->value);
        snprintf(style, sizeof style, "dt 3 lw 2 lc %d", s + 1);
        roof_line(pf, cmd, block + made++, title, lo / 1.5, 0.9 * fastest->value, hi * 1.5,
                  0.9 * fastest->value, style);
    }
    return made;
}

/* The top of the y axis: above every point and reference row, so that
   none lies on the frame; 0 (gnuplot's own) for a log axis. */
static double sweep_top(const plot_ctx *c, const sb_sweep *sw, int *references)
{
    double top = 0;
    *references = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        for (int i = 0; i < sw[s].n; i++)
            top = sw[s].y[i] > top ? sw[s].y[i] : top;
    for (size_t i = 0; i < c->e->nresults; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        if (sb_sweep_axis(r) > 0 || !(r->value > 0))
            continue;
        top = r->value > top ? r->value : top;
        (*references)++;
    }
    return 1.1 * top;
}

/* The headline against the size the rows sweep (their first figure in
   bytes), log x, per device, with the plateaus found and the rows
   without a size as references. */
static int size_sweep_plot(const plot_ctx *c, const sb_sweep *sw)
{
    const sb_run *run = c->run;
    int s0 = 0, references;
    while (sw[s0].n < 2)
        s0++;
    const sb_result *f = &run->results[sw[s0].row[0]];
    double top = sweep_top(c, sw, &references);
    char name[80], title[200], what[32];
    axis_name(f, what, sizeof what);
    stem(f->experiment, "sweep", name, sizeof name);
    snprintf(title, sizeof title, "%s: %s against %s%s%s", f->experiment,
             sb_quantity_unit(f->quantity), what,
             strcmp(what, "working set") == 0 ? "; thick: the plateaus found" : "",
             !references                          ? ""
             : f->quantity == SB_QUANTITY_BANDWIDTH ? "; dashed: the rows at no one size, "
                                                      "dotted: 90% of the fastest"
                                                    : "; dashed: the rows at no one size");
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    script_head(&pf, title);
    double lo, hi;
    sweep_xtics(c, sw, &pf, &lo, &hi);
    char label[64];
    snprintf(label, sizeof label, "%s (bytes)", what);
    fprintf(pf.gp, "set logscale x 2\nset xrange [%.6g:%.6g]\n", lo / 1.5, hi * 1.5);
    gp_set(pf.gp, "xlabel", label);
    gp_set(pf.gp, "ylabel", sb_quantity_unit(f->quantity));
    if (f->quantity == SB_QUANTITY_LATENCY)
        fputs("set logscale y\n", pf.gp);
    else
        fprintf(pf.gp, "set yrange [0:%.6g]\n", top);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    int block = 0;
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            sweep_series(c, &sw[s], s, block++, &pf, cmd);
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            block += sweep_plateaus(c, &sw[s], s, block, &pf, cmd);
    for (int s = 0; s < run->ndevices; s++)
        if (sw[s].n >= 2)
            block += sweep_references(c, s, block, lo, hi, &pf, cmd);
    return finish_plot(&pf, cmd, f->experiment, title, c);
}

/* ---------------------------------------------------------------- bytes in flight */

/* Whether device slot s's Little's law is about this experiment. */
static int inflight_of(const plot_ctx *c, int s)
{
    return s < SB_RUN_MAX_DEVICES && c->memory[s].knee_row >= 0 &&
           strcmp(c->memory[s].inflight, c->run->results[c->e->first].experiment) == 0;
}

static int has_inflight(const plot_ctx *c)
{
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            return 1;
    return 0;
}

/* One device's rows by bytes in flight, sorted; their count. */
enum { INFLIGHT_POINTS = 256 };
static int inflight_points(const plot_ctx *c, int s, double *x, size_t *at)
{
    const sb_memory_levels *m = &c->memory[s];
    int np = 0;
    for (size_t i = 0; i < c->e->nresults && np < INFLIGHT_POINTS; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        double b = sb_bytes_in_flight(r, m->in_flight);
        if (r->device_slot != s || !(b > 0) || !(r->value > 0))
            continue;
        int k = np++;
        for (; k > 0 && x[k - 1] > b; k--) {
            x[k] = x[k - 1];
            at[k] = at[k - 1];
        }
        x[k] = b;
        at[k] = c->e->results[i];
    }
    return np;
}

/* One device's rows by bytes in flight: every row as a point (a block),
 * and a line through the best at each size (a second block), so that rows
 * at one size (a full grid's variants) are not joined by a vertical
 * segment; the blocks written. */
static int inflight_series(const plot_ctx *c, int s, int block, plot_files *pf, cmd_buf *cmd)
{
    const sb_memory_levels *m = &c->memory[s];
    double x[INFLIGHT_POINTS];
    size_t at[INFLIGHT_POINTS];
    int np = inflight_points(c, s, x, at);
    char label[24], title[96], text[SB_GP_QUOTED_MAX];
    sb_slot_label(c->run, s, label, sizeof label);
    fprintf(pf->dat, "%s# %s: bytes in flight, GB/s, variant\n", block ? "\n\n" : "",
            dat_text(label, text, sizeof text));
    for (int k = 0; k < np; k++) {
        fprintf(pf->dat, "%.0f %.6g ", x[k], c->run->results[at[k]].value);
        dat_string(pf->dat, c->run->results[at[k]].variant);
        fputc('\n', pf->dat);
    }
    fprintf(pf->dat, "\n\n# %s: the best GB/s at each size in flight\n", text);
    for (int k = 0; k < np;) {
        double best = 0;
        int j = k;
        for (; j < np && x[j] == x[k]; j++)
            best = c->run->results[at[j]].value > best ? c->run->results[at[j]].value : best;
        fprintf(pf->dat, "%.0f %.6g\n", x[k], best);
        k = j;
    }
    snprintf(title, sizeof title, "%s (threads %s x %.0f B; the line: the best at each)", label,
             m->in_flight ? "in flight" : "launched", m->bytes_per_thread);
    cmd_add(cmd, "%s %s index %d using 1:2 with points pt %d ps 1.3 lc %d notitle",
            block ? "," : "", pf->data, block, s ? 6 : 7, s + 1);
    cmd_add(cmd, ", %s index %d using 1:2 with linespoints lw 2 pt %d ps 1.3 lc %d", pf->data,
            block + 1, s ? 6 : 7, s + 1);
    cmd_title(cmd, title);
    return 2;
}

/* Little's law's bytes in flight for device slot s: the copy's reads x
 * the DRAM latency, from the run's latency sweep wherever it ran (the
 * lesson asks for one before the rows, the plot need not); 0 without. */
static double littles_bytes(const sb_memory_levels *m)
{
    if (m->need_bytes > 0)
        return m->need_bytes;
    return m->dram_ns > 0 && m->copy_gbs > 0 ? sb_littles_bytes(m->copy_gbs / 2.0, m->dram_ns)
                                             : 0.0;
}

/* One device's knees as vertical lines, measured dashed and predicted
   dotted; the blocks written. */
static int inflight_knees(const plot_ctx *c, int s, int block, plot_files *pf, cmd_buf *cmd)
{
    const sb_memory_levels *m = &c->memory[s];
    char label[24], title[160], style[48];
    sb_slot_label(c->run, s, label, sizeof label);
    double top = 1.1 * m->best_gbs, need = littles_bytes(m);
    snprintf(title, sizeof title, "%s knee measured: %.3g MB (%s, %.0f%% of the best)", label,
             m->knee_bytes / 1e6, c->run->results[m->knee_row].variant, 100 * SB_KNEE_NEAR_BEST);
    snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
    roof_line(pf, cmd, block, title, m->knee_bytes, 0, m->knee_bytes, top, style);
    if (!(need > 0))
        return 1;
    snprintf(title, sizeof title, "%s Little's law: %.3g MB (%.0f GB/s of reads x %.3g ns)",
             label, need / 1e6, m->copy_gbs / 2, m->dram_ns);
    /* The first device's widest, so that coinciding predictions show each colour. */
    snprintf(style, sizeof style, "dt 3 lw %d lc %d", s ? 2 : 4, s + 1);
    roof_line(pf, cmd, block + 1, title, need, 0, need, top, style);
    return 2;
}

/* A size in flight on the axis: "256 B", "4 KiB", "1 MiB". */
static void bytes_tic(double bytes, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (bytes >= 1024 && k < 4) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.0f %s", bytes, unit[k]);
}

/* Tics at powers of 4 (of 16 over a wide range) across the sizes the
 * devices keep in flight, each named in binary units. */
static void inflight_tics(const plot_ctx *c, plot_files *pf)
{
    double lo = 0, hi = 0, x[INFLIGHT_POINTS];
    size_t at[INFLIGHT_POINTS];
    for (int s = 0; s < c->run->ndevices; s++) {
        int np = inflight_of(c, s) ? inflight_points(c, s, x, at) : 0;
        if (np > 0) {
            lo = lo > 0 && lo < x[0] ? lo : x[0];
            hi = hi > x[np - 1] ? hi : x[np - 1];
        }
    }
    if (!(hi > 0))
        return;
    double first = 1;
    while (first * 4 <= lo)
        first *= 4;
    int tics = 1;
    for (double t = first; t < hi; t *= 4)
        tics++;
    double step = tics > 12 ? 16 : 4;
    fputs("set xtics (", pf->gp);
    for (double t = first; t <= hi; t *= step) {
        char label[24];
        bytes_tic(t, label, sizeof label);
        fputs(t > first ? ", " : "", pf->gp);
        gp_string(pf->gp, label);
        fprintf(pf->gp, " %.0f", t);
    }
    fputs(")\n", pf->gp);
}

/* Bandwidth against the bytes in flight, log x, with the knee Little's
   law predicts beside the one measured, or why there is none. */
static int inflight_plot(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    char name[80], title[200];
    int littles = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        littles |= inflight_of(c, s) && littles_bytes(&c->memory[s]) > 0;
    stem(f->experiment, "inflight", name, sizeof name);
    snprintf(title, sizeof title, "%s: GB/s against bytes in flight; dashed: the knee measured%s",
             f->experiment,
             littles ? "; dotted: Little's law's (the copy's reads x DRAM latency)" : "");
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1300;
    script_head(&pf, title);
    fputs("set logscale x 2\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, 0, 0\n"
          "set xlabel 'bytes in flight: threads x the bytes each keeps in flight'\n"
          "set ylabel 'GB/s'\n",
          pf.gp);
    inflight_tics(c, &pf);
    if (!littles)
        fputs("set label 'no Little''s law knee: the run measured no DRAM latency (the latency "
              "family: --experiment latency,occupancy)' at graph 0.02, graph 0.95 left front\n",
              pf.gp);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    int block = 0;
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            block += inflight_series(c, s, block, &pf, cmd);
    for (int s = 0; s < c->run->ndevices; s++)
        if (inflight_of(c, s))
            block += inflight_knees(c, s, block, &pf, cmd);
    return finish_plot(&pf, cmd, f->experiment, title, c);
}

/* ---------------------------------------------------------------- launch */

/* Whether the experiment's rows were timed on the host too. */
static int host_timed(const plot_ctx *c)
{
    for (size_t i = 0; i < c->e->nresults; i++)
        if (c->run->results[c->e->results[i]].host_observed.n > 0)
            return 1;
    return 0;
}

/* Per variant, each device's device-event and host-observed microseconds
 * per launch, side by side ("?" where a device has none). */
static void launch_data(const plot_ctx *c, plot_files *pf)
{
    const sb_crossapi *x = c->x;
    fputs("# columns: variant, then per device: device-event us, host-observed us:", pf->dat);
    char text[SB_GP_QUOTED_MAX];
    for (int s = 0; s < x->ndevices; s++)
        fprintf(pf->dat, " %s", dat_text(x->label[s], text, sizeof text));
    fputc('\n', pf->dat);
    for (size_t j = 0; j < c->e->nrows; j++) {
        const sb_cross_row *row = &x->rows[c->e->rows[j]];
        dat_string(pf->dat, c->run->results[row->first].variant);
        for (int s = 0; s < x->ndevices; s++) {
            const sb_result *r = row->result[s] >= 0 ? &c->run->results[row->result[s]] : NULL;
            if (r && r->host_observed.n > 0)
                fprintf(pf->dat, " %.6g %.6g", 1e3 * r->ms.median, 1e3 * r->host_observed.median);
            else
                fputs(" ? ?", pf->dat);
        }
        fputc('\n', pf->dat);
    }
}

/* Whether device column s has a row timed on the host too: in a merged
 * run a device may have none, and a column of '?' alone is no bar. */
static int launch_timed(const plot_ctx *c, int s)
{
    for (size_t j = 0; j < c->e->nrows; j++) {
        int i = c->x->rows[c->e->rows[j]].result[s];
        if (i >= 0 && c->run->results[i].host_observed.n > 0)
            return 1;
    }
    return 0;
}

/* Where the launch overhead lives: per variant, each device's time on its
 * events beside the time the host observed, on a log scale (an empty
 * kernel's microseconds beside a 1 GiB copy's). */
static int launch_plot(const plot_ctx *c)
{
    const sb_result *f = &c->run->results[c->e->first];
    const sb_crossapi *x = c->x;
    char name[80], title[160];
    stem(f->experiment, "launch", name, sizeof name);
    snprintf(title, sizeof title, "%s: microseconds per launch, device events against the "
                                  "host's clock", f->experiment);
    plot_files pf;
    if (open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    script_head(&pf, title);
    fputs("set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset logscale y 10\n"
          "set ylabel 'us per launch'\nset yrange [*:*]\n",
          pf.gp);
    launch_data(c, &pf);
    cmd_buf *cmd = new_command(&pf, c);
    if (!cmd)
        return -1;
    int first = 1;
    for (int s = 0; s < x->ndevices; s++)
        for (int k = 0; k < 2 && launch_timed(c, s); k++) {
            int col = 2 + 2 * s + k;
            if (first)
                cmd_add(cmd, " %s using %d:xtic(1) fs solid 0.8 lc %d", pf.data, col, s + 1);
            else
                cmd_add(cmd, ", '' using %d fs %s lc %d", col, k ? "pattern 4" : "solid 0.8",
                        s + 1);
            first = 0;
            char series[64];
            snprintf(series, sizeof series, "%s %s", x->label[s],
                     k ? "host-observed" : "device events");
            cmd_title(cmd, series);
        }
    return finish_plot(&pf, cmd, f->experiment, title, c);
}

/* ---------------------------------------------------------------- public */

/* The plots of one experiment: a sweep per memory space that has one, a
 * paths sweep where its model splits threads into paths, a roofline where
 * it measured GFLOP/s with an intensity, a sweep over a size where its rows
 * have one, the launch times where the host timed its rows too, else bars;
 * and the bytes in flight where Little's law is about it. */
static int plot_experiment(const plot_ctx *c)
{
    const sb_run *run = c->run;
    const sb_result *f = &run->results[c->e->first];
    int plotted = 0, rc = 0;
    for (int space = SB_SPACE_GLOBAL; space <= SB_SPACE_SHARED && rc == 0; space++) {
        sweep sw;
        if (collect_sweep(run, c->e, space, &sw)) {
            snprintf(c->err, c->errn, "out of host memory");
            return -1;
        }
        if (sw.nseries > 0) {
            rc = space == SB_SPACE_GLOBAL ? bandwidth_plot(c, f->experiment, &sw)
                                          : conflict_plot(c, f->experiment, &sw);
            plotted = 1;
        }
        free(sw.idx);
    }
    paths_sweep *pw = calloc(1, sizeof *pw);
    if (!pw) {
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    collect_paths(run, c->e, pw);
    if (rc == 0 && pw->nseries > 0) {
        rc = paths_plot(c, f->experiment, pw);
        plotted = 1;
    }
    free(pw);
    int flops = 0;
    for (size_t i = 0; i < c->e->nresults && !flops; i++) {
        const sb_result *r = &run->results[c->e->results[i]];
        flops = r->intensity > 0 && r->quantity == SB_QUANTITY_FLOPS;
    }
    if (rc == 0 && flops) {
        rc = roofline_plot(c, f->experiment);
        plotted = 1;
    }
    bins_sweep *bw = rc == 0 ? malloc(sizeof *bw) : NULL;
    if (rc == 0 && !bw) {
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    if (bw)
        collect_bins(run, c->e, bw);
    if (bw && bw->nseries > 0) {
        rc = bins_plot(c, f->experiment, bw);
        plotted = 1;
    }
    free(bw);
    int sweeps = 0;
    sb_sweep *sw = rc == 0 ? size_sweeps(c, &sweeps) : NULL;
    if (rc == 0 && !sw) {
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    if (rc == 0 && sweeps) {
        rc = size_sweep_plot(c, sw);
        plotted = 1;
    }
    free(sw);
    if (rc == 0 && has_inflight(c))
        rc = inflight_plot(c);
    if (rc == 0 && host_timed(c)) {
        rc = launch_plot(c);
        plotted = 1;
    }
    if (rc == 0 && !plotted)
        rc = bars_plot(c);
    return rc;
}

int sb_plot_write(const sb_analysis *a, const char *dir, sb_plot_list *list, char *err, size_t n)
{
    memset(list, 0, sizeof *list);
    if (make_dir(dir)) {
        snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (size_t e = 0; e < a->cross.nexperiments && rc == 0; e++) {
        const plot_ctx c = {a->run, &a->cross, &a->cross.experiments[e], a->memory,
                            dir,    list,      err,                       n};
        rc = plot_experiment(&c);
    }
    return rc;
}
