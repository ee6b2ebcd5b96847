/*
 * Host tests of the kernel formatter (kernel/printf.c): every case is
 * checked against the C library's snprintf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "printf.h"

#define SAME(...)                                                           \
    do {                                                                    \
        char k_[128], c_[128];                                              \
        int kn_ = ksnprintf(k_, sizeof(k_), __VA_ARGS__);                   \
        int cn_ = snprintf(c_, sizeof(c_), __VA_ARGS__);                    \
        assert_string_equal(k_, c_);                                        \
        assert_int_equal(kn_, cn_);                                         \
    } while (0)

static void integers(void **s)
{
    (void)s;
    SAME("%d %i %u", 0, -1, 4000000000u);
    SAME("%ld %lu %lld %llu", -9223372036854775807L - 1, ~0UL, -5LL, ~0ULL);
    SAME("%hd %hu %hhd %hhu", (short)-3, (unsigned short)65535, (signed char)-7, (unsigned char)250);
    SAME("%zu %zx", (size_t)123, (size_t)0xfff);
    SAME("%x %X %o %#x %#X %#o", 0xbeefu, 0xbeefu, 8u, 0xbeefu, 0xbeefu, 8u);
    SAME("%#x %#o", 0u, 0u);
}

static void widths_and_flags(void **s)
{
    (void)s;
    SAME("[%5d][%-5d][%05d][%+d][% d]", 42, 42, 42, 42, 42);
    SAME("[%5d][%-5d][%05d]", -42, -42, -42);
    SAME("[%*d][%-*d][%.*d]", 6, 1, 6, 1, 4, 7);
    SAME("[%.3d][%8.3d][%-8.3d]", 5, 5, 5);
    SAME("[%.0d][%.0x]", 0, 0u);
    SAME("[%016lx][%#018lx]", 0xffffffff80000000UL, 0x1234UL);
}

static void strings_and_chars(void **s)
{
    (void)s;
    SAME("[%s][%10s][%-10s][%.2s][%*.*s]", "abc", "abc", "abc", "abc", 6, 1, "xyz");
    SAME("[%c][%3c][%-3c]", 'a', 'b', 'c');
    SAME("100%% sure");
    SAME("%p", (void *)0x1234);
}

static void truncation_and_return_value(void **s)
{
    char b[8];
    (void)s;
    assert_int_equal(ksnprintf(b, sizeof(b), "%s", "0123456789"), 10);
    assert_string_equal(b, "0123456");
    assert_int_equal(ksnprintf(b, 1, "abc"), 3);
    assert_string_equal(b, "");
    assert_int_equal(ksnprintf(NULL, 0, "%d", 12345), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers),
        cmocka_unit_test(widths_and_flags),
        cmocka_unit_test(strings_and_chars),
        cmocka_unit_test(truncation_and_return_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
