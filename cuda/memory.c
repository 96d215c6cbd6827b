/* The CUDA backend's memory: device buffers, pinned host buffers, and
 * what moves between them (uploads, downloads, fills, timed copies). */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "module.h"

#define MIB(bytes) ((double)(bytes) / (1024.0 * 1024.0))

int cuda_alloc(sb_device *d, size_t bytes, sb_buffer **out)
{
    *out = NULL;
    sb_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        set_error("out of host memory");
        return -1;
    }
    if (use(d) ||
        cu_failed(cu.cuMemAlloc_v2(&b->ptr, bytes), "cuMemAlloc of %.1f MiB", MIB(bytes))) {
        free(b);
        return -1;
    }
    b->dev = d;
    b->bytes = bytes;
    *out = b;
    return 0;
}

int cuda_memory(sb_device *d, uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t avail = 0, total = 0;
    *free_bytes = 0;
    *total_bytes = 0;
    if (use(d) || cu_failed(cu.cuMemGetInfo_v2(&avail, &total), "cuMemGetInfo"))
        return -1;
    *free_bytes = avail;
    *total_bytes = total;
    return 0;
}

void cuda_free(sb_buffer *b)
{
    if (!b)
        return;
    if (b->ptr) {
        cu.cuCtxSetCurrent(b->dev->ctx);
        cu.cuMemFree_v2(b->ptr);
    }
    free(b);
}

int too_big(const sb_buffer *b, size_t bytes, const char *what)
{
    if (bytes <= b->bytes)
        return 0;
    set_error("%s of %zu bytes overruns a buffer of %zu bytes", what, bytes, b->bytes);
    return 1;
}

int cuda_upload(sb_buffer *dst, const void *src, size_t bytes)
{
    if (too_big(dst, bytes, "upload") || use(dst->dev) ||
        cu_failed(cu.cuMemcpyHtoD_v2(dst->ptr, src, bytes), "cuMemcpyHtoD of %.1f MiB", MIB(bytes)))
        return -1;
    return 0;
}

int cuda_download(void *dst, sb_buffer *src, size_t bytes)
{
    if (too_big(src, bytes, "download") || use(src->dev) ||
        cu_failed(cu.cuMemcpyDtoH_v2(dst, src->ptr, bytes), "cuMemcpyDtoH of %.1f MiB", MIB(bytes)))
        return -1;
    return 0;
}

int cuda_host_alloc(sb_device *d, size_t bytes, void **p)
{
    *p = NULL;
    if (use(d) || cu_failed(cu.cuMemHostAlloc(p, bytes, 0), "cuMemHostAlloc of %.1f MiB",
                            MIB(bytes)))
        return -1;
    return 0;
}

void cuda_host_free(sb_device *d, void *p)
{
    if (p && use(d) == 0)
        cu.cuMemFreeHost(p);
}

int cuda_fill(sb_buffer *dst, uint32_t word, size_t bytes)
{
    sb_device *d = dst->dev;
    if (too_big(dst, bytes, "fill") || use(d) ||
        cu_failed(cu.cuMemsetD32Async(dst->ptr, word, bytes / 4, d->stream),
                  "cuMemsetD32Async of %.1f MiB", MIB(bytes)) ||
        cu_failed(cu.cuStreamSynchronize(d->stream), "fill: cuStreamSynchronize"))
        return -1;
    return 0;
}

int cuda_copy(sb_buffer *dst, sb_buffer *src, size_t bytes, double *ms)
{
    sb_device *d = dst->dev;
    sb_CUevent start, stop;
    if (too_big(dst, bytes, "copy") || too_big(src, bytes, "copy") ||
        op_events(d, ms, "device-to-device copy", &start, &stop) || use(d) ||
        (start && cu_failed(cu.cuEventRecord(start, d->stream), "copy: cuEventRecord")) ||
        cu_failed(cu.cuMemcpyDtoDAsync_v2(dst->ptr, src->ptr, bytes, d->stream),
                  "cuMemcpyDtoDAsync of %.1f MiB", MIB(bytes)) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "copy: cuEventRecord")))
        return -1;
    return end_op(d, ms, "device-to-device copy");
}
