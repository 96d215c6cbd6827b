/* Matrix multiply, float32 (seed 001): c (m x n) = a (m x k) * b (k x n),
 * row-major, one thread per output (or per COARSE outputs), x along n.
 *
 * Definitions (identical for every API):
 *   TILE    tile edge; a block is TILE x TILE threads
 *   COARSE  output tiles one block computes along its row of c (thread
 *           coarsening): thread (tx, ty) computes columns
 *           colStart + j * TILE, colStart = bx * TILE * COARSE + tx
 *   TURN    matmul_colmajor only: 1 = corner turning, 0 = the naive load
 *   PAD     matmul_colmajor only: extra columns in b's shared tile
 *   SMEM_ALIGN  byte alignment of the shared tiles (default 16): where
 *           the compiler can prove 16, it merges a thread's consecutive
 *           shared loads into 16-byte ones.  With 4 (a float's), NVIDIA's
 *           OpenCL compiler, which reserves 4 bytes of shared memory of its
 *           own, does not, and the tiled kernels are slower in OpenCL alone
 *           for it (RESULTS.md has the figures).
 *
 * m, n and k need not be multiples of TILE: loads past an edge give 0,
 * stores past an edge are skipped.  Indices are int: the frontend refuses
 * matrices of 2^31 elements or more. */
#ifndef TILE
#define TILE 16
#endif
#ifndef COARSE
#define COARSE 1
#endif
#ifndef TURN
#define TURN 1
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef SMEM_ALIGN
#define SMEM_ALIGN 16
#endif

/* Every operand straight from global memory: two 4-byte loads per
 * multiply-add, 0.25 FLOP per byte.  Consecutive threads walk b's row
 * (coalesced); a's element is the same for a whole row of threads. */
KERNEL void matmul_simple(int m, int n, int k, GLOBAL const float *RESTRICT a,
                          GLOBAL const float *RESTRICT b, GLOBAL float *RESTRICT c)
{
    int col = GROUP_ID(0) * TILE + LOCAL_ID(0);
    int row = GROUP_ID(1) * TILE + LOCAL_ID(1);
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
}

/* Tiled, and coarsened when COARSE > 1.  Each phase stages one TILE x TILE
 * piece of a and COARSE pieces of b in shared memory and uses each staged
 * element TILE times; the a piece serves all COARSE output tiles, which is
 * the redundant load coarsening removes (seed: OP/B 8 -> 12.8 at COARSE 4).
 * All COARSE pieces of b are loaded before one barrier, not one per
 * barrier pair, so the loads of a phase are in flight together, and a's
 * element is read from shared memory once per step and reused from a
 * register for the COARSE outputs. */
KERNEL void matmul_tiled(int m, int n, int k, GLOBAL const float *RESTRICT a,
                         GLOBAL const float *RESTRICT b, GLOBAL float *RESTRICT c)
{
    LOCAL float as[TILE][TILE] ALIGNED(SMEM_ALIGN);
    LOCAL float bs[COARSE][TILE][TILE] ALIGNED(SMEM_ALIGN);
    int tx = LOCAL_ID(0), ty = LOCAL_ID(1);
    int row = GROUP_ID(1) * TILE + ty;
    int col_start = GROUP_ID(0) * TILE * COARSE + tx;
    float sum[COARSE];
    for (int j = 0; j < COARSE; j++)
        sum[j] = 0.0f;

    for (int ph = 0; ph < k; ph += TILE) {
        as[ty][tx] = row < m && ph + tx < k ? a[row * k + ph + tx] : 0.0f;
        for (int j = 0; j < COARSE; j++) {
            int col = col_start + j * TILE;
            bs[j][ty][tx] = ph + ty < k && col < n ? b[(ph + ty) * n + col] : 0.0f;
        }
        BARRIER();
        for (int i = 0; i < TILE; i++) {
            float av = as[ty][i];
            for (int j = 0; j < COARSE; j++)
                sum[j] += av * bs[j][i][tx];
        }
        BARRIER();
    }
    for (int j = 0; j < COARSE; j++) {
        int col = col_start + j * TILE;
        if (row < m && col < n)
            c[row * n + col] = sum[j];
    }
}

/* Tiled, with b stored column-major: element (i, col) of b at
 * bt[col * k + i].  Loading b's tile the row-major way (TURN 0) gives
 * consecutive threads consecutive columns, k floats apart: uncoalesced.
 * Corner turning (TURN 1) swaps the roles of tx and ty for that load, so
 * consecutive threads read consecutive i of one column (coalesced) and the
 * transposed write goes to shared memory instead, where PAD 1 keeps its
 * column walk free of bank conflicts. */
KERNEL void matmul_colmajor(int m, int n, int k, GLOBAL const float *RESTRICT a,
                            GLOBAL const float *RESTRICT bt, GLOBAL float *RESTRICT c)
{
    LOCAL float as[TILE][TILE] ALIGNED(SMEM_ALIGN);
    LOCAL float bs[TILE][TILE + PAD] ALIGNED(SMEM_ALIGN);
    int tx = LOCAL_ID(0), ty = LOCAL_ID(1);
    int row = GROUP_ID(1) * TILE + ty;
    int col0 = GROUP_ID(0) * TILE;
    float sum = 0.0f;

    for (int ph = 0; ph < k; ph += TILE) {
        as[ty][tx] = row < m && ph + tx < k ? a[row * k + ph + tx] : 0.0f;
#if TURN
        /* Thread (tx, ty) loads b(ph + tx, col0 + ty): stride 1 across tx. */
        bs[tx][ty] = ph + tx < k && col0 + ty < n ? bt[(col0 + ty) * k + ph + tx] : 0.0f;
#else
        /* Thread (tx, ty) loads b(ph + ty, col0 + tx): stride k across tx. */
        bs[ty][tx] = ph + ty < k && col0 + tx < n ? bt[(col0 + tx) * k + ph + ty] : 0.0f;
#endif
        BARRIER();
        for (int i = 0; i < TILE; i++)
            sum += as[ty][i] * bs[i][tx];
        BARRIER();
    }
    if (row < m && col0 + tx < n)
        c[row * n + col0 + tx] = sum;
}
