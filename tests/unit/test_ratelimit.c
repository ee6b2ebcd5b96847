/*
 * kernel/ratelimit.c: the first event of a kind gets a line, then at most
 * one per interval; every event in between is counted and the count is
 * given with the next line or by a flush, exactly once; a clock that
 * does not move (a tight loop) never gets a second line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ratelimit.h"

#define SEC 1000000000ull

static void first_then_counted(void **s)
{
    struct ratelimit rl = RATELIMIT_INIT(SEC);
    uint64_t missed = 99;

    (void)s;
    assert_int_equal(ratelimit_event(&rl, 5, &missed), 1);
    assert_int_equal(missed, 0);
    for (int i = 0; i < 100000; i++)
        assert_int_equal(ratelimit_event(&rl, 5 + (uint64_t)i, &missed), 0);
    assert_int_equal(ratelimit_event(&rl, 5 + SEC, &missed), 1);
    assert_int_equal(missed, 100000);
    assert_int_equal(ratelimit_flush(&rl), 0);
}

/* Over 10 s of events every millisecond: 10 lines (one per second), and
   the counts of the lines and the flush add up to every event. */
static void a_line_per_interval(void **s)
{
    struct ratelimit rl = RATELIMIT_INIT(SEC);
    uint64_t missed, lines = 0, counted = 0;

    (void)s;
    for (uint64_t t = 0; t < 10 * SEC; t += SEC / 1000)
        if (ratelimit_event(&rl, t, &missed)) {
            lines++;
            counted += missed + 1;
        }
    counted += ratelimit_flush(&rl);
    assert_int_equal(lines, 10);
    assert_int_equal(counted, 10000);
    assert_int_equal(ratelimit_flush(&rl), 0);
}

/* Time zero is a time like any other; a clock that stands still gets
   one line only. */
static void clock_at_zero(void **s)
{
    struct ratelimit rl = RATELIMIT_INIT(SEC);
    uint64_t missed;

    (void)s;
    assert_int_equal(ratelimit_event(&rl, 0, &missed), 1);
    assert_int_equal(ratelimit_event(&rl, 0, &missed), 0);
    assert_int_equal(ratelimit_event(&rl, 0, &missed), 0);
    assert_int_equal(ratelimit_flush(&rl), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_then_counted),
        cmocka_unit_test(a_line_per_interval),
        cmocka_unit_test(clock_at_zero),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
