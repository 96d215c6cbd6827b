/* The launch family (issue 17): what a launch costs, on the device and as
 * the host sees it.
 *
 * launch_empty does nothing but have one thread leave the mark it is
 * given, so that the check sees that the launch ran.
 *
 * stream_copy is BabelStream's CUDA copy as its for_each runs it (its
 * default GRID_STRIDE loop, UNROLL_FACTOR 4): c[i] = a[i] over a grid of
 * n / 4 / 256 blocks of 256 threads, a thread's elements a grid apart,
 * with size_t indices and pointers that are not restrict (a lambda's
 * captures), so that a thread's next load waits behind its store.  WORD
 * is the element: ulong for BabelStream's default double (a copy moves
 * its 8 bytes with the same 64-bit loads and stores, and needs no fp64),
 * uint for --float. */
#ifndef WORD
#define WORD uint /* the empty kernel's program, where stream_copy is not launched */
#endif

KERNEL void launch_empty(int mark, GLOBAL int *out)
{
    if (GROUP_ID(0) == 0 && LOCAL_ID(0) == 0)
        out[0] = mark;
}

KERNEL void stream_copy(int n, GLOBAL const WORD *a, GLOBAL WORD *c)
{
    ulong i = (ulong)LOCAL_ID(0) + (ulong)LOCAL_SIZE(0) * (ulong)GROUP_ID(0);
    ulong stride = (ulong)NUM_GROUPS(0) * (ulong)LOCAL_SIZE(0);
#pragma unroll 4
    for (; i < (ulong)n; i += stride)
        c[i] = a[i];
}
