/* The OpenCL backend's platforms: the ICD loader's platforms and devices,
 * and, where there are none, why (no ICD file, PoCL's kernel cache not
 * writable); probe. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module.h"
#include "text.h"

/* Where the ICD loader looks for .icd files unless OCL_ICD_VENDORS says. */
#define ICD_VENDOR_DIR "/etc/OpenCL/vendors"
#define POCL_PLATFORM_NAME "Portable Computing Language"

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

int get_platforms(cl_platform_id *ids, cl_uint *count)
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
void info_string(cl_platform_id p, cl_device_id d, cl_uint what, char *out, size_t n)
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

int is_pocl(cl_platform_id p)
{
    char name[SB_DEVICE_STRING];
    info_string(p, NULL, CL_PLATFORM_NAME, name, sizeof name);
    return strcmp(name, POCL_PLATFORM_NAME) == 0;
}

/* The folder PoCL keeps its kernel cache in, as PoCL chooses it
 * (pocl_cache_init_topdir): "" for a POCL_CACHE_DIR set but empty. */
void pocl_cache_dir(char *dir, size_t n)
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
cl_uint get_devices(cl_platform_id p, cl_device_id *ids)
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
int cache_error(const char *dir)
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

int ocl_probe(void)
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
