/*
 * Page tables (paging.c): the walker every table goes through, and the
 * kernel's own tables, 2 MB pages only (processes also get 4 KiB pages,
 * aspace.c).  PHYSMAP covers all RAM
 * and the MMIO hole below 4 GiB (uncached); the kernel image is mapped at
 * KERNEL_VMA.  The low half is left empty for processes.
 */
#ifndef PAGING_H
#define PAGING_H

#include <stdint.h>

#define PTE_P       (1ULL << 0)
#define PTE_W       (1ULL << 1)
#define PTE_U       (1ULL << 2)
#define PTE_PWT     (1ULL << 3)
#define PTE_PCD     (1ULL << 4)
#define PTE_D       (1ULL << 6)     /* set by the CPU on a write */
#define PTE_PS      (1ULL << 7)
#define PTE_G       (1ULL << 8)
#define PTE_NX      (1ULL << 63)
#define PTE_ADDR    0x000FFFFFFFFFF000ULL

extern uint64_t kernel_cr3;     /* physical address of the kernel PML4 */

/* PHYSMAP spans 64 TiB of physical address space (half of its PML4
   half); nothing above that can be mapped. */
#define PAGING_PHYS_LIMIT   (1ULL << 46)

/* The one page-table walker, for the kernel's tables and processes'.
   Levels: PT_PML4 (3) down to PT_PT (0, 4 KiB pages). */
enum { PT_PT = 0, PT_PD = 1, PT_PDPT = 2, PT_PML4 = 3 };
/* The entry that maps `va` at `level` in the tables at `cr3`.  Missing
   tables on the way are created with `table_flags` (PTE_W, PTE_U) from
   kpage_alloc; with 0 none are, and NULL is returned.  NULL too when a
   large page is in the way or memory is exhausted. */
uint64_t *pt_entry(uint64_t cr3, uint64_t va, int level, uint64_t table_flags);
/* The entry that finally maps `va` (4 KiB, 2 MB or 1 GB page) and its
   level, or NULL if `va` is not mapped. */
uint64_t *pt_leaf(uint64_t cr3, uint64_t va, int *level);

void paging_init(void);
/* End of the PHYSMAP: all RAM and at least the first 4 GiB. */
uint64_t paging_physmap_top(void);
/* Map [pa, pa+len) of device memory uncached at phys_to_virt(pa), for
   memory above the PHYSMAP's RAM and 4 GiB hole.  0, or -EINVAL. */
int paging_map_mmio(uint64_t pa, uint64_t len);
/* Translate a kernel virtual address by walking the live tables; returns
   -1 if unmapped.  For tests and sanity checks. */
uint64_t paging_virt_to_phys(uint64_t cr3, uint64_t va);

#endif
