/* The launch family (issue 17): what a launch costs, on the device and as
 * the host sees it.
 *
 * launch_empty does nothing but have one thread leave the mark it is
 * given, so that the check sees that the launch ran; launch_copy is
 * BabelStream's copy, c[i] = a[i], one element per thread, with a bound
 * for sizes that are not a multiple of the block. */
KERNEL void launch_empty(int mark, GLOBAL int *out)
{
    if (GROUP_ID(0) == 0 && LOCAL_ID(0) == 0)
        out[0] = mark;
}

KERNEL void launch_copy(int n, GLOBAL const float *RESTRICT a, GLOBAL float *RESTRICT c)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i < n)
        c[i] = a[i];
}
