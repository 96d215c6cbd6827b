/* The trace pass: a family's trace kernel (experiment.h: trace_kernel)
 * launched once over the plan's grid, its trace read back.  The run does
 * it after timing a variant that has one; `simtbench model --index` does
 * it on any OpenCL device. */
#ifndef SB_TRACE_PASS_H
#define SB_TRACE_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* Launches `kernel` of prog on dev over *geometry with arguments (n, a
   buffer of `count` ints, every one -1 before), and reads the buffer back
   into out.  0, or -1 with the backend's message in err. */
int sb_trace_pass(const sb_backend *vt, sb_device *dev, sb_program *prog, const char *kernel,
                  int32_t n, const sb_launch *geometry, int32_t *out, size_t count, char *err,
                  size_t en);


#include "exec/registry.h"

/* A device opened for trace passes alone (`simtbench model --index`):
 * the named backend's first device, or the first device of the first
 * backend that has one, with a kernel source read through its prelude. */
typedef struct sb_trace_device {
    sb_backend_slot slot;
    sb_device *dev;
    sb_device_info info;
    char *source;
} sb_trace_device;

/* Opens it (backend NULL: any); 0, or -1 with why in err. */
int sb_trace_device_open(sb_trace_device *d, const char *backend, const char *file, char *err,
                         size_t en);

/* Builds the source with defines[0..ndefines) and makes its trace pass;
   0; 1 when the build failed (the compiler's log in err); -1 with why in
   err for any other failure. */
int sb_trace_device_run(sb_trace_device *d, const char *const *defines, int ndefines,
                        const char *kernel, int32_t n, const sb_launch *geometry, int32_t *out,
                        size_t count, char *err, size_t en);

void sb_trace_device_close(sb_trace_device *d);

#endif
