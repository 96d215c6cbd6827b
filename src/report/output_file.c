/* Output files written whole or not at all (output_file.h). */
#include "report/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec/cleanup.h"
#include "plan/output_path.h"

static void reset(sb_output_file *o)
{
    if (o->temp)
        sb_cleanup_forget(o->temp);
    free(o->target);
    free(o->real);
    free(o->temp);
    memset(o, 0, sizeof *o);
}

/* What a new file gets from the one it replaces (old, NULL for none): its
 * owner, then its mode (a change of owner can clear set-id bits).  Where
 * the owner cannot be given (not root), or the old file has other hard
 * links, a rename would lose them: the content is copied back instead. */
static int inherit(sb_output_file *o, int fd, const struct stat *old)
{
    if (!old) {
        mode_t mask = umask(0);
        umask(mask);
        return fchmod(fd, 0666 & ~mask);
    }
    if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0)
        o->copy_back = 1;
    if (old->st_nlink > 1)
        o->copy_back = 1;
    return fchmod(fd, old->st_mode & 07777);
}

/* A new file "DIR/.NAME.XXXXXX" beside the real target, with what the file
 * it replaces had (inherit). */
static int make_temp(sb_output_file *o, const struct stat *old, char *err, size_t n)
{
    char *copy = strdup(o->real), *dir = sb_path_dir(o->real);
    size_t len = strlen(o->real) + 16;
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
        free(o->temp);
        o->temp = NULL;
        return -1;
    }
    sb_cleanup_add(o->temp, 0);
    if (inherit(o, fd, old) || !(o->f = fdopen(fd, "w"))) {
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
    if (!(o->real = sb_path_resolve_links(path))) {
        snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
        reset(o);
        return -1;
    }
    int exists = stat(o->real, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode) || !(o->f = fopen(o->real, "w"))) {
            snprintf(err, n, "cannot write %s: %s", path,
                     S_ISDIR(st.st_mode) ? "it is a directory" : strerror(errno));
            reset(o);
            return -1;
        }
        return 0;
    }
    if (make_temp(o, exists ? &st : NULL, err, n)) {
        reset(o);
        return -1;
    }
    return 0;
}

/* The complete temporary (from, size bytes) written over the old file in
 * place, which keeps its links and owner.  Its room is reserved first, so
 * that a full disk is found before a byte of it changes; the signals that
 * end the program wait until the copy is done.  0, or an errno. */
static int copy_back(int from, off_t size, const char *real)
{
    int to = open(real, O_WRONLY | O_CLOEXEC);
    if (to < 0)
        return errno;
    int e = size > 0 ? posix_fallocate(to, 0, size) : 0;
    if (e) {
        close(to);
        return e;
    }
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    char buf[65536];
    for (off_t at = 0; at < size && !e;) {
        ssize_t got = pread(from, buf, sizeof buf, at);
        if (got <= 0) {
            e = got < 0 ? errno : EIO;
            break;
        }
        for (ssize_t put = 0; put < got && !e;) {
            ssize_t w = pwrite(to, buf + put, (size_t)(got - put), at + put);
            if (w < 0 && errno != EINTR)
                e = errno;
            put += w > 0 ? w : 0;
        }
        at += got;
    }
    if (!e && (ftruncate(to, size) != 0 || fsync(to) != 0))
        e = errno;
    if (close(to) != 0 && !e)
        e = errno;
    sigprocmask(SIG_SETMASK, &before, NULL);
    return e;
}

/* The temporary, flushed and synced, put where the target is: renamed
 * over it, or copied back into it.  0, or an errno. */
static int put_in_place(sb_output_file *o)
{
    int fd = fileno(o->f);
    if (fflush(o->f) != 0 || ferror(o->f))
        return errno ? errno : EIO;
    if (o->temp && fsync(fd) != 0)
        return errno;
    if (o->copy_back) {
        struct stat st;
        return fstat(fd, &st) != 0 ? errno : copy_back(fd, st.st_size, o->real);
    }
    return 0;
}

int sb_output_commit(sb_output_file *o, char *err, size_t n)
{
    errno = 0;
    int e = put_in_place(o);
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->temp && !o->copy_back && rename(o->temp, o->real) != 0)
        e = errno;
    if (o->temp && (e || o->copy_back))
        unlink(o->temp);
    if (e)
        snprintf(err, n, "cannot write %s: %s", o->target, strerror(e));
    reset(o);
    return e ? -1 : 0;
}

int sb_output_finish(sb_output_file *o)
{
    int e = !o->temp || o->copy_back ? EPERM : put_in_place(o);
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (e)
        sb_output_abort(o);
    return e ? -1 : 0;
}

void sb_output_abort(sb_output_file *o)
{
    if (o->f)
        fclose(o->f);
    if (o->temp)
        unlink(o->temp);
    reset(o);
}
