#include "text.h"

#include <stdio.h>
#include <stdlib.h>
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

/* The length of the UTF-8 character at p (1 to 4), or 0 where p does not
 * start a valid, shortest-form one (overlong forms and UTF-16 surrogates
 * included, which some terminals decode anyway). */
static int utf8_length(const unsigned char *p)
{
    int len = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
              : p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : 0;
    for (int k = 1; k < len; k++)
        if (!is_continuation(p[k]))
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return len;
}

/* The escape of the character of `len` bytes at p (len 0: an invalid
 * byte) into esc, or "" where it shows as it is. */
static void escape_of(const unsigned char *p, int len, char esc[8])
{
    esc[0] = '\0';
    if (len == 1 && (p[0] == '\n' || p[0] == '\r' || p[0] == '\t'))
        snprintf(esc, 8, "\\%c", p[0] == '\n' ? 'n' : p[0] == '\r' ? 'r' : 't');
    else if (len == 0 || p[0] < 0x20 || p[0] == 0x7f)
        snprintf(esc, 8, "\\x%02X", p[0]);
    else if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
        snprintf(esc, 8, "\\u00%02X", p[1]);
}

/* Writes s's visible form into dst of n bytes (or only counts it where
 * dst is NULL); the bytes it takes, its NUL included. */
static size_t visible(const char *s, char *dst, size_t n)
{
    size_t used = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        int len = utf8_length(p);
        char esc[8];
        escape_of(p, len, esc);
        size_t add = esc[0] ? strlen(esc) : (size_t)len;
        if (dst && used + add >= n)
            break;
        if (dst)
            memcpy(dst + used, esc[0] ? esc : (const char *)p, add);
        used += add;
        p += len ? len : 1;
    }
    if (dst)
        dst[used] = '\0';
    return used + 1;
}

const char *sb_text_visible(const char *s, char *dst, size_t n)
{
    visible(s, dst, n);
    return dst;
}

size_t sb_text_visible_size(const char *s)
{
    return visible(s, NULL, 0);
}

void sb_text_message(FILE *f, const char *prog, const char *message)
{
    size_t n = visible(message, NULL, 0);
    char *shown = malloc(n);
    fprintf(f, "%s: %s\n", prog, shown ? sb_text_visible(message, shown, n) : "out of memory");
    free(shown);
}
