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
#include "x86.h"

uint64_t kernel_cr3;
static uint64_t pages_used;

static uint64_t *table(uint64_t phys)
{
    return mem_early_virt(phys);
}

/* Entry `idx` of `tbl` as a table, creating it when empty. */
static uint64_t *next_table(uint64_t *tbl, int idx)
{
    if (!(tbl[idx] & PTE_P)) {
        tbl[idx] = mem_early_page() | PTE_P | PTE_W;
        pages_used++;
    }
    return table(tbl[idx] & PTE_ADDR);
}

static void map_2m(uint64_t *pml4, uint64_t va, uint64_t pa, uint64_t flags)
{
    uint64_t *pdpt = next_table(pml4, (va >> 39) & 511);
    uint64_t *pd = next_table(pdpt, (va >> 30) & 511);

    pd[(va >> 21) & 511] = pa | flags | PTE_P | PTE_PS;
}

static void map_physmap(uint64_t *pml4)
{
    uint64_t top = ALIGN_UP(MAX(mem_top(), GiB(4)), GiB(1));

    for (uint64_t pa = 0; pa < top; pa += PAGE_2M) {
        uint64_t flags = PTE_W | PTE_G;
        /* Not RAM below 4 GiB: MMIO (LAPIC, IOAPIC, PCI BARs): uncached. */
        if (pa < GiB(4) && !mem_is_ram(pa, PAGE_2M))
            flags |= PTE_PCD | PTE_PWT;
        map_2m(pml4, PHYSMAP_BASE + pa, pa, flags);
    }
}

void paging_init(void)
{
    uint64_t pml4_phys = mem_early_page();
    uint64_t *pml4 = table(pml4_phys);

    pages_used = 1;
    for (uint64_t pa = 0; pa < GiB(1); pa += PAGE_2M)
        map_2m(pml4, KERNEL_VMA + pa, pa, PTE_W | PTE_G);
    map_physmap(pml4);
    kernel_cr3 = pml4_phys;
    write_cr3(kernel_cr3);
    pr_info("PHYSMAP 0-%lu GiB with 2 MB pages, %lu page-table pages\n",
            ALIGN_UP(MAX(mem_top(), GiB(4)), GiB(1)) >> 30, pages_used);
}

/* Device memory above the PHYSMAP's reach (a 64-bit BAR the firmware put
   above 4 GiB): map it at its PHYSMAP address, uncached.  2 MB pages that
   are already present (RAM, the hole below 4 GiB) are left as they are. */
int paging_map_mmio(uint64_t pa, uint64_t len)
{
    uint64_t *pml4 = table(kernel_cr3);

    if (!len || pa + len < pa || pa + len > PAGING_PHYS_LIMIT)
        return -EINVAL;
    for (uint64_t a = ALIGN_DOWN(pa, PAGE_2M); a < pa + len; a += PAGE_2M)
        if (paging_virt_to_phys(kernel_cr3, PHYSMAP_BASE + a) == (uint64_t)-1)
            map_2m(pml4, PHYSMAP_BASE + a, a, PTE_W | PTE_G | PTE_PCD | PTE_PWT);
    write_cr3(read_cr3());      /* drop any cached upper-level entries */
    return 0;
}

uint64_t paging_virt_to_phys(uint64_t cr3, uint64_t va)
{
    uint64_t *t = phys_to_virt(cr3 & PTE_ADDR);
    int shift = 39;

    for (int level = 0; level < 4; level++, shift -= 9) {
        uint64_t e = t[(va >> shift) & 511];
        if (!(e & PTE_P))
            return (uint64_t)-1;
        if (level == 3 || (level > 0 && (e & PTE_PS))) {
            uint64_t size = 1ULL << shift;
            return (e & PTE_ADDR & ~(size - 1)) | (va & (size - 1));
        }
        t = phys_to_virt(e & PTE_ADDR);
    }
    return (uint64_t)-1;
}
