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
 *   DIAGONAL    1: visit tiles in diagonal order, NVIDIA's transpose
 *               sample's fix for partition camping (the blocks in flight
 *               write columns of c whose addresses, a whole row of c
 *               apart, fell on few memory partitions of older GPUs)
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
#ifndef DIAGONAL
#define DIAGONAL 0
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
#elif DIAGONAL
    {
        /* The sample's mapping for any shape: block b of the launch takes
           row b mod tiles_y, column (b / tiles_y + row) mod tiles_x, a
           bijection of the tiles. */
        int tiles_x = NUM_GROUPS(0), tiles_y = NUM_GROUPS(1);
        int lin = tile_y * tiles_x + tile_x;
        tile_y = lin % tiles_y;
        tile_x = (lin / tiles_y + tile_y) % tiles_x;
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

/* Vector transpose: 16-byte accesses on both global sides.
 *
 *   VR, VC   tile of VR rows x VC columns of a (both multiples of 4,
 *            VR >= 32); VT threads per block (a 1-D block)
 *   VORDER   0: block x walks a's tile columns (the blocks in flight read
 *            whole rows of a); 1: block x walks a's tile rows (they write
 *            whole rows of c)
 *
 * Each thread loads 4 x 4 blocks of a as four float4 rows, transposes them
 * in registers and stores four float4 columns into the shared tile, which
 * holds the transposed tile as VC rows of VR / 4 float4 chunks.  The
 * writes then read whole float4 chunks along a row of the transposed tile
 * and store them to c.  Chunk q of tile row j lives at q ^ ((j / 4) % 8):
 * the eight threads of a quarter warp (one 16-byte wavefront: 8 x 16
 * bytes = 32 banks) store to rows 4 cb + k of eight consecutive cb, whose
 * chunks the XOR sends to eight different groups of four banks; the
 * reads of a quarter warp take eight consecutive chunks of one row, a
 * permutation of the same eight groups.  Both are conflict-free.
 *
 * Tiles that stick out of the matrix, and matrices whose rows are not a
 * multiple of 4 floats (no 16-byte alignment), go element by element
 * through the same shared tile. */
#ifndef VR
#define VR 64
#endif
#ifndef VC
#define VC 64
#endif
#ifndef VT
#define VT 256
#endif
#ifndef VORDER
#define VORDER 0
#endif
#if VR % 4 != 0 || VC % 4 != 0 || (VR * VC) % (16 * VT) != 0
#error "transpose_vec4: VR and VC must be multiples of 4 and VR x VC a multiple of 16 x VT"
#endif
#define VQ (VR / 4)                               /* float4 chunks per tile row */
#define VUNITS (VQ * (VC / 4) / VT)               /* 4 x 4 blocks per thread */
#define VSWZ(j) (((j) >> 2) & (VQ < 8 ? VQ - 1 : 7))
#define VPOS(j, q) ((j) * VQ + ((q) ^ VSWZ(j)))   /* chunk q of tile row j */

KERNEL void transpose_vec4(int rows, int cols, GLOBAL const float *RESTRICT a,
                           GLOBAL float *RESTRICT c)
{
    LOCAL float4 t[VC * VQ];
    LOCAL_PTR float *tf = (LOCAL_PTR float *)t;
    int tid = LOCAL_ID(0);
    int r0 = GROUP_ID(1 - VORDER) * VR, c0 = GROUP_ID(VORDER) * VC;
    int full = rows % 4 == 0 && cols % 4 == 0 && r0 + VR <= rows && c0 + VC <= cols;

    if (full) {
        int s4 = cols / 4;
        GLOBAL const float4 *a4 = (GLOBAL const float4 *)(a + r0 * cols + c0);
        float4 x[VUNITS][4];
        for (int i = 0; i < VUNITS; i++) {
            int u = tid + i * VT, cb = u % (VC / 4), rb = u / (VC / 4);
            for (int k = 0; k < 4; k++)
                x[i][k] = a4[(4 * rb + k) * s4 + cb];
        }
        for (int i = 0; i < VUNITS; i++) {
            int u = tid + i * VT, cb = u % (VC / 4), rb = u / (VC / 4), j = 4 * cb;
            t[VPOS(j + 0, rb)] = FLOAT4(x[i][0].x, x[i][1].x, x[i][2].x, x[i][3].x);
            t[VPOS(j + 1, rb)] = FLOAT4(x[i][0].y, x[i][1].y, x[i][2].y, x[i][3].y);
            t[VPOS(j + 2, rb)] = FLOAT4(x[i][0].z, x[i][1].z, x[i][2].z, x[i][3].z);
            t[VPOS(j + 3, rb)] = FLOAT4(x[i][0].w, x[i][1].w, x[i][2].w, x[i][3].w);
        }
    } else {
        for (int e = tid; e < VR * VC; e += VT) {
            int r = e / VC, cc = e % VC;
            if (r0 + r < rows && c0 + cc < cols)
                tf[4 * VPOS(cc, r >> 2) + (r & 3)] = a[(r0 + r) * cols + c0 + cc];
        }
    }
    BARRIER();
    if (full) {
        int s4 = rows / 4;
        GLOBAL float4 *c4 = (GLOBAL float4 *)(c + c0 * rows + r0);
        for (int i = 0; i < VUNITS * 4; i++) {
            int v = tid + i * VT, q = v % VQ, j = v / VQ;
            c4[j * s4 + q] = t[VPOS(j, q)];
        }
    } else {
        for (int e = tid; e < VR * VC; e += VT) {
            int j = e / VR, r = e % VR;
            if (c0 + j < cols && r0 + r < rows)
                c[(c0 + j) * rows + r0 + r] = tf[4 * VPOS(j, r >> 2) + (r & 3)];
        }
    }
}
