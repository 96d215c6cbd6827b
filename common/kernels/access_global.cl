/* Global-memory access patterns (coalescing): which addresses the 32 lanes
 * of a warp touch, and what that costs in 32-byte sectors (seed 000).
 *
 * global_load copies a strided/permuted/misaligned/broadcast read into a
 * dense write; global_store copies a dense read into the strided/permuted/
 * misaligned write.  Every element of `in` (global_load) or of `out`
 * (global_store) is touched exactly once, so the bytes asked for are the
 * whole buffer and every figure is useful bandwidth.
 *
 * Definitions (identical for every API):
 *   WORD      bytes per lane: 4 (uint), 8 (uint2) or 16 (uint4)
 *   STRIDE    elements between consecutive lanes' elements (1: coalesced)
 *   SPREAD    1: each lane in its own 128-byte segment (the step becomes
 *             128 / WORD elements; STRIDE stays 1)
 *   OFFSET    elements added to every index: misalignment after a
 *             128-byte boundary
 *   PERM      which element of its warp's group a lane takes: 0 its own,
 *             1 reversed (31 - lane), 2 lane ^ PERM_ARG, 3 a random
 *             permutation read from the `perm` table (made by the host from
 *             the seed PERM_ARG with the model's own sb_perm_table)
 *   PERM_ARG  the XOR mask (PERM 2) or the random permutation's seed (PERM 3)
 *   SAME      groups of SAME consecutive lanes read one element (SAME 32:
 *             every lane of the warp reads the same word)
 *   WALK      global_walk only: 1 walks rows of a row-major matrix
 *             (M[k * cols + t]), 2 walks its columns (M[t * rows + k])
 *
 * The strided layout.  With a step of S elements, `in` is cut into blocks
 * of 32 * S elements; lane l of the warp that handles block b and phase q
 * touches element b * 32 * S + l * S + q.  The S phases together touch every
 * element once.  Phases run one after the other over the whole buffer (the
 * launch grid's y index is the phase, and blocks are issued x-first), and
 * they are issued in an order that keeps the phases sharing a 32-byte
 * sector far apart (phase_word below), so that by the time a sector's
 * other words are wanted it has left the L2: with a buffer of a few L2
 * sizes, each phase's sectors really come from DRAM and the waste the
 * model predicts is really paid.  The last n mod (32 * S) elements, fewer
 * than one block, are copied in order (the `tail' grid row).
 *
 * Besides the declared access and its dense partner, a warp with work
 * reads the lane table once per phase (PERM 3: one 128-byte request beside
 * its UNROLL data accesses), and the tail is copied in order: global.c
 * declares each to the model, so that its totals are the whole kernel's.
 *
 * Indices are int: the frontend keeps buffers under 2 GiB. */
#ifndef WORD
#define WORD 4
#endif
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef SPREAD
#define SPREAD 0
#endif
#ifndef OFFSET
#define OFFSET 0
#endif
#ifndef PERM
#define PERM 0
#endif
#ifndef PERM_ARG
#define PERM_ARG 0
#endif
#ifndef SAME
#define SAME 1
#endif
#ifndef WALK
#define WALK 1
#endif

#if WORD == 4
#define T uint
#elif WORD == 8
#define T uint2
#elif WORD == 16
#define T uint4
#else
#error "WORD must be 4, 8 or 16"
#endif

/* Elements each thread copies: independent loads in flight, so that even
   4-byte words can keep the memory system busy. */
#define UNROLL 4

/* Elements between consecutive lanes. */
#if SPREAD
#define STEP (128 / WORD)
#else
#define STEP STRIDE
#endif

/* Phase order.  The words of one sector are SECTOR_WORDS consecutive
   phases; lay the STEP phases out as rows of SECTOR_WORDS and issue them
   column by column (0, 8, 16, ..., 1, 9, 17, ... for 4-byte words), so
   that phases sharing a sector are about STEP / SECTOR_WORDS phases, or a
   whole buffer's worth of sectors, apart.  Columns below PHASE_LONG_COLS
   have PHASE_ROWS + 1 entries, the others PHASE_ROWS. */
#define SECTOR_WORDS (32 / WORD)
#define PHASE_ROWS (STEP / SECTOR_WORDS)
#define PHASE_LONG_COLS (STEP % SECTOR_WORDS)
#define PHASE_LONG (PHASE_LONG_COLS * (PHASE_ROWS + 1))
#define PHASE_SHORT_ROWS (PHASE_ROWS > 0 ? PHASE_ROWS : 1) /* never divides by 0 */

#define PHASE_COL(k)                                                                    \
    ((k) < PHASE_LONG ? (k) / (PHASE_ROWS + 1)                                          \
                      : PHASE_LONG_COLS + ((k) - PHASE_LONG) / PHASE_SHORT_ROWS)
#define PHASE_ROW(k)                                                                    \
    ((k) < PHASE_LONG ? (k) % (PHASE_ROWS + 1) : ((k) - PHASE_LONG) % PHASE_SHORT_ROWS)
#define PHASE_WORD(k) (PHASE_ROW(k) * SECTOR_WORDS + PHASE_COL(k))

/* The element of its group a lane takes. */
#if PERM == 0
#define LANE_POS(l) (l)
#elif PERM == 1
#define LANE_POS(l) (31 - (l))
#elif PERM == 2
#define LANE_POS(l) ((l) ^ PERM_ARG)
#else
#define LANE_POS(l) (perm[l])
#endif

/* Thread (x, phase k): x counts lanes over the blocks, so x >> 5 is the
   block and x & 31 the lane (blocks of threads are multiples of 32). */
#define ELEMENT(x, k, pos)                                                              \
    (((x) >> 5) * (32 * STEP) + (pos) * STEP + PHASE_WORD(k) + OFFSET)

/* The element lane x's slot gives in phase k, computed once per thread: the
   unrolled accesses add whole blocks to it (a block of threads is a
   multiple of 32), so the phase's arithmetic stays out of the loop and the
   compiler has no reason to copy the loop for each kind of phase column. */
#define FIRST_ELEMENT(x, k) ELEMENT(x, k, LANE_POS(LOCAL_ID(0) & 31) / SAME)
#define NEXT_ELEMENTS (LOCAL_SIZE(0) * STEP) /* from one unrolled access to the next */

/* out[g] = in[element(g)]: the declared access is the read.  Warps past
   the last block of a phase have nothing to do, and leave before they
   read the lane table. */
KERNEL void global_load(int n, int nblocks, GLOBAL const T *RESTRICT in,
                        GLOBAL T *RESTRICT out, GLOBAL const int *RESTRICT perm)
{
    int k = GROUP_ID(1);
    int x0 = GROUP_ID(0) * (UNROLL * LOCAL_SIZE(0)) + LOCAL_ID(0);
    int lanes = nblocks * 32;
    T v[UNROLL];
    if (k < STEP) {
        if (x0 >= lanes)
            return;
        int at = FIRST_ELEMENT(x0, k);
        for (int u = 0; u < UNROLL; u++) {
            int x = x0 + u * LOCAL_SIZE(0);
            if (x < lanes)
                v[u] = in[at + u * NEXT_ELEMENTS];
        }
        for (int u = 0; u < UNROLL; u++) {
            int x = x0 + u * LOCAL_SIZE(0);
            if (x < lanes)
                out[k * lanes + x] = v[u];
        }
    } else {
        for (int u = 0; u < UNROLL; u++) {
            int g = lanes * STEP + x0 + u * LOCAL_SIZE(0);
            if (g < n)
                out[g] = in[g + OFFSET];
        }
    }
    (void)perm;
}

/* out[element(g)] = in[g]: the declared access is the write. */
KERNEL void global_store(int n, int nblocks, GLOBAL const T *RESTRICT in,
                         GLOBAL T *RESTRICT out, GLOBAL const int *RESTRICT perm)
{
    int k = GROUP_ID(1);
    int x0 = GROUP_ID(0) * (UNROLL * LOCAL_SIZE(0)) + LOCAL_ID(0);
    int lanes = nblocks * 32;
    T v[UNROLL];
    if (k < STEP) {
        if (x0 >= lanes)
            return;
        int at = FIRST_ELEMENT(x0, k);
        for (int u = 0; u < UNROLL; u++) {
            int x = x0 + u * LOCAL_SIZE(0);
            if (x < lanes)
                v[u] = in[k * lanes + x];
        }
        for (int u = 0; u < UNROLL; u++) {
            int x = x0 + u * LOCAL_SIZE(0);
            if (x < lanes)
                out[at + u * NEXT_ELEMENTS] = v[u];
        }
    } else {
        for (int u = 0; u < UNROLL; u++) {
            int g = lanes * STEP + x0 + u * LOCAL_SIZE(0);
            if (g < n)
                out[g + OFFSET] = in[g];
        }
    }
    (void)perm;
}

/* Thread t sums its line of a rows x cols row-major matrix: row walk reads
   M[k * cols + t] (neighbouring threads, neighbouring words), column walk
   reads the buffer as cols x rows, M[t * rows + k] (neighbouring threads
   `rows` words apart): the corner-turning case. */
#if WALK == 1
#define AT(k, t) ((k) * cols + (t))
#else
#define AT(k, t) ((t) * rows + (k))
#endif

KERNEL void global_walk(int rows, int cols, GLOBAL const uint *RESTRICT m,
                        GLOBAL uint *RESTRICT out)
{
    int t = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (t >= cols)
        return;
    /* Four sums: four loads in flight per thread. */
    uint a0 = 0u, a1 = 0u, a2 = 0u, a3 = 0u;
    int k = 0;
    for (; k + 4 <= rows; k += 4) {
        a0 += m[AT(k, t)];
        a1 += m[AT(k + 1, t)];
        a2 += m[AT(k + 2, t)];
        a3 += m[AT(k + 3, t)];
    }
    for (; k < rows; k++)
        a0 += m[AT(k, t)];
    out[t] = (a0 + a1) + (a2 + a3);
}
