/* Maps simtbench's portable kernel dialect onto OpenCL C 1.2. */
#define KERNEL __kernel
#define GLOBAL __global
#define LOCAL __local
#define RESTRICT restrict
#define LOCAL_ID(d) ((int)get_local_id(d))
#define GROUP_ID(d) ((int)get_group_id(d))
#define LOCAL_SIZE(d) ((int)get_local_size(d))
#define NUM_GROUPS(d) ((int)get_num_groups(d))
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define VOLATILE_LOCAL volatile __local
#define SB_OPENCL 1
#define FLOAT4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define LOCAL_PTR __local
#define ALIGNED(n) __attribute__((aligned(n)))
/* A helper function kernels call; an atomic add of a 32-bit unsigned word in
 * global or shared memory that returns the old value; a fence that orders a
 * thread's global-memory accesses before its later ones. */
#define DEVICE_FN static inline
#define ATOMIC_ADD(p, v) atomic_add((p), (v))
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
/* A fused multiply-add of floats, rounded once, as the host's fmaf. */
#define FMA(a, b, c) fma((a), (b), (c))
