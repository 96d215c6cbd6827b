/* CSV: one header line, one line per result; every model field gets its own
 * column (prefixed m1_/m2_ for the first and second declared access). */
#include <string.h>

#include "report.h"

/* RFC 4180 quoting where a field needs it. */
static void field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        fputs(s, out);
    }
}

int sb_report_csv(const sb_run *run, FILE *out)
{
    fputs("backend,platform,device,driver,experiment,variant,kernel,params,rows,cols,"
          "grid,block,reps,median_ms,min_ms,max_ms,mean_ms,stddev_ms,spread,bytes,flops,"
          "intensity,unit,value,value_best,roof_share,slowdown,occupancy,verified,model",
          out);
    for (int m = 1; m <= 2; m++) {
        fprintf(out, ",m%d_label", m);
        for (size_t i = 0; sb_prediction_field_at(i); i++)
            fprintf(out, ",m%d_%s", m, sb_prediction_field_at(i)->name);
    }
    fputc('\n', out);
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        const sb_device_info *d = &run->devices[r->device_slot].info;
        char text[256];
        field(out, r->backend);
        fputc(',', out);
        field(out, d->platform);
        fputc(',', out);
        field(out, d->name);
        fputc(',', out);
        field(out, d->driver);
        fputc(',', out);
        field(out, r->experiment);
        fputc(',', out);
        field(out, r->variant);
        fputc(',', out);
        field(out, r->kernel);
        fputc(',', out);
        field(out, r->params);
        fprintf(out, ",%ld,%ld,%ux%ux%u,%ux%ux%u,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.5f,%.0f,%.0f,%.4f,",
                r->rows, r->cols, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
                r->block[2], r->reps, r->ms.median, r->ms.min, r->ms.max, r->ms.mean,
                r->ms.stddev, r->ms.spread, r->bytes, r->flops, r->intensity);
        field(out, r->unit);
        fprintf(out, ",%.4f,%.4f,%.5f,%.4f,%d,%d,", r->value, r->value_best, r->roof_share,
                r->slowdown, r->occupancy, r->verified);
        sb_result_model_text(r, text, sizeof text);
        field(out, text);
        for (int m = 0; m < 2; m++) {
            fputc(',', out);
            if (m < r->npatterns)
                field(out, r->pattern_label[m]);
            for (size_t f = 0; sb_prediction_field_at(f); f++) {
                const sb_prediction_field *pf = sb_prediction_field_at(f);
                fputc(',', out);
                if (m < r->npatterns) {
                    double v = sb_prediction_value(&r->prediction[m], pf);
                    if (pf->type == SB_FIELD_INT)
                        fprintf(out, "%.0f", v);
                    else
                        fprintf(out, "%.6f", v);
                }
            }
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
