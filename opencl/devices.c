/* The OpenCL backend's devices: describing them, choosing the one asked
 * for, opening and closing it (its context and queue), and its clocks
 * through NVML on NVIDIA's platform. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "nvml_clocks.h"
#include "text.h"

/* cl_nv_device_attribute_query, not in every header set. */
#define SB_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define SB_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define SB_CL_DEVICE_WARP_SIZE_NV 0x4003
#define SB_CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define SB_CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#define SB_CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
/* cl_khr_device_uuid and cl_khr_pci_bus_info, likewise. */
#define SB_CL_DEVICE_UUID_KHR 0x106A
#define SB_CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
typedef struct sb_cl_pci_bus_info {
    cl_uint domain, bus, device, function;
} sb_cl_pci_bus_info;

/* The sizes and counts every platform answers; the API has no bus width
 * or memory clock, which stay 0. */
static void describe_numbers(cl_device_id d, sb_device_info *info)
{
    cl_device_type type = 0;
    cl_uint u = 0;
    cl_ulong ul = 0;
    size_t sz = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS)
        info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL) == CL_SUCCESS)
        info->compute_units = (int)u;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL) == CL_SUCCESS)
        info->clock_mhz = (int)u;
    if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->global_mem_bytes = ul;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->max_alloc_bytes = ul;
    /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is whatever cache the platform
       names: a CPU's own cache on PoCL, and on NVIDIA not the L2 but a far
       smaller one.  It is reported under OpenCL's name for it. */
    if (clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->l2_bytes = ul;
    snprintf(info->cache_name, sizeof info->cache_name, "global memory cache");
    if (clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL) == CL_SUCCESS)
        info->local_mem_bytes = ul;
    if (clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof sz, &sz, NULL) == CL_SUCCESS)
        info->max_group_size = (int)sz;
}

/* What cl_nv_device_attribute_query adds on NVIDIA's platform: the compute
 * capability (in place of the OpenCL C version) and the warp size.  Other
 * platforms refuse the queries and leave both as they were. */
static void describe_nvidia(cl_device_id d, sb_device_info *info)
{
    cl_uint major = 0, minor = 0, warp = 0;
    if (clGetDeviceInfo(d, SB_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(d, SB_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) ==
            CL_SUCCESS) {
        snprintf(info->arch, sizeof info->arch, "sm_%u%u", major, minor);
    }
    if (clGetDeviceInfo(d, SB_CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL) == CL_SUCCESS)
        info->warp_size = (int)warp;
}

/* Whether the device's extension string names ext, as a whole word. */
static int has_extension(cl_device_id d, const char *ext)
{
    size_t size = 0, len = strlen(ext);
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return 0;
    char *all = malloc(size + 1);
    int found = 0;
    if (all && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, size, all, NULL) == CL_SUCCESS) {
        all[size] = '\0';
        for (const char *p = all; !found && (p = strstr(p, ext)); p += len)
            found = (p == all || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
    }
    free(all);
    return found;
}

/* Which physical device d is, where the platform says: its PCI address
 * (cl_khr_pci_bus_info, else NVIDIA's attribute query, whose slot number
 * holds the device number above the function's three bits) and its UUID
 * (cl_khr_device_uuid); "" where it does not. */
static void describe_identity(cl_device_id d, sb_device_info *info)
{
    sb_cl_pci_bus_info pci;
    cl_uint bus = 0, slot = 0, domain = 0;
    if (has_extension(d, "cl_khr_pci_bus_info") &&
        clGetDeviceInfo(d, SB_CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL) == CL_SUCCESS)
        snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", pci.domain,
                 pci.bus, pci.device, pci.function);
    else if (has_extension(d, "cl_nv_device_attribute_query") &&
             clGetDeviceInfo(d, SB_CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) ==
                 CL_SUCCESS &&
             clGetDeviceInfo(d, SB_CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) ==
                 CL_SUCCESS) {
        if (clGetDeviceInfo(d, SB_CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) !=
            CL_SUCCESS)
            domain = 0; /* older drivers: the first domain, where every GPU then was */
        snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.%x", domain, bus,
                 slot >> 3, slot & 7);
    }
    unsigned char uuid[16] = {0};
    if (has_extension(d, "cl_khr_device_uuid") &&
        clGetDeviceInfo(d, SB_CL_DEVICE_UUID_KHR, sizeof uuid, uuid, NULL) == CL_SUCCESS)
        sb_uuid_text(uuid, info->uuid, sizeof info->uuid);
}

/* Everything the platform says about one device. */
static void describe(cl_platform_id p, cl_device_id d, int pi, int di, sb_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->platform_index = pi;
    info->device_index = di;
    info_string(p, NULL, CL_PLATFORM_NAME, info->platform, sizeof info->platform);
    info_string(p, d, CL_DEVICE_NAME, info->name, sizeof info->name);
    info_string(p, d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    info_string(p, d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    info_string(p, d, CL_DEVICE_VERSION, info->api_version, sizeof info->api_version);
    info_string(p, d, CL_DEVICE_OPENCL_C_VERSION, info->arch, sizeof info->arch);
    describe_numbers(d, info);
    describe_nvidia(d, info);
    describe_identity(d, info);
}

int ocl_enumerate(sb_device_info *out, int max)
{
    cl_platform_id p[MAX_PLATFORMS];
    cl_device_id d[MAX_DEVICES];
    cl_uint np = 0;
    if (get_platforms(p, &np))
        return -1;
    int count = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = get_devices(p[i], d);
        for (cl_uint j = 0; j < nd && count < max; j++)
            describe(p[i], d[j], (int)i, (int)j, &out[count++]);
    }
    return count;
}

static int is_gpu(cl_device_id d)
{
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    return (type & CL_DEVICE_TYPE_GPU) != 0;
}

/* Device index of the named platform, else of the first platform with a
 * GPU that has that index, else of the first that has it: the platform
 * the default and --device all take, so that --device N and --device
 * auto on a GPU machine with PoCL at platform 0 reach the GPUs. */
static int choose_index(const sb_device_request *req, const cl_platform_id *p, cl_uint np,
                        int *pi, cl_platform_id *pp, cl_device_id *dp)
{
    cl_device_id d[MAX_DEVICES];
    int found = -1;
    for (int pass = 0; pass < 2 && found < 0; pass++)
        for (cl_uint i = 0; i < np && found < 0; i++) {
            if (req->platform >= 0 && (int)i != req->platform)
                continue;
            cl_uint nd = get_devices(p[i], d), any_gpu = 0;
            for (cl_uint j = 0; j < nd; j++)
                any_gpu |= (cl_uint)is_gpu(d[j]);
            if (req->platform >= 0 && req->device >= (int)nd)
                return set_error("OpenCL platform %u has no device %d (it has %u; see --list)", i,
                                 req->device, nd);
            if (req->device < (int)nd && (pass == 1 || any_gpu || req->platform >= 0)) {
                found = (int)i;
                *dp = d[req->device];
            }
        }
    if (found < 0)
        return set_error("no OpenCL platform has a device %d (see --list)", req->device);
    *pi = found;
    *pp = p[found];
    return 0;
}

/* With no platform named, take the first GPU of any platform (PoCL is often
 * platform 0 beside NVIDIA's), else the first device of any platform. */
static int choose(const sb_device_request *req, int *pi, int *di, cl_platform_id *pp,
                  cl_device_id *dp)
{
    cl_platform_id p[MAX_PLATFORMS];
    cl_device_id d[MAX_DEVICES];
    cl_uint np = 0;
    if (get_platforms(p, &np))
        return -1;
    if (req->platform >= (int)np)
        return set_error("OpenCL platform %d does not exist (there are %u; see --list)",
                         req->platform, np);
    if (req->device >= 0) {
        *di = req->device;
        return choose_index(req, p, np, pi, pp, dp);
    }
    int first_p = -1, first_d = -1;
    for (cl_uint i = 0; i < np; i++) {
        if (req->platform >= 0 && (int)i != req->platform)
            continue;
        cl_uint nd = get_devices(p[i], d);
        for (cl_uint j = 0; j < nd; j++) {
            if (is_gpu(d[j])) {
                *pi = (int)i;
                *di = (int)j;
                *pp = p[i];
                *dp = d[j];
                return 0;
            }
            if (first_p < 0) {
                first_p = (int)i;
                first_d = (int)j;
            }
        }
    }
    if (first_p < 0)
        return set_error("no OpenCL device found");
    get_devices(p[first_p], d);
    *pi = first_p;
    *di = first_d;
    *pp = p[first_p];
    *dp = d[first_d];
    return 0;
}

int ocl_open(const sb_device_request *req, sb_device **out, sb_device_info *info)
{
    int pi, di;
    cl_platform_id p;
    cl_device_id d;
    if (choose(req, &pi, &di, &p, &d))
        return -1;
    sb_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return set_error("out of memory");
    dev->platform = p;
    dev->id = d;
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
    dev->context = clCreateContext(props, 1, &d, NULL, NULL, &e);
    if (!dev->context) {
        free(dev);
        return cl_fail("clCreateContext", e);
    }
    dev->queue = clCreateCommandQueue(dev->context, d, CL_QUEUE_PROFILING_ENABLE, &e);
    if (!dev->queue) {
        clReleaseContext(dev->context);
        free(dev);
        return cl_fail("clCreateCommandQueue", e);
    }
    describe(p, d, pi, di, info);
    dev->nvidia = strstr(info->platform, "NVIDIA") || strstr(info->vendor, "NVIDIA");
    *out = dev;
    return 0;
}

void ocl_close(sb_device *dev)
{
    if (!dev)
        return;
    if (dev->batch.open)
        ocl_batch_end(dev); /* releases the batch's events */
    free(dev->ops);
    /* CLBlast caches its compiled programs process-wide and each keeps
       this context alive; clearing frees them (a device still open only
       recompiles on its next call). */
    if (dev->used_clblast) {
        clFinish(dev->queue);
        clblast.CLBlastClearCache();
    }
    if (dev->untimed)
        clReleaseCommandQueue(dev->untimed);
    if (dev->stamp)
        clReleaseMemObject(dev->stamp);
    clReleaseCommandQueue(dev->queue);
    clReleaseContext(dev->context);
    free(dev);
}

/* On NVIDIA's platform, NVML through the device's PCI address
 * (cl_nv_device_attribute_query); elsewhere OpenCL has no such query. */
int ocl_clocks(sb_device *dev, int *sm_mhz, int *mem_mhz)
{
    *sm_mhz = *mem_mhz = 0;
    if (!dev->nvidia)
        return set_error("this OpenCL platform reports no current clocks");
    cl_uint bus = 0, slot = 0, domain = 0;
    cl_int e = clGetDeviceInfo(dev->id, SB_CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL);
    if (e == CL_SUCCESS)
        e = clGetDeviceInfo(dev->id, SB_CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetDeviceInfo(CL_DEVICE_PCI_BUS_ID_NV)", e);
    if (clGetDeviceInfo(dev->id, SB_CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) !=
        CL_SUCCESS)
        domain = 0; /* drivers before the domain query: domain 0 */
    /* The slot query gives the PCI device number; a GPU is function 0. */
    char address[32], why[300];
    snprintf(address, sizeof address, "%04x:%02x:%02x.0", domain, bus, slot);
    if (sb_nvml_clocks(address, sm_mhz, mem_mhz, why, sizeof why))
        return set_error("%s", why);
    return 0;
}
