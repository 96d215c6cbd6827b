/* The NVRTC cache (nvrtc_cache.h). */
#include "nvrtc_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bumped whenever the backend's NVRTC options change. */
#define OPTIONS_REVISION "simtbench-nvrtc-options-1"
#define MAGIC "SBNVRTC1"

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* A string and its terminating NUL, so that "ab" "c" and "a" "bc" differ. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s, strlen(s) + 1);
}

uint64_t sb_nvcache_key(const char *source, const char *const *defines, int ndefines,
                        const char *target, int nvrtc_major, int nvrtc_minor)
{
    char version[32];
    snprintf(version, sizeof version, "%d.%d", nvrtc_major, nvrtc_minor);
    uint64_t h = fnv_str(0xcbf29ce484222325ull, OPTIONS_REVISION);
    h = fnv_str(h, version);
    h = fnv_str(h, target);
    for (int i = 0; i < ndefines; i++)
        h = fnv_str(h, defines[i]);
    return fnv_str(h, source);
}

/* The cache's folder, made if needed; 0, or -1 when off or unusable. */
static int cache_dir(char *dir, size_t n)
{
    const char *off = getenv("SIMTBENCH_NVRTC_CACHE");
    if (off && strcmp(off, "0") == 0)
        return -1;
    const char *mine = getenv("SIMTBENCH_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    char base[4096];
    if (mine && *mine)
        snprintf(base, sizeof base, "%s", mine);
    else if (xdg && *xdg)
        snprintf(base, sizeof base, "%s/simtbench", xdg);
    else if (home && *home)
        snprintf(base, sizeof base, "%s/.cache/simtbench", home);
    else
        return -1;
    if ((size_t)snprintf(dir, n, "%s/nvrtc", base) >= n)
        return -1;
    /* Up to two levels are made: the cache's own folders. */
    if ((mkdir(base, 0777) != 0 && errno != EEXIST) || (mkdir(dir, 0777) != 0 && errno != EEXIST))
        return -1;
    return 0;
}

static int path_of(uint64_t key, char *path, size_t n)
{
    char dir[4096];
    if (cache_dir(dir, sizeof dir))
        return -1;
    return (size_t)snprintf(path, n, "%s/%016llx", dir, (unsigned long long)key) < n ? 0 : -1;
}

/* One length-prefixed blob, NUL-terminated in memory; NULL when the file
   ends first or the length is past what is left of it. */
static char *read_blob(FILE *f, long left, size_t *size)
{
    uint64_t len;
    if (fread(&len, sizeof len, 1, f) != 1 || len > (uint64_t)left)
        return NULL;
    char *b = malloc((size_t)len + 1);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        return NULL;
    }
    b[len] = '\0';
    *size = (size_t)len;
    return b;
}

int sb_nvcache_load(uint64_t key, char **cubin, size_t *cubin_size, char **ptx, char **log)
{
    char path[4200], magic[sizeof MAGIC - 1];
    struct stat st;
    *cubin = *ptx = *log = NULL;
    FILE *f = path_of(key, path, sizeof path) ? NULL : fopen(path, "rb");
    if (!f)
        return -1;
    size_t psize, lsize;
    long left = fstat(fileno(f), &st) == 0 ? (long)st.st_size : 0;
    int ok = fread(magic, 1, sizeof magic, f) == sizeof magic &&
             memcmp(magic, MAGIC, sizeof magic) == 0 &&
             (*cubin = read_blob(f, left, cubin_size)) && *cubin_size > 0 &&
             (*ptx = read_blob(f, left, &psize)) && (*log = read_blob(f, left, &lsize)) &&
             fgetc(f) == EOF;
    fclose(f);
    if (ok)
        return 0;
    free(*cubin);
    free(*ptx);
    free(*log);
    *cubin = *ptx = *log = NULL;
    return -1;
}

static int write_blob(FILE *f, const void *data, size_t size)
{
    uint64_t len = size;
    return fwrite(&len, sizeof len, 1, f) == 1 && (size == 0 || fwrite(data, 1, size, f) == size)
               ? 0
               : -1;
}

void sb_nvcache_store(uint64_t key, const char *cubin, size_t cubin_size, const char *ptx,
                      const char *log)
{
    char path[4200], tmp[4300];
    if (!cubin || cubin_size == 0 || path_of(key, path, sizeof path))
        return;
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return;
    }
    int bad = fwrite(MAGIC, 1, sizeof MAGIC - 1, f) != sizeof MAGIC - 1 ||
              write_blob(f, cubin, cubin_size) || write_blob(f, ptx ? ptx : "", ptx ? strlen(ptx) : 0) ||
              write_blob(f, log ? log : "", log ? strlen(log) : 0);
    if (fclose(f) || bad || rename(tmp, path))
        unlink(tmp);
}
