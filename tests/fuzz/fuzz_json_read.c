/* The saved-run reader on any bytes: a run, or one line saying what is
 * wrong, never a crash or undefined behaviour (out-of-range numbers cast
 * to integers among them). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "report/json_read.h"

const char sb_fuzz_corpus[] = "json_read";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/simtbench-fuzz-%ld.json", (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    sb_run run;
    char err[1024] = "";
    if (sb_run_read_json(path, &run, err, sizeof err) == 0)
        sb_run_free(&run);
    else if (!err[0])
        __builtin_trap(); /* a refusal must say why */
    unlink(path);
    return 0;
}
