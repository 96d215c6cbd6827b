/* The CUDA backend: the driver API for devices, memory and launches, NVRTC
 * for building kernels, cuBLAS for the vendor reference rows, CUPTI for
 * the counters.  This file is the module's one exported value, the
 * backend.h table; the entries live in files named by their job
 * (devices.c, programs.c, memory.c, timing.c, launches.c, vendor.c), the
 * libraries they call in libraries.c.
 *
 * The module links none of the libraries and needs no CUDA toolkit to
 * build: cuda_api.h declares what it uses, and each library is dlopen'ed
 * at run time (libraries.c). */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "module.h"

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
