/* The CUDA backend's programs: NVRTC's compiles (a cubin for the device's
 * arch and the PTX), the on-disk cache of them (nvrtc_cache.h), the
 * modules the driver loads from them, and the kernels found in those. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "nvrtc_cache.h"

/* What NVRTC gives for one source, owned by the caller. */
struct nv_result {
    char *cubin, *ptx, *log;
    size_t cubin_size;
};

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

void cuda_release_program(sb_program *p)
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

int cuda_build(sb_device *dev, const char *source, const char *const *defines,
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

int cuda_compile_offline(const char *source, const char *const *defines, int ndefines,
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

int cuda_program_ptx(sb_program *p, char **ptx)
{
    if (!(*ptx = strdup(p->ptx))) {
        set_error("out of host memory copying PTX");
        return -1;
    }
    return 0;
}

int cuda_kernel(sb_program *p, const char *name, sb_kernel **out)
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

void cuda_release_kernel(sb_kernel *k)
{
    free(k);
}

int cuda_occupancy(sb_kernel *k, int block_threads, int *blocks_per_unit)
{
    if (use(k->dev) ||
        cu_failed(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_unit, k->fn,
                                                                 block_threads, 0),
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor(%s, %d threads)", k->name,
                  block_threads))
        return -1;
    return 0;
}

int cuda_kernel_resources(sb_kernel *k, sb_kernel_resources *out)
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
