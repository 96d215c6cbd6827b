/* opencl/clblast_api.h against CLBlast's own clblast_c.h.  The OpenCL
 * backend opens CLBlast at run time from its own declarations; wherever
 * CLBlast's header is installed, this test has the compiler check that
 * they have not drifted: each entry point the backend opens has
 * CLBlast's prototype, each status code and constant its value, each type
 * a compatible type of the same size.  A difference is a compile error
 * naming the declaration; built only where configure found clblast_c.h. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <stdio.h>

#include "clblast_api.h"

/* CLBlast's prototype of f is ours, sb_f_fn. */
#define SAME_CALL(f)                                                                             \
    _Static_assert(_Generic(&f, sb_##f##_fn: 1, default: 0),                                     \
                   "clblast_api.h: sb_" #f "_fn is not the prototype of CLBlast's " #f);
/* CLBlast's constant name has our value, SB_name. */
#define SAME_VALUE(name, value)                                                                  \
    _Static_assert((long long)SB_##name == (long long)(name),                                    \
                   "clblast_api.h: SB_" #name " differs from CLBlast's " #name);
/* CLBlast's type t is compatible with ours, sb_t, and as large. */
#define SAME_TYPE(t)                                                                             \
    _Static_assert(_Generic((t){0}, sb_##t: 1, default: 0) && sizeof(t) == sizeof(sb_##t),       \
                   "clblast_api.h: sb_" #t " differs from CLBlast's " #t);

SB_CLBLAST_TYPES(SAME_TYPE)
SB_CLBLAST_STATUS_CODES(SAME_VALUE)
SB_CLBLAST_CONSTANTS(SAME_VALUE)
SB_CLBLAST_CALLS(SAME_CALL)

#define COUNT(...) +1

int main(void)
{
    printf("1..1\n");
    printf("ok 1 - CLBlast: %d entry points, %d status codes, %d constants, %d types agree "
           "with clblast_c.h (CLBlast %d.%d.%d)\n",
           0 SB_CLBLAST_CALLS(COUNT), 0 SB_CLBLAST_STATUS_CODES(COUNT),
           0 SB_CLBLAST_CONSTANTS(COUNT), 0 SB_CLBLAST_TYPES(COUNT), CLBLAST_VERSION_MAJOR,
           CLBLAST_VERSION_MINOR, CLBLAST_VERSION_PATCH);
    return 0;
}
