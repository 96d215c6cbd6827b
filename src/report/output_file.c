#include "report/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void reset(sb_output_file *o)
{
    free(o->target);
    free(o->temp);
    memset(o, 0, sizeof *o);
}

/* The directory part of path ("." for a bare name), malloc'd. */
static char *dir_of(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    char *dir = strdup(dirname(copy));
    free(copy);
    return dir;
}

/* A new file "DIR/.NAME.XXXXXX" with the mode a plain fopen would give. */
static int make_temp(sb_output_file *o, char *err, size_t n)
{
    char *copy = strdup(o->target), *dir = dir_of(o->target);
    size_t len = strlen(o->target) + 16;
    o->temp = malloc(len);
    if (!copy || !dir || !o->temp) {
        free(copy);
        free(dir);
        snprintf(err, n, "out of memory opening %s", o->target);
        return -1;
    }
    /* ".NAME.XXXXXX" beside the target, unless NAME is too long for a
       temporary name to fit the file system's limit. */
    const char *base = basename(copy);
    snprintf(o->temp, len, "%s/.%s.XXXXXX", dir, strlen(base) > 200 ? "simtbench" : base);
    free(copy);
    free(dir);
    int fd = mkstemp(o->temp);
    if (fd < 0) {
        snprintf(err, n, "cannot write %s: %s", o->target, strerror(errno));
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, n, "cannot write %s: %s", o->target, strerror(errno));
        close(fd);
        unlink(o->temp);
        return -1;
    }
    return 0;
}

int sb_output_open(sb_output_file *o, const char *path, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    if (!path || !*path) {
        snprintf(err, n, "an output path is empty");
        return -1;
    }
    if (!(o->target = strdup(path))) {
        snprintf(err, n, "out of memory opening %s", path);
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode) || !(o->f = fopen(path, "w"))) {
            snprintf(err, n, "cannot write %s: %s", path,
                     S_ISDIR(st.st_mode) ? "it is a directory" : strerror(errno));
            reset(o);
            return -1;
        }
        return 0;
    }
    if (make_temp(o, err, n)) {
        reset(o);
        return -1;
    }
    return 0;
}

int sb_output_commit(sb_output_file *o, char *err, size_t n)
{
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (!bad && o->temp && fsync(fileno(o->f)) != 0) {
        bad = 1;
        saved = errno;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    o->f = NULL;
    if (!bad && o->temp && rename(o->temp, o->target) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        snprintf(err, n, "cannot write %s: %s", o->target, strerror(saved));
        if (o->temp)
            unlink(o->temp);
        reset(o);
        return -1;
    }
    reset(o);
    return 0;
}

void sb_output_abort(sb_output_file *o)
{
    if (o->f)
        fclose(o->f);
    if (o->temp)
        unlink(o->temp);
    reset(o);
}

/* Why a file could not be made in path's directory: "its directory does
   not exist" when it does not, else the error. */
static const char *why_not_made(const char *path, int error)
{
    char *dir = dir_of(path);
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

int sb_output_check(const char *option, const char *path, char *err, size_t n)
{
    struct stat st;
    if (!path || !*path) {
        snprintf(err, n, "%s: the path is empty", option);
        return -1;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, n, "cannot write %s: it is a directory", path);
            return -1;
        }
        /* A FIFO or a terminal is written in place (sb_output_open), and
           not opened here: that could block or take it. */
        if (!S_ISREG(st.st_mode)) {
            if (access(path, W_OK) == 0)
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
    char *dir = dir_of(path);
    int error = dir ? probe_dir(dir) : ENOMEM;
    free(dir);
    if (error) {
        snprintf(err, n, "cannot write %s: %s", path,
                 error == ENOENT ? why_not_made(path, error) : strerror(error));
        return -1;
    }
    return 0;
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
