#define _GNU_SOURCE
#include "lib_search.h"

#include "elf_check.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__ILP32__)
#define SB_TRIPLET "x86_64-linux-gnux32"
#elif defined(__x86_64__)
#define SB_TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define SB_TRIPLET "aarch64-linux-gnu"
#elif defined(__i386__)
#define SB_TRIPLET "i386-linux-gnu"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SB_TRIPLET "powerpc64le-linux-gnu"
#elif defined(__s390x__)
#define SB_TRIPLET "s390x-linux-gnu"
#elif defined(__riscv) && __riscv_xlen == 64
#define SB_TRIPLET "riscv64-linux-gnu"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define SB_TRIPLET "arm-linux-gnueabihf"
#endif

#define LD_CACHE "/etc/ld.so.cache"
#define LD_CACHE_MAX (64u << 20) /* far above any real cache */

/* glibc's elf/dl-cache.h: the format ldconfig has written since 2.32,
 * alone or after the old one. */
#define CACHE_OLD_MAGIC "ld.so-1.7.0"
#define CACHE_NEW_MAGIC "glibc-ld.so.cache1.1"
struct cache_old_entry {
    int32_t flags;
    uint32_t key, value;
};
struct cache_new_header {
    char magic[sizeof CACHE_NEW_MAGIC - 1];
    uint32_t nlibs, len_strings;
    uint8_t flags, padding[3];
    uint32_t extension_offset, unused[3];
};
struct cache_new_entry {
    int32_t flags;
    uint32_t key, value; /* string offsets from the new header */
    uint32_t osversion;
    uint64_t hwcap; /* non-zero: a glibc-hwcaps subdirectory's copy */
};

/* Whether dir/soname is a file the loader would take: readable, and not
 * of another class or machine (which it passes over).  A FIFO or a device
 * under that name is taken too: the loader would open it and block (or
 * read a device), so sb_lib_check must see it and refuse it before dlopen
 * does. */
static int take(const char *dir, const char *soname, char *path, size_t n)
{
    if (snprintf(path, n, "%s/%s", *dir ? dir : ".", soname) >= (int)n)
        return 0;
    struct stat st;
    if (stat(path, &st) != 0 || S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode))
        return 0;
    if (!S_ISREG(st.st_mode))
        return 1;
    return access(path, R_OK) == 0 && !sb_elf_is_foreign(path);
}

/* The first directory of a ':' or ';' separated list that holds soname;
 * entries with dynamic string tokens ($ORIGIN) are left out. */
static int search_list(const char *list, const char *soname, char *path, size_t n)
{
    char *copy = list ? strdup(list) : NULL;
    int found = 0;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":;", &save) : NULL; dir && !found;
         dir = strtok_r(NULL, ":;", &save))
        found = !strchr(dir, '$') && take(dir, soname, path, n);
    free(copy);
    return found;
}

/* The whole cache file, malloc'd, its size in *size; NULL when absent. */
static char *read_cache(size_t *size)
{
    int fd = open(LD_CACHE, O_RDONLY | O_CLOEXEC);
    struct stat st;
    char *data = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size < LD_CACHE_MAX &&
        (data = malloc((size_t)st.st_size))) {
        size_t got = 0;
        ssize_t r;
        while (got < (size_t)st.st_size && (r = read(fd, data + got, (size_t)st.st_size - got)) > 0)
            got += (size_t)r;
        *size = got;
    }
    if (fd >= 0)
        close(fd);
    return data;
}

/* Where the new-format part starts: at 0, or after the old part, aligned
 * as ldconfig aligns it; -1 when there is none. */
static long new_part(const char *data, size_t size)
{
    size_t at = 0;
    if (size >= sizeof CACHE_OLD_MAGIC + 4 &&
        memcmp(data, CACHE_OLD_MAGIC, sizeof CACHE_OLD_MAGIC - 1) == 0) {
        uint32_t nold;
        memcpy(&nold, data + 12, sizeof nold);
        at = 16 + (size_t)nold * sizeof(struct cache_old_entry);
        at = (at + 7) & ~(size_t)7;
    }
    if (at > size || size - at < sizeof(struct cache_new_header) ||
        memcmp(data + at, CACHE_NEW_MAGIC, sizeof CACHE_NEW_MAGIC - 1) != 0)
        return -1;
    return (long)at;
}

/* The string at off from base, or NULL when it does not end inside. */
static const char *cache_string(const char *base, size_t room, uint32_t off)
{
    if (off >= room || !memchr(base + off, '\0', room - off))
        return NULL;
    return base + off;
}

/* The first entry of /etc/ld.so.cache for soname that the loader would
 * take. */
static int search_cache(const char *soname, char *path, size_t n)
{
    size_t size = 0;
    char *data = read_cache(&size);
    long at = data ? new_part(data, size) : -1;
    int found = 0;
    if (at >= 0) {
        const char *base = data + at;
        size_t room = size - (size_t)at;
        struct cache_new_header h;
        memcpy(&h, base, sizeof h);
        size_t max = (room - sizeof h) / sizeof(struct cache_new_entry);
        for (size_t i = 0; i < h.nlibs && i < max && !found; i++) {
            struct cache_new_entry e;
            memcpy(&e, base + sizeof h + i * sizeof e, sizeof e);
            const char *key = cache_string(base, room, e.key);
            const char *value = cache_string(base, room, e.value);
            if (e.hwcap || !key || !value || strcmp(key, soname) != 0 || strlen(value) >= n)
                continue;
            snprintf(path, n, "%s", value);
            found = !sb_elf_is_foreign(path) && access(path, R_OK) == 0;
        }
    }
    free(data);
    return found;
}

static int search_standard(const char *soname, char *path, size_t n)
{
    static const char *const dirs[] = {
#ifdef SB_TRIPLET
        "/lib/" SB_TRIPLET, "/usr/lib/" SB_TRIPLET,
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
        "/usr/local/nvidia/lib64", "/usr/local/cuda/lib64",
    };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (take(dirs[i], soname, path, n))
            return 1;
    return 0;
}

int sb_lib_find(const char *soname, char *path, size_t n)
{
    if (strchr(soname, '/')) {
        struct stat st;
        return snprintf(path, n, "%s", soname) < (int)n && stat(path, &st) == 0 ? 0 : -1;
    }
    if (search_list(getenv("LD_LIBRARY_PATH"), soname, path, n) ||
        search_cache(soname, path, n) || search_standard(soname, path, n))
        return 0;
    return -1;
}

int sb_lib_check(const char *soname, char *why, size_t n)
{
    char path[4096], reason[256];
    if (sb_lib_find(soname, path, sizeof path) != 0 ||
        sb_elf_check(path, reason, sizeof reason) == 0)
        return 0;
    snprintf(why, n, "damaged: %s (%s)", path, reason);
    return -1;
}

int sb_lib_resolve(const char *soname, char *path, size_t n, char *why, size_t wn)
{
    char reason[256];
    if (sb_lib_find(soname, path, n) != 0) {
        snprintf(why, wn, "%s: cannot open shared object file: No such file or directory",
                 soname);
        return 1;
    }
    if (sb_elf_check(path, reason, sizeof reason) != 0) {
        snprintf(why, wn, "damaged: %s (%s)", path, reason);
        return -1;
    }
    return 0;
}

/* Whether name looks like a shared library's: "x.so" or "x.so.N...". */
static int library_name(const char *name)
{
    const char *so = strstr(name, ".so");
    for (; so; so = strstr(so + 1, ".so"))
        if (so[3] == '\0' || so[3] == '.')
            return 1;
    return 0;
}

/* What a file that the loader must not open is, or NULL for a regular
 * file, a folder, or a name that is not there. */
static const char *hazard_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
        return NULL;
    return S_ISFIFO(st.st_mode)  ? "a FIFO"
           : S_ISCHR(st.st_mode) ? "a character device"
           : S_ISBLK(st.st_mode) ? "a block device"
           : S_ISSOCK(st.st_mode) ? "a socket"
                                  : "not a regular file";
}

int sb_lib_path_hazard(char *why, size_t n)
{
    const char *list = getenv("LD_LIBRARY_PATH");
    char *copy = list && *list ? strdup(list) : NULL;
    int found = 0;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":;", &save) : NULL; dir && !found;
         dir = strtok_r(NULL, ":;", &save)) {
        DIR *d = strchr(dir, '$') ? NULL : opendir(dir);
        for (struct dirent *e; d && !found && (e = readdir(d));) {
            char path[4096];
            if (!library_name(e->d_name) ||
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
                continue;
            const char *kind = hazard_kind(path);
            if (kind) {
                snprintf(why, n,
                         "LD_LIBRARY_PATH holds %s, %s and not a library: the dynamic loader "
                         "would block or fail opening it for any library that loads %s by "
                         "name (a driver's too); remove it or take %s off LD_LIBRARY_PATH",
                         path, kind, e->d_name, dir);
                found = 1;
            }
        }
        if (d)
            closedir(d);
    }
    free(copy);
    return found ? -1 : 0;
}
