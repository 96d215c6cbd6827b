/* Shared/local-memory access patterns (bank conflicts, seeds 000 and 002):
 * every thread repeats one shared-memory access ITERS times, so that the
 * time of the launch is the time of those accesses.
 *
 * shared_load:  fill the buffer from `in`, then each thread loads its slot
 *               ITERS times and writes the sum (one element per thread).
 * shared_store: each thread stores to its slot ITERS times, then the block
 *               writes its whole buffer out.  Slot x only ever receives
 *               in[x], from whichever lane or warp stores it, and slots no
 *               lane stores keep ~in[x]: the final buffer is determinate
 *               even where several lanes store to one address.
 *
 * Definitions (identical for every API):
 *   WORD     bytes per element: 4 (uint), 8 (uint2) or 16 (uint4)
 *   ITERS    accesses per thread (a multiple of UNROLL)
 *   SPAN     elements of the shared buffer (the host computes it from the
 *            others, so that both sides agree on it)
 *   WALK     0: linear, lane l takes element (l / SAME) * STRIDE
 *            1: row walk of tile[TILE][TILE + PAD], warp w takes row w
 *            2: column walk, warp w takes column w
 *   STRIDE   linear: elements between consecutive lanes (groups)
 *   SAME     linear: groups of SAME consecutive lanes share one element
 *   TILE     tile walks: rows and columns of the tile
 *   PAD      tile walks: extra columns per row ([32][33]: PAD 1)
 *   SWIZZLE  tile walks: 1 stores column c of row r at c ^ r
 *
 * Every warp of a block walks the same addresses (tile walks: its own row
 * or column): bank conflicts happen inside one warp's request, so warps
 * need no buffer of their own, and the buffer stays small enough for many
 * blocks per multiprocessor. */
#ifndef WORD
#define WORD 4
#endif
#ifndef ITERS
#define ITERS 1024
#endif
#ifndef WALK
#define WALK 0
#endif
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef SAME
#define SAME 1
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef SWIZZLE
#define SWIZZLE 0
#endif
#ifndef SPAN
#error "SPAN (elements of the shared buffer) must be defined"
#endif

/* Arithmetic on one element, component by component: CUDA's vector types
   have no operators, OpenCL's do, members work in both. */
#if WORD == 4
#define T uint
#define SET_ZERO(a) ((a) = 0u)
#define ADD_TO(a, b) ((a) += (b))
#define FLIP(a) ((a) = ~(a))
#elif WORD == 8
#define T uint2
#define SET_ZERO(a) ((a).x = 0u, (a).y = 0u)
#define ADD_TO(a, b) ((a).x += (b).x, (a).y += (b).y)
#define FLIP(a) ((a).x = ~(a).x, (a).y = ~(a).y)
#elif WORD == 16
#define T uint4
#define SET_ZERO(a) ((a).x = 0u, (a).y = 0u, (a).z = 0u, (a).w = 0u)
#define ADD_TO(a, b) ((a).x += (b).x, (a).y += (b).y, (a).z += (b).z, (a).w += (b).w)
#define FLIP(a) ((a).x = ~(a).x, (a).y = ~(a).y, (a).z = ~(a).z, (a).w = ~(a).w)
#else
#error "WORD must be 4, 8 or 16"
#endif

/* Accesses unrolled per loop trip, each SHIFT elements (128 bytes, one row
   of the 32 banks) after the previous one: moving a whole warp's addresses
   by 128 bytes leaves every lane in its bank, so all UNROLL accesses have
   the declared conflict pattern, and fixed offsets cost no instruction. */
#define UNROLL 8
#define SHIFT (128 / WORD)

#if SWIZZLE
#define SCOL(r, c) ((c) ^ ((r) & (TILE - 1)))
#else
#define SCOL(r, c) (c)
#endif

#if WALK == 0
#define SLOT(lane, warp) (((lane) / SAME) * STRIDE)
#elif WALK == 1
#define SLOT(lane, warp) ((warp) * (TILE + PAD) + SCOL((warp), (lane)))
#else
#define SLOT(lane, warp) ((lane) * (TILE + PAD) + SCOL((lane), (warp)))
#endif

/* `zero` is 0 at run time, which the compiler cannot know: adding
   it * zero to the index makes every trip's address look new, so the
   repeated load is neither hoisted nor merged (volatile would do it for
   uint, but CUDA cannot copy a volatile uint2 or uint4). */
KERNEL void shared_load(int n, int zero, GLOBAL const T *RESTRICT in, GLOBAL T *RESTRICT out)
{
    LOCAL T buf[SPAN];
    int tid = LOCAL_ID(0);
    for (int i = tid; i < SPAN; i += LOCAL_SIZE(0))
        buf[i] = in[i];
    BARRIER();
    int slot = SLOT(tid & 31, tid >> 5);
    T acc;
    SET_ZERO(acc);
    for (int it = 0; it < ITERS / UNROLL; it++) {
        int p = slot + it * zero;
        T v0 = buf[p];
        T v1 = buf[p + SHIFT];
        T v2 = buf[p + 2 * SHIFT];
        T v3 = buf[p + 3 * SHIFT];
        T v4 = buf[p + 4 * SHIFT];
        T v5 = buf[p + 5 * SHIFT];
        T v6 = buf[p + 6 * SHIFT];
        T v7 = buf[p + 7 * SHIFT];
        ADD_TO(v0, v1);
        ADD_TO(v2, v3);
        ADD_TO(v4, v5);
        ADD_TO(v6, v7);
        ADD_TO(v0, v2);
        ADD_TO(v4, v6);
        ADD_TO(acc, v0);
        ADD_TO(acc, v4);
    }
    /* Threads past n took part (they share the block's barriers) but
       write nothing. */
    int g = GROUP_ID(0) * LOCAL_SIZE(0) + tid;
    if (g < n)
        out[g] = acc;
}

KERNEL void shared_store(int n, int zero, GLOBAL const T *RESTRICT in, GLOBAL T *RESTRICT out)
{
    LOCAL T buf[SPAN];
    int tid = LOCAL_ID(0);
    for (int i = tid; i < SPAN; i += LOCAL_SIZE(0)) {
        T w = in[i];
        FLIP(w);
        buf[i] = w;
    }
    int slot = SLOT(tid & 31, tid >> 5);
    T v0 = in[slot];
    T v1 = in[slot + SHIFT];
    T v2 = in[slot + 2 * SHIFT];
    T v3 = in[slot + 3 * SHIFT];
    T v4 = in[slot + 4 * SHIFT];
    T v5 = in[slot + 5 * SHIFT];
    T v6 = in[slot + 6 * SHIFT];
    T v7 = in[slot + 7 * SHIFT];
    BARRIER();
    for (int it = 0; it < ITERS / UNROLL; it++) {
        int p = slot + it * zero;
        buf[p] = v0;
        buf[p + SHIFT] = v1;
        buf[p + 2 * SHIFT] = v2;
        buf[p + 3 * SHIFT] = v3;
        buf[p + 4 * SHIFT] = v4;
        buf[p + 5 * SHIFT] = v5;
        buf[p + 6 * SHIFT] = v6;
        buf[p + 7 * SHIFT] = v7;
    }
    BARRIER();
    GLOBAL T *dump = out + (size_t)GROUP_ID(0) * SPAN;
    for (int i = tid; i < SPAN; i += LOCAL_SIZE(0))
        dump[i] = buf[i];
    (void)n;
}
