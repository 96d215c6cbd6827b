/* Output paths checked before anything is measured (output_path.h). */
#include "plan/output_path.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* As the kernel's own limit on symlinks followed in one lookup. */
#define MAX_LINKS 40

char *sb_path_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    char *dir = strdup(dirname(copy));
    free(copy);
    return dir;
}

char *sb_path_join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s/%s", dir, name);
    return s;
}

char *sb_path_resolve_links(const char *path)
{
    char *at = strdup(path);
    for (int hops = 0; at; hops++) {
        struct stat st;
        if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
            return at;
        char link[PATH_MAX];
        ssize_t len = hops < MAX_LINKS ? readlink(at, link, sizeof link - 1) : -1;
        if (len < 0) {
            int e = hops < MAX_LINKS ? errno : ELOOP;
            free(at);
            errno = e;
            return NULL;
        }
        link[len] = '\0';
        char *dir = link[0] == '/' ? NULL : sb_path_dir(at);
        char *next = link[0] == '/' ? strdup(link) : dir ? sb_path_join(dir, link) : NULL;
        free(dir);
        free(at);
        at = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* Why a file could not be made in path's directory: "its directory does
   not exist" when it does not, else the error. */
static const char *why_not_made(const char *path, int error)
{
    char *dir = sb_path_dir(path);
    struct stat st;
    int no_dir = dir && stat(dir, &st) != 0;
    free(dir);
    return no_dir ? "its directory does not exist" : strerror(error);
}

/* Whether a new file can be made in dir: one is made and removed, which
   asks the file system itself (access() says yes to root where nothing can
   be made, as in /proc); 0, or the errno. */
static int probe_dir(const char *dir)
{
    size_t len = strlen(dir) + 32;
    char *probe = malloc(len);
    if (!probe)
        return ENOMEM;
    snprintf(probe, len, "%s/.simtbench-probe-XXXXXX", dir);
    int fd = mkstemp(probe), error = fd < 0 ? errno : 0;
    if (fd >= 0) {
        close(fd);
        unlink(probe);
    }
    free(probe);
    return error;
}

/* sb_output_check for path, whose symlinks lead to real. */
static int check_real(const char *path, const char *real, char *err, size_t n)
{
    struct stat st;
    if (stat(real, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, n, "cannot write %s: it is a directory", path);
            return -1;
        }
        /* A FIFO or a terminal is written in place (sb_output_open), and
           not opened here: that could block or take it. */
        if (!S_ISREG(st.st_mode)) {
            if (access(real, W_OK) == 0)
                return 0;
            snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
    } else if (errno != ENOENT) {
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    /* A file is written beside its target and renamed over it: what must
       work is making a file in its directory. */
    char *dir = sb_path_dir(real);
    int error = dir ? probe_dir(dir) : ENOMEM;
    free(dir);
    if (error) {
        snprintf(err, n, "cannot write %s: %s", path,
                 error == ENOENT ? why_not_made(real, error) : strerror(error));
        return -1;
    }
    return 0;
}

int sb_output_check(const char *option, const char *path, char *err, size_t n)
{
    if (!path || !*path) {
        snprintf(err, n, "%s: the path is empty", option);
        return -1;
    }
    char *real = sb_path_resolve_links(path);
    if (!real) {
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = check_real(path, real, err, n);
    free(real);
    return rc;
}

int sb_output_check_dir(const char *option, const char *dir, char *err, size_t n)
{
    struct stat st;
    if (!dir || !*dir) {
        snprintf(err, n, "%s: the path is empty", option);
        return -1;
    }
    if (stat(dir, &st) != 0) {
        /* The writers make one level: tried, and undone. */
        if (errno != ENOENT || mkdir(dir, 0777) != 0) {
            int e = errno;
            snprintf(err, n, "cannot make the directory %s: %s", dir,
                     e == ENOENT ? "its parent directory does not exist" : strerror(e));
            return -1;
        }
        rmdir(dir);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, n, "cannot write into %s: it is not a directory", dir);
        return -1;
    }
    int error = probe_dir(dir);
    if (error) {
        snprintf(err, n, "cannot write into %s: %s", dir, strerror(error));
        return -1;
    }
    return 0;
}
