/* The CUDA backend: the driver API for devices, memory and launches, NVRTC
 * for building kernels, cuBLAS for the vendor reference rows.
 *
 * The module links none of them and needs no CUDA toolkit to build:
 * cuda_api.h declares what it uses, and each library is dlopen'ed at run
 * time.  libcuda on first use, so that the module loads and NVRTC
 * (compile_offline) works on machines without an NVIDIA driver, such as
 * CI.  NVRTC, which every build needs, and cuBLAS, which only the vendor
 * rows need and whose absence leaves out only those rows, by their
 * versioned sonames, newest first (lib_spec).  Every library is checked
 * (lib_search.h) before dlopen maps it: a damaged file makes the backend
 * unavailable with a message, where dlopen would crash. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "batch_rules.h"
#include "counters.h"
#include "cuda_api.h"
#include "elf_check.h"
#include "lib_search.h"
#include "nvml_clocks.h"
#include "nvrtc_cache.h"
#include "text.h"

/* The entry points, each under the name its library exports. */
#define DECLARE(f) sb_##f##_fn f;
static struct {
    SB_CUDA_DRIVER_CALLS(DECLARE)
} cu;
static struct {
    SB_NVRTC_CALLS(DECLARE)
} nvrtc;
static struct {
    SB_CUBLAS_CALLS(DECLARE)
    SB_CUBLAS_OPTIONAL_CALLS(DECLARE) /* NULL where the library has none */
} blas;
#undef DECLARE

#define MAX_ARGS 32
#define MIB(bytes) ((double)(bytes) / (1024.0 * 1024.0))

struct sb_device {
    sb_CUdevice dev;
    sb_CUcontext ctx; /* the primary context, shared with other users of the device */
    sb_CUstream stream;
    sb_CUevent start, stop; /* around an operation timed on its own */
    int arch; /* compute capability as 10 * major + minor */
    /* Batched timing (batch_begin): the shared admission rules, and a pool
       of start/stop pairs, one pair and one time destination per operation,
       grown to the largest max asked for and destroyed at close. */
    sb_batch_rules batch;
    sb_CUevent *pool_start, *pool_stop;
    double **batch_ms;
    int pool_have;
    sb_cublasHandle_t blas; /* created on the first vendor call, bound to stream */
    int ordinal;            /* the device's index, for CUPTI */
    sb_cupti *cupti;        /* the profiler, made on the first profiled launch */
    char cupti_why[1024];   /* why there is none, once that failed */
};

struct sb_program {
    sb_device *dev;
    sb_CUmodule module;
    char *ptx;
    char *log; /* NVRTC's whole log: warnings of a successful build survive */
};

struct sb_kernel {
    sb_device *dev;
    sb_CUfunction fn;
    char name[128];
};

struct sb_buffer {
    sb_device *dev;
    sb_CUdeviceptr ptr;
    size_t bytes;
};

/* What NVRTC gives for one source, owned by the caller. */
struct nv_result {
    char *cubin, *ptx, *log;
    size_t cubin_size;
};

/* Per thread: builds run on several threads at once (concurrent_build). */
static _Thread_local char last[1024];

static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last, sizeof last, fmt, ap);
    va_end(ap);
}

/* Non-zero when r is an error, which it then describes as
 * "<what> failed: CUDA_ERROR_X (the driver's description)". */
static int cu_failed(sb_CUresult r, const char *fmt, ...)
{
    if (r == SB_CUDA_SUCCESS)
        return 0;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = NULL, *desc = NULL;
    if (cu.cuGetErrorName && cu.cuGetErrorName(r, &name) != SB_CUDA_SUCCESS)
        name = NULL;
    if (cu.cuGetErrorString && cu.cuGetErrorString(r, &desc) != SB_CUDA_SUCCESS)
        desc = NULL;
    if (name)
        set_error("%s failed: %s (%s)", what, name, desc ? desc : "no description");
    else
        set_error("%s failed: CUDA error %d", what, (int)r);
    return 1;
}

/* ---- loading libraries ---- */

/* dlopen of file (a soname or a path) once the file the loader would map
 * passed the ELF check; NULL with the reason in why, *damaged set when the
 * check refused it ("damaged: PATH (why)") and dlopen was never called. */
static void *open_library(const char *file, int *damaged, char *why, size_t n)
{
    *damaged = sb_lib_check(file, why, n) != 0;
    if (*damaged)
        return NULL;
    void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, n, "%s", e ? e : "No such file");
    }
    return lib;
}

/* A library that comes in one soname per major version. */
struct lib_spec {
    const char *what;         /* "NVRTC", for messages */
    const char *env;          /* variable naming the file to open instead of searching */
    const char *const *names; /* the sonames, newest first, NULL-terminated */
    const char *install;      /* what to do when none is found */
    const char *extra_dir;    /* a folder of its own looked in after the toolkit's, or NULL */
};

static const char *const nvrtc_names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                          NULL};
static const struct lib_spec nvrtc_spec = {"NVRTC", "SIMTBENCH_NVRTC", nvrtc_names,
                                           "install the CUDA toolkit's NVRTC", NULL};
static const char *const cublas_names[] = {"libcublas.so.13", "libcublas.so.12",
                                           "libcublas.so.11", NULL};
static const struct lib_spec cublas_spec = {"cuBLAS", "SIMTBENCH_CUBLAS", cublas_names,
                                            "install the CUDA toolkit's cuBLAS", NULL};
/* The range profiler the counters use came with CUPTI 12.6; an older
 * libcupti.so.12 is refused by its missing entry points. */
static const char *const cupti_names[] = {"libcupti.so.13", "libcupti.so.12", NULL};
static const struct lib_spec cupti_spec = {"CUPTI", "SIMTBENCH_CUPTI", cupti_names,
                                           "install the CUDA toolkit's CUPTI (12.6 or later)",
                                           "/usr/local/cuda/extras/CUPTI/lib64"};

/* Looked in after the loader's path, where a toolkit is installed but not
 * registered with the loader: the folder given to configure
 * (--with-cuda=DIR), then NVIDIA's installer's default. */
static const char *const toolkit_dirs[] = {
#ifdef SB_CUDA_LIBDIR
    SB_CUDA_LIBDIR,
#endif
    "/usr/local/cuda/lib64",
};
#define NTOOLKIT_DIRS (sizeof toolkit_dirs / sizeof *toolkit_dirs)

/* The first NTOOLKIT_DIRS entries that are not repeats of an earlier one. */
static int toolkit_dir_is_repeat(size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(toolkit_dirs[i], toolkit_dirs[j]) == 0)
            return 1;
    return 0;
}

/* One try of the search: the library, or NULL with the first failure
 * other than "not found" kept in interesting (n bytes). */
static void *try_open(const char *file, char *interesting, size_t n)
{
    char e[600];
    int damaged;
    void *lib = open_library(file, &damaged, e, sizeof e);
    if (!lib && !interesting[0] && (damaged || !strstr(e, "No such file")))
        snprintf(interesting, n, "%s%s%s", damaged ? file : "", damaged ? " is " : "", e);
    return lib;
}

/* "libnvrtc.so.13, libnvrtc.so.12 on the library path and in DIR" */
static void describe_search(const struct lib_spec *s, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; s->names[i] && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", i ? ", " : "", s->names[i]);
    if (len < n)
        len += (size_t)snprintf(out + len, n - len, " on the library path and in");
    for (size_t d = 0; d < NTOOLKIT_DIRS && len < n; d++)
        if (!toolkit_dir_is_repeat(d))
            len += (size_t)snprintf(out + len, n - len, "%s %s", d ? " and" : "", toolkit_dirs[d]);
    if (s->extra_dir && len < n)
        snprintf(out + len, n - len, " and %s", s->extra_dir);
}

/* The library s describes: the file $env names when it is set (and that
 * one only: a choice made explicitly is not replaced behind the user's
 * back), else the newest soname on the loader's path, else the newest in
 * a toolkit folder.  The file opened goes into file (n bytes); NULL with
 * the reason set naming everything tried. */
static void *open_versioned(const struct lib_spec *s, char *file, size_t n)
{
    char interesting[700] = "";
    const char *env = getenv(s->env);
    if (env && *env) {
        int damaged;
        void *lib = open_library(env, &damaged, interesting, sizeof interesting);
        if (!lib)
            set_error("%s from %s=%s could not be loaded: %s", s->what, s->env, env, interesting);
        snprintf(file, n, "%s", env);
        return lib;
    }
    for (int i = 0; s->names[i]; i++) {
        snprintf(file, n, "%s", s->names[i]);
        void *lib = try_open(file, interesting, sizeof interesting);
        if (lib)
            return lib;
    }
    for (size_t d = 0; d < NTOOLKIT_DIRS; d++)
        for (int i = 0; s->names[i] && !toolkit_dir_is_repeat(d); i++) {
            snprintf(file, n, "%s/%s", toolkit_dirs[d], s->names[i]);
            void *lib = try_open(file, interesting, sizeof interesting);
            if (lib)
                return lib;
        }
    for (int i = 0; s->extra_dir && s->names[i]; i++) {
        snprintf(file, n, "%s/%s", s->extra_dir, s->names[i]);
        void *lib = try_open(file, interesting, sizeof interesting);
        if (lib)
            return lib;
    }
    char looked[400];
    describe_search(s, looked, sizeof looked);
    if (interesting[0])
        set_error("%s could not be loaded: %s (looked for %s)", s->what, interesting, looked);
    else
        set_error("%s not found: looked for %s; %s, or set %s to its path", s->what, looked,
                  s->install, s->env);
    return NULL;
}

/* Whether a library was loaded: 0 not tried yet, 1 usable, -1 not, with
 * the reason kept, since a second try would fail the same way. */
struct lib_state {
    int state;
    char why[sizeof last];
};

/* 1 when the library is still to be tried; else 0 when it is usable, -1
 * with the remembered reason set when it is not. */
static int lib_tried(const struct lib_state *l)
{
    if (!l->state)
        return 1;
    if (l->state < 0)
        set_error("%s", l->why);
    return l->state > 0 ? 0 : -1;
}

/* Records the outcome of the first try, ok or the reason in last. */
static int lib_settle(struct lib_state *l, int ok)
{
    l->state = ok ? 1 : -1;
    if (!ok)
        snprintf(l->why, sizeof l->why, "%s", last);
    return ok ? 0 : -1;
}

/* ---- the driver ---- */

static struct lib_state driver;

/* libcuda, opened, or NULL with the reason set. */
static void *open_driver(void)
{
    char why[sizeof last - 128];
    int damaged;
    void *lib = open_library("libcuda.so.1", &damaged, why, sizeof why);
    if (lib)
        return lib;
    if (damaged)
        set_error("CUDA driver libcuda.so.1 is %s; reinstall the NVIDIA driver", why);
    else if (strstr(why, "No such file"))
        set_error("CUDA driver libcuda.so.1 not found: no NVIDIA driver is installed");
    else
        set_error("CUDA driver libcuda.so.1 could not be loaded: %s", why);
    return NULL;
}

/* dlsym of a driver entry point; drivers before CUDA 12.8 export
 * cuEventElapsedTime_v2's signature as cuEventElapsedTime, and those
 * before CUDA 11.4 cuDeviceGetUuid_v2's as cuDeviceGetUuid. */
static void *driver_symbol(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p && strcmp(name, "cuEventElapsedTime_v2") == 0)
        p = dlsym(lib, "cuEventElapsedTime");
    if (!p && strcmp(name, "cuDeviceGetUuid_v2") == 0)
        p = dlsym(lib, "cuDeviceGetUuid");
    return p;
}

/* Loads libcuda and runs cuInit once. */
static int load_driver(void)
{
    int tried = lib_tried(&driver);
    if (tried <= 0)
        return tried;
    void *lib = open_driver();
    const char *missing = NULL;
    int ok = 0;
    if (lib) {
#define RESOLVE(f)                                                                       \
    if (!(cu.f = (sb_##f##_fn)driver_symbol(lib, #f)) && !missing)                       \
        missing = #f;
        SB_CUDA_DRIVER_CALLS(RESOLVE)
#undef RESOLVE
        if (missing) {
            set_error("libcuda.so.1 lacks %s: the NVIDIA driver is older than %s, the oldest "
                      "this backend supports; update the driver",
                      missing, SB_CUDA_OLDEST_DRIVER);
            memset(&cu, 0, sizeof cu);
            dlclose(lib);
        } else if (!cu_failed(cu.cuInit(0), "cuInit")) {
            ok = 1;
        } else if (getenv("CUDA_VISIBLE_DEVICES")) {
            size_t n = strlen(last);
            snprintf(last + n, sizeof last - n, " [CUDA_VISIBLE_DEVICES=%s]",
                     getenv("CUDA_VISIBLE_DEVICES"));
        }
    }
    return lib_settle(&driver, ok);
}

/* ---- NVRTC, for every build ---- */

static struct lib_state nvrtc_lib;

/* NVRTC opens its builtins library by soname when it first compiles,
 * which the loader finds only where the toolkit's folder is registered
 * with it (or on LD_LIBRARY_PATH): a toolkit that simtbench found in a
 * folder of its own would then fail every build with "failed to open
 * libnvrtc-builtins".  Loaded here first, from NVRTC's own folder, the
 * later open by soname finds it loaded.  Where it is not there, NVRTC's
 * own search and message stand. */
static void preload_nvrtc_builtins(void *lib)
{
    struct link_map *map = NULL;
    int major = 0, minor = 0;
    if (dlinfo(lib, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name ||
        !strchr(map->l_name, '/') || nvrtc.nvrtcVersion(&major, &minor) != SB_NVRTC_SUCCESS)
        return;
    char path[4096];
    const char *slash = strrchr(map->l_name, '/');
    int len = snprintf(path, sizeof path, "%.*s/libnvrtc-builtins.so.%d.%d",
                       (int)(slash - map->l_name), map->l_name, major, minor);
    char why[256];
    if (len <= 0 || (size_t)len >= sizeof path || sb_elf_check(path, why, sizeof why) != 0)
        return;
    /* Kept open for as long as NVRTC: until exit. */
    (void)dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

/* Loads NVRTC once; it stays loaded until exit. */
static int load_nvrtc(void)
{
    int tried = lib_tried(&nvrtc_lib);
    if (tried <= 0)
        return tried;
    char file[4096];
    void *lib = open_versioned(&nvrtc_spec, file, sizeof file);
    const char *missing = NULL;
    if (lib) {
#define RESOLVE(f)                                                                       \
    if (!(nvrtc.f = (sb_##f##_fn)dlsym(lib, #f)) && !missing)                            \
        missing = #f;
        SB_NVRTC_CALLS(RESOLVE)
#undef RESOLVE
        if (missing) {
            set_error("NVRTC %s lacks %s: %s or newer is needed", file, missing, SB_NVRTC_OLDEST);
            memset(&nvrtc, 0, sizeof nvrtc);
            dlclose(lib);
            lib = NULL;
        }
    }
    if (lib)
        preload_nvrtc_builtins(lib);
    return lib_settle(&nvrtc_lib, lib != NULL);
}

/* ---- cuBLAS, for the vendor reference rows ---- */

static struct lib_state cublas_lib;

/* Loads cuBLAS once, on the first vendor call; it stays loaded until
 * exit, its runtime with it.  cublasSgeam's and cublasSgemm_v2's
 * signatures are the same in every soname tried. */
static int load_cublas_now(void)
{
    int tried = lib_tried(&cublas_lib);
    if (tried <= 0)
        return tried;
    char file[4096];
    void *lib = open_versioned(&cublas_spec, file, sizeof file);
    const char *missing = NULL;
    if (lib) {
#define RESOLVE(f)                                                                       \
    if (!(blas.f = (sb_##f##_fn)dlsym(lib, #f)) && !missing)                             \
        missing = #f;
#define RESOLVE_OPTIONAL(f) blas.f = (sb_##f##_fn)dlsym(lib, #f);
        SB_CUBLAS_CALLS(RESOLVE)
        SB_CUBLAS_OPTIONAL_CALLS(RESOLVE_OPTIONAL)
#undef RESOLVE_OPTIONAL
#undef RESOLVE
        if (missing) {
            set_error("cuBLAS %s lacks %s", file, missing);
            memset(&blas, 0, sizeof blas);
            dlclose(lib);
            lib = NULL;
        }
    }
    return lib_settle(&cublas_lib, lib != NULL);
}

/* ---- CUPTI, for the hardware counters ---- */

static struct lib_state cupti_lib;

/* Loads CUPTI once, on the first profiled launch; it stays loaded until
 * exit. */
static int load_cupti_now(void)
{
    int tried = lib_tried(&cupti_lib);
    if (tried <= 0)
        return tried;
    char file[4096];
    void *lib = open_versioned(&cupti_spec, file, sizeof file);
    if (lib && sb_cupti_resolve(lib, file, last, sizeof last)) {
        dlclose(lib);
        lib = NULL;
    }
    return lib_settle(&cupti_lib, lib != NULL);
}

/* Devices measured at the same time may each profile a first launch at
 * once: one of them loads. */
static int load_cupti(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = load_cupti_now();
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Devices measured at the same time may each reach their first vendor
 * call at once: one of them loads. */
static int load_cublas(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = load_cublas_now();
    pthread_mutex_unlock(&lock);
    return rc;
}

static const char *blas_status_name(sb_cublasStatus_t s)
{
    switch (s) {
#define CASE(x) case SB_##x: return #x
        CASE(CUBLAS_STATUS_SUCCESS);
        CASE(CUBLAS_STATUS_NOT_INITIALIZED);
        CASE(CUBLAS_STATUS_ALLOC_FAILED);
        CASE(CUBLAS_STATUS_INVALID_VALUE);
        CASE(CUBLAS_STATUS_ARCH_MISMATCH);
        CASE(CUBLAS_STATUS_MAPPING_ERROR);
        CASE(CUBLAS_STATUS_EXECUTION_FAILED);
        CASE(CUBLAS_STATUS_INTERNAL_ERROR);
        CASE(CUBLAS_STATUS_NOT_SUPPORTED);
        CASE(CUBLAS_STATUS_LICENSE_ERROR);
#undef CASE
    default:
        return NULL;
    }
}

/* Non-zero when s is an error, which it then describes as
 * "<what> failed: CUBLAS_STATUS_X (cuBLAS's description)". */
static int blas_failed(sb_cublasStatus_t s, const char *fmt, ...)
{
    if (s == SB_CUBLAS_STATUS_SUCCESS)
        return 0;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = blas.cublasGetStatusName ? blas.cublasGetStatusName(s) : NULL;
    const char *desc = blas.cublasGetStatusString ? blas.cublasGetStatusString(s) : NULL;
    if (!name || !*name)
        name = blas_status_name(s);
    if (name && desc && *desc && strcmp(name, desc))
        set_error("%s failed: %s (%s)", what, name, desc);
    else if (name)
        set_error("%s failed: %s", what, name);
    else
        set_error("%s failed: cuBLAS status %d", what, (int)s);
    return 1;
}

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

static int cuda_probe(void)
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
static int cuda_enumerate(sb_device_info *out, int max)
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

static void cuda_close(sb_device *d)
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

static int cuda_open(const sb_device_request *req, sb_device **out, sb_device_info *info)
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
static int use(sb_device *d)
{
    return cu_failed(cu.cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent") ? -1 : 0;
}

/* ---- NVRTC ---- */

static void nv_result_free(struct nv_result *r)
{
    free(r->cubin);
    free(r->ptx);
    free(r->log);
    memset(r, 0, sizeof *r);
}

/* The first lines of the log name the first error; the whole log would
 * drown the message. */
static void nvrtc_error(sb_nvrtcResult r, const char *target, const char *log)
{
    set_error("NVRTC: %s (%s)", nvrtc.nvrtcGetErrorString(r), target);
    if (!log || !*log)
        return;
    size_t len = 0;
    for (int lines = 0; log[len] && len < 400 && lines < 6;)
        if (log[len++] == '\n')
            lines++;
    while (len > 0 && strchr(" \r\n", log[len - 1]))
        len--;
    size_t n = strlen(last);
    snprintf(last + n, sizeof last - n, ":\n%.*s%s", (int)len, log,
             log[len + strspn(log + len, " \r\n")] ? "\n..." : "");
}

static void nv_free_options(char **opts, int nopts)
{
    for (int i = 0; opts && i < nopts; i++)
        free(opts[i]);
    free(opts);
}

/* NVRTC's options, malloc'd: one -D per definition, the target, the C++
 * dialect; NULL when out of host memory.  *nopts says how many. */
static char **nv_options(const char *const *defines, int ndefines, const char *target,
                         int *nopts)
{
    if (ndefines < 0)
        ndefines = 0;
    int n = ndefines + 2;
    char **opts = calloc((size_t)n, sizeof *opts);
    if (!opts)
        return NULL;
    for (int i = 0; i < ndefines; i++)
        if (asprintf(&opts[i], "-D%s", defines[i]) < 0)
            opts[i] = NULL;
    if (asprintf(&opts[ndefines], "--gpu-architecture=%s", target) < 0)
        opts[ndefines] = NULL;
    opts[ndefines + 1] = strdup("-std=c++17");
    for (int i = 0; i < n; i++)
        if (!opts[i]) {
            nv_free_options(opts, n);
            return NULL;
        }
    *nopts = n;
    return opts;
}

/* The compile's whole log, malloc'd; NULL when there is none. */
static char *nv_log(sb_nvrtcProgram prog)
{
    size_t size = 0;
    char *log = NULL;
    if (nvrtc.nvrtcGetProgramLogSize(prog, &size) == SB_NVRTC_SUCCESS && size > 0 &&
        (log = malloc(size)) && nvrtc.nvrtcGetProgramLog(prog, log) != SB_NVRTC_SUCCESS)
        log[0] = '\0';
    return log;
}

/* The PTX of a compiled program and, for a real target (sm_XY), its
 * cubin; 0, or -1 with the reason set. */
static int nv_outputs(sb_nvrtcProgram prog, const char *target, struct nv_result *out)
{
    size_t size = 0;
    sb_nvrtcResult r;
    /* The size counts the terminating NUL, so 1 means no PTX. */
    if ((r = nvrtc.nvrtcGetPTXSize(prog, &size)) == SB_NVRTC_SUCCESS && size > 1) {
        if (!(out->ptx = malloc(size)))
            goto oom;
        r = nvrtc.nvrtcGetPTX(prog, out->ptx);
    }
    if (r == SB_NVRTC_SUCCESS && strncmp(target, "sm_", 3) == 0 &&
        (r = nvrtc.nvrtcGetCUBINSize(prog, &size)) == SB_NVRTC_SUCCESS && size > 0) {
        if (!(out->cubin = malloc(size)))
            goto oom;
        out->cubin_size = size;
        r = nvrtc.nvrtcGetCUBIN(prog, out->cubin);
    }
    if (r == SB_NVRTC_SUCCESS)
        return 0;
    nvrtc_error(r, target, NULL);
    return -1;
oom:
    set_error("out of host memory building for %s", target);
    return -1;
}

/* One NVRTC compile for target ("sm_90" or "compute_90"): the log always,
 * the PTX and cubin when NVRTC makes them. */
static int nv_run(const char *source, const char *const *defines, int ndefines,
                  const char *target, struct nv_result *out)
{
    int nopts = 0, ret = -1;
    char **opts = nv_options(defines, ndefines, target, &nopts);
    sb_nvrtcProgram prog = NULL;
    sb_nvrtcResult r;

    if (!opts) {
        set_error("out of host memory building for %s", target);
        return -1;
    }
    if ((r = nvrtc.nvrtcCreateProgram(&prog, source, "simtbench.cu", 0, NULL, NULL))) {
        nvrtc_error(r, target, NULL);
        nv_free_options(opts, nopts);
        return -1;
    }
    r = nvrtc.nvrtcCompileProgram(prog, nopts, (const char *const *)opts);
    out->log = nv_log(prog);
    if (r != SB_NVRTC_SUCCESS)
        nvrtc_error(r, target, out->log);
    else
        ret = nv_outputs(prog, target, out);
    nvrtc.nvrtcDestroyProgram(&prog);
    nv_free_options(opts, nopts);
    return ret;
}

/* A cubin for sm_<arch> and the PTX of the same source.  NVRTC 13 makes
 * both in one sm_XY compile; the compute_XY compile is there should a
 * version stop emitting PTX beside the cubin. */
static int nv_compile(const char *source, const char *const *defines, int ndefines, int arch,
                      struct nv_result *out)
{
    struct nv_result virt = {0};
    char target[32];

    memset(out, 0, sizeof *out);
    snprintf(target, sizeof target, "sm_%d", arch);
    if (nv_run(source, defines, ndefines, target, out))
        goto fail;
    if (!out->cubin) {
        set_error("NVRTC produced no cubin for %s", target);
        goto fail;
    }
    if (out->ptx)
        return 0;
    snprintf(target, sizeof target, "compute_%d", arch);
    if (nv_run(source, defines, ndefines, target, &virt))
        goto fail;
    out->ptx = virt.ptx;
    virt.ptx = NULL;
    if (out->ptx) {
        nv_result_free(&virt);
        return 0;
    }
    set_error("NVRTC produced no PTX for %s", target);
fail:
    nv_result_free(&virt);
    nv_result_free(out);
    return -1;
}

/* The device's own arch when NVRTC knows it, else the newest NVRTC knows
 * below it: a cubin runs on later minor revisions of its major. */
static int pick_arch(int device_arch, int *arch)
{
    int n = 0, *archs = NULL, oldest = 0;
    *arch = 0;
    if (nvrtc.nvrtcGetNumSupportedArchs(&n) != SB_NVRTC_SUCCESS || n <= 0 ||
        !(archs = calloc((size_t)n, sizeof *archs)) ||
        nvrtc.nvrtcGetSupportedArchs(archs) != SB_NVRTC_SUCCESS) {
        free(archs);
        set_error("NVRTC cannot list the architectures it supports");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (archs[i] <= device_arch && archs[i] > *arch)
            *arch = archs[i];
        if (!oldest || archs[i] < oldest)
            oldest = archs[i];
    }
    free(archs);
    if (*arch)
        return 0;
    int major = 0, minor = 0;
    nvrtc.nvrtcVersion(&major, &minor);
    set_error("NVRTC %d.%d cannot build for this device (sm_%d): its oldest target is sm_%d",
              major, minor, device_arch, oldest);
    return -1;
}

static void cuda_release_program(sb_program *p)
{
    if (!p)
        return;
    if (p->module) {
        cu.cuCtxSetCurrent(p->dev->ctx);
        cu.cuModuleUnload(p->module);
    }
    free(p->ptx);
    free(p->log);
    free(p);
}

/* The module of nv's cubin (or, on a device newer than the cubin's arch,
   of its PTX, which the driver compiles); 0, or -1 with the reason. */
static int load_module(sb_device *dev, const struct nv_result *nv, int arch,
                       sb_CUmodule *module)
{
    sb_CUresult r = cu.cuModuleLoadData(module, nv->cubin);
    /* A cubin runs only within its major arch; on a device newer than
     * NVRTC knows, the driver can still compile the PTX. */
    if (r != SB_CUDA_SUCCESS && arch != dev->arch)
        r = cu.cuModuleLoadData(module, nv->ptx);
    return cu_failed(r, "cuModuleLoadData (kernels built for sm_%d, device is sm_%d)", arch,
                     dev->arch)
               ? -1
               : 0;
}

/* NVRTC's output for source: from the cache when it holds the build
   (*cached), else compiled and kept there. */
static int nv_build(const char *source, const char *const *defines, int ndefines, int arch,
                    struct nv_result *nv, uint64_t *key, int *cached)
{
    int major = 0, minor = 0;
    char target[32];
    nvrtc.nvrtcVersion(&major, &minor);
    snprintf(target, sizeof target, "sm_%d", arch);
    *key = sb_nvcache_key(source, defines, ndefines, target, major, minor);
    memset(nv, 0, sizeof *nv);
    *cached = sb_nvcache_load(*key, &nv->cubin, &nv->cubin_size, &nv->ptx, &nv->log) == 0;
    if (*cached)
        return 0;
    if (nv_compile(source, defines, ndefines, arch, nv))
        return -1;
    sb_nvcache_store(*key, nv->cubin, nv->cubin_size, nv->ptx, nv->log);
    return 0;
}

static int cuda_build(sb_device *dev, const char *source, const char *const *defines,
                      int ndefines, sb_program **out)
{
    struct nv_result nv;
    int arch, cached = 0;
    uint64_t key;
    *out = NULL;
    if (load_nvrtc() || pick_arch(dev->arch, &arch) ||
        nv_build(source, defines, ndefines, arch, &nv, &key, &cached))
        return -1;
    sb_program *p = calloc(1, sizeof *p);
    if (!p)
        set_error("out of host memory");
    if (!p || use(dev)) {
        free(p);
        nv_result_free(&nv);
        return -1;
    }
    int failed = load_module(dev, &nv, arch, &p->module);
    if (failed && cached) {
        /* An entry the driver refuses is compiled again, never trusted. */
        nv_result_free(&nv);
        failed = nv_compile(source, defines, ndefines, arch, &nv) ||
                 load_module(dev, &nv, arch, &p->module);
        if (!failed)
            sb_nvcache_store(key, nv.cubin, nv.cubin_size, nv.ptx, nv.log);
    }
    if (failed) {
        free(p);
        nv_result_free(&nv);
        return -1;
    }
    p->dev = dev;
    p->ptx = nv.ptx;
    p->log = nv.log;
    free(nv.cubin);
    *out = p;
    return 0;
}

static int cuda_compile_offline(const char *source, const char *const *defines, int ndefines,
                                const char *target, char **ptx)
{
    struct nv_result nv;
    int arch = 0, used = 0;
    *ptx = NULL;
    if (!target || sscanf(target, "sm_%d%n", &arch, &used) != 1 || target[used] || arch <= 0) {
        set_error("CUDA target \"%s\" is not of the form sm_90", target ? target : "(null)");
        return -1;
    }
    /* Through the on-disk cache as every build goes: the tests that read
       every variant's PTX compile what a run builds, and each other's. */
    uint64_t key;
    int cached;
    if (load_nvrtc() || nv_build(source, defines, ndefines, arch, &nv, &key, &cached))
        return -1;
    *ptx = nv.ptx;
    nv.ptx = NULL;
    nv_result_free(&nv);
    return 0;
}

static int cuda_program_ptx(sb_program *p, char **ptx)
{
    if (!(*ptx = strdup(p->ptx))) {
        set_error("out of host memory copying PTX");
        return -1;
    }
    return 0;
}

/* ---- kernels, memory, launches ---- */

static int cuda_kernel(sb_program *p, const char *name, sb_kernel **out)
{
    *out = NULL;
    sb_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        set_error("out of host memory");
        return -1;
    }
    if (use(p->dev)) {
        free(k);
        return -1;
    }
    sb_CUresult r = cu.cuModuleGetFunction(&k->fn, p->module, name);
    if (r == SB_CUDA_ERROR_NOT_FOUND)
        set_error("kernel %s not found in the program (is it declared KERNEL?)", name);
    else
        cu_failed(r, "cuModuleGetFunction(%s)", name);
    if (r != SB_CUDA_SUCCESS) {
        free(k);
        return -1;
    }
    k->dev = p->dev;
    snprintf(k->name, sizeof k->name, "%s", name);
    *out = k;
    return 0;
}

static void cuda_release_kernel(sb_kernel *k)
{
    free(k);
}

static int cuda_occupancy(sb_kernel *k, int block_threads, int *blocks_per_unit)
{
    if (use(k->dev) ||
        cu_failed(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_unit, k->fn,
                                                                 block_threads, 0),
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor(%s, %d threads)", k->name,
                  block_threads))
        return -1;
    return 0;
}

static int cuda_kernel_resources(sb_kernel *k, sb_kernel_resources *out)
{
    out->regs = -1;
    out->shared_bytes = -1;
    out->private_bytes = -1;
    int regs = 0, shared = 0, local = 0;
    if (use(k->dev) ||
        cu_failed(cu.cuFuncGetAttribute(&regs, SB_CU_FUNC_ATTRIBUTE_NUM_REGS, k->fn),
                  "cuFuncGetAttribute(%s, NUM_REGS)", k->name) ||
        cu_failed(cu.cuFuncGetAttribute(&shared, SB_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->fn),
                  "cuFuncGetAttribute(%s, SHARED_SIZE_BYTES)", k->name) ||
        cu_failed(cu.cuFuncGetAttribute(&local, SB_CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, k->fn),
                  "cuFuncGetAttribute(%s, LOCAL_SIZE_BYTES)", k->name))
        return -1;
    out->regs = regs;
    out->shared_bytes = shared;
    out->private_bytes = local;
    return 0;
}

static int cuda_alloc(sb_device *d, size_t bytes, sb_buffer **out)
{
    *out = NULL;
    sb_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        set_error("out of host memory");
        return -1;
    }
    if (use(d) ||
        cu_failed(cu.cuMemAlloc_v2(&b->ptr, bytes), "cuMemAlloc of %.1f MiB", MIB(bytes))) {
        free(b);
        return -1;
    }
    b->dev = d;
    b->bytes = bytes;
    *out = b;
    return 0;
}

static int cuda_memory(sb_device *d, uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t avail = 0, total = 0;
    *free_bytes = 0;
    *total_bytes = 0;
    if (use(d) || cu_failed(cu.cuMemGetInfo_v2(&avail, &total), "cuMemGetInfo"))
        return -1;
    *free_bytes = avail;
    *total_bytes = total;
    return 0;
}

static void cuda_free(sb_buffer *b)
{
    if (!b)
        return;
    if (b->ptr) {
        cu.cuCtxSetCurrent(b->dev->ctx);
        cu.cuMemFree_v2(b->ptr);
    }
    free(b);
}

static int too_big(const sb_buffer *b, size_t bytes, const char *what)
{
    if (bytes <= b->bytes)
        return 0;
    set_error("%s of %zu bytes overruns a buffer of %zu bytes", what, bytes, b->bytes);
    return 1;
}

static int cuda_upload(sb_buffer *dst, const void *src, size_t bytes)
{
    if (too_big(dst, bytes, "upload") || use(dst->dev) ||
        cu_failed(cu.cuMemcpyHtoD_v2(dst->ptr, src, bytes), "cuMemcpyHtoD of %.1f MiB", MIB(bytes)))
        return -1;
    return 0;
}

static int cuda_download(void *dst, sb_buffer *src, size_t bytes)
{
    if (too_big(src, bytes, "download") || use(src->dev) ||
        cu_failed(cu.cuMemcpyDtoH_v2(dst, src->ptr, bytes), "cuMemcpyDtoH of %.1f MiB", MIB(bytes)))
        return -1;
    return 0;
}

/* Waits for the stream, where a fault of the work on it surfaces, then
 * reads the events recorded around that work when ms is wanted. */
static int finish(sb_device *d, double *ms, const char *what)
{
    float t = 0;
    if (cu_failed(cu.cuStreamSynchronize(d->stream), "%s: cuStreamSynchronize", what) ||
        (ms && cu_failed(cu.cuEventElapsedTime_v2(&t, d->start, d->stop),
                         "%s: cuEventElapsedTime", what)))
        return -1;
    if (ms)
        *ms = t;
    return 0;
}

/* The events to record around an operation, NULL when it is not timed:
 * the device's own pair outside a batch, the batch's next pair inside
 * one, where only a timed operation, and only while there is room, may
 * be queued. */
static int op_events(sb_device *d, const double *ms, const char *what, sb_CUevent *start,
                     sb_CUevent *stop)
{
    *start = *stop = NULL;
    if (sb_batch_rules_admit(&d->batch, ms != NULL, what, last, sizeof last))
        return -1;
    if (d->batch.open) {
        *start = d->pool_start[d->batch.count];
        *stop = d->pool_stop[d->batch.count];
    } else if (ms) {
        *start = d->start;
        *stop = d->stop;
    }
    return 0;
}

/* The end of an operation enqueued between its events: outside a batch
 * wait for it; inside one, leave it running and keep where its time goes. */
static int end_op(sb_device *d, double *ms, const char *what)
{
    if (!d->batch.open)
        return finish(d, ms, what);
    d->batch_ms[sb_batch_rules_add(&d->batch)] = ms;
    return 0;
}

/* Grows the pool to max pairs, keeping the pairs made before a failure. */
static int grow_pool(sb_device *d, int max)
{
    if (max <= d->pool_have)
        return 0;
    sb_CUevent *start = realloc(d->pool_start, sizeof *start * (size_t)max);
    if (start)
        d->pool_start = start;
    sb_CUevent *stop = start ? realloc(d->pool_stop, sizeof *stop * (size_t)max) : NULL;
    if (stop)
        d->pool_stop = stop;
    double **ms = stop ? realloc(d->batch_ms, sizeof *ms * (size_t)max) : NULL;
    if (ms)
        d->batch_ms = ms;
    if (!ms) {
        set_error("batch_begin: out of host memory for %d operations", max);
        return -1;
    }
    while (d->pool_have < max) {
        int i = d->pool_have;
        if (cu_failed(cu.cuEventCreate(&d->pool_start[i], SB_CU_EVENT_DEFAULT),
                      "batch_begin: cuEventCreate"))
            return -1;
        if (cu_failed(cu.cuEventCreate(&d->pool_stop[i], SB_CU_EVENT_DEFAULT),
                      "batch_begin: cuEventCreate")) {
            cu.cuEventDestroy_v2(d->pool_start[i]);
            return -1;
        }
        d->pool_have++;
    }
    return 0;
}

static int cuda_batch_begin(sb_device *d, int max)
{
    if (sb_batch_rules_begin(&d->batch, max, last, sizeof last))
        return -1;
    if (use(d) || grow_pool(d, max)) {
        sb_batch_rules_cancel(&d->batch);
        return -1;
    }
    return 0;
}

/* Waits for the last stop event, where a fault of the batch's work
 * surfaces (the stream runs in order), then reads every pair.  The batch
 * ends whatever happens; the pool's events are reused by the next one. */
static int cuda_batch_end(sb_device *d)
{
    int n = sb_batch_rules_end(&d->batch, last, sizeof last);
    if (n < 0 || use(d))
        return -1;
    if (n > 0 && cu_failed(cu.cuEventSynchronize(d->pool_stop[n - 1]),
                           "batch of %d operations: cuEventSynchronize", n))
        return -1;
    for (int i = 0; i < n; i++) {
        float t = 0;
        if (cu_failed(cu.cuEventElapsedTime_v2(&t, d->pool_start[i], d->pool_stop[i]),
                      "batch of %d operations: cuEventElapsedTime of operation %d", n, i + 1))
            return -1;
        *d->batch_ms[i] = t;
    }
    return 0;
}

static int cuda_host_alloc(sb_device *d, size_t bytes, void **p)
{
    *p = NULL;
    if (use(d) || cu_failed(cu.cuMemHostAlloc(p, bytes, 0), "cuMemHostAlloc of %.1f MiB",
                            MIB(bytes)))
        return -1;
    return 0;
}

static void cuda_host_free(sb_device *d, void *p)
{
    if (p && use(d) == 0)
        cu.cuMemFreeHost(p);
}

static int cuda_fill(sb_buffer *dst, uint32_t word, size_t bytes)
{
    sb_device *d = dst->dev;
    if (too_big(dst, bytes, "fill") || use(d) ||
        cu_failed(cu.cuMemsetD32Async(dst->ptr, word, bytes / 4, d->stream),
                  "cuMemsetD32Async of %.1f MiB", MIB(bytes)) ||
        cu_failed(cu.cuStreamSynchronize(d->stream), "fill: cuStreamSynchronize"))
        return -1;
    return 0;
}

static int cuda_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    sb_device *d = dst->dev;
    sb_CUevent start, stop;
    if (too_big(dst, bytes, "copy") || too_big(src, bytes, "copy") ||
        op_events(d, ms, "device-to-device copy", &start, &stop) || use(d) ||
        (start && cu_failed(cu.cuEventRecord(start, d->stream), "copy: cuEventRecord")) ||
        cu_failed(cu.cuMemcpyDtoDAsync_v2(dst->ptr, src->ptr, bytes, d->stream),
                  "cuMemcpyDtoDAsync of %.1f MiB", MIB(bytes)) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "copy: cuEventRecord")))
        return -1;
    return end_op(d, ms, "device-to-device copy");
}

/* The arguments as cuLaunchKernel takes them: each value in vals, a
 * pointer to it in params; 0, or -1 with the reason set. */
typedef union kernel_value {
    sb_CUdeviceptr p;
    int32_t i;
    float f;
} kernel_value;

static int kernel_params(const sb_kernel *k, const sb_arg *args, int nargs, kernel_value *vals,
                         void **params)
{
    if (nargs < 0 || nargs > MAX_ARGS) {
        set_error("kernel %s: %d arguments, at most %d are supported", k->name, nargs, MAX_ARGS);
        return -1;
    }
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind == SB_ARG_BUFFER && args[i].v.buf)
            vals[i].p = args[i].v.buf->ptr;
        else if (args[i].kind == SB_ARG_INT)
            vals[i].i = args[i].v.i;
        else if (args[i].kind == SB_ARG_FLOAT)
            vals[i].f = args[i].v.f;
        else {
            set_error("kernel %s: argument %d is a NULL buffer or of unknown kind", k->name, i);
            return -1;
        }
        params[i] = &vals[i];
    }
    return 0;
}

/* One cuLaunchKernel of k on the device's stream; what names it in messages. */
static int enqueue_kernel(const sb_kernel *k, const sb_launch *g, int nargs, void **params,
                          const char *what)
{
    return cu_failed(cu.cuLaunchKernel(k->fn, g->grid[0], g->grid[1], g->grid[2], g->block[0],
                                       g->block[1], g->block[2], 0, k->dev->stream,
                                       nargs ? params : NULL, NULL),
                     "%s: cuLaunchKernel", what);
}

static void launch_what(const sb_kernel *k, const sb_launch *g, char *what, size_t n)
{
    snprintf(what, n, "kernel %s (grid %ux%ux%u, block %ux%ux%u)", k->name, g->grid[0],
             g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2]);
}

static int cuda_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                       double *ms)
{
    kernel_value vals[MAX_ARGS];
    void *params[MAX_ARGS];
    sb_device *d = k->dev;
    if (kernel_params(k, args, nargs, vals, params))
        return -1;
    char what[192];
    launch_what(k, g, what, sizeof what);
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || use(d) ||
        (start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        enqueue_kernel(k, g, nargs, params, what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}

/* A stream carries no timing of its own: the launches go on the device's
 * stream, with no event between them, and one synchronisation drains it. */
static int cuda_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                              int count)
{
    kernel_value vals[MAX_ARGS];
    void *params[MAX_ARGS];
    sb_device *d = k->dev;
    char what[192];
    launch_what(k, g, what, sizeof what);
    if (count < 1) {
        set_error("%s: %d launches queued; at least one is", what, count);
        return -1;
    }
    if (d->batch.open) {
        set_error("%s: launches for the host's clock cannot join a batch", what);
        return -1;
    }
    if (kernel_params(k, args, nargs, vals, params) || use(d))
        return -1;
    for (int i = 0; i < count; i++)
        if (enqueue_kernel(k, g, nargs, params, what))
            return -1;
    return cu_failed(cu.cuStreamSynchronize(d->stream), "%s x %d: cuStreamSynchronize", what,
                     count)
               ? -1
               : 0;
}

/* The device's cuBLAS handle, made on the first vendor call and bound to
 * its stream; 0, or -1 with the reason set. */
static int blas_handle(sb_device *d)
{
    if (load_cublas() || use(d))
        return -1;
    if (d->blas)
        return 0;
    sb_cublasHandle_t h = NULL;
    if (blas_failed(blas.cublasCreate_v2(&h), "cublasCreate"))
        return -1;
    if (blas_failed(blas.cublasSetStream_v2(h, d->stream), "cublasSetStream")) {
        blas.cublasDestroy_v2(h);
        return -1;
    }
    d->blas = h;
    return 0;
}

/* cuBLAS is column-major: the row-major rows x cols src is the
 * column-major cols x rows A (lda = cols), the row-major cols x rows dst
 * the column-major rows x cols C (ldc = rows).  C = 1 * A^T + 0 * B with
 * B = C, ldb = ldc and transb = N, the in-place form cuBLAS allows for B. */
static int cuda_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms)
{
    if (rows <= 0 || cols <= 0) {
        set_error("cublasSgeam: a %d x %d matrix has no elements", rows, cols);
        return -1;
    }
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    if (too_big(dst, bytes, "cublasSgeam: the transpose") ||
        too_big(src, bytes, "cublasSgeam: the transpose"))
        return -1;
    if (dst->dev != src->dev) {
        set_error("cublasSgeam: the two buffers belong to different devices");
        return -1;
    }
    sb_device *d = dst->dev;
    char what[96];
    snprintf(what, sizeof what, "cublasSgeam (transpose of %d x %d)", rows, cols);
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || blas_handle(d))
        return -1;
    const float one = 1.0f, zero = 0.0f;
    const float *a = (const float *)(uintptr_t)src->ptr;
    float *c = (float *)(uintptr_t)dst->ptr;
    /* The scalars are read at the call (host pointer mode): the stack is
       fine even when the batch leaves the work running. */
    if ((start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        blas_failed(blas.cublasSgeam(d->blas, SB_CUBLAS_OP_T, SB_CUBLAS_OP_N, rows, cols, &one,
                                     a, cols, &zero, c, rows, c, rows),
                    "%s", what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}

/* The device's profiler, made on the first call; a failure is kept, since
 * a second try would fail the same way. */
static int device_profiler(sb_device *d)
{
    if (d->cupti)
        return 0;
    if (d->cupti_why[0] || load_cupti()) {
        if (!d->cupti_why[0])
            snprintf(d->cupti_why, sizeof d->cupti_why, "%s", last);
        set_error("%s", d->cupti_why);
        return -1;
    }
    char why[sizeof last];
    if (use(d) || sb_cupti_open(d->ctx, d->ordinal, &d->cupti, why, sizeof why)) {
        snprintf(d->cupti_why, sizeof d->cupti_why, "%s", why);
        set_error("%s", d->cupti_why);
        return -1;
    }
    return 0;
}

/* The most passes a collection may take before it is called a failure
 * (the H200 takes 5 for every metric of counters.c, RESULTS.md run 24). */
#define MAX_PASSES 64

/* One collection of the counters over the launch, a launch a pass; 1 where
 * the launch itself failed (its reason set), -1 where CUPTI did (why). */
static int collect_counts(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                          double *counts, char *why, size_t n)
{
    sb_cupti *p = k->dev->cupti;
    if (sb_cupti_begin(p, why, n))
        return -1;
    int all = 0, passes = 0, user = sb_cupti_user_replay(p);
    while (!all && passes++ < (user ? MAX_PASSES : 1)) {
        if (sb_cupti_pass_start(p, why, n))
            return -1;
        int launched = cuda_launch(k, g, args, nargs, NULL);
        if (sb_cupti_pass_stop(p, &all, why, n) || launched)
            return launched ? 1 : -1;
    }
    if (!all) {
        snprintf(why, n, "CUPTI's %s replay left passes unsubmitted after %d", user ? "user" :
                 "kernel", passes - 1);
        return -1;
    }
    return sb_cupti_end(p, counts, why, n);
}

static int cuda_launch_counted(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                               double *counts)
{
    sb_device *d = k->dev;
    char why[sizeof last], first[sizeof last];
    if (d->batch.open) {
        set_error("kernel %s: a profiled launch inside a batch", k->name);
        return -1;
    }
    if (device_profiler(d))
        return -1;
    int rc = collect_counts(k, g, args, nargs, counts, why, sizeof why);
    if (rc < 0 && sb_cupti_user_replay(d->cupti)) {
        /* Where CUPTI refuses to let us replay, it replays the kernel itself
           from then on (saving and restoring memory: slower, the same counts). */
        snprintf(first, sizeof first, "%s", why);
        sb_cupti_kernel_replay(d->cupti);
        rc = collect_counts(k, g, args, nargs, counts, why, sizeof why);
        if (rc < 0)
            snprintf(why + strlen(why), sizeof why - strlen(why), " (user replay: %.300s)",
                     first);
    }
    if (rc > 0)
        return -1; /* the launch's own reason is set */
    if (rc < 0) {
        set_error("kernel %s: %s", k->name, why);
        return -1;
    }
    return 0;
}

/* NVML, through the device's PCI bus id. */
static int cuda_clocks(sb_device *d, int *sm_mhz, int *mem_mhz)
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

/* Row-major c = a b is column-major c^T = b^T a^T: with the row-major
 * matrices read as column-major ones (b as n x k, ld n; a as k x m, ld
 * k), cuBLAS multiplies b by a into c (n x m, ld n) with no transpose.
 * The handle's default math mode keeps FP32 arithmetic (no TF32). */
static int cuda_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                             double *ms)
{
    char what[96];
    snprintf(what, sizeof what, "cublasSgemm (%d x %d times %d x %d)", m, k, k, n);
    if (m <= 0 || n <= 0 || k <= 0) {
        set_error("%s: a matrix has no elements", what);
        return -1;
    }
    if (too_big(a, (size_t)m * (size_t)k * sizeof(float), what) ||
        too_big(b, (size_t)k * (size_t)n * sizeof(float), what) ||
        too_big(c, (size_t)m * (size_t)n * sizeof(float), what))
        return -1;
    if (a->dev != c->dev || b->dev != c->dev) {
        set_error("%s: the buffers belong to different devices", what);
        return -1;
    }
    sb_device *d = c->dev;
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || blas_handle(d))
        return -1;
    const float one = 1.0f, zero = 0.0f;
    if ((start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        blas_failed(blas.cublasSgemm_v2(d->blas, SB_CUBLAS_OP_N, SB_CUBLAS_OP_N, n, m, k, &one,
                                        (const float *)(uintptr_t)b->ptr, n,
                                        (const float *)(uintptr_t)a->ptr, k, &zero,
                                        (float *)(uintptr_t)c->ptr, n),
                    "%s", what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}

static const char *cuda_last_error(void)
{
    return last;
}

const sb_backend simtbench_backend = {
    .abi = SB_BACKEND_ABI,
    .name = "cuda",
    .prelude = "prelude_cuda.h",
    .concurrent_build = 1,
    .probe = cuda_probe,
    .enumerate = cuda_enumerate,
    .open = cuda_open,
    .close = cuda_close,
    .build = cuda_build,
    .compile_offline = cuda_compile_offline,
    .program_ptx = cuda_program_ptx,
    .release_program = cuda_release_program,
    .kernel = cuda_kernel,
    .release_kernel = cuda_release_kernel,
    .occupancy = cuda_occupancy,
    .kernel_resources = cuda_kernel_resources,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .fill = cuda_fill,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .copy = cuda_copy,
    .launch = cuda_launch,
    .last_error = cuda_last_error,
    .vendor_transpose = cuda_vendor_transpose,
    .vendor_transpose_name = "cublasSgeam",
    .batch_begin = cuda_batch_begin,
    .batch_end = cuda_batch_end,
    .memory = cuda_memory,
    .launch_counted = cuda_launch_counted,
    .clocks = cuda_clocks,
    .launch_queued = cuda_launch_queued,
    .vendor_sgemm = cuda_vendor_sgemm,
    .vendor_sgemm_name = "cublasSgemm",
};
