/* Privatisation (seed 001): a histogram of 32-bit values into BINS bins,
 * and a sum, each with one global atomic per element against private
 * copies that are merged once per block.  The seed's lesson: privatising
 * spends shared memory (and a merge) to relieve contention on the global
 * atomics, and only pays where that contention is the bottleneck.
 *
 * Value v falls in bin v & mask, mask = BINS - 1 (BINS a power of two)
 * given at run time: a compiler that saw a constant bin (with one bin, 0)
 * would know that every lane updates one address and could combine a
 * warp's updates into one, hiding the contention under study.
 *
 * Definitions (identical for every API):
 *   BINS     bins of the histogram (1 for the sum)
 *   BLOCK    threads per block, a multiple of 32 (the frontend launches that)
 *   COARSE   inputs per thread: thread tx of block bx takes inputs
 *            bx * BLOCK * COARSE + tx + j * BLOCK, j < COARSE, so that at
 *            every j a warp reads 32 consecutive words (coalesced)
 *   PRIVATE  1: the kernels with a private copy in shared memory are built
 *            too (hist_shared always, hist_warp up to 256 bins, hist_thread
 *            up to 32); without it only hist_global and the sums, so that
 *            a histogram too large for a device's shared memory leaves the
 *            global-atomic kernel buildable
 *
 * Every launch must publish the whole histogram although atomics only
 * ever add and nothing can clear the bins between the blocks of one
 * launch.  So the bins live in a scratch buffer `acc`, zero when the
 * frontend uploads it, in two halves that launches take in turn:
 *   acc[0]                epoch: launches completed, whose parity is the
 *                         half this launch adds into
 *   acc[1]                blocks of this launch done so far
 *   acc[ACC_HALF(h) ...]  half h of the bins: each half starts on a
 *                         128-byte line of its own (32 words in, and
 *                         BINS rounded up to 32 words apart), so that
 *                         publishing it moves whole sectors, as the
 *                         copy into `hist` does
 * A launch adds its inputs into half P and, spread over all its threads,
 * copies the other half (the complete histogram of the launch before) into
 * `hist` and zeroes it for the launch after.  The last block to finish
 * resets the done count and advances the epoch; every block has read the
 * epoch before it counts itself done.  The published histogram is thus one
 * launch behind: after two or more launches of the same inputs (the
 * frontend always makes more) it is exactly the inputs' histogram.
 *
 * Indices are int: the frontend keeps n below 2^31 - BLOCK * COARSE. */
#ifndef BINS
#define BINS 256
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef COARSE
#define COARSE 1
#endif
#ifndef PRIVATE
#define PRIVATE 0
#endif

#define WARP 32
#define WARPS (BLOCK / WARP)
#define ACC_EPOCH 0
#define ACC_DONE 1
#define ACC_LINE 32 /* words of a 128-byte line */
#define ACC_HALF_WORDS ((BINS + ACC_LINE - 1) / ACC_LINE * ACC_LINE)
#define ACC_HALF(h) (ACC_LINE + (h) * ACC_HALF_WORDS)

/* The launches completed so far, read from `acc` by thread 0 for the block
 * and by every thread once from `slot`: each keeps it in a register (its
 * parity is the half this launch adds into) for launch_done, so that no
 * later read of the slot is left to the compiler's choice. */
DEVICE_FN uint launch_epoch(GLOBAL uint *acc, LOCAL_PTR uint *slot)
{
    if (LOCAL_ID(0) == 0)
        *slot = acc[ACC_EPOCH];
    BARRIER();
    return *slot;
}

/* The launch before's histogram (the other half) into hist, and that half
 * zeroed, spread over every thread of the grid. */
DEVICE_FN void publish_previous(GLOBAL uint *acc, GLOBAL uint *hist, int side)
{
    GLOBAL uint *done = acc + ACC_HALF(1 - side);
    int threads = NUM_GROUPS(0) * LOCAL_SIZE(0);
    for (int b = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0); b < BINS; b += threads) {
        hist[b] = done[b];
        done[b] = 0u;
    }
}

/* The block counts itself done; the last one readies the next launch.  The
 * fence keeps thread 0's read of the epoch before its count. */
DEVICE_FN void launch_done(GLOBAL uint *acc, uint epoch)
{
    if (LOCAL_ID(0) != 0)
        return;
    GLOBAL_FENCE();
    if (ATOMIC_ADD(&acc[ACC_DONE], 1u) == (uint)NUM_GROUPS(0) - 1u) {
        acc[ACC_DONE] = 0u;
        acc[ACC_EPOCH] = epoch + 1u;
    }
}

/* This thread's j-th input, or -1 past the end. */
DEVICE_FN int input_index(int n, int j)
{
    int i = GROUP_ID(0) * BLOCK * COARSE + LOCAL_ID(0) + j * BLOCK;
    return i < n ? i : -1;
}

/* ------------------------------------------------------------ histogram */

/* One global atomic per input: every lane of a warp whose values share a
 * bin updates the same address. */
KERNEL void hist_global(int n, int mask, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                        GLOBAL uint *RESTRICT hist)
{
    LOCAL uint slot;
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, hist, side);
    GLOBAL uint *bins = acc + ACC_HALF(side);
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            ATOMIC_ADD(&bins[in[i] & (uint)mask], 1u);
    }
    launch_done(acc, epoch);
}

#if PRIVATE
/* The private copy's bins that this block filled, added to the launch's
 * half with one global atomic each (empty bins cost none). */
DEVICE_FN void merge_bin(GLOBAL uint *bins, int b, uint count)
{
    if (count != 0u)
        ATOMIC_ADD(&bins[b], count);
}

/* One private copy of the histogram per block in shared memory, updated
 * with shared atomics, merged once at the end. */
KERNEL void hist_shared(int n, int mask, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                        GLOBAL uint *RESTRICT hist)
{
    LOCAL uint slot;
    LOCAL uint priv[BINS];
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, hist, side);
    for (int b = LOCAL_ID(0); b < BINS; b += BLOCK)
        priv[b] = 0u;
    BARRIER();
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            ATOMIC_ADD(&priv[in[i] & (uint)mask], 1u);
    }
    BARRIER();
    GLOBAL uint *bins = acc + ACC_HALF(side);
    for (int b = LOCAL_ID(0); b < BINS; b += BLOCK)
        merge_bin(bins, b, priv[b]);
    launch_done(acc, epoch);
}

#if BINS <= 256
/* One private copy per warp: no contention between the warps of a block,
 * only among a warp's own lanes.  The copies are summed before the merge. */
KERNEL void hist_warp(int n, int mask, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                      GLOBAL uint *RESTRICT hist)
{
    LOCAL uint slot;
    LOCAL uint priv[WARPS * BINS];
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, hist, side);
    for (int b = LOCAL_ID(0); b < WARPS * BINS; b += BLOCK)
        priv[b] = 0u;
    BARRIER();
    LOCAL_PTR uint *mine = priv + (LOCAL_ID(0) / WARP) * BINS;
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            ATOMIC_ADD(&mine[in[i] & (uint)mask], 1u);
    }
    BARRIER();
    GLOBAL uint *bins = acc + ACC_HALF(side);
    for (int b = LOCAL_ID(0); b < BINS; b += BLOCK) {
        uint count = 0u;
        for (int w = 0; w < WARPS; w++)
            count += priv[w * BINS + b];
        merge_bin(bins, b, count);
    }
    launch_done(acc, epoch);
}
#endif

#if BINS <= 32 && BLOCK % BINS == 0
/* One private counter per thread and bin, no atomics at all: thread t's
 * counter of bin b is word b * BLOCK + t, so a warp's lanes always update
 * 32 consecutive words (32 banks), whatever bins they pick.  The merge
 * sums each bin's BLOCK counters: thread t takes bin t % BINS and piece
 * t / BINS of the G = BLOCK / BINS pieces of BINS consecutive counters
 * (read from a lane-rotated start, so that a warp's lanes read 32 banks),
 * then a tree over the G partial sums, kept piece-major (bin b's piece p
 * at part[p * BINS + b]) so that its steps and the final read of each
 * bin's total touch consecutive words, conflict-free. */
KERNEL void hist_thread(int n, int mask, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                        GLOBAL uint *RESTRICT hist)
{
    LOCAL uint slot;
    LOCAL uint count[BINS * BLOCK];
    LOCAL uint part[BLOCK];
    int t = LOCAL_ID(0);
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, hist, side);
    for (int b = 0; b < BINS; b++)
        count[b * BLOCK + t] = 0u;
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            count[(in[i] & (uint)mask) * BLOCK + t] += 1u;
    }
    BARRIER();
    const int per_bin = BLOCK / BINS;
    int bin = t % BINS, piece = t / BINS;
    LOCAL_PTR uint *row = count + bin * BLOCK + piece * BINS;
    uint sum = 0u;
    for (int k = 0; k < BINS; k++)
        sum += row[(k + t) % BINS];
    part[t] = sum;
    for (int s = per_bin / 2; s > 0; s /= 2) {
        BARRIER();
        if (piece < s)
            part[t] += part[t + s * BINS];
    }
    BARRIER();
    if (t < BINS)
        merge_bin(acc + ACC_HALF(side), t, part[t]);
    launch_done(acc, epoch);
}
#endif
#endif /* PRIVATE */

/* ------------------------------------------------------------------ sum */

/* The sum of the inputs modulo 2^32 with one global atomic per input, all
 * on one address, as a sum is written: that address is plainly the same
 * for every lane, so a compiler may combine a warp's updates into one (the
 * machine code says whether it did). */
KERNEL void sum_global(int n, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                       GLOBAL uint *RESTRICT total)
{
    LOCAL uint slot;
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, total, side);
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            ATOMIC_ADD(&acc[ACC_HALF(side)], in[i]);
    }
    launch_done(acc, epoch);
}

/* Per-block partial sums: each thread adds its COARSE inputs in a
 * register, the block adds its threads' sums in a tree in shared memory,
 * and one global atomic per block adds the block's sum. */
KERNEL void sum_block(int n, GLOBAL const uint *RESTRICT in, GLOBAL uint *acc,
                      GLOBAL uint *RESTRICT total)
{
    LOCAL uint slot;
    LOCAL uint part[BLOCK];
    int t = LOCAL_ID(0);
    uint epoch = launch_epoch(acc, &slot);
    int side = (int)(epoch & 1u);
    publish_previous(acc, total, side);
    uint sum = 0u;
    for (int j = 0; j < COARSE; j++) {
        int i = input_index(n, j);
        if (i >= 0)
            sum += in[i];
    }
    part[t] = sum;
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        BARRIER();
        if (t < s)
            part[t] += part[t + s];
    }
    if (t == 0)
        ATOMIC_ADD(&acc[ACC_HALF(side)], part[0]);
    launch_done(acc, epoch);
}
