/*
 * Physical memory (mem.c): the pools built from the loader's memory map,
 * and the one allocation interface for regions and kernel pages.
 *
 *   phys_pool     every whole 2 MB chunk of RAM: application memory,
 *                 mapped with 2 MB pages.
 *   small pools   the 4 KiB pages of chunks that are only partly RAM (the
 *                 edges of the loader's RAM ranges: on a PC the chunk with
 *                 the BIOS hole below 1 MiB and the one under the firmware
 *                 tables at the top of RAM) and of the kernel's own chunk.
 *
 * The kernel's chunk belongs to the OS: the kernel image, its page tables
 * and buffers (kpage_alloc) and the PCT's regions.  Applications never get
 * memory there, so the OS's room cannot be taken by a program.  The other
 * small pools hold small application regions (text, data, stack) and the
 * 4 KiB-page tail of a big region that runs on from the whole chunk below.
 */
#ifndef MEM_H
#define MEM_H

#include <stdbool.h>
#include <stdint.h>
#include "bootinfo.h"
#include "region.h"

extern struct region_pool phys_pool;

struct mem_stats {
    uint64_t total;             /* usable RAM the loader reported */
    uint64_t kernel;            /* kernel image + kernel pages */
    uint64_t free;              /* free for application regions */
    uint64_t os_free;           /* free in the kernel's chunk */
    uint64_t modules;           /* held by boot modules not yet released */
};

void mem_init(const struct bootinfo *bi);

/* A region of `*size` bytes (rounded up to 4 KiB), physically contiguous:
 * whole 2 MB chunks for a 2 MB multiple; 4 KiB pages in a small pool for a
 * size under 2 MB; whole chunks followed by the first pages of a partial
 * chunk for a size in between.  `os` (kernel and PCT) prefers the kernel's
 * chunk; applications never get it.  Kernel buffers (a NIC's packet
 * buffers) ask with `os` so they stay in the OS's chunk when they fit.
 * When no partial chunk has room, whole chunks are used and *size grows to
 * fill them (never wasted).  0 and *pa set, or -EINVAL / -ENOMEM. */
int mem_region_alloc(uint64_t *size, bool os, uint64_t *pa);
/* mem_region_alloc for a process's region: the memory reads as zeros
 * (no data passes from one job to the next).  Whole chunks a region held
 * before and nobody wrote are not zeroed again; *zeroed says how many
 * bytes were (the rest were known to be zero already). */
int mem_region_alloc_zeroed(uint64_t *size, bool os, uint64_t *pa,
                            uint64_t *zeroed);
/* [pa, pa+len) may have been written: its chunks are no longer known to
   be zero.  Whoever writes into a process's region other than through
   the process's page tables (whose dirty bits tell, see proc.c) says so:
   user_ptr does for every pointer the kernel writes through. */
void mem_dirty(uint64_t pa, uint64_t len);
/* Give back a region from mem_region_alloc (its final size): 0 or -EINVAL
   if any of it was not allocated. */
int mem_region_free(uint64_t pa, uint64_t size);
/* The biggest region an application could get now (bytes). */
uint64_t mem_largest_free(void);

/* A zeroed 4 KiB page for kernel page tables and buffers; physical
   address, 0 when memory is exhausted. */
uint64_t kpage_alloc(void);
void kpage_free(uint64_t phys);
/* A zeroed kernel page below 1 MiB (code a CPU runs in real mode), 0 if
   none is free.  Freed with kpage_free. */
uint64_t kpage_alloc_low(void);
/* kpage_alloc that panics when exhausted (boot page tables). */
uint64_t mem_early_page(void);
/* Kernel pointer to a kernel page, before and after paging_init. */
void *mem_early_virt(uint64_t phys);

/* Boot module `i` has been loaded: give its memory back to the pools,
   except what the kernel image or a module still held shares.  0, -ENOENT
   (no such module) or -EINVAL (already released). */
int mem_module_release(int i);
bool mem_module_live(int i);

bool mem_is_ram(uint64_t base, uint64_t len);
uint64_t mem_top(void);         /* end of the highest usable RAM */
void mem_get_stats(struct mem_stats *st);

#endif
