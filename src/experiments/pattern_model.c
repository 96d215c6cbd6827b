/* The model's reading of a pattern trace: each sampled warp's lanes, as
 * the kernel computed their indices, handed to the access model
 * (common/model.c) as one request; the model counts, nothing here does. */
#include <stdio.h>
#include <string.h>

#include "experiments/pattern.h"
#include "experiments/variant.h"

long sb_pattern_sample_warp(int s, long warps)
{
    return (warps - 1) * s / (SB_PATTERN_SAMPLES - 1);
}

/* One warp's request from its 32 traced ints; 0 lanes taking part: 0. */
static int warp_pattern(const int32_t *lanes, sb_space space, int word, sb_pattern *p,
                        int *reduced)
{
    long idx[SB_WARP_LANES];
    uint32_t active = 0;
    int count = 0;
    for (int l = 0; l < SB_WARP_LANES; l++) {
        idx[l] = 0;
        if (lanes[l] < 0)
            continue;
        *reduced += (lanes[l] & SB_PATTERN_REDUCED) != 0;
        idx[l] = lanes[l] & ~SB_PATTERN_REDUCED;
        active |= 1u << l;
        count++;
    }
    if (count == 0)
        return 0;
    /* A lane that takes no part costs nothing; given an active lane's
       index it leaves the request's alignment as the active lanes make it. */
    int first = __builtin_ctz(active);
    for (int l = 0; l < SB_WARP_LANES; l++)
        if (!(active >> l & 1u))
            idx[l] = idx[first];
    uint32_t mask = count == SB_WARP_LANES ? 0 : active;
    if (space == SB_SPACE_GLOBAL) {
        *p = sb_global_request(word, idx, mask);
        return count;
    }
    *p = sb_pattern_default();
    p->space = SB_SPACE_SHARED;
    p->word_bytes = word;
    p->walk = SB_WALK_LIST;
    p->active = mask;
    for (int l = 0; l < SB_WARP_LANES; l++)
        p->lane_index[l] = (int32_t)idx[l];
    return count;
}

/* The cost that ranks warps: wavefronts in shared memory, sectors in global. */
static int cost_of(const sb_prediction *pr, sb_space space)
{
    return space == SB_SPACE_SHARED ? pr->wavefronts : pr->sectors;
}

int sb_pattern_from_trace(const int32_t *trace, long threads, sb_space space, int word,
                          sb_pattern_traced *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    long warps = (threads + SB_WARP_LANES - 1) / SB_WARP_LANES;
    for (int s = 0; s < SB_PATTERN_SAMPLES; s++) {
        long w = sb_pattern_sample_warp(s, warps);
        if (s > 0 && w == sb_pattern_sample_warp(s - 1, warps))
            continue; /* fewer warps than samples: each once */
        sb_pattern p;
        int k = out->nsamples;
        int lanes = warp_pattern(trace + s * SB_WARP_LANES, space, word, &p, &out->reduced);
        if (lanes == 0) {
            out->idle++;
            continue;
        }
        if (sb_predict(&p, &out->prediction[k])) {
            snprintf(err, n, "warp %ld: the model rejects the traced request: %s", w,
                     sb_pattern_check(&p));
            return -1;
        }
        out->warp[k] = w;
        out->pattern[k] = p;
        out->lanes[k] = lanes;
        if (k > 0 && cost_of(&out->prediction[k], space) >
                         cost_of(&out->prediction[out->worst], space))
            out->worst = k;
        out->nsamples++;
    }
    if (out->nsamples == 0) {
        snprintf(err, n, "no lane of the sampled warps takes part (the mask leaves none)");
        return -1;
    }
    return 0;
}
