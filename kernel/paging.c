/*
 * Build the kernel's final page tables and switch to them, dropping the
 * boot identity map (the low half belongs to processes from now on).
 */
#define LOG_PREFIX "paging"
#include "kernel.h"
#include "console.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "panic.h"
#include "x86.h"

uint64_t kernel_cr3;

/* ---- the page-table walker (kernel and process tables alike) -------------- */

static unsigned pt_index(uint64_t va, int level)
{
    return (va >> (12 + 9 * level)) & 511;
}

uint64_t *pt_entry(uint64_t cr3, uint64_t va, int level, uint64_t table_flags)
{
    uint64_t *t = mem_early_virt(cr3 & PTE_ADDR);

    for (int l = PT_PML4; l > level; l--) {
        uint64_t *e = &t[pt_index(va, l)], page;
        if (*e & PTE_PS)
            return NULL;        /* a large page is there, not a table */
        if (!(*e & PTE_P)) {
            if (!table_flags || !(page = kpage_alloc()))
                return NULL;
            *e = page | table_flags | PTE_P;
        }
        t = mem_early_virt(*e & PTE_ADDR);
    }
    return &t[pt_index(va, level)];
}

uint64_t *pt_leaf(uint64_t cr3, uint64_t va, int *level)
{
    uint64_t *t = mem_early_virt(cr3 & PTE_ADDR);

    for (int l = PT_PML4; l >= 0; l--) {
        uint64_t *e = &t[pt_index(va, l)];
        if (!(*e & PTE_P))
            return NULL;
        if (l == PT_PT || (l < PT_PML4 && (*e & PTE_PS))) {
            *level = l;
            return e;
        }
        t = mem_early_virt(*e & PTE_ADDR);
    }
    return NULL;
}

/* ---- the kernel's tables -------------------------------------------------- */

static void map_2m(uint64_t pml4, uint64_t va, uint64_t pa, uint64_t flags)
{
    uint64_t *e = pt_entry(pml4, va, PT_PD, PTE_W);

    if (!e)
        panic("out of memory for kernel page tables");
    *e = pa | flags | PTE_P | PTE_PS;
}

uint64_t paging_physmap_top(void)
{
    return ALIGN_UP(MAX(mem_top(), GiB(4)), GiB(1));
}

static void map_physmap(uint64_t pml4)
{
    for (uint64_t pa = 0; pa < paging_physmap_top(); pa += PAGE_2M) {
        uint64_t flags = PTE_W | PTE_G;
        /* Not RAM below 4 GiB: MMIO (LAPIC, IOAPIC, PCI BARs): uncached. */
        if (pa < GiB(4) && !mem_is_ram(pa, PAGE_2M))
            flags |= PTE_PCD | PTE_PWT;
        map_2m(pml4, PHYSMAP_BASE + pa, pa, flags);
    }
}

void paging_init(void)
{
    uint64_t pml4 = mem_early_page();
    struct mem_stats before, after;

    mem_get_stats(&before);
    for (uint64_t pa = 0; pa < GiB(1); pa += PAGE_2M)
        map_2m(pml4, KERNEL_VMA + pa, pa, PTE_W | PTE_G);
    map_physmap(pml4);
    kernel_cr3 = pml4;
    write_cr3(kernel_cr3);
    mem_get_stats(&after);
    pr_info("PHYSMAP 0-%lu GiB with 2 MB pages, %lu page-table pages\n",
            paging_physmap_top() >> 30,
            1 + (after.kernel - before.kernel) / PAGE_4K);
}

/* Device memory above the PHYSMAP's reach (a 64-bit BAR the firmware put
   above 4 GiB): map it at its PHYSMAP address, uncached.  2 MB pages that
   are already present (RAM, the hole below 4 GiB) are left as they are. */
int paging_map_mmio(uint64_t pa, uint64_t len)
{
    if (!len || pa + len < pa || pa + len > PAGING_PHYS_LIMIT)
        return -EINVAL;
    for (uint64_t a = ALIGN_DOWN(pa, PAGE_2M); a < pa + len; a += PAGE_2M)
        if (paging_virt_to_phys(kernel_cr3, PHYSMAP_BASE + a) == (uint64_t)-1)
            map_2m(kernel_cr3, PHYSMAP_BASE + a, a,
                   PTE_W | PTE_G | PTE_PCD | PTE_PWT);
    tlb_flush_local();          /* drop any cached upper-level entries */
    return 0;
}

uint64_t paging_virt_to_phys(uint64_t cr3, uint64_t va)
{
    int level;
    uint64_t *e = pt_leaf(cr3, va, &level), size;

    if (!e)
        return (uint64_t)-1;
    size = 1ULL << (12 + 9 * level);
    return (*e & PTE_ADDR & ~(size - 1)) | (va & (size - 1));
}
