/*
 * Host tests of the kernel's memcpy, memset and memmove (kernel/lib.c):
 * every length 0..300 at every alignment of source and destination against
 * byte loops, and nothing written outside the range.  The kernel's
 * definitions are renamed so they do not replace the host's own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define memcpy  k_memcpy
#define memmove k_memmove
#define memset  k_memset
#define memcmp  k_memcmp
#define strlen  k_strlen
#define strcmp  k_strcmp
#define strncmp k_strncmp
#define strchr  k_strchr
#include "../../kernel/lib.c"

#define MAXN    300
#define GUARD   16
#define BUF     (GUARD + 8 + MAXN + GUARD)

static unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)(i * 131 + seed * 7 + 1);
}

static void fill(unsigned char *b, unsigned seed)
{
    for (size_t i = 0; i < BUF; i++)
        b[i] = pattern(i, seed);
}

static void copies(void **s)
{
    unsigned char src[BUF], dst[BUF];

    (void)s;
    for (size_t n = 0; n <= MAXN; n++)
        for (size_t sa = 0; sa < 8; sa++)
            for (size_t da = 0; da < 8; da++) {
                fill(src, 1);
                fill(dst, 2);
                unsigned char *d = dst + GUARD + da;
                assert_ptr_equal(k_memcpy(d, src + GUARD + sa, n), d);
                for (size_t i = 0; i < BUF; i++) {
                    size_t off = i - (GUARD + da);
                    unsigned char want = i >= GUARD + da && off < n
                        ? pattern(GUARD + sa + off, 1) : pattern(i, 2);
                    if (dst[i] != want)
                        fail_msg("memcpy n=%zu sa=%zu da=%zu: byte %zu is "
                                 "%u, want %u", n, sa, da, i, dst[i], want);
                }
            }
}

static void sets(void **s)
{
    static const int values[] = { 0, 0xa5, 0x1ff, -1 };
    unsigned char dst[BUF];

    (void)s;
    for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++)
        for (size_t n = 0; n <= MAXN; n++)
            for (size_t da = 0; da < 8; da++) {
                fill(dst, 3);
                unsigned char *d = dst + GUARD + da;
                assert_ptr_equal(k_memset(d, values[v], n), d);
                for (size_t i = 0; i < BUF; i++) {
                    size_t off = i - (GUARD + da);
                    unsigned char want = i >= GUARD + da && off < n
                        ? (unsigned char)values[v] : pattern(i, 3);
                    if (dst[i] != want)
                        fail_msg("memset c=%d n=%zu da=%zu: byte %zu is %u, "
                                 "want %u", values[v], n, da, i, dst[i], want);
                }
            }
}

/* Overlapping moves both ways, through memcpy when the overlap allows. */
static void moves(void **s)
{
    unsigned char b[BUF], want[BUF];

    (void)s;
    for (size_t n = 0; n <= MAXN - 80; n += 7)
        for (int shift = -70; shift <= 70; shift += 3) {
            size_t from = GUARD + 72, to = (size_t)((int)from + shift);
            if (from + n > BUF || to + n > BUF)
                continue;
            fill(b, 4);
            fill(want, 4);
            for (size_t i = 0; i < n; i++)
                want[to + i] = pattern(from + i, 4);
            assert_ptr_equal(k_memmove(b + to, b + from, n), b + to);
            assert_memory_equal(b, want, BUF);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copies),
        cmocka_unit_test(sets),
        cmocka_unit_test(moves),
    };
    return cmocka_run_group_tests_name("kernel lib", tests, NULL, NULL);
}
