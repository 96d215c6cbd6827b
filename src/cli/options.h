/* Command-line options of `simtbench [run]`, parsed into one plain struct.
 * The plan never sees it: cli/run_request.h fills the plan's request. */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H

#include <stdio.h>

#include "plan/request.h"
#include "experiments/pattern.h"
#include "report/format.h"

/* The seed of a run's random inputs unless --seed says otherwise; `model
   --variant` plans from the inputs it draws, as the run does. */
#define SB_DEFAULT_SEED 12345u

typedef struct sb_options {
    int nbackends;                 /* 0: every available backend */
    char backends[SB_MAX_NAMES][16];
    int nexperiments;              /* 0: the default suite */
    char experiments[SB_MAX_NAMES][32];
    int nvariants;                 /* 0: each experiment's default variants */
    char variants[SB_MAX_NAMES][48];
    int all_variants;              /* --variant all */
    int sample_every;              /* > 1: of a sweep of more than SB_SWEEP_SAMPLE_OVER
                                      variants, run the default ones and every
                                      sample_every-th (the tests on a GPU) */
    int platform, device;          /* -1: choose; device is the one index of a --device
                                      naming one, else -1 */
    sb_device_pick device_pick;    /* what --device said */
    int ndevice_list;              /* SB_DEVICE_LIST: the indices, in the order named */
    int device_list[SB_MAX_DEVICE_LIST];
    int serial;                    /* --serial: one device after another */
    long rows, cols;               /* 0: each experiment's default size */
    int reps, warmup;
    unsigned seed;
    sb_format format;              /* a row of the writer table (report/format.h) */
    const char *reference;         /* --reference: the backend whose first device the
                                      others are compared with; NULL: the run's first */
    const char *output;            /* NULL: stdout */
    const char *save;              /* also write the JSON report here */
    const char *plot_dir;
    const char *ptx_dir;
    int list, help, version, quiet;
    int counters;                  /* --counters: one profiled launch per kernel row */
    sb_pattern_request pattern;    /* --index, --mask, --space, --word, --store */
    int argc;                      /* the command line, for the run's provenance: set by */
    const char *const *argv;       /* main after sb_options_parse (NULL: not known) */
} sb_options;

/* Defaults: every backend, the default suite, 20 repetitions after 3 warm-ups. */
void sb_options_defaults(sb_options *o);

/* Parse argv into o.  Returns 0, or SB_EXIT_USAGE with one line in err. */
int sb_options_parse(int argc, char **argv, sb_options *o, char *err, size_t n);

/* Parse "N" or "MxN" (positive, at most 2^31 - 1 elements in all). */
int sb_parse_size(const char *s, long *rows, long *cols);

/* Print the --help text. */
void sb_options_usage(FILE *f);

/* --version in the GNU style: the name and version, copyright and license,
 * then what this build has: its backends (from the registry) and where each
 * module is looked for, and the optional programs and libraries opened at
 * run time. */
void sb_options_version(FILE *f);

/* The run's options for the shell's completion (cli/complete.h). */
void sb_options_complete(FILE *out);

#endif
