/* The run command's option parser, on any argument list: one line of usage
 * error or a parsed struct, never a crash or undefined behaviour. */
#include <stdio.h>

#include "cli/options.h"
#include "fuzz.h"

const char sb_fuzz_corpus[] = "options";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[4096], err[512], *argv[64];
    int argc = sb_fuzz_argv(data, size, "simtbench", argv, 64, buf, sizeof buf);
    sb_options o;
    sb_options_defaults(&o);
    int st = sb_options_parse(argc, argv, &o, err, sizeof err);
    if (st && !err[0])
        __builtin_trap(); /* a refusal must say why */
    return 0;
}
