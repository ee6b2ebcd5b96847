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

static bool chunk_free(const struct region_pool *p, uint32_t i)
{
    return test_bit(p->avail, i) && !test_bit(p->used, i);
}

void region_pool_init(struct region_pool *p, uint64_t base, uint32_t nchunks,
                      uint64_t *avail_map, uint64_t *used_map)
{
    p->base = base;
    p->nchunks = nchunks;
    p->nfree = 0;
    p->avail = avail_map;
    p->used = used_map;
    for (uint32_t w = 0; w < REGION_MAP_WORDS(nchunks); w++)
        avail_map[w] = used_map[w] = 0;
}

/* Chunk range [*first, *end) covering [base, base+len) clipped to the pool;
   `inner` keeps only whole chunks, otherwise any overlapped chunk counts. */
static bool chunk_span(const struct region_pool *p, uint64_t base,
                       uint64_t len, bool inner, uint32_t *first,
                       uint32_t *end)
{
    uint64_t lo, hi, top = p->base + (uint64_t)p->nchunks * REGION_CHUNK;

    if (len == 0 || base + len < base)
        return false;
    lo = MAX(base, p->base);
    hi = MIN(base + len, top);
    if (lo >= hi)
        return false;
    lo -= p->base;
    hi -= p->base;
    if (inner) {
        lo = ALIGN_UP(lo, REGION_CHUNK);
        hi = ALIGN_DOWN(hi, REGION_CHUNK);
    } else {
        lo = ALIGN_DOWN(lo, REGION_CHUNK);
        hi = ALIGN_UP(hi, REGION_CHUNK);
    }
    if (lo >= hi)
        return false;
    *first = lo / REGION_CHUNK;
    *end = hi / REGION_CHUNK;
    return true;
}

void region_pool_add_ram(struct region_pool *p, uint64_t base, uint64_t len)
{
    uint32_t first, end;

    if (!chunk_span(p, base, len, true, &first, &end))
        return;
    for (uint32_t i = first; i < end; i++) {
        if (!test_bit(p->avail, i) && !test_bit(p->used, i))
            p->nfree++;
        set_bit(p->avail, i);
    }
}

uint32_t region_reserve(struct region_pool *p, uint64_t base, uint64_t len)
{
    uint32_t first, end, taken = 0;

    if (!chunk_span(p, base, len, false, &first, &end))
        return 0;
    for (uint32_t i = first; i < end; i++) {
        if (chunk_free(p, i)) {
            clear_bit(p->avail, i);
            p->nfree--;
            taken++;
        }
    }
    return taken;
}

int region_alloc(struct region_pool *p, uint64_t bytes, uint64_t *phys)
{
    uint64_t want;
    uint32_t run = 0;

    if (bytes == 0 || bytes > (uint64_t)p->nchunks * REGION_CHUNK)
        return -EINVAL;
    want = ALIGN_UP(bytes, REGION_CHUNK) / REGION_CHUNK;
    if (want > p->nfree)
        return -ENOMEM;
    for (uint32_t i = 0; i < p->nchunks; i++) {
        run = chunk_free(p, i) ? run + 1 : 0;
        if (run == want) {
            uint32_t first = i + 1 - run;
            for (uint32_t j = first; j <= i; j++)
                set_bit(p->used, j);
            p->nfree -= run;
            *phys = p->base + (uint64_t)first * REGION_CHUNK;
            return 0;
        }
    }
    return -ENOMEM;
}

int region_free(struct region_pool *p, uint64_t phys, uint64_t bytes)
{
    uint32_t first, end;
    uint64_t top = p->base + (uint64_t)p->nchunks * REGION_CHUNK;

    if (bytes == 0 || phys < p->base || phys + bytes < phys ||
        phys + bytes > top || !IS_ALIGNED(phys - p->base, REGION_CHUNK))
        return -EINVAL;
    first = (phys - p->base) / REGION_CHUNK;
    end = first + ALIGN_UP(bytes, REGION_CHUNK) / REGION_CHUNK;
    if (end > p->nchunks)
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
    return (uint64_t)p->nfree * REGION_CHUNK;
}

uint64_t region_largest_free(const struct region_pool *p)
{
    uint32_t run = 0, best = 0;

    for (uint32_t i = 0; i < p->nchunks; i++) {
        run = chunk_free(p, i) ? run + 1 : 0;
        best = MAX(best, run);
    }
    return (uint64_t)best * REGION_CHUNK;
}
