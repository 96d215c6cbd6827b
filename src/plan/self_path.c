#include "plan/self_path.h"

#include <string.h>
#include <unistd.h>

int sb_self_dir(char *buf, size_t n)
{
    if (n == 0)
        return -1;
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    /* A path that filled the buffer may have been cut: an ancestor of the
       real directory must never be taken for it. */
    if (len <= 0 || (size_t)len >= n - 1) {
        buf[0] = '\0';
        return -1;
    }
    buf[len] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) {
        buf[0] = '\0';
        return -1;
    }
    *slash = '\0';
    /* libtool may run the real binary from .libs/ */
    size_t dl = strlen(buf);
    if (dl >= 6 && strcmp(buf + dl - 6, "/.libs") == 0)
        buf[dl - 6] = '\0';
    return 0;
}
