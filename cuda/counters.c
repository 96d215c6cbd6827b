#include "counters.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cupti_api.h"

static struct {
#define DECLARE(f) sb_##f##_fn f;
    SB_CUPTI_CALLS(DECLARE)
#undef DECLARE
} cupti;

/* The metric for each sb_counter, in its order: the names Nsight Compute
 * uses for the same quantities, so that its reports and ours can be held
 * side by side. */
static const char *const metric_of[SB_COUNTER_COUNT] = {
    [SB_COUNTER_GLOBAL_LD_REQUESTS] = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    [SB_COUNTER_GLOBAL_ST_REQUESTS] = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    [SB_COUNTER_GLOBAL_LD_SECTORS] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    [SB_COUNTER_GLOBAL_ST_SECTORS] = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    [SB_COUNTER_GLOBAL_ATOM_REQUESTS] = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    /* The SASS count, not smsp__inst_executed_op_shared_*: that one also
       counts a warp whose every lane the predicate turned off (a guard the
       compiler predicated, lane 0 storing a block's flag), which makes no
       access; this one counts the instructions a lane executed, the
       requests the model's addresses make. */
    [SB_COUNTER_SHARED_LD_REQUESTS] = "smsp__sass_inst_executed_op_shared_ld.sum",
    [SB_COUNTER_SHARED_ST_REQUESTS] = "smsp__sass_inst_executed_op_shared_st.sum",
    [SB_COUNTER_SHARED_LD_WAVEFRONTS] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    [SB_COUNTER_SHARED_ST_WAVEFRONTS] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    [SB_COUNTER_SHARED_LD_CONFLICTS] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    [SB_COUNTER_SHARED_ST_CONFLICTS] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    [SB_COUNTER_DRAM_READ_BYTES] = "dram__bytes_read.sum",
    [SB_COUNTER_DRAM_WRITE_BYTES] = "dram__bytes_write.sum",
    [SB_COUNTER_L2_HIT_PCT] = "lts__t_sector_hit_rate.pct",
    [SB_COUNTER_WARPS_ACTIVE_PCT] = "sm__warps_active.avg.pct_of_peak_sustained_active",
    [SB_COUNTER_THREADS_PER_INST] = "smsp__thread_inst_executed_per_inst_executed.ratio",
};

/* Global reductions (red) are atomics whose result is not returned; the
 * atomics count adds them. */
static const char *const reductions_metric = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";

struct sb_cupti {
    sb_CUcontext ctx;
    sb_CUpti_Profiler_Host_Object *host;
    sb_CUpti_RangeProfiler_Object *range;
    const char *metric[SB_COUNTER_COUNT + 1]; /* the accepted metrics */
    int counter[SB_COUNTER_COUNT + 1];        /* the counter each gives; -1 for red */
    size_t nmetrics;
    uint8_t *config, *data;
    size_t config_size, data_size;
    sb_CUpti_ProfilerReplayMode replay; /* user replay, or CUPTI's kernel replay */
};

const char *sb_cupti_metric(int c)
{
    return c >= 0 && c < SB_COUNTER_COUNT && metric_of[c] ? metric_of[c] : "";
}

int sb_cupti_resolve(void *lib, const char *file, char *why, size_t n)
{
#define RESOLVE(f)                                                                       \
    if (!(cupti.f = (sb_##f##_fn)dlsym(lib, #f))) {                                      \
        snprintf(why, n, "CUPTI %s lacks %s: %s or newer is needed", file, #f,           \
                 SB_CUPTI_OLDEST);                                                       \
        memset(&cupti, 0, sizeof cupti);                                                 \
        return -1;                                                                       \
    }
    SB_CUPTI_CALLS(RESOLVE)
#undef RESOLVE
    return 0;
}

/* Non-zero for a failed call, with "CALL: CUPTI's words" in why. */
static int failed(sb_CUptiResult r, char *why, size_t n, const char *fmt, ...)
{
    if (r == SB_CUPTI_SUCCESS)
        return 0;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *text = NULL;
    if (cupti.cuptiGetResultString(r, &text) != SB_CUPTI_SUCCESS || !text)
        text = "unknown error";
    if (r == SB_CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        snprintf(why, n, "%s: %s (error %u): profiling needs root, or the driver's "
                 "NVreg_RestrictProfilingToAdminUsers=0", what, text, r);
    else
        snprintf(why, n, "%s: %s (error %u)", what, text, r);
    return 1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static sb_CUptiResult init_result;

static void initialise(void)
{
    sb_CUpti_Profiler_Initialize_Params p = {
        SB_CUPTI_SIZE(sb_CUpti_Profiler_Initialize_Params, pPriv), NULL};
    init_result = cupti.cuptiProfilerInitialize(&p);
}

static void host_free(sb_CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    sb_CUpti_Profiler_Host_Deinitialize_Params d = {
        SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_Deinitialize_Params, pHostObject), NULL, host};
    cupti.cuptiProfilerHostDeinitialize(&d);
}

/* A host object for the chip, given the counters the context offers. */
static int host_new(const char *chip, const uint8_t *avail, sb_CUpti_Profiler_Host_Object **out,
                    char *why, size_t n)
{
    sb_CUpti_Profiler_Host_Initialize_Params h;
    memset(&h, 0, sizeof h);
    h.structSize = SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_Initialize_Params, pHostObject);
    h.profilerType = SB_CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    h.pChipName = chip;
    h.pCounterAvailabilityImage = avail;
    if (failed(cupti.cuptiProfilerHostInitialize(&h), why, n, "cuptiProfilerHostInitialize(%s)",
               chip))
        return -1;
    *out = h.pHostObject;
    return 0;
}

static sb_CUptiResult add_metrics(sb_CUpti_Profiler_Host_Object *host, const char **names,
                                  size_t count)
{
    sb_CUpti_Profiler_Host_ConfigAddMetrics_Params a = {
        SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics), NULL, host,
        names, count};
    return cupti.cuptiProfilerHostConfigAddMetrics(&a);
}

/* The metrics the chip accepts, into p: all at once where it takes them
 * all, else each tried alone on a host object of its own. */
static int choose_metrics(sb_cupti *p, const char *chip, const uint8_t *avail, char *why,
                          size_t n)
{
    const char *all[SB_COUNTER_COUNT + 1];
    int counter[SB_COUNTER_COUNT + 1];
    size_t count = 0;
    for (int c = 0; c < SB_COUNTER_COUNT; c++) {
        all[count] = metric_of[c];
        counter[count++] = c;
    }
    all[count] = reductions_metric;
    counter[count++] = -1;
    int whole = add_metrics(p->host, all, count) == SB_CUPTI_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        int ok = whole;
        sb_CUpti_Profiler_Host_Object *one = NULL;
        if (!whole && host_new(chip, avail, &one, why, n) == 0) {
            ok = add_metrics(one, &all[i], 1) == SB_CUPTI_SUCCESS;
            host_free(one);
        }
        if (ok) {
            p->metric[p->nmetrics] = all[i];
            p->counter[p->nmetrics++] = counter[i];
        }
    }
    if (!p->nmetrics) {
        snprintf(why, n, "CUPTI accepts none of the counters' metrics on %s", chip);
        return -1;
    }
    if (whole)
        return 0;
    host_free(p->host);
    p->host = NULL;
    return host_new(chip, avail, &p->host, why, n) ||
                   failed(add_metrics(p->host, p->metric, p->nmetrics), why, n,
                          "cuptiProfilerHostConfigAddMetrics")
               ? -1
               : 0;
}

/* The configuration image of the chosen metrics. */
static int make_config(sb_cupti *p, char *why, size_t n)
{
    sb_CUpti_Profiler_Host_GetConfigImageSize_Params s = {
        SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize), NULL,
        p->host, 0};
    if (failed(cupti.cuptiProfilerHostGetConfigImageSize(&s), why, n,
               "cuptiProfilerHostGetConfigImageSize"))
        return -1;
    p->config_size = s.configImageSize;
    if (!(p->config = malloc(p->config_size))) {
        snprintf(why, n, "out of host memory for CUPTI's configuration");
        return -1;
    }
    sb_CUpti_Profiler_Host_GetConfigImage_Params g = {
        SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage), NULL, p->host,
        p->config_size, p->config};
    return failed(cupti.cuptiProfilerHostGetConfigImage(&g), why, n,
                  "cuptiProfilerHostGetConfigImage")
               ? -1
               : 0;
}

/* The range profiler on the context, and a counter-data image for one
 * range. */
static int enable_range(sb_cupti *p, char *why, size_t n)
{
    sb_CUpti_RangeProfiler_Enable_Params e = {
        SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject), NULL, p->ctx,
        NULL};
    if (failed(cupti.cuptiRangeProfilerEnable(&e), why, n, "cuptiRangeProfilerEnable"))
        return -1;
    p->range = e.pRangeProfilerObject;
    sb_CUpti_RangeProfiler_GetCounterDataSize_Params s;
    memset(&s, 0, sizeof s);
    s.structSize = SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize);
    s.pRangeProfilerObject = p->range;
    s.pMetricNames = p->metric;
    s.numMetrics = p->nmetrics;
    s.maxNumOfRanges = 1;
    s.maxNumRangeTreeNodes = 1;
    if (failed(cupti.cuptiRangeProfilerGetCounterDataSize(&s), why, n,
               "cuptiRangeProfilerGetCounterDataSize"))
        return -1;
    p->data_size = s.counterDataSize;
    if (!(p->data = malloc(p->data_size))) {
        snprintf(why, n, "out of host memory for CUPTI's counter data");
        return -1;
    }
    return 0;
}

/* The chip's name and the counters the context offers (malloc'd). */
static int chip_and_counters(sb_CUcontext ctx, int ordinal, const char **chip, uint8_t **avail,
                             char *why, size_t n)
{
    sb_CUpti_Device_GetChipName_Params c = {
        SB_CUPTI_SIZE(sb_CUpti_Device_GetChipName_Params, pChipName), NULL, (size_t)ordinal,
        NULL};
    if (failed(cupti.cuptiDeviceGetChipName(&c), why, n, "cuptiDeviceGetChipName(%d)", ordinal))
        return -1;
    *chip = c.pChipName;
    sb_CUpti_Profiler_GetCounterAvailability_Params a;
    memset(&a, 0, sizeof a);
    a.structSize =
        SB_CUPTI_SIZE(sb_CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage);
    a.ctx = ctx;
    if (failed(cupti.cuptiProfilerGetCounterAvailability(&a), why, n,
               "cuptiProfilerGetCounterAvailability"))
        return -1;
    if (!(*avail = malloc(a.counterAvailabilityImageSize))) {
        snprintf(why, n, "out of host memory for CUPTI's counter availability");
        return -1;
    }
    a.pCounterAvailabilityImage = *avail;
    if (failed(cupti.cuptiProfilerGetCounterAvailability(&a), why, n,
               "cuptiProfilerGetCounterAvailability")) {
        free(*avail);
        *avail = NULL;
        return -1;
    }
    return 0;
}

int sb_cupti_open(sb_CUcontext ctx, int ordinal, sb_cupti **out, char *why, size_t n)
{
    *out = NULL;
    pthread_once(&init_once, initialise);
    if (failed(init_result, why, n, "cuptiProfilerInitialize"))
        return -1;
    sb_cupti *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, n, "out of host memory for CUPTI");
        return -1;
    }
    p->ctx = ctx;
    const char *chip = NULL;
    uint8_t *avail = NULL;
    int rc = chip_and_counters(ctx, ordinal, &chip, &avail, why, n) ||
             host_new(chip, avail, &p->host, why, n) || choose_metrics(p, chip, avail, why, n) ||
             make_config(p, why, n) || enable_range(p, why, n);
    free(avail);
    if (rc) {
        sb_cupti_close(p);
        return -1;
    }
    p->replay = getenv("SIMTBENCH_CUPTI_REPLAY") &&
                        strcmp(getenv("SIMTBENCH_CUPTI_REPLAY"), "kernel") == 0
                    ? SB_CUPTI_KernelReplay
                    : SB_CUPTI_UserReplay;
    *out = p;
    return 0;
}

int sb_cupti_user_replay(const sb_cupti *p)
{
    return p->replay == SB_CUPTI_UserReplay;
}

void sb_cupti_kernel_replay(sb_cupti *p)
{
    p->replay = SB_CUPTI_KernelReplay;
}

int sb_cupti_begin(sb_cupti *p, char *why, size_t n)
{
    sb_CUpti_RangeProfiler_CounterDataImage_Initialize_Params i = {
        SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData),
        NULL, p->range, p->data_size, p->data};
    if (failed(cupti.cuptiRangeProfilerCounterDataImageInitialize(&i), why, n,
               "cuptiRangeProfilerCounterDataImageInitialize"))
        return -1;
    sb_CUpti_RangeProfiler_SetConfig_Params c;
    memset(&c, 0, sizeof c);
    c.structSize = SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel);
    c.pRangeProfilerObject = p->range;
    c.configSize = p->config_size;
    c.pConfig = p->config;
    c.counterDataImageSize = p->data_size;
    c.pCounterDataImage = p->data;
    c.range = SB_CUPTI_AutoRange;
    c.replayMode = p->replay;
    c.maxRangesPerPass = 1;
    c.numNestingLevels = 1;
    c.minNestingLevel = 1;
    c.targetNestingLevel = 1;
    return failed(cupti.cuptiRangeProfilerSetConfig(&c), why, n,
                  "cuptiRangeProfilerSetConfig(%s replay)",
                  p->replay == SB_CUPTI_UserReplay ? "user" : "kernel")
               ? -1
               : 0;
}

int sb_cupti_pass_start(sb_cupti *p, char *why, size_t n)
{
    sb_CUpti_RangeProfiler_Start_Params s = {
        SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_Start_Params, pRangeProfilerObject), NULL, p->range};
    return failed(cupti.cuptiRangeProfilerStart(&s), why, n, "cuptiRangeProfilerStart") ? -1 : 0;
}

int sb_cupti_pass_stop(sb_cupti *p, int *all_submitted, char *why, size_t n)
{
    sb_CUpti_RangeProfiler_Stop_Params s;
    memset(&s, 0, sizeof s);
    s.structSize = SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted);
    s.pRangeProfilerObject = p->range;
    if (failed(cupti.cuptiRangeProfilerStop(&s), why, n, "cuptiRangeProfilerStop"))
        return -1;
    *all_submitted = s.isAllPassSubmitted != 0;
    return 0;
}

/* The counter data of the one range, decoded, as the chosen metrics'
 * values in order. */
static int evaluate(sb_cupti *p, double *values, char *why, size_t n)
{
    sb_CUpti_RangeProfiler_DecodeData_Params d = {
        SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped), NULL,
        p->range, 0};
    if (failed(cupti.cuptiRangeProfilerDecodeData(&d), why, n, "cuptiRangeProfilerDecodeData"))
        return -1;
    sb_CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
        SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges), NULL,
        p->data, p->data_size, 0};
    if (failed(cupti.cuptiRangeProfilerGetCounterDataInfo(&info), why, n,
               "cuptiRangeProfilerGetCounterDataInfo"))
        return -1;
    if (info.numTotalRanges < 1 || d.numOfRangeDropped) {
        snprintf(why, n, "CUPTI recorded no range for the launch (%zu dropped)",
                 d.numOfRangeDropped);
        return -1;
    }
    sb_CUpti_Profiler_Host_EvaluateToGpuValues_Params e;
    memset(&e, 0, sizeof e);
    e.structSize = SB_CUPTI_SIZE(sb_CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues);
    e.pHostObject = p->host;
    e.pCounterDataImage = p->data;
    e.counterDataImageSize = p->data_size;
    e.rangeIndex = 0;
    e.ppMetricNames = p->metric;
    e.numMetrics = p->nmetrics;
    e.pMetricValues = values;
    return failed(cupti.cuptiProfilerHostEvaluateToGpuValues(&e), why, n,
                  "cuptiProfilerHostEvaluateToGpuValues")
               ? -1
               : 0;
}

int sb_cupti_end(sb_cupti *p, double *counts, char *why, size_t n)
{
    double values[SB_COUNTER_COUNT + 1];
    if (evaluate(p, values, why, n))
        return -1;
    for (int c = 0; c < SB_COUNTER_COUNT; c++)
        counts[c] = NAN;
    for (size_t i = 0; i < p->nmetrics; i++) {
        int c = p->counter[i] < 0 ? SB_COUNTER_GLOBAL_ATOM_REQUESTS : p->counter[i];
        counts[c] = isnan(counts[c]) ? values[i] : counts[c] + values[i];
    }
    return 0;
}

void sb_cupti_close(sb_cupti *p)
{
    if (!p)
        return;
    if (p->range) {
        sb_CUpti_RangeProfiler_Disable_Params d = {
            SB_CUPTI_SIZE(sb_CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject), NULL,
            p->range};
        cupti.cuptiRangeProfilerDisable(&d);
    }
    host_free(p->host);
    free(p->config);
    free(p->data);
    free(p);
}
