/* The CUDA backend's libraries, found and opened at run time: libcuda on
 * first use, so that the module loads and NVRTC (compile_offline) works
 * on machines without an NVIDIA driver, such as CI.  NVRTC, which every
 * build needs, cuBLAS, which only the vendor rows need, and CUPTI, which
 * only the counters need, by their versioned sonames, newest first
 * (lib_spec).  Every library is checked (lib_search.h) before dlopen maps
 * it: a damaged file makes the backend unavailable with a message, where
 * dlopen would crash. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "elf_check.h"
#include "lib_search.h"
#include "module.h"

/* The entry points, each under the name its library exports. */
struct cuda_driver_calls cu;
struct cuda_nvrtc_calls nvrtc;
struct cuda_blas_calls blas;

/* ---- loading libraries ---- */

/* dlopen of file (a soname or a path) by the path it resolves to
 * (sb_lib_resolve), once that file passed the ELF check: never by a bare
 * soname, whose resolution by the loader could open a FIFO and block.
 * NULL with the reason in why, *damaged set when the check refused it
 * ("damaged: PATH (why)"); dlopen is not called then, nor when no
 * directory holds it ("No such file"). */
void *open_library(const char *file, int *damaged, char *why, size_t n)
{
    char path[4096];
    int r = sb_lib_resolve(file, path, sizeof path, why, n);
    *damaged = r < 0;
    if (r != 0)
        return NULL;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
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
int load_driver(void)
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
int load_nvrtc(void)
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
int load_cupti(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = load_cupti_now();
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Devices measured at the same time may each reach their first vendor
 * call at once: one of them loads. */
int load_cublas(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = load_cublas_now();
    pthread_mutex_unlock(&lock);
    return rc;
}
