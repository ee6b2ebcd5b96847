/* SPDX-License-Identifier: MIT */
/*
 * rt_mem.c: brk and anonymous mmap for a Linux program, the LWK way.  The
 * PCT gave the program one physically contiguous region, present from
 * load to exit (no demand paging): its image at the bottom, then memory.
 * brk grows up from the end of the image; mmap hands out the highest free
 * range that fits; munmap zeroes a range and gives it back (a later
 * mapping must read zeros, as on Linux).  The free space is a sorted set
 * of ranges.  mprotect and madvise change nothing but MADV_DONTNEED's
 * zeroing: the region's pages stay mapped read-write-execute.
 */
#include <string.h>

#include "rt.h"

#define PAGE        4096ULL
#define ALIGN_UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))
#define MAX_FREE    512

static struct range { uint64_t lo, hi; } fr[MAX_FREE];
static int nfree;
static uint64_t brk_start, brk_cur;

/* Take [lo, hi) out of the free set (parts not in it are ignored). */
static int take(uint64_t lo, uint64_t hi)
{
    for (int i = 0; i < nfree; i++) {
        struct range r = fr[i];

        if (r.hi <= lo || r.lo >= hi)
            continue;
        if (r.lo < lo && r.hi > hi) {           /* split in two */
            if (nfree == MAX_FREE)
                return -1;
            memmove(&fr[i + 1], &fr[i], (size_t)(nfree - i) * sizeof(*fr));
            nfree++;
            fr[i].hi = lo;
            fr[i + 1].lo = hi;
            return 0;
        }
        if (r.lo < lo) {
            fr[i].hi = lo;
        } else if (r.hi > hi) {
            fr[i].lo = hi;
        } else {                                /* all of it */
            memmove(&fr[i], &fr[i + 1], (size_t)(nfree - i - 1) * sizeof(*fr));
            nfree--;
            i--;
        }
    }
    return 0;
}

/* Put [lo, hi) back, merging with its neighbours. */
static int give(uint64_t lo, uint64_t hi)
{
    int i;

    if (take(lo, hi) < 0)       /* no double counting */
        return -1;
    for (i = 0; i < nfree && fr[i].lo < lo; i++)
        ;
    if (i > 0 && fr[i - 1].hi == lo) {
        fr[i - 1].hi = hi;
        if (i < nfree && fr[i].lo == hi) {
            fr[i - 1].hi = fr[i].hi;
            memmove(&fr[i], &fr[i + 1], (size_t)(nfree - i - 1) * sizeof(*fr));
            nfree--;
        }
        return 0;
    }
    if (i < nfree && fr[i].lo == hi) {
        fr[i].lo = lo;
        return 0;
    }
    if (nfree == MAX_FREE)
        return -1;
    memmove(&fr[i + 1], &fr[i], (size_t)(nfree - i) * sizeof(*fr));
    fr[i] = (struct range){ lo, hi };
    nfree++;
    return 0;
}

static int all_free(uint64_t lo, uint64_t hi)
{
    for (int i = 0; i < nfree; i++)
        if (fr[i].lo <= lo && fr[i].hi >= hi)
            return 1;
    return 0;
}

static int in_area(uint64_t lo, uint64_t len)
{
    return len && lo >= brk_start && lo + len >= lo && lo + len <= lxrt.hi;
}

void lx_mem_init(void)
{
    brk_start = brk_cur = ALIGN_UP(lxrt.image_end);
    nfree = 0;
    if (brk_start < lxrt.hi)
        give(brk_start, lxrt.hi);
}

uint64_t lx_mem_free_bytes(void)
{
    uint64_t n = 0;

    for (int i = 0; i < nfree; i++)
        n += fr[i].hi - fr[i].lo;
    return n;
}

/* brk: Linux returns the new break, or the old one when it cannot move. */
long lx_brk(LX_ARGS)
{
    uint64_t want = (uint64_t)a0, old = ALIGN_UP(brk_cur);

    if (want < brk_start || want > lxrt.hi)
        return (long)brk_cur;
    if (ALIGN_UP(want) > old) {
        if (!all_free(old, ALIGN_UP(want)) || take(old, ALIGN_UP(want)) < 0)
            return (long)brk_cur;
    } else if (ALIGN_UP(want) < old) {
        memset((void *)ALIGN_UP(want), 0, old - ALIGN_UP(want));
        give(ALIGN_UP(want), old);
    }
    brk_cur = want;
    return (long)brk_cur;
}

/* The highest free range of len bytes. */
static uint64_t find(uint64_t len)
{
    for (int i = nfree - 1; i >= 0; i--)
        if (fr[i].hi - fr[i].lo >= len)
            return fr[i].hi - len;
    return 0;
}

long lx_mmap(LX_ARGS)
{
    uint64_t addr = (uint64_t)a0, len = ALIGN_UP((uint64_t)a1);
    long flags = a3;

    (void)a2;
    (void)a4;
    (void)a5;
    if (!(flags & LX_MAP_ANONYMOUS))
        return -LX_ENODEV;      /* no files in memory: read them */
    if (!a1 || len < (uint64_t)a1 || (addr & (PAGE - 1)))
        return -LX_EINVAL;
    if (flags & (LX_MAP_FIXED | LX_MAP_FIXED_NOREPLACE)) {
        if (!in_area(addr, len))
            return -LX_ENOMEM;
        if ((flags & LX_MAP_FIXED_NOREPLACE) && !all_free(addr, addr + len))
            return -LX_EEXIST;
        if (take(addr, addr + len) < 0)
            return -LX_ENOMEM;
        memset((void *)addr, 0, len);
        return (long)addr;
    }
    if (!(addr = find(len)) || take(addr, addr + len) < 0)
        return -LX_ENOMEM;
    return (long)addr;          /* free memory is zero (munmap zeroes) */
}

long lx_munmap(LX_ARGS)
{
    uint64_t addr = (uint64_t)a0, len = ALIGN_UP((uint64_t)a1);

    if ((addr & (PAGE - 1)) || !a1)
        return -LX_EINVAL;
    if (!in_area(addr, len))
        return 0;               /* Linux: nothing mapped there is fine */
    memset((void *)addr, 0, len);
    return give(addr, addr + len) < 0 ? -LX_ENOMEM : 0;
}

long lx_mremap(LX_ARGS)
{
    uint64_t old = (uint64_t)a0, olen = ALIGN_UP((uint64_t)a1);
    uint64_t nlen = ALIGN_UP((uint64_t)a2), to;

    if ((old & (PAGE - 1)) || !a2 || (a3 & LX_MREMAP_FIXED) ||
        !in_area(old, olen ? olen : PAGE))
        return -LX_EINVAL;
    if (nlen <= olen) {
        if (nlen < olen) {
            memset((void *)(old + nlen), 0, olen - nlen);
            give(old + nlen, old + olen);
        }
        return (long)old;
    }
    if (old + nlen <= lxrt.hi && all_free(old + olen, old + nlen)) {
        take(old + olen, old + nlen);
        return (long)old;
    }
    if (!(a3 & LX_MREMAP_MAYMOVE) || !(to = find(nlen)) ||
        take(to, to + nlen) < 0)
        return -LX_ENOMEM;
    memcpy((void *)to, (void *)old, olen);
    memset((void *)old, 0, olen);
    give(old, old + olen);
    return (long)to;
}

long lx_mprotect(LX_ARGS)
{
    (void)a2;
    if ((uint64_t)a0 & (PAGE - 1))
        return -LX_EINVAL;
    return lx_ok((uint64_t)a0, (uint64_t)a1) ? 0 : -LX_ENOMEM;
}

long lx_madvise(LX_ARGS)
{
    uint64_t addr = (uint64_t)a0, len = ALIGN_UP((uint64_t)a1);

    if (addr & (PAGE - 1))
        return -LX_EINVAL;
    if (a2 == LX_MADV_DONTNEED && in_area(addr, len) &&
        !all_free(addr, addr + len))
        memset((void *)addr, 0, len);   /* Linux: it reads zeros after */
    return 0;
}
