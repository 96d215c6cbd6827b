/* Compute arithmetic: the theoretical FP32 peak of a device from the
 * per-architecture table of FP32 lanes, and the figures of the launch
 * path (launches per second, the share of a host-timed launch that the
 * device does not see).  Plain C that the analysis, the report and the
 * tests share. */
#ifndef SB_COMPUTE_H
#define SB_COMPUTE_H

#include "backend.h"

/* FP32 lanes per multiprocessor of an architecture ("sm_90": 128), from
 * the one table of them; 0 for one not in it. */
int sb_arch_fp32_lanes(const char *arch);

/* Theoretical FP32 GFLOP/s: units x lanes per unit x 2 (an FMA is two
 * FLOPs) x the clock; 0 when any input is unknown (<= 0). */
double sb_fp32_peak_gflops(int units, int lanes, double clock_mhz);

/* The same for a device: its multiprocessors, its architecture's lanes
 * and its core clock; 0 when the architecture is not in the table or the
 * API gave no unit count or clock. */
double sb_device_fp32_peak_gflops(const sb_device_info *info);

/* Launches per second of `launches` launches that took `seconds` from the
 * first enqueue to the completion of the last; 0 when either is <= 0. */
double sb_launches_per_second(long launches, double seconds);

/* The share of a host-observed time per launch that the device's events
 * do not see, 1 - device / host: what a benchmark timed on the host loses
 * against the same kernel timed on the device (a bandwidth it reports is
 * lower by this fraction).  0 when either time is unknown (<= 0); negative
 * when the host saw less than the device, which only noise can do. */
double sb_host_deficit(double host_ms, double device_ms);

#endif
