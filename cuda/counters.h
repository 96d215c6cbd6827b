/* The CUDA backend's hardware counters: CUPTI's range profiler around one
 * launch, its counter data turned into metric values by CUPTI's profiler
 * host API.  libraries.c finds and opens libcupti (as it does NVRTC and
 * cuBLAS), launches.c makes the launch; this file knows CUPTI's protocol
 * and which metric gives each of backend.h's sb_counter counts. */
#ifndef SB_CUDA_COUNTERS_H
#define SB_CUDA_COUNTERS_H

#include <stddef.h>

#include "cuda_api.h"

typedef struct sb_cupti sb_cupti;

/* Take CUPTI's entry points from the opened library (file names it in
 * messages); 0, or -1 with why (n bytes) naming the first one missing. */
int sb_cupti_resolve(void *lib, const char *file, char *why, size_t n);

/* A profiler for the context of CUDA device ordinal, with every metric
 * the device accepts configured (the others give NaN); 0, or -1 with the
 * reason in why (n bytes).  The first call initialises CUPTI's profiler
 * for the process. */
int sb_cupti_open(sb_CUcontext ctx, int ordinal, sb_cupti **out, char *why, size_t n);

/* One collection, in passes (the metrics take several: the chip counts
 * only so many at once):
 *
 *   sb_cupti_begin; do { sb_cupti_pass_start; launch; sb_cupti_pass_stop }
 *   until every pass is submitted; sb_cupti_end
 *
 * By default the caller replays the launch itself, once a pass (CUPTI's
 * user replay): CUPTI's kernel replay saves every allocation of the
 * context, device and page-locked host memory alike, before the first
 * pass and restores it before each other one, which for the gigabytes a
 * run at a DRAM size holds costs far more than the kernel; the counts
 * held against the model (requests, sectors, wavefronts) depend on the
 * inputs and the grid, which no pass changes.  With kernel replay
 * (SIMTBENCH_CUPTI_REPLAY=kernel, or sb_cupti_kernel_replay) the first
 * pass is the only launch and submits every pass.  Each returns 0 or -1
 * with why (n bytes). */
int sb_cupti_begin(sb_cupti *p, char *why, size_t n);
int sb_cupti_pass_start(sb_cupti *p, char *why, size_t n);
int sb_cupti_pass_stop(sb_cupti *p, int *all_submitted, char *why, size_t n);

/* After the last pass: the metric values into counts[0..
 * SB_COUNTER_COUNT), NaN for each the device does not count; 0 or -1 with
 * why.  The profiler is ready for the next sb_cupti_begin. */
int sb_cupti_end(sb_cupti *p, double *counts, char *why, size_t n);

/* Whether the caller replays the launch (1), or CUPTI does (0). */
int sb_cupti_user_replay(const sb_cupti *p);

/* CUPTI's kernel replay from now on: where user replay fails. */
void sb_cupti_kernel_replay(sb_cupti *p);

/* Release the profiler (NULL is nothing); the context must still exist. */
void sb_cupti_close(sb_cupti *p);

/* The CUPTI metric that gives counter c ("" for none), for messages and
 * documentation. */
const char *sb_cupti_metric(int c);

#endif
