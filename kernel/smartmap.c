/*
 * SMARTMAP: the processes of one job on a node load and store each
 * other's memory directly, without a general virtual memory system
 * (Brightwell, Hudson and Pedretti, SC'08; Catamount's and Kitten's
 * mechanism).  A process's memory is its regions, present from load to
 * exit (no demand paging), all under two top-level page-table entries:
 * entry 0 (text, data, heap) and entry 255 (the stack).  So a member of a
 * group sees the process in slot k by copying those two PML4 entries into
 * its own table at the slot's entries (uapi/abi.h): the lower tables are
 * the owner's own, shared, and nothing ever faults them in.
 *
 * The PCT decides who is grouped (proc_share: the ranks of one job on
 * this node); the kernel enforces the rest.  A member's end empties its
 * slot in every other member and shoots down their TLBs before its
 * regions are freed (proc.c, release): a rank that then touches the slot
 * takes a page fault, reported and handled like any fault, and never
 * reaches memory given to someone else.
 *
 * Groups change only on CPU 0 (the PCT's calls); the members' CPUs read
 * their group's slots (smartmap_ptr), so a slot is emptied before the
 * shootdown that tells those CPUs.
 */
#define LOG_PREFIX "smartmap"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "memlayout.h"
#include "paging.h"
#include "portals.h"
#include "proc.h"
#include "smartmap.h"

#define OWN_LOW     0           /* the PML4 entries a slot carries */
#define OWN_HIGH    (LWK_SMARTMAP_STACK / LWK_SMARTMAP_SPAN)
#define LOW(k)      (1 + (k))   /* and where slot k has them */
#define HIGH(k)     (1 + LWK_SMARTMAP_SLOTS + (k))

struct smartmap_group {
    struct proc *slot[LWK_SMARTMAP_SLOTS];
    int n;                      /* members left; 0: the group is free */
};

static struct smartmap_group groups[NPROC];

static uint64_t *pml4(const struct proc *p)
{
    return phys_to_virt(p->cr3);
}

static bool can_join(struct proc *const *m, int i)
{
    const struct proc *p = m[i];

    if (!p || p->is_pct || !p->cr3 || !(pml4(p)[OWN_LOW] & PTE_P) ||
        !(pml4(p)[OWN_HIGH] & PTE_P))
        return false;
    for (int j = 0; j < i; j++)
        if (m[j] == p)
            return false;
    return true;
}

long smartmap_share(struct proc *const *m, int n)
{
    struct smartmap_group *g = NULL;

    if (n < 1 || n > LWK_SMARTMAP_SLOTS)
        return -EINVAL;
    for (int i = 0; i < n; i++) {
        if (!can_join(m, i))
            return -EINVAL;
        if (m[i]->smartmap)
            return -EBUSY;
    }
    for (int i = 0; i < NPROC && !g; i++)
        if (!groups[i].n)
            g = &groups[i];
    if (!g)
        return -ENOMEM;
    *g = (struct smartmap_group){ .n = n };
    for (int i = 0; i < n; i++) {
        g->slot[i] = m[i];
        m[i]->smartmap = g;
        m[i]->smartmap_slot = i;
    }
    /* Entries are only added here: no CPU can hold a stale one. */
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            pml4(m[i])[LOW(k)] = pml4(m[k])[OWN_LOW];
            pml4(m[i])[HIGH(k)] = pml4(m[k])[OWN_HIGH];
        }
    pr_info("pids %d..%d (%d processes) map each other, slots 0..%d\n",
            m[0]->pid, m[n - 1]->pid, n, n - 1);
    return 0;
}

void smartmap_leave(struct proc *p)
{
    struct smartmap_group *g = p->smartmap;
    int k = p->smartmap_slot;

    if (!g)
        return;
    /* Who resolves slot addresses (smartmap_ptr) stops finding p first. */
    __atomic_store_n(&g->slot[k], NULL, __ATOMIC_RELEASE);
    p->smartmap = NULL;
    g->n--;
    /* Its own table must not name the others' tables when it is freed:
       aspace_free frees every table it reaches. */
    for (int j = 0; j < LWK_SMARTMAP_SLOTS; j++)
        pml4(p)[LOW(j)] = pml4(p)[HIGH(j)] = 0;
    for (int j = 0; j < LWK_SMARTMAP_SLOTS; j++) {
        struct proc *q = g->slot[j];
        if (!q)
            continue;
        pml4(q)[LOW(k)] = pml4(q)[HIGH(k)] = 0;
        tlb_shootdown(q->cr3, LOW(k) * LWK_SMARTMAP_SPAN,
                      (HIGH(k) - LOW(k) + 1) * LWK_SMARTMAP_SPAN);
    }
    if (g->n)
        kptl_tx_drain(p);
}

void *smartmap_ptr(struct proc *p, uint64_t uva, uint64_t len, bool write)
{
    struct smartmap_group *g = p->smartmap;
    struct proc *q;
    unsigned k;
    uint64_t va;

    if (!g || !lwk_smartmap_of(uva, &k, &va))
        return NULL;
    q = __atomic_load_n(&g->slot[k], __ATOMIC_ACQUIRE);
    /* q's own regions only: a slot address of q's is no region of q. */
    return q ? region_ptr(q, va, len, write) : NULL;
}

void smartmap_info(struct proc *p, struct lwk_smartmap *out)
{
    struct smartmap_group *g = p->smartmap;

    *out = (struct lwk_smartmap){ .self = -1 };
    if (!g)
        return;
    out->self = p->smartmap_slot;
    for (int k = 0; k < LWK_SMARTMAP_SLOTS; k++) {
        struct proc *q = __atomic_load_n(&g->slot[k], __ATOMIC_ACQUIRE);
        out->ptl_pid[k] = q ? q->ptl_pid : 0;
    }
}
