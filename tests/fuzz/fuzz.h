/* What the fuzz harnesses share: libFuzzer's entry point, which the
 * replay driver (replay.c) also calls for every file of a corpus, so that
 * `make check` runs each harness over its corpus without libFuzzer. */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input; always returns 0 (libFuzzer's contract). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The harness's corpus folder under tests/fuzz/corpus/. */
extern const char sb_fuzz_corpus[];

/* Split data into at most max NUL-free words at '\n' or '\0' into argv
 * (argv[0] = name), copying into buf of size bytes; returns argc. */
int sb_fuzz_argv(const uint8_t *data, size_t size, const char *name, char **argv, int max,
                 char *buf, size_t bufsize);

#endif
