/* The CUDA backend's devices: probing, enumerating and describing them,
 * opening and closing one (its primary context, stream and events), and
 * its clocks through NVML. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "module.h"
#include "nvml_clocks.h"
#include "text.h"

static int device_count(void)
{
    int n = 0;
    if (cu_failed(cu.cuDeviceGetCount(&n), "cuDeviceGetCount"))
        return -1;
    if (n < 0) {
        set_error("the CUDA driver reports %d devices: reinstall the NVIDIA driver", n);
        return -1;
    }
    return n;
}

/* A failed query leaves 0: a backend never invents a value. */
static int attr(sb_CUdevice d, sb_CUdevice_attribute a)
{
    int v = 0;
    return cu.cuDeviceGetAttribute(&v, a, d) == SB_CUDA_SUCCESS ? v : 0;
}

/* NVML knows the driver release ("580.95.05"); the driver API only knows
 * which CUDA version it implements, the fallback. */
static const char *driver_release(void)
{
    static char release[80];
    static int tried;
    if (tried)
        return release;
    tried = 1;
    char why[sizeof last];
    int damaged;
    void *lib = open_library("libnvidia-ml.so.1", &damaged, why, sizeof why);
    if (lib) {
        int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
        int (*version)(char *, unsigned) =
            (int (*)(char *, unsigned))dlsym(lib, "nvmlSystemGetDriverVersion");
        int (*shutdown)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
        if (init && version && shutdown && init() == 0) {
            if (version(release, sizeof release) != 0)
                release[0] = '\0';
            shutdown();
        }
        dlclose(lib);
    }
    int v = 0;
    if (!release[0] && cu.cuDriverGetVersion(&v) == SB_CUDA_SUCCESS)
        snprintf(release, sizeof release, "CUDA %d.%d", v / 1000, v % 1000 / 10);
    return release;
}

/* Which physical device d is: its PCI address ("0000:3B:00.0" from the
 * driver, written as lspci does) and its UUID; each "" where the driver
 * does not say. */
static void fill_identity(sb_CUdevice d, sb_device_info *info)
{
    char bus[64] = "";
    unsigned domain, busno, slot, function;
    if (cu.cuDeviceGetPCIBusId(bus, (int)sizeof bus, d) == SB_CUDA_SUCCESS &&
        sscanf(bus, "%x:%x:%x.%x", &domain, &busno, &slot, &function) == 4)
        snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", domain, busno,
                 slot, function);
    unsigned char u[SB_CU_UUID_BYTES] = {0};
    if (cu.cuDeviceGetUuid_v2((sb_CUuuid *)u, d) == SB_CUDA_SUCCESS)
        sb_uuid_text(u, info->uuid, sizeof info->uuid);
}

static int fill_info(int ordinal, sb_device_info *info)
{
#define ATTR(x) attr(d, SB_CU_DEVICE_ATTRIBUTE_##x)
    sb_CUdevice d;
    memset(info, 0, sizeof *info);
    if (cu_failed(cu.cuDeviceGet(&d, ordinal), "cuDeviceGet(%d)", ordinal))
        return -1;
    info->device_index = ordinal;
    snprintf(info->platform, sizeof info->platform, "NVIDIA CUDA");
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    char name[2 * sizeof info->name] = "";
    if (cu.cuDeviceGetName(name, (int)sizeof name, d) != SB_CUDA_SUCCESS)
        name[0] = '\0';
    name[sizeof name - 1] = '\0';
    sb_utf8_copy(info->name, sizeof info->name, name);
    sb_utf8_copy(info->driver, sizeof info->driver, driver_release());
    int v = 0;
    if (cu.cuDriverGetVersion(&v) == SB_CUDA_SUCCESS)
        snprintf(info->api_version, sizeof info->api_version, "CUDA %d.%d", v / 1000,
                 v % 1000 / 10);
    if (ATTR(COMPUTE_CAPABILITY_MAJOR) > 0)
        snprintf(info->arch, sizeof info->arch, "sm_%d%d", ATTR(COMPUTE_CAPABILITY_MAJOR),
                 ATTR(COMPUTE_CAPABILITY_MINOR));
    info->is_gpu = 1;
    info->compute_units = ATTR(MULTIPROCESSOR_COUNT);
    info->clock_mhz = (ATTR(CLOCK_RATE) + 500) / 1000; /* kHz */
    info->mem_clock_mhz = (ATTR(MEMORY_CLOCK_RATE) + 500) / 1000;
    info->bus_width_bits = ATTR(GLOBAL_MEMORY_BUS_WIDTH);
    size_t mem = 0;
    if (cu.cuDeviceTotalMem_v2(&mem, d) == SB_CUDA_SUCCESS)
        info->global_mem_bytes = mem;
    info->max_alloc_bytes = info->global_mem_bytes; /* no per-allocation limit */
    info->l2_bytes = (uint64_t)ATTR(L2_CACHE_SIZE);
    snprintf(info->cache_name, sizeof info->cache_name, "L2");
    info->local_mem_bytes = (uint64_t)ATTR(MAX_SHARED_MEMORY_PER_BLOCK);
    info->max_group_size = ATTR(MAX_THREADS_PER_BLOCK);
    info->warp_size = ATTR(WARP_SIZE);
    fill_identity(d, info);
    return 0;
#undef ATTR
}

int cuda_probe(void)
{
    int n;
    if (load_driver() || (n = device_count()) < 0)
        return -1;
    if (n == 0) {
        set_error("no CUDA device found: the driver loaded but reports 0 devices");
        return -1;
    }
    return load_nvrtc(); /* without it no kernel can be built */
}

/* Returns how many entries were filled, at most max; with out NULL, how
 * many devices there are. */
int cuda_enumerate(sb_device_info *out, int max)
{
    int n, i;
    if (load_driver() || (n = device_count()) < 0)
        return -1;
    if (!out)
        return n;
    for (i = 0; i < n && i < max; i++)
        if (fill_info(i, &out[i]))
            return -1;
    return i;
}

void cuda_close(sb_device *d)
{
    if (!d)
        return;
    /* An open batch is dropped: the stream is waited for below and no time
       is read. */
    if (d->ctx) {
        cu.cuCtxSetCurrent(d->ctx);
        if (d->stream)
            cu.cuStreamSynchronize(d->stream);
        if (d->blas)
            blas.cublasDestroy_v2(d->blas); /* before the stream it is bound to */
        sb_cupti_close(d->cupti);       /* before the context it profiles */
        if (d->start)
            cu.cuEventDestroy_v2(d->start);
        if (d->stop)
            cu.cuEventDestroy_v2(d->stop);
        for (int i = 0; i < d->pool_have; i++) {
            cu.cuEventDestroy_v2(d->pool_start[i]);
            cu.cuEventDestroy_v2(d->pool_stop[i]);
        }
        if (d->stream)
            cu.cuStreamDestroy_v2(d->stream);
        cu.cuCtxSetCurrent(NULL);
        cu.cuDevicePrimaryCtxRelease_v2(d->dev);
    }
    free(d->pool_start);
    free(d->pool_stop);
    free(d->batch_ms);
    free(d);
}

int cuda_open(const sb_device_request *req, sb_device **out, sb_device_info *info)
{
    int n, index = req && req->device >= 0 ? req->device : 0;
    *out = NULL;
    if (load_driver() || (n = device_count()) < 0)
        return -1;
    if (index >= n) {
        set_error("CUDA device %d does not exist: %d device%s found%s", index, n,
                  n == 1 ? "" : "s", n > 0 ? " (numbered from 0)" : "");
        return -1;
    }
    sb_device *d = calloc(1, sizeof *d);
    if (!d) {
        set_error("out of host memory opening CUDA device %d", index);
        return -1;
    }
    if (cu_failed(cu.cuDeviceGet(&d->dev, index), "cuDeviceGet(%d)", index) ||
        cu_failed(cu.cuDevicePrimaryCtxRetain(&d->ctx, d->dev),
                  "cuDevicePrimaryCtxRetain(device %d)", index) ||
        cu_failed(cu.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent(device %d)", index) ||
        cu_failed(cu.cuStreamCreate(&d->stream, SB_CU_STREAM_DEFAULT), "cuStreamCreate") ||
        cu_failed(cu.cuEventCreate(&d->start, SB_CU_EVENT_DEFAULT), "cuEventCreate") ||
        cu_failed(cu.cuEventCreate(&d->stop, SB_CU_EVENT_DEFAULT), "cuEventCreate") ||
        (info && fill_info(index, info))) {
        cuda_close(d);
        return -1;
    }
    d->ordinal = index;
    d->arch = 10 * attr(d->dev, SB_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
              attr(d->dev, SB_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    *out = d;
    return 0;
}

/* Driver calls act on the thread's current context, and the frontend may
 * hold several devices open. */
int use(sb_device *d)
{
    return cu_failed(cu.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent") ? -1 : 0;
}

/* NVML, through the device's PCI bus id. */
int cuda_clocks(sb_device *d, int *sm_mhz, int *mem_mhz)
{
    char bus[32], why[300];
    *sm_mhz = *mem_mhz = 0;
    if (cu_failed(cu.cuDeviceGetPCIBusId(bus, (int)sizeof bus, d->dev), "cuDeviceGetPCIBusId"))
        return -1;
    if (sb_nvml_clocks(bus, sm_mhz, mem_mhz, why, sizeof why)) {
        set_error("%s", why);
        return -1;
    }
    return 0;
}
