/*
 * In-kernel tests of SMARTMAP (kernel/smartmap.c) on processes made here:
 * each has a data page at LWK_APP_BASE and a stack page below
 * LWK_STACK_TOP holding values of its own.  A group maps every member's
 * pages at its slot in every member; a slot address passed to the kernel
 * resolves to the owner's region; a member that leaves is gone from every
 * other's table and from every CPU's TLB (the same method as
 * smp.tlb_shootdown), and from the group the members learn.
 */
#include "kernel.h"
#include "aspace.h"
#include "cpu.h"
#include "ktest.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "proc.h"
#include "smartmap.h"

#define DATA_VA     LWK_APP_BASE
#define STACK_VA    (LWK_STACK_TOP - PAGE_4K)
#define NFAKE       4

static struct proc fake[NFAKE];

/* Process i: pid 100 + i, Portals pid 10 + i, data page holding
   0xA0 + 16 i, stack page 0xA1 + 16 i. */
static bool fake_make(int i)
{
    struct proc *p = &fake[i];
    uint64_t data = kpage_alloc(), stack = kpage_alloc();

    *p = (struct proc){ .pid = 100 + i, .state = P_READY,
                        .cr3 = aspace_new(), .ptl_pid = 10 + (uint32_t)i };
    if (!data || !stack || !p->cr3 ||
        aspace_map(p->cr3, DATA_VA, data, PAGE_4K, PTE_W | PTE_U) < 0 ||
        aspace_map(p->cr3, STACK_VA, stack, PAGE_4K, PTE_W | PTE_U) < 0)
        return false;
    p->reg[LWK_REG_DATA] = (struct region_map){ DATA_VA, data, PAGE_4K,
                                                PTE_W };
    p->reg[LWK_REG_STACK] = (struct region_map){ STACK_VA, stack, PAGE_4K,
                                                 PTE_W };
    *(uint64_t *)phys_to_virt(data) = 0xA0 + 16 * (uint64_t)i;
    *(uint64_t *)phys_to_virt(stack) = 0xA1 + 16 * (uint64_t)i;
    return true;
}

static void fake_free(int i)
{
    struct proc *p = &fake[i];

    smartmap_leave(p);
    if (p->cr3)
        aspace_free(p->cr3);
    for (int r = 0; r < LWK_NREGIONS; r++)
        if (p->reg[r].size)
            kpage_free(p->reg[r].pa);
    *p = (struct proc){ 0 };
}

static bool fakes_make(int n)
{
    bool ok = true;

    for (int i = 0; i < n; i++)
        ok &= fake_make(i);
    KEXPECT(ok);
    return ok;
}

static void fakes_free(int n)
{
    for (int i = 0; i < n; i++)
        fake_free(i);
}

static struct proc *const group3[] = { &fake[0], &fake[1], &fake[2] };

/* What process `viewer` reads at `va` through its own tables. */
static uint64_t seen(int viewer, uint64_t va)
{
    uint64_t pa = paging_virt_to_phys(fake[viewer].cr3, va);

    return pa == (uint64_t)-1 ? ~0ULL : *(uint64_t *)phys_to_virt(pa);
}

KTEST(smartmap, members_see_each_other)
{
    struct lwk_smartmap info;

    if (!fakes_make(3))
        return;
    KEXPECT_EQ(smartmap_share(group3, 3), 0);
    for (int v = 0; v < 3; v++)
        for (unsigned k = 0; k < 3; k++) {
            KEXPECT_EQ(seen(v, lwk_smartmap_va(k, DATA_VA)), 0xA0 + 16 * k);
            KEXPECT_EQ(seen(v, lwk_smartmap_va(k, STACK_VA)), 0xA1 + 16 * k);
        }
    /* An empty slot maps nothing. */
    KEXPECT_EQ(seen(0, lwk_smartmap_va(3, DATA_VA)), ~0ULL);
    /* What the kernel resolves for a member: the owner's region, as far
       as it goes, writable as the owner has it. */
    KEXPECT_EQ(user_ptr(&fake[0], lwk_smartmap_va(2, DATA_VA), 8, true),
               phys_to_virt(fake[2].reg[LWK_REG_DATA].pa));
    KEXPECT_EQ(user_ptr(&fake[1], lwk_smartmap_va(0, STACK_VA + 8), 8,
                        false),
               phys_to_virt(fake[0].reg[LWK_REG_STACK].pa + 8));
    KEXPECT(!user_ptr(&fake[0], lwk_smartmap_va(2, DATA_VA + 8), PAGE_4K,
                      false));
    KEXPECT(!user_ptr(&fake[0], lwk_smartmap_va(3, DATA_VA), 8, false));
    KEXPECT(!user_ptr(&fake[3], lwk_smartmap_va(0, DATA_VA), 8, false));
    fake[2].reg[LWK_REG_DATA].pte_flags = 0;
    KEXPECT(!user_ptr(&fake[0], lwk_smartmap_va(2, DATA_VA), 8, true));
    KEXPECT(user_ptr(&fake[0], lwk_smartmap_va(2, DATA_VA), 8, false));
    smartmap_info(&fake[1], &info);
    KEXPECT_EQ(info.self, 1);
    KEXPECT_EQ(info.ptl_pid[0], 10);
    KEXPECT_EQ(info.ptl_pid[2], 12);
    KEXPECT_EQ(info.ptl_pid[3], 0);
    fakes_free(3);
}

KTEST(smartmap, refused)
{
    struct proc *dup[] = { &fake[0], &fake[0] };
    struct proc *one[] = { &fake[1] };
    struct proc *nine[LWK_SMARTMAP_SLOTS + 1] = { 0 };
    struct lwk_smartmap info;

    if (!fakes_make(2))
        return;
    KEXPECT_EQ(smartmap_share(dup, 2), -EINVAL);
    KEXPECT_EQ(smartmap_share(nine, LWK_SMARTMAP_SLOTS + 1), -EINVAL);
    KEXPECT_EQ(smartmap_share(group3, 0), -EINVAL);
    KEXPECT_EQ(smartmap_share(group3, 2), 0);
    KEXPECT_EQ(smartmap_share(one, 1), -EBUSY);     /* in a group already */
    smartmap_info(&fake[2], &info);
    KEXPECT_EQ(info.self, -1);
    fakes_free(2);
}

/* The member in slot 1 leaves: gone from the others' tables and from
   what the kernel resolves; the leaver's own table names nobody's tables
   (it is freed next); the rest of the group is untouched. */
KTEST(smartmap, leaving_unmaps)
{
    struct lwk_smartmap info;

    if (!fakes_make(3))
        return;
    KEXPECT_EQ(smartmap_share(group3, 3), 0);
    smartmap_leave(&fake[1]);
    for (int v = 0; v < 3; v += 2) {
        KEXPECT_EQ(seen(v, lwk_smartmap_va(1, DATA_VA)), ~0ULL);
        KEXPECT_EQ(seen(v, lwk_smartmap_va(1, STACK_VA)), ~0ULL);
        KEXPECT(!user_ptr(&fake[v], lwk_smartmap_va(1, DATA_VA), 8, false));
        KEXPECT_EQ(seen(v, lwk_smartmap_va(2 - v, DATA_VA)),
                   0xA0 + 16 * (2 - v));
    }
    for (unsigned k = 0; k < 3; k++)
        KEXPECT_EQ(seen(1, lwk_smartmap_va(k, DATA_VA)), ~0ULL);
    smartmap_info(&fake[0], &info);
    KEXPECT_EQ(info.ptl_pid[1], 0);
    KEXPECT_EQ(info.ptl_pid[2], 12);
    smartmap_info(&fake[1], &info);
    KEXPECT_EQ(info.self, -1);
    fakes_free(3);
}

struct probe {
    uint64_t seen[MAX_CPUS];
    uint64_t cr3, va;
};

/* On each CPU: run in the probe's address space (so a shootdown of it
   reaches this CPU) and read the probe's address. */
static void read_in(void *arg)
{
    struct probe *p = arg;

    if (this_cpu()->cr3 != p->cr3)
        aspace_switch(p->cr3);
    p->seen[this_cpu()->id] = *(volatile uint64_t *)p->va;
}

static void back_to_kernel(void *arg)
{
    (void)arg;
    aspace_switch(kernel_cr3);
}

/* Every CPU running member 0 reads slot 1 (its TLB now holds it); member
   1 leaves; slot 1 is then pointed at process 3 without a shootdown, as
   a later group could reuse it.  A CPU whose TLB still held the leaver's
   entry would read the leaver's page: each must read process 3's. */
KTEST(smartmap, leaving_shoots_down)
{
    struct probe p = { .va = lwk_smartmap_va(1, DATA_VA) };

    if (!fakes_make(4))
        return;
    KEXPECT_EQ(smartmap_share(group3, 3), 0);
    p.cr3 = fake[0].cr3;
    for (int i = 0; i < ncpus; i++)
        smp_call(i, read_in, &p);
    for (int i = 0; i < ncpus; i++)
        KEXPECT_EQ(p.seen[i], 0xB0);
    smartmap_leave(&fake[1]);
    ((uint64_t *)phys_to_virt(fake[0].cr3))[2] =
        ((uint64_t *)phys_to_virt(fake[3].cr3))[0];
    for (int i = 0; i < ncpus; i++)
        smp_call(i, read_in, &p);
    for (int i = 0; i < ncpus; i++)
        KEXPECT_EQ(p.seen[i], 0xD0);
    ((uint64_t *)phys_to_virt(fake[0].cr3))[2] = 0;
    for (int i = 0; i < ncpus; i++)
        smp_call(i, back_to_kernel, NULL);
    fakes_free(4);
}
