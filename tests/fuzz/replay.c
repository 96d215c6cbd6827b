/* Runs a fuzz harness over every file of its corpus (and over any files
 * named on the command line), as a TAP test: the corpus is replayed on
 * every build, with or without libFuzzer. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, size = 0;
    uint8_t *data = malloc(cap);
    for (size_t got; data && (got = fread(data + size, 1, cap - size, f)) > 0;) {
        size += got;
        if (size == cap) {
            uint8_t *more = realloc(data, cap *= 2);
            if (!more) {
                free(data);
                data = NULL;
            }
            data = more;
        }
    }
    fclose(f);
    if (!data)
        return -1;
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (replay(argv[i]))
                return 1;
        return 0;
    }
    const char *top = getenv("SB_TOP_SRCDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", top ? top : ".", sb_fuzz_corpus);
    DIR *d = opendir(dir);
    if (!d) {
        printf("1..0 # SKIP no corpus at %s\n", dir);
        return 0;
    }
    int n = 0, bad = 0;
    char path[1400];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (replay(path)) {
            fprintf(stdout, "# cannot read %s\n", path);
            bad = 1;
        }
        n++;
    }
    closedir(d);
    /* A crash never gets here; a finished replay is the test passing. */
    printf("1..1\n%s 1 - %d inputs of the %s corpus replayed\n", bad ? "not ok" : "ok", n,
           sb_fuzz_corpus);
    return bad;
}
