/*
 * In-kernel tests of the boot-time subsystems, run under QEMU by
 * tests/qemu/suite-boot (test=all).
 */
#include "kernel.h"
#include "cpu.h"
#include "bootinfo.h"
#include "ktest.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "printf.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

KTEST(printf, formats)
{
    char b[64];

    ksnprintf(b, sizeof(b), "%d|%5u|%-4x|%08lx|%s|%c", -42, 7u, 0xabu,
              0x1234UL, "ok", 'z');
    KEXPECT(!strcmp(b, "-42|    7|ab  |00001234|ok|z"));
    KEXPECT_EQ(ksnprintf(b, 4, "%s", "truncated"), 9);
    KEXPECT(!strcmp(b, "tru"));
}

KTEST(region, alloc_free_real_pool)
{
    uint64_t before = region_free_bytes(&phys_pool), a, b;

    KEXPECT(before >= MiB(64));
    KEXPECT_EQ(region_alloc(&phys_pool, MiB(3), &a), 0);
    KEXPECT(IS_ALIGNED(a, PAGE_2M));
    KEXPECT(a >= PAGE_2M);      /* never the kernel's own chunk */
    KEXPECT(mem_is_ram(a, MiB(4)));
    KEXPECT_EQ(region_alloc(&phys_pool, 1, &b), 0);
    KEXPECT(b >= a + MiB(4) || b + PAGE_2M <= a);
    KEXPECT_EQ(region_free_bytes(&phys_pool), before - MiB(6));
    /* The memory is really there and distinct: write both through PHYSMAP. */
    memset(phys_to_virt(a), 0xA5, MiB(4));
    memset(phys_to_virt(b), 0x5A, PAGE_2M);
    KEXPECT_EQ(*(uint8_t *)phys_to_virt(a + MiB(4) - 1), 0xA5);
    KEXPECT_EQ(region_free(&phys_pool, a, MiB(3)), 0);
    KEXPECT_EQ(region_free(&phys_pool, b, 1), 0);
    KEXPECT_EQ(region_free(&phys_pool, b, 1), -EINVAL);
    KEXPECT_EQ(region_free_bytes(&phys_pool), before);
}

KTEST(region, exhaust_and_return)
{
    static uint64_t got[2048];
    uint64_t before = region_free_bytes(&phys_pool), p;
    int n = 0;

    while (n < 2048 && region_alloc(&phys_pool, PAGE_2M, &got[n]) == 0)
        n++;
    KEXPECT_EQ((uint64_t)n * PAGE_2M, before);
    KEXPECT_EQ(region_alloc(&phys_pool, PAGE_2M, &p), -ENOMEM);
    while (n--)
        KEXPECT_EQ(region_free(&phys_pool, got[n], PAGE_2M), 0);
    KEXPECT_EQ(region_free_bytes(&phys_pool), before);
}

static uint64_t probe;

KTEST(paging, physmap_aliases_kernel_image)
{
    uint64_t pa = kernel_virt_to_phys(&probe);

    probe = 0x1234567890abcdefULL;
    KEXPECT_EQ(*(volatile uint64_t *)phys_to_virt(pa), probe);
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, (uint64_t)&probe), pa);
    KEXPECT_EQ(read_cr3(), kernel_cr3);
}

KTEST(paging, low_half_unmapped)
{
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, 0x100000), (uint64_t)-1);
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, 0x0), (uint64_t)-1);
}

KTEST(mem, figures)
{
    struct mem_stats st;

    mem_get_stats(&st);
    KEXPECT(st.total > MiB(100));
    KEXPECT(st.kernel > 0 && st.kernel < MiB(1));
    KEXPECT(st.free + st.kernel <= st.total);
    KEXPECT(st.free >= st.total - MiB(8));  /* the kernel costs < 8 MiB */
}

static uint64_t free_for_programs(void)
{
    struct mem_stats st;

    mem_get_stats(&st);
    return st.free;
}

/* A short region takes 4 KiB pages (a partial chunk, or a chunk lent for
   pages), never the kernel's chunk, and comes back whole. */
KTEST(mem, small_region_in_pages)
{
    uint64_t before = free_for_programs(), size = KiB(12), pa;

    KEXPECT_EQ(mem_region_alloc(&size, false, &pa), 0);
    KEXPECT_EQ(size, KiB(12));
    KEXPECT(pa >= PAGE_2M && IS_ALIGNED(pa, PAGE_4K));
    KEXPECT(mem_is_ram(pa, size));
    KEXPECT_EQ(free_for_programs(), before - KiB(12));
    memset(phys_to_virt(pa), 0x5A, size);
    KEXPECT_EQ(mem_region_free(pa, size), 0);
    KEXPECT_EQ(mem_region_free(pa, size), -EINVAL);
    KEXPECT_EQ(free_for_programs(), before);
}

KTEST(mem, kernel_pages_in_kernel_chunk)
{
    uint64_t p = kpage_alloc(), q = kpage_alloc();

    KEXPECT(p && q && p != q);
    KEXPECT_EQ(ALIGN_DOWN(p, PAGE_2M), ALIGN_DOWN(KERNEL_PHYS, PAGE_2M));
    KEXPECT_EQ(*(uint64_t *)phys_to_virt(p), 0);    /* zeroed */
    kpage_free(q);
    kpage_free(p);
}

/* The biggest region a program can get is one physically contiguous run:
   whole chunks, plus the 4 KiB pages of a partial chunk right above them
   when there is one (the top of a 128 MiB PC).  UEFI firmware keeps its
   runtime and ACPI areas near the top of a small machine's RAM: under
   OVMF at 128 MiB the largest run is ~96 MiB. */
KTEST(mem, largest_region_is_contiguous)
{
    uint64_t before = free_for_programs(), want = mem_largest_free();
    uint64_t size = want, pa, more = want + PAGE_4K;

    KEXPECT(want >= MiB(90));
    KEXPECT_EQ(mem_region_alloc(&size, false, &pa), 0);
    KEXPECT_EQ(size, want);                 /* not rounded up */
    KEXPECT(IS_ALIGNED(pa, PAGE_2M));
    KEXPECT(mem_is_ram(pa, size));
    KEXPECT_EQ(free_for_programs(), before - want);
    *(volatile uint64_t *)phys_to_virt(pa + size - 8) = 1;
    KEXPECT_EQ(mem_region_free(pa, size), 0);
    KEXPECT_EQ(mem_region_alloc(&more, false, &pa), -ENOMEM);
    KEXPECT_EQ(free_for_programs(), before);
}

/* A process's region reads as zeros, but a chunk known to hold only
   zeros is not zeroed again: mem_dirty (or any other allocation) is what
   makes the next one zero it. */
KTEST(mem, zeroed_region_skips_known_zero)
{
    uint64_t size = MiB(4), pa, pa2, z;
    volatile uint8_t *canary;

    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa, &z), 0);
    KEXPECT(IS_ALIGNED(pa, PAGE_2M));
    canary = phys_to_virt(pa + MiB(3));
    KEXPECT_EQ(*canary, 0);
    *canary = 0x5A;             /* a write nobody was told of */
    KEXPECT_EQ(mem_region_free(pa, size), 0);
    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa2, &z), 0);
    KEXPECT_EQ(pa2, pa);        /* first fit: the same chunks */
    KEXPECT_EQ(z, 0);
    KEXPECT_EQ(*canary, 0x5A);  /* not zeroed: it was "known zero" */
    mem_dirty(pa + MiB(3), 1);
    KEXPECT_EQ(mem_region_free(pa, size), 0);
    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa2, &z), 0);
    KEXPECT_EQ(z, MiB(2));      /* the chunk told of, only */
    KEXPECT_EQ(*canary, 0);
    KEXPECT_EQ(mem_region_free(pa, size), 0);
    /* Another allocation's owner may write anything. */
    KEXPECT_EQ(mem_region_alloc(&size, false, &pa2), 0);
    KEXPECT_EQ(mem_region_free(pa2, size), 0);
    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa2, &z), 0);
    KEXPECT_EQ(z, MiB(4));
    KEXPECT_EQ(mem_region_free(pa2, size), 0);
    /* 4 KiB pages are zeroed every time. */
    size = KiB(12);
    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa, &z), 0);
    KEXPECT_EQ(z, KiB(12));
    KEXPECT_EQ(mem_region_free(pa, size), 0);
}

/* A chunk nobody has had since boot is read, not written, when it reads
   zero (QEMU's RAM does at power-on: the host then backs none of it); one
   holding anything is zeroed.  Runs before the tests above (the section
   runs last-defined first), while the low chunks are still fresh. */
KTEST(mem, fresh_chunk_read_before_zeroing)
{
    uint64_t size = MiB(2), pa, pa2, z;
    volatile uint8_t *canary;

    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa, &z), 0);
    if (!strcmp(bootinfo.loader, "multiboot1"))
        KEXPECT_EQ(z, 0);       /* QEMU -kernel: no firmware's or GRUB's
                                   leftovers in RAM */
    KEXPECT(region_free_above(&phys_pool, pa + MiB(2)) >= MiB(2));
    canary = phys_to_virt(pa + MiB(3));
    *canary = 0x77;             /* what a boot loader may leave */
    KEXPECT_EQ(mem_region_alloc_zeroed(&size, false, &pa2, &z), 0);
    KEXPECT_EQ(pa2, pa + MiB(2));
    KEXPECT_EQ(z, MiB(2));
    KEXPECT_EQ(*canary, 0);
    KEXPECT_EQ(mem_region_free(pa2, size), 0);
    KEXPECT_EQ(mem_region_free(pa, size), 0);
}

KTEST(timer, tsc_calibrated)
{
    KEXPECT(tsc_hz > 100000000ULL && tsc_hz < 20000000000ULL);
}

/* A simulated PIT and 2 GHz TSC on a host that deschedules the vCPU:
   every access costs sim_step_ns, and every sim_pause_every-th access is
   preceded by a 30 ms pause (0: never), wherever it falls. */
#define SIM_TSC_HZ  2000000000ULL
static uint64_t sim_ns, sim_pit_t0, sim_calls, sim_step_ns, sim_pause_every;
static bool sim_pit_dead;

static void sim_step(void)
{
    sim_ns += sim_step_ns;
    if (sim_pause_every && ++sim_calls % sim_pause_every == 0)
        sim_ns += 30000000;
}

static uint64_t sim_pit_ticks(void)
{
    return sim_pit_dead ? 0 : (sim_ns - sim_pit_t0) * 1193182 / 1000000000;
}

static uint64_t sim_tsc(void)
{
    sim_step();
    return sim_ns * (SIM_TSC_HZ / 1000000000);
}

static void sim_pit_start(void)
{
    sim_step();
    sim_pit_t0 = sim_ns;
}

static uint16_t sim_pit_count(void)
{
    sim_step();
    return (uint16_t)(0xFFFF - sim_pit_ticks());    /* mode 0 wraps */
}

static bool sim_pit_done(void)
{
    sim_step();
    return sim_pit_ticks() >= 0xFFFF;
}

static const struct tsc_cal_ops sim_cal = {
    .tsc = sim_tsc, .pit_start = sim_pit_start, .pit_count = sim_pit_count,
    .pit_done = sim_pit_done,
};

static void sim_reset(uint64_t step_ns, uint64_t pause_every, bool dead)
{
    sim_ns = sim_calls = 0;
    sim_step_ns = step_ns;
    sim_pause_every = pause_every;
    sim_pit_dead = dead;
}

/* Pauses land inside readings (thrown away) and between them (harmless):
   the result stays within 0.1%.  The first calibration, which read the
   TSC and then polled the PIT, measured 58 MHz for 2 GHz like this. */
KTEST(timer, calibration_survives_pauses)
{
    unsigned discarded;
    uint64_t hz;

    sim_reset(1000, 7919, false);
    hz = tsc_calibrate(&sim_cal, &discarded);
    KEXPECT(discarded > 0);
    KEXPECT(hz > SIM_TSC_HZ - SIM_TSC_HZ / 1000);
    KEXPECT(hz < SIM_TSC_HZ + SIM_TSC_HZ / 1000);
}

KTEST(timer, calibration_refuses_when_always_disturbed)
{
    unsigned discarded;

    sim_reset(1000, 2, false);      /* a pause inside every reading */
    KEXPECT_EQ(tsc_calibrate(&sim_cal, &discarded), 0);
    KEXPECT(discarded > 0);
}

KTEST(timer, calibration_no_pit)
{
    unsigned discarded;

    sim_reset(1000000, 0, true);    /* 1 ms per access: gives up soon */
    KEXPECT_EQ(tsc_calibrate(&sim_cal, &discarded), 0);
}

/* The same host against an up-counter: the PM timer's 24 bits starting
   just below their wrap, and a counter that never moves (an HPET that is
   not enabled) is given up on rather than waited for. */
static uint64_t sim_ref_start;

static uint64_t sim_pm_read(void)
{
    sim_step();
    return sim_pit_dead ? 0x123 :
        (sim_ref_start + sim_ns * 3579545 / 1000000000) & 0xFFFFFF;
}

static const struct tsc_ref_ops sim_pm = {
    .tsc = sim_tsc, .read = sim_pm_read, .hz = 3579545, .bits = 24,
};

KTEST(timer, counter_calibration_survives_pauses_and_wrap)
{
    unsigned discarded;
    uint64_t hz;

    sim_reset(1000, 7919, false);
    sim_ref_start = 0xFFFFFF - 20000;
    hz = tsc_calibrate_counter(&sim_pm, &discarded);
    KEXPECT(discarded > 0);
    KEXPECT(hz > SIM_TSC_HZ - SIM_TSC_HZ / 1000);
    KEXPECT(hz < SIM_TSC_HZ + SIM_TSC_HZ / 1000);
    sim_reset(1000, 2, false);
    KEXPECT_EQ(tsc_calibrate_counter(&sim_pm, &discarded), 0);
}

KTEST(timer, counter_calibration_dead_counter)
{
    unsigned discarded;

    sim_reset(1000000, 0, true);
    KEXPECT_EQ(tsc_calibrate_counter(&sim_pm, &discarded), 0);
}

/* Every reference this machine has gives the boot figure within 2% (q35
   has all three, under SeaBIOS and OVMF): a wrong HPET period or PM
   timer rate or width would not. */
KTEST(timer, references_agree)
{
    static const char *const src[] = { "PIT", "HPET", "ACPI PM timer" };
    unsigned discarded, n = 0;

    for (int i = 0; i < 3; i++) {
        uint64_t hz = calibrate_against(src[i], &discarded);
        if (!hz)
            continue;
        n++;
        if (hz < tsc_hz - tsc_hz / 50 || hz > tsc_hz + tsc_hz / 50)
            KEXPECT(!"a reference disagrees with the boot calibration");
    }
    KEXPECT_EQ(n, 3);
}

KTEST(timer, clock_monotonic)
{
    uint64_t a = clock_ns(), b;

    udelay(2000);
    b = clock_ns();
    KEXPECT(b > a);
    KEXPECT(b - a >= 2000000);
}

static volatile int fired;

static void on_fire(void)
{
    fired++;
}

KTEST(timer, oneshot_fires)
{
    uint64_t t0 = clock_ns(), dt;

    fired = 0;
    timer_oneshot(2000000, on_fire);        /* 2 ms */
    while (!fired && clock_ns() - t0 < 2000000000ULL)
        irq_enable_and_halt();
    dt = clock_ns() - t0;
    KEXPECT_EQ(fired, 1);
    KEXPECT(dt >= 1500000);                 /* not early */
    KEXPECT(dt < 1000000000ULL);            /* and not lost */
}

/* A cancelled deadline leaves the LAPIC armed (timer_set: it fires early
   and finds nothing due); timer_set_exact re-arms it for what is left. */
KTEST(timer, exact_cancel_rearms)
{
    struct cpu *c = this_cpu();
    uint64_t other = UINT64_MAX, at, flags;

    __asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
    for (int i = 0; i < TIMER_NSLOTS; i++)
        if (i != TIMER_ONESHOT && c->timers[i].deadline &&
            c->timers[i].deadline < other)
            other = c->timers[i].deadline;
    timer_oneshot(500000000, on_fire);      /* 0.5 s */
    at = c->lapic_at;
    KEXPECT(at != 0 && at <= clock_ns() + 500000000);
    timer_set(TIMER_ONESHOT, 0, NULL);
    KEXPECT_EQ(c->lapic_at, at);            /* lazy: still armed */
    timer_oneshot(500000000, on_fire);
    timer_set_exact(TIMER_ONESHOT, 0, NULL);
    if (other == UINT64_MAX)
        KEXPECT_EQ(c->lapic_at, 0);         /* stopped */
    else
        KEXPECT(c->lapic_at == 0 || c->lapic_at + 1000 >= other);
    timer_set_exact(TIMER_ONESHOT, clock_ns() + 300000000, on_fire);
    KEXPECT(c->lapic_at != 0 && c->lapic_at <= clock_ns() + 300000000);
    timer_set_exact(TIMER_ONESHOT, 0, NULL);
    if (flags & (1u << 9))                  /* IF: as it was */
        irq_enable();
}

static volatile uint64_t bp_vector, bp_rip;

static void on_breakpoint(struct trapframe *tf)
{
    bp_vector = tf->vector;
    bp_rip = tf->rip;
}

KTEST(trap, breakpoint_returns)
{
    uint64_t after;

    trap_set_handler(3, on_breakpoint);
    __asm__ volatile("int3\n\tlea 0(%%rip), %0" : "=r"(after));
    trap_set_handler(3, NULL);
    KEXPECT_EQ(bp_vector, 3);
    KEXPECT(bp_rip > 0 && bp_rip <= after);
}

KTEST(ksym, lookup_names_functions)
{
    uint64_t off = 99;
    const char *s = ksym_lookup((uint64_t)ktest_run + 3, &off);

    KEXPECT(s && !strcmp(s, "ktest_run"));
    KEXPECT_EQ(off, 3);
    KEXPECT(ksym_lookup(0x1000, &off) == NULL);
}
