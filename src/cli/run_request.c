/* The plan's request from the parsed options (run_request.h). */
#include "cli/run_request.h"

#include <stdio.h>
#include <string.h>

#include "exec/registry.h"

void sb_options_request(const sb_options *o, sb_run_request *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < sb_nknown_backends && r->nknown < SB_MAX_NAMES; i++)
        snprintf(r->known[r->nknown++], sizeof r->known[0], "%s", sb_known_backends[i]);
    r->nbackends = o->nbackends;
    memcpy(r->backends, o->backends, sizeof r->backends);
    r->nexperiments = o->nexperiments;
    memcpy(r->experiments, o->experiments, sizeof r->experiments);
    r->nvariants = o->nvariants;
    memcpy(r->variants, o->variants, sizeof r->variants);
    r->all_variants = o->all_variants;
    r->sample_every = o->sample_every;
    r->platform = o->platform;
    r->device_pick = o->device_pick;
    r->ndevice_list = o->ndevice_list;
    memcpy(r->device_list, o->device_list, sizeof r->device_list);
    r->serial = o->serial;
    r->rows = o->rows;
    r->cols = o->cols;
    r->reps = o->reps;
    r->warmup = o->warmup;
    r->seed = o->seed;
    r->quiet = o->quiet;
    r->counters = o->counters;
    r->output = o->output;
    r->save = o->save;
    r->plot_dir = o->plot_dir;
    r->ptx_dir = o->ptx_dir;
}
