/* A result's size and a sweep's variant name in words (result_text.h). */
#include "result_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v with its thousands apart ("67 108 864") from five digits up. */
static void grouped(long long v, char *buf, size_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lld", v < 0 ? 0 : v);
    size_t used = 0;
    for (int i = 0; i < len && used + 2 < n; i++) {
        if (len >= 5 && i > 0 && (len - i) % 3 == 0)
            buf[used++] = ' ';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
}

void sb_result_size_text(const sb_result *r, char *buf, size_t n)
{
    char rows[32], cols[32], all[32];
    grouped(r->rows, rows, sizeof rows);
    grouped(r->cols, cols, sizeof cols);
    grouped((long long)r->rows * r->cols, all, sizeof all);
    switch (r->size_kind) {
    case SB_SIZE_MATRIX: snprintf(buf, n, "%s x %s floats", rows, cols); break;
    case SB_SIZE_ELEMENTS: snprintf(buf, n, "%s elements", all); break;
    case SB_SIZE_WORDS: snprintf(buf, n, "%s 4-byte words", all); break;
    case SB_SIZE_THREADS: snprintf(buf, n, "%s threads", all); break;
    case SB_SIZE_WALKS: snprintf(buf, n, "%s threads, %s words each", cols, rows); break;
    default: snprintf(buf, n, "%ldx%ld", r->rows, r->cols); break;
    }
}

int sb_bins_variant(const char *variant, char *method, size_t mn, long *bins, char *dist,
                    size_t dn)
{
    const char *b = strstr(variant, "-b");
    if (!b || b == variant)
        return -1;
    char *end;
    long v = strtol(b + 2, &end, 10);
    if (end == b + 2 || b[2] < '0' || b[2] > '9' || *end != '-' || !end[1] || v < 1)
        return -1;
    *bins = v;
    snprintf(method, mn, "%.*s", (int)(b - variant), variant);
    snprintf(dist, dn, "%s", end + 1);
    return 0;
}
