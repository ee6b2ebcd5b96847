/*
 * In-kernel tests of the CPUs: every CPU the MADT lists came online, each
 * reaches its own per-CPU area, takes calls by IPI and its own LAPIC
 * timer, and a TLB shootdown reaches every CPU that holds a stale entry.
 * tests/qemu/suite-boot runs them on 1, 2 and 4 CPUs; on one CPU they
 * check what there is to check.
 */
#include "kernel.h"
#include "acpi.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "ktest.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

/* How long a test waits for another CPU: a vCPU of a loaded host can be
   descheduled for a long time; a hang is caught by the run's timeout. */
#define WAIT_NS     20000000000ULL

/* Every enabled CPU of the MADT is online (unless cpus= capped them), with
   the APIC id the MADT gave it, all different. */
KTEST(smp, every_cpu_online)
{
    struct acpi_madt m;
    const char *why;
    uint64_t max;

    KEXPECT_EQ(acpi_madt(&acpi_tables, &m, &why), 0);
    cmdline_get_u64(&kernel_cmdline, "cpus", MAX_CPUS, &max);
    KEXPECT_EQ(ncpus, MIN((uint64_t)m.ncpus, max));
    for (int i = 0; i < ncpus; i++) {
        bool listed = false;
        KEXPECT(cpus[i].online);
        KEXPECT_EQ(cpus[i].id, i);
        for (int j = 0; j < m.ncpus; j++)
            listed |= m.cpu[j].apic_id == cpus[i].apic_id;
        KEXPECT(listed);
        for (int j = 0; j < i; j++)
            KEXPECT(cpus[j].apic_id != cpus[i].apic_id);
    }
}

struct where {
    struct cpu *self, *gs;
    int id;
    uint32_t lapic_id;
};

static void where_am_i(void *arg)
{
    struct where *w = arg;

    w->self = this_cpu();
    w->gs = (struct cpu *)rdmsr(MSR_GS_BASE);
    w->id = this_cpu()->id;
    w->lapic_id = apic_id();
    this_cpu()->ktest_hits++;
}

/* Each CPU's GS base is its own area, whose id and APIC id are its own,
   and a call lands on the CPU it names and no other. */
KTEST(smp, percpu_area)
{
    uint64_t before[MAX_CPUS];

    for (int i = 0; i < ncpus; i++)
        before[i] = cpus[i].ktest_hits;
    for (int i = 0; i < ncpus; i++) {
        struct where w = { 0 };
        smp_call(i, where_am_i, &w);
        KEXPECT(w.self == &cpus[i]);
        KEXPECT(w.gs == &cpus[i]);
        KEXPECT_EQ(w.id, i);
        KEXPECT_EQ(w.lapic_id, cpus[i].apic_id);
    }
    for (int i = 0; i < ncpus; i++)
        KEXPECT_EQ(cpus[i].ktest_hits, before[i] + 1);
}

static void count_hit(void *arg)
{
    (void)arg;
    this_cpu()->ktest_hits++;
}

/* 200 calls to each other CPU: each ran exactly once, there.  (Fewer
   interrupts may be taken: a CPU polls its mailbox before it halts, and
   the LAPIC merges an IPI into one of the same vector still pending.) */
KTEST(smp, calls_run_once)
{
    uint64_t hits0 = cpus[0].ktest_hits;

    for (int i = 1; i < ncpus; i++) {
        uint64_t hits = cpus[i].ktest_hits, ipis = cpus[i].ipis;
        for (int k = 0; k < 200; k++)
            smp_call(i, count_hit, NULL);
        KEXPECT_EQ(cpus[i].ktest_hits - hits, 200);
        KEXPECT(cpus[i].ipis > ipis && cpus[i].ipis - ipis <= 200);
    }
    KEXPECT_EQ(cpus[0].ktest_hits, hits0);
}

#define VEC_KTEST   0xE0

static void on_ktest_ipi(struct trapframe *tf)
{
    (void)tf;
    apic_eoi();
    __atomic_fetch_add(&this_cpu()->ktest_hits, 1, __ATOMIC_RELEASE);
}

/* Raw IPIs: 200 to each other CPU, one at a time, each taken there as one
   interrupt; nothing taken here. */
KTEST(smp, ipis_delivered)
{
    uint64_t hits0 = cpus[0].ktest_hits;

    trap_set_handler(VEC_KTEST, on_ktest_ipi);
    for (int i = 1; i < ncpus; i++) {
        uint64_t hits = cpus[i].ktest_hits, t0 = clock_ns();
        for (int k = 0; k < 200; k++) {
            apic_send_ipi(cpus[i].apic_id, ICR_FIXED | VEC_KTEST);
            while (__atomic_load_n(&cpus[i].ktest_hits, __ATOMIC_ACQUIRE) ==
                       hits + k && clock_ns() - t0 < WAIT_NS)
                cpu_relax();
        }
        KEXPECT_EQ(cpus[i].ktest_hits - hits, 200);
    }
    KEXPECT_EQ(cpus[0].ktest_hits, hits0);
    trap_set_handler(VEC_KTEST, NULL);
}

static void on_timer(void)
{
    this_cpu()->ktest_hits++;
}

static void arm_timer(void *arg)
{
    (void)arg;
    timer_oneshot(1000000, on_timer);       /* 1 ms */
}

/* Each CPU's LAPIC timer interrupts that CPU: armed on every other CPU,
   each fires once there, none here. */
KTEST(smp, timer_per_cpu)
{
    uint64_t hits[MAX_CPUS], irqs[MAX_CPUS], t0 = clock_ns();
    bool all;

    for (int i = 0; i < ncpus; i++) {
        hits[i] = cpus[i].ktest_hits;
        irqs[i] = cpus[i].timer_stats.irqs;
    }
    for (int i = 1; i < ncpus; i++)
        smp_call(i, arm_timer, NULL);
    do {
        all = true;
        for (int i = 1; i < ncpus; i++)
            all &= __atomic_load_n(&cpus[i].ktest_hits, __ATOMIC_ACQUIRE) !=
                   hits[i];
    } while (!all && clock_ns() - t0 < WAIT_NS);
    for (int i = 1; i < ncpus; i++) {
        KEXPECT_EQ(cpus[i].ktest_hits, hits[i] + 1);
        KEXPECT(cpus[i].timer_stats.irqs > irqs[i]);
    }
    KEXPECT_EQ(cpus[0].ktest_hits, hits[0]);
}

/* ---- TLB shootdown -------------------------------------------------------- */

/* An unused kernel address (the last GiB, under the kernel image's PDPT,
   which every address space shares). */
#define TEST_VA     0xFFFFFFFFC0000000ULL

struct probe {
    uint64_t seen[MAX_CPUS];
};

static void read_test_va(void *arg)
{
    struct probe *p = arg;

    p->seen[this_cpu()->id] = *(volatile uint64_t *)TEST_VA;
}

static void read_everywhere(struct probe *p)
{
    for (int i = 0; i < ncpus; i++)
        smp_call(i, read_test_va, p);
}

/* Every CPU reads a page through TEST_VA, so its TLB holds the entry; the
   mapping then moves to another page.  Before the shootdown a CPU may
   still read the old page through its stale entry (QEMU's TLBs keep it,
   as hardware may); after it, every CPU must read the new page. */
KTEST(smp, tlb_shootdown)
{
    uint64_t a = kpage_alloc(), b = kpage_alloc(), *pte;
    struct probe p = { { 0 } };
    int stale = 0;

    KEXPECT(a && b);
    *(uint64_t *)phys_to_virt(a) = 0xAAAA;
    *(uint64_t *)phys_to_virt(b) = 0xBBBB;
    pte = pt_entry(kernel_cr3, TEST_VA, PT_PT, PTE_W);
    KEXPECT(pte && !*pte);
    if (!pte || !a || !b)
        return;
    *pte = a | PTE_P | PTE_W;
    read_everywhere(&p);
    for (int i = 0; i < ncpus; i++)
        KEXPECT_EQ(p.seen[i], 0xAAAA);

    *pte = b | PTE_P | PTE_W;               /* no shootdown yet */
    read_everywhere(&p);
    for (int i = 0; i < ncpus; i++)
        stale += p.seen[i] == 0xAAAA;
    kprintf("smp: %d of %d CPUs read through a stale TLB entry before the "
            "shootdown\n", stale, ncpus);
    tlb_shootdown(kernel_cr3, TEST_VA, PAGE_4K);
    read_everywhere(&p);
    for (int i = 0; i < ncpus; i++)
        KEXPECT_EQ(p.seen[i], 0xBBBB);

    *pte = 0;
    tlb_shootdown(kernel_cr3, TEST_VA, PAGE_4K);
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, TEST_VA), (uint64_t)-1);
    kpage_free(a);
    kpage_free(b);
}
