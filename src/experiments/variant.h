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

#endif
