#include "analysis/analysis.h"
#include "analysis/crossapi.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lessons.h"
#include "compute.h"
#include "experiments/experiment.h"
#include "model.h"

/* The headline figure of a record at one time per launch: what the
 * launch is worth (bytes, FLOP or accesses) over that time. */
static double headline(const sb_result *r, const sb_device_info *info, double ms)
{
    switch (r->quantity) {
    case SB_QUANTITY_BANDWIDTH:
        return r->bytes / (ms * 1e-3) / 1e9;
    case SB_QUANTITY_FLOPS:
        return r->flops / (ms * 1e-3) / 1e9;
    case SB_QUANTITY_ACCESS:
        /* Time one multiprocessor spends per warp-wide access, if the
           accesses are spread evenly: comparable across strides. */
        return r->accesses > 0
                   ? ms * 1e6 * (info->compute_units > 0 ? info->compute_units : 1) / r->accesses
                   : 0.0;
    case SB_QUANTITY_LATENCY:
        /* The loads of a chase wait for each other: the time is their sum. */
        return r->accesses > 0 ? ms * 1e6 / r->accesses : 0.0;
    case SB_QUANTITY_LAUNCH:
        return ms * 1e3;
    case SB_QUANTITY_ELEMENT: {
        /* The same for elements (rows x cols of them): one multiprocessor's
           time per element, so that sizes compare. */
        double elements = (double)r->rows * (double)r->cols;
        return elements > 0
                   ? ms * 1e6 * (info->compute_units > 0 ? info->compute_units : 1) / elements
                   : 0.0;
    }
    }
    return 0.0;
}

/* A latency is also said in cycles of the clock the device reports (set
   again, not added, each time the run is analysed). */
static void derive_headline(const sb_run *run, sb_result *r)
{
    const sb_device_info *info = &run->devices[r->device_slot].info;
    r->value = headline(r, info, r->ms.median);
    r->value_best = headline(r, info, r->ms.min);
    if (r->quantity == SB_QUANTITY_LATENCY && info->clock_mhz > 0 && r->value > 0)
        sb_figure_set(r->figure, &r->nfigures, "cycles_per_load",
                      r->value * info->clock_mhz * 1e-3, "cycles");
}

/* Latency is covered by what is resident, not by what is launched:
 * min(launched, multiprocessors x blocks per multiprocessor x block). */
static void derive_threads_in_flight(const sb_run *run, sb_result *r)
{
    int units = run->devices[r->device_slot].info.compute_units;
    r->threads_in_flight = -1;
    if (r->occupancy < 0 || units <= 0)
        return;
    double threads = (double)r->block[0] * r->block[1] * r->block[2];
    double launched = threads * r->grid[0] * r->grid[1] * r->grid[2];
    double resident = threads * r->occupancy * units;
    r->threads_in_flight = (long)(launched < resident ? launched : resident);
}

/* The model's prediction for each declared pattern (the executor refused
 * any the model rejects; one read back that it rejects keeps what it has),
 * and its totals over the launch where every access's requests are known. */
static void derive_predictions(sb_result *r)
{
    int known = r->npatterns > 0 && r->npatterns <= SB_MAX_PATTERNS;
    for (int i = 0; i < r->npatterns && i < SB_MAX_PATTERNS; i++) {
        sb_prediction p;
        if (sb_predict(&r->pattern[i], &p) == 0)
            r->prediction[i] = p;
        known &= r->pattern_requests[i] > 0;
    }
    sb_access_totals t;
    r->has_totals = known && sb_access_totals_of(r->pattern, r->pattern_requests,
                                                   r->pattern_kind, r->npatterns, &t) == 0;
    if (r->has_totals)
        r->totals = t;
}

/* Each device's roofs: the fastest API copy and copy kernel of its
 * bandwidth rows, and its FP32 FMA peak kernel.  Only ever raised, so
 * that a run read back (whose rows carry no role) keeps the roofs it was
 * saved with. */
static void derive_copy_roofs(sb_run *run)
{
    for (size_t i = 0; i < run->nresults; i++) {
        const sb_result *r = &run->results[i];
        sb_run_device *d = &run->devices[r->device_slot];
        if (r->role == SB_ROLE_COMPUTE_ROOF && r->quantity == SB_QUANTITY_FLOPS &&
            d->fma_gflops < r->value)
            d->fma_gflops = r->value;
        if (r->quantity != SB_QUANTITY_BANDWIDTH)
            continue;
        if (r->role == SB_ROLE_API_COPY && d->memcpy_gbs < r->value)
            d->memcpy_gbs = r->value;
        if (r->role == SB_ROLE_COPY_ROOF && d->copy_gbs < r->value)
            d->copy_gbs = r->value;
    }
}

/* The fastest row of role in r's experiment, at r's size, on r's device;
   0 where there is none. */
static double own_copy(const sb_run *run, const sb_result *r, int role)
{
    double best = 0;
    for (size_t j = 0; j < run->nresults; j++) {
        const sb_result *b = &run->results[j];
        if (b->role == role && b->quantity == SB_QUANTITY_BANDWIDTH &&
            b->device_slot == r->device_slot && b->rows == r->rows && b->cols == r->cols &&
            strcmp(b->experiment, r->experiment) == 0 && b->value > best)
            best = b->value;
    }
    return best;
}

/* What the shares of a device's rows are taken against, as the rows come
   in the run's order: the experiment's own API copy at the same size where
   it has one; else the fastest API copy measured before; else the same for
   copy kernels; else the roof the device was saved with.  A row's roof
   depends only on the rows before it and its own experiment's, so a block
   printed as soon as it is measured shows what the whole run's report
   shows. */
typedef struct roofs {
    double api[SB_RUN_MAX_DEVICES], copy[SB_RUN_MAX_DEVICES];
    double saved[SB_RUN_MAX_DEVICES]; /* the device's roof before this run's rows */
} roofs;

static double roof_of(const sb_run *run, const sb_result *r, roofs *so_far)
{
    double api = own_copy(run, r, SB_ROLE_API_COPY), copy = own_copy(run, r, SB_ROLE_COPY_ROOF);
    double roof = api > 0                           ? api
                  : so_far->api[r->device_slot] > 0 ? so_far->api[r->device_slot]
                  : copy > 0                        ? copy
                  : so_far->copy[r->device_slot] > 0 ? so_far->copy[r->device_slot]
                                                     : so_far->saved[r->device_slot];
    double *best = r->role == SB_ROLE_API_COPY    ? &so_far->api[r->device_slot]
                   : r->role == SB_ROLE_COPY_ROOF ? &so_far->copy[r->device_slot]
                                                  : NULL;
    if (best && r->quantity == SB_QUANTITY_BANDWIDTH && r->value > *best)
        *best = r->value;
    return roof;
}

/* Shares of the roof and slowdowns need the whole run's rows. */
static void derive(sb_run *run)
{
    for (size_t i = 0; i < run->nresults; i++) {
        sb_result *r = &run->results[i];
        derive_headline(run, r);
        derive_threads_in_flight(run, r);
        derive_predictions(r);
    }
    roofs so_far;
    memset(&so_far, 0, sizeof so_far);
    /* Only a run read back (its rows carry no roles) falls back on the
       roofs it was saved with: a run being measured is analysed again
       after each experiment, its devices' roofs raised by the last time. */
    int measured = 0;
    for (size_t i = 0; i < run->nresults; i++)
        measured |= run->results[i].role == SB_ROLE_API_COPY ||
                    run->results[i].role == SB_ROLE_COPY_ROOF;
    for (int i = 0; i < run->ndevices && !measured; i++) {
        const sb_run_device *d = &run->devices[i];
        so_far.saved[i] = d->memcpy_gbs > 0 ? d->memcpy_gbs : d->copy_gbs;
    }
    derive_copy_roofs(run);
    for (size_t i = 0; i < run->nresults; i++) {
        sb_result *r = &run->results[i];
        if (r->device_slot < 0 || r->device_slot >= run->ndevices)
            continue;
        double roof = roof_of(run, r, &so_far);
        r->roof_share = 0;
        if (r->quantity == SB_QUANTITY_BANDWIDTH && roof > 0)
            r->roof_share = r->value / roof;
        /* A kernel of intensity I cannot beat I x the copy roof while DRAM
           carries all the traffic I counts; above 100% means caches did. */
        if (r->quantity == SB_QUANTITY_FLOPS && roof > 0 && r->intensity > 0)
            r->roof_share = r->value / (r->intensity * roof);
        /* A row that implies no memory traffic is bound by arithmetic:
           its share is of the theoretical FP32 peak. */
        double peak = sb_device_fp32_peak_gflops(&run->devices[r->device_slot].info);
        if (r->quantity == SB_QUANTITY_FLOPS && !(r->intensity > 0) && peak > 0)
            r->roof_share = r->value / peak;
        for (size_t j = 0; j < run->nresults; j++) {
            const sb_result *b = &run->results[j];
            if (b->baseline && b->group == r->group && b->device_slot == r->device_slot &&
                strcmp(b->experiment, r->experiment) == 0 && b->ms.median > 0) {
                r->slowdown = r->ms.median / b->ms.median;
                break;
            }
        }
    }
}

int sb_analyse(sb_run *run, const char *reference, sb_analysis *a)
{
    derive(run);
    return sb_analyse_saved(run, reference, a);
}

/* The pairing and the memory hierarchy, which is all a saved run gets:
   its figures were derived when it was measured. */
int sb_analyse_saved(const sb_run *run, const char *reference, sb_analysis *a)
{
    memset(a, 0, sizeof *a);
    a->run = run;
    for (int s = 0; s < run->ndevices && s < SB_RUN_MAX_DEVICES; s++)
        sb_memory_levels_of(run, s, &a->memory[s]);
    int slot = sb_crossapi_reference(run, reference);
    if (slot < 0 && run->ndevices > 0)
        return SB_ANALYSIS_NO_REFERENCE;
    if (sb_noise_build(run, 0.0, &a->noise) ||
        sb_crossapi_build_judged(run, slot, &a->noise, &a->cross) ||
        sb_fleet_build(run, &a->cross, &a->fleet))
        return SB_ANALYSIS_NO_MEMORY;
    /* Only a run that asked for counters has checks to hold. */
    int asked = 0;
    for (size_t i = 0; i < run->nresults && !asked; i++)
        asked = run->results[i].counted || run->results[i].counters_note[0];
    if (asked && !(a->checks = calloc(run->nresults, sizeof *a->checks)))
        return SB_ANALYSIS_NO_MEMORY;
    for (size_t i = 0; asked && i < run->nresults; i++)
        sb_counter_check_of(&run->results[i], &a->checks[i]);
    /* Then the summary, which quotes the pairing and the checks; last the
       lessons, drawn from all of it. */
    if (sb_summary_of(run, &a->cross, a->checks, &a->noise, &a->summary))
        return SB_ANALYSIS_NO_MEMORY;
    return sb_lessons_draw(a) ? SB_ANALYSIS_NO_MEMORY : 0;
}

void sb_analysis_free(sb_analysis *a)
{
    free(a->checks);
    free(a->lessons);
    sb_noise_free(&a->noise);
    sb_fleet_free(&a->fleet);
    sb_crossapi_free(&a->cross);
    memset(a, 0, sizeof *a);
}
