/*
 * The physical region allocator: hands out physically contiguous, aligned
 * runs of fixed-size granules of RAM and takes them back.  Cougar maps
 * every process region with large pages and keeps it present from load to
 * exit, so this is the kernel's only physical allocator.  mem.c keeps one
 * pool of 2 MB chunks (the application memory, mapped with 2 MB pages) and
 * a few pools of 4 KiB pages inside chunks that are only partly RAM or hold
 * the kernel (see mem.h).
 *
 * State is three bitmaps over the granules between `base` and `base +
 * ngran << shift`:
 *   avail  RAM the allocator may hand out (entirely RAM, not reserved);
 *   used   allocated (always inside avail);
 *   rsvd   RAM taken out by region_reserve (kernel image, boot modules),
 *          never in avail; only these can be given back by region_unreserve.
 * Placement is deterministic: first fit from the lowest address, or from
 * the highest with region_alloc_top.
 * Pure logic: unit-tested on the host (tests/unit/test_region.c).
 */
#ifndef REGION_H
#define REGION_H

#include <stdbool.h>
#include <stdint.h>

#define REGION_CHUNK        0x200000UL
#define REGION_CHUNK_SHIFT  21
#define REGION_PAGE_SHIFT   12

struct region_pool {
    uint64_t base;              /* physical address of granule 0 */
    uint32_t ngran;             /* granules in the pool */
    uint32_t nfree;
    unsigned shift;             /* a granule is 1 << shift bytes */
    uint64_t *avail, *used, *rsvd;
};

/* Words of bitmap storage per bitmap for `ngran` granules; a pool needs
   three bitmaps, so its `maps` array holds 3 * REGION_MAP_WORDS(ngran). */
#define REGION_MAP_WORDS(ngran)     (((ngran) + 63) / 64)

void region_pool_init(struct region_pool *p, uint64_t base, uint32_t ngran,
                      unsigned shift, uint64_t *maps);
/* Make the whole granules inside [base, base+len) available. */
void region_pool_add_ram(struct region_pool *p, uint64_t base, uint64_t len);
/* Take every available granule that overlaps [base, base+len) out of the
   pool (kernel image, boot modules).  Returns the granules taken; one
   already allocated is left alone and not counted. */
uint32_t region_reserve(struct region_pool *p, uint64_t base, uint64_t len);
/* Give back every reserved granule that overlaps [base, base+len).  Returns
   the granules given back: a granule that was not reserved (not RAM,
   allocated, or free) is left alone, so nothing but reserved RAM can ever
   enter the pool this way. */
uint32_t region_unreserve(struct region_pool *p, uint64_t base, uint64_t len);
/* Allocate `bytes` (rounded up to whole granules), first fit from the
   lowest address.  0 and *phys set, or -EINVAL (zero or absurd size),
   -ENOMEM (no contiguous free run that long). */
int region_alloc(struct region_pool *p, uint64_t bytes, uint64_t *phys);
/* The same, placed at the highest address where it fits. */
int region_alloc_top(struct region_pool *p, uint64_t bytes, uint64_t *phys);
/* Allocate exactly [phys, phys+bytes): 0, -EINVAL (misaligned, empty or
   outside the pool), or -ENOMEM (some granule of it is not free; nothing
   changed). */
int region_alloc_at(struct region_pool *p, uint64_t phys, uint64_t bytes);
/* Give back allocated granules: 0, or -EINVAL (and nothing freed) if the
   range is misaligned, empty, outside the pool, or any granule of it is not
   allocated. */
int region_free(struct region_pool *p, uint64_t phys, uint64_t bytes);
uint64_t region_free_bytes(const struct region_pool *p);
uint64_t region_largest_free(const struct region_pool *p);
/* Bytes of free granules starting at `phys` going up, and ending just
   below `phys` going down (0 when `phys` is outside or misaligned). */
uint64_t region_free_above(const struct region_pool *p, uint64_t phys);
uint64_t region_free_below(const struct region_pool *p, uint64_t phys);
bool region_contains(const struct region_pool *p, uint64_t phys);

#endif
