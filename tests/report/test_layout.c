/* The terminal table's layout: the width from $COLUMNS, folding at word
 * boundaries (never inside a grouped number or a UTF-8 character), and
 * columns sized from their content that give way to the note under the
 * row when the line would be too wide. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "report/layout.h"

/* What f wrote into text, called on a memory stream. */
#define CAPTURE(text, call)                                                                        \
    do {                                                                                           \
        size_t len_;                                                                               \
        FILE *out = open_memstream(&(text), &len_);                                                \
        assert_non_null(out);                                                                      \
        call;                                                                                      \
        fclose(out);                                                                               \
    } while (0)

/* The longest line of text, in characters. */
static int widest_line(const char *text)
{
    int widest = 0;
    char line[4096];
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        int w = sb_layout_text_width(line);
        widest = w > widest ? w : widest;
        p += len + (p[len] == '\n');
    }
    return widest;
}

static void width_from_columns(void **state)
{
    (void)state;
    unsetenv("COLUMNS");
    assert_int_equal(sb_layout_width(), 100);
    setenv("COLUMNS", "80", 1);
    assert_int_equal(sb_layout_width(), 80);
    setenv("COLUMNS", "20", 1); /* too narrow for a table: the minimum */
    assert_int_equal(sb_layout_width(), SB_LAYOUT_MIN_WIDTH);
    setenv("COLUMNS", "99999", 1);
    assert_int_equal(sb_layout_width(), SB_LAYOUT_MAX_WIDTH);
    setenv("COLUMNS", "80x", 1); /* not a number: as if unset */
    assert_int_equal(sb_layout_width(), 100);
    setenv("COLUMNS", "", 1);
    assert_int_equal(sb_layout_width(), 100);
    unsetenv("COLUMNS");
}

static void fold_at_words(void **state)
{
    (void)state;
    char *t;
    CAPTURE(t, sb_layout_fold(out, 20, "  Lesson: ", 4, "one two three four five six seven"));
    assert_string_equal(t, "  Lesson: one two\n"
                           "    three four five\n"
                           "    six seven\n");
    free(t);
    /* Short text: one line, as it is, spaces inside kept. */
    CAPTURE(t, sb_layout_fold(out, 60, "", 2, "simtbench 1.0  date  host"));
    assert_string_equal(t, "simtbench 1.0  date  host\n");
    free(t);
    /* A line exactly as wide as allowed is not folded. */
    CAPTURE(t, sb_layout_fold(out, 10, "", 0, "0123456789"));
    assert_string_equal(t, "0123456789\n");
    free(t);
}

static void fold_keeps_numbers_and_cuts_long_words(void **state)
{
    (void)state;
    char *t;
    /* "67 108 864" is one number: the fold goes before it, not inside. */
    CAPTURE(t, sb_layout_fold(out, 14, "", 2, "vecadd  67 108 864 elements"));
    assert_string_equal(t, "vecadd\n  67 108 864\n  elements\n");
    free(t);
    /* A word longer than a line is cut, and every line keeps the width. */
    CAPTURE(t, sb_layout_fold(out, 12, "  ", 4, "available (/a/very/long/path/module.so)"));
    assert_true(widest_line(t) <= 12);
    assert_string_equal(t, "  available\n    (/a/very\n    /long/pa\n    th/modul\n    e.so)\n");
    free(t);
    /* Cut between UTF-8 characters, never inside one. */
    CAPTURE(t, sb_layout_fold(out, 5, "", 0, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"));
    assert_string_equal(t, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n\xc3\xa9\n");
    free(t);
}

/* A layout of a name and three numbers, the last two giving way first. */
static void three_numbers(sb_layout *l, int width)
{
    const sb_layout_column columns[] = {
        {.heading = "variant", .gap = 2},
        {.heading = "median ms", .gap = 2, .right = 1, .give_way = 1, .noted = 1,
         .note = "median", .unit = " ms"},
        {.heading = "min ms", .gap = 1, .right = 1, .give_way = 2, .noted = 1, .note = "min",
         .unit = " ms"},
        {.heading = "best", .gap = 1, .right = 1, .give_way = 3, .noted = 1, .note = "best",
         .unit = " GB/s"},
        {.heading = "roof%", .gap = 1, .right = 1, .give_way = 4, .noted = 1, .note = "roof"},
    };
    sb_layout_init(l, width);
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
        assert_int_equal(sb_layout_add(l, &columns[c]), (int)c);
}

static void row(sb_layout_cells *c, const char *name, const char *median, const char *min,
                const char *best)
{
    memset(c, 0, sizeof *c);
    snprintf(c->cell[0], SB_LAYOUT_CELL, "%s", name);
    snprintf(c->cell[1], SB_LAYOUT_CELL, "%s", median);
    snprintf(c->cell[2], SB_LAYOUT_CELL, "%s", min);
    snprintf(c->cell[3], SB_LAYOUT_CELL, "%s", best);
}

static void columns_from_content(void **state)
{
    (void)state;
    sb_layout l;
    sb_layout_cells a, b;
    three_numbers(&l, 100);
    row(&a, "32x32-xor-column-store", "0.1446", "0.1384", "16.89");
    row(&b, "copy", "25.4796", "25.1", "3.5");
    sb_layout_measure(&l, &a);
    sb_layout_measure(&l, &b);
    sb_layout_fit(&l);
    char *t;
    CAPTURE(t, (sb_layout_heading(&l, out), sb_layout_row(&l, &a, out), sb_layout_row(&l, &b, out),
                sb_layout_row(&l, &b, out)));
    /* Every column as wide as its widest cell or heading; numbers to the
       right; the empty roof% column left out; no trailing spaces. */
    assert_string_equal(t, "  variant                 median ms min ms  best\n"
                           "  32x32-xor-column-store     0.1446 0.1384 16.89\n"
                           "  copy                      25.4796   25.1   3.5\n"
                           "  copy                      25.4796   25.1   3.5\n");
    free(t);
    char note[256];
    sb_layout_given_way(&l, &a, note, sizeof note);
    assert_string_equal(note, "");
}

static void columns_give_way_in_order(void **state)
{
    (void)state;
    sb_layout l;
    sb_layout_cells a;
    char *t, note[256];
    row(&a, "copy_vec4", "0.1446", "0.1384", "16.89");
    /* 35 columns wide in all: at 30, best gives way; at 24, min too. */
    three_numbers(&l, 30);
    sb_layout_measure(&l, &a);
    sb_layout_fit(&l);
    CAPTURE(t, (sb_layout_heading(&l, out), sb_layout_row(&l, &a, out)));
    assert_string_equal(t, "  variant    median ms min ms\n"
                           "  copy_vec4     0.1446 0.1384\n");
    free(t);
    sb_layout_given_way(&l, &a, note, sizeof note);
    assert_string_equal(note, "best 16.89 GB/s");
    l.width = 24;
    sb_layout_fit(&l);
    sb_layout_given_way(&l, &a, note, sizeof note);
    assert_string_equal(note, "min 0.1384 ms; best 16.89 GB/s");
    /* A name wider than a third of the line has a line of its own, and the
       numbers keep their column. */
    sb_layout_cells b;
    row(&b, "32x32-xor-column-store", "25.4796", "25.1", "3.5");
    three_numbers(&l, 60);
    sb_layout_measure(&l, &a);
    sb_layout_measure(&l, &b);
    sb_layout_fit(&l);
    CAPTURE(t, (sb_layout_heading(&l, out), sb_layout_row(&l, &a, out),
                sb_layout_row(&l, &b, out)));
    assert_string_equal(t, "  variant               median ms min ms  best\n"
                           "  copy_vec4                0.1446 0.1384 16.89\n"
                           "  32x32-xor-column-store\n"
                           "                          25.4796   25.1   3.5\n");
    free(t);
    /* Narrower than the name alone: the name folded, the median kept,
       every line within. */
    l.width = 20;
    sb_layout_fit(&l);
    CAPTURE(t, sb_layout_row(&l, &b, out));
    assert_true(widest_line(t) <= 20);
    assert_string_equal(t, "  32x32-xor-column-s\n    tore\n             25.4796\n");
    free(t);
}

/* Groups: a label over each device's columns, the columns widened to a
 * label longer than they are; given way together, noted together. */
static void groups_and_shared_notes(void **state)
{
    (void)state;
    sb_layout l;
    sb_layout_init(&l, 100);
    const sb_layout_column name = {.heading = "variant", .gap = 2};
    sb_layout_add(&l, &name);
    const char *labels[] = {"a-rather-long-label", "b"};
    for (int s = 0; s < 2; s++) {
        int g = sb_layout_add_group(&l, labels[s]);
        assert_int_equal(g, s + 1);
        sb_layout_column median = {.heading = "median", .gap = 2, .right = 1, .give_way = 1,
                                   .noted = 1, .note = "median", .group = g};
        sb_layout_column spread = {.heading = "spread", .gap = 1, .right = 1, .give_way = 2,
                                   .noted = 1, .note = "spread", .group = g};
        snprintf(median.subject, sizeof median.subject, "%s", labels[s]);
        snprintf(spread.subject, sizeof spread.subject, "%s", labels[s]);
        sb_layout_add(&l, &median);
        sb_layout_add(&l, &spread);
    }
    sb_layout_cells c;
    memset(&c, 0, sizeof c);
    const char *cells[] = {"copy", "0.1", "1.0%", "0.2", "2.0%"};
    for (int k = 0; k < 5; k++)
        snprintf(c.cell[k], SB_LAYOUT_CELL, "%s", cells[k]);
    sb_layout_measure(&l, &c);
    sb_layout_fit(&l);
    char *t, note[256];
    CAPTURE(t, (sb_layout_heading(&l, out), sb_layout_row(&l, &c, out)));
    assert_string_equal(t, "           a-rather-long-label  b\n"
                           "  variant        median spread  median spread\n"
                           "  copy              0.1   1.0%     0.2   2.0%\n");
    free(t);
    l.width = 40;
    sb_layout_fit(&l);
    sb_layout_given_way(&l, &c, note, sizeof note);
    assert_string_equal(note, "spread a-rather-long-label 1.0%, b 2.0%");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(width_from_columns),
        cmocka_unit_test(fold_at_words),
        cmocka_unit_test(fold_keeps_numbers_and_cuts_long_words),
        cmocka_unit_test(columns_from_content),
        cmocka_unit_test(columns_give_way_in_order),
        cmocka_unit_test(groups_and_shared_notes),
    };
    SB_TEST_MAIN(tests);
}
