/* The memory-access model: for one warp-wide access, what the hardware must do.
 *
 * An experiment declares its access as an sb_pattern, built from the same
 * parameters that become its kernel's -D definitions; the model then says
 * how many 32-byte sectors a global-memory request moves and how many
 * wavefronts a shared-memory request needs.  Everything is computed by
 * enumerating the 32 lanes' addresses, never by a closed formula, so that
 * odd patterns (permutations, padding, swizzles) get the same treatment as
 * the textbook ones.
 *
 * The rules follow the study notes in shared/seeds/:
 *   global: a request moves every distinct 32-byte sector its lanes touch;
 *   shared: 32 banks of 4 bytes, bank = (address / 4) % 32; lanes reading
 *           the same word share it; different words of one bank serialise;
 *           8- and 16-byte accesses run in 2 phases (half-warps), each
 *           taking a pass per distinct word of its busiest bank, so a
 *           16-byte access of distinct words takes 4 passes (the seeds'
 *           4 cycles) and a half-warp sharing one element 1.
 *
 * A kernel executes many requests of several such accesses; given how many
 * of each one launch executes, sb_access_totals_of adds them up into the
 * per-launch figures the hardware's counters count (sb_access_totals).
 *
 * Plain C11, no GPU.  Every function validates its pattern first: a bad
 * pattern gives an error, never a number. */
#ifndef SB_MODEL_H
#define SB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define SB_WARP_LANES 32    /* lanes in a warp */
#define SB_BANKS 32         /* shared-memory banks */
#define SB_BANK_BYTES 4     /* width of one bank */
#define SB_SECTOR_BYTES 32  /* global-memory transaction (sector) */
#define SB_SEGMENT_BYTES 128/* cache line: four sectors */

/* Limits that keep every address well inside 64 bits. */
#define SB_MODEL_MAX_STRIDE (1L << 24) /* words */
#define SB_MODEL_MAX_OFFSET (1L << 24) /* words */
#define SB_MODEL_MAX_TILE 65536        /* rows, columns or padding of a tile */
#define SB_MODEL_MAX_INDEX (1L << 30)  /* a list walk's element index */

typedef enum { SB_SPACE_GLOBAL, SB_SPACE_SHARED } sb_space;
typedef enum { SB_PERM_NONE, SB_PERM_REVERSE, SB_PERM_XOR, SB_PERM_RANDOM } sb_perm;
typedef enum { SB_WALK_NONE, SB_WALK_ROW, SB_WALK_COLUMN, SB_WALK_LIST } sb_walk;

/* One warp-wide access (the warp's first one).
 *
 * Linear patterns (walk == SB_WALK_NONE), element index of lane l:
 *   q     = perm(l)                     (0..31, a permutation of the lanes)
 *   g     = same > 1 ? q / same : q     (groups of `same` lanes share one word)
 *   step  = spread ? 128 / word_bytes : stride
 *   index = g * step + offset
 * Tile walks (walk != SB_WALK_NONE) over tile[tile_rows][tile_cols + pad],
 * row-major, element (r, c) stored at r * (tile_cols + pad) + c', where
 * c' = swizzle ? c ^ (r % tile_cols) : c, and index = that + offset:
 *   row walk:    r = walk_index + l / tile_cols, c = l % tile_cols
 *   column walk: c = walk_index + l / tile_rows, r = l % tile_rows
 * (with a walked dimension of 32 or more, lane l is simply column l of row
 * walk_index, or row l of column walk_index; a smaller tile wraps lanes onto
 * the next row or column, as a 2-D block with blockDim.x = that size does).
 * A tile walk needs stride 1 and no perm, spread or same.
 * List walks (walk == SB_WALK_LIST) take each lane's index outright, for
 * what the fields above cannot say (a kernel's own swizzle, two rows of a
 * 16-wide block reading one row):  index = lane_index[l] + offset; they
 * need stride 1 and no perm, spread, same or tile.
 * The byte address of a lane is index * word_bytes (elements are aligned).
 *
 * `active` says which lanes take part (a tail or an edge of the data, where
 * some threads have nothing to do): bit l for lane l, 0 for all 32.  The
 * other lanes touch nothing and cost nothing; a shared-memory phase with no
 * lane taking part costs no wavefront. */
typedef struct sb_pattern {
    sb_space space;
    int word_bytes;    /* 4, 8 or 16 bytes per lane */
    long stride;       /* words between consecutive lanes' elements; 0 = every lane the same word (broadcast) */
    long offset;       /* words added to every lane's index (misalignment: k words after a 128-byte boundary) */
    sb_perm perm;      /* lanes take the same words in another order */
    unsigned perm_arg; /* XOR mask (0..31), or the random permutation's seed; 0 for none/reverse */
    int spread;        /* 1: permuted lanes each in its own 128-byte segment (step = 128 / word_bytes words) */
    int same;          /* >1: lanes in groups of `same` consecutive lanes share one address; 0 or 1: none */
    int tile_rows;     /* tile walks only: rows of the tile */
    int tile_cols;     /* tile walks only: columns of the tile, without padding */
    int pad;           /* tile walks only: extra columns per row */
    int swizzle;       /* tile walks only: 1 = column c of row r stored at c ^ (r % tile_cols) */
    sb_walk walk;      /* SB_WALK_NONE for a linear pattern */
    int walk_index;    /* the row (row walk) or column (column walk) the warp starts on */
    uint32_t active;   /* lanes taking part, bit l for lane l; 0 = all 32 */
    int32_t lane_index[SB_WARP_LANES]; /* list walks only: each lane's element index; else 0 */
} sb_pattern;

/* Cost of one global-memory request. */
typedef struct sb_global_cost {
    int sectors;           /* distinct 32-byte sectors touched (transactions) */
    int segments;          /* distinct 128-byte lines touched */
    int requested_bytes;   /* lanes x word_bytes */
    int unique_bytes;      /* distinct bytes used */
    int transferred_bytes; /* sectors x 32 */
    double efficiency;     /* unique_bytes / transferred_bytes, 0..1 */
} sb_global_cost;

/* Cost of one shared-memory request. */
typedef struct sb_shared_cost {
    int wavefronts;       /* passes the hardware serialises: sum over phases of the worst bank */
    int ideal_wavefronts; /* the minimum: each phase's distinct words over the 32 banks */
    int ways;             /* conflict degree: a phase's worst bank over its minimum, the most of them */
    int conflicts;        /* wavefronts - ideal_wavefronts: the extra passes (Nsight's bank conflicts) */
    int broadcast;        /* 1 when every lane taking part (two or more) reads one address */
} sb_shared_cost;

/* Everything the model says about a pattern, flat ints and doubles so that a
 * report can print every field (see sb_prediction_field_at).  Both costs are
 * always filled; `space` says which one the experiment measures. */
typedef struct sb_prediction {
    int space;      /* sb_space of the pattern */
    int word_bytes;
    int lanes;      /* lanes taking part: 32 but in a tail or an edge */
    /* global memory */
    int sectors;
    int segments;
    int requested_bytes;
    int unique_bytes;
    int transferred_bytes;
    double efficiency;
    /* shared memory */
    int wavefronts;
    int ideal_wavefronts;
    int ways;
    int conflicts;
    int broadcast;
} sb_prediction;

typedef enum { SB_FIELD_INT, SB_FIELD_DOUBLE } sb_field_type;

/* Describes one field of sb_prediction, for generic CSV/JSON writers. */
typedef struct sb_prediction_field {
    const char *name;    /* the struct member's name, also the CSV/JSON key */
    sb_field_type type;  /* int or double */
    size_t offset;       /* offsetof(sb_prediction, member) */
    const char *meaning; /* one line for a report's legend */
} sb_prediction_field;

/* What a declared access does: the counters count loads, stores and
 * atomics (reductions included) apart. */
typedef enum sb_access_kind { SB_ACCESS_LOAD, SB_ACCESS_STORE, SB_ACCESS_ATOMIC } sb_access_kind;

/* A kernel's accesses added up over one launch: each access's requests
 * times its per-request cost, by space and kind, and the ratios the
 * counters give per request.  Each count is what one hardware counter
 * counts (sb_access_totals_field_at names it): requests are warp-level
 * instructions executed, sectors the 32-byte sectors they move, wavefronts
 * the shared-memory passes, conflicts the wavefronts beyond the ideal. */
typedef struct sb_access_totals {
    double global_ld_requests, global_ld_sectors;
    double global_st_requests, global_st_sectors;
    double global_atom_requests, global_atom_sectors;
    double shared_ld_requests, shared_ld_wavefronts, shared_ld_conflicts;
    double shared_st_requests, shared_st_wavefronts, shared_st_conflicts;
    double shared_atom_requests, shared_atom_wavefronts, shared_atom_conflicts;
    /* sectors (wavefronts) over requests; 0 where there are no requests */
    double global_ld_sectors_per_request, global_st_sectors_per_request;
    double shared_ld_wavefronts_per_request, shared_st_wavefronts_per_request;
} sb_access_totals;

/* Describes one field of sb_access_totals, for generic writers and readers. */
typedef struct sb_access_totals_field {
    const char *name;    /* the struct member's name, also the JSON key */
    size_t offset;       /* offsetof(sb_access_totals, member) */
    int ratio;           /* 1: a per-request ratio (derived); 0: a count per launch */
    const char *counter; /* the Nsight Compute / CUPTI metric that counts it */
    const char *meaning; /* one line for a report's legend */
} sb_access_totals_field;

/* A pattern with the defaults: shared memory, 4-byte words, stride 1, nothing else. */
sb_pattern sb_pattern_default(void);

/* NULL when the pattern is valid, else a message saying what is wrong. */
const char *sb_pattern_check(const sb_pattern *p);

/* The byte address each of the 32 lanes touches; 0, or -1 (addr untouched) for an invalid pattern. */
int sb_pattern_addresses(const sb_pattern *p, uint64_t addr[SB_WARP_LANES]);

/* Writes a short name of the pattern ("shared, 4-byte words, stride 6"); snprintf's return, or -1 if invalid. */
int sb_pattern_describe(const sb_pattern *p, char *buf, size_t n);

/* The lane order a permutation gives (out[lane] = position taken); 0, or -1 for a bad perm or XOR mask. */
int sb_perm_table(sb_perm perm, unsigned arg, int out[SB_WARP_LANES]);

/* Global-memory cost of the pattern's request; 0, or -1 (out untouched) for an invalid pattern. */
int sb_global_cost_of(const sb_pattern *p, sb_global_cost *out);

/* Shared-memory cost of the pattern's request; 0, or -1 (out untouched) for an invalid pattern. */
int sb_shared_cost_of(const sb_pattern *p, sb_shared_cost *out);

/* Fills a prediction (both costs) for the pattern; 0, or -1 (out untouched) for an invalid pattern. */
int sb_predict(const sb_pattern *p, sb_prediction *out);

/* Writes "4 sectors/req, 100.0% used" (global) or "32-way, 32 wavefronts" (shared); snprintf's return, or -1. */
int sb_prediction_format(const sb_prediction *p, char *buf, size_t n);

/* The i-th field of sb_prediction, or NULL past the last one. */
const sb_prediction_field *sb_prediction_field_at(size_t i);

/* The value of one field of a prediction, as a double (ints convert exactly). */
double sb_prediction_value(const sb_prediction *p, const sb_prediction_field *f);

/* Adds up n accesses: pattern p[i], executed requests[i] times per launch
 * (warp-level requests, >= 0), of kind[i]; fills *out with the counts and
 * their ratios.  0, or -1 (out untouched) for an invalid pattern, kind or
 * request count. */
int sb_access_totals_of(const sb_pattern *p, const double *requests, const sb_access_kind *kind,
                        int n, sb_access_totals *out);

/* Fills the per-request ratios of t from its counts (0 where no requests). */
void sb_access_totals_ratios(sb_access_totals *t);

/* The i-th field of sb_access_totals, or NULL past the last one. */
const sb_access_totals_field *sb_access_totals_field_at(size_t i);

/* The field called `name` ("global_ld_sectors": the key the counters of
   a profiled launch use too), or NULL. */
const sb_access_totals_field *sb_access_totals_field_named(const char *name);

/* The value of one field of the totals. */
double sb_access_totals_value(const sb_access_totals *t, const sb_access_totals_field *f);

/* Writes "global ld 26.40 sectors/req, st 4.00; shared ld 1.00 wavefronts/req" for
   the spaces and kinds with requests; snprintf's return ("" and 0 for none), or -1. */
int sb_access_totals_format(const sb_access_totals *t, char *buf, size_t n);

/* "load" / "store" / "atomic", or NULL for a value out of range. */
const char *sb_access_kind_name(sb_access_kind k);

/* Bank (0..31) of a shared-memory byte address. */
int sb_bank_of(uint64_t byte_addr);

/* "global" / "shared", or NULL for a value out of range. */
const char *sb_space_name(sb_space s);

/* "none" / "reverse" / "xor" / "random", or NULL for a value out of range. */
const char *sb_perm_name(sb_perm p);

/* "none" / "row" / "column" / "list", or NULL for a value out of range. */
const char *sb_walk_name(sb_walk w);

#endif
