/* DRAM arithmetic from seed 001: theoretical bandwidth of a double-data-rate
 * bus, and the arithmetic intensity a kernel implies. */
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

/* FLOP per byte of global traffic: flops over bytes (0 when bytes is 0). */
double sb_intensity(double flops, double bytes);

/* FLOP per byte of global loads a float32 matrix multiply implies when each
 * block stages one tile x tile piece of A and `coarse` such pieces of B per
 * phase and computes coarse x tile x tile outputs: tile * coarse /
 * (2 (1 + coarse)).  tile 1, coarse 1 is the simple kernel (0.25); coarse 1
 * is plain tiling (tile / 4).  0 when tile or coarse is below 1. */
double sb_matmul_intensity(int tile, int coarse);

#endif
