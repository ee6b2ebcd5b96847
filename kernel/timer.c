/*
 * TSC calibration against PIT channel 2, and the LAPIC one-shot timer
 * calibrated against the TSC.
 */
#define LOG_PREFIX "timer"
#include "kernel.h"
#include "console.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define PIT_HZ          1193182
#define PIT_CH2         0x42
#define PIT_CMD         0x43
#define PIT_GATE        0x61    /* bit 0 gate, bit 1 speaker, bit 5 OUT2 */
#define CALIBRATE_MS    10
#define LAPIC_DIV16     0x3

uint64_t tsc_hz;
static uint64_t ns_mult;        /* ns = ticks * ns_mult >> 32 */
static uint64_t lapic_hz;

/* The few kernel timers (one per user of time: the quantum, the network).
   The LAPIC is armed for the earliest; a fixed table, no allocation. */
static struct {
    uint64_t deadline;          /* clock_ns time; 0 = not armed */
    void (*fn)(void);
} timers[TIMER_NSLOTS];

uint64_t tsc_to_ns(uint64_t ticks)
{
    return (uint64_t)(((unsigned __int128)ticks * ns_mult) >> 32);
}

uint64_t clock_ns(void)
{
    return tsc_to_ns(rdtsc() - boot_tsc);
}

void udelay(uint64_t us)
{
    uint64_t end = rdtsc() + us * tsc_hz / 1000000;

    while (rdtsc() < end)
        cpu_relax();
}

/* TSC ticks during CALIBRATE_MS of PIT channel 2 counting down (mode 0),
   or 0 if the PIT never signals (no PIT on this machine). */
static uint64_t pit_measure_tsc(void)
{
    uint16_t latch = PIT_HZ * CALIBRATE_MS / 1000;
    uint64_t t0, t1;

    outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);
    outb(PIT_CMD, 0xB0);            /* channel 2, lo/hi byte, mode 0 */
    outb(PIT_CH2, latch & 0xFF);
    outb(PIT_CH2, latch >> 8);
    t0 = t1 = rdtsc();
    while (!(inb(PIT_GATE) & 0x20)) {
        t1 = rdtsc();
        if (t1 - t0 > 100000000000ULL)  /* far beyond any real CPU */
            return 0;
    }
    return t1 - t0;
}

static void calibrate_tsc(void)
{
    uint64_t ticks = pit_measure_tsc();

    if (!ticks) {
        pr_warn("PIT did not count down; assuming a 1 GHz TSC\n");
        ticks = 1000000000ULL * CALIBRATE_MS / 1000;
    }
    tsc_hz = ticks * 1000 / CALIBRATE_MS;
    ns_mult = (1000000000ULL << 32) / tsc_hz;
}

static void calibrate_lapic(void)
{
    uint64_t t0 = rdtsc(), wait = tsc_hz / 200;     /* 5 ms */
    uint32_t left;

    apic_write(APIC_TIMER_DIV, LAPIC_DIV16);
    apic_write(APIC_LVT_TIMER, VEC_TIMER | (1 << 16));  /* masked */
    apic_write(APIC_TIMER_INIT, 0xFFFFFFFF);
    while (rdtsc() - t0 < wait)
        cpu_relax();
    left = apic_read(APIC_TIMER_CUR);
    apic_write(APIC_TIMER_INIT, 0);
    lapic_hz = (uint64_t)(0xFFFFFFFFu - left) * 200;
}

/* Program the LAPIC for the earliest armed timer, or stop it. */
static void lapic_arm(void)
{
    uint64_t first = UINT64_MAX, now = clock_ns(), ns, count;

    for (int i = 0; i < TIMER_NSLOTS; i++)
        if (timers[i].deadline && timers[i].deadline < first)
            first = timers[i].deadline;
    if (first == UINT64_MAX) {
        apic_write(APIC_TIMER_INIT, 0);
        return;
    }
    ns = first > now ? first - now : 0;
    if (ns > 100000000000ULL)
        ns = 100000000000ULL;   /* 100 s: keeps ns * lapic_hz in 64 bits */
    count = ns * lapic_hz / 1000000000ULL;
    if (count == 0)
        count = 1;
    if (count > 0xFFFFFFFFu)
        count = 0xFFFFFFFFu;    /* fires early: the handler re-checks */
    apic_write(APIC_LVT_TIMER, VEC_TIMER);      /* one-shot, unmasked */
    apic_write(APIC_TIMER_INIT, (uint32_t)count);
}

static void timer_irq(struct trapframe *tf)
{
    uint64_t now = clock_ns();

    (void)tf;
    apic_eoi();
    for (int i = 0; i < TIMER_NSLOTS; i++) {
        void (*fn)(void) = timers[i].fn;

        if (timers[i].deadline && timers[i].deadline <= now) {
            timers[i].deadline = 0;
            if (fn)
                fn();
        }
    }
    lapic_arm();
}

void timer_set(enum timer_slot slot, uint64_t deadline, void (*fn)(void))
{
    timers[slot].deadline = deadline;
    timers[slot].fn = fn;
    lapic_arm();
}

void timer_oneshot(uint64_t ns, void (*fn)(void))
{
    timer_set(TIMER_ONESHOT, ns ? clock_ns() + ns : 0, fn);
}

void timer_init(void)
{
    calibrate_tsc();
    calibrate_lapic();
    trap_set_handler(VEC_TIMER, timer_irq);
    pr_info("TSC %lu.%03lu MHz, LAPIC timer %lu kHz (calibrated against "
            "the PIT)\n", tsc_hz / 1000000, tsc_hz / 1000 % 1000,
            lapic_hz / 1000);
}
