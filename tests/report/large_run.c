#include "large_run.h"

#include <stdio.h>

int sb_write_large_run(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("{\"schema\": \"simtbench-result/1\", \"tool\": {\"name\": \"simtbench\", "
          "\"version\": \"0\"},\n \"devices\": [{\"backend\": \"b0\", \"name\": \"A\", "
          "\"memcpy_gbs\": 100.5}, {\"backend\": \"b1\", \"name\": \"B\"}],\n \"results\": [\n",
          f);
    for (long i = 0; i < n; i++) {
        long k = i / 2;
        fprintf(f,
                "%s{\"backend\": \"b%ld\", \"device\": %ld, \"experiment\": \"exp%ld\", "
                "\"variant\": \"v%ld\", \"kernel\": \"k\", \"rows\": %ld, \"cols\": 64, "
                "\"unit\": \"GB/s\", \"time_ms\": {\"median\": %.6f, \"min\": 0.1, \"max\": 2, "
                "\"spread\": 0.01}, \"value\": %.3f, \"registers\": 32, \"ptx_memory\": \"%s\"}\n",
                i ? "," : "", i % 2, i % 2, k % 12, k / 24, 64 + 64 * ((k / 12) % 2),
                0.1 + (double)(i % 1000) / 1000.0, 1.0 + (double)(i % 77),
                k % 4 ? "" : "1 x ld.global.f32");
    }
    fputs("]}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
