/* The CUDA backend's errors: the per-thread message every entry point
 * leaves for last_error, and the driver's and cuBLAS's status codes
 * turned into it. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "module.h"

/* Per thread: builds run on several threads at once (concurrent_build). */
_Thread_local char last[1024];

void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last, sizeof last, fmt, ap);
    va_end(ap);
}

/* Non-zero when r is an error, which it then describes as
 * "<what> failed: CUDA_ERROR_X (the driver's description)". */
int cu_failed(sb_CUresult r, const char *fmt, ...)
{
    if (r == SB_CUDA_SUCCESS)
        return 0;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = NULL, *desc = NULL;
    if (cu.cuGetErrorName && cu.cuGetErrorName(r, &name) != SB_CUDA_SUCCESS)
        name = NULL;
    if (cu.cuGetErrorString && cu.cuGetErrorString(r, &desc) != SB_CUDA_SUCCESS)
        desc = NULL;
    if (name)
        set_error("%s failed: %s (%s)", what, name, desc ? desc : "no description");
    else
        set_error("%s failed: CUDA error %d", what, (int)r);
    return 1;
}

static const char *blas_status_name(sb_cublasStatus_t s)
{
    switch (s) {
#define CASE(x) case SB_##x: return #x
        CASE(CUBLAS_STATUS_SUCCESS);
        CASE(CUBLAS_STATUS_NOT_INITIALIZED);
        CASE(CUBLAS_STATUS_ALLOC_FAILED);
        CASE(CUBLAS_STATUS_INVALID_VALUE);
        CASE(CUBLAS_STATUS_ARCH_MISMATCH);
        CASE(CUBLAS_STATUS_MAPPING_ERROR);
        CASE(CUBLAS_STATUS_EXECUTION_FAILED);
        CASE(CUBLAS_STATUS_INTERNAL_ERROR);
        CASE(CUBLAS_STATUS_NOT_SUPPORTED);
        CASE(CUBLAS_STATUS_LICENSE_ERROR);
#undef CASE
    default:
        return NULL;
    }
}

/* Non-zero when s is an error, which it then describes as
 * "<what> failed: CUBLAS_STATUS_X (cuBLAS's description)". */
int blas_failed(sb_cublasStatus_t s, const char *fmt, ...)
{
    if (s == SB_CUBLAS_STATUS_SUCCESS)
        return 0;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = blas.cublasGetStatusName ? blas.cublasGetStatusName(s) : NULL;
    const char *desc = blas.cublasGetStatusString ? blas.cublasGetStatusString(s) : NULL;
    if (!name || !*name)
        name = blas_status_name(s);
    if (name && desc && *desc && strcmp(name, desc))
        set_error("%s failed: %s (%s)", what, name, desc);
    else if (name)
        set_error("%s failed: %s", what, name);
    else
        set_error("%s failed: cuBLAS status %d", what, (int)s);
    return 1;
}

const char *cuda_last_error(void)
{
    return last;
}
