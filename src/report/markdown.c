/* Markdown, for pasting into an issue or a paper: a devices table, then a
 * pipe table per experiment, side by side when the run has two or more
 * devices.  Names are escaped so that a '|' or '<' in a device or variant
 * name cannot break the table. */
#include <stdlib.h>
#include <string.h>

#include "text.h"

#include "report/describe.h"
#include "analysis/lessons.h"
#include "report/report.h"
#include "report/summary_print.h"

/* One cell: pipes and backslashes escaped, HTML-significant characters as
 * entities (GitHub renders raw HTML), newlines flattened, and any other
 * control character shown as an escape (sb_text_visible): the page is
 * often read on the terminal it is printed on. */
static void cell(FILE *out, const char *raw)
{
    size_t size = sb_text_visible_size(raw);
    char *shown = malloc(size);
    const char *s = shown ? sb_text_visible(raw, shown, size) : "";
    for (; *s; s++) {
        switch (*s) {
        case '|':
            fputs("\\|", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '`':
            fputs("\\`", out);
            break;
        case '*':
            fputs("\\*", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '\n':
        case '\r':
            fputc(' ', out);
            break;
        default:
            fputc(*s, out);
        }
    }
    free(shown);
}

static void devices(const sb_run *run, FILE *out)
{
    fputs("## Devices\n\n"
          "| slot | backend | device | platform | API | driver | arch | units | "
          "peak GB/s | API copy GB/s | which |\n"
          "|---|---|---|---|---|---|---|---:|---:|---:|---|\n",
          out);
    for (int i = 0; i < run->ndevices; i++) {
        const sb_run_device *d = &run->devices[i];
        char label[SB_SLOT_LABEL];
        sb_slot_label(run, i, label, sizeof label);
        const char *fields[] = {label, d->backend, d->info.name, d->info.platform,
                                d->info.api_version, d->info.driver[0] ? d->info.driver : "unknown",
                                d->info.arch};
        fputc('|', out);
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            fputc(' ', out);
            cell(out, fields[f]);
            fputs(" |", out);
        }
        double peak = sb_device_peak_gbs(&d->info);
        fprintf(out, " %d |", d->info.compute_units);
        if (peak > 0)
            fprintf(out, " %.0f |", peak);
        else
            fputs(" not exposed |", out);
        if (d->memcpy_gbs > 0)
            fprintf(out, " %.1f |", d->memcpy_gbs);
        else
            fputs(" - |", out);
        char which[1024];
        sb_device_identity_text(run, i, which, sizeof which);
        fputc(' ', out);
        cell(out, which);
        fputs(" |\n", out);
    }
}

static void heading(const sb_result *f, FILE *out)
{
    fputs("\n## ", out);
    cell(out, f->experiment);
    fprintf(out, " %ldx%ld\n\n%d repetitions after %d warm-ups; every row verified.\n\n", f->rows,
            f->cols, f->reps, f->warmup);
}

static void variant_cell(const sb_result *f, const sb_result *r, FILE *out)
{
    cell(out, r->variant);
    if (r->rows != f->rows || r->cols != f->cols)
        fprintf(out, " (%ldx%ld)", r->rows, r->cols);
}

static void single_table(const sb_analysis *a, const sb_cross_experiment *e, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    heading(f, out);
    fputs("| variant | backend | median ms | min ms | max ms | spread | ", out);
    cell(out, sb_quantity_unit(f->quantity));
    fputs(" | best | roof % | model |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n", out);
    for (size_t i = 0; i < e->nresults; i++) {
        const sb_result *r = &run->results[e->results[i]];
        char model[SB_MODEL_TEXT];
        sb_result_model_text(r, model, sizeof model);
        fputs("| ", out);
        variant_cell(f, r, out);
        fputs(" | ", out);
        cell(out, r->backend);
        char spread[48], roof[48];
        sb_noise_cells(&a->noise, e->results[i], r, spread, roof, sizeof spread);
        fprintf(out, " | %.4f | %.4f | %.4f | %s | %.2f | %.2f | %s | ", r->ms.median, r->ms.min,
                r->ms.max, spread, r->value, r->value_best, roof);
        cell(out, model);
        fputs(" |\n", out);
    }
}

/* The side-by-side table's header and its alignment line. */
static void cross_header(const sb_crossapi *x, const sb_result *f, int any_ptx, FILE *out)
{
    const int ref = x->reference;
    fputs("| variant |", out);
    for (int s = 0; s < x->ndevices; s++) {
        fprintf(out, " %s ms: median (min-max, spread) | %s ", x->label[s], x->label[s]);
        cell(out, sb_quantity_unit(f->quantity));
        fprintf(out, " | %s roof %% |", x->label[s]);
    }
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref)
            fprintf(out, " %s/%s | verdict | 95%% interval |", x->label[s], x->label[ref]);
    fputs(" model |", out);
    if (any_ptx)
        fputs(" PTX memory instructions |", out);
    fputs("\n|---|", out);
    for (int s = 0; s < x->ndevices; s++)
        fputs("---:|---:|---:|", out);
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref)
            fputs("---:|---|---|", out);
    fputs(any_ptx ? "---|---|\n" : "---|\n", out);
}

/* Each device's median, figure and roof share; "-" where it has no result. */
static void device_cells(const sb_analysis *a, const sb_crossapi *x, const sb_cross_row *row,
                         FILE *out)
{
    const sb_run *run = a->run;
    for (int s = 0; s < x->ndevices; s++) {
        if (row->result[s] < 0) {
            fputs(" - | - | - |", out);
            continue;
        }
        const sb_result *r = &run->results[row->result[s]];
        char spread[48], roof[48];
        sb_noise_cells(&a->noise, (size_t)row->result[s], r, spread, roof,
                       sizeof spread);
        fprintf(out, " %.4f (%.4f-%.4f, %s) | %.2f | %s |", r->ms.median, r->ms.min, r->ms.max,
                spread, r->value, roof[0] ? roof : "-");
    }
}

/* Each other device's speed ratio, verdict and interval against the
 * reference. */
static void verdict_cells(const sb_crossapi *x, const sb_cross_row *row, FILE *out)
{
    const int ref = x->reference;
    for (int s = 0; s < x->ndevices; s++) {
        if (s == ref)
            continue;
        char verdict[96], interval[48];
        sb_verdict_text(&row->verdict[s], x->label[ref], x->label[s], verdict, sizeof verdict);
        sb_verdict_interval_text(&row->verdict[s], SB_INTERVAL_SPEED, interval, sizeof interval);
        if (row->verdict[s].kind != SB_VERDICT_NONE)
            fprintf(out, " %.3f | ", row->verdict[s].speed_ratio);
        else
            fputs(" - | ", out);
        cell(out, verdict);
        fputs(" | ", out);
        cell(out, interval[0] ? interval : "-");
        fputs(" |", out);
    }
}

static void cross_line(const sb_analysis *a, const sb_crossapi *x, const sb_result *f,
                       const sb_cross_row *row, int any_ptx, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *any = &run->results[row->first];
    fputs("| ", out);
    variant_cell(f, any, out);
    fputs(" |", out);
    device_cells(a, x, row, out);
    verdict_cells(x, row, out);
    char model[SB_MODEL_TEXT];
    sb_result_model_text(any, model, sizeof model);
    fputc(' ', out);
    cell(out, model);
    fputs(" |", out);
    if (any_ptx) {
        fputc(' ', out);
        for (int s = 0, listed = 0; s < x->ndevices; s++)
            if (s != x->reference && row->ptx[s][0]) {
                if (listed++)
                    fputs("; ", out);
                cell(out, row->ptx[s]);
            }
        fputs(" |", out);
    }
    fputc('\n', out);
}

static void cross_table(const sb_analysis *a, const sb_crossapi *x,
                        const sb_cross_experiment *e, FILE *out)
{
    const sb_run *run = a->run;
    const sb_result *f = &run->results[e->first];
    int any_ptx = 0;
    for (size_t j = 0; j < e->nrows; j++)
        for (int s = 0; s < x->ndevices; s++)
            any_ptx |= x->rows[e->rows[j]].ptx[s][0] != '\0';
    heading(f, out);
    cross_header(x, f, any_ptx, out);
    for (size_t j = 0; j < e->nrows; j++)
        cross_line(a, x, f, &x->rows[e->rows[j]], any_ptx, out);
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
        fputs(" - | - | - | - |", out);
        return;
    }
    fprintf(out, " %.4f | %.4f | %.1f%% | %.0f (%d queued) |", r->ms.median,
            r->host_observed.median,
            100.0 * sb_host_deficit(r->host_observed.median, r->ms.median), r->launches_per_s,
            r->queued_launches);
}

/* Kernel time and host-observed time side by side, per device, with the
 * verdict on the host's times against the reference: where an API's
 * launch overhead lives. */
static void host_table(const sb_run *run, const sb_crossapi *x, const sb_cross_experiment *e,
                       FILE *out)
{
    const sb_result *f = &run->results[e->first];
    const int ref = x->reference;
    fputs("\nDevice-event time against the host-observed time of one launch (enqueue to "
          "completion on the host's monotonic clock, as a host-timed benchmark sees it):\n\n"
          "| variant |", out);
    for (int s = 0; s < x->ndevices; s++)
        fprintf(out, " %s device ms | %s host ms | %s unseen | %s launches/s |", x->label[s],
                x->label[s], x->label[s], x->label[s]);
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref)
            fprintf(out, " host %s/%s | host verdict |", x->label[s], x->label[ref]);
    fputs("\n|---|", out);
    for (int s = 0; s < x->ndevices; s++)
        fputs("---:|---:|---:|---:|", out);
    for (int s = 0; s < x->ndevices; s++)
        if (s != ref)
            fputs("---:|---|", out);
    fputc('\n', out);
    for (size_t j = 0; j < e->nrows; j++) {
        const sb_cross_row *row = &x->rows[e->rows[j]];
        fputs("| ", out);
        variant_cell(f, &run->results[row->first], out);
        fputs(" |", out);
        for (int s = 0; s < x->ndevices; s++)
            host_device_cells(row->result[s] >= 0 ? &run->results[row->result[s]] : NULL, out);
        for (int s = 0; s < x->ndevices; s++) {
            if (s == ref)
                continue;
            const sb_verdict *v = &row->host_verdict[s];
            char text[96];
            sb_verdict_text(v, x->label[ref], x->label[s], text, sizeof text);
            if (v->kind != SB_VERDICT_NONE)
                fprintf(out, " %.3f | ", v->speed_ratio);
            else
                fputs(" - | ", out);
            cell(out, text);
            fputs(" |", out);
        }
        fputc('\n', out);
    }
}

/* What block e's numbers show, a paragraph each under its table. */
static void lessons_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_lessons *l = a->lessons ? &a->lessons[e] : NULL;
    for (int i = 0; l && i < l->n; i++) {
        fputs("\n**Lesson:** ", out);
        cell(out, l->text[i]);
        fputc('\n', out);
    }
}

/* Experiment e's fleet (run/fleet.h): per variant and group of like
 * devices, the median, fastest, slowest and outliers, each outlier named
 * in a list under the table. */
static void fleet_block(const sb_analysis *a, size_t e, FILE *out)
{
    const sb_cross_experiment *ce = &a->cross.experiments[e];
    const sb_result *f = &a->run->results[ce->first];
    const sb_fleet *fl = &a->fleet;
    int rows = 0;
    for (size_t j = 0; j < ce->nrows && fl->nrows; j++)
        for (size_t k = 0; k < fl->count_of[ce->rows[j]]; k++) {
            const sb_fleet_row *fr = &fl->rows[fl->first_of[ce->rows[j]] + k];
            sb_fleet_text t;
            sb_fleet_row_text(a, f, fr, &t);
            if (!rows++)
                fprintf(out, "\n**Fleet**\n\n| variant | devices | median %s | fastest | slowest "
                             "| outliers |\n|---|---|---:|---|---|---|\n",
                        sb_quantity_unit(f->quantity));
            const char *cells[] = {t.variant, t.group, t.median, t.fastest, t.slowest,
                                   t.outliers};
            for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
                fputs(c ? " | " : "| ", out);
                cell(out, cells[c]);
            }
            fputs(" |\n", out);
        }
    int listed = 0;
    for (size_t j = 0; j < ce->nrows && fl->nrows; j++)
        for (size_t k = 0; k < fl->count_of[ce->rows[j]]; k++) {
            const sb_fleet_row *fr = &fl->rows[fl->first_of[ce->rows[j]] + k];
            for (size_t o = 0; o < fr->noutliers; o++) {
                char text[1024];
                sb_fleet_outlier_text(a, fr, o, text, sizeof text);
                fputs(listed++ ? "- " : "\n- ", out);
                cell(out, text);
                fputc('\n', out);
            }
        }
}

/* The backends this simtbench has that the run left out, and why. */
static void unavailable(const sb_run *run, FILE *out)
{
    if (run->nunavailable <= 0)
        return;
    fputs("\nNot run here:\n\n", out);
    for (int i = 0; i < run->nunavailable && i < SB_RUN_MAX_DEVICES; i++) {
        fputs("- ", out);
        cell(out, run->unavailable[i].backend);
        fputs(": ", out);
        cell(out, run->unavailable[i].reason);
        fputc('\n', out);
    }
}

/* Under the last table: each device's drift check, and the line that
 * says the run is mostly noisy. */
static void noise_block(const sb_analysis *a, FILE *out)
{
    char line[400];
    int header = 0;
    for (int s = 0; s < a->run->ndevices && s < SB_RUN_MAX_DEVICES; s++) {
        const sb_run_device *d = &a->run->devices[s];
        if (a->noise.drift[s] < 0)
            continue;
        if (!header++)
            fputs("\n## Noise\n\n", out);
        fputs("- ", out);
        cell(out, a->cross.label[s]);
        fprintf(out, ": copy roof %.1f GB/s at the start, %.1f GB/s at the end: drift %.1f%%%s\n",
                d->roof_start_gbs, d->roof_end_gbs, 100.0 * a->noise.drift[s],
                a->noise.drift[s] > a->noise.margin ? " (noisy)" : "");
    }
    if (sb_noise_summary(&a->noise, line, sizeof line) > 0)
        fprintf(out, "%s**%s**\n", header ? "\n" : "\n## Noise\n\n", line);
}

sb_report_writer sb_report_markdown;

int sb_report_markdown(const sb_analysis *a, FILE *out, char *err, size_t n)
{
    (void)err, (void)n; /* nothing a text format cannot hold */
    const sb_run *run = a->run;
    const sb_crossapi *x = &a->cross;
    fputs("# simtbench ", out);
    cell(out, run->tool_version);
    fputs(" results\n\n", out);
    fputs("Run on ", out);
    cell(out, run->host);
    fputs(" at ", out);
    cell(out, run->date);
    fputs(". GB/s = 10^9 bytes/s of useful bytes read plus written over the median "
          "device-event time.\n",
          out);
    if (run->interrupted)
        fputs("Interrupted: only the results that finished before the signal.\n", out);
    if (sb_crossapi_side_by_side(x))
        fprintf(out, "Side by side against %s: X/%s is the speed ratio (above 1: X is faster), "
                     "with its 95%% interval. %s\n",
                x->label[x->reference], x->label[x->reference], SB_VERDICT_RULE);
    fprintf(out, "%s\n", SB_NOISE_RULE);
    if (sb_fleet_possible(run))
        fprintf(out, "Fleet: per variant, each group of like devices (one backend, one device "
                     "name). %s\n", SB_OUTLIER_RULE);
    fputc('\n', out);
    devices(run, out);
    unavailable(run, out);
    for (size_t e = 0; e < x->nexperiments; e++) {
        if (sb_crossapi_side_by_side(x))
            cross_table(a, x, &x->experiments[e], out);
        else
            single_table(a, &x->experiments[e], out);
        if (host_timed(run, &x->experiments[e]))
            host_table(run, x, &x->experiments[e], out);
        lessons_block(a, e, out);
        fleet_block(a, e, out);
    }
    noise_block(a, out);
    sb_summary_print(&a->summary, out, "\n## Summary\n\n", "- ", "\n", "", cell);
    return ferror(out) ? -1 : 0;
}
