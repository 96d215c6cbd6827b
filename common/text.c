#include "text.h"

#include <string.h>

/* A UTF-8 character is at most 4 bytes: a lead byte and 3 continuations. */
#define UTF8_MAX_CONTINUATIONS 3

static int is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t sb_utf8_cut(const char *s, size_t max_bytes)
{
    size_t len = strnlen(s, max_bytes + 1);
    if (len <= max_bytes)
        return len;
    /* s[max_bytes] is the first byte dropped: when it continues a
       character, that character's lead byte and the continuations before
       it go too. */
    size_t cut = max_bytes;
    while (cut > 0 && max_bytes - cut < UTF8_MAX_CONTINUATIONS &&
           is_continuation((unsigned char)s[cut]))
        cut--;
    if (is_continuation((unsigned char)s[cut]))
        return max_bytes; /* not UTF-8: no character boundary to find */
    return cut;
}

int sb_utf8_copy(char *dst, size_t n, const char *src)
{
    if (!src)
        src = "";
    size_t keep = sb_utf8_cut(src, n - 1);
    memcpy(dst, src, keep);
    dst[keep] = '\0';
    return src[keep] != '\0';
}

void sb_uuid_text(const unsigned char bytes[16], char *dst, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    int any = 0;
    for (int i = 0; i < 16; i++)
        any |= bytes[i];
    if (n > 0)
        dst[0] = '\0';
    if (!any || n < 37)
        return;
    size_t at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            dst[at++] = '-';
        dst[at++] = hex[bytes[i] >> 4];
        dst[at++] = hex[bytes[i] & 15];
    }
    dst[at] = '\0';
}
