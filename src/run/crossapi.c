#include "run/crossapi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ptx_summary.h"

sb_verdict sb_verdict_of(const sb_stats *ref, const sb_stats *other, double threshold)
{
    sb_verdict v = {SB_VERDICT_NONE, 0.0, 0.0, 0.0, 0.0};
    if (!(ref->median > 0) || !(other->median > 0) || !isfinite(ref->median) ||
        !isfinite(other->median))
        return v;
    v.speed_ratio = ref->median / other->median;
    v.change = (other->median - ref->median) / ref->median;
    v.margin = fmax(ref->spread, other->spread) + (threshold > 0 ? threshold : 0.0);
    if (fabs(v.change) <= v.margin) {
        v.kind = SB_VERDICT_SAME;
        return v;
    }
    v.kind = other->median < ref->median ? SB_VERDICT_FASTER : SB_VERDICT_SLOWER;
    v.by = fmax(ref->median, other->median) / fmin(ref->median, other->median) - 1.0;
    return v;
}

int sb_verdict_text(const sb_verdict *v, const char *ref_name, const char *other_name, char *buf,
                    size_t n)
{
    switch (v->kind) {
    case SB_VERDICT_SAME:
        return snprintf(buf, n, "same (within %.1f%%)", 100.0 * v->margin);
    case SB_VERDICT_FASTER:
        return snprintf(buf, n, "%s faster by %.1f%%", other_name, 100.0 * v->by);
    case SB_VERDICT_SLOWER:
        return snprintf(buf, n, "%s faster by %.1f%%", ref_name, 100.0 * v->by);
    default:
        return snprintf(buf, n, "n/a");
    }
}

void sb_slot_label(const sb_run *run, int slot, char *buf, size_t n)
{
    const char *name = run->devices[slot].backend;
    int same = 0, nth = 0;
    for (int i = 0; i < run->ndevices; i++)
        if (strcmp(run->devices[i].backend, name) == 0) {
            same++;
            if (i <= slot)
                nth++;
        }
    if (same > 1)
        snprintf(buf, n, "%s#%d", name, nth);
    else
        snprintf(buf, n, "%s", name);
}

static int same_row(const sb_result *a, const sb_result *b)
{
    return strcmp(a->experiment, b->experiment) == 0 && strcmp(a->variant, b->variant) == 0 &&
           a->rows == b->rows && a->cols == b->cols;
}

/* Append "; what: ref R, other O" to the note when both compilers' figures
 * are known and differ: the same PTX can still be given other registers or
 * shared bytes (NVIDIA's OpenCL reserves shared bytes of its own, which
 * moves the kernel's arrays off their alignment).  Left out when it would
 * not fit whole. */
static void resource_note(const sb_crossapi *x, long ref, long other, const char *what, int slot,
                          char *buf, size_t n)
{
    if (ref < 0 || other < 0 || ref == other)
        return;
    size_t used = strlen(buf);
    int len = snprintf(buf + used, n - used, "%s%s: %s %ld, %s %ld", used ? "; " : "", what,
                       x->label[x->reference], ref, x->label[slot], other);
    if (len < 0 || (size_t)len >= n - used)
        buf[used] = '\0';
}

/* The PTX note of one slot against the reference, from the records' text
 * forms: both APIs' PTX is summarised when the run measures, so the report
 * needs no file. */
static void ptx_note(const sb_crossapi *x, const sb_result *ref, const sb_result *other,
                     int slot, int differ, char *buf, size_t n)
{
    buf[0] = '\0';
    int same = 0;
    if (ref->ptx_memory[0] && other->ptx_memory[0])
        same = sb_ptx_text_diff(ref->ptx_memory, x->label[x->reference], other->ptx_memory,
                                x->label[slot], buf, n);
    if (same == 1) {
        char rest[200];
        /* The rest of the PTX is named only where the times differ: the
           same few extra instructions in every kernel are noise where they
           cost nothing. */
        if (differ && sb_ptx_text_other(ref->ptx_memory, x->label[x->reference],
                                        other->ptx_memory, x->label[slot], rest,
                                        sizeof rest) == 1)
            snprintf(buf, n, "same memory instructions; %s", rest);
        else
            snprintf(buf, n, "same memory instructions");
    } else if (same == 2) {
        char typed[200];
        snprintf(typed, sizeof typed, "%s", buf);
        snprintf(buf, n, "same memory instructions, element types differ (%s)", typed);
    } else if (same < 0)
        snprintf(buf, n, "PTX summary unreadable");
    /* The compilers' allocations likewise: the shared bytes an OpenCL
       compiler reserves for itself are on every row, and matter on few. */
    if (!differ)
        return;
    resource_note(x, ref->regs, other->regs, "registers", slot, buf, n);
    resource_note(x, ref->shared_bytes, other->shared_bytes, "shared bytes", slot, buf, n);
    resource_note(x, ref->private_bytes, other->private_bytes, "private bytes", slot, buf, n);
}

int sb_crossapi_reference(const sb_run *run, const char *backend)
{
    if (!backend)
        return 0;
    for (int i = 0; i < run->ndevices && i < SB_RUN_MAX_DEVICES; i++)
        if (strcmp(run->devices[i].backend, backend) == 0)
            return i;
    return -1;
}

/* The rows: each result joins the first row of its variant and size that
 * has no result yet on its device, else starts one. */
static void pair_rows(const sb_run *run, sb_crossapi *x)
{
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        if (r->device_slot < 0 || r->device_slot >= x->ndevices)
            continue;
        sb_cross_row *row = NULL;
        for (size_t j = 0; j < x->nrows && !row; j++)
            if (same_row(&run->results[x->rows[j].first], r) &&
                x->rows[j].result[r->device_slot] < 0)
                row = &x->rows[j];
        if (!row) {
            row = &x->rows[x->nrows++];
            row->first = i;
            for (int s = 0; s < SB_RUN_MAX_DEVICES; s++)
                row->result[s] = -1;
        }
        row->result[r->device_slot] = (long)i;
    }
}

/* Each other device's verdict and PTX note against the reference's. */
static void judge_row(const sb_run *run, const sb_crossapi *x, sb_cross_row *row)
{
    long ri = row->result[x->reference];
    for (int s = 0; s < x->ndevices; s++) {
        if (s == x->reference || ri < 0 || row->result[s] < 0)
            continue;
        const sb_result *ref = &run->results[ri], *other = &run->results[row->result[s]];
        row->verdict[s] = sb_verdict_of(&ref->ms, &other->ms, 0.0);
        int differ = row->verdict[s].kind == SB_VERDICT_FASTER ||
                     row->verdict[s].kind == SB_VERDICT_SLOWER;
        ptx_note(x, ref, other, s, differ, row->ptx[s], sizeof row->ptx[s]);
    }
}

int sb_crossapi_build(const sb_run *run, int reference, sb_crossapi *x)
{
    memset(x, 0, sizeof *x);
    x->ndevices = run->ndevices < SB_RUN_MAX_DEVICES ? run->ndevices : SB_RUN_MAX_DEVICES;
    for (int i = 0; i < x->ndevices; i++)
        sb_slot_label(run, i, x->label[i], sizeof x->label[i]);
    x->reference = reference >= 0 && reference < x->ndevices ? reference : 0;
    if (run->nresults == 0)
        return 0;
    x->rows = calloc(run->nresults, sizeof *x->rows);
    if (!x->rows)
        return -1;
    pair_rows(run, x);
    for (size_t j = 0; j < x->nrows; j++)
        judge_row(run, x, &x->rows[j]);
    return 0;
}

void sb_crossapi_free(sb_crossapi *x)
{
    free(x->rows);
    memset(x, 0, sizeof *x);
}

int sb_crossapi_side_by_side(const sb_crossapi *x)
{
    return x->ndevices >= 2;
}

int sb_cross_row_in(const sb_run *run, const sb_cross_row *row, size_t first)
{
    return strcmp(run->results[row->first].experiment, run->results[first].experiment) == 0;
}
