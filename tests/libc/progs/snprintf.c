/* SPDX-License-Identifier: MIT */
/* snprintf: integer, string and pointer formats, truncation rules. */
#define PROG "snprintf"
#include <limits.h>
#include <stdint.h>

#include "check.h"

static char buf[128];

#define FMT(want, ...)                          \
    do {                                        \
        snprintf(buf, sizeof buf, __VA_ARGS__); \
        CHECK_STR(buf, want);                   \
    } while (0)

int main(void)
{
    char small[8];
    const char *volatile longstr = "truncated string";
    int n;

    FMT("42|-42|  42|42  |00042", "%d|%d|%4d|%-4d|%05d", 42, -42, 42, 42, 42);
    FMT("ff FF 0xff 377", "%x %X %#x %o", 255, 255, 255, 255);
    FMT("-9223372036854775808", "%lld", LLONG_MIN);
    FMT("18446744073709551615", "%llu", ULLONG_MAX);
    FMT("-128 255", "%hhd %hhu", (signed char)-128, (unsigned char)255);
    FMT("123 -7 9", "%zu %jd %td", (size_t)123, (intmax_t)-7,
        (ptrdiff_t)9);
    FMT("abc|  abc|ab", "%s|%5s|%.2s", "abc", "abc", "abc");
    FMT("   7", "%*d", 4, 7);
    FMT("100%", "%d%%", 100);
    FMT("x", "%c", 'x');
    FMT("0x1234", "%p", (void *)0x1234);

    n = snprintf(small, sizeof small, "%s", longstr);
    CHECK(n == 16);
    CHECK_STR(small, "truncat");
    CHECK(snprintf(NULL, 0, "%d", 123456) == 6);
    printf("snprintf: %s\n", small);
    return check_done();
}
