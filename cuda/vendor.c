/* The CUDA backend's vendor references: cuBLAS's transpose (cublasSgeam)
 * and matrix product (cublasSgemm), on the device's stream and timed the
 * way every operation is. */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>

#include "module.h"

/* The device's cuBLAS handle, made on the first vendor call and bound to
 * its stream; 0, or -1 with the reason set. */
static int blas_handle(sb_device *d)
{
    if (load_cublas() || use(d))
        return -1;
    if (d->blas)
        return 0;
    sb_cublasHandle_t h = NULL;
    if (blas_failed(blas.cublasCreate_v2(&h), "cublasCreate"))
        return -1;
    if (blas_failed(blas.cublasSetStream_v2(h, d->stream), "cublasSetStream")) {
        blas.cublasDestroy_v2(h);
        return -1;
    }
    d->blas = h;
    return 0;
}

/* cuBLAS is column-major: the row-major rows x cols src is the
 * column-major cols x rows A (lda = cols), the row-major cols x rows dst
 * the column-major rows x cols C (ldc = rows).  C = 1 * A^T + 0 * B with
 * B = C, ldb = ldc and transb = N, the in-place form cuBLAS allows for B. */
int cuda_vendor_transpose(sb_buffer *dst, sb_buffer *src, int rows, int cols, double *ms)
{
    if (rows <= 0 || cols <= 0) {
        set_error("cublasSgeam: a %d x %d matrix has no elements", rows, cols);
        return -1;
    }
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    if (too_big(dst, bytes, "cublasSgeam: the transpose") ||
        too_big(src, bytes, "cublasSgeam: the transpose"))
        return -1;
    if (dst->dev != src->dev) {
        set_error("cublasSgeam: the two buffers belong to different devices");
        return -1;
    }
    sb_device *d = dst->dev;
    char what[96];
    snprintf(what, sizeof what, "cublasSgeam (transpose of %d x %d)", rows, cols);
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || blas_handle(d))
        return -1;
    const float one = 1.0f, zero = 0.0f;
    const float *a = (const float *)(uintptr_t)src->ptr;
    float *c = (float *)(uintptr_t)dst->ptr;
    /* The scalars are read at the call (host pointer mode): the stack is
       fine even when the batch leaves the work running. */
    if ((start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        blas_failed(blas.cublasSgeam(d->blas, SB_CUBLAS_OP_T, SB_CUBLAS_OP_N, rows, cols, &one,
                                     a, cols, &zero, c, rows, c, rows),
                    "%s", what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}

/* Row-major c = a b is column-major c^T = b^T a^T: with the row-major
 * matrices read as column-major ones (b as n x k, ld n; a as k x m, ld
 * k), cuBLAS multiplies b by a into c (n x m, ld n) with no transpose.
 * The handle's default math mode keeps FP32 arithmetic (no TF32). */
int cuda_vendor_sgemm(sb_buffer *c, sb_buffer *a, sb_buffer *b, int m, int n, int k,
                      double *ms)
{
    char what[96];
    snprintf(what, sizeof what, "cublasSgemm (%d x %d times %d x %d)", m, k, k, n);
    if (m <= 0 || n <= 0 || k <= 0) {
        set_error("%s: a matrix has no elements", what);
        return -1;
    }
    if (too_big(a, (size_t)m * (size_t)k * sizeof(float), what) ||
        too_big(b, (size_t)k * (size_t)n * sizeof(float), what) ||
        too_big(c, (size_t)m * (size_t)n * sizeof(float), what))
        return -1;
    if (a->dev != c->dev || b->dev != c->dev) {
        set_error("%s: the buffers belong to different devices", what);
        return -1;
    }
    sb_device *d = c->dev;
    sb_CUevent start, stop;
    if (op_events(d, ms, what, &start, &stop) || blas_handle(d))
        return -1;
    const float one = 1.0f, zero = 0.0f;
    if ((start && cu_failed(cu.cuEventRecord(start, d->stream), "%s: cuEventRecord", what)) ||
        blas_failed(blas.cublasSgemm_v2(d->blas, SB_CUBLAS_OP_N, SB_CUBLAS_OP_N, n, m, k, &one,
                                        (const float *)(uintptr_t)b->ptr, n,
                                        (const float *)(uintptr_t)a->ptr, k, &zero,
                                        (float *)(uintptr_t)c->ptr, n),
                    "%s", what) ||
        (stop && cu_failed(cu.cuEventRecord(stop, d->stream), "%s: cuEventRecord", what)))
        return -1;
    return end_op(d, ms, what);
}
