/* What an experiment is: a catalogue entry, its variants, and the few
 * functions that know its buffers and its reference.  The run loop
 * (runner.c) does everything else, the same way for every experiment. */
#ifndef SB_EXPERIMENT_H
#define SB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "experiments/offers.h"
#include "model.h"
#include "result.h"

#define SB_MAX_DEFINES 8
#define SB_MAX_BUFFERS 4
#define SB_MAX_ARGS 8
#define SB_MAX_VARIANTS 512
#define SB_DEFINE_LEN 160 /* one definition: an index expression fits (pattern.h) */
#define SB_TRACE_INTS 256 /* a trace kernel's output: 8 warps of 32 lanes */

/* What a variant's row is: a kernel under study, the kernel that is its
 * experiment's copy roof, the API's own device copy, the vendor
 * library's reference, or the kernel that is the device's measured
 * compute roof (the FP32 FMA peak). */
typedef enum sb_role {
    SB_ROLE_KERNEL,
    SB_ROLE_COPY_ROOF,
    SB_ROLE_API_COPY,
    SB_ROLE_VENDOR,
    SB_ROLE_COMPUTE_ROOF
} sb_role;

/* The kernel name an API copy row carries, and is saved with: a run read
 * back has no roles (result.h), only this name says the row's role. */
#define SB_API_COPY_KERNEL "(API copy)"

/* The row's role where a run read back can still tell it: an API copy,
 * by its role or by the name it was saved with; else its role as set. */
static inline sb_role sb_result_role(const sb_result *r)
{
    if (r->role == SB_ROLE_API_COPY || strcmp(r->kernel, SB_API_COPY_KERNEL) == 0)
        return SB_ROLE_API_COPY;
    return (sb_role)r->role;
}

/* Which library call a vendor row makes (backend.h). */
typedef enum sb_vendor_call {
    SB_VENDOR_NONE,
    SB_VENDOR_TRANSPOSE, /* vendor_transpose: plan args 0, 1 are rows, cols; buffers 1 <- 0 */
    SB_VENDOR_SGEMM      /* vendor_sgemm: plan args 0..2 are m, n, k; buffers 2 <- 0 x 1 */
} sb_vendor_call;

/* A family's own knobs (tile, stride, word size, ...): a struct private to
 * the family's file, which the variant carries without knowing its type
 * (SB_KNOBS in variant.h gives the family typed access). */
typedef struct sb_knobs {
    _Alignas(max_align_t) unsigned char bytes[64];
} sb_knobs;

/* One variant: a kernel and a set of -D definitions, identical for every API. */
typedef struct sb_variant {
    char name[48];                          /* "padded", "stride-4" */
    char kernel[48];                        /* entry point; "" for the API copy */
    char defines[SB_MAX_DEFINES][SB_DEFINE_LEN]; /* "TILE=32" */
    int ndefines;
    unsigned block[3];                      /* threads per block */
    sb_knobs knobs;                         /* the family's own knobs */
    int in_default;                         /* run when no variant is named */
    sb_role role;                           /* kernel, copy roof, API copy or vendor row */
    sb_vendor_call vendor;                  /* a vendor row's library call */
    int baseline;                           /* the reference row for slowdowns */
    int group;                              /* slowdowns compare within a group */
} sb_variant;

/* The size asked for: rows x cols (1-D experiments use rows * cols); what
 * they count is the experiment's size_kind. */
typedef struct sb_problem {
    long rows, cols;
} sb_problem;

typedef enum sb_plan_arg_kind { SB_PLAN_BUFFER, SB_PLAN_INT, SB_PLAN_FLOAT } sb_plan_arg_kind;

/* How to run one variant at one size: buffers, arguments, geometry and
 * what the launch is worth.  Filled by the experiment, used by the runner. */
typedef struct sb_plan {
    int nbuffers;
    struct {
        size_t bytes;
        const void *init; /* host data to upload; NULL marks an output */
    } buffer[SB_MAX_BUFFERS];
    int nargs;
    struct {
        sb_plan_arg_kind kind;
        int buffer;
        int32_t i;
        float f;
    } arg[SB_MAX_ARGS];
    sb_launch geometry;
    double bytes;    /* useful bytes read plus written per launch */
    double flops;    /* floating-point operations per launch */
    double accesses; /* warp-wide shared-memory accesses per launch */
    /* Every global and shared access the kernel executes (sb_plan_declare
       in variant.h fills these): the model's totals are theirs. */
    int npatterns;
    char pattern_label[SB_MAX_PATTERNS][16];
    sb_pattern pattern[SB_MAX_PATTERNS];
    sb_access_kind kind[SB_MAX_PATTERNS];
    double requests[SB_MAX_PATTERNS]; /* warp-level requests one launch executes */
    double lanes[SB_MAX_PATTERNS];    /* lanes taking part in them, added over the requests
                                         (declarations of one cost merged keep each one's) */
    int studied[SB_MAX_PATTERNS];     /* 1: an access the variant is about */
    /* Static instructions of the kernel's PTX the access stands for (its
       source's copies once unrolled); 0 where the compiler chooses (a loop
       it unrolls as it likes, a tail of an instruction counted already). */
    int sites[SB_MAX_PATTERNS];
    int undeclared; /* accesses there was no room for: the run refuses the plan */
    double intensity; /* FLOP per byte of global traffic the variant implies; 0 if none */
    int nfigures;     /* the family's own model figures (result.h), sb_figure_add fills */
    sb_figure figure[SB_MAX_FIGURES];
    int host_timed;   /* also time the kernel on the host's clock (the launch family) */
} sb_plan;

/* What the closing summary of a run (run/summary.h) quotes of an
 * experiment: a rule over its rows' roles and figures that picks its
 * headline row, so that the summary names no experiment.  The first
 * experiment of a family in the run with a rule speaks for the family. */
typedef enum sb_headline_rule {
    SB_HEADLINE_NONE,        /* no line: another experiment speaks for the family */
    SB_HEADLINE_BEST_SHARE,  /* the kernel with the largest share of the roof */
    SB_HEADLINE_WORST_SHARE, /* the kernel with the smallest share, with the model's cost */
    SB_HEADLINE_BEST,        /* the kernel with the best figure: the highest rate or the
                                shortest time */
    SB_HEADLINE_WORST,       /* the kernel with the worst figure */
    SB_HEADLINE_WORST_WAYS   /* the kernel whose studied shared access conflicts the most
                                ways, and the variant that removes the conflict */
} sb_headline_rule;

typedef struct sb_headline {
    sb_headline_rule rule;
    /* Whether variant v competes for the headline (a transpose, not a copy
       beside them); NULL: every kernel does. */
    int (*ranks)(const sb_variant *v);
    /* SB_HEADLINE_WORST_WAYS: the variant that removes the conflict of
       `variant` into fixed[0..n), and in a few words how ("padding
       [32][33]"); 0, or -1 where none does.  NULL: no fix declared. */
    int (*fix)(const char *variant, char *fixed, size_t n, const char **how);
} sb_headline;

/* plan's answer for a variant the size leaves out (see sb_experiment). */
#define SB_PLAN_LEFT_OUT 1

typedef struct sb_experiment {
    const char *name;    /* "transpose" */
    const char *family;  /* "transpose", "global", "shared", ... */
    const char *source;  /* kernel file in the kernel directory */
    const char *summary; /* one line for --list */
    sb_quantity quantity;
    sb_size_kind size_kind; /* what the size's rows and cols count (result.h) */
    int in_default;      /* part of the default suite */
    /* Sizes the test suite runs every variant at on a CPU OpenCL device
       (comma list of N or MxN): small, and including awkward ones. */
    const char *test_sizes;

    /* Fill out[0..max) with the variants; returns how many. */
    int (*variants)(sb_variant *out, int max);
    /* The size to use when none is given, for this device. */
    void (*default_size)(const sb_device_info *dev, sb_problem *p);
    /* Host inputs (random) and reference for one size. */
    int (*prepare)(const sb_problem *p, unsigned seed, void **host, char *err, size_t n);
    void (*release)(void *host);
    /* How to run v at this size on this device: 0; SB_PLAN_LEFT_OUT with
       the reason in err when the size leaves the variant out (a working
       set of a sweep larger than the size asked for), which the run notes
       and is no failure; else -1 with what is wrong in err. */
    int (*plan)(void *host, const sb_problem *p, const sb_variant *v,
                const sb_device_info *dev, sb_plan *plan, char *err, size_t n);
    /* Check the outputs (the plan's output buffers, in order) against the
     * reference: 0 when right, else non-zero with the first mismatch.
     * It runs on a thread of its own while the next variant is planned
     * and measured (run/checker.h): it reads host, never writes it, and
     * plan must not write what verify reads (global.c's lane table). */
    int (*verify)(void *host, const sb_problem *p, const sb_variant *v,
                  void *const *outputs, char *err, size_t n);
    /* Whether variant v can run on this device at all, asked before its
     * program is built; NULL where every variant can.  0, or -1 with why
     * (a private histogram larger than the device's shared memory per
     * block): the run says so in a note and leaves the variant out. */
    int (*fits)(const sb_variant *v, const sb_device_info *dev, char *why, size_t n);
    /* What the run's closing summary says of it; zero: nothing. */
    sb_headline headline;
    /* Whether a row's notes give the threads it launched where the API
       reports no occupancy: a family whose sweep is over what it launches
       (occupancy) declares it, so that the writers name no family. */
    int notes_launched;
    /* The plots of its own figures it offers (offers.h): a table ending
       in a zero row; NULL: none. */
    const sb_plot_offer *plots;
    /* The rules its lessons are drawn by (offers.h), in the order they are
       said: a table ending in a zero row; NULL: none. */
    const sb_lesson_rule *lessons;
    /* Where the model's accesses come from the kernel's own trace (the
       pattern family): the entry point, in the variant's program, that
       writes SB_TRACE_INTS ints (exec/trace_pass.h), launched with the
       plan's first argument over its grid once the variant is timed and
       read back; NULL where plan declares the accesses. */
    const char *trace_kernel;
    /* With trace_kernel: declares the plan's accesses from the trace and
       checks that the outputs used the indices the trace saw; 0, or -1
       with why in err (the run refuses the variant). */
    int (*traced)(void *host, const sb_problem *p, const sb_variant *v, const int32_t *trace,
                  void *const *outputs, sb_plan *plan, char *err, size_t n);
    /* Where a failed build is the user's doing (an expression of theirs):
       the line to give, from the compiler's message under API `api`; the
       run then stops with the usage status before anything is measured.
       NULL: a failed build is the program's (the runtime status). */
    void (*build_failed)(const sb_variant *v, const char *api, const char *log, char *out,
                         size_t n);
} sb_experiment;

#endif
