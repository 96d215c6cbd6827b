/* The DRAM families (seed 001): below the coalescer, where bursts, banks
 * and channels decide what a request costs.
 *
 * chunk_gather copies the chunks of `in` into `out` in the order a
 * placement gives: out is written densely, in is read in contiguous chunks
 * of 2^lcw 16-byte words (the chunk sizes of the burst experiment), taken
 * from the slots the placement names:
 *   order 0  in place: a sequential copy, the roof of the same kernel
 *   order 1  a random permutation of the 2^lchunks slots (a hash that is a
 *            bijection modulo 2^lchunks, seeded), so that neighbouring
 *            chunks land anywhere in the buffer
 *   order 2  at a distance of 2^ldist chunks: chunk k + 1 is 2^ldist
 *            chunks after chunk k, the 2^(lchunks - ldist) chunks of one
 *            row are followed by the next row, one chunk further on, so
 *            that every slot is read once and the chunks in flight
 *            together are all that distance apart (the channel
 *            experiment: does the address mapping spread them?)
 * One 16-byte word per thread, so that a warp's request covers 512 bytes
 * and enough bytes are in flight for the bus.
 *
 * ws_copy copies n = 2^ln 16-byte words `passes` times in one launch, so
 * that a working set that fits a cache is measured at that cache's speed
 * and not at the launch's.  Pass p walks the words from p x WS_ROTATE on
 * (modulo n): a thread meets other words in each pass, words another
 * multiprocessor moved, rather than those its own L1 still holds.
 *
 * ws_read reads the same words in the same order as ws_copy and writes
 * nothing but each thread's xor of what it read, out[1 + thread], and the
 * passes it made, out[0] (the check's count of them): the read
 * side alone, as gpu-benches' gpu-l2-cache measures a cache (its kernel
 * sums what it reads), so that neither a store nor its write-back to DRAM
 * shares the time.
 *
 * Indices are int and uint: the frontend keeps buffers at 4 GiB at most
 * (2^28 words of 16 bytes). */
#define WS_ROTATE (32u * 40503u) /* an odd number of 512-byte warp spans */

KERNEL void chunk_gather(int lcw, int lchunks, int order, int ldist, int seed,
                         GLOBAL const uint4 *RESTRICT in, GLOBAL uint4 *RESTRICT out)
{
    int g = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (g >= (1 << (lchunks + lcw)))
        return;
    uint k = (uint)g >> lcw, slot = k;
    if (order == 1) {
        /* Each step a bijection modulo 2^lchunks: an xor, an odd multiply
           (masked), an xor-shift right; the host's check does the same. */
        uint mask = lchunks >= 32 ? 0xffffffffu : (1u << lchunks) - 1u;
        uint shift = (uint)(lchunks + 1) / 2u;
        slot = (k ^ (uint)seed) & mask;
        slot = (slot * 0x9e3779b1u) & mask;
        slot ^= slot >> shift;
        slot = (slot * 0x85ebca6bu) & mask;
        slot ^= slot >> shift;
    } else if (order == 2) {
        int lrows = lchunks - ldist;
        slot = ((k & ((1u << lrows) - 1u)) << ldist) + (k >> lrows);
    }
    out[g] = in[(slot << lcw) + ((uint)g & ((1u << lcw) - 1u))];
}

KERNEL void ws_copy(int ln, int passes, GLOBAL const uint4 *RESTRICT in,
                    GLOBAL uint4 *RESTRICT out)
{
    int stride = NUM_GROUPS(0) * LOCAL_SIZE(0);
    int total = passes << ln;
    uint mask = (1u << ln) - 1u;
    for (int v = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0); v < total; v += stride) {
        uint e = ((uint)v + ((uint)v >> ln) * WS_ROTATE) & mask;
        out[e] = in[e];
    }
}

KERNEL void ws_read(int ln, int passes, GLOBAL const uint4 *RESTRICT in, GLOBAL uint *RESTRICT out)
{
    int g = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    int stride = NUM_GROUPS(0) * LOCAL_SIZE(0);
    int total = passes << ln;
    uint mask = (1u << ln) - 1u, x = 0u;
    for (int v = g; v < total; v += stride) {
        uint4 w = in[((uint)v + ((uint)v >> ln) * WS_ROTATE) & mask];
        x ^= w.x ^ w.y ^ w.z ^ w.w;
    }
    out[1 + g] = x;
    if (g == 0)
        out[0] = (uint)passes;
}
