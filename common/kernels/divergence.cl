/* Control divergence (seed 001: minimising control divergence): threads
 * that take different paths of equal work, so that the time shows what a
 * warp pays for running its lanes' paths one after another.
 *
 * Every thread reads one 32-bit word and writes one float: the memory
 * traffic is small and the same in every variant, and the time is the
 * work of the paths.  A path is a chain of WORK dependent FMAs,
 * x = fma(x, A, B), with constants of its own written into its own loop:
 * the paths are different code, which the compiler cannot fold into one
 * loop with the constants chosen per lane (that would remove the
 * divergence; select_on_key does it on purpose).  Path p's constants,
 * A = 1 - (p + 1) / 2^14 and B = (p + 1) / 64, are exact in binary; A
 * below 1 keeps the chain bounded without letting it settle within WORK
 * steps, and positive values keep every lane far from a denormal (which
 * some devices flush).  x starts at 1 + (word & 255) / 256, also exact.
 * The host computes the same FMAs, so every output is checked bit for
 * bit.
 *
 *   split_by_lane  path = (the thread's lane in its group of WARP) & (k - 1),
 *                  lane % k for k a power of two: k paths in every warp
 *   split_by_warp  path = (the index of that group) & (k - 1), warp_index
 *                  % k: k paths in the launch, one in each warp
 *   branch_on_key  path = the word's top bit, each side its own loop: a
 *                  real branch (a bra around each loop in the PTX)
 *   select_on_key  the same branch choosing only the two constants, one
 *                  loop after it: the compiler predicates it (selp in the
 *                  PTX) and every lane runs the same code
 *   loop_trips     word >> 8 trips of TRIP_WORK FMAs each (path 0's
 *                  constants): a warp runs until its last lane is done
 *
 * How the PTX was checked: tests/exec/test_divergence_ptx.c compiles this
 * file with NVRTC for sm_90 (no GPU needed) and asserts that
 * select_on_key's PTX selects its constants with selp.f32 and has no fma
 * with a path's constant as an immediate, that branch_on_key's has no
 * selp.f32 and both sides' constants as fma immediates behind a
 * conditional bra, and that split_by_lane's has each of the 32 paths'
 * constants as an fma immediate: 32 loops, not one.  On a GPU,
 * `simtbench --dump-ptx DIR` shows the PTX each API really built.
 *
 * Definitions (identical for every API):
 *   WORK       FMAs per path (split_by_lane, split_by_warp, branch_on_key,
 *              select_on_key)
 *   TRIP_WORK  FMAs per trip (loop_trips)
 *   WARP       threads per group for the lane and warp indices: NVIDIA's
 *              warp; the model groups lanes by the device's own */
#ifndef WORK
#define WORK 1024
#endif
#ifndef TRIP_WORK
#define TRIP_WORK 8
#endif
#ifndef WARP
#define WARP 32
#endif

#define PATH_A(p) (1.0f - (float)((p) + 1) / 16384.0f)
#define PATH_B(p) ((float)((p) + 1) / 64.0f)
#define START(word) (1.0f + (float)((word) & 255u) * (1.0f / 256.0f))

/* n dependent FMAs on x with the constants a and b. */
#define CHAIN(x, a, b, n)                                                                       \
    for (int j_ = 0; j_ < (n); j_++)                                                            \
    x = FMA(x, a, b)

/* Path p as a case of a switch on the path: a loop of its own. */
#define PATH_CASE(x, p)                                                                         \
    case p:                                                                                     \
        CHAIN(x, PATH_A(p), PATH_B(p), WORK);                                                   \
        break;
#define PATH_CASES_4(x, p)                                                                      \
    PATH_CASE(x, p) PATH_CASE(x, p + 1) PATH_CASE(x, p + 2) PATH_CASE(x, p + 3)
/* Paths 0..31, each its own code. */
#define RUN_PATH(x, path)                                                                       \
    switch (path) {                                                                             \
        PATH_CASES_4(x, 0)                                                                      \
        PATH_CASES_4(x, 4)                                                                      \
        PATH_CASES_4(x, 8)                                                                      \
        PATH_CASES_4(x, 12)                                                                     \
        PATH_CASES_4(x, 16)                                                                     \
        PATH_CASES_4(x, 20)                                                                     \
        PATH_CASES_4(x, 24)                                                                     \
        PATH_CASES_4(x, 28)                                                                     \
    default:                                                                                    \
        break;                                                                                  \
    }

/* k (a power of two, 1..32) is an argument, not a definition, so that
 * every k is the same program: the same code, only the paths taken differ. */
KERNEL void split_by_lane(int n, int k, GLOBAL const uint *RESTRICT in,
                          GLOBAL float *RESTRICT out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i >= n)
        return;
    uint word = in[i];
    float x = START(word);
    int path = (LOCAL_ID(0) % WARP) & (k - 1);
    RUN_PATH(x, path)
    out[i] = x;
}

KERNEL void split_by_warp(int n, int k, GLOBAL const uint *RESTRICT in,
                          GLOBAL float *RESTRICT out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i >= n)
        return;
    uint word = in[i];
    float x = START(word);
    int path = (i / WARP) & (k - 1);
    RUN_PATH(x, path)
    out[i] = x;
}

KERNEL void branch_on_key(int n, GLOBAL const uint *RESTRICT in, GLOBAL float *RESTRICT out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i >= n)
        return;
    uint word = in[i];
    float x = START(word);
    if (word >> 31) {
        CHAIN(x, PATH_A(1), PATH_B(1), WORK);
    } else {
        CHAIN(x, PATH_A(0), PATH_B(0), WORK);
    }
    out[i] = x;
}

KERNEL void select_on_key(int n, GLOBAL const uint *RESTRICT in, GLOBAL float *RESTRICT out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i >= n)
        return;
    uint word = in[i];
    float x = START(word), a, b;
    if (word >> 31) {
        a = PATH_A(1);
        b = PATH_B(1);
    } else {
        a = PATH_A(0);
        b = PATH_B(0);
    }
    CHAIN(x, a, b, WORK);
    out[i] = x;
}

KERNEL void loop_trips(int n, GLOBAL const uint *RESTRICT in, GLOBAL float *RESTRICT out)
{
    int i = GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_ID(0);
    if (i >= n)
        return;
    uint word = in[i];
    float x = START(word);
    int trips = (int)(word >> 8);
    for (int t = 0; t < trips; t++) {
        CHAIN(x, PATH_A(0), PATH_B(0), TRIP_WORK);
    }
    out[i] = x;
}
