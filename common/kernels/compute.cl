/* The compute family (issue 17): the FP32 FMA peak.
 *
 * Every thread runs CHAINS independent chains of x = fma(x, mul, add),
 * UNROLL of them per chain in each trip of a loop that runs `iters` times:
 * iters, mul and add are arguments, so the compiler can neither count the
 * work nor fold it, and the chains give each warp CHAINS FMAs to issue
 * before the first one's result is needed (the ILP).  Each chain starts
 * from a value of the thread's lane, so that the host checks every output
 * against its lane's result, which it computes itself with fmaf. */
KERNEL void fma_peak(int iters, float mul, float add, GLOBAL float *out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    float x[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        x[c] = (float)(i & 31) * 0.03125f + (float)c * 0.0078125f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < CHAINS; c++)
                x[c] = FMA(x[c], mul, add);
        }
    }
    float sum = x[0];
#pragma unroll
    for (int c = 1; c < CHAINS; c++)
        sum += x[c];
    out[i] = sum;
}
