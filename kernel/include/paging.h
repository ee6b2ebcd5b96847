/*
 * Kernel page tables (paging.c): 2 MB pages only (processes also get 4 KiB
 * pages, proc.c).  PHYSMAP covers all RAM
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
#define PTE_PS      (1ULL << 7)
#define PTE_G       (1ULL << 8)
#define PTE_NX      (1ULL << 63)
#define PTE_ADDR    0x000FFFFFFFFFF000ULL

extern uint64_t kernel_cr3;     /* physical address of the kernel PML4 */

/* PHYSMAP spans 64 TiB of physical address space (half of its PML4
   half); nothing above that can be mapped. */
#define PAGING_PHYS_LIMIT   (1ULL << 46)

void paging_init(void);
/* Map [pa, pa+len) of device memory uncached at phys_to_virt(pa), for
   memory above the PHYSMAP's RAM and 4 GiB hole.  0, or -EINVAL. */
int paging_map_mmio(uint64_t pa, uint64_t len);
/* Translate a kernel virtual address by walking the live tables; returns
   -1 if unmapped.  For tests and sanity checks. */
uint64_t paging_virt_to_phys(uint64_t cr3, uint64_t va);

#endif
