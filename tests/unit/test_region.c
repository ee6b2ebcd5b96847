/*
 * Host tests of the physical region allocator (kernel/region.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "errno.h"
#include "region.h"

#define MB (1024ULL * 1024)
#define CH REGION_CHUNK
#define NCH 512                 /* 1 GiB pool */

static uint64_t maps[3 * REGION_MAP_WORDS(NCH)];
static struct region_pool pool;

static void fresh(uint64_t ram_base, uint64_t ram_len)
{
    region_pool_init(&pool, 0, NCH, REGION_CHUNK_SHIFT, maps);
    region_pool_add_ram(&pool, ram_base, ram_len);
}

static void add_ram_takes_whole_chunks_only(void **s)
{
    (void)s;
    fresh(1 * MB, 9 * MB);      /* [1,10) MB: chunks 1..4 whole (2-10) */
    assert_int_equal(region_free_bytes(&pool), 8 * MB);
    region_pool_add_ram(&pool, 11 * MB, 2 * MB);    /* no whole chunk */
    assert_int_equal(region_free_bytes(&pool), 8 * MB);
}

static void alloc_is_aligned_and_rounded(void **s)
{
    uint64_t a, b;
    (void)s;
    fresh(0, 64 * MB);
    assert_int_equal(region_alloc(&pool, 1, &a), 0);
    assert_int_equal(a % CH, 0);
    assert_int_equal(region_alloc(&pool, 3 * MB, &b), 0);
    assert_int_equal(b % CH, 0);
    assert_true(b >= a + CH);   /* 1 byte still takes a whole chunk */
    assert_int_equal(region_free_bytes(&pool), 64 * MB - 6 * MB);
}

static void alloc_is_first_fit_lowest(void **s)
{
    uint64_t a, b, c;
    (void)s;
    fresh(0, 64 * MB);
    assert_int_equal(region_alloc(&pool, CH, &a), 0);
    assert_int_equal(region_alloc(&pool, CH, &b), 0);
    assert_int_equal(a, 0);
    assert_int_equal(b, CH);
    assert_int_equal(region_free(&pool, a, CH), 0);
    assert_int_equal(region_alloc(&pool, CH, &c), 0);
    assert_int_equal(c, 0);     /* deterministic reuse */
}

static void reserve_removes_overlapping_chunks(void **s)
{
    uint64_t a;
    (void)s;
    fresh(0, 16 * MB);
    /* 1 MiB at 3 MiB overlaps chunk 1 only. */
    assert_int_equal(region_reserve(&pool, 3 * MB, 1 * MB), 1);
    assert_int_equal(region_free_bytes(&pool), 14 * MB);
    assert_int_equal(region_alloc(&pool, 2 * CH, &a), 0);
    assert_int_equal(a, 4 * MB);                /* skips the hole at 0 */
    /* A reserved chunk can never be freed into the pool. */
    assert_int_equal(region_free(&pool, 2 * MB, CH), -EINVAL);
    assert_int_equal(region_reserve(&pool, 2 * MB, 1), 0);
}

static void exhaustion_is_clean(void **s)
{
    uint64_t p, got[8];
    (void)s;
    fresh(0, 16 * MB);
    for (int i = 0; i < 8; i++)
        assert_int_equal(region_alloc(&pool, CH, &got[i]), 0);
    p = 0xdead;
    assert_int_equal(region_alloc(&pool, CH, &p), -ENOMEM);
    assert_int_equal(p, 0xdead);               /* untouched on failure */
    assert_int_equal(region_free_bytes(&pool), 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(region_free(&pool, got[i], CH), 0);
    assert_int_equal(region_free_bytes(&pool), 16 * MB);
}

static void fragmentation_blocks_large_requests(void **s)
{
    uint64_t got[8], p;
    (void)s;
    fresh(0, 16 * MB);
    for (int i = 0; i < 8; i++)
        assert_int_equal(region_alloc(&pool, CH, &got[i]), 0);
    for (int i = 0; i < 8; i += 2)
        assert_int_equal(region_free(&pool, got[i], CH), 0);
    assert_int_equal(region_free_bytes(&pool), 8 * MB);
    assert_int_equal(region_largest_free(&pool), CH);
    assert_int_equal(region_alloc(&pool, 2 * CH, &p), -ENOMEM);
}

static void bad_sizes_and_frees_are_refused(void **s)
{
    uint64_t p, a;
    (void)s;
    fresh(0, 16 * MB);
    assert_int_equal(region_alloc(&pool, 0, &p), -EINVAL);
    assert_int_equal(region_alloc(&pool, ~0ULL, &p), -EINVAL);
    assert_int_equal(region_alloc(&pool, 17 * MB, &p), -ENOMEM);
    assert_int_equal(region_alloc(&pool, CH, &a), 0);
    assert_int_equal(region_free(&pool, a + 4096, CH), -EINVAL);   /* misaligned */
    assert_int_equal(region_free(&pool, a, 0), -EINVAL);
    assert_int_equal(region_free(&pool, a, 2 * CH), -EINVAL);      /* 2nd not ours */
    assert_int_equal(region_free(&pool, 2048 * MB, CH), -EINVAL);
    assert_int_equal(region_free(&pool, ~0ULL - CH + 1, CH), -EINVAL);
    assert_int_equal(region_free(&pool, a, CH), 0);
    assert_int_equal(region_free(&pool, a, CH), -EINVAL);          /* double */
    assert_int_equal(region_free_bytes(&pool), 16 * MB);
}

static void add_ram_never_revives_reserved(void **s)
{
    (void)s;
    fresh(0, 16 * MB);
    assert_int_equal(region_reserve(&pool, 0, 1), 1);
    region_pool_add_ram(&pool, 0, 16 * MB);     /* an overlapping range */
    assert_int_equal(region_free_bytes(&pool), 14 * MB);
}

/* Boot modules: reserved at boot, given back once loaded.  Only reserved
   granules come back: never RAM that is allocated, free or absent. */
static void unreserve_gives_back_only_reserved(void **s)
{
    uint64_t a, b;
    (void)s;
    fresh(0, 16 * MB);                          /* chunks 0..7 are RAM */
    assert_int_equal(region_alloc(&pool, CH, &a), 0);          /* chunk 0 */
    assert_int_equal(region_reserve(&pool, 3 * MB, 3 * MB), 2);  /* 1, 2 */
    assert_int_equal(region_free_bytes(&pool), 10 * MB);
    assert_int_equal(region_alloc(&pool, 2 * CH, &b), 0);
    assert_int_equal(b, 6 * MB);                /* around the reservation */
    /* Over everything, and past the RAM: only chunks 1 and 2 return. */
    assert_int_equal(region_unreserve(&pool, 0, 64 * MB), 2);
    assert_int_equal(region_free_bytes(&pool), 10 * MB);
    assert_int_equal(region_unreserve(&pool, 0, 64 * MB), 0);  /* twice */
    assert_int_equal(region_free(&pool, a, CH), 0);  /* still allocated */
    assert_int_equal(region_alloc_at(&pool, 2 * MB, 2 * CH), 0);
    assert_int_equal(region_free_bytes(&pool), 8 * MB);
    /* Chunks 8.. are not RAM: nothing to give back, nothing appears. */
    assert_int_equal(region_reserve(&pool, 16 * MB, 8 * MB), 0);
    assert_int_equal(region_unreserve(&pool, 16 * MB, 8 * MB), 0);
    assert_int_equal(region_alloc_at(&pool, 16 * MB, CH), -ENOMEM);
}

/* Two modules share a chunk: giving one back, then reserving what the
   other holds again (mem.c's order), keeps the shared chunk out. */
static void shared_chunk_stays_reserved(void **s)
{
    (void)s;
    fresh(0, 16 * MB);
    region_reserve(&pool, 1 * MB, 4 * MB);      /* module A: chunks 0..2 */
    region_reserve(&pool, 5 * MB, 2 * MB);      /* module B: chunks 2, 3 */
    assert_int_equal(region_free_bytes(&pool), 8 * MB);
    region_unreserve(&pool, 1 * MB, 4 * MB);    /* A is loaded */
    region_reserve(&pool, 5 * MB, 2 * MB);      /* B is not */
    assert_int_equal(region_free_bytes(&pool), 12 * MB);
    assert_int_equal(region_alloc_at(&pool, 0, 2 * CH), 0);
    assert_int_equal(region_alloc_at(&pool, 4 * MB, CH), -ENOMEM);
}

static void alloc_top_takes_the_highest_fit(void **s)
{
    uint64_t a, b, c;
    (void)s;
    fresh(0, 16 * MB);
    assert_int_equal(region_alloc_top(&pool, CH, &a), 0);
    assert_int_equal(a, 14 * MB);
    assert_int_equal(region_alloc_top(&pool, 3 * MB, &b), 0);
    assert_int_equal(b, 10 * MB);
    assert_int_equal(region_free(&pool, a, CH), 0);
    assert_int_equal(region_alloc_top(&pool, 2 * CH, &c), 0);
    assert_int_equal(c, 6 * MB);    /* the one free chunk on top is too small */
    assert_int_equal(region_alloc_top(&pool, 4 * CH, &c), -ENOMEM);
    assert_int_equal(region_alloc_top(&pool, 0, &c), -EINVAL);
}

static void alloc_at_is_exact_or_nothing(void **s)
{
    uint64_t a;
    (void)s;
    fresh(0, 16 * MB);
    assert_int_equal(region_alloc(&pool, CH, &a), 0);          /* chunk 0 */
    assert_int_equal(region_alloc_at(&pool, 0, 2 * CH), -ENOMEM);
    assert_int_equal(region_free_bytes(&pool), 14 * MB);       /* unchanged */
    assert_int_equal(region_alloc_at(&pool, CH + 4096, CH), -EINVAL);
    assert_int_equal(region_alloc_at(&pool, 14 * MB, 2 * CH), -ENOMEM);
    assert_int_equal(region_alloc_at(&pool, 1024 * MB, CH), -EINVAL);
    assert_int_equal(region_alloc_at(&pool, CH, 0), -EINVAL);
    assert_int_equal(region_alloc_at(&pool, CH, 3 * MB), 0);   /* 1, 2 */
    assert_int_equal(region_free_bytes(&pool), 10 * MB);
    assert_int_equal(region_free(&pool, CH, 2 * CH), 0);
}

static void free_runs_above_and_below(void **s)
{
    (void)s;
    fresh(0, 16 * MB);
    assert_int_equal(region_alloc_at(&pool, 6 * MB, CH), 0);   /* chunk 3 */
    assert_int_equal(region_free_below(&pool, 6 * MB), 6 * MB);
    assert_int_equal(region_free_above(&pool, 6 * MB), 0);
    assert_int_equal(region_free_above(&pool, 8 * MB), 8 * MB);
    assert_int_equal(region_free_below(&pool, 16 * MB), 8 * MB);
    assert_int_equal(region_free_below(&pool, 0), 0);
    assert_int_equal(region_free_above(&pool, 3 * MB), 0);     /* misaligned */
    assert_int_equal(region_free_below(&pool, 2048 * MB), 0);  /* outside */
    assert_true(region_contains(&pool, 0));
    assert_false(region_contains(&pool, 1024 * MB));
}

/* A pool of 4 KiB pages over one partly usable chunk, as mem.c keeps for
   the chunk under the firmware tables at the top of a PC's RAM. */
static void page_pool_over_a_partial_chunk(void **s)
{
    static uint64_t pmaps[3 * REGION_MAP_WORDS(512)];
    struct region_pool pp;
    uint64_t top = 0x7E00000, ram_end = 0x7FDF000, a, b;
    (void)s;
    region_pool_init(&pp, top, 512, REGION_PAGE_SHIFT, pmaps);
    region_pool_add_ram(&pp, 0x100000, ram_end - 0x100000);    /* clipped */
    assert_int_equal(region_free_bytes(&pp), ram_end - top);   /* 479 pages */
    assert_int_equal(region_alloc_top(&pp, 52 * 1024, &a), 0);
    assert_int_equal(a, ram_end - 52 * 1024);
    assert_int_equal(region_alloc_top(&pp, 1, &b), 0);         /* one page */
    assert_int_equal(b, a - 4096);
    assert_int_equal(region_free_above(&pp, top), b - top);    /* the tail */
    assert_int_equal(region_alloc_at(&pp, ram_end, 4096), -ENOMEM);
    assert_int_equal(region_alloc(&pp, 2 * MB, &a), -ENOMEM);
    assert_int_equal(region_free(&pp, b, 4096), 0);
    assert_int_equal(region_free(&pp, b + 1, 4096), -EINVAL);
}

/* Random allocations (from the bottom and from the top) and frees against
   a shadow map: no overlap, no misalignment, every byte accounted for,
   everything back at the end. */
static void random_never_overlaps(void **s)
{
    struct { uint64_t base, len; } live[64];
    int n = 0;
    unsigned char owner[NCH] = { 0 };
    (void)s;
    fresh(0, 1024 * MB);
    srand(12345);
    for (int step = 0; step < 20000; step++) {
        if (n < 64 && (rand() % 3 || n == 0)) {
            uint64_t len = (uint64_t)(rand() % (40 * MB)) + 1, p;
            int rc = rand() % 2 ? region_alloc(&pool, len, &p)
                                : region_alloc_top(&pool, len, &p);
            if (rc == -ENOMEM)
                continue;
            assert_int_equal(rc, 0);
            assert_int_equal(p % CH, 0);
            for (uint64_t c = p / CH; c < (p + len + CH - 1) / CH; c++) {
                assert_int_equal(owner[c], 0);
                owner[c] = 1;
            }
            live[n].base = p;
            live[n++].len = len;
        } else {
            int i = rand() % n;
            assert_int_equal(region_free(&pool, live[i].base, live[i].len), 0);
            for (uint64_t c = live[i].base / CH;
                 c < (live[i].base + live[i].len + CH - 1) / CH; c++)
                owner[c] = 0;
            live[i] = live[--n];
        }
        uint64_t inuse = 0;
        for (int c = 0; c < NCH; c++)
            inuse += owner[c];
        assert_int_equal(region_free_bytes(&pool), (NCH - inuse) * CH);
    }
    while (n--)
        assert_int_equal(region_free(&pool, live[n].base, live[n].len), 0);
    assert_int_equal(region_free_bytes(&pool), 1024 * MB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_ram_takes_whole_chunks_only),
        cmocka_unit_test(alloc_is_aligned_and_rounded),
        cmocka_unit_test(alloc_is_first_fit_lowest),
        cmocka_unit_test(reserve_removes_overlapping_chunks),
        cmocka_unit_test(exhaustion_is_clean),
        cmocka_unit_test(fragmentation_blocks_large_requests),
        cmocka_unit_test(bad_sizes_and_frees_are_refused),
        cmocka_unit_test(random_never_overlaps),
        cmocka_unit_test(add_ram_never_revives_reserved),
        cmocka_unit_test(unreserve_gives_back_only_reserved),
        cmocka_unit_test(shared_chunk_stays_reserved),
        cmocka_unit_test(alloc_top_takes_the_highest_fit),
        cmocka_unit_test(alloc_at_is_exact_or_nothing),
        cmocka_unit_test(free_runs_above_and_below),
        cmocka_unit_test(page_pool_over_a_partial_chunk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
