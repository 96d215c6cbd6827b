#include "exec/trace_pass.h"

#include <stdio.h>
#include <string.h>

#include "exec/registry.h"

static int failed(const sb_backend *vt, const char *what, char *err, size_t en)
{
    snprintf(err, en, "trace pass: %s: %s", what, sb_registry_error(vt));
    return -1;
}

int sb_trace_pass(const sb_backend *vt, sb_device *dev, sb_program *prog, const char *kernel,
                  int32_t n, const sb_launch *geometry, int32_t *out, size_t count, char *err,
                  size_t en)
{
    size_t bytes = count * sizeof *out;
    sb_kernel *k = NULL;
    sb_buffer *buf = NULL;
    if (vt->kernel(prog, kernel, &k))
        return failed(vt, kernel, err, en);
    int rc = -1;
    memset(out, 0xff, bytes); /* -1: a lane that wrote nothing */
    if (vt->alloc(dev, bytes, &buf)) {
        failed(vt, "allocating the trace", err, en);
        goto done;
    }
    if (vt->upload(buf, out, bytes)) {
        failed(vt, "clearing the trace", err, en);
        goto done;
    }
    sb_arg args[2] = {{.kind = SB_ARG_INT, .v.i = n}, {.kind = SB_ARG_BUFFER, .v.buf = buf}};
    if (vt->launch(k, geometry, args, 2, NULL)) {
        failed(vt, "launch", err, en);
        goto done;
    }
    if (vt->download(out, buf, bytes)) {
        failed(vt, "reading the trace back", err, en);
        goto done;
    }
    rc = 0;
done:
    if (buf)
        vt->free(buf);
    vt->release_kernel(k);
    return rc;
}
