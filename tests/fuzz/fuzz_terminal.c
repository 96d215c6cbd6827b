/* The terminal writers on any bytes as names: sb_text_visible, the layout's
 * folded text, table rows and group labels, and a --help text.  The
 * oracle: nothing they write holds a control byte other than a newline, a
 * C1 control or bytes that are not UTF-8, and a fold keeps its lines
 * within the width. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "report/layout.h"
#include "text.h"

const char sb_fuzz_corpus[] = "terminal";

/* Whether s (n bytes) is what a terminal may be given: UTF-8 with no
 * control character but newlines and no C1 control. */
static int shown_safely(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        int len = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3
                  : c >= 0xf0 && c < 0xf5 ? 4 : 0;
        if (len == 0 || i + (size_t)len > n || (c < 0x20 && c != '\n') || c == 0x7f ||
            (c == 0xc2 && s[i + 1] < 0xa0))
            return 0;
        for (int k = 1; k < len; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
        i += (size_t)len;
    }
    return 1;
}

/* Every line of s (n bytes) at most width characters. */
static int lines_within(const char *s, size_t n, int width)
{
    int cols = 0;
    for (size_t i = 0; i < n; i++) {
        cols = s[i] == '\n' ? 0 : cols + ((s[i] & 0xc0) != 0x80);
        if (cols > width)
            return 0;
    }
    return 1;
}

/* The layout of a table of two rows, each cell a piece of text. */
static void table(FILE *out, const char *text, int width)
{
    sb_layout l;
    sb_layout_cells cells;
    sb_layout_init(&l, width);
    sb_layout_add_group(&l, text);
    for (int c = 0; c < 4; c++) {
        sb_layout_column k = {.gap = 2, .right = c == 2, .give_way = c, .noted = 1,
                              .group = c == 1, .fold = c == 3 ? 10 : 0};
        size_t len = strlen(text);
        snprintf(k.heading, sizeof k.heading, "%.8s", text + ((size_t)c < len ? (size_t)c : len));
        sb_layout_add(&l, &k);
    }
    memset(&cells, 0, sizeof cells);
    for (int c = 0; c < 4; c++)
        snprintf(cells.cell[c], SB_LAYOUT_CELL, "%s", text + strlen(text) * (size_t)c / 4);
    sb_layout_measure(&l, &cells);
    sb_layout_fit(&l);
    sb_layout_heading(&l, out);
    sb_layout_row(&l, &cells, out);
    char note[512];
    sb_layout_given_way(&l, &cells, note, sizeof note);
    sb_layout_fold(out, width, "    ", 6, note);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *written = NULL;
    size_t n = 0;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    int width = SB_LAYOUT_MIN_WIDTH + (size ? data[0] % 60 : 0);
    FILE *out = open_memstream(&written, &n);
    if (!out) {
        free(text);
        return 0;
    }
    sb_layout_fold(out, width, "  ", 4, text);
    fflush(out);
    if (!lines_within(written, n, width))
        __builtin_trap(); /* a fold past its width */
    table(out, text, width);
    sb_layout_help(out, width, text);
    char shown[64];
    fputs(sb_text_visible(text, shown, sizeof shown), out);
    fclose(out);
    if (!shown_safely((const unsigned char *)written, n))
        __builtin_trap(); /* a raw control byte, a C1 control or bytes not UTF-8 */
    free(written);
    free(text);
    return 0;
}
