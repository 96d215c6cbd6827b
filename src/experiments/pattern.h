/* The pattern family (issue 29): an access the user writes as an index
 * expression (--index EXPR), run on the device, traced and modelled.
 *
 * Its variants come from the command line: the CLI hands the request to
 * the family once, before the suite is planned (sb_pattern_configure),
 * and each --index becomes one row.  The expression only ever travels as
 * a -D definition of the kernel (common/kernels/pattern.cl); the model
 * counts from the trace the kernel writes (sb_pattern_from_trace). */
#ifndef SB_PATTERN_FAMILY_H
#define SB_PATTERN_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define SB_PATTERN_MAX_INDEX 16  /* --index options in one run */
#define SB_PATTERN_EXPR_LEN 100  /* characters of one expression, with its end */
#define SB_PATTERN_SAMPLES 8     /* warps the trace writes: as SAMPLES in pattern.cl */
#define SB_PATTERN_REDUCED 0x40000000 /* a traced index the reduction changed */
#define SB_PATTERN_SHARED_BYTES 16384 /* the shared buffer: 4096 4-byte words */
#define SB_PATTERN_BLOCK_X 32
#define SB_PATTERN_BLOCK_Y 8

/* What the command line asked for. */
typedef struct sb_pattern_request {
    int nindex;
    char index[SB_PATTERN_MAX_INDEX][SB_PATTERN_EXPR_LEN];
    char mask[SB_PATTERN_EXPR_LEN]; /* "" for every lane */
    sb_space space;
    int word;  /* 4, 8 or 16; 0 for the default, 4 */
    int store; /* 1: --store */
} sb_pattern_request;

/* Checks an expression as text (length, the characters a -D can carry);
   0, or -1 with why in err.  What it means is the compiler's to say. */
int sb_pattern_expr_check(const char *what, const char *expr, char *err, size_t n);

/* The expression as a -D value ("INDEX=(lane*33)%1024"): white space
   dropped, or kept as an empty comment where two tokens would join;
   map[k] is the column (from 0) of the expression that character k of
   the value after the '=' came from.  0, or -1 when it does not fit. */
int sb_pattern_define(const char *name, const char *expr, char *out, size_t n,
                      int *map, size_t nmap);

/* The user's line for a build of expression `expr` (of `option`,
   "--index") that failed with the compiler's `log` under `api`: each error
   the compiler gives, and where the compiler says, which character of the
   expression it points at. */
#define SB_DEFINE_LEN_MAX 160
void sb_pattern_build_message(const char *option, const char *expr, const char *api,
                              const char *log, char *out, size_t n);

/* Makes the family's variants those of r (copied); NULL clears them. */
void sb_pattern_configure(const sb_pattern_request *r);

/* The request the family holds (every field zero before any). */
const sb_pattern_request *sb_pattern_configured(void);

/* The -D definitions of expression `index` of r into v (its name, entry
   point and block shape too); 0, or -1 with why in err. */
struct sb_variant;
int sb_pattern_variant(const sb_pattern_request *r, int index, struct sb_variant *v, char *err,
                       size_t n);

/* The shared-memory accesses each thread repeats (ITERS of pattern.cl). */
#define SB_PATTERN_ITERS 256

/* Elements of the buffer the index is reduced into. */
long sb_pattern_elements(const sb_pattern_request *r, long threads);

/* Warp sampled in place s of `warps` (as sample_of in pattern.cl). */
long sb_pattern_sample_warp(int s, long warps);

/* What the model makes of one trace (SB_PATTERN_SAMPLES x 32 ints, as
   pattern_trace writes them). */
typedef struct sb_pattern_traced {
    int nsamples;                        /* distinct sampled warps */
    long warp[SB_PATTERN_SAMPLES];       /* which */
    sb_pattern pattern[SB_PATTERN_SAMPLES];
    sb_prediction prediction[SB_PATTERN_SAMPLES];
    int lanes[SB_PATTERN_SAMPLES];       /* lanes taking part */
    int worst;                           /* the sample of the highest cost */
    int reduced;                         /* lanes whose index the reduction changed */
    int idle;                            /* samples with no lane taking part */
} sb_pattern_traced;

/* The model's reading of a trace of `threads` threads: each sampled warp's
   request as a list walk (shared) or a global request (global), costed;
   0, or -1 with why in err. */
int sb_pattern_from_trace(const int32_t *trace, long threads, sb_space space, int word,
                          sb_pattern_traced *out, char *err, size_t n);

#endif
