/* Kernel sources (kernel_source.h). */
#include "plan/kernel_source.h"

#include "plan/self_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *sb_kernel_dir(const char *file)
{
    static char dir[512];
    char path[600], beside[420] = "";
    const char *env = getenv("SIMTBENCH_KERNEL_PATH");
    /* An uninstalled build made in its source tree keeps them in common/kernels/. */
    if (sb_self_dir(beside, 400) == 0)
        strcat(beside, "/common/kernels");
    const char *dirs[] = {env && *env ? env : NULL, SB_PKGDATADIR "/kernels",
                          beside[0] ? beside : NULL};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i])
            continue;
        snprintf(path, sizeof path, "%s/%s", dirs[i], file);
        if (access(path, R_OK) == 0) {
            snprintf(dir, sizeof dir, "%s", dirs[i]);
            return dir;
        }
    }
    return NULL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, used = 0;
    for (;;) {
        if (cap - used < 4096) {
            cap = cap ? 2 * cap : 16384;
            char *p = realloc(buf, cap + 1);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}

static void not_found(const char *file, char *err, size_t n)
{
    snprintf(err, n,
             "kernel source %s not found (looked in $SIMTBENCH_KERNEL_PATH, %s/kernels and "
             "common/kernels/ beside the program)",
             file, SB_PKGDATADIR);
}

int sb_kernel_check(const char *file, char *err, size_t n)
{
    const char *dir = sb_kernel_dir(file);
    if (!dir) {
        not_found(file, err, n);
        return -1;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    int error = fd < 0 ? errno : fstat(fd, &st) ? errno : S_ISREG(st.st_mode) ? 0 : EISDIR;
    if (fd >= 0)
        close(fd);
    if (error)
        snprintf(err, n, "cannot read kernel source %s: %s", path,
                 error == EISDIR ? "not a regular file" : strerror(error));
    return error ? -1 : 0;
}

static char *load(const char *file, size_t *len, char *err, size_t n)
{
    const char *dir = sb_kernel_dir(file);
    if (!dir) {
        not_found(file, err, n);
        return NULL;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *text = read_file(path, len);
    if (!text)
        snprintf(err, n, "cannot read kernel source %s", path);
    return text;
}

char *sb_kernel_source(const char *prelude, const char *file, char *err, size_t n)
{
    size_t plen, klen;
    char *p = load(prelude, &plen, err, n);
    if (!p)
        return NULL;
    char *k = load(file, &klen, err, n);
    if (!k) {
        free(p);
        return NULL;
    }
    char *all = malloc(plen + klen + 2);
    if (all) {
        memcpy(all, p, plen);
        all[plen] = '\n';
        memcpy(all + plen + 1, k, klen + 1);
    } else {
        snprintf(err, n, "out of memory reading %s", file);
    }
    free(p);
    free(k);
    return all;
}
