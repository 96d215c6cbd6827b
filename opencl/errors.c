/* The OpenCL backend's errors: the per-thread message every entry point
 * leaves for last_error, and OpenCL's error codes by name. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdarg.h>
#include <stdio.h>

#include "module.h"

/* Per thread: builds run on several threads at once (concurrent_build). */
_Thread_local char last_error_text[2048];

const char *cl_error_name(cl_int e)
{
    switch (e) {
#define CASE(x) case x: return #x
        CASE(CL_SUCCESS);
        CASE(CL_DEVICE_NOT_FOUND);
        CASE(CL_DEVICE_NOT_AVAILABLE);
        CASE(CL_COMPILER_NOT_AVAILABLE);
        CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        CASE(CL_OUT_OF_RESOURCES);
        CASE(CL_OUT_OF_HOST_MEMORY);
        CASE(CL_PROFILING_INFO_NOT_AVAILABLE);
        CASE(CL_BUILD_PROGRAM_FAILURE);
        CASE(CL_INVALID_VALUE);
        CASE(CL_INVALID_PLATFORM);
        CASE(CL_INVALID_DEVICE);
        CASE(CL_INVALID_CONTEXT);
        CASE(CL_INVALID_COMMAND_QUEUE);
        CASE(CL_INVALID_MEM_OBJECT);
        CASE(CL_INVALID_BUILD_OPTIONS);
        CASE(CL_INVALID_PROGRAM);
        CASE(CL_INVALID_PROGRAM_EXECUTABLE);
        CASE(CL_INVALID_KERNEL_NAME);
        CASE(CL_INVALID_KERNEL);
        CASE(CL_INVALID_ARG_INDEX);
        CASE(CL_INVALID_ARG_VALUE);
        CASE(CL_INVALID_ARG_SIZE);
        CASE(CL_INVALID_KERNEL_ARGS);
        CASE(CL_INVALID_WORK_DIMENSION);
        CASE(CL_INVALID_WORK_GROUP_SIZE);
        CASE(CL_INVALID_WORK_ITEM_SIZE);
        CASE(CL_INVALID_GLOBAL_WORK_SIZE);
        CASE(CL_INVALID_EVENT);
        CASE(CL_INVALID_BUFFER_SIZE);
        CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
#undef CASE
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL error";
    }
}

int set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error_text, sizeof last_error_text, fmt, ap);
    va_end(ap);
    return -1;
}

int cl_fail(const char *call, cl_int e)
{
    return set_error("%s failed: %s (%d)", call, cl_error_name(e), (int)e);
}

const char *ocl_last_error(void)
{
    return last_error_text;
}
