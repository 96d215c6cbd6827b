/* The OpenCL backend's memory: buffers, what the device says is free,
 * and what moves between host and device (uploads, downloads, fills,
 * timed copies). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdlib.h>

#include "module.h"

int ocl_alloc(sb_device *dev, size_t bytes, sb_buffer **out)
{
    cl_int e;
    cl_mem m = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &e);
    if (!m)
        return set_error("clCreateBuffer of %.1f MiB failed: %s", bytes / 1048576.0,
                         cl_error_name(e));
    sb_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        clReleaseMemObject(m);
        return set_error("out of memory");
    }
    b->dev = dev;
    b->mem = m;
    b->bytes = bytes;
    *out = b;
    return 0;
}

/* OpenCL 1.2 has no query for free memory (only vendor extensions do):
 * free is 0, "unknown", and the total is what the device reports. */
int ocl_memory(sb_device *dev, uint64_t *free_bytes, uint64_t *total_bytes)
{
    cl_ulong total = 0;
    *free_bytes = 0;
    *total_bytes = 0;
    cl_int e = clGetDeviceInfo(dev->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof total, &total, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)", e);
    *total_bytes = total;
    return 0;
}

void ocl_free(sb_buffer *b)
{
    if (!b)
        return;
    clReleaseMemObject(b->mem);
    free(b);
}

int ocl_upload(sb_buffer *dst, const void *src, size_t bytes)
{
    cl_int e = clEnqueueWriteBuffer(dst->dev->queue, dst->mem, CL_TRUE, 0, bytes, src, 0, NULL,
                                    NULL);
    return e == CL_SUCCESS ? 0 : cl_fail("clEnqueueWriteBuffer", e);
}

int ocl_download(void *dst, sb_buffer *src, size_t bytes)
{
    cl_int e = clEnqueueReadBuffer(src->dev->queue, src->mem, CL_TRUE, 0, bytes, dst, 0, NULL,
                                   NULL);
    return e == CL_SUCCESS ? 0 : cl_fail("clEnqueueReadBuffer", e);
}

int ocl_fill(sb_buffer *dst, uint32_t word, size_t bytes)
{
    cl_int e = clEnqueueFillBuffer(dst->dev->queue, dst->mem, &word, sizeof word, 0, bytes, 0,
                                   NULL, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clEnqueueFillBuffer", e);
    e = clFinish(dst->dev->queue);
    return e == CL_SUCCESS ? 0 : cl_fail("clFinish after clEnqueueFillBuffer", e);
}

int ocl_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    sb_device *d = dst->dev;
    if (batch_admits(d, ms, "clEnqueueCopyBuffer"))
        return -1;
    cl_event ev;
    cl_int e = clEnqueueCopyBuffer(d->queue, src->mem, dst->mem, 0, 0, bytes, 0, NULL, &ev);
    if (e != CL_SUCCESS)
        return cl_fail("clEnqueueCopyBuffer", e);
    return end_op(d, ev, "clEnqueueCopyBuffer", ms);
}
