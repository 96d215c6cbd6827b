#include "config.h"

#include "report/plot_parts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dram.h"
#include "file_name.h"
#include "report/gnuplot_text.h"

/* ---------------------------------------------------------------- helpers */

/* A file stem from an experiment name: nothing a shell or gnuplot would
 * read specially (file_name.h). */
void sb_plot_stem(const char *experiment, const char *kind, char *buf, size_t n)
{
    const char *const parts[] = {experiment, kind};
    sb_file_name(buf, n, '-', parts, 2, "experiment");
}

/* s in a script, in gnuplot's single quotes (gnuplot_text.h). */
void sb_plot_gp_string(FILE *f, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    fputs(sb_gp_quote(s, '\'', q, sizeof q), f);
}

/* s as a string column of a data file, in double quotes. */
void sb_plot_dat_string(FILE *f, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    fputs(sb_gp_quote(s, '"', q, sizeof q), f);
}

/* s in a data file's comment, one line: the bare text. */
const char *sb_plot_dat_text(const char *s, char *buf, size_t n)
{
    return sb_gp_quote(s, 0, buf, n);
}

/* "set WHAT 'TEXT'", TEXT quoted; for text made from a run's strings. */
void sb_plot_gp_set(FILE *f, const char *what, const char *text)
{
    fprintf(f, "set %s ", what);
    sb_plot_gp_string(f, text);
    fputc('\n', f);
}

/* A file name in a script, quoted: "NAME.EXT". */
void sb_plot_gp_file(FILE *f, const char *name, const char *ext)
{
    char file[96];
    snprintf(file, sizeof file, "%s.%s", name, ext);
    sb_plot_gp_string(f, file);
}

int sb_plot_make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}


int sb_plot_open_plot(const char *dir, const char *name, plot_files *pf, char *err, size_t n)
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
void sb_plot_abandon_plot(plot_files *pf)
{
    sb_output_abort(&pf->dat_file);
    sb_output_abort(&pf->gp_file);
}

/* The script's head: what it is, how to run it, and the shared settings. */
void sb_plot_script_head(plot_files *pf, const char *title)
{
    char text[SB_GP_QUOTED_MAX];
    fputs("# simtbench plot: ", pf->gp);
    sb_plot_gp_string(pf->gp, title);
    /* The name is a stem (sb_plot_stem()): letters, digits, '-' and '_' alone. */
    fprintf(pf->gp, "\n# Render from this directory: gnuplot %s.gp (writes %s.png and %s.svg)\n",
            pf->name, pf->name, pf->name);
    /* No encoding: the text is ASCII (gnuplot_text.h), and `set encoding
       utf8` warns in a locale without UTF-8. */
    fputs("set datafile missing '?'\nset termoption noenhanced\n", pf->gp);
    fputs("set title ", pf->gp);
    sb_plot_gp_string(pf->gp, title);
    fputs("\nset key below\nset grid\n", pf->gp);
    fprintf(pf->dat, "# simtbench plot data: %s\n", sb_plot_dat_text(title, text, sizeof text));
}

/* Two outputs from one plot command, PNG (cairo when built in) and SVG. */
void sb_plot_script_outputs(plot_files *pf, const char *plot_command)
{
    fprintf(pf->gp,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "    set terminal pngcairo size %d,%d noenhanced\n"
            "} else {\n"
            "    set terminal png size %d,%d noenhanced\n"
            "}\n"
            "set output ",
            pf->width, pf->height, pf->width, pf->height);
    sb_plot_gp_file(pf->gp, pf->name, "png");
    fprintf(pf->gp, "\n%s\nset terminal svg size %d,%d noenhanced background rgb 'white'\n"
                    "set output ",
            plot_command, pf->width, pf->height);
    sb_plot_gp_file(pf->gp, pf->name, "svg");
    fprintf(pf->gp, "\n%s\nunset output\n", plot_command);
}

/* Both files complete: each renamed over its target. */
int sb_plot_close_plot(plot_files *pf, char *err, size_t n)
{
    if (sb_output_commit(&pf->dat_file, err, n)) {
        sb_output_abort(&pf->gp_file);
        return -1;
    }
    return sb_output_commit(&pf->gp_file, err, n);
}

void sb_plot_list_add(sb_plot_list *list, const char *exp, const char *name, const char *title)
{
    if (list->n >= SB_PLOT_MAX)
        return;
    snprintf(list->experiment[list->n], sizeof list->experiment[0], "%s", exp);
    snprintf(list->name[list->n], sizeof list->name[0], "%s", name);
    snprintf(list->title[list->n], sizeof list->title[0], "%s", title);
    list->n++;
}


void sb_plot_cmd_add(cmd_buf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void sb_plot_cmd_add(cmd_buf *c, const char *fmt, ...)
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
void sb_plot_cmd_title(cmd_buf *c, const char *s)
{
    char q[SB_GP_QUOTED_MAX];
    sb_plot_cmd_add(c, " title %s", sb_gp_quote(s, '\'', q, sizeof q));
}


/* The copy roof device slot measured in this run; 0 when it measured none. */
double sb_plot_device_roof(const sb_run *run, int slot)
{
    return sb_device_copy_roof(&run->devices[slot]);
}

/* A plot command to build, starting "plot"; on failure the plot's files
 * are closed and err says why. */
cmd_buf *sb_plot_new_command(plot_files *pf, const plot_ctx *c)
{
    cmd_buf *cmd = calloc(1, sizeof *cmd);
    if (cmd && !(cmd->text = malloc(cmd->size = 4096))) {
        free(cmd);
        cmd = NULL;
    }
    if (!cmd) {
        sb_plot_abandon_plot(pf);
        snprintf(c->err, c->errn, "out of host memory");
        return NULL;
    }
    sb_plot_cmd_add(cmd, "plot");
    return cmd;
}

/* The end of every plot: the outputs, the list entry, the files closed. */
int sb_plot_finish_plot(plot_files *pf, cmd_buf *cmd, const char *exp, const char *title,
                       const plot_ctx *c)
{
    int failed = cmd->failed;
    if (!failed)
        sb_plot_script_outputs(pf, cmd->text);
    free(cmd->text);
    free(cmd);
    if (failed) {
        sb_plot_abandon_plot(pf);
        snprintf(c->err, c->errn, "out of host memory");
        return -1;
    }
    sb_plot_list_add(c->list, exp, pf->name, title);
    return sb_plot_close_plot(pf, c->err, c->errn);
}

/* One roof line as a block of two points and its curve in the command. */
void sb_plot_roof_line(plot_files *pf, cmd_buf *cmd, int block, const char *title, double x0,
                       double y0, double x1, double y1, const char *style)
{
    char text[SB_GP_QUOTED_MAX];
    fprintf(pf->dat, "\n\n# %s\n%.6g %.6g\n%.6g %.6g\n",
            sb_plot_dat_text(title, text, sizeof text), x0,
            y0, x1, y1);
    sb_plot_cmd_add(cmd, ", %s index %d using 1:2 with lines %s", pf->data, block, style);
    sb_plot_cmd_title(cmd, title);
}
