/*
 * The CPUs of the node: the per-CPU areas, starting the application
 * processors (APs) the MADT lists, cross-CPU calls and TLB shootdowns.
 *
 * Start-up follows the SDM's MP initialization (Vol 3 §9.4.4): an INIT
 * IPI to each AP, 10 ms, then a start-up IPI pointing at smpboot.S's
 * code copied below 1 MiB, a second one 200 us later if the AP has not
 * answered; one AP at a time, since they share the trampoline's
 * parameters.  Each AP sets up its own GDT/TSS, LAPIC and timer, says it
 * is online, and halts in its idle loop: it runs only what another CPU
 * asks of it (smp_call).  The kernel never moves work between CPUs by
 * itself.
 */
#define LOG_PREFIX "smp"
#include "kernel.h"
#include "acpi.h"
#include "aspace.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "portals.h"
#include "panic.h"
#include "printf.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define AP_STACKS       (2 * IST_SIZE + KSTACK_SIZE)
#define AP_WAIT_US      5000000     /* TCG on a loaded host is slow */
#define FLUSH_MAX_PAGES 64          /* beyond: flush the whole TLB */
#define KERNEL_HALF     0xFFFF800000000000ULL

_Static_assert(offsetof(struct cpu, self) == 0, "%gs:0 is the area itself");
_Static_assert(offsetof(struct cpu, kstack_top) == CPU_KSTACK_TOP, "asm");
_Static_assert(offsetof(struct cpu, user_rsp) == CPU_USER_RSP, "asm");

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

/* Filled before each start-up IPI (smpboot.S's smp_tramp_params). */
struct tramp_params {
    uint64_t cr3, efer, stack, cpu;
};

extern const char smp_tramp[], smp_tramp_end[], smp_tramp_params[];
__noreturn void smp_ap_main(struct cpu *c);

static void set_gs(struct cpu *c)
{
    c->self = c;
    wrmsr(MSR_GS_BASE, (uint64_t)c);
    wrmsr(MSR_KERNEL_GS_BASE, 0);   /* the user's, until the first swapgs */
}

void cpu_init_boot(void)
{
    set_gs(&cpus[0]);
}

/* ---- cross-CPU calls ------------------------------------------------------ */

void smp_poll_calls(void)
{
    struct cpu_call *k = &this_cpu()->call;
    uint64_t req = __atomic_load_n(&k->req, __ATOMIC_ACQUIRE);

    if (req != k->done) {
        k->fn(k->arg);
        __atomic_store_n(&k->done, req, __ATOMIC_RELEASE);
    }
}

static void call_irq(struct trapframe *tf)
{
    (void)tf;
    apic_eoi();
    this_cpu()->ipis++;
    smp_poll_calls();
}

/* While waiting for another CPU, serve calls made to this one: two CPUs
   calling each other would otherwise wait for each other forever. */
void smp_call(int id, void (*fn)(void *), void *arg)
{
    struct cpu *t = &cpus[id];
    uint64_t req;

    KASSERT(id >= 0 && id < ncpus);
    if (t == this_cpu()) {
        fn(arg);
        return;
    }
    while (!spin_trylock(&t->call.lock))
        smp_poll_calls();
    t->call.fn = fn;
    t->call.arg = arg;
    req = t->call.req + 1;
    __atomic_store_n(&t->call.req, req, __ATOMIC_RELEASE);
    apic_send_ipi(t->apic_id, ICR_FIXED | VEC_CALL);
    while (__atomic_load_n(&t->call.done, __ATOMIC_ACQUIRE) != req) {
        smp_poll_calls();
        cpu_relax();
    }
    spin_unlock(&t->call.lock);
}

/* ---- TLB shootdown -------------------------------------------------------- */

struct flush {
    uint64_t va, len;
};

static void flush_here(void *arg)
{
    const struct flush *f = arg;

    if (f->len > FLUSH_MAX_PAGES * PAGE_4K) {
        if (f->va >= KERNEL_HALF) {         /* global pages too */
            uint64_t cr4 = read_cr4();
            write_cr4(cr4 & ~(1UL << 7));   /* CR4.PGE off flushes all */
            write_cr4(cr4);
        } else {
            tlb_flush_local();
        }
        return;
    }
    for (uint64_t off = 0; off < f->len; off += PAGE_4K)
        invlpg(f->va + off);
}

/* One call per CPU that may hold the entries, each waited for: unmapping
   is rare (a process's end, a module given back), so simple wins. */
void tlb_shootdown(uint64_t cr3, uint64_t va, uint64_t len)
{
    struct flush f = { ALIGN_DOWN(va, PAGE_4K),
                       ALIGN_UP(va + len, PAGE_4K) - ALIGN_DOWN(va, PAGE_4K) };
    bool everywhere = va >= KERNEL_HALF;

    /* The tables were changed before we read which CPU runs what. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int i = 0; i < ncpus; i++)
        if (everywhere || __atomic_load_n(&cpus[i].cr3, __ATOMIC_RELAXED) == cr3)
            smp_call(i, flush_here, &f);
}

/* ---- the application processors ------------------------------------------ */

__noreturn void smp_idle(void)
{
    struct cpu *c = this_cpu();

    for (;;) {
        smp_poll_calls();
        if (__atomic_load_n(&c->proc, __ATOMIC_ACQUIRE))
            thread_enter(c);        /* given a thread: never returns */
        if (__atomic_load_n(&c->engine, __ATOMIC_ACQUIRE))
            kptl_engine_run();      /* until the engine moves away */
        irq_enable_and_halt();      /* an IPI or the LAPIC timer wakes us */
        irq_disable();
    }
}

__noreturn void smp_idle_here(void)
{
    __asm__ volatile("mov %0, %%rsp\n\t"
                     "xor %%ebp, %%ebp\n\t"
                     "call smp_idle"
                     : : "r"(this_cpu()->kstack_top - IDLE_STACK_GAP));
    __builtin_unreachable();
}

__noreturn void smp_ap_main(struct cpu *c)
{
    set_gs(c);
    aspace_switch(kernel_cr3);      /* leave the trampoline's tables */
    trap_init_cpu(c, (uint8_t *)c->kstack_top - AP_STACKS);
    gdt_set_kernel_stack(c->kstack_top);
    fpu_enable();
    syscall_init();
    apic_init_cpu();
    timer_init_cpu();
    __atomic_store_n(&c->online, true, __ATOMIC_RELEASE);
    smp_idle();
}

static bool wait_online(struct cpu *c, uint64_t us)
{
    uint64_t end = clock_ns() + us * 1000;

    while (!__atomic_load_n(&c->online, __ATOMIC_ACQUIRE))
        if (clock_ns() > end)
            return false;
    return true;
}

/* The AP is in wait-for-SIPI (INIT sent): point it at the trampoline. */
static bool start_ap(struct cpu *c, uint64_t tramp, struct tramp_params *tp)
{
    uint64_t pa, size = AP_STACKS;

    if (mem_region_alloc(&size, true, &pa) < 0) {
        pr_warn("no memory for CPU %d's stacks\n", c->id);
        return false;
    }
    c->kstack_top = (uint64_t)phys_to_virt(pa) + AP_STACKS;
    tp->stack = c->kstack_top - IDLE_STACK_GAP;
    tp->cpu = (uint64_t)c;
    for (int i = 0; i < 2 && !c->online; i++) {
        apic_send_ipi(c->apic_id, ICR_STARTUP | ICR_ASSERT | (tramp >> 12));
        udelay(200);
    }
    if (wait_online(c, AP_WAIT_US))
        return true;
    /* Back to wait-for-SIPI, so it cannot start later on the next AP's
       parameters. */
    apic_send_ipi(c->apic_id, ICR_INIT | ICR_ASSERT);
    mem_region_free(pa, size);
    pr_warn("CPU with APIC id %u did not start; continuing without it\n",
            c->apic_id);
    return false;
}

/* Tables for the APs' first steps: the kernel half, and the first 2 MB
   (the trampoline) identity-mapped.  Below 4 GiB: loaded in 32-bit mode. */
static uint64_t tramp_tables(void)
{
    uint64_t cr3 = aspace_new();

    if (cr3 && (cr3 >= GiB(4) || aspace_map(cr3, 0, 0, PAGE_2M, PTE_W) < 0)) {
        aspace_free(cr3);
        return 0;
    }
    return cr3;
}

static void start_aps(const struct acpi_madt *m, uint64_t max)
{
    uint64_t tramp = kpage_alloc_low(), cr3 = tramp_tables();
    struct tramp_params *tp;

    if (!tramp || !cr3) {
        pr_warn("no page below 1 MiB or no tables for the start-up code; "
                "one CPU\n");
        goto out;
    }
    memcpy(phys_to_virt(tramp), smp_tramp, smp_tramp_end - smp_tramp);
    tp = phys_to_virt(tramp + (smp_tramp_params - smp_tramp));
    *tp = (struct tramp_params){ .cr3 = cr3,
        .efer = rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE) };
    for (int i = 0; i < m->ncpus; i++)
        if (m->cpu[i].apic_id != cpus[0].apic_id)
            apic_send_ipi(m->cpu[i].apic_id, ICR_INIT | ICR_ASSERT);
    udelay(10000);
    for (int i = 0; i < m->ncpus && (uint64_t)ncpus < max; i++) {
        struct cpu *c = &cpus[ncpus];
        if (m->cpu[i].apic_id == cpus[0].apic_id)
            continue;
        *c = (struct cpu){ .id = ncpus, .apic_id = m->cpu[i].apic_id };
        if (start_ap(c, tramp, tp))
            ncpus++;
    }
out:
    if (cr3)
        aspace_free(cr3);
    if (tramp)
        kpage_free(tramp);
}

static void log_cpus(const struct acpi_madt *m)
{
    char ids[MAX_CPUS * 4 + 1];
    int n = 0;

    for (int i = 0; i < ncpus; i++)
        n += ksnprintf(ids + n, sizeof(ids) - n, "%s%u", i ? "," : "",
                       cpus[i].apic_id);
    pr_info("%d of %d CPUs online (APIC ids %s)%s\n", ncpus, m->ncpus, ids,
            ncpus > 1 ? "; the others halt until given work" : "");
    if (m->ncpus_skipped)
        pr_warn("%d more CPUs not used (%d at most)\n", m->ncpus_skipped,
                MAX_CPUS);
}

void smp_init(uint64_t max)
{
    struct acpi_madt m;
    const char *why;

    cpus[0].apic_id = apic_id();
    cpus[0].online = true;
    cpus[0].cr3 = read_cr3();
    trap_set_handler(VEC_CALL, call_irq);
    if (acpi_madt(&acpi_tables, &m, &why) < 0) {
        pr_warn("%s; one CPU\n", why);
        return;
    }
    if (max > 1 && m.ncpus > 1)
        start_aps(&m, max);
    log_cpus(&m);
}
