/*
 * TSC calibration against PIT channel 2 (else the HPET, else the ACPI PM
 * timer: tsc_ref=pit|hpet|pmtimer on the command line picks one), and the
 * LAPIC one-shot timer calibrated against the TSC.
 */
#define LOG_PREFIX "timer"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "acpi.h"
#include "cmdline.h"
#include "lib.h"
#include "memlayout.h"
#include "paging.h"
#include "power.h"
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
uint64_t ns_mult;               /* ns = ticks * ns_mult >> 32 */
static uint64_t lapic_hz;

/* The few kernel timers (one per user of time: the quantum, the network)
   are per CPU, in struct cpu: each LAPIC is armed for the earliest of its
   CPU's; a fixed table, no allocation. */

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

/* ---- calibration ----------------------------------------------------------

   Under a hypervisor on a busy host the vCPU can be descheduled between
   any two instructions for tens of milliseconds.  The first calibration
   read the TSC and then polled the PIT's output, so a pause between the
   TSC read and the poll that saw the output flip was missing from the TSC
   span: on a loaded 2-core host nodes booted with 58 MHz measured for a
   2 GHz TSC.  Such a node's clock ran 34 times fast: its Portals
   retransmission timer fired every 0.6 ms (storms of spurious resends)
   and its 20 s waits ended after 0.6 s, so it gave up and the other
   nodes then waited for it forever (the 4-node all-to-all "hang").

   So every reading of a reference counter is bracketed by two TSC reads,
   and a measurement whose brackets are wide (a pause fell inside one) is
   thrown away; a pause *between* the two readings is harmless, both
   spans contain it.  The median of a few good measurements is kept. */

#define PIT_LATCH_CH2   0x80    /* counter latch command, channel 2 */
#define CAL_GOOD        3       /* good measurements; the median is kept */
#define CAL_TRIES       30      /* measurements at most */
#define CAL_MAX_ERR     500     /* brackets may sum to 1/500 of the span */

static uint64_t median(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint64_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n / 2];
}

struct pit_reading {
    uint64_t tsc;               /* middle of the bracket */
    uint64_t spread;            /* its width: TSC ticks */
    uint16_t count;
};

static struct pit_reading pit_read(const struct tsc_cal_ops *o)
{
    struct pit_reading r;
    uint64_t t0 = o->tsc(), t1;

    r.count = o->pit_count();
    t1 = o->tsc();
    r.tsc = t0 + (t1 - t0) / 2;
    r.spread = t1 - t0;
    return r;
}

/* One measurement over CALIBRATE_MS of the PIT: TSC Hz, 0 if a pause
   spoiled it, TSC_CAL_NO_PIT if the PIT does not count at all. */
static uint64_t pit_measure(const struct tsc_cal_ops *o)
{
    uint32_t want = PIT_HZ * CALIBRATE_MS / 1000;
    struct pit_reading a, b;
    uint64_t span;

    o->pit_start();
    (void)o->pit_count();       /* a real PIT loads the count on its next
                                   clock edge: skip what it held before */
    a = pit_read(o);
    do {
        b = pit_read(o);
        if (b.tsc - a.tsc > 100000000000ULL)    /* far beyond any CPU */
            return TSC_CAL_NO_PIT;
    } while ((uint16_t)(a.count - b.count) < want && !o->pit_done());
    /* The output rises when the count passes zero: a pause longer than
       the counter's 55 ms range, the count wrapped. */
    if (o->pit_done() || b.count >= a.count)
        return 0;
    span = b.tsc - a.tsc;
    if ((a.spread + b.spread) * CAL_MAX_ERR > span)
        return 0;
    /* span < 1e11 (above), so span * PIT_HZ fits in 64 bits */
    return span * PIT_HZ / (uint32_t)(a.count - b.count);
}

/* Measure until CAL_GOOD measurements were good, or CAL_TRIES were made:
   the median of the good ones; 0 if none, or if the reference is dead
   (TSC_CAL_NO_PIT). */
static uint64_t calibrate(uint64_t (*measure)(const void *), const void *o,
                          unsigned *discarded)
{
    uint64_t good[CAL_GOOD];
    int n = 0;

    *discarded = 0;
    for (int i = 0; i < CAL_TRIES && n < CAL_GOOD; i++) {
        uint64_t hz = measure(o);
        if (hz == TSC_CAL_NO_PIT)
            return 0;
        if (hz)
            good[n++] = hz;
        else
            ++*discarded;
    }
    return n ? median(good, n) : 0;
}

static uint64_t pit_measure_any(const void *o)
{
    return pit_measure(o);
}

uint64_t tsc_calibrate(const struct tsc_cal_ops *o, unsigned *discarded)
{
    return calibrate(pit_measure_any, o, discarded);
}

/* ---- against an up-counter (HPET, ACPI PM timer) --------------------------

   The same bracketing rule as the PIT's; the counter wraps at `bits`
   (24 bits of the PM timer wrap in 4.7 s, far beyond a measurement). */

struct ref_reading {
    uint64_t tsc, spread, count;
};

static struct ref_reading ref_read(const struct tsc_ref_ops *o)
{
    struct ref_reading r;
    uint64_t t0 = o->tsc(), t1;

    r.count = o->read();
    t1 = o->tsc();
    r.tsc = t0 + (t1 - t0) / 2;
    r.spread = t1 - t0;
    return r;
}

#define REF_DEAD_TSC    20000000000ULL  /* 20e9 ticks: seconds on any CPU */

static uint64_t ref_measure(const struct tsc_ref_ops *o)
{
    uint64_t mask = o->bits >= 64 ? ~0ULL : (1ULL << o->bits) - 1;
    uint64_t want = o->hz * CALIBRATE_MS / 1000, delta, span;
    struct ref_reading a = ref_read(o), b;

    do {
        b = ref_read(o);
        delta = (b.count - a.count) & mask;
        if (b.tsc - a.tsc > REF_DEAD_TSC)
            return TSC_CAL_NO_PIT;      /* the counter does not count */
    } while (delta < want);
    span = b.tsc - a.tsc;
    if ((a.spread + b.spread) * CAL_MAX_ERR > span ||
        span > (UINT64_MAX >> 1) / o->hz)   /* paused for long: retry */
        return 0;
    return span * o->hz / delta;
}

static uint64_t ref_measure_any(const void *o)
{
    return ref_measure(o);
}

uint64_t tsc_calibrate_counter(const struct tsc_ref_ops *o,
                               unsigned *discarded)
{
    return calibrate(ref_measure_any, o, discarded);
}

static uint64_t hw_tsc(void)
{
    return rdtsc();
}

static void hw_pit_start(void)
{
    outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);
    outb(PIT_CMD, 0xB0);            /* channel 2, lo/hi byte, mode 0 */
    outb(PIT_CH2, 0xFF);
    outb(PIT_CH2, 0xFF);
}

static uint16_t hw_pit_count(void)
{
    uint16_t lo;

    outb(PIT_CMD, PIT_LATCH_CH2);
    lo = inb(PIT_CH2);
    return (uint16_t)(lo | inb(PIT_CH2) << 8);
}

static bool hw_pit_done(void)
{
    return inb(PIT_GATE) & 0x20;
}

static const struct tsc_cal_ops hw_cal = {
    .tsc = hw_tsc, .pit_start = hw_pit_start, .pit_count = hw_pit_count,
    .pit_done = hw_pit_done,
};

/* The HPET (IA-PC HPET 1.0a §2.3): capabilities (the counter's period
   in femtoseconds in the high half), configuration (bit 0 starts the
   main counter), the main counter; its low 32 bits are read, which any
   HPET has. */
#define HPET_CAP        0x000
#define HPET_CFG        0x010
#define HPET_COUNTER    0x0F0
#define HPET_ENABLE     (1u << 0)
#define HPET_MAX_PERIOD 100000000u      /* fs: 10 MHz at least (§2.3.4) */
_Static_assert(HPET_COUNTER == 0xF0, "HPET main counter offset");

static volatile uint32_t *hpet_regs;
static uint16_t pm_tmr_port;

static uint64_t hpet_read(void)
{
    return hpet_regs[HPET_COUNTER / 4];
}

static uint64_t pm_tmr_read(void)
{
    return inl(pm_tmr_port);
}

/* The HPET's counter rate, its counter started; 0 if there is none. */
static uint64_t hpet_setup(void)
{
    struct acpi_hpet h;
    const char *why;
    uint32_t period;

    if (acpi_hpet(&acpi_tables, &h, &why) < 0)
        return 0;
    if (h.base + 0x400 > paging_physmap_top() &&
        paging_map_mmio(h.base, 0x400) < 0)
        return 0;
    hpet_regs = phys_to_virt(h.base);
    period = hpet_regs[HPET_CAP / 4 + 1];
    if (!period || period > HPET_MAX_PERIOD)
        return 0;
    hpet_regs[HPET_CFG / 4] |= HPET_ENABLE;
    return 1000000000000000ULL / period;
}

uint64_t calibrate_against(const char *src, unsigned *discarded)
{
    const struct acpi_fadt *f = power_fadt();
    struct tsc_ref_ops o = { .tsc = hw_tsc };

    if (!strcmp(src, "PIT"))
        return tsc_calibrate(&hw_cal, discarded);
    if (!strcmp(src, "HPET")) {
        if (!(o.hz = hpet_setup()))
            return 0;
        o.read = hpet_read;
        o.bits = 32;
    } else {
        if (!f || !f->pm_tmr)
            return 0;
        pm_tmr_port = f->pm_tmr;
        o.read = pm_tmr_read;
        o.hz = ACPI_PM_TIMER_HZ;
        o.bits = f->pm_tmr_bits;
    }
    return tsc_calibrate_counter(&o, discarded);
}

static unsigned tsc_discarded, lapic_discarded;
const char *tsc_source;

/* PIT first (every PC had one), then the HPET, then the PM timer; or the
   one tsc_ref= names. */
static void calibrate_tsc(void)
{
    static const char *const order[] = { "PIT", "HPET", "ACPI PM timer" };
    static const char *const names[] = { "pit", "hpet", "pmtimer" };
    const char *want = cmdline_get(&kernel_cmdline, "tsc_ref");
    uint64_t hz = 0;

    for (int i = 0; i < 3 && !hz; i++) {
        if (want && strcmp(want, names[i]))
            continue;
        tsc_source = order[i];
        hz = calibrate_against(order[i], &tsc_discarded);
        if (!hz)
            pr_warn("no steady measurement against the %s (absent, or "
                    "always disturbed)\n", order[i]);
    }
    if (!hz) {
        pr_warn("nothing to calibrate the TSC against (tsc_ref=%s); "
                "assuming 1 GHz: timeouts will be off\n", want ? want : "");
        tsc_source = "nothing (assumed 1 GHz)";
        hz = 1000000000ULL;
    }
    tsc_hz = hz;
    ns_mult = (1000000000ULL << 32) / tsc_hz;
}

/* LAPIC ticks per second, by the same rule against the (now known) TSC. */
static uint64_t lapic_measure(void)
{
    uint64_t t0, t1, t2, t3, span;
    uint32_t left;

    t0 = rdtsc();
    apic_write(APIC_TIMER_INIT, 0xFFFFFFFF);
    t1 = rdtsc();
    while (rdtsc() - t1 < tsc_hz / 200)         /* 5 ms */
        cpu_relax();
    t2 = rdtsc();
    left = apic_read(APIC_TIMER_CUR);
    t3 = rdtsc();
    span = (t2 + t3) / 2 - (t0 + t1) / 2;
    if (left == 0 || (t1 - t0 + t3 - t2) * CAL_MAX_ERR > span)
        return 0;
    return (uint64_t)(0xFFFFFFFFu - left) * 1000000000ULL / tsc_to_ns(span);
}

static void calibrate_lapic(void)
{
    uint64_t good[CAL_GOOD];
    int n = 0;

    apic_write(APIC_TIMER_DIV, LAPIC_DIV16);
    apic_write(APIC_LVT_TIMER, VEC_TIMER | (1 << 16));  /* masked */
    for (int i = 0; i < CAL_TRIES && n < CAL_GOOD; i++) {
        uint64_t hz = lapic_measure();
        if (hz)
            good[n++] = hz;
        else
            lapic_discarded++;
    }
    apic_write(APIC_TIMER_INIT, 0);
    if (n)
        lapic_hz = median(good, n);
    else {
        pr_warn("no steady LAPIC measurement; assuming 62.5 MHz\n");
        lapic_hz = 62500000;
    }
}

/* When the LAPIC will interrupt (clock_ns time), 0 if it will not.  Under
   a hypervisor every LAPIC register write is an emulated device access
   costing tens of microseconds, and the network re-arms its timer for
   every frame, so the LAPIC is reprogrammed only when it must fire
   earlier than it will; firing early costs one interrupt that finds
   nothing due and arms for the next deadline. */
static uint64_t first_deadline(const struct cpu *c)
{
    uint64_t first = UINT64_MAX;

    for (int i = 0; i < TIMER_NSLOTS; i++)
        if (c->timers[i].deadline && c->timers[i].deadline < first)
            first = c->timers[i].deadline;
    return first;
}

static void lapic_arm(void)
{
    struct cpu *c = this_cpu();
    uint64_t first = first_deadline(c), now = clock_ns(), ns, count;

    if (first == UINT64_MAX || (c->lapic_at && c->lapic_at <= first))
        return;
    ns = first > now ? first - now : 0;
    if (ns > 100000000000ULL)
        ns = 100000000000ULL;   /* 100 s: keeps ns * lapic_hz in 64 bits */
    count = ns * lapic_hz / 1000000000ULL;
    if (count == 0)
        count = 1;
    if (count > 0xFFFFFFFFu)
        count = 0xFFFFFFFFu;    /* fires early: the handler re-checks */
    apic_write(APIC_TIMER_INIT, (uint32_t)count);
    c->timer_stats.arms++;
    c->lapic_at = now + count * 1000000000ULL / lapic_hz;
}

static void timer_irq(struct trapframe *tf)
{
    struct cpu *c = this_cpu();
    uint64_t now = clock_ns();

    c->timer_tf = tf;
    c->lapic_at = 0;            /* one-shot: it has fired */
    c->timer_stats.irqs++;
    apic_eoi();
    for (int i = 0; i < TIMER_NSLOTS; i++) {
        void (*fn)(void) = c->timers[i].fn;

        if (c->timers[i].deadline && c->timers[i].deadline <= now) {
            c->timers[i].deadline = 0;
            if (fn)
                fn();
        }
    }
    c->timer_tf = NULL;
    lapic_arm();
}

/* The network sets a timer on every call and frame; the LAPIC needs
   touching only when the new deadline comes before its next interrupt (a
   cancelled or later deadline lets it fire early and re-arm). */
void timer_set(enum timer_slot slot, uint64_t deadline, void (*fn)(void))
{
    struct cpu *c = this_cpu();

    c->timers[slot].deadline = deadline;
    c->timers[slot].fn = fn;
    if (deadline && (!c->lapic_at || deadline < c->lapic_at))
        lapic_arm();
}

void timer_set_exact(enum timer_slot slot, uint64_t deadline,
                     void (*fn)(void))
{
    struct cpu *c = this_cpu();
    uint64_t first;

    c->timers[slot].deadline = deadline;
    c->timers[slot].fn = fn;
    first = first_deadline(c);
    if (c->lapic_at && c->lapic_at < first) {   /* would fire for nothing */
        c->lapic_at = 0;
        if (first == UINT64_MAX) {
            apic_write(APIC_TIMER_INIT, 0);     /* stops it */
            c->timer_stats.arms++;
            return;
        }
    }
    lapic_arm();                /* earlier than it was armed for, or again */
}

void timer_oneshot(uint64_t ns, void (*fn)(void))
{
    timer_set(TIMER_ONESHOT, ns ? clock_ns() + ns : 0, fn);
}

/* Every LAPIC timer runs at the same rate (the bus or core crystal):
   the boot CPU's measurement serves all. */
void timer_init_cpu(void)
{
    apic_write(APIC_TIMER_DIV, LAPIC_DIV16);
    apic_write(APIC_LVT_TIMER, VEC_TIMER);      /* one-shot, unmasked */
}

/* The firmware leaves the PIT's channel 0 counting in a periodic mode
   (18.2 Hz).  Its interrupt is masked at the PICs, but an emulated PIT
   still wakes its emulator at every period: on an idle node QEMU's main
   loop and vCPU woke ~20 times a second each, which a few hundred idle
   nodes pay together.  Mode 0 (interrupt on terminal count) fires once
   and stops, as Linux's PIT shutdown does.  Harmless without a PIT. */
#define PIT_CH0         0x40

static void pit_stop(void)
{
    outb(PIT_CMD, 0x30);            /* channel 0, lo/hi byte, mode 0 */
    outb(PIT_CH0, 0);
    outb(PIT_CH0, 0);
}

void timer_init(void)
{
    calibrate_tsc();
    calibrate_lapic();
    pit_stop();
    trap_set_handler(VEC_TIMER, timer_irq);
    timer_init_cpu();
    pr_info("TSC %lu.%03lu MHz, LAPIC timer %lu kHz (calibrated against "
            "the %s; %u and %u measurements disturbed by pauses)\n",
            tsc_hz / 1000000, tsc_hz / 1000 % 1000, lapic_hz / 1000,
            tsc_source, tsc_discarded, lapic_discarded);
}

