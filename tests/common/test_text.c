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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ascii_is_cut_at_the_limit),
        cmocka_unit_test(a_character_at_the_cut_goes_whole),
        cmocka_unit_test(text_that_is_not_utf8_is_cut_at_the_limit),
        cmocka_unit_test(copy_terminates_and_says_when_it_cut),
    };
    SB_TEST_MAIN(tests);
}
