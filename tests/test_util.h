/* What every simtbench test program shares: cmocka with TAP output, and
 * the TAP way of skipping a whole program with its reason. */
#ifndef SB_TEST_UTIL_H
#define SB_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* cmocka before 1.1.6 has no assert_double_equal. */
#ifndef assert_double_equal
#define assert_double_equal(a, b, eps)                                                             \
    do {                                                                                           \
        double sb_a_ = (a), sb_b_ = (b);                                                           \
        if (!(fabs(sb_a_ - sb_b_) <= (eps)))                                                       \
            fail_msg("%.9g != %.9g (tolerance %g)", sb_a_, sb_b_, (double)(eps));                \
    } while (0)
#endif

/* Automake's TAP driver counts "1..0 # SKIP why" as a skip; cmocka's own
 * skip() prints "not ok", which it counts as a failure. */
static inline int sb_test_skip_all(const char *why)
{
    printf("1..0 # SKIP %s\n", why);
    return 0;
}

/* The exhaustive programs (SB_TEST_ON_ASK, make check-exhaustive): in
 * TESTS, so that the harness has their rules, but run only where
 * SB_EXHAUSTIVE is set (check-exhaustive sets it); make check skips them. */
static inline int sb_test_not_asked(void)
{
#ifdef SB_TEST_ON_ASK
    const char *asked = getenv("SB_EXHAUSTIVE");
    return !asked || !*asked;
#else
    return 0;
#endif
}

/* A test over the whole catalogue may be built as two programs, each with
 * every other experiment (SB_TEST_PART 1: the even places, 2: the odd),
 * so that `make -j` runs the halves side by side; unset, all of them. */
static inline int sb_test_part_has(int index)
{
#if defined(SB_TEST_PART) && SB_TEST_PART > 0
    return index % 2 == SB_TEST_PART - 1;
#else
    return index >= 0;
#endif
}

#define SB_TEST_MAIN(tests)                                                                        \
    do {                                                                                           \
        cmocka_set_message_output(CM_OUTPUT_TAP);                                                  \
        return cmocka_run_group_tests(tests, NULL, NULL);                                          \
    } while (0)

#endif
