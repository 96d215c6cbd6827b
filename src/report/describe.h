/* What the writers say about a result, a device and a run, in one place so
 * that every format words it the same way.  The writers call these; these
 * call no writer. */
#ifndef SB_DESCRIBE_H
#define SB_DESCRIBE_H

#include <stddef.h>

#include "compute.h"
#include "result.h"
#include "analysis/analysis.h"

/* Room for sb_result_model_text's whole text. */
#define SB_MODEL_TEXT 512

/* Each access the variant is about, its label and the model's prediction
 * per request, "LABEL: PREDICTION; LABEL: PREDICTION", then the family's
 * model figures, "paths per warp 8; predicted slowdown 8x", then the
 * totals over every access the kernel executes, "whole kernel: global ld
 * 26.40 sectors/req, st 4.00"; or "" with no model. */
void sb_result_model_text(const sb_result *r, char *buf, size_t n);

/* What a row adds beside the model: its arithmetic intensity, the API's
 * occupancy with the threads in flight, or, without the API's occupancy,
 * what was launched; for a row the host timed too that moves bytes, its
 * bandwidth device-timed and host-timed; "" with nothing to say. */
void sb_result_notes(const sb_result *r, char *buf, size_t n);

/* What the host's clock adds to a launch row's times: "73.4% of the
 * host-observed time unseen by the device's events; 232558 launches/s,
 * 1000 queued"; "" where the host did not time it. */
void sb_result_host_notes(const sb_result *r, char *buf, size_t n);

/* Which physical device a run's slot is, as far as its API said, and in a
 * merged run which run it came from: "device 1 of platform 0, PCI
 * 0000:3b:00.0, UUID 0f1e...; run 2 of 3, run-gpu07-1.json on gpu07,
 * revision abc123, started 2026-01-01T00:00:00Z" (the parts the API or
 * the file did not give left out). */
void sb_device_identity_text(const sb_run *run, int slot, char *buf, size_t n);

/* One fleet row (run/fleet.h) in words, for every writer to lay out. */
typedef struct sb_fleet_text {
    char variant[112];  /* "copy", or "copy@SIZE" where the size is not the experiment's */
    char group[320];    /* "cuda x8", with the device's name where its backend has others */
    char median[32];    /* the median figure: "4012.55" */
    char fastest[96];   /* "cuda:3 4102.10": the device and its figure */
    char slowest[96];
    char outliers[512]; /* "none", or "cuda:5 -20.3%, ..." */
} sb_fleet_text;

/* Fleet row fr of analysis a in words; f is the first result of its
 * experiment (for the size). */
void sb_fleet_row_text(const sb_analysis *a, const sb_result *f, const sb_fleet_row *fr,
                       sb_fleet_text *t);

/* The row's k-th outlier named: "outlier LABEL (identity): P% below its
 * peers' median, M scaled MADs; against PEER: VERDICT, 95% interval". */
void sb_fleet_outlier_text(const sb_analysis *a, const sb_fleet_row *fr, size_t k, char *buf,
                           size_t n);

/* Theoretical DRAM peak of a device in GB/s from the seed's formula; 0 when
 * the API gave no bus width or memory clock. */
double sb_device_peak_gbs(const sb_device_info *info);

/* The copy roof a device measured in the run: the API copy, else the copy
 * kernel; 0 when the run measured neither. */
double sb_device_copy_roof(const sb_run_device *d);

#endif
