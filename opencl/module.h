/* What the OpenCL backend's files share: the objects behind backend.h's
 * opaque types, CLBlast's entry points (vendor.c), the per-thread error
 * text, and the functions one file gives another.  Nothing here leaves
 * the module: the one symbol it exports is simtbench_backend (module.c). */
#ifndef SB_OPENCL_MODULE_H
#define SB_OPENCL_MODULE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "batch_rules.h"
#include "clblast_api.h"

#pragma GCC visibility push(hidden)

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

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

/* The last error's text, per thread: builds run on several threads at
 * once (concurrent_build). */
extern _Thread_local char last_error_text[2048];

/* CLBlast's entry points, filled by load_clblast (vendor.c). */
#define DECLARE(f) sb_##f##_fn f;
struct ocl_clblast_calls {
    SB_CLBLAST_CALLS(DECLARE)
};
#undef DECLARE
extern struct ocl_clblast_calls clblast;

/* errors.c */
const char *cl_error_name(cl_int e);
int set_error(const char *fmt, ...);
int cl_fail(const char *call, cl_int e);
const char *ocl_last_error(void);

/* platforms.c */
int get_platforms(cl_platform_id *ids, cl_uint *count);
void info_string(cl_platform_id p, cl_device_id d, cl_uint what, char *out, size_t n);
int is_pocl(cl_platform_id p);
void pocl_cache_dir(char *dir, size_t n);
cl_uint get_devices(cl_platform_id p, cl_device_id *ids);
int cache_error(const char *dir);
int ocl_probe(void);

/* devices.c */
int ocl_enumerate(sb_device_info *out, int max);
int ocl_open(const sb_device_request *req, sb_device **out, sb_device_info *info);
void ocl_close(sb_device *dev);
int ocl_clocks(sb_device *dev, int *sm_mhz, int *mem_mhz);

/* programs.c */
int ocl_build(sb_device *dev, const char *source, const char *const *defines, int ndefines,
              sb_program **out);
int ocl_program_ptx(sb_program *p, char **ptx);
void ocl_release_program(sb_program *p);
int ocl_kernel(sb_program *p, const char *name, sb_kernel **out);
int ocl_kernel_resources(sb_kernel *k, sb_kernel_resources *out);
void ocl_release_kernel(sb_kernel *k);

/* memory.c */
int ocl_alloc(sb_device *dev, size_t bytes, sb_buffer **out);
int ocl_memory(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes);
void ocl_free(sb_buffer *b);
int ocl_upload(sb_buffer *dst, const void *src, size_t bytes);
int ocl_download(void *dst, sb_buffer *src, size_t bytes);
int ocl_fill(sb_buffer *dst, uint32_t word, size_t bytes);
int ocl_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms);

/* timing.c */
int profiled_ms(cl_event begin, cl_event ev, double *ms);
int batch_admits(const sb_device *d, const double *ms, const char *what);
int end_timed_op(sb_device *d, cl_event begin, cl_event ev, const char *what, double *ms);
int end_op(sb_device *d, cl_event ev, const char *what, double *ms);
int ocl_batch_begin(sb_device *d, int max);
int ocl_batch_end(sb_device *d);

/* launches.c */
int ocl_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs, double *ms);
int ocl_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                      int count);

/* vendor.c */
int ocl_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms);
int ocl_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                     double *ms);

#pragma GCC visibility pop

#endif
