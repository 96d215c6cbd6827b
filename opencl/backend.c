/* The OpenCL backend: any platform (NVIDIA's, PoCL on a CPU, others),
 * OpenCL 1.2 host API, kernels built at run time with the same -D
 * definitions the CUDA backend passes to NVRTC.  CLBlast gives the vendor
 * reference rows (CLBlastSomatcopy, CLBlastSgemm) wherever it is
 * installed: it is opened at run time, on the first vendor call, never
 * linked, and checked (lib_search.h) before dlopen maps it. */
#define CL_TARGET_OPENCL_VERSION 120
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <CL/cl.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "batch_rules.h"
#include "clblast_api.h"
#include "lib_search.h"
#include "nvml_clocks.h"
#include "ptxas_log.h"
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

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Where the ICD loader looks for .icd files unless OCL_ICD_VENDORS says. */
#define ICD_VENDOR_DIR "/etc/OpenCL/vendors"
#define POCL_PLATFORM_NAME "Portable Computing Language"

/* One operation of an open batch: its profiling event, where its time
 * goes, and what it was, for a failure found only when it ran. */
struct batch_op {
    cl_event begin; /* where its time starts (see timed_span), or NULL */
    cl_event ev;
    double *ms;
    char what[96];
};

struct sb_device {
    cl_platform_id platform;
    cl_device_id id;
    cl_context context;
    cl_command_queue queue;
    cl_command_queue untimed; /* without profiling, for launch_queued; made on first use */
    cl_mem stamp;             /* 4 bytes a fill marks the start of a library call in */
    int used_clblast; /* CLBlast's program cache holds programs of this context */
    int nvidia;       /* NVIDIA's platform: builds with -cl-nv-verbose for ptxas's log */
    /* Batched timing (batch_begin): the shared admission rules, and ops,
       grown to the largest max asked for. */
    sb_batch_rules batch;
    struct batch_op *ops;
    int ops_have;
};

struct sb_program {
    sb_device *dev;
    cl_program program;
    char *log; /* the build log of a successful build; NULL when empty */
};

struct sb_kernel {
    sb_device *dev;
    cl_kernel kernel;
    char name[64];
    int regs;        /* from ptxas's lines in the build log; -1 unknown */
    long smem_bytes; /* likewise */
};

struct sb_buffer {
    sb_device *dev;
    cl_mem mem;
    size_t bytes;
};

/* Per thread: builds run on several threads at once (concurrent_build). */
static _Thread_local char last_error_text[2048];

/* CLBlast's entry points, filled by load_clblast. */
#define DECLARE(f) sb_##f##_fn f;
static struct {
    SB_CLBLAST_CALLS(DECLARE)
} clblast;
#undef DECLARE

static const char *cl_error_name(cl_int e)
{
    switch (e) {
#define CASE(x) case x: return #x
        CASE(CL_SUCCESS);
        CASE(CL_DEVICE_NOT_FOUND);
        CASE(CL_DEVICE_NOT_AVAILABLE);
        CASE(CL_COMPILER_NOT_AVAILABLE);
        CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        CASE(CL_OUT_OF_RESOURCES);
        CASE(CL_OUT_OF_HOST_MEMORY);
        CASE(CL_PROFILING_INFO_NOT_AVAILABLE);
        CASE(CL_BUILD_PROGRAM_FAILURE);
        CASE(CL_INVALID_VALUE);
        CASE(CL_INVALID_PLATFORM);
        CASE(CL_INVALID_DEVICE);
        CASE(CL_INVALID_CONTEXT);
        CASE(CL_INVALID_COMMAND_QUEUE);
        CASE(CL_INVALID_MEM_OBJECT);
        CASE(CL_INVALID_BUILD_OPTIONS);
        CASE(CL_INVALID_PROGRAM);
        CASE(CL_INVALID_PROGRAM_EXECUTABLE);
        CASE(CL_INVALID_KERNEL_NAME);
        CASE(CL_INVALID_KERNEL);
        CASE(CL_INVALID_ARG_INDEX);
        CASE(CL_INVALID_ARG_VALUE);
        CASE(CL_INVALID_ARG_SIZE);
        CASE(CL_INVALID_KERNEL_ARGS);
        CASE(CL_INVALID_WORK_DIMENSION);
        CASE(CL_INVALID_WORK_GROUP_SIZE);
        CASE(CL_INVALID_WORK_ITEM_SIZE);
        CASE(CL_INVALID_GLOBAL_WORK_SIZE);
        CASE(CL_INVALID_EVENT);
        CASE(CL_INVALID_BUFFER_SIZE);
        CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
#undef CASE
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL error";
    }
}

static int set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error_text, sizeof last_error_text, fmt, ap);
    va_end(ap);
    return -1;
}

static int cl_fail(const char *call, cl_int e)
{
    return set_error("%s failed: %s (%d)", call, cl_error_name(e), (int)e);
}

static const char *ocl_last_error(void)
{
    return last_error_text;
}

/* How many .icd files dir holds, the files the ICD loader reads. */
static int count_icds(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += len > 4 && strcmp(e->d_name + len - 4, ".icd") == 0;
    }
    closedir(d);
    return n;
}

/* Why the ICD loader gave no platform, naming where it looked: the
 * OCL_ICD_VENDORS the user set, else the system's vendor folder. */
static int no_platform(void)
{
    const char *vendors = getenv("OCL_ICD_VENDORS");
    if (vendors && *vendors)
        return set_error("no OpenCL platform: no ICD loaded from OCL_ICD_VENDORS=%s (a folder of "
                         ".icd files or one .icd file; unset it to use " ICD_VENDOR_DIR ")",
                         vendors);
    int icds = count_icds(ICD_VENDOR_DIR);
    if (icds == 0)
        return set_error("no OpenCL platform: no ICD is registered in " ICD_VENDOR_DIR
                         " (install pocl-opencl-icd, or NVIDIA's driver)");
    return set_error("no OpenCL platform: the %d ICD%s registered in " ICD_VENDOR_DIR
                     " gave none (its library did not load; OCL_ICD_DEBUG=15 says why)",
                     icds, icds == 1 ? "" : "s");
}

static int get_platforms(cl_platform_id *ids, cl_uint *count)
{
    cl_int e = clGetPlatformIDs(MAX_PLATFORMS, ids, count);
    if (e == -1001 || (e == CL_SUCCESS && *count == 0))
        return no_platform();
    if (e != CL_SUCCESS)
        return cl_fail("clGetPlatformIDs", e);
    return 0;
}

/* A string the platform (d NULL) or device answers, read at the length
 * the API says it has and cut to the field's n bytes (text.h); empty
 * when the query fails. */
static void info_string(cl_platform_id p, cl_device_id d, cl_uint what, char *out, size_t n)
{
    size_t size = 0;
    out[0] = '\0';
    cl_int e = d ? clGetDeviceInfo(d, what, 0, NULL, &size)
                 : clGetPlatformInfo(p, what, 0, NULL, &size);
    char *text = e == CL_SUCCESS && size > 0 ? malloc(size + 1) : NULL;
    if (!text)
        return;
    e = d ? clGetDeviceInfo(d, what, size, text, NULL) : clGetPlatformInfo(p, what, size, text, NULL);
    text[e == CL_SUCCESS ? size : 0] = '\0';
    sb_utf8_copy(out, n, text);
    free(text);
}

static int is_pocl(cl_platform_id p)
{
    char name[SB_DEVICE_STRING];
    info_string(p, NULL, CL_PLATFORM_NAME, name, sizeof name);
    return strcmp(name, POCL_PLATFORM_NAME) == 0;
}

/* The folder PoCL keeps its kernel cache in, as PoCL chooses it
 * (pocl_cache_init_topdir): "" for a POCL_CACHE_DIR set but empty. */
static void pocl_cache_dir(char *dir, size_t n)
{
    const char *env = getenv("POCL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME"), *cached = getenv("POCL_KERNEL_CACHE");
    /* POCL_KERNEL_CACHE=0 keeps PoCL's builds in a folder beside the cache. */
    const char *leaf = !cached || strncmp(cached, "1", 1) == 0 ? "pocl/kcache" : "pocl/uncached";
    if (env)
        snprintf(dir, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(dir, n, "%s/%s", xdg, leaf);
    else if (home)
        snprintf(dir, n, "%s/.cache/%s", home, leaf);
    else
        snprintf(dir, n, "/tmp/%s", leaf);
}

/* A platform's devices.  PoCL is not asked when POCL_CACHE_DIR is set but
 * empty: it stops the process (an assertion in its cache setup) instead
 * of answering; no_device says why there is none. */
static cl_uint get_devices(cl_platform_id p, cl_device_id *ids)
{
    const char *cache = getenv("POCL_CACHE_DIR");
    cl_uint n = 0;
    if (cache && !*cache && is_pocl(p))
        return 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &n) != CL_SUCCESS)
        return 0;
    return n;
}

/* Why dir is not a writable folder that exists or could be made, as an
 * errno, or 0: a folder made and removed at once in it, or in the nearest
 * folder above it that exists, says so where permissions alone do not
 * (root, /proc, a read-only mount). */
static int cache_error(const char *dir)
{
    char at[1024], probe[1100];
    struct stat st;
    if (!*dir)
        return ENOENT;
    snprintf(at, sizeof at, "%s", dir);
    while (stat(at, &st) != 0) {
        char *slash = strrchr(at, '/');
        if (!slash)
            return ENOENT;
        if (slash == at)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    snprintf(probe, sizeof probe, "%s/.simtbench-XXXXXX", strcmp(at, "/") ? at : "");
    if (!mkdtemp(probe))
        return errno;
    rmdir(probe);
    return 0;
}

static int could_write(const char *dir)
{
    return cache_error(dir) == 0;
}

/* No platform has a device.  PoCL shows none when it cannot make its
 * kernel cache: the hint when one of the platforms is PoCL and the folder
 * it would use cannot be written; else the platforms, named. */
static int no_device(const cl_platform_id *p, cl_uint np)
{
    char names[4 * SB_DEVICE_STRING] = "";
    for (cl_uint i = 0; i < np; i++) {
        char name[SB_DEVICE_STRING], cache[1024];
        info_string(p[i], NULL, CL_PLATFORM_NAME, name, sizeof name);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                 name[0] ? name : "unnamed");
        if (strcmp(name, POCL_PLATFORM_NAME) != 0)
            continue;
        pocl_cache_dir(cache, sizeof cache);
        if (!could_write(cache))
            return set_error("OpenCL platforms found, but none has a device: PoCL needs a "
                             "writable kernel cache: set POCL_CACHE_DIR or XDG_CACHE_HOME to a "
                             "writable directory (now: %s)",
                             cache[0] ? cache : "POCL_CACHE_DIR is set but empty");
    }
    return set_error("OpenCL platforms found (%s), but none has a device", names);
}

static int ocl_probe(void)
{
    cl_platform_id p[MAX_PLATFORMS];
    cl_device_id d[MAX_DEVICES];
    cl_uint np = 0;
    if (get_platforms(p, &np))
        return -1;
    for (cl_uint i = 0; i < np; i++)
        if (get_devices(p[i], d) > 0)
            return 0;
    return no_device(p, np);
}

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

static int ocl_enumerate(sb_device_info *out, int max)
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

static int ocl_open(const sb_device_request *req, sb_device **out, sb_device_info *info)
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

static int ocl_batch_end(sb_device *dev);

static void ocl_close(sb_device *dev)
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

/* The build options, malloc'd ("-DTILE=32 -DPAD=1"), NULL when out of
 * memory.  On NVIDIA -cl-nv-verbose asks for ptxas's register and
 * shared-memory lines in the build log, for kernel_resources. */
static char *build_options(const char *const *defines, int n, int nvidia)
{
    static const char verbose[] = "-cl-nv-verbose";
    size_t len = sizeof verbose + 1;
    for (int i = 0; i < n; i++)
        len += strlen(defines[i]) + 4;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < n; i++) {
        strcat(s, i ? " -D" : "-D");
        strcat(s, defines[i]);
    }
    if (nvidia) {
        strcat(s, *s ? " " : "");
        strcat(s, verbose);
    }
    return s;
}

/* Says why clBuildProgram failed, with the start of the build log on one
 * line. */
static int build_failure(cl_program prog, cl_platform_id platform, cl_device_id dev, cl_int e,
                         const char *options)
{
    char log[1536] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    log[sizeof log - 1] = '\0';
    for (char *c = log; *c; c++)
        if (*c == '\n')
            *c = ' ';
    /* PoCL writes every build into its kernel cache, and says only that
       the build failed when it cannot: the folder and the reason. */
    char cache[1024];
    int why = 0;
    if (is_pocl(platform)) {
        pocl_cache_dir(cache, sizeof cache);
        why = cache_error(cache);
    }
    if (why)
        return set_error("clBuildProgram failed: %s (options '%s'): cannot write PoCL's kernel "
                         "cache %s: %s (set POCL_CACHE_DIR to a writable directory): %.900s",
                         cl_error_name(e), options, cache, strerror(why), log);
    return set_error("clBuildProgram failed: %s (options '%s'): %.1200s", cl_error_name(e),
                     options, log);
}

/* The whole build log, malloc'd, or NULL when it is empty or unreadable. */
static char *build_log(cl_program prog, cl_device_id dev)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
        size <= 1)
        return NULL;
    char *log = malloc(size + 1);
    if (!log)
        return NULL;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS) {
        free(log);
        return NULL;
    }
    log[size] = '\0';
    return log;
}

static int ocl_build(sb_device *dev, const char *source, const char *const *defines, int ndefines,
                     sb_program **out)
{
    cl_int e;
    char *options = build_options(defines, ndefines, dev->nvidia);
    if (!options)
        return set_error("out of memory");
    cl_program prog = clCreateProgramWithSource(dev->context, 1, &source, NULL, &e);
    if (!prog) {
        free(options);
        return cl_fail("clCreateProgramWithSource", e);
    }
    e = clBuildProgram(prog, 1, &dev->id, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        build_failure(prog, dev->platform, dev->id, e, options);
        free(options);
        clReleaseProgram(prog);
        return -1;
    }
    free(options);
    sb_program *p = calloc(1, sizeof *p);
    if (!p) {
        clReleaseProgram(prog);
        return set_error("out of memory");
    }
    p->dev = dev;
    p->program = prog;
    p->log = build_log(prog, dev->id);
    *out = p;
    return 0;
}

/* On NVIDIA the program binary is PTX text; elsewhere it is something else
 * and is not passed off as PTX.  Elsewhere it is not even asked for: PoCL
 * makes its binary by compiling every kernel of the program again for any
 * group size, which would double the cost of each build. */
static int ocl_program_ptx(sb_program *p, char **ptx)
{
    if (!p->dev->nvidia)
        return set_error("this OpenCL platform's program binary is not PTX "
                         "(the platform is not NVIDIA's)");
    size_t size = 0;
    cl_int e = clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", e);
    if (size == 0)
        return set_error("the OpenCL platform returned an empty program binary");
    unsigned char *bin = malloc(size + 1);
    if (!bin)
        return set_error("out of memory");
    e = clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    if (e != CL_SUCCESS) {
        free(bin);
        return cl_fail("clGetProgramInfo(CL_PROGRAM_BINARIES)", e);
    }
    bin[size] = '\0';
    /* NVIDIA's binary is PTX text, and the size it reports counts the
       terminating NUL: only a NUL before the end means binary data. */
    size_t len = size;
    while (len > 0 && bin[len - 1] == '\0')
        len--;
    if (len == 0 || memchr(bin, '\0', len) || !strstr((char *)bin, ".target")) {
        unsigned char head[4] = {0};
        memcpy(head, bin, size < 4 ? size : 4);
        free(bin);
        return set_error("this OpenCL platform's program binary is not PTX (%zu bytes, "
                         "starting %02x %02x %02x %02x)",
                         size, head[0], head[1], head[2], head[3]);
    }
    *ptx = (char *)bin;
    return 0;
}

static void ocl_release_program(sb_program *p)
{
    if (!p)
        return;
    clReleaseProgram(p->program);
    free(p->log);
    free(p);
}

static int ocl_kernel(sb_program *p, const char *name, sb_kernel **out)
{
    cl_int e;
    cl_kernel k = clCreateKernel(p->program, name, &e);
    if (!k)
        return set_error("clCreateKernel(%s) failed: %s", name, cl_error_name(e));
    sb_kernel *sk = calloc(1, sizeof *sk);
    if (!sk) {
        clReleaseKernel(k);
        return set_error("out of memory");
    }
    sk->dev = p->dev;
    sk->kernel = k;
    snprintf(sk->name, sizeof sk->name, "%s", name);
    /* Read now: the program (and its log) may be released before the kernel. */
    sb_ptxas_log_resources(p->log, name, &sk->regs, &sk->smem_bytes);
    *out = sk;
    return 0;
}

/* The API gives shared (local) and private bytes on every platform;
 * registers only NVIDIA's ptxas says, in the verbose build log.  Where the
 * log has the entry's smem, that is what ptxas really allocated (NVIDIA's
 * OpenCL adds bytes of its own to what the kernel declares). */
static int ocl_kernel_resources(sb_kernel *k, sb_kernel_resources *out)
{
    out->regs = k->regs;
    out->shared_bytes = -1;
    out->private_bytes = -1;
    cl_ulong local = 0, priv = 0;
    cl_int e = clGetKernelWorkGroupInfo(k->kernel, k->dev->id, CL_KERNEL_LOCAL_MEM_SIZE,
                                        sizeof local, &local, NULL);
    if (e != CL_SUCCESS)
        return set_error("clGetKernelWorkGroupInfo(%s, CL_KERNEL_LOCAL_MEM_SIZE) failed: %s",
                         k->name, cl_error_name(e));
    out->shared_bytes = k->smem_bytes >= 0 ? k->smem_bytes : (long)local;
    e = clGetKernelWorkGroupInfo(k->kernel, k->dev->id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv,
                                 &priv, NULL);
    if (e != CL_SUCCESS)
        return set_error("clGetKernelWorkGroupInfo(%s, CL_KERNEL_PRIVATE_MEM_SIZE) failed: %s",
                         k->name, cl_error_name(e));
    out->private_bytes = (long)priv;
    return 0;
}

static void ocl_release_kernel(sb_kernel *k)
{
    if (!k)
        return;
    clReleaseKernel(k->kernel);
    free(k);
}

static int ocl_alloc(sb_device *dev, size_t bytes, sb_buffer **out)
{
    cl_int e;
    cl_mem m = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &e);
    if (!m)
        return set_error("clCreateBuffer of %.1f MiB failed: %s", bytes / 1048576.0,
                         cl_error_name(e));
    sb_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        clReleaseMemObject(m);
        return set_error("out of memory");
    }
    b->dev = dev;
    b->mem = m;
    b->bytes = bytes;
    *out = b;
    return 0;
}

/* OpenCL 1.2 has no query for free memory (only vendor extensions do):
 * free is 0, "unknown", and the total is what the device reports. */
static int ocl_memory(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes)
{
    cl_ulong total = 0;
    *free_bytes = 0;
    *total_bytes = 0;
    cl_int e = clGetDeviceInfo(dev->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof total, &total, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)", e);
    *total_bytes = total;
    return 0;
}

/* On NVIDIA's platform, NVML through the device's PCI address
 * (cl_nv_device_attribute_query); elsewhere OpenCL has no such query. */
static int ocl_clocks(sb_device *dev, int *sm_mhz, int *mem_mhz)
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

static void ocl_free(sb_buffer *b)
{
    if (!b)
        return;
    clReleaseMemObject(b->mem);
    free(b);
}

static int ocl_upload(sb_buffer *dst, const void *src, size_t bytes)
{
    cl_int e = clEnqueueWriteBuffer(dst->dev->queue, dst->mem, CL_TRUE, 0, bytes, src, 0, NULL,
                                    NULL);
    return e == CL_SUCCESS ? 0 : cl_fail("clEnqueueWriteBuffer", e);
}

static int ocl_download(void *dst, sb_buffer *src, size_t bytes)
{
    cl_int e = clEnqueueReadBuffer(src->dev->queue, src->mem, CL_TRUE, 0, bytes, dst, 0, NULL,
                                   NULL);
    return e == CL_SUCCESS ? 0 : cl_fail("clEnqueueReadBuffer", e);
}

static int ocl_fill(sb_buffer *dst, uint32_t word, size_t bytes)
{
    cl_int e = clEnqueueFillBuffer(dst->dev->queue, dst->mem, &word, sizeof word, 0, bytes, 0,
                                   NULL, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clEnqueueFillBuffer", e);
    e = clFinish(dst->dev->queue);
    return e == CL_SUCCESS ? 0 : cl_fail("clFinish after clEnqueueFillBuffer", e);
}

/* An ended command's profiled time in ms: from its own start, or, where
 * begin is given, from the end of begin, a command enqueued just before
 * it (a library's call may run several kernels and return the event of
 * the last; the in-order queue starts the first once begin has ended). */
static int profiled_ms(cl_event begin, cl_event ev, double *ms)
{
    cl_ulong start = 0, end = 0;
    cl_int e = begin ? clGetEventProfilingInfo(begin, CL_PROFILING_COMMAND_END, sizeof start,
                                               &start, NULL)
                     : clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                               &start, NULL);
    if (e == CL_SUCCESS)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetEventProfilingInfo", e);
    *ms = (double)(end - start) * 1e-6;
    return 0;
}

/* For an event whose command has ended: check that the command itself
 * succeeded, and read its profiled duration (profiled_ms) when ms is not
 * NULL.  The events are kept. */
static int event_result(cl_event begin, cl_event ev, const char *what, double *ms)
{
    cl_int status = CL_COMPLETE;
    cl_int e = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (e != CL_SUCCESS || status < 0)
        return set_error("%s failed on the device: %s", what,
                         cl_error_name(e != CL_SUCCESS ? e : status));
    return ms ? profiled_ms(begin, ev, ms) : 0;
}

/* Wait for the event, check that the command itself succeeded, and read
 * its profiled duration; both events are released. */
static int finish_event(cl_event begin, cl_event ev, const char *what, double *ms)
{
    cl_int e = clWaitForEvents(1, &ev);
    int r = e != CL_SUCCESS ? set_error("%s failed on the device: %s", what, cl_error_name(e))
                            : event_result(begin, ev, what, ms);
    clReleaseEvent(ev);
    if (begin)
        clReleaseEvent(begin);
    return r;
}

/* Whether an operation may be enqueued now (batch_rules.h's rules), with
 * the reason in last_error() when not. */
static int batch_admits(const sb_device *d, const double *ms, const char *what)
{
    return sb_batch_rules_admit(&d->batch, ms != NULL, what, last_error_text,
                                sizeof last_error_text);
}

/* The end of an enqueued operation, timed from begin (or NULL: its own
 * start): outside a batch wait for it; inside one, keep its events for
 * batch_end and send the work to the device. */
static int end_timed_op(sb_device *d, cl_event begin, cl_event ev, const char *what, double *ms)
{
    if (!d->batch.open)
        return finish_event(begin, ev, what, ms);
    struct batch_op *op = &d->ops[sb_batch_rules_add(&d->batch)];
    op->begin = begin;
    op->ev = ev;
    op->ms = ms;
    snprintf(op->what, sizeof op->what, "%s", what);
    cl_int e = clFlush(d->queue);
    if (e == CL_SUCCESS)
        return 0;
    op->ms = NULL; /* a failed operation gets no time; batch_end still releases the events */
    return cl_fail("clFlush", e);
}

static int end_op(sb_device *d, cl_event ev, const char *what, double *ms)
{
    return end_timed_op(d, NULL, ev, what, ms);
}

static int ocl_batch_begin(sb_device *d, int max)
{
    if (sb_batch_rules_begin(&d->batch, max, last_error_text, sizeof last_error_text))
        return -1;
    if (max > d->ops_have) {
        struct batch_op *ops = realloc(d->ops, sizeof *ops * (size_t)max);
        if (!ops) {
            sb_batch_rules_cancel(&d->batch);
            return set_error("batch_begin: out of host memory for %d operations", max);
        }
        d->ops = ops;
        d->ops_have = max;
    }
    return 0;
}

/* Waits for the whole queue, then reads and releases every event of the
 * batch; the first failure is the one reported. */
static int ocl_batch_end(sb_device *d)
{
    int n = sb_batch_rules_end(&d->batch, last_error_text, sizeof last_error_text), failed = 0;
    if (n < 0)
        return -1;
    cl_int e = clFinish(d->queue);
    if (e != CL_SUCCESS)
        failed = cl_fail("clFinish (end of a batch)", e);
    for (int i = 0; i < n; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s (operation %d of a batch of %d)", d->ops[i].what, i + 1,
                 n);
        if (!failed && event_result(d->ops[i].begin, d->ops[i].ev, what, d->ops[i].ms))
            failed = -1;
        clReleaseEvent(d->ops[i].ev);
        if (d->ops[i].begin)
            clReleaseEvent(d->ops[i].begin);
    }
    return failed ? -1 : 0;
}

static int ocl_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    sb_device *d = dst->dev;
    if (batch_admits(d, ms, "clEnqueueCopyBuffer"))
        return -1;
    cl_event ev;
    cl_int e = clEnqueueCopyBuffer(d->queue, src->mem, dst->mem, 0, 0, bytes, 0, NULL, &ev);
    if (e != CL_SUCCESS)
        return cl_fail("clEnqueueCopyBuffer", e);
    return end_op(d, ev, "clEnqueueCopyBuffer", ms);
}

/* The kernel's arguments set, in order; 0, or -1 with the reason set. */
static int set_args(const sb_kernel *k, const sb_arg *args, int nargs)
{
    for (int i = 0; i < nargs; i++) {
        cl_int e;
        switch (args[i].kind) {
        case SB_ARG_BUFFER:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_mem), &args[i].v.buf->mem);
            break;
        case SB_ARG_INT:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_int), &args[i].v.i);
            break;
        default:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_float), &args[i].v.f);
            break;
        }
        if (e != CL_SUCCESS)
            return set_error("clSetKernelArg(%s, %d) failed: %s", k->name, i, cl_error_name(e));
    }
    return 0;
}

/* One clEnqueueNDRangeKernel of k over the grid on queue; its event into
 * *ev unless ev is NULL. */
static int enqueue_kernel(const sb_kernel *k, cl_command_queue queue, const sb_launch *g,
                          cl_event *ev)
{
    size_t global[3], local[3];
    cl_uint dims = 1;
    for (int d = 0; d < 3; d++) {
        local[d] = g->block[d];
        global[d] = (size_t)g->grid[d] * g->block[d];
        if (d > 0 && (g->grid[d] > 1 || g->block[d] > 1))
            dims = (cl_uint)d + 1;
    }
    cl_int e = clEnqueueNDRangeKernel(queue, k->kernel, dims, NULL, global, local, 0, NULL, ev);
    if (e != CL_SUCCESS)
        return set_error("clEnqueueNDRangeKernel(%s) failed: %s", k->name, cl_error_name(e));
    return 0;
}

static int ocl_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs, double *ms)
{
    char what[96];
    snprintf(what, sizeof what, "kernel %s", k->name);
    cl_event ev;
    if (batch_admits(k->dev, ms, what) || set_args(k, args, nargs) ||
        enqueue_kernel(k, k->dev->queue, g, &ev))
        return -1;
    return end_op(k->dev, ev, what, ms);
}

/* The profiling queue's commands are timed whether asked or not, which a
 * benchmark timed on the host does not pay: these launches go on a queue
 * without profiling, after the profiling queue's work, with no event, and
 * one clFinish drains them. */
static int ocl_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                             int count)
{
    sb_device *d = k->dev;
    if (count < 1)
        return set_error("kernel %s: %d launches queued; at least one is", k->name, count);
    if (d->batch.open)
        return set_error("kernel %s: launches for the host's clock cannot join a batch",
                         k->name);
    cl_int e = clFinish(d->queue);
    if (e != CL_SUCCESS)
        return cl_fail("clFinish before queued launches", e);
    if (!d->untimed && !(d->untimed = clCreateCommandQueue(d->context, d->id, 0, &e)))
        return cl_fail("clCreateCommandQueue (without profiling)", e);
    if (set_args(k, args, nargs))
        return -1;
    for (int i = 0; i < count; i++)
        if (enqueue_kernel(k, d->untimed, g, NULL))
            return -1;
    e = clFinish(d->untimed);
    if (e != CL_SUCCESS)
        return set_error("kernel %s x %d failed on the device: %s", k->name, count,
                         cl_error_name(e));
    return 0;
}

/* ---- CLBlast, for the vendor reference rows ---- */

static int clblast_state; /* 0: not tried yet, 1: usable, -1: not usable */
static char clblast_why[sizeof last_error_text];

/* libclblast, opened, or NULL with the reason set. */
static void *open_clblast(void)
{
    char why[sizeof last_error_text - 128];
    if (sb_lib_check(SB_CLBLAST_SONAME, why, sizeof why)) {
        set_error("CLBlast %s is %s; reinstall CLBlast", SB_CLBLAST_SONAME, why);
        return NULL;
    }
    void *lib = dlopen(SB_CLBLAST_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *e = lib ? NULL : dlerror();
    if (!lib && (!e || strstr(e, "No such file")))
        set_error("CLBlast not found: looked for %s on the library path; install CLBlast "
                  "(Debian: libclblast1) for the vendor row", SB_CLBLAST_SONAME);
    else if (!lib)
        set_error("CLBlast %s could not be loaded: %s", SB_CLBLAST_SONAME, e);
    return lib;
}

/* Loads CLBlast once, on the first vendor call; a failure is remembered, since a second try would
 * fail the same way.  It stays loaded until exit. */
static int load_clblast_now(void)
{
    if (clblast_state) {
        if (clblast_state < 0)
            set_error("%s", clblast_why);
        return clblast_state > 0 ? 0 : -1;
    }
    clblast_state = -1;
    void *lib = open_clblast();
    const char *missing = NULL;
    if (lib) {
#define RESOLVE(f)                                                                       \
    if (!(clblast.f = (sb_##f##_fn)dlsym(lib, #f)) && !missing)                          \
        missing = #f;
        SB_CLBLAST_CALLS(RESOLVE)
#undef RESOLVE
        if (missing) {
            set_error("CLBlast %s lacks %s", SB_CLBLAST_SONAME, missing);
            memset(&clblast, 0, sizeof clblast);
            dlclose(lib);
        } else {
            clblast_state = 1;
        }
    }
    if (clblast_state < 0)
        snprintf(clblast_why, sizeof clblast_why, "%s", last_error_text);
    return clblast_state > 0 ? 0 : -1;
}

/* Devices measured at the same time may each reach their first vendor
 * transpose at once: one of them loads. */
static int load_clblast(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = load_clblast_now();
    pthread_mutex_unlock(&lock);
    return rc;
}

static const char *clblast_status_name(sb_CLBlastStatusCode s)
{
    switch (s) {
#define CASE(name, value) case SB_##name: return #name;
        SB_CLBLAST_STATUS_CODES(CASE)
#undef CASE
    default:
        return "unknown CLBlast status";
    }
}

/* Row-major throughout: src is rows x cols (ld cols), dst cols x rows (ld
 * rows).  CLBlast returns the event of its last kernel; omatcopy is one
 * kernel straight from src to dst, so the event times the whole copy. */
static int ocl_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms)
{
    if (rows <= 0 || cols <= 0)
        return set_error("CLBlastSomatcopy: a %d x %d matrix has no elements", rows, cols);
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    if (bytes > dst->bytes || bytes > src->bytes)
        return set_error("CLBlastSomatcopy: the transpose of %d x %d (%zu bytes) overruns a "
                         "buffer of %zu bytes", rows, cols, bytes,
                         bytes > dst->bytes ? dst->bytes : src->bytes);
    if (dst->dev != src->dev)
        return set_error("CLBlastSomatcopy: the two buffers belong to different devices");
    sb_device *d = dst->dev;
    char what[96];
    snprintf(what, sizeof what, "CLBlastSomatcopy (transpose of %d x %d)", rows, cols);
    if (batch_admits(d, ms, what) || load_clblast())
        return -1;
    cl_event ev = NULL;
    d->used_clblast = 1;
    sb_CLBlastStatusCode s = clblast.CLBlastSomatcopy(
        SB_CLBlastLayoutRowMajor, SB_CLBlastTransposeYes, (size_t)rows, (size_t)cols, 1.0f,
        src->mem, 0, (size_t)cols, dst->mem, 0, (size_t)rows, &d->queue, &ev);
    if (s != SB_CLBlastSuccess) {
        if (ev)
            clReleaseEvent(ev);
        return set_error("CLBlastSomatcopy (transpose of %d x %d) failed: %s (%d)", rows, cols,
                         clblast_status_name(s), (int)s);
    }
    if (!ev)
        return set_error("CLBlastSomatcopy (transpose of %d x %d) returned no event", rows,
                         cols);
    return end_op(d, ev, what, ms);
}

/* A command that ends where a library call's first kernel may start, for
 * timing the whole call (profiled_ms): a fill of the device's own 4-byte
 * stamp, which every platform profiles; 0, or -1 with the reason set. */
static int stamp(sb_device *d, cl_event *ev)
{
    cl_int e;
    const cl_uint zero = 0;
    if (!d->stamp && !(d->stamp = clCreateBuffer(d->context, CL_MEM_READ_WRITE, 4, NULL, &e)))
        return cl_fail("clCreateBuffer (a 4-byte stamp)", e);
    e = clEnqueueFillBuffer(d->queue, d->stamp, &zero, sizeof zero, 0, sizeof zero, 0, NULL, ev);
    return e == CL_SUCCESS ? 0 : cl_fail("clEnqueueFillBuffer (a 4-byte stamp)", e);
}

static int sgemm_checks(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                        const char *what)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return set_error("%s: a matrix has no elements", what);
    const struct {
        const sb_buffer *buf;
        size_t bytes;
    } need[] = {{a, (size_t)m * (size_t)k * sizeof(float)},
                {b, (size_t)k * (size_t)n * sizeof(float)},
                {c, (size_t)m * (size_t)n * sizeof(float)}};
    for (int i = 0; i < 3; i++)
        if (need[i].bytes > need[i].buf->bytes)
            return set_error("%s: %zu bytes overrun a buffer of %zu bytes", what, need[i].bytes,
                             need[i].buf->bytes);
    if (a->dev != c->dev || b->dev != c->dev)
        return set_error("%s: the buffers belong to different devices", what);
    return 0;
}

/* Row-major throughout, alpha 1, beta 0.  CLBlast may run several kernels
 * (pre-transposes, the multiply, a copy back) and returns the event of the
 * last, so a timed call is timed from a stamp enqueued before it. */
static int ocl_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                            double *ms)
{
    char what[96];
    snprintf(what, sizeof what, "CLBlastSgemm (%d x %d times %d x %d)", m, k, k, n);
    if (sgemm_checks(c, a, b, m, n, k, what))
        return -1;
    sb_device *d = c->dev;
    cl_event begin = NULL, ev = NULL;
    if (batch_admits(d, ms, what) || load_clblast() || (ms && stamp(d, &begin)))
        return -1;
    d->used_clblast = 1;
    sb_CLBlastStatusCode s = clblast.CLBlastSgemm(
        SB_CLBlastLayoutRowMajor, SB_CLBlastTransposeNo, SB_CLBlastTransposeNo, (size_t)m,
        (size_t)n, (size_t)k, 1.0f, a->mem, 0, (size_t)k, b->mem, 0, (size_t)n, 0.0f, c->mem, 0,
        (size_t)n, &d->queue, &ev);
    if (s != SB_CLBlastSuccess || !ev) {
        if (ev)
            clReleaseEvent(ev);
        if (begin)
            clReleaseEvent(begin);
        return s != SB_CLBlastSuccess ? set_error("%s failed: %s (%d)", what,
                                                  clblast_status_name(s), (int)s)
                                      : set_error("%s returned no event", what);
    }
    return end_timed_op(d, begin, ev, what, ms);
}

const sb_backend simtbench_backend = {
    .abi = SB_BACKEND_ABI,
    .name = "opencl",
    .prelude = "prelude_opencl.h",
    .probe = ocl_probe,
    .enumerate = ocl_enumerate,
    .open = ocl_open,
    .close = ocl_close,
    .build = ocl_build,
    .compile_offline = NULL,
    .program_ptx = ocl_program_ptx,
    .release_program = ocl_release_program,
    .kernel = ocl_kernel,
    .release_kernel = ocl_release_kernel,
    .occupancy = NULL,
    .kernel_resources = ocl_kernel_resources,
    .alloc = ocl_alloc,
    .free = ocl_free,
    .upload = ocl_upload,
    .download = ocl_download,
    .fill = ocl_fill,
    .copy = ocl_copy,
    .launch = ocl_launch,
    .last_error = ocl_last_error,
    .vendor_transpose = ocl_vendor_transpose,
    .vendor_transpose_name = "CLBlastSomatcopy",
    .batch_begin = ocl_batch_begin,
    .batch_end = ocl_batch_end,
    .memory = ocl_memory,
    .clocks = ocl_clocks,
    .launch_queued = ocl_launch_queued,
    .vendor_sgemm = ocl_vendor_sgemm,
    .vendor_sgemm_name = "CLBlastSgemm",
};
