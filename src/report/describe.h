/* What the writers say about a result, a device and a run, in one place so
 * that every format words it the same way.  The writers call these; these
 * call no writer. */
#ifndef SB_DESCRIBE_H
#define SB_DESCRIBE_H

#include <stddef.h>

#include "compute.h"
#include "result.h"

/* Each declared access's label and the model's prediction for it,
 * "LABEL: PREDICTION; LABEL: PREDICTION", then the family's model
 * figures, "paths per warp 8; predicted slowdown 8x", or "" with no model. */
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

/* The result's size in the units its size kind counts: "8192 x 8192
 * floats", "67 108 864 elements", "16 777 216 4-byte words", "2 162 688
 * threads", "4096 threads, 64 words each"; "ROWSxCOLS" where the kind is
 * not known.  Numbers of five digits or more are grouped in thousands with
 * spaces. */
void sb_result_size_text(const sb_result *r, char *buf, size_t n);

/* Theoretical DRAM peak of a device in GB/s from the seed's formula; 0 when
 * the API gave no bus width or memory clock. */
double sb_device_peak_gbs(const sb_device_info *info);

/* The copy roof a device measured in the run: the API copy, else the copy
 * kernel; 0 when the run measured neither. */
double sb_device_copy_roof(const sb_run_device *d);

#endif
