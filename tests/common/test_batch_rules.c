/* The admission rules of batched timing that every backend shares
 * (batch_rules.h), without a device: what begins, what is admitted, what
 * ends, and the messages a user reads when a batch is misused. */
#include "test_util.h"

#include <string.h>

#include "backend.h"
#include "batch_rules.h"

static void sizes_out_of_range_are_refused(void **state)
{
    (void)state;
    const int bad[] = {0, -1, SB_BATCH_MAX + 1, 1 << 30};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sb_batch_rules r = {0};
        char err[256] = "";
        assert_int_equal(sb_batch_rules_begin(&r, bad[i], err, sizeof err), -1);
        assert_non_null(strstr(err, "batch_begin: a batch holds 1 to"));
        assert_false(r.open);
    }
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_begin(&r, 1, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_begin(&r, SB_BATCH_MAX, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 0);
}

static void a_second_begin_is_refused(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_begin(&r, 3, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_begin(&r, 2, err, sizeof err), -1);
    assert_string_equal(err, "batch_begin: a batch of 3 operations is already open");
    /* The batch first begun is still the one open. */
    assert_true(r.open);
    assert_int_equal(r.max, 3);
}

static void outside_a_batch_everything_is_admitted(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "untouched";
    assert_int_equal(sb_batch_rules_admit(&r, 0, "copy", err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_admit(&r, 1, "copy", err, sizeof err), 0);
    assert_string_equal(err, "untouched");
}

static void inside_only_timed_operations_while_there_is_room(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_begin(&r, 2, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_admit(&r, 0, "kernel k", err, sizeof err), -1);
    assert_string_equal(err, "kernel k: an untimed operation cannot be part of a batch");
    for (int i = 0; i < 2; i++) {
        assert_int_equal(sb_batch_rules_admit(&r, 1, "kernel k", err, sizeof err), 0);
        assert_int_equal(sb_batch_rules_add(&r), i);
    }
    assert_int_equal(sb_batch_rules_admit(&r, 1, "kernel k", err, sizeof err), -1);
    assert_string_equal(err, "kernel k: the batch already holds the 2 operations it was begun for");
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 2);
}

/* An operation refused, or one the backend failed to enqueue and so did
 * not add, takes no place in the batch. */
static void only_added_operations_are_counted(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_begin(&r, 3, err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_add(&r), 0);
    assert_int_equal(sb_batch_rules_admit(&r, 1, "copy", err, sizeof err), 0); /* then fails */
    assert_int_equal(sb_batch_rules_admit(&r, 0, "copy", err, sizeof err), -1);
    assert_int_equal(sb_batch_rules_add(&r), 1);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 2);
}

static void end_always_ends_and_needs_a_beginning(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), -1);
    assert_string_equal(err, "batch_end: no batch was begun");
    assert_int_equal(sb_batch_rules_begin(&r, 4, err, sizeof err), 0);
    sb_batch_rules_add(&r);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 1);
    assert_false(r.open);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), -1);
    /* A new batch starts empty. */
    assert_int_equal(sb_batch_rules_begin(&r, 1, err, sizeof err), 0);
    assert_int_equal(r.count, 0);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), 0);
}

/* A backend that cannot get ready cancels: no batch is left open. */
static void cancel_leaves_no_batch(void **state)
{
    (void)state;
    sb_batch_rules r = {0};
    char err[256] = "";
    assert_int_equal(sb_batch_rules_begin(&r, 4, err, sizeof err), 0);
    sb_batch_rules_cancel(&r);
    assert_false(r.open);
    assert_int_equal(sb_batch_rules_admit(&r, 0, "copy", err, sizeof err), 0);
    assert_int_equal(sb_batch_rules_end(&r, err, sizeof err), -1);
    assert_int_equal(sb_batch_rules_begin(&r, 4, err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_out_of_range_are_refused),
        cmocka_unit_test(a_second_begin_is_refused),
        cmocka_unit_test(outside_a_batch_everything_is_admitted),
        cmocka_unit_test(inside_only_timed_operations_while_there_is_room),
        cmocka_unit_test(only_added_operations_are_counted),
        cmocka_unit_test(end_always_ends_and_needs_a_beginning),
        cmocka_unit_test(cancel_leaves_no_batch),
    };
    SB_TEST_MAIN(tests);
}
