/* sb_file_name (file_name.h) on any bytes as parts, any separator and any
 * room: the oracle fails on a name that is empty or too long, holds a
 * newline, another control character, a space, DEL or a byte above it, a
 * '/', starts with '-' or '.', or has a ".." component (or "..", which a
 * ".."-free name cannot hold), or does not keep each safe byte of the
 * first part where it fits.  It is written here, not borrowed from
 * sb_file_name_is_safe, which it checks as well. */
#include <stdlib.h>
#include <string.h>

#include "file_name.h"
#include "fuzz.h"

const char sb_fuzz_corpus[] = "file_name";

#define MAX_PARTS 8

/* Whether name (room n) is a name the oracle accepts. */
static int acceptable(const char *name, size_t n)
{
    size_t len = strlen(name);
    if (len == 0 || len >= n || name[0] == '-' || name[0] == '.')
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c >= 0x7f || c == '/' || c == '\\')
            return 0;
        if (c == '.' && name[i + 1] == '.')
            return 0;
    }
    return name[len - 1] != '.';
}

/* The first part's safe bytes stand where they were in the name. */
static int keeps_first(const char *name, const char *part)
{
    for (size_t i = 0; part[i] && name[i]; i++)
        if (sb_file_name_char((unsigned char)part[i]) && name[i] != part[i] &&
            !(i == 0 && part[i] == '-' && name[i] == '_'))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int sep = data[0] & 1 ? '.' : data[0] & 2 ? '-' : data[0];
    size_t room = data[1] < 2 ? 256 : data[1];
    /* The parts: the rest split at each NUL, the last one the fallback. */
    char *buf = malloc(size - 1), *name = malloc(room);
    const char *parts[MAX_PARTS + 1];
    int nparts = 0;
    if (!buf || !name)
        goto out;
    memcpy(buf, data + 2, size - 2);
    buf[size - 2] = '\0';
    parts[nparts++] = buf;
    for (size_t i = 0; i + 2 < size && nparts <= MAX_PARTS; i++)
        if (buf[i] == '\0')
            parts[nparts++] = buf + i + 1;
    const char *fallback = nparts > 1 ? parts[--nparts] : NULL;
    sb_file_name(name, room, sep, parts, nparts, fallback);
    if (!acceptable(name, room) || !sb_file_name_is_safe(name) || !keeps_first(name, parts[0]))
        __builtin_trap();
out:
    free(buf);
    free(name);
    return 0;
}
