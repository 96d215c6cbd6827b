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

/* As the kernel's own limit on symlinks followed in one lookup. */
#define MAX_LINKS 40

static void reset(sb_output_file *o)
{
    if (o->temp)
        sb_cleanup_forget(o->temp);
    free(o->target);
    free(o->real);
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

/* dir/name, malloc'd. */
static char *join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s/%s", dir, name);
    return s;
}

/* path with the symlinks of its last component followed, to the file they
 * end at (which need not exist: a dangling link names the file to make),
 * malloc'd; NULL with errno set.  The folders on the way need no such
 * care: a rename inside the target's folder goes through them. */
static char *resolve_links(const char *path)
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
        char *dir = link[0] == '/' ? NULL : dir_of(at);
        char *next = link[0] == '/' ? strdup(link) : dir ? join(dir, link) : NULL;
        free(dir);
        free(at);
        at = next;
    }
    errno = ENOMEM;
    return NULL;
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
    char *copy = strdup(o->real), *dir = dir_of(o->real);
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
    if (!(o->real = resolve_links(path))) {
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
    char *dir = dir_of(real);
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
    char *real = resolve_links(path);
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
