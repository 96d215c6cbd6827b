/* The OpenCL backend's vendor references: CLBlast (CLBlastSomatcopy,
 * CLBlastSgemm), opened at run time on the first vendor call, never
 * linked, and checked (lib_search.h) before dlopen maps it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lib_search.h"
#include "module.h"

/* CLBlast's entry points, filled by load_clblast. */
struct ocl_clblast_calls clblast;

static int clblast_state; /* 0: not tried yet, 1: usable, -1: not usable */
static char clblast_why[sizeof last_error_text];

/* libclblast, opened, or NULL with the reason set. */
static void *open_clblast(void)
{
    char why[sizeof last_error_text - 128], path[4096];
    int found = sb_lib_resolve(SB_CLBLAST_SONAME, path, sizeof path, why, sizeof why);
    if (found < 0) {
        set_error("CLBlast %s is %s; reinstall CLBlast", SB_CLBLAST_SONAME, why);
        return NULL;
    }
    /* By the path found, never the bare soname (lib_search.h). */
    void *lib = found == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    const char *e = lib || found ? NULL : dlerror();
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
int ocl_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms)
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
int ocl_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
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
