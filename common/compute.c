#include "compute.h"

#include <string.h>

/* FP32 lanes per multiprocessor by architecture: the one table of them. */
static const struct {
    const char *arch;
    int lanes;
} fp32_lanes[] = {
    {"sm_70", 64}, {"sm_80", 64}, {"sm_86", 128}, {"sm_89", 128}, {"sm_90", 128},
};

int sb_arch_fp32_lanes(const char *arch)
{
    for (size_t i = 0; i < sizeof fp32_lanes / sizeof fp32_lanes[0]; i++)
        if (strcmp(arch, fp32_lanes[i].arch) == 0)
            return fp32_lanes[i].lanes;
    return 0;
}

double sb_fp32_peak_gflops(int units, int lanes, double clock_mhz)
{
    if (units <= 0 || lanes <= 0 || !(clock_mhz > 0))
        return 0.0;
    /* MHz x 1e6 / 1e9 = GFLOP/s per 1000 */
    return (double)units * lanes * 2.0 * clock_mhz / 1000.0;
}

double sb_device_fp32_peak_gflops(const sb_device_info *info)
{
    return sb_fp32_peak_gflops(info->compute_units, sb_arch_fp32_lanes(info->arch),
                               info->clock_mhz);
}

double sb_launches_per_second(long launches, double seconds)
{
    return launches > 0 && seconds > 0 ? (double)launches / seconds : 0.0;
}

double sb_host_deficit(double host_ms, double device_ms)
{
    return host_ms > 0 && device_ms > 0 ? 1.0 - device_ms / host_ms : 0.0;
}
