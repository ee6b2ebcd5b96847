/*
 * The physical region allocator: hands out physically contiguous, 2 MB
 * aligned regions of RAM, in whole 2 MB chunks, and takes them back.
 * Cougar maps every process region with large pages and keeps it present
 * from load to exit, so this is the kernel's only physical allocator.
 *
 * State is two bitmaps over the chunks between `base` and `base + nchunks *
 * 2 MB`: `avail` (the chunk is RAM the allocator may hand out: entirely
 * usable, not reserved) and `used` (allocated).  First fit from the lowest address: deterministic placement.
 * Pure logic: unit-tested on the host (tests/unit/test_region.c).
 */
#ifndef REGION_H
#define REGION_H

#include <stdint.h>

#define REGION_CHUNK        0x200000UL

struct region_pool {
    uint64_t base;              /* physical address of chunk 0 */
    uint32_t nchunks;
    uint32_t nfree;
    uint64_t *avail;            /* caller-provided, (nchunks+63)/64 words */
    uint64_t *used;             /* ditto */
};

/* Words of bitmap storage needed per bitmap for `nchunks` chunks. */
#define REGION_MAP_WORDS(nchunks)   (((nchunks) + 63) / 64)

void region_pool_init(struct region_pool *p, uint64_t base, uint32_t nchunks,
                      uint64_t *avail_map, uint64_t *used_map);
/* Make the whole chunks inside [base, base+len) available. */
void region_pool_add_ram(struct region_pool *p, uint64_t base, uint64_t len);
/* Take every available chunk that overlaps [base, base+len) out of the
   pool for good (kernel image, boot modules).  Returns the chunks taken;
   a chunk already allocated is left alone and not counted. */
uint32_t region_reserve(struct region_pool *p, uint64_t base, uint64_t len);
/* Allocate `bytes` (rounded up to whole chunks).  0 and *phys set, or
   -EINVAL (zero or absurd size), -ENOMEM (no contiguous run that long). */
int region_alloc(struct region_pool *p, uint64_t bytes, uint64_t *phys);
/* Give back allocated chunks: 0, or -EINVAL (and nothing freed) if the
   range is misaligned, empty, outside the pool, or any chunk of it is not
   allocated. */
int region_free(struct region_pool *p, uint64_t phys, uint64_t bytes);
uint64_t region_free_bytes(const struct region_pool *p);
uint64_t region_largest_free(const struct region_pool *p);

#endif
