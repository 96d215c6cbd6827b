/* The transpose family's accesses, declared block by block: what each warp
 * of each block of a launch of common/kernels/transpose.cl requests, as
 * the kernels' guards leave its lanes, edge tiles and partial warps
 * included.  Blocks are taken class by class (interior, right edge,
 * bottom edge, corner), so that a large matrix costs no more to plan than
 * a small one. */
#ifndef SB_TRANSPOSE_ACCESS_H
#define SB_TRANSPOSE_ACCESS_H

#include "experiments/experiment.h"

/* The kernels of TILE x TILE tiles moved by TILE x BLOCK_ROWS threads. */
typedef enum sb_tile_kernel {
    SB_TILE_COPY,        /* transpose_copy */
    SB_TILE_NAIVE_READ,  /* transpose_naive_read */
    SB_TILE_NAIVE_WRITE, /* transpose_naive_write */
    SB_TILE_TILED        /* transpose_tiled */
} sb_tile_kernel;

/* A tile kernel's shape: its -D definitions.  TILE a multiple of 32 (a
   warp is a whole thread row or a part of one); SWIZZLE with TILE 32. */
typedef struct sb_tile_shape {
    sb_tile_kernel kernel;
    int tile, block_rows, pad, swizzle;
} sb_tile_shape;

/* Declares every access a tile kernel's launch over rows x cols makes. */
void sb_transpose_declare_tiles(const sb_problem *p, const sb_tile_shape *s, sb_plan *plan);

/* Declares every access transpose_vec4 (tiles of vr x vc elements of a,
   vt threads, VR >= 32 and VC a multiple of 32) makes over rows x cols. */
void sb_transpose_declare_vec4(const sb_problem *p, int vr, int vc, int vt, sb_plan *plan);

#endif
