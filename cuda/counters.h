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

/* Arm the profiler for the next launch in the context (one range, the
 * kernel replayed as many passes as the metrics need); 0 or -1 with why. */
int sb_cupti_begin(sb_cupti *p, char *why, size_t n);

/* After that launch returned: the metric values into counts[0..
 * SB_COUNTER_COUNT), NaN for each the device does not count; 0 or -1 with
 * why.  The profiler is ready for the next sb_cupti_begin. */
int sb_cupti_end(sb_cupti *p, double *counts, char *why, size_t n);

/* Release the profiler (NULL is nothing); the context must still exist. */
void sb_cupti_close(sb_cupti *p);

/* The CUPTI metric that gives counter c ("" for none), for messages and
 * documentation. */
const char *sb_cupti_metric(int c);

#endif
