/* Copy, float32, with a grid of any size: c[i] = a[i].
 *
 * The grid is chosen by the experiment, not by n (the occupancy family
 * launches from one block per multiprocessor upward), so each thread walks
 * the array with a stride of the whole grid; every step of that walk is
 * still 32 consecutive floats per warp (coalesced).  The frontend keeps n
 * below 2^30 so that i + stride cannot overflow an int. */
KERNEL void copy_grid_stride(int n, GLOBAL const float *RESTRICT a, GLOBAL float *RESTRICT c)
{
    int stride = NUM_GROUPS(0) * LOCAL_SIZE(0);
    for (int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0); i < n; i += stride)
        c[i] = a[i];
}
