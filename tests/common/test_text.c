/* Cutting a device string to its field between two UTF-8 characters,
 * never inside one: ASCII, 2-, 3- and 4-byte characters at the cut, and
 * text that is not UTF-8. */
#include "test_util.h"

#include <string.h>

#include "text.h"

/* "é" is 2 bytes, "€" 3, "😀" 4. */
#define E_ACUTE "\xc3\xa9"
#define EURO "\xe2\x82\xac"
#define GRIN "\xf0\x9f\x98\x80"

static void ascii_is_cut_at_the_limit(void **state)
{
    (void)state;
    assert_int_equal(sb_utf8_cut("abcdef", 4), 4);
    assert_int_equal(sb_utf8_cut("abcdef", 6), 6);
    assert_int_equal(sb_utf8_cut("abcdef", 100), 6);
    assert_int_equal(sb_utf8_cut("", 0), 0);
    assert_int_equal(sb_utf8_cut("a", 0), 0);
}

/* Every limit that falls inside a character drops the whole character. */
static void a_character_at_the_cut_goes_whole(void **state)
{
    (void)state;
    const char *s2 = "ab" E_ACUTE "z", *s3 = "ab" EURO "z", *s4 = "ab" GRIN "z";
    assert_int_equal(sb_utf8_cut(s2, 3), 2);
    assert_int_equal(sb_utf8_cut(s2, 4), 4);
    for (size_t max = 3; max < 5; max++)
        assert_int_equal(sb_utf8_cut(s3, max), 2);
    assert_int_equal(sb_utf8_cut(s3, 5), 5);
    for (size_t max = 3; max < 6; max++)
        assert_int_equal(sb_utf8_cut(s4, max), 2);
    assert_int_equal(sb_utf8_cut(s4, 6), 6);
    assert_int_equal(sb_utf8_cut(GRIN, 3), 0);
}

/* More continuation bytes in a row than a character has: not UTF-8, so
 * there is no boundary to look for and the cut is at the limit. */
static void text_that_is_not_utf8_is_cut_at_the_limit(void **state)
{
    (void)state;
    assert_int_equal(sb_utf8_cut("a\x80\x80\x80\x80\x80", 5), 5);
    assert_int_equal(sb_utf8_cut("\x80\x80", 1), 1);
    assert_int_equal(sb_utf8_cut("caf\xe9 au lait", 4), 4); /* Latin-1 é */
}

static void copy_terminates_and_says_when_it_cut(void **state)
{
    (void)state;
    char out[6];
    memset(out, 'x', sizeof out);
    assert_int_equal(sb_utf8_copy(out, sizeof out, "abc" EURO), 1);
    assert_string_equal(out, "abc");
    assert_int_equal(sb_utf8_copy(out, sizeof out, "ab" EURO), 0);
    assert_string_equal(out, "ab" EURO);
    assert_int_equal(sb_utf8_copy(out, sizeof out, NULL), 0);
    assert_string_equal(out, "");
    char one[1];
    assert_int_equal(sb_utf8_copy(one, sizeof one, "a"), 1);
    assert_string_equal(one, "");
}

/* What a terminal would obey is shown instead: C0 controls, DEL, C1
 * controls and invalid UTF-8; text that is valid and printable (and a
 * backslash) stays as it is, so that escaping twice changes nothing. */
static void controls_are_shown_as_escapes(void **state)
{
    (void)state;
    char out[256];
    assert_string_equal(sb_text_visible("plain \\ text " EURO, out, sizeof out),
                        "plain \\ text " EURO);
    assert_string_equal(sb_text_visible("\x1b[2J\r\n\t\b\a\x7f", out, sizeof out),
                        "\\x1B[2J\\r\\n\\t\\x08\\x07\\x7F");
    assert_string_equal(sb_text_visible("csi\xc2\x9b" "31m nbsp\xc2\xa0", out, sizeof out),
                        "csi\\u009B31m nbsp\xc2\xa0");
    /* A stray continuation, a lead byte cut short, an overlong '/', a
       UTF-16 surrogate and a byte no UTF-8 has. */
    const char *bad = "\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80|\xff";
    assert_string_equal(sb_text_visible(bad, out, sizeof out),
                        "\\x80|\\xE2\\x82|\\xC0\\xAF|\\xED\\xA0\\x80|\\xFF");
    char twice[256];
    sb_text_visible("a\x1b[31mb\xff", out, sizeof out);
    assert_string_equal(sb_text_visible(out, twice, sizeof twice), out);
    assert_int_equal(sb_text_visible_size("a\x1b"), strlen("a\\x1B") + 1);
    assert_string_equal(sb_text_visible(NULL, out, sizeof out), "");
}

/* A short buffer holds whole escapes and characters only. */
static void a_short_buffer_cuts_between_escapes(void **state)
{
    (void)state;
    char out[7];
    assert_string_equal(sb_text_visible("ab\x1b[2J", out, sizeof out), "ab\\x1B");
    assert_string_equal(sb_text_visible("abcde\x1b", out, sizeof out), "abcde");
    assert_string_equal(sb_text_visible("abcd" EURO, out, sizeof out), "abcd");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ascii_is_cut_at_the_limit),
        cmocka_unit_test(a_character_at_the_cut_goes_whole),
        cmocka_unit_test(text_that_is_not_utf8_is_cut_at_the_limit),
        cmocka_unit_test(copy_terminates_and_says_when_it_cut),
        cmocka_unit_test(controls_are_shown_as_escapes),
        cmocka_unit_test(a_short_buffer_cuts_between_escapes),
    };
    SB_TEST_MAIN(tests);
}
