/*
 * Host tests of the kernel command-line parser (kernel/cmdline.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "errno.h"
#include "cmdline.h"

static struct cmdline cl;

static void key_value_and_flags(void **s)
{
    (void)s;
    cmdline_parse(&cl, "build/kernel.elf nid=3  test=all quiet");
    assert_int_equal(cl.n, 4);
    assert_string_equal(cmdline_get(&cl, "nid"), "3");
    assert_string_equal(cmdline_get(&cl, "test"), "all");
    assert_string_equal(cmdline_get(&cl, "quiet"), "");
    assert_null(cmdline_get(&cl, "missing"));
    assert_false(cl.truncated);
}

static void quoted_values_keep_spaces(void **s)
{
    (void)s;
    cmdline_parse(&cl, "app=\"hello world\" x=1");
    assert_string_equal(cmdline_get(&cl, "app"), "hello world");
    assert_string_equal(cmdline_get(&cl, "x"), "1");
}

static void last_occurrence_wins(void **s)
{
    (void)s;
    cmdline_parse(&cl, "nid=1 nid=7");
    assert_string_equal(cmdline_get(&cl, "nid"), "7");
}

static void numbers_with_suffixes(void **s)
{
    uint64_t v;
    (void)s;
    cmdline_parse(&cl, "a=42 b=0x10 c=2M d=1G e=12x f= g=99999999999999999999999 h=4K");
    assert_int_equal(cmdline_get_u64(&cl, "a", 0, &v), 0); assert_int_equal(v, 42);
    assert_int_equal(cmdline_get_u64(&cl, "b", 0, &v), 0); assert_int_equal(v, 16);
    assert_int_equal(cmdline_get_u64(&cl, "c", 0, &v), 0); assert_int_equal(v, 2 << 20);
    assert_int_equal(cmdline_get_u64(&cl, "d", 0, &v), 0); assert_int_equal(v, 1 << 30);
    assert_int_equal(cmdline_get_u64(&cl, "h", 0, &v), 0); assert_int_equal(v, 4096);
    v = 5;
    assert_int_equal(cmdline_get_u64(&cl, "e", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_u64(&cl, "f", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_u64(&cl, "g", 0, &v), -EINVAL);
    assert_int_equal(v, 5);
    assert_int_equal(cmdline_get_u64(&cl, "zz", 77, &v), 0); assert_int_equal(v, 77);
}

static void overlong_input_is_truncated_not_overflowed(void **s)
{
    char big[4096], key[200];
    (void)s;
    memset(key, 'k', sizeof(key) - 1);
    key[sizeof(key) - 1] = 0;
    snprintf(big, sizeof(big), "%s=1", key);
    cmdline_parse(&cl, big);
    assert_true(cl.truncated);
    assert_int_equal(strlen(cl.arg[0].key), CMDLINE_KEY_LEN - 1);
    big[0] = 0;
    for (int i = 0; i < 100; i++)
        strcat(big, "a=b ");
    cmdline_parse(&cl, big);
    assert_int_equal(cl.n, CMDLINE_MAX_ARGS);
    assert_true(cl.truncated);
}

static void empty_and_blank(void **s)
{
    (void)s;
    cmdline_parse(&cl, "");
    assert_int_equal(cl.n, 0);
    cmdline_parse(&cl, "   \t  ");
    assert_int_equal(cl.n, 0);
    cmdline_parse(&cl, "x=\"unterminated");
    assert_string_equal(cmdline_get(&cl, "x"), "unterminated");
}

static void rates_in_percent_or_ppm(void **s)
{
    uint32_t v;
    (void)s;
    cmdline_parse(&cl, "a=5 b=0.5 c=0.0001 d=100 e=250ppm f=2.5% g=0 h=100.0001 "
                       "i=0.00001 j=1.5ppm k=ppm l=. m=5x n=2000000ppm o=-1");
    assert_int_equal(cmdline_get_ppm(&cl, "a", 9, &v), 0); assert_int_equal(v, 50000);
    assert_int_equal(cmdline_get_ppm(&cl, "b", 9, &v), 0); assert_int_equal(v, 5000);
    assert_int_equal(cmdline_get_ppm(&cl, "c", 9, &v), 0); assert_int_equal(v, 1);
    assert_int_equal(cmdline_get_ppm(&cl, "d", 9, &v), 0); assert_int_equal(v, 1000000);
    assert_int_equal(cmdline_get_ppm(&cl, "e", 9, &v), 0); assert_int_equal(v, 250);
    assert_int_equal(cmdline_get_ppm(&cl, "f", 9, &v), 0); assert_int_equal(v, 25000);
    assert_int_equal(cmdline_get_ppm(&cl, "g", 9, &v), 0); assert_int_equal(v, 0);
    assert_int_equal(cmdline_get_ppm(&cl, "absent", 9, &v), 0); assert_int_equal(v, 9);
    v = 7;
    assert_int_equal(cmdline_get_ppm(&cl, "h", 0, &v), -EINVAL);   /* > 100% */
    assert_int_equal(cmdline_get_ppm(&cl, "i", 0, &v), -EINVAL);   /* < 1 ppm step */
    assert_int_equal(cmdline_get_ppm(&cl, "j", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_ppm(&cl, "k", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_ppm(&cl, "l", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_ppm(&cl, "m", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_ppm(&cl, "n", 0, &v), -EINVAL);
    assert_int_equal(cmdline_get_ppm(&cl, "o", 0, &v), -EINVAL);
    assert_int_equal(v, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_value_and_flags),
        cmocka_unit_test(quoted_values_keep_spaces),
        cmocka_unit_test(last_occurrence_wins),
        cmocka_unit_test(numbers_with_suffixes),
        cmocka_unit_test(overlong_input_is_truncated_not_overflowed),
        cmocka_unit_test(empty_and_blank),
        cmocka_unit_test(rates_in_percent_or_ppm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
