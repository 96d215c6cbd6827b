/* cuda/cuda_api.h against the CUDA toolkit's own headers.  The CUDA
 * backend builds from its own declarations, with no toolkit; wherever the
 * toolkit's headers are present, this test has the compiler check that
 * they have not drifted: every entry point the backend opens has the
 * toolkit's prototype, every constant its value, every type a compatible
 * type of the same size.  The lists checked are the ones the backend
 * builds its tables from, so nothing it uses escapes the check.  A
 * difference is a compile error naming the declaration; built only where
 * configure found cuda.h, nvrtc.h and cublas_v2.h. */
#include <cublas_v2.h>
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>

#include "cuda_api.h"

/* The toolkit's prototype of f is ours, sb_f_fn. */
#define SAME_CALL(f)                                                                             \
    _Static_assert(_Generic(&f, sb_##f##_fn: 1, default: 0),                                     \
                   "cuda_api.h: sb_" #f "_fn is not the prototype of the toolkit's " #f);
/* The toolkit's constant name has our value, SB_name. */
#define SAME_VALUE(name, value)                                                                  \
    _Static_assert((long long)SB_##name == (long long)(name),                                    \
                   "cuda_api.h: SB_" #name " differs from the toolkit's " #name);
/* The toolkit's type t is compatible with ours, sb_t, and as large. */
#define SAME_TYPE(t)                                                                             \
    _Static_assert(_Generic((t){0}, sb_##t: 1, default: 0) && sizeof(t) == sizeof(sb_##t),       \
                   "cuda_api.h: sb_" #t " differs from the toolkit's " #t);

SB_CUDA_DRIVER_TYPES(SAME_TYPE)
SB_CUDA_DRIVER_CONSTANTS(SAME_VALUE)
SB_CUDA_DRIVER_CALLS(SAME_CALL)
SB_NVRTC_TYPES(SAME_TYPE)
SB_NVRTC_CONSTANTS(SAME_VALUE)
SB_NVRTC_CALLS(SAME_CALL)
SB_CUBLAS_TYPES(SAME_TYPE)
SB_CUBLAS_CONSTANTS(SAME_VALUE)
SB_CUBLAS_CALLS(SAME_CALL)
SB_CUBLAS_OPTIONAL_CALLS(SAME_CALL)

/* cuBLAS takes the runtime's stream, which is the driver's. */
_Static_assert(_Generic((cudaStream_t){0}, sb_CUstream: 1, default: 0),
               "cuda_api.h: sb_CUstream is not the toolkit's cudaStream_t");

/* The backend passes SB_CU_UUID_BYTES bytes where cuda.h's CUuuid goes. */
_Static_assert(sizeof(CUuuid) == SB_CU_UUID_BYTES, "cuda_api.h: CUuuid is not 16 bytes");

#define COUNT(...) +1

int main(void)
{
    printf("1..3\n");
    printf("ok 1 - driver API: %d entry points, %d constants, %d types agree with cuda.h "
           "(CUDA %d.%d)\n",
           0 SB_CUDA_DRIVER_CALLS(COUNT), 0 SB_CUDA_DRIVER_CONSTANTS(COUNT),
           0 SB_CUDA_DRIVER_TYPES(COUNT), CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
    printf("ok 2 - NVRTC: %d entry points, %d constants, %d types agree with nvrtc.h\n",
           0 SB_NVRTC_CALLS(COUNT), 0 SB_NVRTC_CONSTANTS(COUNT), 0 SB_NVRTC_TYPES(COUNT));
    printf("ok 3 - cuBLAS: %d entry points, %d constants, %d types agree with cublas_v2.h\n",
           0 SB_CUBLAS_CALLS(COUNT) SB_CUBLAS_OPTIONAL_CALLS(COUNT),
           0 SB_CUBLAS_CONSTANTS(COUNT), 0 SB_CUBLAS_TYPES(COUNT));
    return 0;
}
