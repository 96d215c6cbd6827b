/* The OpenCL backend: any platform (NVIDIA's, PoCL on a CPU, others),
 * OpenCL 1.2 host API, kernels built at run time with the same -D
 * definitions the CUDA backend passes to NVRTC.  CLBlast gives the vendor
 * reference rows wherever it is installed (vendor.c).  This file is the
 * module's one exported value, the backend.h table; the entries live in
 * files named by their job (platforms.c, devices.c, programs.c,
 * memory.c, timing.c, launches.c, vendor.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "module.h"

const sb_backend simtbench_backend = {
    .abi = SB_BACKEND_ABI,
    .name = "opencl",
    .prelude = "prelude_opencl.h",
    .probe = ocl_probe,
    .enumerate = ocl_enumerate,
    .open = ocl_open,
    .close = ocl_close,
    .build = ocl_build,
    .compile_offline = NULL,
    .program_ptx = ocl_program_ptx,
    .release_program = ocl_release_program,
    .kernel = ocl_kernel,
    .release_kernel = ocl_release_kernel,
    .occupancy = NULL,
    .kernel_resources = ocl_kernel_resources,
    .alloc = ocl_alloc,
    .free = ocl_free,
    .upload = ocl_upload,
    .download = ocl_download,
    .fill = ocl_fill,
    .copy = ocl_copy,
    .launch = ocl_launch,
    .last_error = ocl_last_error,
    .vendor_transpose = ocl_vendor_transpose,
    .vendor_transpose_name = "CLBlastSomatcopy",
    .batch_begin = ocl_batch_begin,
    .batch_end = ocl_batch_end,
    .memory = ocl_memory,
    .clocks = ocl_clocks,
    .launch_queued = ocl_launch_queued,
    .vendor_sgemm = ocl_vendor_sgemm,
    .vendor_sgemm_name = "CLBlastSgemm",
};
