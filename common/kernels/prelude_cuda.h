/* Maps simtbench's portable kernel dialect onto CUDA C++ (built by NVRTC). */
#define KERNEL extern "C" __global__
#define GLOBAL
#define LOCAL __shared__
#define RESTRICT __restrict__
#define LOCAL_ID(d) ((int)((d) == 0 ? threadIdx.x : (d) == 1 ? threadIdx.y : threadIdx.z))
#define GROUP_ID(d) ((int)((d) == 0 ? blockIdx.x : (d) == 1 ? blockIdx.y : blockIdx.z))
#define LOCAL_SIZE(d) ((int)((d) == 0 ? blockDim.x : (d) == 1 ? blockDim.y : blockDim.z))
#define NUM_GROUPS(d) ((int)((d) == 0 ? gridDim.x : (d) == 1 ? gridDim.y : gridDim.z))
#define BARRIER() __syncthreads()
#define VOLATILE_LOCAL volatile
#define SB_CUDA 1
typedef unsigned int uint;
typedef unsigned long long ulong;
#define FLOAT4(x, y, z, w) make_float4((x), (y), (z), (w))
#define LOCAL_PTR
#define ALIGNED(n) __attribute__((aligned(n)))
/* A helper function kernels call; an atomic add of a 32-bit unsigned word in
 * global or shared memory that returns the old value; a fence that orders a
 * thread's global-memory accesses before its later ones. */
#define DEVICE_FN static __device__ __forceinline__
#define ATOMIC_ADD(p, v) atomicAdd((p), (v))
#define GLOBAL_FENCE() __threadfence()
/* A fused multiply-add of floats, rounded once, as the host's fmaf. */
#define FMA(a, b, c) fmaf((a), (b), (c))
