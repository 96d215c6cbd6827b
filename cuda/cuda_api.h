/* The part of the CUDA driver API, NVRTC and cuBLAS that the CUDA backend
 * uses, declared here so that the module builds with no CUDA toolkit (as a
 * distribution must build it) and opens each library at run time, the way
 * Blender's cuew does.
 *
 * One rule names everything: a type or a function-pointer type is the
 * toolkit's name with "sb_" in front (sb_CUresult, sb_cuMemAlloc_v2_fn), a
 * constant the toolkit's name with "SB_" in front (SB_CUDA_SUCCESS).  The
 * names therefore never clash with the toolkit's own, and
 * tests/backends/test_cuda_api.c includes this header beside cuda.h, nvrtc.h
 * and cublas_v2.h and has the compiler check every entry of the lists below
 * against them: each function-pointer type against the real prototype,
 * each constant against the real value, each type against the real type.
 *
 * Functions are named as the libraries export them: where cuda.h maps an
 * API name onto a versioned one (cuMemAlloc onto cuMemAlloc_v2), the
 * versioned name is the one opened.  The toolkit's enums are unsigned int
 * here, the type a C compiler gives an enum with no negative value; the
 * declaration test fails should one of them change. */
#ifndef SB_CUDA_API_H
#define SB_CUDA_API_H

#include <stddef.h>

/* ---- driver API (libcuda.so.1) ---- */

typedef unsigned int sb_CUresult;
typedef unsigned int sb_CUdevice_attribute;
typedef unsigned int sb_CUfunction_attribute;
typedef int sb_CUdevice;
typedef unsigned long long sb_CUdeviceptr; /* LP64 targets, as cuda.h */
typedef struct CUctx_st *sb_CUcontext;
typedef struct CUmod_st *sb_CUmodule;
typedef struct CUfunc_st *sb_CUfunction;
typedef struct CUstream_st *sb_CUstream;
typedef struct CUevent_st *sb_CUevent;
/* cuda.h's 16 bytes; left incomplete here (the backend passes 16 bytes of
   its own), so that the toolkit's definition is the only one. */
typedef struct CUuuid_st sb_CUuuid;
#define SB_CU_UUID_BYTES 16
#define SB_CUDA_DRIVER_TYPES(X)                                                                  \
    X(CUresult) X(CUdevice_attribute) X(CUfunction_attribute) X(CUdevice) X(CUdeviceptr)         \
    X(CUcontext) X(CUmodule) X(CUfunction) X(CUstream) X(CUevent) X(CUuuid)

/* X(name, value) for every driver constant the backend uses. */
#define SB_CUDA_DRIVER_CONSTANTS(X)                                                              \
    X(CUDA_SUCCESS, 0)                                                                           \
    X(CUDA_ERROR_NOT_FOUND, 500)                                                                 \
    X(CU_STREAM_DEFAULT, 0)                                                                      \
    X(CU_EVENT_DEFAULT, 0)                                                                       \
    X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1)                                              \
    X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 8)                                        \
    X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10)                                                         \
    X(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 13)                                                        \
    X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                                              \
    X(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 36)                                                 \
    X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37)                                           \
    X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                                     \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                                          \
    X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                                          \
    X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                                    \
    X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                                     \
    X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)

typedef sb_CUresult (*sb_cuGetErrorName_fn)(sb_CUresult error, const char **name);
typedef sb_CUresult (*sb_cuGetErrorString_fn)(sb_CUresult error, const char **text);
typedef sb_CUresult (*sb_cuInit_fn)(unsigned int flags);
typedef sb_CUresult (*sb_cuDriverGetVersion_fn)(int *version);
typedef sb_CUresult (*sb_cuDeviceGetCount_fn)(int *count);
typedef sb_CUresult (*sb_cuDeviceGet_fn)(sb_CUdevice *device, int ordinal);
typedef sb_CUresult (*sb_cuDeviceGetName_fn)(char *name, int len, sb_CUdevice device);
typedef sb_CUresult (*sb_cuDeviceGetPCIBusId_fn)(char *bus_id, int len, sb_CUdevice device);
typedef sb_CUresult (*sb_cuDeviceGetAttribute_fn)(int *value, sb_CUdevice_attribute attribute,
                                                  sb_CUdevice device);
typedef sb_CUresult (*sb_cuDeviceTotalMem_v2_fn)(size_t *bytes, sb_CUdevice device);
typedef sb_CUresult (*sb_cuDevicePrimaryCtxRetain_fn)(sb_CUcontext *ctx, sb_CUdevice device);
typedef sb_CUresult (*sb_cuDevicePrimaryCtxRelease_v2_fn)(sb_CUdevice device);
typedef sb_CUresult (*sb_cuCtxSetCurrent_fn)(sb_CUcontext ctx);
typedef sb_CUresult (*sb_cuStreamCreate_fn)(sb_CUstream *stream, unsigned int flags);
typedef sb_CUresult (*sb_cuStreamDestroy_v2_fn)(sb_CUstream stream);
typedef sb_CUresult (*sb_cuStreamSynchronize_fn)(sb_CUstream stream);
typedef sb_CUresult (*sb_cuEventCreate_fn)(sb_CUevent *event, unsigned int flags);
typedef sb_CUresult (*sb_cuEventDestroy_v2_fn)(sb_CUevent event);
typedef sb_CUresult (*sb_cuEventRecord_fn)(sb_CUevent event, sb_CUstream stream);
/* Drivers before CUDA 12.8 export the same call as cuEventElapsedTime. */
typedef sb_CUresult (*sb_cuEventElapsedTime_v2_fn)(float *ms, sb_CUevent start, sb_CUevent end);
typedef sb_CUresult (*sb_cuEventSynchronize_fn)(sb_CUevent event);
typedef sb_CUresult (*sb_cuModuleLoadData_fn)(sb_CUmodule *module, const void *image);
typedef sb_CUresult (*sb_cuModuleUnload_fn)(sb_CUmodule module);
typedef sb_CUresult (*sb_cuModuleGetFunction_fn)(sb_CUfunction *fn, sb_CUmodule module,
                                                 const char *name);
typedef sb_CUresult (*sb_cuFuncGetAttribute_fn)(int *value, sb_CUfunction_attribute attribute,
                                                sb_CUfunction fn);
typedef sb_CUresult (*sb_cuOccupancyMaxActiveBlocksPerMultiprocessor_fn)(int *blocks,
                                                                         sb_CUfunction fn,
                                                                         int block_threads,
                                                                         size_t dynamic_shared);
typedef sb_CUresult (*sb_cuMemAlloc_v2_fn)(sb_CUdeviceptr *ptr, size_t bytes);
typedef sb_CUresult (*sb_cuMemFree_v2_fn)(sb_CUdeviceptr ptr);
typedef sb_CUresult (*sb_cuMemcpyHtoD_v2_fn)(sb_CUdeviceptr dst, const void *src, size_t bytes);
typedef sb_CUresult (*sb_cuMemcpyDtoH_v2_fn)(void *dst, sb_CUdeviceptr src, size_t bytes);
typedef sb_CUresult (*sb_cuMemcpyDtoDAsync_v2_fn)(sb_CUdeviceptr dst, sb_CUdeviceptr src,
                                                  size_t bytes, sb_CUstream stream);
typedef sb_CUresult (*sb_cuMemHostAlloc_fn)(void **p, size_t bytes, unsigned int flags);
typedef sb_CUresult (*sb_cuMemFreeHost_fn)(void *p);
typedef sb_CUresult (*sb_cuMemsetD32Async_fn)(sb_CUdeviceptr dst, unsigned int word, size_t n,
                                              sb_CUstream stream);
typedef sb_CUresult (*sb_cuLaunchKernel_fn)(sb_CUfunction fn, unsigned int grid_x,
                                            unsigned int grid_y, unsigned int grid_z,
                                            unsigned int block_x, unsigned int block_y,
                                            unsigned int block_z, unsigned int shared_bytes,
                                            sb_CUstream stream, void **params, void **extra);
typedef sb_CUresult (*sb_cuMemGetInfo_v2_fn)(size_t *free_bytes, size_t *total_bytes);
typedef sb_CUresult (*sb_cuDeviceGetPCIBusId_fn)(char *bus_id, int len, sb_CUdevice device);
/* Drivers before CUDA 11.4 export the same call as cuDeviceGetUuid. */
typedef sb_CUresult (*sb_cuDeviceGetUuid_v2_fn)(sb_CUuuid *uuid, sb_CUdevice device);

/* X(name) for every driver entry point the backend opens.  The oldest
 * driver that exports them all implements CUDA 11.0
 * (cuDevicePrimaryCtxRelease_v2). */
#define SB_CUDA_DRIVER_CALLS(X)                                                                  \
    X(cuGetErrorName) X(cuGetErrorString) X(cuInit) X(cuDriverGetVersion)                        \
    X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)                \
    X(cuDeviceTotalMem_v2) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease_v2)           \
    X(cuCtxSetCurrent) X(cuStreamCreate) X(cuStreamDestroy_v2) X(cuStreamSynchronize)            \
    X(cuEventCreate) X(cuEventDestroy_v2) X(cuEventRecord) X(cuEventElapsedTime_v2)              \
    X(cuEventSynchronize) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)           \
    X(cuFuncGetAttribute) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuMemAlloc_v2)        \
    X(cuMemFree_v2) X(cuMemcpyHtoD_v2) X(cuMemcpyDtoH_v2) X(cuMemcpyDtoDAsync_v2)                \
    X(cuMemsetD32Async) X(cuMemHostAlloc) X(cuMemFreeHost) X(cuLaunchKernel)                    \
    X(cuMemGetInfo_v2) X(cuDeviceGetPCIBusId) X(cuDeviceGetUuid_v2)
#define SB_CUDA_OLDEST_DRIVER "CUDA 11.0"

/* ---- NVRTC (libnvrtc.so.<major>) ---- */

typedef unsigned int sb_nvrtcResult;
typedef struct _nvrtcProgram *sb_nvrtcProgram;
#define SB_NVRTC_TYPES(X) X(nvrtcResult) X(nvrtcProgram)

#define SB_NVRTC_CONSTANTS(X) X(NVRTC_SUCCESS, 0)

typedef const char *(*sb_nvrtcGetErrorString_fn)(sb_nvrtcResult result);
typedef sb_nvrtcResult (*sb_nvrtcVersion_fn)(int *major, int *minor);
typedef sb_nvrtcResult (*sb_nvrtcGetNumSupportedArchs_fn)(int *count);
typedef sb_nvrtcResult (*sb_nvrtcGetSupportedArchs_fn)(int *archs);
typedef sb_nvrtcResult (*sb_nvrtcCreateProgram_fn)(sb_nvrtcProgram *prog, const char *source,
                                                   const char *name, int nheaders,
                                                   const char *const *headers,
                                                   const char *const *include_names);
typedef sb_nvrtcResult (*sb_nvrtcDestroyProgram_fn)(sb_nvrtcProgram *prog);
typedef sb_nvrtcResult (*sb_nvrtcCompileProgram_fn)(sb_nvrtcProgram prog, int noptions,
                                                    const char *const *options);
typedef sb_nvrtcResult (*sb_nvrtcGetPTXSize_fn)(sb_nvrtcProgram prog, size_t *size);
typedef sb_nvrtcResult (*sb_nvrtcGetPTX_fn)(sb_nvrtcProgram prog, char *ptx);
typedef sb_nvrtcResult (*sb_nvrtcGetCUBINSize_fn)(sb_nvrtcProgram prog, size_t *size);
typedef sb_nvrtcResult (*sb_nvrtcGetCUBIN_fn)(sb_nvrtcProgram prog, char *cubin);
typedef sb_nvrtcResult (*sb_nvrtcGetProgramLogSize_fn)(sb_nvrtcProgram prog, size_t *size);
typedef sb_nvrtcResult (*sb_nvrtcGetProgramLog_fn)(sb_nvrtcProgram prog, char *log);

/* X(name) for every NVRTC entry point the backend opens; all of them are
 * in NVRTC 11.2 and later (nvrtcGetNumSupportedArchs). */
#define SB_NVRTC_CALLS(X)                                                                        \
    X(nvrtcGetErrorString) X(nvrtcVersion) X(nvrtcGetNumSupportedArchs)                          \
    X(nvrtcGetSupportedArchs) X(nvrtcCreateProgram) X(nvrtcDestroyProgram)                       \
    X(nvrtcCompileProgram) X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcGetCUBINSize)                \
    X(nvrtcGetCUBIN) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog)
#define SB_NVRTC_OLDEST "NVRTC 11.2"

/* ---- cuBLAS (libcublas.so.<major>) ---- */

typedef unsigned int sb_cublasStatus_t;
typedef unsigned int sb_cublasOperation_t;
typedef struct cublasContext *sb_cublasHandle_t;
#define SB_CUBLAS_TYPES(X) X(cublasStatus_t) X(cublasOperation_t) X(cublasHandle_t)

#define SB_CUBLAS_CONSTANTS(X)                                                                   \
    X(CUBLAS_STATUS_SUCCESS, 0)                                                                  \
    X(CUBLAS_STATUS_NOT_INITIALIZED, 1)                                                          \
    X(CUBLAS_STATUS_ALLOC_FAILED, 3)                                                             \
    X(CUBLAS_STATUS_INVALID_VALUE, 7)                                                            \
    X(CUBLAS_STATUS_ARCH_MISMATCH, 8)                                                            \
    X(CUBLAS_STATUS_MAPPING_ERROR, 11)                                                           \
    X(CUBLAS_STATUS_EXECUTION_FAILED, 13)                                                        \
    X(CUBLAS_STATUS_INTERNAL_ERROR, 14)                                                          \
    X(CUBLAS_STATUS_NOT_SUPPORTED, 15)                                                           \
    X(CUBLAS_STATUS_LICENSE_ERROR, 16)                                                           \
    X(CUBLAS_OP_N, 0)                                                                            \
    X(CUBLAS_OP_T, 1)

typedef sb_cublasStatus_t (*sb_cublasCreate_v2_fn)(sb_cublasHandle_t *handle);
/* The stream is the runtime's cudaStream_t, the same struct as CUstream. */
typedef sb_cublasStatus_t (*sb_cublasSetStream_v2_fn)(sb_cublasHandle_t handle,
                                                      sb_CUstream stream);
typedef sb_cublasStatus_t (*sb_cublasDestroy_v2_fn)(sb_cublasHandle_t handle);
typedef sb_cublasStatus_t (*sb_cublasSgeam_fn)(sb_cublasHandle_t handle,
                                               sb_cublasOperation_t transa,
                                               sb_cublasOperation_t transb, int m, int n,
                                               const float *alpha, const float *a, int lda,
                                               const float *beta, const float *b, int ldb,
                                               float *c, int ldc);
typedef sb_cublasStatus_t (*sb_cublasSgemm_v2_fn)(sb_cublasHandle_t handle,
                                                 sb_cublasOperation_t transa,
                                                 sb_cublasOperation_t transb, int m, int n, int k,
                                                 const float *alpha, const float *a, int lda,
                                                 const float *b, int ldb, const float *beta,
                                                 float *c, int ldc);
typedef const char *(*sb_cublasGetStatusName_fn)(sb_cublasStatus_t status);
typedef const char *(*sb_cublasGetStatusString_fn)(sb_cublasStatus_t status);

/* X(name): the cuBLAS entry points the backend needs, then those it uses
 * when the library has them (cuBLAS 11.4.2 and later).  cublas_v2.h maps
 * cublasSgemm onto cublasSgemm_v2; the library's plain cublasSgemm is the
 * legacy API's, without a handle. */
#define SB_CUBLAS_CALLS(X)                                                                       \
    X(cublasCreate_v2) X(cublasSetStream_v2) X(cublasSgeam) X(cublasSgemm_v2)                   \
    X(cublasDestroy_v2)
#define SB_CUBLAS_OPTIONAL_CALLS(X) X(cublasGetStatusName) X(cublasGetStatusString)

/* ---- the constants, each under its SB_ name ---- */

#define SB_CUDA_API_ENUM(name, value) SB_##name = (value),
enum {
    SB_CUDA_DRIVER_CONSTANTS(SB_CUDA_API_ENUM) SB_NVRTC_CONSTANTS(SB_CUDA_API_ENUM)
        SB_CUBLAS_CONSTANTS(SB_CUDA_API_ENUM)
};
#undef SB_CUDA_API_ENUM

#endif
