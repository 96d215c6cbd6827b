#include "exec/trace_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/kernel_source.h"
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

/* The first device of the slot's backend, if it has one. */
static int open_first(sb_trace_device *d)
{
    sb_device_request req = {.platform = -1, .device = 0};
    return d->slot.available && sb_registry_open(&d->slot, &req, &d->dev, &d->info) == 0 ? 0 : -1;
}

int sb_trace_device_open(sb_trace_device *d, const char *backend, const char *file, char *err,
                         size_t en)
{
    memset(d, 0, sizeof *d);
    char why[1400] = "no backend with a device";
    for (int b = 0; b < sb_nknown_backends; b++) {
        if (backend && strcmp(backend, sb_known_backends[b]) != 0)
            continue;
        sb_registry_load(sb_known_backends[b], &d->slot);
        if (open_first(d) == 0)
            break;
        snprintf(why, sizeof why, "%s: %s", sb_known_backends[b],
                 d->slot.available ? sb_registry_error(d->slot.vt) : d->slot.reason);
        sb_registry_unload(&d->slot);
        memset(&d->slot, 0, sizeof d->slot);
    }
    if (!d->dev) {
        snprintf(err, en, "no device to trace the expression on (%s)", why);
        return -1;
    }
    d->source = sb_kernel_source(d->slot.vt->prelude, file, err, en);
    if (!d->source) {
        sb_trace_device_close(d);
        return -1;
    }
    return 0;
}

int sb_trace_device_run(sb_trace_device *d, const char *const *defines, int ndefines,
                        const char *kernel, int32_t n, const sb_launch *geometry, int32_t *out,
                        size_t count, char *err, size_t en)
{
    sb_program *prog = NULL;
    if (d->slot.vt->build(d->dev, d->source, defines, ndefines, &prog)) {
        snprintf(err, en, "%s", sb_registry_error(d->slot.vt));
        return 1;
    }
    int rc = sb_trace_pass(d->slot.vt, d->dev, prog, kernel, n, geometry, out, count, err, en);
    d->slot.vt->release_program(prog);
    return rc;
}

void sb_trace_device_close(sb_trace_device *d)
{
    if (d->dev)
        d->slot.vt->close(d->dev);
    if (d->slot.vt)
        sb_registry_unload(&d->slot);
    free(d->source);
    memset(d, 0, sizeof *d);
}
