/* Vector add, float32: c[i] = a[i] + b[i] (seed 001's example of thread
 * coarsening that does not pay: parallel elements share no work, so there
 * is no price of parallelism for coarsening to remove).
 *
 * Definitions (identical for every API):
 *   COARSE  elements per thread.  Thread tx of block bx handles
 *           base + j * blockDim, base = bx * blockDim * COARSE + tx, so at
 *           every j a warp still reads 32 consecutive floats (coalesced);
 *           striding by COARSE within a thread would not be.
 *
 * The frontend keeps n far enough below 2^31 that base + j * blockDim
 * cannot overflow an int. */
#ifndef COARSE
#define COARSE 1
#endif

KERNEL void vecadd(int n, GLOBAL const float *RESTRICT a, GLOBAL const float *RESTRICT b,
                   GLOBAL float *RESTRICT c)
{
    int base = GROUP_ID(0) * LOCAL_SIZE(0) * COARSE + LOCAL_ID(0);
    for (int j = 0; j < COARSE; j++) {
        int i = base + j * LOCAL_SIZE(0);
        if (i < n)
            c[i] = a[i] + b[i];
    }
}
