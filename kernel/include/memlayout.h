/*
 * Virtual memory layout of the Q-Kernel (x86-64, 4-level paging, 2 MB pages).
 *
 *   0x0000_0000_0000_0000 .. 0x0000_7fff_ffff_ffff  user (per process)
 *   0xffff_8000_0000_0000 .. +max RAM               PHYSMAP: all physical
 *                                                  memory (and the MMIO
 *                                                  below 4 GiB, uncached)
 *   0xffff_ffff_8000_0000 .. +1 GiB                 kernel image (phys 0..)
 *
 * The kernel is loaded at physical 1 MiB and linked at KERNEL_VMA + 1 MiB,
 * so kernel virtual = physical + KERNEL_VMA for everything in the image.
 */
#ifndef MEMLAYOUT_H
#define MEMLAYOUT_H

#define KERNEL_VMA      0xFFFFFFFF80000000
#define KERNEL_PHYS     0x100000
#define PHYSMAP_BASE    0xFFFF800000000000
#define PAGE_2M         0x200000UL
#define PAGE_4K         0x1000UL

#ifndef __ASSEMBLY__
#include <stdint.h>

static inline void *phys_to_virt(uint64_t phys)
{
    return (void *)(phys + PHYSMAP_BASE);
}

/* Only for addresses inside the kernel image (text, data, bss). */
static inline uint64_t kernel_virt_to_phys(const void *v)
{
    return (uint64_t)v - KERNEL_VMA;
}
#endif
#endif
