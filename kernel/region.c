/*
 * Physical region allocator: see include/region.h for the contract.
 */
#include "kernel.h"
#include "region.h"

static bool test_bit(const uint64_t *map, uint32_t i)
{
    return (map[i / 64] >> (i % 64)) & 1;
}

static void set_bit(uint64_t *map, uint32_t i)
{
    map[i / 64] |= 1ULL << (i % 64);
}

static void clear_bit(uint64_t *map, uint32_t i)
{
    map[i / 64] &= ~(1ULL << (i % 64));
}

static bool gran_free(const struct region_pool *p, uint32_t i)
{
    return test_bit(p->avail, i) && !test_bit(p->used, i);
}

static uint64_t gran_size(const struct region_pool *p)
{
    return 1ULL << p->shift;
}

static uint64_t pool_top(const struct region_pool *p)
{
    return p->base + ((uint64_t)p->ngran << p->shift);
}

void region_pool_init(struct region_pool *p, uint64_t base, uint32_t ngran,
                      unsigned shift, uint64_t *maps)
{
    uint32_t words = REGION_MAP_WORDS(ngran);

    *p = (struct region_pool){ .base = base, .ngran = ngran, .shift = shift,
                               .avail = maps, .used = maps + words,
                               .rsvd = maps + 2 * words };
    for (uint32_t w = 0; w < 3 * words; w++)
        maps[w] = 0;
}

/* Granule range [*first, *end) covering [base, base+len) clipped to the
   pool; `inner` keeps only whole granules, otherwise any overlapped one. */
static bool gran_span(const struct region_pool *p, uint64_t base,
                      uint64_t len, bool inner, uint32_t *first,
                      uint32_t *end)
{
    uint64_t lo, hi, g = gran_size(p);

    if (len == 0 || base + len < base)
        return false;
    lo = MAX(base, p->base);
    hi = MIN(base + len, pool_top(p));
    if (lo >= hi)
        return false;
    lo -= p->base;
    hi -= p->base;
    if (inner) {
        lo = ALIGN_UP(lo, g);
        hi = ALIGN_DOWN(hi, g);
    } else {
        lo = ALIGN_DOWN(lo, g);
        hi = ALIGN_UP(hi, g);
    }
    if (lo >= hi)
        return false;
    *first = lo >> p->shift;
    *end = hi >> p->shift;
    return true;
}

void region_pool_add_ram(struct region_pool *p, uint64_t base, uint64_t len)
{
    uint32_t first, end;

    if (!gran_span(p, base, len, true, &first, &end))
        return;
    for (uint32_t i = first; i < end; i++) {
        if (test_bit(p->avail, i) || test_bit(p->rsvd, i))
            continue;
        set_bit(p->avail, i);
        p->nfree++;
    }
}

uint32_t region_reserve(struct region_pool *p, uint64_t base, uint64_t len)
{
    uint32_t first, end, taken = 0;

    if (!gran_span(p, base, len, false, &first, &end))
        return 0;
    for (uint32_t i = first; i < end; i++) {
        if (gran_free(p, i)) {
            clear_bit(p->avail, i);
            set_bit(p->rsvd, i);
            p->nfree--;
            taken++;
        }
    }
    return taken;
}

uint32_t region_unreserve(struct region_pool *p, uint64_t base, uint64_t len)
{
    uint32_t first, end, given = 0;

    if (!gran_span(p, base, len, false, &first, &end))
        return 0;
    for (uint32_t i = first; i < end; i++) {
        if (test_bit(p->rsvd, i)) {
            clear_bit(p->rsvd, i);
            set_bit(p->avail, i);
            p->nfree++;
            given++;
        }
    }
    return given;
}

/* Granules needed for `bytes`, or 0 if the size is zero or absurd. */
static uint32_t grans_for(const struct region_pool *p, uint64_t bytes)
{
    if (bytes == 0 || bytes > ((uint64_t)p->ngran << p->shift))
        return 0;
    return ALIGN_UP(bytes, gran_size(p)) >> p->shift;
}

static void take(struct region_pool *p, uint32_t first, uint32_t n,
                 uint64_t *phys)
{
    for (uint32_t j = first; j < first + n; j++)
        set_bit(p->used, j);
    p->nfree -= n;
    *phys = p->base + ((uint64_t)first << p->shift);
}

int region_alloc(struct region_pool *p, uint64_t bytes, uint64_t *phys)
{
    uint32_t want = grans_for(p, bytes), run = 0;

    if (!want)
        return -EINVAL;
    if (want > p->nfree)
        return -ENOMEM;
    for (uint32_t i = 0; i < p->ngran; i++) {
        run = gran_free(p, i) ? run + 1 : 0;
        if (run == want) {
            take(p, i + 1 - run, run, phys);
            return 0;
        }
    }
    return -ENOMEM;
}

int region_alloc_top(struct region_pool *p, uint64_t bytes, uint64_t *phys)
{
    uint32_t want = grans_for(p, bytes), run = 0;

    if (!want)
        return -EINVAL;
    if (want > p->nfree)
        return -ENOMEM;
    for (uint32_t i = p->ngran; i-- > 0;) {
        run = gran_free(p, i) ? run + 1 : 0;
        if (run == want) {
            take(p, i, run, phys);
            return 0;
        }
    }
    return -ENOMEM;
}

/* [phys, phys+bytes) as granules [*first, *end) of the pool, exactly. */
static bool exact_span(const struct region_pool *p, uint64_t phys,
                       uint64_t bytes, uint32_t *first, uint32_t *end)
{
    uint64_t g = gran_size(p);

    if (bytes == 0 || phys < p->base || phys + bytes < phys ||
        phys + bytes > pool_top(p) || !IS_ALIGNED(phys - p->base, g))
        return false;
    *first = (phys - p->base) >> p->shift;
    *end = *first + (ALIGN_UP(bytes, g) >> p->shift);
    return *end <= p->ngran;
}

int region_alloc_at(struct region_pool *p, uint64_t phys, uint64_t bytes)
{
    uint32_t first, end;
    uint64_t ignored;

    if (!exact_span(p, phys, bytes, &first, &end))
        return -EINVAL;
    for (uint32_t i = first; i < end; i++)
        if (!gran_free(p, i))
            return -ENOMEM;
    take(p, first, end - first, &ignored);
    return 0;
}

int region_free(struct region_pool *p, uint64_t phys, uint64_t bytes)
{
    uint32_t first, end;

    if (!exact_span(p, phys, bytes, &first, &end))
        return -EINVAL;
    /* Check the whole range before changing anything. */
    for (uint32_t i = first; i < end; i++)
        if (!test_bit(p->avail, i) || !test_bit(p->used, i))
            return -EINVAL;
    for (uint32_t i = first; i < end; i++)
        clear_bit(p->used, i);
    p->nfree += end - first;
    return 0;
}

uint64_t region_free_bytes(const struct region_pool *p)
{
    return (uint64_t)p->nfree << p->shift;
}

uint64_t region_largest_free(const struct region_pool *p)
{
    uint32_t run = 0, best = 0;

    for (uint32_t i = 0; i < p->ngran; i++) {
        run = gran_free(p, i) ? run + 1 : 0;
        best = MAX(best, run);
    }
    return (uint64_t)best << p->shift;
}

bool region_contains(const struct region_pool *p, uint64_t phys)
{
    return phys >= p->base && phys < pool_top(p);
}

/* Granule index of a granule boundary in [base, top], or -1. */
static int64_t boundary(const struct region_pool *p, uint64_t phys)
{
    if (phys < p->base || phys > pool_top(p) ||
        !IS_ALIGNED(phys - p->base, gran_size(p)))
        return -1;
    return (int64_t)((phys - p->base) >> p->shift);
}

uint64_t region_free_above(const struct region_pool *p, uint64_t phys)
{
    int64_t i = boundary(p, phys);
    uint64_t n = 0;

    while (i >= 0 && i + n < p->ngran && gran_free(p, i + n))
        n++;
    return n << p->shift;
}

uint64_t region_free_below(const struct region_pool *p, uint64_t phys)
{
    int64_t i = boundary(p, phys);
    uint64_t n = 0;

    while (i >= 0 && (uint64_t)i > n && gran_free(p, i - 1 - n))
        n++;
    return n << p->shift;
}
