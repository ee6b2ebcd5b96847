/* SPDX-License-Identifier: MIT */
/*
 * heap.c: sbrk over the heap region the PCT mapped for this process.  The
 * region is fixed at load time (base and size in auxv): sbrk moves a break
 * inside it and fails with ENOMEM at its end, so malloc returns NULL instead
 * of touching memory that is not mapped.  There is no demand paging: every
 * byte of the region is present from load to exit.
 */
#include <stdint.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "libc_internal.h"

static uintptr_t heap_base, heap_end, heap_brk;

void lwk_heap_setup(unsigned long base, unsigned long size)
{
    /* A region that would wrap the address space is treated as none. */
    if (base == 0 || size == 0 || base + size < base)
        base = size = 0;
    heap_base = heap_brk = base;
    heap_end = base + size;
}

size_t lwk_heap_left(void)
{
    return heap_end - heap_brk;
}

void *sbrk(ptrdiff_t incr)
{
    uintptr_t old = heap_brk;

    if (heap_base == 0) {
        errno = ENOMEM;
        return (void *)-1;
    }
    /* Compare against the room left, so no sum can overflow. */
    if (incr > 0 && (uintptr_t)incr > heap_end - heap_brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    if (incr < 0 && (uintptr_t)0 - (uintptr_t)incr > heap_brk - heap_base) {
        errno = EINVAL;
        return (void *)-1;
    }
    heap_brk += (uintptr_t)incr;
    return (void *)old;
}
