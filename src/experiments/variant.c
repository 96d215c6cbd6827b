#include "experiments/variant.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_variant_init(sb_variant *v, const char *name, const char *kernel, unsigned bx,
                     unsigned by, unsigned bz)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->kernel, sizeof v->kernel, "%s", kernel ? kernel : "");
    v->block[0] = bx;
    v->block[1] = by;
    v->block[2] = bz;
    v->in_default = 1;
}

void sb_variant_define(sb_variant *v, const char *fmt, ...)
{
    if (v->ndefines >= SB_MAX_DEFINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->defines[v->ndefines], sizeof v->defines[0], fmt, ap);
    va_end(ap);
    v->ndefines++;
}

void sb_variant_params(const sb_variant *v, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < v->ndefines && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", v->defines[i]);
}

static unsigned ceil_div(long a, long b)
{
    return (unsigned)((a + b - 1) / b);
}

void sb_grid_2d(sb_launch *g, const sb_variant *v, long extent_x, long extent_y,
                long per_block_x, long per_block_y)
{
    g->grid[0] = ceil_div(extent_x, per_block_x);
    g->grid[1] = ceil_div(extent_y, per_block_y);
    g->grid[2] = 1;
    memcpy(g->block, v->block, sizeof g->block);
}

long sb_stream_elements(const sb_device_info *dev)
{
    if (!dev->is_gpu)
        return 1L << 20;
    /* 256 MiB per buffer where the API does not say how big the L2 is. */
    double want = dev->l2_bytes ? 4.0 * (double)dev->l2_bytes : 256.0 * 1048576.0;
    long n = 1L << 24;
    while ((double)n * 4.0 < want && n < (1L << 29))
        n *= 2;
    return n;
}
