/* `simtbench model` on any argument list: an answer or one usage line,
 * never a crash, a hang or undefined behaviour. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cmd_model.h"
#include "fuzz.h"

const char sb_fuzz_corpus[] = "model";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[4096], *argv[64];
    int argc = sb_fuzz_argv(data, size, "model", argv, 64, buf, sizeof buf);
    /* The answers are not what is under test: into /dev/null with them. */
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), errfd = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    int st = sb_cmd_model(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(errfd, 2);
    close(out);
    close(errfd);
    close(null);
    if (st < 0 || st > 2)
        __builtin_trap(); /* only the documented statuses */
    return 0;
}
