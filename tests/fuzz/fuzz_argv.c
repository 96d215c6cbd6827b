#include "fuzz.h"

#include <string.h>

int sb_fuzz_argv(const uint8_t *data, size_t size, const char *name, char **argv, int max,
                 char *buf, size_t bufsize)
{
    int argc = 0;
    argv[argc++] = (char *)name;
    if (size >= bufsize)
        size = bufsize - 1;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *word = buf;
    for (size_t i = 0; i <= size && argc < max - 1; i++) {
        if (buf[i] == '\n' || buf[i] == '\0') {
            int end = buf[i] == '\0';
            buf[i] = '\0';
            argv[argc++] = word;
            word = buf + i + 1;
            if (end && i == size)
                break;
        }
    }
    argv[argc] = NULL;
    return argc;
}
