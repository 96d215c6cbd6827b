/* What a run is asked to do, as the suite plan takes it: the names of
 * experiments, variants and backends, the devices, the measuring policy
 * and the output paths, unresolved and unchecked.  The command line fills
 * one from argv (cli/run_request.h); the plan (suite.h) resolves and
 * checks it.  No stage below the plan sees argv or the options. */
#ifndef SB_REQUEST_H
#define SB_REQUEST_H

#include "plan/exit_status.h"

/* The most names one list option gives. */
#define SB_MAX_NAMES 16
/* The most device indices one --device list names. */
#define SB_MAX_DEVICE_LIST 64
/* A sweep longer than this is sampled when sample_every asks. */
#define SB_SWEEP_SAMPLE_OVER 100

/* What --device names: nothing (each backend's default device), a list of
 * indices, every device, or the one a launcher gave this task. */
typedef enum sb_device_pick {
    SB_DEVICE_DEFAULT, /* no --device: the first GPU, else the first device */
    SB_DEVICE_LIST,    /* --device N or N,M,...: those indices */
    SB_DEVICE_ALL,     /* --device all: every device of each backend */
    SB_DEVICE_AUTO     /* --device auto: SLURM_LOCALID or an MPI launcher's local rank */
} sb_device_pick;

typedef struct sb_run_request {
    int nknown;                    /* the backends this build knows, as the registry
                                      lists them: the plan checks names against */
    char known[SB_MAX_NAMES][16];  /* them and loads none */
    int nbackends;                 /* 0: every available backend */
    char backends[SB_MAX_NAMES][16];
    int nexperiments;              /* 0: the default suite */
    char experiments[SB_MAX_NAMES][32];
    int nvariants;                 /* 0: each experiment's default variants */
    char variants[SB_MAX_NAMES][48];
    int all_variants;              /* every variant */
    int sample_every;              /* > 1: of a sweep of more than SB_SWEEP_SAMPLE_OVER
                                      variants, the default ones and every
                                      sample_every-th */
    int platform;                  /* -1: choose */
    sb_device_pick device_pick;
    int ndevice_list;              /* SB_DEVICE_LIST: the indices, in the order named */
    int device_list[SB_MAX_DEVICE_LIST];
    int serial;                    /* one device after another */
    long rows, cols;               /* 0: each experiment's default size */
    int reps, warmup;
    unsigned seed;
    int quiet;                     /* no progress and no notes on stderr */
    int counters;                  /* one profiled launch per kernel row */
    const char *output;            /* the report; NULL: standard output */
    const char *save;              /* the JSON copy, escapes unexpanded; NULL: none */
    const char *plot_dir;          /* NULL: no plots */
    const char *ptx_dir;           /* NULL: PTX is summarised, not saved */
} sb_run_request;

#endif
