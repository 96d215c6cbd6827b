/* A stand-in for libcuda.so.1 with one device and no way to run anything,
 * so that tests/backends/messages.sh can reach what the CUDA backend does
 * after the driver loads (opening NVRTC, cuBLAS) on a machine without a
 * GPU.  Every entry point cuda_api.h lists, each with its real signature:
 * the queries answer, everything else fails with CUDA_ERROR_NOT_SUPPORTED. */
#include <stdio.h>
#include <string.h>

#include "cuda_api.h"

#define NOT_SUPPORTED 801u

sb_CUresult cuGetErrorName(sb_CUresult e, const char **s)
{
    *s = e == NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : "CUDA_ERROR_UNKNOWN";
    return 0;
}
sb_CUresult cuGetErrorString(sb_CUresult e, const char **s)
{
    (void)e;
    *s = "the test stub of libcuda.so.1 runs nothing";
    return 0;
}
sb_CUresult cuInit(unsigned int f) { (void)f; return 0; }
sb_CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
sb_CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
sb_CUresult cuDeviceGet(sb_CUdevice *d, int o) { *d = o; return 0; }
sb_CUresult cuDeviceGetName(char *name, int len, sb_CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "simtbench test stub");
    return 0;
}
sb_CUresult cuDeviceGetAttribute(int *v, sb_CUdevice_attribute a, sb_CUdevice d)
{
    (void)d;
    *v = a == SB_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
    return 0;
}
sb_CUresult cuDeviceTotalMem_v2(size_t *b, sb_CUdevice d) { (void)d; *b = 0; return 0; }
/* An address in the driver's upper-case form, which the backend writes as
   lspci does, and a UUID of the bytes 0x10..0x1f. */
sb_CUresult cuDeviceGetPCIBusId(char *bus, int len, sb_CUdevice d)
{
    (void)d;
    snprintf(bus, (size_t)len, "0000:3B:00.0");
    return 0;
}
sb_CUresult cuDeviceGetUuid_v2(sb_CUuuid *uuid, sb_CUdevice d)
{
    (void)d;
    for (int i = 0; i < SB_CU_UUID_BYTES; i++)
        ((unsigned char *)uuid)[i] = (unsigned char)(0x10 + i);
    return 0;
}

/* The rest refuse; their parameters go unused (built with
   -Wno-unused-parameter). */
sb_CUresult cuDevicePrimaryCtxRetain(sb_CUcontext *c, sb_CUdevice d) { return NOT_SUPPORTED; }
sb_CUresult cuDevicePrimaryCtxRelease_v2(sb_CUdevice d) { return NOT_SUPPORTED; }
sb_CUresult cuCtxSetCurrent(sb_CUcontext c) { return NOT_SUPPORTED; }
sb_CUresult cuStreamCreate(sb_CUstream *s, unsigned int f) { return NOT_SUPPORTED; }
sb_CUresult cuStreamDestroy_v2(sb_CUstream s) { return NOT_SUPPORTED; }
sb_CUresult cuStreamSynchronize(sb_CUstream s) { return NOT_SUPPORTED; }
sb_CUresult cuEventCreate(sb_CUevent *e, unsigned int f) { return NOT_SUPPORTED; }
sb_CUresult cuEventDestroy_v2(sb_CUevent e) { return NOT_SUPPORTED; }
sb_CUresult cuEventRecord(sb_CUevent e, sb_CUstream s) { return NOT_SUPPORTED; }
/* Under its pre-12.8 name: the backend must fall back to it. */
sb_CUresult cuEventElapsedTime(float *ms, sb_CUevent a, sb_CUevent b) { return NOT_SUPPORTED; }
sb_CUresult cuEventSynchronize(sb_CUevent e) { return NOT_SUPPORTED; }
sb_CUresult cuModuleLoadData(sb_CUmodule *m, const void *image) { return NOT_SUPPORTED; }
sb_CUresult cuModuleUnload(sb_CUmodule m) { return NOT_SUPPORTED; }
sb_CUresult cuModuleGetFunction(sb_CUfunction *f, sb_CUmodule m, const char *name)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuFuncGetAttribute(int *v, sb_CUfunction_attribute a, sb_CUfunction f)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, sb_CUfunction f,
                                                        int block_threads, size_t shared)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuMemAlloc_v2(sb_CUdeviceptr *p, size_t n) { return NOT_SUPPORTED; }
sb_CUresult cuMemFree_v2(sb_CUdeviceptr p) { return NOT_SUPPORTED; }
sb_CUresult cuMemcpyHtoD_v2(sb_CUdeviceptr d, const void *s, size_t n) { return NOT_SUPPORTED; }
sb_CUresult cuMemcpyDtoH_v2(void *d, sb_CUdeviceptr s, size_t n) { return NOT_SUPPORTED; }
sb_CUresult cuMemcpyDtoDAsync_v2(sb_CUdeviceptr d, sb_CUdeviceptr s, size_t n, sb_CUstream st)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuMemHostAlloc(void **p, size_t n, unsigned int flags) { return NOT_SUPPORTED; }
sb_CUresult cuMemFreeHost(void *p) { return NOT_SUPPORTED; }
sb_CUresult cuMemsetD32Async(sb_CUdeviceptr d, unsigned int w, size_t n, sb_CUstream st)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuLaunchKernel(sb_CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                           unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                           sb_CUstream s, void **params, void **extra)
{
    return NOT_SUPPORTED;
}
sb_CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes) { return NOT_SUPPORTED; }
