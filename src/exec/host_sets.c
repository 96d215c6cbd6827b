/* Host buffers for read-backs (host_sets.h). */
#include "exec/host_sets.h"

#include <stdio.h>
#include <stdlib.h>

#include "experiments/experiment.h"
#include "experiments/host_data.h"
#include "exec/registry.h"

struct sb_host_sets {
    const sb_backend *vt;
    sb_device *dev;
    int pinned;
    void *buf[SB_HOST_SETS][SB_MAX_BUFFERS];
    size_t bytes[SB_HOST_SETS][SB_MAX_BUFFERS];
    int module_owned[SB_HOST_SETS][SB_MAX_BUFFERS]; /* from host_alloc */
};

sb_host_sets *sb_host_sets_new(const sb_backend *vt, sb_device *dev, int pinned)
{
    sb_host_sets *h = calloc(1, sizeof *h);
    if (h) {
        h->vt = vt;
        h->dev = dev;
        h->pinned = pinned;
    }
    return h;
}

static void release(sb_host_sets *h, int set, int i)
{
    if (h->module_owned[set][i])
        h->vt->host_free(h->dev, h->buf[set][i]);
    else
        free(h->buf[set][i]);
    h->buf[set][i] = NULL;
    h->bytes[set][i] = 0;
    h->module_owned[set][i] = 0;
}

void sb_host_sets_free(sb_host_sets *h)
{
    if (!h)
        return;
    for (int set = 0; set < SB_HOST_SETS; set++)
        for (int i = 0; i < SB_MAX_BUFFERS; i++)
            if (h->buf[set][i])
                release(h, set, i);
    free(h);
}

void *sb_host_sets_get(sb_host_sets *h, int set, int index, size_t bytes, char *err, size_t n)
{
    if (h->buf[set][index] && h->bytes[set][index] >= bytes)
        return h->buf[set][index];
    if (h->buf[set][index])
        release(h, set, index);
    void *b = NULL;
    /* Page-locked where the module can; plain memory where it cannot. */
    if (h->pinned && h->vt->host_alloc(h->dev, bytes, &b) == 0 && b)
        h->module_owned[set][index] = 1;
    else if (!(b = sb_host_alloc(bytes, err, n)))
        return NULL;
    sb_poison(b, bytes);
    h->buf[set][index] = b;
    h->bytes[set][index] = bytes;
    return b;
}
