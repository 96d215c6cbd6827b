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

#endif
