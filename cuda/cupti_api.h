/* The part of CUPTI that the CUDA backend's hardware counters use: its
 * range profiler (cupti_range_profiler.h, CUDA 12.6 and later) and the
 * profiler host API that turns the counter data into metric values
 * (cupti_profiler_host.h), declared here as cuda_api.h declares the driver
 * API, so that the module builds with no toolkit and opens libcupti at run
 * time.
 *
 * The naming rule is cuda_api.h's: the toolkit's name with "sb_" (types,
 * function-pointer types) or "SB_" (constants) in front.  CUPTI passes
 * every argument in a parameter struct whose first member is its size, so
 * each struct is declared member for member; tests/backends/test_cupti_api.c
 * includes this header beside CUPTI's own and checks every call's
 * prototype, every constant's value, and every listed member's offset and
 * size (the SB_CUPTI_MEMBERS list), so the declarations cannot drift.  A
 * struct's size is passed as the offset past its last member we declare,
 * which is CUPTI's own CUPTI_PROFILER_STRUCT_SIZE rule. */
#ifndef SB_CUPTI_API_H
#define SB_CUPTI_API_H

#include <stddef.h>
#include <stdint.h>

#include "cuda_api.h"

typedef unsigned int sb_CUptiResult;
typedef unsigned int sb_CUpti_ProfilerRange;
typedef unsigned int sb_CUpti_ProfilerReplayMode;
typedef unsigned int sb_CUpti_ProfilerType;
typedef struct CUpti_Profiler_Host_Object sb_CUpti_Profiler_Host_Object;
typedef struct CUpti_RangeProfiler_Object sb_CUpti_RangeProfiler_Object;
#define SB_CUPTI_TYPES(X)                                                                        \
    X(CUptiResult) X(CUpti_ProfilerRange) X(CUpti_ProfilerReplayMode) X(CUpti_ProfilerType)

#define SB_CUPTI_CONSTANTS(X)                                                                    \
    X(CUPTI_SUCCESS, 0)                                                                          \
    X(CUPTI_ERROR_NOT_SUPPORTED, 27)                                                             \
    X(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, 35)                                                   \
    X(CUPTI_AutoRange, 1)                                                                        \
    X(CUPTI_KernelReplay, 2)                                                                     \
    X(CUPTI_UserReplay, 3)                                                                       \
    X(CUPTI_PROFILER_TYPE_RANGE_PROFILER, 0)

/* The size CUPTI expects in a struct's first member: up to the end of the
 * given member. */
#define SB_CUPTI_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

typedef struct sb_CUpti_Profiler_Initialize_Params {
    size_t structSize;
    void *pPriv;
} sb_CUpti_Profiler_Initialize_Params;

typedef struct sb_CUpti_Profiler_DeInitialize_Params {
    size_t structSize;
    void *pPriv;
} sb_CUpti_Profiler_DeInitialize_Params;

typedef struct sb_CUpti_Device_GetChipName_Params {
    size_t structSize;
    void *pPriv;
    size_t deviceIndex;
    const char *pChipName;
} sb_CUpti_Device_GetChipName_Params;

typedef struct sb_CUpti_Profiler_GetCounterAvailability_Params {
    size_t structSize;
    void *pPriv;
    sb_CUcontext ctx;
    size_t counterAvailabilityImageSize;
    uint8_t *pCounterAvailabilityImage;
} sb_CUpti_Profiler_GetCounterAvailability_Params;

typedef struct sb_CUpti_Profiler_Host_Initialize_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_ProfilerType profilerType;
    const char *pChipName;
    const uint8_t *pCounterAvailabilityImage;
    sb_CUpti_Profiler_Host_Object *pHostObject;
} sb_CUpti_Profiler_Host_Initialize_Params;

typedef struct sb_CUpti_Profiler_Host_Deinitialize_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_Profiler_Host_Object *pHostObject;
} sb_CUpti_Profiler_Host_Deinitialize_Params;

typedef struct sb_CUpti_Profiler_Host_ConfigAddMetrics_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_Profiler_Host_Object *pHostObject;
    const char **ppMetricNames;
    size_t numMetrics;
} sb_CUpti_Profiler_Host_ConfigAddMetrics_Params;

typedef struct sb_CUpti_Profiler_Host_GetConfigImageSize_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize;
} sb_CUpti_Profiler_Host_GetConfigImageSize_Params;

typedef struct sb_CUpti_Profiler_Host_GetConfigImage_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize;
    uint8_t *pConfigImage;
} sb_CUpti_Profiler_Host_GetConfigImage_Params;

typedef struct sb_CUpti_Profiler_Host_EvaluateToGpuValues_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_Profiler_Host_Object *pHostObject;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char **ppMetricNames;
    size_t numMetrics;
    double *pMetricValues;
} sb_CUpti_Profiler_Host_EvaluateToGpuValues_Params;

typedef struct sb_CUpti_RangeProfiler_Enable_Params {
    size_t structSize;
    void *pPriv;
    sb_CUcontext ctx;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
} sb_CUpti_RangeProfiler_Enable_Params;

typedef struct sb_CUpti_RangeProfiler_Disable_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
} sb_CUpti_RangeProfiler_Disable_Params;

typedef struct sb_CUpti_RangeProfiler_GetCounterDataSize_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
    const char **pMetricNames;
    size_t numMetrics;
    size_t maxNumOfRanges;
    uint32_t maxNumRangeTreeNodes;
    size_t counterDataSize;
} sb_CUpti_RangeProfiler_GetCounterDataSize_Params;

typedef struct sb_CUpti_RangeProfiler_CounterDataImage_Initialize_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t counterDataSize;
    uint8_t *pCounterData;
} sb_CUpti_RangeProfiler_CounterDataImage_Initialize_Params;

typedef struct sb_CUpti_RangeProfiler_SetConfig_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t configSize;
    const uint8_t *pConfig;
    size_t counterDataImageSize;
    uint8_t *pCounterDataImage;
    sb_CUpti_ProfilerRange range;
    sb_CUpti_ProfilerReplayMode replayMode;
    size_t maxRangesPerPass;
    uint16_t numNestingLevels;
    uint16_t minNestingLevel;
    size_t passIndex;
    uint16_t targetNestingLevel;
} sb_CUpti_RangeProfiler_SetConfig_Params;

typedef struct sb_CUpti_RangeProfiler_Start_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
} sb_CUpti_RangeProfiler_Start_Params;

typedef struct sb_CUpti_RangeProfiler_Stop_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t passIndex;
    size_t targetNestingLevel;
    uint8_t isAllPassSubmitted;
} sb_CUpti_RangeProfiler_Stop_Params;

typedef struct sb_CUpti_RangeProfiler_DecodeData_Params {
    size_t structSize;
    void *pPriv;
    sb_CUpti_RangeProfiler_Object *pRangeProfilerObject;
    size_t numOfRangeDropped;
} sb_CUpti_RangeProfiler_DecodeData_Params;

typedef struct sb_CUpti_RangeProfiler_GetCounterDataInfo_Params {
    size_t structSize;
    void *pPriv;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t numTotalRanges;
} sb_CUpti_RangeProfiler_GetCounterDataInfo_Params;

/* X(struct, member): every member above, for the declaration test. */
#define SB_CUPTI_MEMBERS(X)                                                                      \
    X(CUpti_Profiler_Initialize_Params, pPriv)                                                   \
    X(CUpti_Profiler_DeInitialize_Params, pPriv)                                                 \
    X(CUpti_Device_GetChipName_Params, deviceIndex)                                              \
    X(CUpti_Device_GetChipName_Params, pChipName)                                                \
    X(CUpti_Profiler_GetCounterAvailability_Params, ctx)                                         \
    X(CUpti_Profiler_GetCounterAvailability_Params, counterAvailabilityImageSize)                \
    X(CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage)                   \
    X(CUpti_Profiler_Host_Initialize_Params, profilerType)                                       \
    X(CUpti_Profiler_Host_Initialize_Params, pChipName)                                          \
    X(CUpti_Profiler_Host_Initialize_Params, pCounterAvailabilityImage)                          \
    X(CUpti_Profiler_Host_Initialize_Params, pHostObject)                                        \
    X(CUpti_Profiler_Host_Deinitialize_Params, pHostObject)                                      \
    X(CUpti_Profiler_Host_ConfigAddMetrics_Params, pHostObject)                                  \
    X(CUpti_Profiler_Host_ConfigAddMetrics_Params, ppMetricNames)                                \
    X(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics)                                   \
    X(CUpti_Profiler_Host_GetConfigImageSize_Params, pHostObject)                                \
    X(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize)                            \
    X(CUpti_Profiler_Host_GetConfigImage_Params, pHostObject)                                    \
    X(CUpti_Profiler_Host_GetConfigImage_Params, configImageSize)                                \
    X(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage)                                   \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pHostObject)                               \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pCounterDataImage)                         \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, counterDataImageSize)                      \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, rangeIndex)                                \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ppMetricNames)                             \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, numMetrics)                                \
    X(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues)                             \
    X(CUpti_RangeProfiler_Enable_Params, ctx)                                                    \
    X(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject)                                   \
    X(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject)                                  \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, pRangeProfilerObject)                       \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, pMetricNames)                               \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, numMetrics)                                 \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, maxNumOfRanges)                             \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, maxNumRangeTreeNodes)                       \
    X(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize)                            \
    X(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pRangeProfilerObject)              \
    X(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, counterDataSize)                   \
    X(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData)                      \
    X(CUpti_RangeProfiler_SetConfig_Params, pRangeProfilerObject)                                \
    X(CUpti_RangeProfiler_SetConfig_Params, configSize)                                          \
    X(CUpti_RangeProfiler_SetConfig_Params, pConfig)                                             \
    X(CUpti_RangeProfiler_SetConfig_Params, counterDataImageSize)                                \
    X(CUpti_RangeProfiler_SetConfig_Params, pCounterDataImage)                                   \
    X(CUpti_RangeProfiler_SetConfig_Params, range)                                               \
    X(CUpti_RangeProfiler_SetConfig_Params, replayMode)                                          \
    X(CUpti_RangeProfiler_SetConfig_Params, maxRangesPerPass)                                    \
    X(CUpti_RangeProfiler_SetConfig_Params, numNestingLevels)                                    \
    X(CUpti_RangeProfiler_SetConfig_Params, minNestingLevel)                                     \
    X(CUpti_RangeProfiler_SetConfig_Params, passIndex)                                           \
    X(CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel)                                  \
    X(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject)                                    \
    X(CUpti_RangeProfiler_Stop_Params, pRangeProfilerObject)                                     \
    X(CUpti_RangeProfiler_Stop_Params, passIndex)                                                \
    X(CUpti_RangeProfiler_Stop_Params, targetNestingLevel)                                       \
    X(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted)                                       \
    X(CUpti_RangeProfiler_DecodeData_Params, pRangeProfilerObject)                               \
    X(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped)                                  \
    X(CUpti_RangeProfiler_GetCounterDataInfo_Params, pCounterDataImage)                          \
    X(CUpti_RangeProfiler_GetCounterDataInfo_Params, counterDataImageSize)                       \
    X(CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges)

#define SB_CUPTI_FN(name, params) typedef sb_CUptiResult (*sb_##name##_fn)(sb_##params * p);
SB_CUPTI_FN(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params)
SB_CUPTI_FN(cuptiProfilerDeInitialize, CUpti_Profiler_DeInitialize_Params)
SB_CUPTI_FN(cuptiDeviceGetChipName, CUpti_Device_GetChipName_Params)
SB_CUPTI_FN(cuptiProfilerGetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params)
SB_CUPTI_FN(cuptiProfilerHostInitialize, CUpti_Profiler_Host_Initialize_Params)
SB_CUPTI_FN(cuptiProfilerHostDeinitialize, CUpti_Profiler_Host_Deinitialize_Params)
SB_CUPTI_FN(cuptiProfilerHostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params)
SB_CUPTI_FN(cuptiProfilerHostGetConfigImageSize, CUpti_Profiler_Host_GetConfigImageSize_Params)
SB_CUPTI_FN(cuptiProfilerHostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params)
SB_CUPTI_FN(cuptiProfilerHostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params)
SB_CUPTI_FN(cuptiRangeProfilerEnable, CUpti_RangeProfiler_Enable_Params)
SB_CUPTI_FN(cuptiRangeProfilerDisable, CUpti_RangeProfiler_Disable_Params)
SB_CUPTI_FN(cuptiRangeProfilerGetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params)
SB_CUPTI_FN(cuptiRangeProfilerCounterDataImageInitialize,
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params)
SB_CUPTI_FN(cuptiRangeProfilerSetConfig, CUpti_RangeProfiler_SetConfig_Params)
SB_CUPTI_FN(cuptiRangeProfilerStart, CUpti_RangeProfiler_Start_Params)
SB_CUPTI_FN(cuptiRangeProfilerStop, CUpti_RangeProfiler_Stop_Params)
SB_CUPTI_FN(cuptiRangeProfilerDecodeData, CUpti_RangeProfiler_DecodeData_Params)
SB_CUPTI_FN(cuptiRangeProfilerGetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params)
#undef SB_CUPTI_FN
typedef sb_CUptiResult (*sb_cuptiGetResultString_fn)(sb_CUptiResult result, const char **str);

/* X(name) for every CUPTI entry point the backend opens; all of them are
 * in CUPTI 12.6 and later (the range profiler). */
#define SB_CUPTI_CALLS(X)                                                                        \
    X(cuptiGetResultString) X(cuptiProfilerInitialize) X(cuptiProfilerDeInitialize)              \
    X(cuptiDeviceGetChipName) X(cuptiProfilerGetCounterAvailability)                             \
    X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize)                              \
    X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize)                  \
    X(cuptiProfilerHostGetConfigImage) X(cuptiProfilerHostEvaluateToGpuValues)                   \
    X(cuptiRangeProfilerEnable) X(cuptiRangeProfilerDisable)                                     \
    X(cuptiRangeProfilerGetCounterDataSize) X(cuptiRangeProfilerCounterDataImageInitialize)      \
    X(cuptiRangeProfilerSetConfig) X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop)          \
    X(cuptiRangeProfilerDecodeData) X(cuptiRangeProfilerGetCounterDataInfo)
#define SB_CUPTI_OLDEST "CUPTI 12.6 (CUDA 12.6)"

#define SB_CUPTI_API_ENUM(name, value) SB_##name = (value),
enum { SB_CUPTI_CONSTANTS(SB_CUPTI_API_ENUM) };
#undef SB_CUPTI_API_ENUM

#endif
