/* NVRTC's output kept on disk, so that a program built once is not
 * compiled again by the next run (as NVIDIA's OpenCL driver and PoCL keep
 * theirs).  An entry is keyed by everything that makes the output: the
 * source, the -D definitions, the target, the NVRTC version and the
 * options' revision.  Entries are written beside their name and renamed
 * when complete; one that cannot be read back whole is ignored, and a
 * cubin the driver refuses is compiled again, so the cache can make a
 * build faster, never different.  Where: $SIMTBENCH_CACHE_DIR/nvrtc, else
 * $XDG_CACHE_HOME/simtbench/nvrtc, else ~/.cache/simtbench/nvrtc;
 * SIMTBENCH_NVRTC_CACHE=0 turns it off. */
#ifndef SB_NVRTC_CACHE_H
#define SB_NVRTC_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The key of one build. */
uint64_t sb_nvcache_key(const char *source, const char *const *defines, int ndefines,
                        const char *target, int nvrtc_major, int nvrtc_minor);

/* The entry for key: 0 with malloc'd *cubin (*cubin_size bytes), *ptx and
 * *log (NUL-terminated, possibly empty); -1 when there is none, the cache
 * is off, or the entry is not whole. */
int sb_nvcache_load(uint64_t key, char **cubin, size_t *cubin_size, char **ptx, char **log);

/* Keep the outputs of key's build (ptx and log may be NULL); failures are
 * silent: the cache is an optimisation. */
void sb_nvcache_store(uint64_t key, const char *cubin, size_t cubin_size, const char *ptx,
                      const char *log);

#endif
