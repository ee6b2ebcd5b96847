/*
 * The stripe arithmetic of striped files (yod/pfs_map.h) against a model
 * that places every logical byte by walking the file unit by unit,
 * round-robin over the stripes: where each byte lands, that no two land
 * on one place, each stripe's size for a logical size, and the logical
 * size back from the stripes' sizes (how a server computes st_size), for
 * small layouts byte by byte and for offsets past 4 GiB.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pfs_map.h"

struct layout { uint32_t factor; uint64_t unit; };
/* Small units only in the model (the sums do not care; the checks of
   pfs_layout_ok are their own test). */
static const struct layout small[] = {
    { 1, 4 }, { 2, 4 }, { 3, 5 }, { 4, 1 }, { 5, 7 }, { 8, 3 },
};
#define SPAN 400                /* logical bytes walked per layout */

/* The model: byte o goes to stripe s at offset p, by walking. */
static void model(const struct layout *l, uint32_t *s, uint64_t *p)
{
    uint64_t fill[64] = { 0 };

    for (uint64_t o = 0; o < SPAN; o++) {
        uint32_t k = (uint32_t)(o / l->unit % l->factor);
        s[o] = k;
        p[o] = fill[k]++;
    }
}

static void test_placement(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof(small) / sizeof(small[0]); t++) {
        const struct layout *l = &small[t];
        uint32_t s[SPAN];
        uint64_t p[SPAN];

        model(l, s, p);
        for (uint64_t o = 0; o < SPAN; o++) {
            assert_int_equal(pfs_stripe_of(o, l->unit, l->factor), s[o]);
            assert_int_equal(pfs_stripe_off(o, l->unit, l->factor), p[o]);
            assert_int_equal(pfs_unit_left(o, l->unit),
                             l->unit - o % l->unit);
            for (uint64_t q = 0; q < o; q++)    /* one byte per place */
                assert_false(s[q] == s[o] && p[q] == p[o]);
        }
    }
}

static void test_sizes(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof(small) / sizeof(small[0]); t++) {
        const struct layout *l = &small[t];
        uint32_t s[SPAN];
        uint64_t p[SPAN];

        model(l, s, p);
        for (uint64_t size = 0; size < SPAN; size++) {
            uint64_t end = 0;

            for (uint32_t i = 0; i < l->factor; i++) {
                uint64_t want = 0, got = pfs_stripe_size(size, i, l->unit,
                                                         l->factor);
                for (uint64_t o = 0; o < size; o++)
                    if (s[o] == i)
                        want = p[o] + 1;
                assert_int_equal(got, want);
                end = pfs_logical_end(got, i, l->unit, l->factor) > end
                      ? pfs_logical_end(got, i, l->unit, l->factor) : end;
            }
            assert_int_equal(end, size);        /* st_size, back again */
        }
    }
}

/* A stripe holding bytes up to its length `len` ends the file at the
   logical end of its last byte: stripe i alone written (holes before). */
static void test_logical_end(void **state)
{
    (void)state;
    assert_int_equal(pfs_logical_end(0, 3, 4096, 4), 0);
    assert_int_equal(pfs_logical_end(1, 0, 4096, 4), 1);
    assert_int_equal(pfs_logical_end(1, 1, 4096, 4), 4097);
    assert_int_equal(pfs_logical_end(4096, 3, 4096, 4), 4 * 4096);
    assert_int_equal(pfs_logical_end(4097, 0, 4096, 4), 4 * 4096 + 1);
}

/* Past 4 GiB and at the largest layout: no 32-bit sums anywhere. */
static void test_large(void **state)
{
    uint64_t unit = PFS_UNIT_MAX, o = 5000000000123ull;
    uint32_t f = PFS_FACTOR_MAX, i = pfs_stripe_of(o, unit, f);
    uint64_t at = pfs_stripe_off(o, unit, f);

    (void)state;
    assert_int_equal(i, o / unit % f);
    assert_int_equal(at, o / (unit * f) * unit + o % unit);
    assert_int_equal(pfs_logical_end(at + 1, i, unit, f), o + 1);
    assert_int_equal(pfs_stripe_size(o + 1, i, unit, f), at + 1);
    assert_int_equal(pfs_stripe_of(6ull << 32, 1 << 20, 3),
                     (6ull << 32) / (1 << 20) % 3);
}

static void test_layout_ok(void **state)
{
    (void)state;
    assert_true(pfs_layout_ok(1, PFS_UNIT_MIN));
    assert_true(pfs_layout_ok(PFS_FACTOR_MAX, PFS_UNIT_MAX));
    assert_true(pfs_layout_ok(3, PFS_UNIT_DEFAULT));
    assert_false(pfs_layout_ok(0, PFS_UNIT_DEFAULT));
    assert_false(pfs_layout_ok(PFS_FACTOR_MAX + 1, PFS_UNIT_DEFAULT));
    assert_false(pfs_layout_ok(2, PFS_UNIT_MIN - 1));
    assert_false(pfs_layout_ok(2, PFS_UNIT_MIN + 1000));
    assert_false(pfs_layout_ok(2, PFS_UNIT_MAX + PFS_UNIT_MIN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_logical_end),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_layout_ok),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
