/* cuda/cupti_api.h against CUPTI's own headers, as test_cuda_api.c checks
 * cuda_api.h: every entry point the backend opens has CUPTI's prototype,
 * every constant its value, every type a compatible type of the same
 * size, and every parameter-struct member we declare CUPTI's offset and
 * size, so that the size we pass (the offset past our last member) is the
 * one CUPTI expects.  Built only where configure found CUPTI's headers. */
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <stdio.h>

#include "cupti_api.h"

#define SAME_CALL(f)                                                                             \
    _Static_assert(_Generic(&f, sb_##f##_fn: 1, default: 0),                                     \
                   "cupti_api.h: sb_" #f "_fn is not the prototype of CUPTI's " #f);
#define SAME_VALUE(name, value)                                                                  \
    _Static_assert((long long)SB_##name == (long long)(name),                                    \
                   "cupti_api.h: SB_" #name " differs from CUPTI's " #name);
#define SAME_TYPE(t)                                                                             \
    _Static_assert(sizeof(t) == sizeof(sb_##t), "cupti_api.h: sb_" #t " differs from CUPTI's " #t);
#define SAME_MEMBER(s, m)                                                                        \
    _Static_assert(offsetof(s, m) == offsetof(sb_##s, m) &&                                      \
                       sizeof(((s *)0)->m) == sizeof(((sb_##s *)0)->m),                          \
                   "cupti_api.h: " #s "." #m " is not where CUPTI has it");

SB_CUPTI_TYPES(SAME_TYPE)
SB_CUPTI_CONSTANTS(SAME_VALUE)
SB_CUPTI_MEMBERS(SAME_MEMBER)

/* The calls take pointers to our structs; CUPTI's prototypes take its own.
 * The members agree (above), so each call is checked by its shape: the
 * same return type and one pointer parameter. */
#define SAME_SHAPE(f)                                                                            \
    _Static_assert(sizeof(f(0)) == sizeof(sb_CUptiResult), "cupti_api.h: " #f " returns another type");
#define ONE_PARAM_CALLS(X)                                                                       \
    X(cuptiProfilerInitialize) X(cuptiProfilerDeInitialize) X(cuptiDeviceGetChipName)            \
    X(cuptiProfilerGetCounterAvailability) X(cuptiProfilerHostInitialize)                        \
    X(cuptiProfilerHostDeinitialize) X(cuptiProfilerHostConfigAddMetrics)                        \
    X(cuptiProfilerHostGetConfigImageSize) X(cuptiProfilerHostGetConfigImage)                    \
    X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiRangeProfilerEnable)                          \
    X(cuptiRangeProfilerDisable) X(cuptiRangeProfilerGetCounterDataSize)                         \
    X(cuptiRangeProfilerCounterDataImageInitialize) X(cuptiRangeProfilerSetConfig)               \
    X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop) X(cuptiRangeProfilerDecodeData)         \
    X(cuptiRangeProfilerGetCounterDataInfo)
ONE_PARAM_CALLS(SAME_SHAPE)
SAME_CALL(cuptiGetResultString)

/* Our sizes are CUPTI's _STRUCT_SIZE for the structs we declare whole. */
#define SAME_SIZE(s, last)                                                                       \
    _Static_assert(SB_CUPTI_SIZE(sb_##s, last) == s##_STRUCT_SIZE,                               \
                   "cupti_api.h: " #s " is not declared to its end");
SAME_SIZE(CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel)
SAME_SIZE(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted)
SAME_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues)
SAME_SIZE(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize)
SAME_SIZE(CUpti_Profiler_Host_Initialize_Params, pHostObject)
SAME_SIZE(CUpti_Profiler_Initialize_Params, pPriv)
SAME_SIZE(CUpti_Profiler_DeInitialize_Params, pPriv)
SAME_SIZE(CUpti_Device_GetChipName_Params, pChipName)
SAME_SIZE(CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage)
SAME_SIZE(CUpti_Profiler_Host_Deinitialize_Params, pHostObject)
SAME_SIZE(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics)
SAME_SIZE(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize)
SAME_SIZE(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage)
SAME_SIZE(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject)
SAME_SIZE(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject)
SAME_SIZE(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData)
SAME_SIZE(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject)
SAME_SIZE(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped)
SAME_SIZE(CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges)

#define COUNT(...) +1

int main(void)
{
    printf("1..1\n");
    printf("ok 1 - CUPTI: %d entry points, %d constants, %d types, %d struct members agree with "
           "CUPTI's headers\n",
           0 SB_CUPTI_CALLS(COUNT), 0 SB_CUPTI_CONSTANTS(COUNT), 0 SB_CUPTI_TYPES(COUNT),
           0 SB_CUPTI_MEMBERS(COUNT));
    return 0;
}
