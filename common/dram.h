/* DRAM arithmetic from seed 001: theoretical bandwidth of a double-data-rate
 * bus, bank utilisation, what a burst delivers of a chunk, the bytes in
 * flight Little's law asks for, and the arithmetic intensity a kernel
 * implies. */
#ifndef SB_DRAM_H
#define SB_DRAM_H

/* Peak GB/s of a DDR bus: bus bytes x 2 transfers per clock x clock.
 * 0 when either input is unknown (<= 0). */
double sb_dram_peak_gbs(int bus_width_bits, double clock_mhz);

/* Channels of bus_width_bits at clock_mhz needed for target_gbs (rounded up). */
int sb_dram_channels_needed(double target_gbs, int bus_width_bits, double clock_mhz);

/* Utilisation of one DRAM bank whose access latency is R times its data
 * transfer time: 1 / (R + 1). */
double sb_dram_bank_utilisation(double latency_ratio);

/* Bursts of burst_bytes that a chunk of chunk_bytes touches when it starts
 * offset bytes after a burst boundary; 0 when a size is not positive or
 * the offset negative. */
long sb_burst_count(long chunk_bytes, long burst_bytes, long offset);

/* The share of the bytes those bursts carry that the chunk uses:
 * chunk / (bursts x burst), 1 for whole aligned bursts, 1 / burst for one
 * useful byte; 0 when sb_burst_count is. */
double sb_burst_efficiency(long chunk_bytes, long burst_bytes, long offset);

/* What a chunk costs, in bytes of a sequential stream: a chunk that moves
 * at `share` of the sequential bandwidth takes the time of chunk / share
 * sequential bytes (the burst it behaves as if it fetched); 0 when share
 * is not positive. */
double sb_burst_fetched_bytes(long chunk_bytes, double share);

/* Little's law: the bytes that must be in flight to keep gbs (10^9 bytes
 * per second) flowing when each request takes latency_ns, gbs x
 * latency_ns (the 10^9s cancel); 0 when either is not positive.  With the
 * seed's bank it is R + 1 bursts: a burst per transfer time, each taking
 * R + 1 transfer times. */
double sb_littles_bytes(double gbs, double latency_ns);

/* Little's law the other way: the GB/s that bytes in flight sustain at
 * latency_ns, bytes / latency_ns; 0 when latency_ns is not positive. */
double sb_littles_gbs(double bytes, double latency_ns);

/* FLOP per byte of global traffic: flops over bytes (0 when bytes is 0). */
double sb_intensity(double flops, double bytes);

/* FLOP per byte of global loads a float32 matrix multiply implies when each
 * block stages one tile x tile piece of A and `coarse` such pieces of B per
 * phase and computes coarse x tile x tile outputs: tile * coarse /
 * (2 (1 + coarse)).  tile 1, coarse 1 is the simple kernel (0.25); coarse 1
 * is plain tiling (tile / 4).  0 when tile or coarse is below 1. */
double sb_matmul_intensity(int tile, int coarse);

#endif
