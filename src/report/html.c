/* HTML: one self-contained page (inline CSS, plots as inline SVG) that can
 * be mailed or attached to an issue.  The plots are rendered by gnuplot
 * into a temporary directory and read back; without gnuplot the page says
 * so and carries the tables alone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/describe.h"
#include "analysis/lessons.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary_print.h"
#include "exec/interrupt.h"

static void esc(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

static void td(FILE *out, const char *cls, const char *text)
{
    fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    esc(out, text);
    fputs("</td>", out);
}

static void tdf(FILE *out, const char *fmt, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    td(out, "num", buf);
}

static const char style[] =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:110em}"
    "table{border-collapse:collapse;margin:1em 0;font-size:90%}"
    "th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}"
    "th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.same{color:#555}td.faster,td.slower{font-weight:bold}"
    "td.ptx{font-family:monospace;font-size:85%}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
    "p.note{color:#855}td.noisy{color:#a60;text-align:right}p.noisy{color:#a60}";

static void devices(const sb_run *run, FILE *out)
{
    fputs("<h2>Devices</h2>\n<table><tr><th>slot</th><th>backend</th><th>device</th>"
          "<th>platform</th><th>API</th><th>driver</th><th>arch</th><th>units</th>"
          "<th>peak GB/s</th><th>API copy GB/s</th><th>which</th></tr>\n",
          out);
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *d = &run->devices[i];
        char label[SB_SLOT_LABEL];
        sb_slot_label(run, i, label, sizeof label);
        fputs("<tr>", out);
        td(out, NULL, label);
        td(out, NULL, d->backend);
        td(out, NULL, d->info.name);
        td(out, NULL, d->info.platform);
        td(out, NULL, d->info.api_version);
        td(out, NULL, d->info.driver[0] ? d->info.driver : "unknown");
        td(out, NULL, d->info.arch);
        tdf(out, "%.0f", (double)d->info.compute_units);
        double peak = sb_device_peak_gbs(&d->info);
        if (peak > 0)
            tdf(out, "%.0f", peak);
        else
            td(out, NULL, "not exposed");
        if (d->memcpy_gbs > 0)
            tdf(out, "%.1f", d->memcpy_gbs);
        else
            td(out, NULL, "-");
        char which[1024];
        sb_device_identity_text(run, i, which, sizeof which);
        td(out, NULL, which);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* The backends this simtbench has that the run left out, and why. */
static void unavailable(const sb_run *run, FILE *out)
{
    if (run->nunavailable <= 0)
        return;
    fputs("<p>Not run here:</p>\n<ul>\n", out);
    for (int i = 0; i < run->nunavailable && i < SB_RUN_MAX_DEVICES; i++) {
        fputs("<li>", out);
        esc(out, run->unavailable[i].backend);
        fputs(": ", out);
        esc(out, run->unavailable[i].reason);
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

static void heading(const sb_result *f, FILE *out)
{
    fputs("<h2>", out);
    esc(out, f->experiment);
    fprintf(out, " %ldx%ld</h2>\n<p>%d repetitions after %d warm-ups; every row verified.</p>\n",
            f->rows, f->cols, f->reps, f->warmup);
}

static void variant_td(const sb_result *f, const sb_result *r, FILE *out)
{
    char name[96];
    if (r->rows == f->rows && r->cols == f->cols)
        snprintf(name, sizeof name, "%s", r->variant);
    else
        snprintf(name, sizeof name, "%s (%ldx%ld)", r->variant, r->rows, r->cols);
    td(out, NULL, name);
}

static void single_table(const sb_analysis *a, const sb_cross_experiment *e, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    heading(f, out);
    fputs("<table><tr><th>variant</th><th>backend</th><th>median ms</th><th>min ms</th>"
          "<th>max ms</th><th>spread</th><th>",
          out);
    esc(out, sb_quantity_unit(f->quantity));
    fputs("</th><th>best</th><th>roof %</th><th>model</th></tr>\n", out);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        char model[SB_MODEL_TEXT];
        sb_result_model_text(r, model, sizeof model);
        fputs("<tr>", out);
        variant_td(f, r, out);
        td(out, NULL, r->backend);
        tdf(out, "%.4f", r->ms.median);
        tdf(out, "%.4f", r->ms.min);
        tdf(out, "%.4f", r->ms.max);
        char spread[48], roof[48];
        sb_noise_cells(&a->noise, e->results[i], r, spread, roof, sizeof spread);
        td(out, strncmp(spread, "noisy", 5) ? "num" : "noisy", spread);
        tdf(out, "%.2f", r->value);
        tdf(out, "%.2f", r->value_best);
        td(out, strncmp(roof, "noisy", 5) ? "num" : "noisy", roof[0] ? roof : "-");
        td(out, NULL, model);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* The side-by-side table's two header rows: a group of columns per device,
 * then per other device its comparison with the reference. */
static void cross_header(const sb_crossapi *x, const sb_result *f, FILE *out)
{
    const int ref = x->reference;
    fputs("<table><tr><th rowspan=\"2\">variant</th>", out);
    for (int s = 0; s < x->ndevices; s++) {
        fputs("<th colspan=\"3\">", out);
        esc(out, x->label[s]);
        fputs("</th>", out);
    }
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        fputs("<th colspan=\"4\">", out);
        esc(out, x->label[s]);
        fputs(" against ", out);
        esc(out, x->label[ref]);
        fputs("</th>", out);
    }
    fputs("<th rowspan=\"2\">model</th></tr>\n<tr>", out);
    for (int s = 0; s < x->ndevices; s++) {
        fputs("<th>median ms (spread)</th><th>", out);
        esc(out, sb_quantity_unit(f->quantity));
        fputs("</th><th>roof %</th>", out);
    }
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref)
            fputs("<th>speed ratio</th><th>verdict</th><th>95% interval</th>"
                  "<th>PTX memory instructions</th>",
                  out);
    fputs("</tr>\n", out);
}

/* Each device's median, figure and roof share; "-" where it has no result. */
static void device_cells(const sb_analysis *a, const sb_crossapi *x, const sb_cross_row *row,
                         FILE *out)
{
    const sb_run *run = a->run;
    for (int s = 0; s < x->ndevices; s++) {
        if (row->result[s] < 0) {
            fputs("<td>-</td><td>-</td><td>-</td>", out);
            continue;
        }
        const sb_result *r = &run->results[row->result[s]];
        char t[96], spread[48], roof[48];
        sb_noise_cells(&a->noise, (size_t)row->result[s], r, spread, roof, sizeof spread);
        snprintf(t, sizeof t, "%.4f (%s)", r->ms.median, spread);
        td(out, strncmp(spread, "noisy", 5) ? "num" : "noisy", t);
        tdf(out, "%.2f", r->value);
        td(out, strncmp(roof, "noisy", 5) ? "num" : "noisy", roof[0] ? roof : "-");
    }
}

/* The CSS class of a verdict's cell, or NULL. */
static const char *verdict_class(sb_verdict_kind k)
{
    return k == SB_VERDICT_SAME     ? "same"
           : k == SB_VERDICT_FASTER ? "faster"
           : k == SB_VERDICT_SLOWER ? "slower"
           : k == SB_VERDICT_NOISY  ? "noisy"
                                    : NULL;
}

/* Each other device's speed ratio, verdict, interval and PTX note against the
 * reference. */
static void verdict_cells(const sb_crossapi *x, const sb_cross_row *row, FILE *out)
{
    const int ref = x->reference;
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        const sb_verdict *v = &row->verdict[s];
        char verdict[96], interval[48];
        sb_verdict_text(v, x->label[ref], x->label[s], verdict, sizeof verdict);
        sb_verdict_interval_text(v, SB_INTERVAL_SPEED, interval, sizeof interval);
        if (v->kind != SB_VERDICT_NONE)
            tdf(out, "%.3f", v->speed_ratio);
        else
            td(out, NULL, "-");
        td(out, verdict_class(v->kind), verdict);
        td(out, NULL, interval[0] ? interval : "-");
        td(out, "ptx", row->ptx[s][0] ? row->ptx[s] : "-");
    }
}

static void cross_table(const sb_analysis *a, const sb_crossapi *x,
                        const sb_cross_experiment *e, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    heading(f, out);
    cross_header(x, f, out);
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &x->rows[e->rows[j]];
        const sb_result *any = &run->results[row->first];
        fputs("<tr>", out);
        variant_td(f, any, out);
        device_cells(a, x, row, out);
        verdict_cells(x, row, out);
        char model[SB_MODEL_TEXT];
        sb_result_model_text(any, model, sizeof model);
        td(out, NULL, model);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* Whether the block has a row the host timed too (the launch family). */
static int host_timed(const sb_run *run, const sb_cross_experiment *e)
{
    for (size_t i = 0; i < e->nresults; i++)
        if (run->results[e->results[i]].host_observed.n > 0)
            return 1;
    return 0;
}

/* One device's device and host-observed times of a row, the share of the
 * host's the device did not see, and launches per second. */
static void host_device_cells(const sb_result *r, FILE *out)
{
    if (!r || r->host_observed.n == 0) {
        fputs("<td>-</td><td>-</td><td>-</td><td>-</td>", out);
        return;
    }
    char t[64];
    tdf(out, "%.4f", r->ms.median);
    tdf(out, "%.4f", r->host_observed.median);
    tdf(out, "%.1f%%", 100.0 * sb_host_deficit(r->host_observed.median, r->ms.median));
    snprintf(t, sizeof t, "%.0f (%d queued)", r->launches_per_s, r->queued_launches);
    td(out, "num", t);
}

/* Kernel time and host-observed time side by side, per device, with the
 * verdict on the host's times against the reference: where an API's
 * launch overhead lives. */
static void host_table(const sb_run *run, const sb_crossapi *x, const sb_cross_experiment *e,
                       FILE *out)
{
    const sb_result *f = &run->results[e->first];
    const int ref = x->reference;
    fputs("<p>Device-event time against the host-observed time of one launch (enqueue to "
          "completion on the host's monotonic clock, as a host-timed benchmark sees it):</p>\n"
          "<table><tr><th>variant</th>", out);
    for (int s = 0; s < x->ndevices; s++) {
        static const char *const what[] = {"device ms", "host ms", "unseen", "launches/s"};
        for (int k = 0; k < 4; k++) {
            fputs("<th>", out);
            esc(out, x->label[s]);
            fprintf(out, " %s</th>", what[k]);
        }
    }
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref) {
            fputs("<th>host ", out);
            esc(out, x->label[s]);
            fputc('/', out);
            esc(out, x->label[ref]);
            fputs("</th><th>host verdict</th>", out);
        }
    fputs("</tr>\n", out);
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &x->rows[e->rows[j]];
        fputs("<tr>", out);
        variant_td(f, &run->results[row->first], out);
        for (int s = 0; s < x->ndevices; s++)
            host_device_cells(row->result[s] >= 0 ? &run->results[row->result[s]] : NULL, out);
        for (int s = 0; s < x->ndevices; s++) {
            if (s == ref)
                continue;
            const sb_verdict *v = &row->host_verdict[s];
            char text[96];
            sb_verdict_text(v, x->label[ref], x->label[s], text, sizeof text);
            if (v->kind != SB_VERDICT_NONE)
                tdf(out, "%.3f", v->speed_ratio);
            else
                td(out, NULL, "-");
            td(out, verdict_class(v->kind), text);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* An SVG file inline: from its <svg element on, without the XML prolog
 * and doctype, which are not allowed inside HTML. */
static int inline_svg(const char *path, FILE *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *p = realloc(text, cap);
            if (!p) {
                free(text);
                fclose(f);
                return -1;
            }
            text = p;
        }
        size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    text[len] = '\0';
    const char *svg = strstr(text, "<svg");
    if (svg)
        fputs(svg, out);
    free(text);
    return svg ? 0 : -1;
}

/* Plots rendered into a private temporary directory, then removed. */
typedef struct plots {
    sb_plot_list list;
    char dir[256];
    int rendered[SB_PLOT_MAX];
    int interrupted; /* SIGINT or SIGTERM stopped the rendering: no page */
    char note[640];
} plots;

/* Why there is no gnuplot to run, in one sentence: GNUPLOT set empty
 * turns it off, GNUPLOT naming no program, or none found. */
static void no_gnuplot_note(plots *p)
{
    const char *env = getenv("GNUPLOT");
    if (env && !*env)
        snprintf(p->note, sizeof p->note, "No charts are shown: GNUPLOT is set but empty, which "
                                          "turns gnuplot off (unset it and run again; --plot "
                                          "DIR also writes their data and scripts).");
    else if (env)
        snprintf(p->note, sizeof p->note, "No charts are shown: GNUPLOT names %.300s, which is "
                                          "not a program that can be run (name gnuplot there "
                                          "and run again).",
                 env);
    else
        snprintf(p->note, sizeof p->note, "No charts are shown: gnuplot was not found on PATH "
                                          "(install it, or set GNUPLOT, and run again; --plot "
                                          "DIR also writes their data and scripts).");
}

static void make_plots(const sb_analysis *a, plots *p)
{
    char gnuplot[4096], err[512];
    const char *tmp = getenv("TMPDIR");
    p->dir[0] = '\0';
    if (sb_plot_find_gnuplot(gnuplot, sizeof gnuplot)) {
        no_gnuplot_note(p);
        return;
    }
    snprintf(p->dir, sizeof p->dir, "%s/simtbench-html-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p->dir)) {
        snprintf(p->note, sizeof p->note, "No charts are shown: cannot create a temporary "
                                          "directory (%s).",
                 strerror(errno));
        p->dir[0] = '\0';
        return;
    }
    if (sb_plot_write(a, p->dir, &p->list, err, sizeof err)) {
        snprintf(p->note, sizeof p->note, "No charts are shown: %s.", err);
        return;
    }
    FILE *devnull = fopen("/dev/null", "w");
    int failed = 0;
    for (int i = 0; i < p->list.n && !(p->interrupted = sb_interrupted() != 0); i++) {
        sb_plot_list one;
        memset(&one, 0, sizeof one);
        one.n = 1;
        memcpy(one.name[0], p->list.name[i], sizeof one.name[0]);
        p->rendered[i] = sb_plot_render(p->dir, &one, gnuplot, devnull ? devnull : stderr) == 1;
        failed += !p->rendered[i];
    }
    if (devnull)
        fclose(devnull);
    if (sb_interrupted())
        p->interrupted = 1;
    /* A plot that gnuplot could not draw is said, not silently missing. */
    if (failed)
        snprintf(p->note, sizeof p->note, "%d of %d charts are not shown: gnuplot (%.200s) failed "
                                          "on them or ran past its %g s limit (--plot DIR writes "
                                          "their data and scripts to try by hand).",
                 failed, p->list.n, gnuplot, sb_plot_time_limit());
}

static void remove_plots(plots *p)
{
    if (!p->dir[0])
        return;
    static const char *const ext[] = {"dat", "gp", "png", "svg"};
    for (int i = 0; i < p->list.n; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s.%s", p->dir, p->list.name[i], ext[e]);
            unlink(path);
        }
    rmdir(p->dir);
}

static void figures(const plots *p, const char *experiment, FILE *out)
{
    for (int i = 0; i < p->list.n; i++) {
        if (strcmp(p->list.experiment[i], experiment) != 0 || !p->rendered[i])
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s.svg", p->dir, p->list.name[i]);
        fputs("<figure>\n", out);
        if (inline_svg(path, out) == 0) {
            fputs("\n<figcaption>", out);
            esc(out, p->list.title[i]);
            fputs("</figcaption>", out);
        }
        fputs("</figure>\n", out);
    }
}

/* The page up to the first table: title, style, units, the verdict rule
 * when side by side, and why the plots are missing when they are. */
static void page_head(const sb_analysis *a, const plots *p, FILE *out)
{
    const sb_run *run = a->run;
    const sb_crossapi *x = &a->cross;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "simtbench ",
          out);
    esc(out, run->tool_version);
    fprintf(out, " results</title>\n<style>%s</style>\n</head>\n<body>\n<h1>simtbench ", style);
    esc(out, run->tool_version);
    fputs(" results</h1>\n<p>Run on ", out);
    esc(out, run->host);
    fputs(" at ", out);
    esc(out, run->date);
    fputs(". GB/s = 10<sup>9</sup> bytes/s of useful bytes read plus written over the median "
          "device-event time.</p>\n",
          out);
    if (run->interrupted)
        fputs("<p class=\"note\">Interrupted: only the results that finished before the "
              "signal.</p>\n",
              out);
    if (sb_crossapi_side_by_side(x)) {
        fputs("<p>Side by side against ", out);
        esc(out, x->label[x->reference]);
        fputs(": the speed ratio is the reference's median time over the other's (above 1, "
              "the other is faster). ",
              out);
        esc(out, SB_VERDICT_RULE);
        fputs("</p>\n", out);
    }
    fputs("<p>", out);
    esc(out, SB_NOISE_RULE);
    fputs("</p>\n", out);
    if (sb_fleet_possible(run)) {
        fputs("<p>Fleet: per variant, each group of like devices (one backend, one device "
              "name). ", out);
        esc(out, SB_OUTLIER_RULE);
        fputs("</p>\n", out);
    }
    if (p->note[0]) {
        fputs("<p class=\"note\">", out);
        esc(out, p->note);
        fputs("</p>\n", out);
    }
}

sb_report_writer sb_report_html;

/* After the last table: each device's drift check, and the paragraph
 * that says the run is mostly noisy. */
static void noise_block(const sb_analysis *a, FILE *out)
{
    char line[400];
    for (int s = 0; s < a->run->ndevices && s < SB_RUN_MAX_DEVICES; s++) {
        const sb_run_device *d = &a->run->devices[s];
        if (a->noise.drift[s] < 0)
            continue;
        fputs("<p class=\"drift\">", out);
        esc(out, a->cross.label[s]);
        fprintf(out, ": copy roof %.1f GB/s at the start, %.1f GB/s at the end: drift %.1f%%%s</p>\n",
                d->roof_start_gbs, d->roof_end_gbs, 100.0 * a->noise.drift[s],
                a->noise.drift[s] > a->noise.margin ? " (noisy)" : "");
    }
    if (sb_noise_summary(&a->noise, line, sizeof line) > 0) {
        fputs("<p class=\"noisy\"><strong>", out);
        esc(out, line);
        fputs("</strong></p>\n", out);
    }
}

/* What block e's numbers show, a paragraph each under its table. */
/* Experiment e's fleet (run/fleet.h): per variant and group of like
 * devices, the median, fastest, slowest and outliers, each outlier named
 * under the table. */
static void fleet_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_cross_experiment *ce = &a->cross.experiments[e];
    const sb_result *f = &a->run->results[ce->first];
    const sb_fleet *fl = &a->fleet;
    int rows = 0;
    for (size_t j = 0; j < ce->nrows && fl->nrows; j++)
        for (size_t k = 0; k < fl->count_of[ce->rows[j]]; k++) {
            sb_fleet_text t;
            sb_fleet_row_text(a, f, &fl->rows[fl->first_of[ce->rows[j]] + k], &t);
            if (!rows++)
                fprintf(out, "<h3>Fleet</h3>\n<table><tr><th>variant</th><th>devices</th>"
                             "<th>median %s</th><th>fastest</th><th>slowest</th>"
                             "<th>outliers</th></tr>\n",
                        sb_quantity_unit(f->quantity));
            fputs("<tr>", out);
            td(out, NULL, t.variant);
            td(out, NULL, t.group);
            td(out, "num", t.median);
            td(out, NULL, t.fastest);
            td(out, NULL, t.slowest);
            td(out, fl->rows[fl->first_of[ce->rows[j]] + k].noutliers ? "slower" : NULL,
               t.outliers);
            fputs("</tr>\n", out);
        }
    if (rows)
        fputs("</table>\n", out);
    for (size_t j = 0; j < ce->nrows && fl->nrows; j++)
        for (size_t k = 0; k < fl->count_of[ce->rows[j]]; k++) {
            const sb_fleet_row *fr = &fl->rows[fl->first_of[ce->rows[j]] + k];
            for (size_t o = 0; o < fr->noutliers; o++) {
                char text[1024];
                sb_fleet_outlier_text(a, fr, o, text, sizeof text);
                fputs("<p class=\"note\">", out);
                esc(out, text);
                fputs("</p>\n", out);
            }
        }
}

static void lessons_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_lessons *l = a->lessons ? &a->lessons[e] : NULL;
    for (int i = 0; l && i < l->n; i++) {
        fputs("<p class=\"lesson\"><b>Lesson:</b> ", out);
        esc(out, l->text[i]);
        fputs("</p>\n", out);
    }
}

int sb_report_html(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    const sb_run *run = a->run;
    plots *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    if (run->nresults > 0)
        make_plots(a, p);
    /* A signal while the charts render: no page at all, so that -o's file
       stays as it was; the caller says why and exits 128 + the signal. */
    if (p->interrupted) {
        snprintf(err, n, "interrupted while rendering the charts");
        remove_plots(p);
        free(p);
        return -1;
    }
    page_head(a, p, out);
    devices(run, out);
    unavailable(run, out);
    for (size_t e = 0; e < a->cross.nexperiments; e++) {
        const sb_cross_experiment *g = &a->cross.experiments[e];
        if (sb_crossapi_side_by_side(&a->cross))
            cross_table(a, &a->cross, g, out);
        else
            single_table(a, g, out);
        if (host_timed(run, g))
            host_table(run, &a->cross, g, out);
        lessons_block(a, e, out);
        fleet_block(a, e, out);
        figures(p, run->results[g->first].experiment, out);
    }
    noise_block(a, out);
    sb_summary_print(&a->summary, out, "<h2>Summary</h2>\n<ul class=\"summary\">\n", "<li>",
                     "</li>\n", "</ul>\n", esc);
    fputs("</body>\n</html>\n", out);
    remove_plots(p);
    free(p);
    return ferror(out) ? -1 : 0;
}
