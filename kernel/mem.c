/*
 * Boot-time physical memory: every chunk of usable RAM goes into the
 * region pool except the ones holding the kernel image and boot modules.
 * The tail of the kernel's own chunk, which no region can use anyway,
 * feeds the early page allocator.
 */
#define LOG_PREFIX "mem"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "panic.h"

/* 65536 chunks of 2 MB = 128 GiB of physical address space. */
#define MAX_CHUNKS      65536

struct region_pool phys_pool;
static uint64_t avail_map[REGION_MAP_WORDS(MAX_CHUNKS)];
static uint64_t used_map[REGION_MAP_WORDS(MAX_CHUNKS)];
static const struct bootinfo *boot;
static uint64_t early_next, early_end, early_used;
static uint64_t ram_total, ram_top;

extern char _kernel_end[];

static uint64_t kernel_end_phys(void)
{
    return kernel_virt_to_phys(_kernel_end);
}

/* The early allocator must not hand out a page that holds a module. */
static bool overlaps_module(uint64_t p)
{
    for (int i = 0; i < boot->nmods; i++)
        if (p < boot->mods[i].end && p + PAGE_4K > boot->mods[i].start)
            return true;
    return false;
}

/* The kernel chunk is full (boot modules often follow the kernel): take
   a whole region for page tables.  It stays the kernel's. */
static bool more_kpages(void)
{
    uint64_t pa;

    if (!phys_pool.nchunks || region_alloc(&phys_pool, REGION_CHUNK, &pa) < 0)
        return false;
    if (pa + REGION_CHUNK > GiB(1))     /* mem_early_virt reaches 1 GiB */
        return false;
    early_next = pa;
    early_end = pa + REGION_CHUNK;
    return true;
}

/* Freed pages are chained through their first word. */
static uint64_t free_list;

uint64_t kpage_alloc(void)
{
    uint64_t p;

    if (free_list) {
        p = free_list;
        free_list = *(uint64_t *)mem_early_virt(p);
    } else {
        while (early_next < early_end && overlaps_module(early_next))
            early_next += PAGE_4K;
        if (early_next >= early_end && !more_kpages())
            return 0;
        p = early_next;
        early_next += PAGE_4K;
    }
    early_used += PAGE_4K;
    memset(mem_early_virt(p), 0, PAGE_4K);
    return p;
}

void kpage_free(uint64_t phys)
{
    *(uint64_t *)mem_early_virt(phys) = free_list;
    free_list = phys;
    early_used -= PAGE_4K;
}

uint64_t mem_early_page(void)
{
    uint64_t p = kpage_alloc();

    if (!p)
        panic("out of page-table memory (%lu KiB used); this RAM size "
              "needs more page tables than the kernel chunk holds",
              early_used >> 10);
    return p;
}

/* Early pages lie in the first GiB, which the kernel mapping covers both
   before and after paging_init. */
void *mem_early_virt(uint64_t phys)
{
    return (void *)(phys + KERNEL_VMA);
}

bool mem_is_ram(uint64_t base, uint64_t len)
{
    for (int i = 0; i < boot->nmem; i++)
        if (base < boot->mem[i].base + boot->mem[i].len &&
            base + len > boot->mem[i].base)
            return true;
    return false;
}

uint64_t mem_top(void)
{
    return ram_top;
}

static void build_pool(const struct bootinfo *bi)
{
    uint64_t nchunks = ALIGN_UP(ram_top, REGION_CHUNK) / REGION_CHUNK;

    if (nchunks > MAX_CHUNKS) {
        pr_warn("RAM above %lu GiB is not used (the region map ends there)\n",
                (uint64_t)MAX_CHUNKS * REGION_CHUNK >> 30);
        nchunks = MAX_CHUNKS;
    }
    region_pool_init(&phys_pool, 0, nchunks, avail_map, used_map);
    for (int i = 0; i < bi->nmem; i++)
        region_pool_add_ram(&phys_pool, bi->mem[i].base, bi->mem[i].len);
    region_reserve(&phys_pool, KERNEL_PHYS, kernel_end_phys() - KERNEL_PHYS);
    for (int i = 0; i < bi->nmods; i++)
        region_reserve(&phys_pool, bi->mods[i].start,
                       bi->mods[i].end - bi->mods[i].start);
}

void mem_init(const struct bootinfo *bi)
{
    boot = bi;
    for (int i = 0; i < bi->nmem; i++) {
        pr_info("RAM %012lx-%012lx (%lu KiB)\n", bi->mem[i].base,
                bi->mem[i].base + bi->mem[i].len - 1, bi->mem[i].len >> 10);
        ram_total += bi->mem[i].len;
        ram_top = MAX(ram_top, bi->mem[i].base + bi->mem[i].len);
    }
    if (!ram_total)
        panic("the boot loader reported no usable RAM");
    build_pool(bi);
    early_next = ALIGN_UP(kernel_end_phys(), PAGE_4K);
    early_end = ALIGN_UP(kernel_end_phys(), REGION_CHUNK);
}

void mem_get_stats(struct mem_stats *st)
{
    st->total = ram_total;
    st->kernel = kernel_end_phys() - KERNEL_PHYS + early_used;
    st->free = region_free_bytes(&phys_pool);
}
