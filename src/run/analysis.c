#include "run/analysis.h"

#include <string.h>

/* Shares of the roof and slowdowns need the whole run's rows. */
static void derive(sb_run *run)
{
    for (size_t i = 0; i < run->nresults; i++) {
        sb_result *r = &run->results[i];
        const sb_run_device *d = &run->devices[r->device_slot];
        double roof = d->memcpy_gbs > 0 ? d->memcpy_gbs : d->copy_gbs;
        if (r->quantity == SB_QUANTITY_BANDWIDTH && roof > 0)
            r->roof_share = r->value / roof;
        /* A kernel of intensity I cannot beat I x the copy roof while DRAM
           carries all the traffic I counts; above 100% means caches did. */
        if (r->quantity == SB_QUANTITY_FLOPS && roof > 0 && r->intensity > 0)
            r->roof_share = r->value / (r->intensity * roof);
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

/* The pairing, which is all a saved run gets: its figures were derived
   when it was measured. */
int sb_analyse_saved(const sb_run *run, const char *reference, sb_analysis *a)
{
    memset(a, 0, sizeof *a);
    a->run = run;
    int slot = sb_crossapi_reference(run, reference);
    if (slot < 0 && run->ndevices > 0)
        return SB_ANALYSIS_NO_REFERENCE;
    return sb_crossapi_build(run, slot, &a->cross) ? SB_ANALYSIS_NO_MEMORY : 0;
}

void sb_analysis_free(sb_analysis *a)
{
    sb_crossapi_free(&a->cross);
    memset(a, 0, sizeof *a);
}
