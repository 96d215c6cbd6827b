/* The transpose family: c (cols x rows) = transpose of a (rows x cols),
 * both row-major float32, plus the copy that is its roof.
 *
 * Definitions (identical for every API):
 *   TILE        tile edge in elements (a block covers TILE x TILE elements)
 *   BLOCK_ROWS  thread rows per block; TILE / BLOCK_ROWS elements per thread
 *               (coarsening), BLOCK_ROWS == TILE means one element each
 *   PAD         extra columns in the shared tile ([TILE][TILE + PAD])
 *   SWIZZLE     1: store column c of row r at c ^ r (XOR swizzle)
 *   GROUP       > 0: visit tiles in column-major groups of GROUP tile rows,
 *               so the blocks in flight cover a compact square of the
 *               matrix (DRAM pages shared by reads and by writes)
 *   ITEMS       float4s per thread in the vector copy
 *
 * Indices are int: the frontend refuses matrices of 2^31 elements or more. */
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS TILE
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef SWIZZLE
#define SWIZZLE 0
#endif

#ifndef GROUP
#define GROUP 0
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

#if SWIZZLE
#define SCOL(r, c) ((c) ^ ((r) & (TILE - 1)))
#else
#define SCOL(r, c) (c)
#endif

/* The roof: the same tiles and the same bytes, no reordering. */
KERNEL void transpose_copy(int rows, int cols, GLOBAL const float *RESTRICT a,
                           GLOBAL float *RESTRICT c)
{
    int x = GROUP_ID(0) * TILE + LOCAL_ID(0);
    int y0 = GROUP_ID(1) * TILE + LOCAL_ID(1);
    if (x >= cols)
        return;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = y0 + j;
        if (y < rows)
            c[y * cols + x] = a[y * cols + x];
    }
}

/* The roof as a plain stream: ITEMS float4s per thread, all loads issued
 * before the first store; a 1-D grid.  The last n % 4 floats go one per
 * thread of block 0. */
KERNEL void transpose_copy_vec(int rows, int cols, GLOBAL const float *RESTRICT a,
                               GLOBAL float *RESTRICT c)
{
    int n = rows * cols, n4 = n / 4;
    GLOBAL const float4 *a4 = (GLOBAL const float4 *)a;
    GLOBAL float4 *c4 = (GLOBAL float4 *)c;
    int base = GROUP_ID(0) * LOCAL_SIZE(0) * ITEMS + LOCAL_ID(0);
    float4 v[ITEMS];
    for (int k = 0; k < ITEMS; k++) {
        int i = base + k * LOCAL_SIZE(0);
        if (i < n4)
            v[k] = a4[i];
    }
    for (int k = 0; k < ITEMS; k++) {
        int i = base + k * LOCAL_SIZE(0);
        if (i < n4)
            c4[i] = v[k];
    }
    if (GROUP_ID(0) == 0 && LOCAL_ID(0) < n - 4 * n4)
        c[4 * n4 + LOCAL_ID(0)] = a[4 * n4 + LOCAL_ID(0)];
}

/* Reads walk a's rows (coalesced); writes walk c's columns (stride rows). */
KERNEL void transpose_naive_read(int rows, int cols, GLOBAL const float *RESTRICT a,
                                 GLOBAL float *RESTRICT c)
{
    int x = GROUP_ID(0) * TILE + LOCAL_ID(0); /* column of a */
    int y0 = GROUP_ID(1) * TILE + LOCAL_ID(1);
    if (x >= cols)
        return;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = y0 + j;
        if (y < rows)
            c[x * rows + y] = a[y * cols + x];
    }
}

/* Writes walk c's rows (coalesced); reads walk a's columns (stride cols). */
KERNEL void transpose_naive_write(int rows, int cols, GLOBAL const float *RESTRICT a,
                                  GLOBAL float *RESTRICT c)
{
    int x = GROUP_ID(0) * TILE + LOCAL_ID(0); /* column of c = row of a */
    int y0 = GROUP_ID(1) * TILE + LOCAL_ID(1);
    if (x >= rows)
        return;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = y0 + j;
        if (y < cols)
            c[y * rows + x] = a[x * cols + y];
    }
}

/* Staged through a shared tile so that both global walks are coalesced; the
 * tile is written by rows and read by columns. */
KERNEL void transpose_tiled(int rows, int cols, GLOBAL const float *RESTRICT a,
                            GLOBAL float *RESTRICT c)
{
    LOCAL float tile[TILE][TILE + PAD];
    int tx = LOCAL_ID(0), ty = LOCAL_ID(1);
    int tile_x = GROUP_ID(0), tile_y = GROUP_ID(1);
#if GROUP > 0
    {
        int tiles_x = NUM_GROUPS(0), tiles_y = NUM_GROUPS(1);
        int lin = tile_y * tiles_x + tile_x;
        int first = lin / (GROUP * tiles_x) * GROUP;
        int height = min(GROUP, tiles_y - first);
        int pos = lin % (GROUP * tiles_x);
        tile_y = first + pos % height;
        tile_x = pos / height;
    }
#endif
    int bx = tile_x * TILE, by = tile_y * TILE;

    int x = bx + tx;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = by + ty + j;
        if (x < cols && y < rows)
            tile[ty + j][SCOL(ty + j, tx)] = a[y * cols + x];
    }
    BARRIER();
    x = by + tx; /* column of c = row of a */
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = bx + ty + j; /* row of c = column of a */
        if (x < rows && y < cols)
            c[y * rows + x] = tile[tx][SCOL(tx, ty + j)];
    }
}
