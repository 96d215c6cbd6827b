/* Result records: one measured variant with its provenance and the model's
 * prediction, and the run that holds them.  Report writers read these and
 * nothing else. */
#ifndef SB_RESULT_H
#define SB_RESULT_H

#include <stddef.h>

#include "backend.h"
#include "model.h"
#include "stats.h"

#define SB_RESULT_SCHEMA "simtbench-result/1"

/* The most accesses a result declares to the model: every class of global
 * and shared instruction its kernel executes, a tail or an edge of one
 * being a class of its own where it costs differently. */
#define SB_MAX_PATTERNS 16

/* What a result's headline figure measures; the unit is a word made only
 * when a result is written. */
typedef enum sb_quantity {
    SB_QUANTITY_BANDWIDTH, /* GB/s of useful bytes */
    SB_QUANTITY_FLOPS,     /* GFLOP/s */
    SB_QUANTITY_ACCESS,    /* ns per warp-wide access per multiprocessor */
    SB_QUANTITY_LATENCY,   /* ns per dependent load: a pointer chase's latency */
    SB_QUANTITY_LAUNCH,    /* microseconds of device time per launch */
    SB_QUANTITY_ELEMENT    /* ns per element per multiprocessor */
} sb_quantity;

/* The unit a quantity is written in: "GB/s", "GFLOP/s", "ns/access",
 * "ns/load", "us/launch", "ns/element". */
const char *sb_quantity_unit(sb_quantity q);

/* The quantity whose unit is the given word; 0, or -1 for another word. */
int sb_quantity_parse(const char *unit, sb_quantity *q);

/* What a result's rows and cols count, so that a report can give its size
 * with a unit ("8192 x 8192 floats"); each experiment declares its kind. */
typedef enum sb_size_kind {
    SB_SIZE_UNKNOWN,  /* not said: "ROWSxCOLS" (a file older than the field, say) */
    SB_SIZE_MATRIX,   /* a rows x cols matrix of floats */
    SB_SIZE_ELEMENTS, /* a vector of rows * cols elements */
    SB_SIZE_WORDS,    /* a buffer of rows * cols 4-byte words */
    SB_SIZE_THREADS,  /* rows * cols threads */
    SB_SIZE_WALKS     /* cols threads, each walking rows 4-byte words */
} sb_size_kind;

/* The kind as one word for data: "matrix", "elements", "words", "threads",
 * "walks"; "" for SB_SIZE_UNKNOWN. */
const char *sb_size_kind_name(sb_size_kind k);


/* The kind the word names; 0, or -1 for another word (and for ""). */
int sb_size_kind_parse(const char *name, sb_size_kind *k);

/* The most model figures a result holds beside its access patterns. */
#define SB_MAX_FIGURES 6

/* A figure a family's model (or the analysis) derives where the access
 * model of model.h has nothing to say: the paths a warp executes, the
 * slowdown predicted, same-address atomics per warp instruction, a
 * latency in cycles.  The name is a key for data ("paths_per_warp",
 * snake case), the unit a word for people ("x", "ns", "cycles"; "" for a
 * count). */
typedef struct sb_figure {
    char name[32];
    char unit[12];
    double value;
} sb_figure;

/* Append a figure to figs[0..*n) unless SB_MAX_FIGURES are there already;
 * 0, or -1 when full or the name or unit does not fit (nothing added). */
int sb_figure_add(sb_figure *figs, int *n, const char *name, double value, const char *unit);

/* The figure of that name among figs[0..n), or NULL. */
const sb_figure *sb_figure_find(const sb_figure *figs, int n, const char *name);

/* Set the figure of that name to value and unit, in place when figs has
 * one (analysis derives some again each time a run is analysed), else
 * appended as sb_figure_add does; 0, or -1 as sb_figure_add. */
int sb_figure_set(sb_figure *figs, int *n, const char *name, double value, const char *unit);

typedef struct sb_result {
    char backend[16];
    int device_slot;         /* index into sb_run.devices */
    char experiment[32];
    char family[16];
    char variant[48];
    char kernel[48];
    char params[200];        /* the -D definitions, space separated */
    long rows, cols;
    sb_size_kind size_kind;  /* what rows and cols count */
    unsigned grid[3], block[3];
    int reps, warmup;
    sb_stats ms;             /* event times of the repetitions, milliseconds */
    double *samples;         /* each timed repetition's event time, milliseconds, in run
                                order (nsamples = reps); in a run, owned by it: sb_run_add
                                copies them, sb_run_free frees them.  NULL with nsamples 0
                                where unknown (a file older than the field) */
    size_t nsamples;
    double bytes;            /* useful bytes per launch */
    double flops;            /* per launch */
    double accesses;         /* per launch: warp-wide shared accesses (ns/access), or the
                                dependent loads of a pointer chase (ns/load) */
    double intensity;        /* FLOP per byte implied; 0 if none */
    sb_quantity quantity;    /* what value measures */
    double value;            /* the headline figure at the median time */
    double value_best;       /* at the minimum time */
    double roof_share;       /* GB/s: value over the backend's measured copy roof; GFLOP/s:
                                value over intensity x that roof (the memory-bound
                                ceiling), or, for a row with no intensity, over the
                                device's theoretical FP32 peak (compute.h); 0 if none */
    double slowdown;         /* median over the baseline variant's; 0 if none */
    int group, baseline;     /* the variant's slowdown group, and whether it is the base */
    int role;                /* the variant's sb_role (experiments/experiment.h); set by the
                                run, not saved: 0 (a kernel) in a run read back */
    int occupancy;           /* blocks per multiprocessor the API reports; -1 unknown */
    long threads_in_flight;  /* threads resident at once: min(launched, units x occupancy
                                x block); -1 when the API gives no occupancy */
    /* What the API's compiler allocated for the kernel (backend.h's
       sb_kernel_resources); -1 unknown, and for the API copy and vendor rows. */
    int regs;                /* registers per thread */
    long shared_bytes;       /* static shared/local memory per block */
    long private_bytes;      /* local/private (spill) memory per thread */
    /* Every access the kernel executes, declared to the model: which it is,
       its pattern and prediction per request, and how many warp-level
       requests of it one launch executes.  The ones the variant is about
       come with extra 0; the others (index tables, tails, fills: extra 1)
       are there so that the totals are the whole kernel's.  A file older
       than the fields has only the former, of requests 0 (unknown). */
    int npatterns;
    char pattern_label[SB_MAX_PATTERNS][16];
    sb_pattern pattern[SB_MAX_PATTERNS];
    sb_prediction prediction[SB_MAX_PATTERNS];
    sb_access_kind pattern_kind[SB_MAX_PATTERNS];
    double pattern_requests[SB_MAX_PATTERNS]; /* per launch; 0 unknown */
    int pattern_extra[SB_MAX_PATTERNS];
    sb_access_totals totals;  /* the model's per-launch totals over every access */
    int has_totals;           /* 1 where totals holds them (requests known) */
    int counted;             /* 1: counts[] hold the hardware's counts of one profiled
                                launch (--counters); 0: none, counters_note says why
                                where they were asked for */
    double counts[SB_COUNTER_COUNT]; /* backend.h's sb_counter order; NaN: not counted */
    char counters_note[200];
    int nfigures;            /* the family's model figures beyond the patterns */
    sb_figure figure[SB_MAX_FIGURES];
    /* The launch family's host-timed measurements (the executor's policy,
       through the backend's launch_queued): what a benchmark timed on the
       host sees of the same kernel.  n 0 and 0 where not measured. */
    sb_stats host_observed;  /* ms of one launch, from its enqueue to its completion on the
                                host's monotonic clock, over the reps repetitions */
    double launches_per_s;   /* queued_launches launches enqueued back to back, over the host
                                time from the first enqueue to the last completion */
    int queued_launches;
    int verified;            /* 1: the output matched the host reference */
    double host_ms;          /* wall time of the whole variant: transfers, launches, checks */
    double verify_ms;        /* the part of host_ms that reads the verified launch's outputs
                                back and checks them against the host reference */
    char ptx_file[160];      /* where --dump-ptx wrote this variant's PTX */
    char ptx_memory[512];    /* the kernel's memory instructions in its PTX
                                (ptx_summary.h's text); "" where the API gave no PTX */
} sb_result;

/* The result's size in the units its size kind counts: "8192 x 8192
 * floats", "67 108 864 elements", "16 777 216 4-byte words", "2 162 688
 * threads", "4096 threads, 64 words each"; "ROWSxCOLS" where the kind is
 * not known.  Numbers of five digits or more are grouped in thousands with
 * spaces. */
void sb_result_size_text(const sb_result *r, char *buf, size_t n);

/* One device a run used, with the backend that opened it. */
typedef struct sb_run_device {
    char backend[16];
    int source;              /* a merged run's: the index of the run it came from in
                                sb_run.sources; 0 in a run of its own */
    sb_device_info info;
    double memcpy_gbs;       /* the API's own device copy in this run; 0 if not measured */
    double copy_gbs;         /* the copy kernel in this run; 0 if not measured */
    /* The SM and memory clocks in MHz at the run's start and end, as the
       driver's management library said (backend.h's clocks); 0 unknown,
       and then clocks_note says why where it was asked. */
    int sm_mhz_start, mem_mhz_start, sm_mhz_end, mem_mhz_end;
    char clocks_note[200];
    double fma_gflops;       /* the FP32 FMA peak kernel in this run; 0 if not measured */
    /* The drift check (run/noise.h): the device's API copy, its first row's
       figure and the same copy measured again once the session had run
       every experiment, GB/s; 0 where not measured (older files). */
    double roof_start_gbs, roof_end_gbs;
} sb_run_device;

#define SB_RUN_MAX_DEVICES 64

/* The most repetitions a result holds: --reps's bound. */
#define SB_RESULT_MAX_SAMPLES 100000

/* A backend that was built but could not run in this run, and why: the
 * report's header names each (a default run leaves them out).  The
 * reason is the registry's whole (a missing module's names the folders
 * searched), so it has the room of one. */
typedef struct sb_run_unavailable {
    char backend[16];
    char reason[1200];
} sb_run_unavailable;

/* Where a run came from, beside sb_run's version, date (its start) and
 * host; "" where unknown (a file older than the fields). */
typedef struct sb_run_provenance {
    char revision[80];       /* `git describe --always --dirty` of the source at build
                                time, or the release version */
    char command[4096];      /* the command line, words quoted for a shell */
    char os[72];             /* uname: system name ("Linux") */
    char kernel[72];         /* uname: release */
    char machine[72];        /* uname: machine ("x86_64") */
    char cpu[128];           /* /proc/cpuinfo's model name, else the machine */
    char end[32];            /* when the run ended: ISO 8601, UTC */
} sb_run_provenance;

/* One of the runs a merged result (simtbench merge) holds: where and when
 * it ran, by which build, from which file. */
typedef struct sb_run_source {
    char file[256];          /* the saved run it was read from */
    char tool_version[32];
    char date[32];           /* when it started */
    char host[64];
    sb_run_provenance provenance;
    int interrupted;
} sb_run_source;

typedef struct sb_run {
    char tool_version[32];
    char date[32];           /* ISO 8601, UTC: when the run started */
    char host[64];
    sb_run_provenance provenance;
    int ndevices;
    sb_run_device devices[SB_RUN_MAX_DEVICES];
    size_t nresults, capacity;
    sb_result *results;
    int interrupted;         /* stopped by a signal: the results are what finished */
    int failures;            /* the failures the executor reported (a wrong result, a kernel
                                that did not build or run), which left no result; not saved:
                                0 in a run read back */
    int nunavailable;
    sb_run_unavailable unavailable[SB_RUN_MAX_DEVICES];
    /* A merged result's runs, each device's source one of them (malloc'd,
       freed by sb_run_free); 0 and NULL in a run of its own, whose host,
       date and provenance are its devices'. */
    int nsources;
    sb_run_source *sources;
} sb_run;

/* The key of counter c in data ("global_ld_requests"), NULL outside
 * 0..SB_COUNTER_COUNT. */
const char *sb_counter_key(int c);

/* The counter whose key is name, or -1. */
int sb_counter_parse(const char *name);

/* The host a device of the run was measured on: its source's in a merged
 * run, else the run's. */
const char *sb_run_device_host(const sb_run *run, int slot);

/* Append a copy of r to the run, with a copy of its samples (r's stay the
 * caller's); returns 0, or -1 when out of memory (the run unchanged). */
int sb_run_add(sb_run *run, const sb_result *r);

/* Free what the run holds, its results' samples too, and zero it. */
void sb_run_free(sb_run *run);

#endif
