/* The shared part of one experiment on one session (workspace.h). */
#include "run/workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/variant.h"
#include "run/host_data.h"
#include "run/registry.h"

#define SB_MAX_CACHED_INPUTS 8

struct sb_workspace {
    const sb_backend *vt;
    sb_device *dev;
    int nprograms;
    struct {
        char key[SB_MAX_DEFINES * 40 + 8];
        sb_program *prog;
    } program[SB_MAX_VARIANTS];
    int ninputs;
    struct {
        const void *init;
        size_t bytes;
        sb_buffer *buf;
    } input[SB_MAX_CACHED_INPUTS];
    void *host_out[SB_MAX_BUFFERS];
    size_t host_out_bytes[SB_MAX_BUFFERS];
    void *poison;
    size_t poison_bytes;
};

sb_workspace *sb_workspace_new(const sb_backend *vt, sb_device *dev)
{
    sb_workspace *w = calloc(1, sizeof *w);
    if (w) {
        w->vt = vt;
        w->dev = dev;
    }
    return w;
}

void sb_workspace_free(sb_workspace *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->nprograms; i++)
        w->vt->release_program(w->program[i].prog);
    for (int i = 0; i < w->ninputs; i++)
        w->vt->free(w->input[i].buf);
    for (int i = 0; i < SB_MAX_BUFFERS; i++)
        free(w->host_out[i]);
    free(w->poison);
    free(w);
}

sb_program *sb_workspace_program(sb_workspace *w, const char *source, const sb_variant *v,
                                 char *err, size_t n)
{
    char key[sizeof w->program[0].key];
    sb_variant_params(v, key, sizeof key);
    for (int i = 0; i < w->nprograms; i++)
        if (strcmp(w->program[i].key, key) == 0)
            return w->program[i].prog;
    const char *defs[SB_MAX_DEFINES];
    for (int i = 0; i < v->ndefines; i++)
        defs[i] = v->defines[i];
    sb_program *p = NULL;
    if (w->vt->build(w->dev, source, defs, v->ndefines, &p)) {
        snprintf(err, n, "%s", sb_registry_error(w->vt));
        return NULL;
    }
    if (w->nprograms < SB_MAX_VARIANTS) {
        snprintf(w->program[w->nprograms].key, sizeof w->program[0].key, "%s", key);
        w->program[w->nprograms++].prog = p;
    }
    return p;
}

sb_buffer *sb_workspace_input(sb_workspace *w, const void *init, size_t bytes)
{
    const sb_backend *vt = w->vt;
    for (int i = 0; i < w->ninputs; i++)
        if (w->input[i].init == init && w->input[i].bytes == bytes)
            return w->input[i].buf;
    if (w->ninputs == SB_MAX_CACHED_INPUTS) {
        vt->free(w->input[0].buf);
        memmove(&w->input[0], &w->input[1], sizeof w->input[0] * (SB_MAX_CACHED_INPUTS - 1));
        w->ninputs--;
    }
    sb_buffer *b = NULL;
    if (vt->alloc(w->dev, bytes, &b))
        return NULL;
    if (vt->upload(b, init, bytes)) {
        vt->free(b);
        return NULL;
    }
    w->input[w->ninputs].init = init;
    w->input[w->ninputs].bytes = bytes;
    w->input[w->ninputs++].buf = b;
    return b;
}

/* A host buffer of at least bytes in *slot, grown as needed. */
static void *grown(void **slot, size_t *have, size_t bytes, char *err, size_t n)
{
    if (*have >= bytes && *slot)
        return *slot;
    free(*slot);
    *slot = sb_host_alloc(bytes, err, n);
    *have = *slot ? bytes : 0;
    return *slot;
}

void *sb_workspace_output(sb_workspace *w, int index, size_t bytes, char *err, size_t n)
{
    return grown(&w->host_out[index], &w->host_out_bytes[index], bytes, err, n);
}

void *sb_workspace_poison(sb_workspace *w, size_t bytes, char *err, size_t n)
{
    if (w->poison_bytes >= bytes && w->poison)
        return w->poison;
    if (!grown(&w->poison, &w->poison_bytes, bytes, err, n))
        return NULL;
    sb_poison(w->poison, bytes);
    return w->poison;
}
