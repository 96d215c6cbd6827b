/* Your own access pattern (the pattern family, `--index EXPR`): one
 * warp-wide access whose element index is an expression the user wrote,
 * in the thread's coordinates.  The expression arrives as -DINDEX=...,
 * identical for every API, and is never seen by the host's code.
 *
 * pattern_trace:  writes each lane's element index for a sample of warps
 *                 (the first, the last and some between, SAMPLES in all)
 *                 into trace[sample * 32 + lane], -1 for a lane that takes
 *                 no part (past n, or outside MASK), with TRACE_REDUCED set
 *                 where the reduction into the buffer changed the value.
 *                 The model counts sectors and banks from it.
 * pattern_access: the timed kernel.  Global: one access per thread;
 *                 shared: ITERS accesses per thread of a buffer the block
 *                 filled.  Every thread writes the index it used to
 *                 where[i] (-1: none), so that the host checks the output
 *                 and that the index is the one the trace saw.
 *
 * Definitions:
 *   INDEX   the expression, over long i (global thread index), lane, warp
 *           (global warp index), tx, ty, bx, by, bdx, bdy (block sizes), n
 *   MASK    optional: a lane takes part where it is non-zero
 *   SPACE   0: global memory, 1: shared memory
 *   WORD    bytes per element: 4, 8 or 16
 *   STORE   0: load, 1: store
 *   NELEM   shared: elements of the block's buffer; global: the buffer
 *           has n elements (the index is reduced into it)
 *   ITERS   shared: accesses per thread
 *   SAMPLES warps the trace writes */
#ifndef INDEX
#error "INDEX (the index expression) must be defined"
#endif
#ifndef MASK
#define MASK 1
#endif
#ifndef SPACE
#define SPACE 0
#endif
#ifndef WORD
#define WORD 4
#endif
#ifndef STORE
#define STORE 0
#endif
#if SPACE == 0
#define ELEMS(n) (n)
#elif defined(NELEM)
#define ELEMS(n) ((long)NELEM)
#else
#error "NELEM (elements of the shared buffer) must be defined"
#endif
#ifndef ITERS
#define ITERS 256
#endif
#ifndef SAMPLES
#define SAMPLES 8
#endif

/* A division by zero written in the expression is an error, not the
   warning both compilers give by default. */
#if defined(__clang__)
#pragma clang diagnostic error "-Wdivision-by-zero"
#elif defined(__CUDACC__)
#pragma nv_diag_error 39
#pragma nv_diag_error 179
#endif

#define TRACE_REDUCED 0x40000000

#if WORD == 4
#define T uint
#define SET_ZERO(a) ((a) = 0u)
#define SET_WORD(a, w0) ((a) = (w0))
#define ADD_TO(a, b) ((a) += (b))
#elif WORD == 8
#define T uint2
#define SET_ZERO(a) ((a).x = 0u, (a).y = 0u)
#define SET_WORD(a, w0) ((a).x = (w0), (a).y = ~(w0))
#define ADD_TO(a, b) ((a).x += (b).x, (a).y += (b).y)
#elif WORD == 16
#define T uint4
#define SET_ZERO(a) ((a).x = 0u, (a).y = 0u, (a).z = 0u, (a).w = 0u)
#define SET_WORD(a, w0) ((a).x = (w0), (a).y = ~(w0), (a).z = (w0) ^ 0x5a5a5a5au, (a).w = (w0) + 1u)
#define ADD_TO(a, b) ((a).x += (b).x, (a).y += (b).y, (a).z += (b).z, (a).w += (b).w)
#else
#error "WORD must be 4, 8 or 16"
#endif

/* The value a global store writes at element e: a function of e alone,
   so that lanes storing to one element agree whichever wins. */
#define STORED(e) ((uint)(e) * 2654435761u ^ 0x9e3779b9u)

/* The thread's coordinates, the names the expression may use; the index
   reduced into [0, NELEM), with TRACE_REDUCED where that changed it, or
   -1 where the thread takes no part. */
DEVICE_FN int pattern_index(int nthreads)
{
    const long tx = LOCAL_ID(0), ty = LOCAL_ID(1);
    const long bx = GROUP_ID(0), by = GROUP_ID(1);
    const long bdx = LOCAL_SIZE(0), bdy = LOCAL_SIZE(1);
    const long i = (by * NUM_GROUPS(0) + bx) * bdx * bdy + ty * bdx + tx;
    const long lane = i & 31, warp = i >> 5, n = nthreads;
    (void)tx, (void)ty, (void)bx, (void)by, (void)bdx, (void)bdy, (void)lane, (void)warp;
    if (i >= n)
        return -1;
    if ((MASK) == 0)
        return -1;
    long raw = (long)(INDEX);
    long e = raw % ELEMS(n);
    if (e < 0)
        e += ELEMS(n);
    return (int)e | (e != raw ? TRACE_REDUCED : 0);
}

/* Warp w's place among the sampled warps of `warps`, or -1: the first,
   the last and SAMPLES - 2 evenly between. */
DEVICE_FN int sample_of(int w, int warps)
{
    for (int s = 0; s < SAMPLES; s++)
        if (w == (int)((long)(warps - 1) * s / (SAMPLES - 1)))
            return s;
    return -1;
}

KERNEL void pattern_trace(int n, GLOBAL int *RESTRICT trace)
{
    int i = (GROUP_ID(1) * NUM_GROUPS(0) + GROUP_ID(0)) * LOCAL_SIZE(0) * LOCAL_SIZE(1) +
            LOCAL_ID(1) * LOCAL_SIZE(0) + LOCAL_ID(0);
    int warps = (n + 31) / 32; /* the warps with a thread below n, as the host counts */
    int s = sample_of(i >> 5, warps);
    if (s >= 0)
        trace[s * 32 + (i & 31)] = pattern_index(n);
}

KERNEL void pattern_access(int n, int zero, GLOBAL const T *RESTRICT in, GLOBAL T *RESTRICT out,
                           GLOBAL int *RESTRICT where)
{
    int tid = LOCAL_ID(1) * LOCAL_SIZE(0) + LOCAL_ID(0);
    int i = (GROUP_ID(1) * NUM_GROUPS(0) + GROUP_ID(0)) * LOCAL_SIZE(0) * LOCAL_SIZE(1) + tid;
    int t = pattern_index(n);
    int e = t < 0 ? -1 : t & ~TRACE_REDUCED;
#if SPACE == 0
    if (i < n)
        where[i] = e;
    if (e < 0)
        return;
#if STORE
    T v;
    SET_WORD(v, STORED(e));
    out[e] = v;
#else
    out[i] = in[e];
#endif
#else
    LOCAL T buf[NELEM];
    int threads = LOCAL_SIZE(0) * LOCAL_SIZE(1);
#if STORE
    for (int k = tid; k < NELEM; k += threads)
        SET_ZERO(buf[k]);
    T v;
    if (e >= 0)
        v = in[e];
    BARRIER();
    if (e >= 0)
        for (int it = 0; it < ITERS; it++)
            buf[e + it * zero] = v;
    BARRIER();
    GLOBAL T *dump = out + (size_t)(GROUP_ID(1) * NUM_GROUPS(0) + GROUP_ID(0)) * NELEM;
    for (int k = tid; k < NELEM; k += threads)
        dump[k] = buf[k];
#else
    for (int k = tid; k < NELEM; k += threads)
        buf[k] = in[k];
    BARRIER();
    T acc;
    SET_ZERO(acc);
    if (e >= 0)
        for (int it = 0; it < ITERS; it++) {
            T x = buf[e + it * zero];
            ADD_TO(acc, x);
        }
    if (i < n)
        out[i] = acc;
#endif
    if (i < n)
        where[i] = e;
#endif
}
