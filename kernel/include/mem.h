/*
 * Physical memory at boot (mem.c): the region pool built from the loader's
 * memory map, and the early page allocator for kernel page tables.
 */
#ifndef MEM_H
#define MEM_H

#include <stdint.h>
#include "bootinfo.h"
#include "region.h"

extern struct region_pool phys_pool;

struct mem_stats {
    uint64_t total;             /* usable RAM the loader reported */
    uint64_t kernel;            /* kernel image + early page tables */
    uint64_t free;              /* free for regions */
};

void mem_init(const struct bootinfo *bi);
/* A zeroed 4 KiB page for kernel page tables; physical address.  Comes
   from the rest of the kernel's own 2 MB chunk.  Panics when exhausted. */
uint64_t mem_early_page(void);
void *mem_early_virt(uint64_t phys);
/* The same pool for page tables of processes: 0 when exhausted. */
uint64_t kpage_alloc(void);
void kpage_free(uint64_t phys);
bool mem_is_ram(uint64_t base, uint64_t len);
uint64_t mem_top(void);         /* end of the highest usable RAM */
void mem_get_stats(struct mem_stats *st);

#endif
