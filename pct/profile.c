/*
 * profile.c: the PCT's policy for yod -profile (the kernel's mechanism:
 * uapi/abi.h, LWK_DBG_PROFILE).  A rank of a job whose yod asked for a
 * profile (LOAD's profile_hz) has its program counter sampled from its
 * first instruction to its end, into a histogram at the end of its heap
 * region that the program is never told of (its heap is that much
 * smaller); at its end the process is kept, as a held fault is
 * (debug.c), for yod to read the histogram and write gmon.out.RANK.
 * yod -counters: a rank's instructions and cycles counted the same way
 * (kernel/pmu.c) and read at its end.
 */
#include <errno.h>
#include <stdio.h>
#include <lwk/syscall.h>
#include "serve.h"

/* A bin per 4 bytes of text: glibc's gmon (HISTFRACTION 2), fine enough
   for gprof to name the function of each sample. */
#define PROF_SHIFT  2

/* The program's text: its executable segments, lowest to highest. */
static void text_of(const struct job *j, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (int i = 0; i < j->elf.nseg; i++) {
        const struct elf_seg *s = &j->elf.seg[i];
        if (!(s->flags & ELF_PF_X))
            continue;
        if (s->va + j->elf.bias < *lo)
            *lo = s->va + j->elf.bias;
        if (s->va + j->elf.bias + s->memsz > *hi)
            *hi = s->va + j->elf.bias + s->memsz;
    }
}

uint64_t profile_reserve(struct job *j, uint64_t heap_va, uint64_t heap)
{
    uint64_t lo, hi, bytes;

    j->prof = (struct lwk_prof){ 0 };
    if (!j->profile_hz)
        return heap;
    text_of(j, &lo, &hi);
    if (hi <= lo)
        return heap;
    bytes = (((hi - lo + (1u << PROF_SHIFT) - 1) >> PROF_SHIFT) * 2 + 4095) &
            ~4095ull;
    if (bytes + 4096 > heap) {
        printf("pct: %s: no room for its profile (%lu KiB) in a heap of %lu "
               "KiB: it runs unprofiled\n", j->name, bytes >> 10, heap >> 10);
        return heap;
    }
    j->prof = (struct lwk_prof){ .lo = lo, .hi = hi,
                                 .bins = heap_va + heap - bytes,
                                 .shift = PROF_SHIFT };
    return heap - bytes;
}

/* yod -counters: where the CPU can (kernel/pmu.c), else j->counters -1
   says so to yod. */
static void count(struct job *j)
{
    long rc = lwk_sys_proc_debug(LWK_DBG_COUNT, j->pid, 1, 0);

    if (rc < 0)
        printf("pct: %s: no counters (%s)\n", j->name, rc == -ENODEV ?
               "the CPU has no architectural PMU" : "refused");
    j->counters = rc < 0 ? -1 : 1;
}

void profile_loaded(struct job *j)
{
    long rc;

    if (j->counters)
        count(j);
    if (!j->prof.bins)
        return;
    rc = lwk_sys_proc_debug(LWK_DBG_PROFILE, j->pid, j->profile_hz,
                            (long)&j->prof);
    if (rc < 0) {
        printf("pct: %s: cannot profile it (%ld): it runs unprofiled\n",
               j->name, rc);
        j->prof.bins = 0;
    }
}
