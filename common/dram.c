#include "dram.h"

#include <math.h>

double sb_dram_peak_gbs(int bus_width_bits, double clock_mhz)
{
    if (bus_width_bits <= 0 || clock_mhz <= 0)
        return 0.0;
    return (bus_width_bits / 8.0) * 2.0 * clock_mhz * 1e6 / 1e9;
}

int sb_dram_channels_needed(double target_gbs, int bus_width_bits, double clock_mhz)
{
    double one = sb_dram_peak_gbs(bus_width_bits, clock_mhz);
    if (one <= 0 || target_gbs <= 0)
        return 0;
    /* Tolerate the rounding of exact ratios such as 256 / 16. */
    return (int)ceil(target_gbs / one - 1e-9);
}

double sb_dram_bank_utilisation(double latency_ratio)
{
    return latency_ratio < 0 ? 0.0 : 1.0 / (latency_ratio + 1.0);
}

long sb_burst_count(long chunk_bytes, long burst_bytes, long offset)
{
    if (chunk_bytes <= 0 || burst_bytes <= 0 || offset < 0)
        return 0;
    long first = offset / burst_bytes, last = (offset + chunk_bytes - 1) / burst_bytes;
    return last - first + 1;
}

double sb_burst_efficiency(long chunk_bytes, long burst_bytes, long offset)
{
    long bursts = sb_burst_count(chunk_bytes, burst_bytes, offset);
    return bursts ? (double)chunk_bytes / ((double)bursts * (double)burst_bytes) : 0.0;
}

double sb_burst_fetched_bytes(long chunk_bytes, double share)
{
    return share > 0 ? (double)chunk_bytes / share : 0.0;
}

double sb_littles_bytes(double gbs, double latency_ns)
{
    return gbs > 0 && latency_ns > 0 ? gbs * latency_ns : 0.0;
}

double sb_littles_gbs(double bytes, double latency_ns)
{
    return latency_ns > 0 && bytes > 0 ? bytes / latency_ns : 0.0;
}

double sb_intensity(double flops, double bytes)
{
    return bytes > 0 ? flops / bytes : 0.0;
}

double sb_matmul_intensity(int tile, int coarse)
{
    if (tile < 1 || coarse < 1)
        return 0.0;
    /* One phase of one block: 2 FLOP for each of tile x tile x coarse
       outputs over tile steps, against (1 + coarse) tiles of 4-byte floats.
       The outputs' own stores are left out, as in the seed: they are written
       once while the loads repeat for every phase. */
    double flops = 2.0 * tile * tile * tile * coarse;
    double bytes = 4.0 * tile * tile * (1.0 + coarse);
    return sb_intensity(flops, bytes);
}
