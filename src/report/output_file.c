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

int sb_output_check(const char *path, char *err, size_t n)
{
    struct stat st;
    if (!path || !*path) {
        snprintf(err, n, "an output path is empty");
        return -1;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, n, "cannot write %s: it is a directory", path);
            return -1;
        }
        if (access(path, W_OK) != 0) {
            snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        if (!S_ISREG(st.st_mode))
            return 0;
    }
    char *dir = dir_of(path);
    if (!dir) {
        snprintf(err, n, "out of memory checking %s", path);
        return -1;
    }
    int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
    if (!ok)
        snprintf(err, n, "cannot write %s: %s", path,
                 stat(dir, &st) != 0 ? "its directory does not exist"
                 : !S_ISDIR(st.st_mode) ? "its directory is not a directory"
                                        : "its directory is not writable");
    free(dir);
    return ok ? 0 : -1;
}
