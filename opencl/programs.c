/* The OpenCL backend's programs: clBuildProgram with the -D definitions,
 * its log, the PTX NVIDIA's platform gives as the program's binary, and
 * the kernels with what ptxas said of their resources. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "ptxas_log.h"

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

int ocl_build(sb_device *dev, const char *source, const char *const *defines, int ndefines,
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
int ocl_program_ptx(sb_program *p, char **ptx)
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

void ocl_release_program(sb_program *p)
{
    if (!p)
        return;
    clReleaseProgram(p->program);
    free(p->log);
    free(p);
}

int ocl_kernel(sb_program *p, const char *name, sb_kernel **out)
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
int ocl_kernel_resources(sb_kernel *k, sb_kernel_resources *out)
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

void ocl_release_kernel(sb_kernel *k)
{
    if (!k)
        return;
    clReleaseKernel(k->kernel);
    free(k);
}
