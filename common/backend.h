/* The backend vtable: what a GPU programming interface must do for simtbench.
 *
 * A backend is one value of type sb_backend, exported by a loadable module
 * under the symbol SB_BACKEND_SYMBOL.  The frontend owns all policy
 * (sizes, repetitions, statistics, verification); a backend only opens a
 * device, builds programs, moves memory, launches and times.
 *
 * This header is the only one the frontend and the backends share; it uses
 * no CUDA or OpenCL type. */
#ifndef SB_BACKEND_H
#define SB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

/* Bumped whenever the struct below changes layout or meaning. */
#define SB_BACKEND_ABI 9
#define SB_BACKEND_SYMBOL "simtbench_backend"

/* The most operations one batch (batch_begin) may hold. */
#define SB_BATCH_MAX 4096

typedef struct sb_device sb_device;   /* opaque, backend-defined */
typedef struct sb_program sb_program; /* opaque, backend-defined */
typedef struct sb_kernel sb_kernel;   /* opaque, backend-defined */
typedef struct sb_buffer sb_buffer;   /* opaque, backend-defined */

/* How long a device string may be, NUL included: more than any real
 * device's (PoCL's version string is 64 characters).  A longer one is cut
 * between two UTF-8 characters (text.h), never inside one. */
#define SB_DEVICE_STRING 256

/* Everything the backend can tell about one device.  Unknown numbers are 0,
 * unknown strings are empty: a backend never invents a value.  Strings are
 * read at the length the API gives (SB_DEVICE_STRING at most). */
typedef struct sb_device_info {
    int platform_index;      /* OpenCL platform; 0 for CUDA */
    int device_index;        /* index within the platform */
    char platform[SB_DEVICE_STRING]; /* "NVIDIA CUDA", "Portable Computing Language" */
    char name[SB_DEVICE_STRING];     /* "NVIDIA H200" */
    char vendor[SB_DEVICE_STRING];
    char driver[SB_DEVICE_STRING];   /* driver version string */
    char api_version[SB_DEVICE_STRING]; /* "CUDA 13.0" / "OpenCL 3.0 CUDA" */
    char arch[64];           /* "sm_90", or the OpenCL C version */
    int is_gpu;
    int compute_units;       /* multiprocessors / compute units */
    int clock_mhz;           /* core clock */
    int mem_clock_mhz;       /* memory clock, 0 when the API does not say */
    int bus_width_bits;      /* memory bus width, 0 when the API does not say */
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;/* the largest one allocation may be (OpenCL's
                                CL_DEVICE_MAX_MEM_ALLOC_SIZE; CUDA has no
                                such limit: its total memory) */
    uint64_t l2_bytes;       /* last-level cache; 0 when unknown */
    char cache_name[32];     /* what the API calls that cache: "L2" where it is
                                the L2, else the API's own word for it */
    uint64_t local_mem_bytes;/* shared/local memory per block */
    int max_group_size;      /* threads per block / work-items per group */
    int warp_size;           /* 32 on NVIDIA; 0 when the API does not say */
    /* Which physical device this is, where the API says (ABI 8): its PCI
       address as lspci writes it, "0000:3b:00.0" (domain:bus:device.function,
       lower-case hexadecimal; CUDA: cuDeviceGetPCIBusId; OpenCL:
       cl_khr_pci_bus_info or NVIDIA's CL_DEVICE_PCI_BUS_ID_NV), and its UUID
       as 8-4-4-4-12 lower-case hexadecimal digits (CUDA: cuDeviceGetUuid,
       nvidia-smi's "GPU-" UUID without the prefix; OpenCL: cl_khr_device_uuid).
       "" where the API does not say; an all-zero UUID is none. */
    char pci_bus_id[32];
    char uuid[40];
} sb_device_info;

/* Which device to open: negative fields mean "choose for me". */
typedef struct sb_device_request {
    int platform; /* OpenCL only */
    int device;
} sb_device_request;

typedef enum sb_arg_kind { SB_ARG_BUFFER, SB_ARG_INT, SB_ARG_FLOAT } sb_arg_kind;

/* One kernel argument, in the kernel's parameter order. */
typedef struct sb_arg {
    sb_arg_kind kind;
    union {
        sb_buffer *buf;
        int32_t i;
        float f;
    } v;
} sb_arg;

/* What the API's compiler allocated for one kernel.  -1 where the API or
 * platform does not say: a backend never invents a value. */
typedef struct sb_kernel_resources {
    int regs;           /* registers per thread */
    long shared_bytes;  /* static shared (OpenCL: local) memory per block */
    long private_bytes; /* per-thread local (CUDA) / private (OpenCL) memory,
                           spills included */
} sb_kernel_resources;

/* The hardware counts a profiled launch can give, in the frontend's terms;
 * each backend maps them onto its API's metrics (on NVIDIA, CUPTI's range
 * profiler: doc/simtbench.1 lists the metric of each).  Counts are totals
 * over the launch; the last three are a percentage, a percentage and a
 * ratio.  A count the device does not give is NaN. */
typedef enum sb_counter {
    SB_COUNTER_GLOBAL_LD_REQUESTS,   /* warp-level global load requests */
    SB_COUNTER_GLOBAL_ST_REQUESTS,   /* warp-level global store requests */
    SB_COUNTER_GLOBAL_LD_SECTORS,    /* 32-byte sectors those loads touched */
    SB_COUNTER_GLOBAL_ST_SECTORS,    /* 32-byte sectors those stores touched */
    SB_COUNTER_GLOBAL_ATOM_REQUESTS, /* warp-level global atomics and reductions */
    SB_COUNTER_SHARED_LD_REQUESTS,   /* warp-level shared-memory load instructions */
    SB_COUNTER_SHARED_ST_REQUESTS,   /* warp-level shared-memory store instructions */
    SB_COUNTER_SHARED_LD_WAVEFRONTS, /* passes the shared loads took */
    SB_COUNTER_SHARED_ST_WAVEFRONTS, /* passes the shared stores took */
    SB_COUNTER_SHARED_LD_CONFLICTS,  /* bank conflicts of the shared loads */
    SB_COUNTER_SHARED_ST_CONFLICTS,  /* bank conflicts of the shared stores */
    SB_COUNTER_DRAM_READ_BYTES,
    SB_COUNTER_DRAM_WRITE_BYTES,
    SB_COUNTER_L2_HIT_PCT,           /* sectors that hit in L2, per cent */
    SB_COUNTER_WARPS_ACTIVE_PCT,     /* active warps, per cent of the peak, while active */
    SB_COUNTER_THREADS_PER_INST,     /* threads executing per warp instruction: 32 uniform */
    SB_COUNTER_COUNT
} sb_counter;

/* Launch geometry: grid counted in blocks (work-groups), not threads. */
typedef struct sb_launch {
    unsigned grid[3];
    unsigned block[3];
} sb_launch;

/* The optional entries (compile_offline, occupancy, kernel_resources,
 * vendor_transpose, batch_begin and batch_end, memory, fill, host_alloc,
 * host_free, launch_counted, clocks, launch_queued and vendor_sgemm) may be
 * NULL in a module, as each one's comment says; the frontend's registry fills every
 * NULL one with a default when it loads the module, so that the rest of
 * the frontend calls the vtable without testing for NULL.  Every other
 * entry is required. */
typedef struct sb_backend {
    int abi;                   /* SB_BACKEND_ABI */
    const char *name;          /* "cuda", "opencl" */
    const char *prelude;       /* file in the kernel directory that maps the
                                  portable dialect onto this API */
    /* 1: build may be called from several threads at once for one open
       device (the frontend builds an experiment's programs side by side),
       and last_error() is the calling thread's; 0: one call at a time. */
    int concurrent_build;

    /* Is the API usable here?  0 if so; else non-zero with the reason in
       last_error() (e.g. "libcuda.so.1 not found: no NVIDIA driver"). */
    int (*probe)(void);
    /* Fill up to max entries about every device; returns the count or -1. */
    int (*enumerate)(sb_device_info *out, int max);
    /* Open a device; the choice made is described in *info. */
    int (*open)(const sb_device_request *req, sb_device **dev, sb_device_info *info);
    void (*close)(sb_device *dev);

    /* Build source with -D definitions ("TILE=32") for the open device. */
    int (*build)(sb_device *dev, const char *source, const char *const *defines,
                 int ndefines, sb_program **prog);
    /* Build without a device for a named target (CUDA: "sm_90"); NULL where
       the API cannot.  On success *ptx is malloc'd text the caller frees. */
    int (*compile_offline)(const char *source, const char *const *defines, int ndefines,
                           const char *target, char **ptx);
    /* The intermediate code of a built program (PTX on NVIDIA), malloc'd;
       non-zero when the API or platform has none. */
    int (*program_ptx)(sb_program *prog, char **ptx);
    void (*release_program)(sb_program *prog);

    int (*kernel)(sb_program *prog, const char *name, sb_kernel **k);
    void (*release_kernel)(sb_kernel *k);
    /* Blocks of block_threads threads that fit on one multiprocessor at once,
       as the API reports it; NULL or -1 where it cannot. */
    int (*occupancy)(sb_kernel *k, int block_threads, int *blocks_per_unit);
    /* Registers, shared and private memory the compiler gave the kernel
       (CUDA: cuFuncGetAttribute; OpenCL: clGetKernelWorkGroupInfo, and on
       NVIDIA the -cl-nv-verbose build log).  Fills every field of *out,
       -1 for each the API does not give; non-zero with last_error() only
       when the query itself failed.  NULL where the backend cannot. */
    int (*kernel_resources)(sb_kernel *k, sb_kernel_resources *out);

    int (*alloc)(sb_device *dev, size_t bytes, sb_buffer **buf);
    void (*free)(sb_buffer *buf);
    int (*upload)(sb_buffer *dst, const void *src, size_t bytes);
    int (*download)(void *dst, sb_buffer *src, size_t bytes);
    /* Page-locked host memory for read-backs (cuMemHostAlloc), which the
       API copies into at the bus's full speed, and its release; both NULL
       where the backend has none (plain memory is used). */
    int (*host_alloc)(sb_device *dev, size_t bytes, void **p);
    void (*host_free)(sb_device *dev, void *p);
    /* Fill bytes (a multiple of 4) of dst with the 32-bit word, on the
       device (cuMemsetD32Async, clEnqueueFillBuffer), and wait: outputs
       are poisoned this way before the checked launch, without sending the
       poison over the bus.  NULL where the backend cannot; the frontend
       then uploads the poison. */
    int (*fill)(sb_buffer *dst, uint32_t word, size_t bytes);
    /* Device-to-device copy through the API's own copy (cuMemcpyDtoD,
       clEnqueueCopyBuffer), timed with device events when ms is not NULL. */
    int (*copy)(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms);

    /* Launch and wait; when ms is not NULL, the launch alone is timed with
       device events (CUDA events, OpenCL profiling) in milliseconds.  Inside
       a batch (batch_begin), launch, copy, vendor_transpose and vendor_sgemm
       only enqueue. */
    int (*launch)(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                  double *ms);

    /* The message of the last failure, for a user to act on. */
    const char *(*last_error)(void);

    /* The vendor library's out-of-place transpose, for a reference row:
       dst (cols x rows) = transpose of src (rows x cols), row-major float32,
       timed with device events when ms is not NULL.  NULL when the backend
       was built without one; -1 with the reason in last_error() when the
       library cannot be used at run time (not installed, no device). */
    int (*vendor_transpose)(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms);
    const char *vendor_transpose_name; /* "cublasSgeam", "CLBlastSomatcopy" */

    /* Batched timing.  After batch_begin(dev, max), 1 <= max <= SB_BATCH_MAX,
       the timed operations (copy, launch, vendor_transpose, vendor_sgemm
       called with ms != NULL) on that device enqueue their work with their own start/stop
       events (CUDA events, OpenCL profiling events) and return without
       waiting: back to back on the device's one stream/queue, at most max
       of them; the ms they were given is not written yet.  batch_end waits
       for all of them and writes each operation's device time in
       milliseconds through the ms pointer it was given.  Untimed operations
       (ms == NULL), a second batch_begin and operations beyond max fail
       inside a batch; an operation that fails gets no time, and the batch
       stays open for batch_end.  batch_end always ends
       the batch and releases what it held, so the device stays usable; -1
       with last_error() when waiting or reading a time failed (a fault on
       the device, or no batch begun).  These admission rules and their
       messages are batch_rules.h's, shared by every backend.  Both NULL
       where the backend cannot batch: the frontend then times one
       operation at a time. */
    int (*batch_begin)(sb_device *dev, int max);
    int (*batch_end)(sb_device *dev);

    /* The open device's memory now, for checking that a plan fits before
       it runs: *total_bytes as the API counts it, *free_bytes what is free
       (CUDA: cuMemGetInfo in the device's context), 0 where the API cannot
       say (OpenCL has no query for it: 0, "unknown", with the total from
       CL_DEVICE_GLOBAL_MEM_SIZE).  Non-zero with last_error() when the
       query failed; both then 0.  NULL where the backend cannot tell. */
    int (*memory)(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes);

    /* One launch of k, profiled by the API's profiler and never timed:
       waits, and fills counts[0..SB_COUNTER_COUNT) (NaN for each the
       device does not give).  The profiler may replay the kernel and
       restore its memory between passes, so the launch's effect is one
       launch's.  Non-zero with last_error() when the counters cannot be
       had (no profiler library, no permission, a device it does not
       support): the reason, for the report.  NULL where the backend has
       no counters at all.  Not called inside a batch. */
    int (*launch_counted)(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                          double *counts);

    /* The device's SM and memory clocks now, in MHz, as the driver's
       management library reports them (NVML on NVIDIA): the provenance of
       a run records them at its start and its end.  Non-zero with
       last_error() when they cannot be had (the reason, for the report).
       NULL where the backend has no way to ask. */
    int (*clocks)(sb_device *dev, int *sm_mhz, int *mem_mhz);

    /* Launches for the host's clock, which the frontend reads around the
       call: count >= 1 launches of k enqueued back to back with no event,
       then one wait for all of them (cuStreamSynchronize, clFinish), the
       way a benchmark timed on the host launches; where the API times
       through its queue (OpenCL's profiling), on a queue of its own that
       times nothing, as such a benchmark's does.  Refused inside a batch.
       NULL where the backend cannot. */
    int (*launch_queued)(sb_kernel *k, const sb_launch *geometry, const sb_arg *args, int nargs,
                         int count);

    /* The vendor library's matrix multiply, for a reference row: c (m x n)
       = a (m x k) times b (k x n), row-major float32, in FP32 arithmetic
       (no reduced-precision tensor path), timed with device events when ms
       is not NULL: the whole call, every kernel the library runs for it.
       Inside a batch it only enqueues, as launch does.  NULL when the
       backend was built without one; -1 with the reason in last_error()
       when the library cannot be used at run time (not installed). */
    int (*vendor_sgemm)(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                        double *ms);
    const char *vendor_sgemm_name; /* "cublasSgemm", "CLBlastSgemm" */
} sb_backend;

#endif
