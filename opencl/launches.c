/* The OpenCL backend's launches: a kernel's arguments and grid given to
 * clEnqueueNDRangeKernel, timed, or queued without profiling for the
 * host's clock. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>

#include "module.h"

/* The kernel's arguments set, in order; 0, or -1 with the reason set. */
static int set_args(const sb_kernel *k, const sb_arg *args, int nargs)
{
    for (int i = 0; i < nargs; i++) {
        cl_int e;
        switch (args[i].kind) {
        case SB_ARG_BUFFER:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_mem), &args[i].v.buf->mem);
            break;
        case SB_ARG_INT:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_int), &args[i].v.i);
            break;
        default:
            e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_float), &args[i].v.f);
            break;
        }
        if (e != CL_SUCCESS)
            return set_error("clSetKernelArg(%s, %d) failed: %s", k->name, i, cl_error_name(e));
    }
    return 0;
}

/* One clEnqueueNDRangeKernel of k over the grid on queue; its event into
 * *ev unless ev is NULL. */
static int enqueue_kernel(const sb_kernel *k, cl_command_queue queue, const sb_launch *g,
                          cl_event *ev)
{
    size_t global[3], local[3];
    cl_uint dims = 1;
    for (int d = 0; d < 3; d++) {
        local[d] = g->block[d];
        global[d] = (size_t)g->grid[d] * g->block[d];
        if (d > 0 && (g->grid[d] > 1 || g->block[d] > 1))
            dims = (cl_uint)d + 1;
    }
    cl_int e = clEnqueueNDRangeKernel(queue, k->kernel, dims, NULL, global, local, 0, NULL, ev);
    if (e != CL_SUCCESS)
        return set_error("clEnqueueNDRangeKernel(%s) failed: %s", k->name, cl_error_name(e));
    return 0;
}

int ocl_launch(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs, double *ms)
{
    char what[96];
    snprintf(what, sizeof what, "kernel %s", k->name);
    cl_event ev;
    if (batch_admits(k->dev, ms, what) || set_args(k, args, nargs) ||
        enqueue_kernel(k, k->dev->queue, g, &ev))
        return -1;
    return end_op(k->dev, ev, what, ms);
}

/* The profiling queue's commands are timed whether asked or not, which a
 * benchmark timed on the host does not pay: these launches go on a queue
 * without profiling, after the profiling queue's work, with no event, and
 * one clFinish drains them. */
int ocl_launch_queued(sb_kernel *k, const sb_launch *g, const sb_arg *args, int nargs,
                      int count)
{
    sb_device *d = k->dev;
    if (count < 1)
        return set_error("kernel %s: %d launches queued; at least one is", k->name, count);
    if (d->batch.open)
        return set_error("kernel %s: launches for the host's clock cannot join a batch",
                         k->name);
    cl_int e = clFinish(d->queue);
    if (e != CL_SUCCESS)
        return cl_fail("clFinish before queued launches", e);
    if (!d->untimed && !(d->untimed = clCreateCommandQueue(d->context, d->id, 0, &e)))
        return cl_fail("clCreateCommandQueue (without profiling)", e);
    if (set_args(k, args, nargs))
        return -1;
    for (int i = 0; i < count; i++)
        if (enqueue_kernel(k, d->untimed, g, NULL))
            return -1;
    e = clFinish(d->untimed);
    if (e != CL_SUCCESS)
        return set_error("kernel %s x %d failed on the device: %s", k->name, count,
                         cl_error_name(e));
    return 0;
}
