/* Temporaries removed on every exit path (cleanup.h). */
#define _GNU_SOURCE
#include "exec/cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Fixed slots, not a list on the heap: the handler reads them, and a slot
 * is marked used only once its path is whole.  A run writes its files one
 * at a time and a plot two, so a few slots are plenty. */
#define SLOTS 16
#define PATH_ROOM 4096

static struct {
    volatile sig_atomic_t used; /* 0 free, 1 a file, 2 a folder */
    char path[PATH_ROOM];
} slot[SLOTS];

int sb_cleanup_add(const char *path, int is_dir)
{
    size_t len = strlen(path);
    if (len >= PATH_ROOM)
        return -1;
    for (int i = 0; i < SLOTS; i++)
        if (!slot[i].used) {
            memcpy(slot[i].path, path, len + 1);
            slot[i].used = is_dir ? 2 : 1;
            return 0;
        }
    return -1;
}

void sb_cleanup_forget(const char *path)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot[i].used && strcmp(slot[i].path, path) == 0)
            slot[i].used = 0;
}

/* The linux_dirent64 records getdents64 fills: readdir is not
   async-signal-safe, the system call is. */
struct dirent64_record {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* A folder's entries unlinked (a render folder holds files only), then
   the folder. */
static void remove_folder(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[4096];
        long got;
        while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long at = 0; at < got;) {
                struct dirent64_record *e = (struct dirent64_record *)(buf + at);
                if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0)
                    unlinkat(fd, e->name, 0);
                at += e->reclen;
            }
        close(fd);
    }
    rmdir(path);
}

void sb_cleanup_now(void)
{
    for (int i = 0; i < SLOTS; i++) {
        if (slot[i].used == 1)
            unlink(slot[i].path);
        else if (slot[i].used == 2)
            remove_folder(slot[i].path);
        slot[i].used = 0;
    }
}
