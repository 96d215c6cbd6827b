/* Building variants: a name, a kernel, a block shape and -D definitions. */
#ifndef SB_VARIANT_H
#define SB_VARIANT_H

#include <string.h>

#include "experiments/experiment.h"

/* Typed access to a family's knobs: SB_KNOBS(transpose_knobs) at file scope
 * in the family's file defines knobs_of(v), a copy of v's knobs, and
 * set_knobs(v, &k).  The bytes are only ever copied, never read through a
 * pointer of another type. */
#define SB_KNOBS(type)                                                                 \
    _Static_assert(sizeof(type) <= sizeof(sb_knobs), #type " must fit in sb_knobs");   \
    static inline type knobs_of(const sb_variant *v)                                   \
    {                                                                                  \
        type k;                                                                        \
        memcpy(&k, v->knobs.bytes, sizeof k);                                          \
        return k;                                                                      \
    }                                                                                  \
    static inline void set_knobs(sb_variant *v, const type *k)                         \
    {                                                                                  \
        memcpy(v->knobs.bytes, k, sizeof *k);                                          \
    }

/* sb_access.sites for an instruction whose static count is the compiler's
   to choose (a loop it unrolls as it sees fit). */
#define SB_SITES_COMPILER (-1)

/* One class of global or shared instruction a kernel executes, as its
 * family declares it to the model: one warp's request and how many such
 * requests one launch executes. */
typedef struct sb_access {
    const char *label;   /* a few words (15 characters kept): "load", "lane table" */
    sb_access_kind kind; /* load, store or atomic */
    sb_pattern pattern;  /* one warp's request */
    double requests;     /* warp-level requests of it one launch executes */
    int sites;           /* its static instructions in the PTX: the source's copies once
                            unrolled; 0 where another declaration counts them (the tail
                            or an edge of the same instruction); SB_SITES_COMPILER */
    int studied;         /* 1: an access the variant is about */
} sb_access;

/* Declare an access to the plan.  Nothing is added for 0 requests; one of
 * the same label, kind and cost per request (sectors; wavefronts and
 * conflicts) as an earlier one is merged into it (requests and sites add
 * up, the earlier pattern and studied flag stand for both), so that a
 * family may declare warp by warp.  Studied accesses go before the others,
 * in the order declared.  Past SB_MAX_PATTERNS, one of the same kind and
 * cost under another label counts it (the totals stay exact, that label's
 * requests include it); where there is none, plan->undeclared counts it. */
void sb_plan_declare(sb_plan *plan, const sb_access *a);

/* A pattern of `word`-byte elements in `space`: stride 1, nothing else. */
sb_pattern sb_dense(sb_space space, int word);

/* Warp-level requests of a dense walk over `count` consecutive elements by
 * consecutive threads, 32 a warp: the full warps, and the lanes of the
 * last, partial one (0 where there is none). */
typedef struct sb_warp_split {
    long full;
    int tail_lanes;
} sb_warp_split;
sb_warp_split sb_warps_of(long count);

/* The active-lane mask of the first `lanes` lanes, 1..31; 0 (every lane)
   for 32 or more. */
uint32_t sb_first_lanes(int lanes);

/* Declare `times` walks over `count` consecutive elements by consecutive
 * threads (a fill, a copy's rows, a tail), 32 a warp: a's pattern for the
 * full warps, and the same with only its first lanes for the partial last
 * warp of each walk (same label, not studied: an edge; its sites counted
 * by the full ones).  a->requests is not read. */
void sb_plan_declare_walk(sb_plan *plan, const sb_access *a, long count, double times);

/* One class of identical blocks of a 2-D grid of tiles: how much of its
 * tile lies inside the data along x and along y, and how many blocks of
 * the launch are of it.  Blocks of one class make the same requests at
 * the same places in their sectors and banks wherever the tiles' corners
 * are 128-byte aligned (tiles a multiple of 32 elements wide and high). */
typedef struct sb_block_class {
    long inside_x, inside_y;
    double count;
} sb_block_class;

/* The classes of the blocks that tile extent_x x extent_y with tiles of
 * tile_x x tile_y, in this order where present: interior, right edge
 * (x short), bottom edge (y short), corner; how many (0 to 4). */
int sb_block_classes(long extent_x, long extent_y, long tile_x, long tile_y,
                     sb_block_class out[4]);

/* One warp's global request of `word`-byte elements, lane l taking element
 * idx[l] counted from a 128-byte boundary, the lanes of `active` taking
 * part (0: all): a stride pattern where the indices step evenly, else a
 * list walk; either moves by whole 128-byte lines to stay small. */
sb_pattern sb_global_request(int word, const long idx[SB_WARP_LANES], uint32_t active);

/* The lanes of a warp whose index l satisfies first <= l < end (end past
   31 taking the rest): a mask for sb_pattern.active, 0 when all 32. */
uint32_t sb_lanes_between(int first, int end);

/* Accesses gathered before they reach a plan: a family that declares
 * warp by warp over every block of a launch makes the same request many
 * times, and the tally adds identical ones up (same label, kind and
 * pattern) before sb_plan_declare compares their costs. */
#define SB_TALLY_MAX 256
typedef struct sb_tally {
    int n;
    sb_access item[SB_TALLY_MAX];
} sb_tally;

/* Adds a to the tally (a copy; its label must outlive the tally), passing
   the tally on to the plan first when full; with t NULL, declares a at once. */
void sb_tally_add(sb_tally *t, sb_plan *plan, const sb_access *a);

/* Declares the tally's accesses to the plan in the order first added, and empties it. */
void sb_tally_flush(sb_tally *t, sb_plan *plan);

/* Start a variant with a name, an entry point and a block shape. */
void sb_variant_init(sb_variant *v, const char *name, const char *kernel, unsigned bx,
                     unsigned by, unsigned bz);

/* Add one definition, printf-style ("TILE=%d"); ignored past SB_MAX_DEFINES. */
void sb_variant_define(sb_variant *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The definitions joined with spaces, for reports. */
void sb_variant_params(const sb_variant *v, char *out, size_t n);

/* Grid covering extent_x x extent_y elements with blocks that cover
 * per_block_x x per_block_y elements each. */
void sb_grid_2d(sb_launch *g, const sb_variant *v, long extent_x, long extent_y,
                long per_block_x, long per_block_y);

/* Default elements per buffer of a streaming (bandwidth) experiment: on a
 * GPU each buffer at least four times the L2, so DRAM and not the cache is
 * measured; on a CPU small enough for a suite of seconds. */
long sb_stream_elements(const sb_device_info *dev);

/* A variant of a sweep over bin counts, named METHOD-bBINS-DIST
 * ("shared_coarse-b4096-skewed", the histogram's): 0 with its method, bin
 * count and distribution, each cut to its buffer; -1 for another name. */
int sb_bins_variant(const char *variant, char *method, size_t mn, long *bins, char *dist,
                    size_t dn);

#endif
