#include "nvml_clocks.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lib_search.h"

/* NVML's own types, declared here as the backends declare their APIs: a
 * device handle is a pointer, a result an enum (0 success), a clock type
 * an enum (nvml.h: NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2). */
typedef struct nvml_device *sb_nvmlDevice_t;
typedef int (*sb_nvmlInit_v2_fn)(void);
typedef int (*sb_nvmlDeviceGetHandleByPciBusId_v2_fn)(const char *bus, sb_nvmlDevice_t *dev);
typedef int (*sb_nvmlDeviceGetClockInfo_fn)(sb_nvmlDevice_t dev, int type, unsigned *mhz);
typedef const char *(*sb_nvmlErrorString_fn)(int result);
enum { SB_NVML_CLOCK_SM = 1, SB_NVML_CLOCK_MEM = 2 };

static struct {
    sb_nvmlInit_v2_fn init;
    sb_nvmlDeviceGetHandleByPciBusId_v2_fn by_bus;
    sb_nvmlDeviceGetClockInfo_fn clock;
    sb_nvmlErrorString_fn error;
    char why[256]; /* why NVML cannot be used; "" when it can */
} nvml;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void)
{
    const char *so = "libnvidia-ml.so.1";
    char path[4096];
    int found = sb_lib_resolve(so, path, sizeof path, nvml.why, sizeof nvml.why);
    if (found < 0)
        return;
    nvml.why[0] = '\0';
    /* By the path found, never the bare soname (lib_search.h). */
    void *lib = found == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib) {
        snprintf(nvml.why, sizeof nvml.why, "NVML %s not found (it comes with the NVIDIA driver)",
                 so);
        return;
    }
    nvml.init = (sb_nvmlInit_v2_fn)dlsym(lib, "nvmlInit_v2");
    nvml.by_bus = (sb_nvmlDeviceGetHandleByPciBusId_v2_fn)dlsym(lib,
                                                                 "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.clock = (sb_nvmlDeviceGetClockInfo_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
    nvml.error = (sb_nvmlErrorString_fn)dlsym(lib, "nvmlErrorString");
    int r = -1;
    if (!nvml.init || !nvml.by_bus || !nvml.clock)
        snprintf(nvml.why, sizeof nvml.why, "NVML %s lacks the clock queries", so);
    else if ((r = nvml.init()) != 0)
        snprintf(nvml.why, sizeof nvml.why, "nvmlInit: %s",
                 nvml.error ? nvml.error(r) : "failed");
    if (nvml.why[0])
        dlclose(lib);
}

int sb_nvml_clocks(const char *pci_bus_id, int *sm_mhz, int *mem_mhz, char *why, size_t n)
{
    *sm_mhz = *mem_mhz = 0;
    pthread_once(&loaded, load);
    if (nvml.why[0]) {
        snprintf(why, n, "%s", nvml.why);
        return -1;
    }
    sb_nvmlDevice_t dev;
    unsigned sm = 0, mem = 0;
    int r = nvml.by_bus(pci_bus_id, &dev);
    if (r == 0 && (r = nvml.clock(dev, SB_NVML_CLOCK_SM, &sm)) == 0)
        r = nvml.clock(dev, SB_NVML_CLOCK_MEM, &mem);
    if (r != 0) {
        snprintf(why, n, "NVML, device %s: %s", pci_bus_id, nvml.error ? nvml.error(r) : "failed");
        return -1;
    }
    *sm_mhz = (int)sm;
    *mem_mhz = (int)mem;
    return 0;
}
