/*
 * Address spaces and user memory: a process's page tables (its regions
 * mapped in the low half, the kernel half shared by all), the checked
 * access the kernel has to a process's memory, and boot modules mapped
 * into the PCT.  Tables are built with paging.c's walker.
 *
 * A mapping is only ever removed here (aspace_unmap), and that is where
 * the TLBs of the other CPUs are shot down (smp.c): the page tables of a
 * running process do not change otherwise.
 */
#include "kernel.h"
#include "aspace.h"
#include "cpu.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "proc.h"
#include "smartmap.h"
#include "x86.h"

#define USER_TABLE  (PTE_W | PTE_U)     /* flags of a process's tables */

static uint64_t *table(uint64_t entry)
{
    return phys_to_virt(entry & PTE_ADDR);
}

/* 2 MB pages wherever the virtual and physical addresses are both 2 MB
   aligned and 2 MB remain; 4 KiB pages elsewhere (a region in a partial
   chunk, the tail of one that ends in it). */
int aspace_map(uint64_t cr3, uint64_t va, uint64_t pa, uint64_t size,
               uint64_t flags)
{
    for (uint64_t off = 0; off < size;) {
        uint64_t v = va + off, *e;
        bool big = IS_ALIGNED(v | (pa + off), PAGE_2M) && size - off >= PAGE_2M;
        if (!(e = pt_entry(cr3, v, big ? PT_PD : PT_PT, USER_TABLE)))
            return -ENOMEM;
        *e = (pa + off) | flags | PTE_P | (big ? PTE_PS : 0);
        off += big ? PAGE_2M : PAGE_4K;
    }
    return 0;
}

/* The CPU sets a leaf entry's dirty bit at the first write through it,
   so a 2 MB page whose bit is clear was never written through this
   mapping.  Anything else (4 KiB pages, no mapping) counts as written:
   the caller then zeroes it again, which is only slower. */
bool aspace_written(uint64_t cr3, uint64_t va)
{
    uint64_t *pde = pt_entry(cr3, va, PT_PD, 0);

    return !pde || (*pde & (PTE_P | PTE_PS | PTE_D)) != (PTE_P | PTE_PS);
}

static bool table_empty(const uint64_t *t)
{
    for (int i = 0; i < 512; i++)
        if (t[i])
            return false;
    return true;
}

/* Page tables of 4 KiB pages go back to the kernel once empty. */
void aspace_unmap(uint64_t cr3, uint64_t va, uint64_t size)
{
    for (uint64_t v = va, next; v < va + size; v = next) {
        uint64_t *pde = pt_entry(cr3, v, PT_PD, 0);
        next = MIN(ALIGN_DOWN(v, PAGE_2M) + PAGE_2M, va + size);
        if (!pde || !(*pde & PTE_P))
            continue;
        if (*pde & PTE_PS) {
            *pde = 0;
            continue;
        }
        for (uint64_t u = v; u < next; u += PAGE_4K)
            table(*pde)[(u >> 12) & 511] = 0;
        if (table_empty(table(*pde))) {
            kpage_free(*pde & PTE_ADDR);
            *pde = 0;
        }
    }
    tlb_shootdown(cr3, va, size);
}

uint64_t aspace_new(void)
{
    uint64_t cr3 = kpage_alloc();

    if (cr3)    /* the kernel half is shared by every address space */
        memcpy(table(cr3) + 256, table(kernel_cr3) + 256, 256 * 8);
    return cr3;
}

/* Nobody runs in it any more: no CPU has it loaded, so no TLB holds it. */
void aspace_free(uint64_t cr3)
{
    uint64_t *pml4 = table(cr3);

    for (int i = 0; i < 256; i++) {
        if (!(pml4[i] & PTE_P))
            continue;
        uint64_t *pdpt = table(pml4[i]);
        for (int j = 0; j < 512; j++) {
            if (!(pdpt[j] & PTE_P))
                continue;
            uint64_t *pd = table(pdpt[j]);
            for (int k = 0; k < 512; k++)
                if ((pd[k] & PTE_P) && !(pd[k] & PTE_PS))
                    kpage_free(pd[k] & PTE_ADDR);
            kpage_free(pdpt[j] & PTE_ADDR);
        }
        kpage_free(pml4[i] & PTE_ADDR);
    }
    kpage_free(cr3);
}

/* This CPU now runs in `cr3`; the shootdown reads what each CPU has. */
void aspace_switch(uint64_t cr3)
{
    this_cpu()->cr3 = cr3;
    write_cr3(cr3);
}

/* ---- user memory ------------------------------------------------------- */

static bool in_region(const struct region_map *r, uint64_t uva, uint64_t len)
{
    return r->size && uva >= r->va && len <= r->size &&
           uva - r->va <= r->size - len;
}

/* The region of the previous call is tried first: a Portals call checks
   several pointers into the same region, and the receive path one per
   fragment, so the walk over all regions is mostly skipped. */
void *region_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write)
{
    struct region_map *r = &p->reg[p->reg_hint];

    if (!in_region(r, uva, len)) {
        int i = 0;

        while (i < LWK_NREGIONS && !in_region(&p->reg[i], uva, len))
            i++;
        if (i == LWK_NREGIONS)
            return NULL;
        p->reg_hint = i;
        r = &p->reg[i];
    }
    if (write && !(r->pte_flags & PTE_W))
        return NULL;
    if (write)                  /* not through its page tables: no dirty bit */
        mem_dirty(r->pa + (uva - r->va), len);
    return phys_to_virt(r->pa + (uva - r->va));
}

/* Besides its own regions, the PCT names the processes it made through
   its window, and a member of a SMARTMAP group the other members'
   memory through their slots (smartmap.c). */
void *user_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write)
{
    void *k = region_ptr(p, uva, len, write);

    if (k)
        return k;
    return p == pct ? proc_window_ptr(uva, len, write)
                    : smartmap_ptr(p, uva, len, write);
}

int copy_from_user(struct proc *p, void *dst, uint64_t uva, uint64_t len)
{
    const void *src = user_ptr(p, uva, len, false);

    if (!src)
        return -EFAULT;
    memcpy(dst, src, len);
    return 0;
}

int copy_to_user(struct proc *p, uint64_t uva, const void *src, uint64_t len)
{
    void *dst = user_ptr(p, uva, len, true);

    if (!dst)
        return -EFAULT;
    memcpy(dst, src, len);
    return 0;
}

/* ---- boot modules in the PCT ------------------------------------------- */

#define MODULE_WINDOW   0x00000F0000000000UL    /* boot modules in the PCT */

/* Module `i`'s pages appear at the same offset in a 2 MB page as in
   memory, so its whole chunks map with 2 MB pages and only its own pages
   are visible at the edges. */
static uint64_t module_va(uint64_t i, uint64_t lo)
{
    return MODULE_WINDOW + i * GiB(4) + lo % PAGE_2M;
}

uint64_t module_map_into(struct proc *p, uint64_t i, uint64_t start,
                         uint64_t end)
{
    uint64_t lo = ALIGN_DOWN(start, PAGE_4K), hi = ALIGN_UP(end, PAGE_4K);

    if (end <= start || hi - lo > GiB(4) - PAGE_2M ||
        aspace_map(p->cr3, module_va(i, lo), lo, hi - lo,
                   PTE_U | proc_nx_bit) < 0)
        return 0;
    return module_va(i, lo) + (start - lo);
}

void module_unmap_from(struct proc *p, uint64_t i, uint64_t start,
                       uint64_t end)
{
    uint64_t lo = ALIGN_DOWN(start, PAGE_4K), hi = ALIGN_UP(end, PAGE_4K);

    if (end <= start || hi - lo > GiB(4) - PAGE_2M)
        return;
    aspace_unmap(p->cr3, module_va(i, lo), hi - lo);
}
