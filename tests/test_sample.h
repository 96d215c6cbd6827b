/* make check's sample of an experiment's variants, for the tests that
 * build every variant of the catalogue (on PoCL, through NVRTC): each
 * variant is a build of its own, and these builds were most of make
 * check's time.  The sample holds every kernel entry point once in each
 * role, vendor call and block shape, every baseline, and SB_TEST_SPREAD
 * variants spread over the rest.  Built with SB_TEST_EXHAUSTIVE (make
 * check-exhaustive, which CI runs): every variant. */
#ifndef SB_TEST_SAMPLE_H
#define SB_TEST_SAMPLE_H

#include <string.h>

#include "experiments/experiment.h"

#define SB_TEST_SPREAD 2

#ifdef SB_TEST_EXHAUSTIVE
#define SB_TEST_SAMPLING 0
#else
#define SB_TEST_SAMPLING 1
#endif

/* Whether variant i of the n in vs is in the sample. */
static inline int sb_test_sampled(const sb_variant *vs, int n, int i)
{
    int step = n > SB_TEST_SPREAD ? (n + SB_TEST_SPREAD - 1) / SB_TEST_SPREAD : 1;
    if (!SB_TEST_SAMPLING || vs[i].baseline || i % step == 0)
        return 1;
    for (int j = 0; j < i; j++)
        if (strcmp(vs[j].kernel, vs[i].kernel) == 0 && vs[j].role == vs[i].role &&
            vs[j].vendor == vs[i].vendor && memcmp(vs[j].block, vs[i].block, sizeof vs[i].block) == 0)
            return 0;
    return 1;
}

#endif
