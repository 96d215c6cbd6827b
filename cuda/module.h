/* What the CUDA backend's files share: the entry points of the libraries
 * it opens (libraries.c), the objects behind backend.h's opaque types,
 * the per-thread error text, and the functions one file gives another.
 * Nothing here leaves the module: the one symbol it exports is
 * simtbench_backend (module.c). */
#ifndef SB_CUDA_MODULE_H
#define SB_CUDA_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "batch_rules.h"
#include "counters.h"
#include "cuda_api.h"

#pragma GCC visibility push(hidden)

/* The entry points, each under the name its library exports. */
#define DECLARE(f) sb_##f##_fn f;
struct cuda_driver_calls {
    SB_CUDA_DRIVER_CALLS(DECLARE)
};
struct cuda_nvrtc_calls {
    SB_NVRTC_CALLS(DECLARE)
};
struct cuda_blas_calls {
    SB_CUBLAS_CALLS(DECLARE)
    SB_CUBLAS_OPTIONAL_CALLS(DECLARE) /* NULL where the library has none */
};
#undef DECLARE
extern struct cuda_driver_calls cu;
extern struct cuda_nvrtc_calls nvrtc;
extern struct cuda_blas_calls blas;

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

/* The last error's text, per thread: builds run on several threads at
 * once (concurrent_build). */
extern _Thread_local char last[1024];

/* errors.c */
void set_error(const char *fmt, ...);
int cu_failed(sb_CUresult r, const char *fmt, ...);
int blas_failed(sb_cublasStatus_t s, const char *fmt, ...);
const char *cuda_last_error(void);

/* libraries.c */
void *open_library(const char *file, int *damaged, char *why, size_t n);
int load_driver(void);
int load_nvrtc(void);
int load_cupti(void);
int load_cublas(void);

/* devices.c */
int cuda_probe(void);
int cuda_enumerate(sb_device_info *out, int max);
void cuda_close(sb_device *d);
int cuda_open(const sb_device_request *req, sb_device **out, sb_device_info *info);
int use(sb_device *d);
int cuda_clocks(sb_device *d, int *sm_mhz, int *mem_mhz);

/* programs.c */
void cuda_release_program(sb_program *p);
int cuda_build(sb_device *dev, const char *source, const char *const *defines,
               int ndefines, sb_program **out);
int cuda_compile_offline(const char *source, const char *const *defines, int ndefines,
                         const char *target, char **ptx);
int cuda_program_ptx(sb_program *p, char **ptx);
int cuda_kernel(sb_program *p, const char *name, sb_kernel **out);
void cuda_release_kernel(sb_kernel *k);
int cuda_occupancy(sb_kernel *k, int block_threads, int *blocks_per_unit);
int cuda_kernel_resources(sb_kernel *k, sb_kernel_resources *out);

/* memory.c */
int cuda_alloc(sb_device *d, size_t bytes, sb_buffer **out);
int cuda_memory(sb_device *d, uint64_t *free_bytes, uint64_t *total_bytes);
void cuda_free(sb_buffer *b);
int too_big(const sb_buffer *b, size_t bytes, const char *what);
int cuda_upload(sb_buffer *dst, const void *src, size_t bytes);
int cuda_download(void *dst, sb_buffer *src, size_t bytes);
int cuda_host_alloc(sb_device *d, size_t bytes, void **p);
void cuda_host_free(sb_device *d, void *p);
int cuda_fill(sb_buffer *dst, uint32_t word, size_t bytes);
int cuda_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms);

/* timing.c */
int op_events(sb_device *d, const double *ms, const char *what, sb_CUevent *start,
              sb_CUevent *stop);
int end_op(sb_device *d, double *ms, const char *what);
int cuda_batch_begin(sb_device *d, int max);
int cuda_batch_end(sb_device *d);

/* launches.c */
int cuda_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                double *ms);
int cuda_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                       int count);
int cuda_launch_counted(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                        double *counts);

/* vendor.c */
int cuda_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms);
int cuda_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                      double *ms);

#pragma GCC visibility pop

#endif
