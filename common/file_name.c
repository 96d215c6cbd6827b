/* File names from untrusted strings (file_name.h). */
#include "file_name.h"

#include <string.h>

int sb_file_name_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
}

/* Appends part made safe at dst[*at] (room n, one byte kept for the NUL);
   a '-' that would start the name becomes '_'. */
static void put_part(char *dst, size_t n, size_t *at, const char *part)
{
    for (const char *p = part; *p && *at + 1 < n; p++) {
        char c = sb_file_name_char((unsigned char)*p) ? *p : '_';
        if (*at == 0 && c == '-')
            c = '_';
        dst[(*at)++] = c;
    }
    dst[*at] = '\0';
}

const char *sb_file_name(char *dst, size_t n, int sep, const char *const *parts, int nparts,
                         const char *fallback)
{
    size_t at = 0;
    dst[0] = '\0';
    if (sep != '.')
        sep = '-';
    if (!fallback || !*fallback)
        fallback = "x";
    for (int i = 0; i < nparts; i++) {
        const char *part = parts[i] && *parts[i] ? parts[i] : fallback;
        /* A separator only with room for a part after it: a name never
           ends in one, so "a." and ".." cannot form. */
        if (i > 0) {
            if (at + 2 >= n)
                break;
            dst[at++] = (char)sep;
        }
        put_part(dst, n, &at, part);
    }
    if (at == 0 && n > 1)
        put_part(dst, n, &at, "x");
    return dst;
}

int sb_file_name_is_safe(const char *name)
{
    if (!name || !*name || name[0] == '-' || name[0] == '.' || strstr(name, ".."))
        return 0;
    for (const char *p = name; *p; p++)
        if (*p == '/' || (unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
            return 0;
    return 1;
}
