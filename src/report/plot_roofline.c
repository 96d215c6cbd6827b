#include "config.h"

#include "report/plot_parts.h"

#include <stdlib.h>
#include <string.h>

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
        sb_plot_gp_string(pf->gp, text[g]);
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
            sb_plot_gp_string(pf->gp, line);
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
                        sb_plot_dat_text(label, text, sizeof text));
            fprintf(pf->dat, "%.6g %.6g %d ", r->intensity, r->value,
                    variant_number(c, r->variant));
            sb_plot_dat_string(pf->dat, r->variant);
            fputc('\n', pf->dat);
        }
        if (!any)
            continue;
        sb_plot_cmd_add(cmd, "%s %s index %d using 1:2 with points pt %d ps 1.5 lc %d",
                block ? "," : "", pf->data, block, block ? 6 : 7, s + 1);
        sb_plot_cmd_title(cmd, label);
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
        double roof = sb_plot_device_roof(run, s);
        if (roof > 0) {
            snprintf(title, sizeof title, "%s memory roof: %.0f GB/s x intensity", label, roof);
            snprintf(style, sizeof style, "dt 2 lw 2 lc %d", s + 1);
            sb_plot_roof_line(pf, cmd, block++, title, lo / 2, roof * lo / 2, hi * 2, roof * hi * 2,
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
            sb_plot_roof_line(pf, cmd, block++, title, lo / 2, peak, hi * 2, peak, style);
        }
        double fma = run->devices[s].fma_gflops;
        if (fma > 0) {
            snprintf(title, sizeof title, "%s FMA peak measured: %.0f GFLOP/s (the compute "
                                          "family's fma_chains8)", label, fma);
            snprintf(style, sizeof style, "dt 3 lw 2 lc %d", s + 1);
            sb_plot_roof_line(pf, cmd, block++, title, lo / 2, fma, hi * 2, fma, style);
        }
    }
}

static int roofline_plot(const plot_ctx *c, const char *exp)
{
    char name[80], title[160], missing[160];
    sb_plot_stem(exp, "roofline", name, sizeof name);
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
    if (sb_plot_open_plot(c->dir, name, &pf, c->err, c->errn))
        return -1;
    pf.width = 1400;
    sb_plot_script_head(&pf, title);
    /* The key below, two lines clear of the x label: a key of one row
       (one device) otherwise touches it. */
    fputs("set logscale xy 2\nset xlabel 'arithmetic intensity (FLOP per byte of DRAM traffic)'\n"
          "set ylabel 'GFLOP/s'\nset key below height 2\n",
          pf.gp);
    fputs("# blocks: per device, the variants (intensity, GFLOP/s, key number, name); then per "
          "device its memory roof (copy roof x intensity), its compute roof (FP32 peak) and, "
          "where the run has it, its measured FMA peak\n",
          pf.dat);
    cmd_buf *cmd = sb_plot_new_command(&pf, c);
    if (!cmd)
        return -1;
    int blocks = roofline_points(c, &pf, cmd);
    roofline_roofs(c, lo, hi, blocks, &pf, cmd);
    if (*missing) {
        char why[256];
        snprintf(why, sizeof why, "no compute roof for %s: its FP32 lanes per unit are not known",
                 missing);
        fputs("set label at graph 0.02, graph 0.95 left front ", pf.gp);
        sb_plot_gp_string(pf.gp, why);
        fputc('\n', pf.gp);
    }
    roofline_key(c, &pf);
    return sb_plot_finish_plot(&pf, cmd, exp, title, c);
}

/* A roofline where the experiment measured GFLOP/s with an intensity. */
int sb_plot_roofline(const plot_ctx *c, int *plotted)
{
    int flops = 0;
    for (size_t i = 0; i < c->e->nresults && !flops; i++) {
        const sb_result *r = &c->run->results[c->e->results[i]];
        flops = r->intensity > 0 && r->quantity == SB_QUANTITY_FLOPS;
    }
    if (!flops)
        return 0;
    *plotted = 1;
    return roofline_plot(c, c->run->results[c->e->first].experiment);
}
