/*
 * Time: the TSC as the clock (calibrated at boot against the PIT, else the
 * HPET or the ACPI PM timer) and the
 * local APIC timer for one-shot events.  There is no periodic tick: a
 * process that asks for no timer is never interrupted by one.
 */
#ifndef TIMER_H
#define TIMER_H

#include <stdbool.h>
#include <stdint.h>

extern uint64_t tsc_hz;         /* TSC ticks per second */
extern uint64_t boot_tsc;       /* TSC when the loader handed us the CPU */
extern uint64_t ns_mult;        /* clock_ns = (tsc - boot_tsc) * ns_mult >> 32 */

void timer_init(void);
void rtc_init(void);            /* CLOCK_REALTIME base (rtc.c) */
extern uint64_t realtime_base_ns;
uint64_t clock_ns(void);        /* monotonic, since boot_tsc */
uint64_t tsc_to_ns(uint64_t ticks);
void udelay(uint64_t us);

/* TSC calibration against PIT channel 2 (timer.c), through these hooks so
   a test can feed it a simulated PIT and TSC.  TSC Hz, or 0 if no
   measurement could be trusted; *discarded: measurements thrown away
   because a pause fell inside a reading. */
struct tsc_cal_ops {
    uint64_t (*tsc)(void);
    void (*pit_start)(void);        /* channel 2, mode 0, from 0xFFFF */
    uint16_t (*pit_count)(void);    /* latch and read channel 2 */
    bool (*pit_done)(void);         /* OUT2: the count passed zero */
};
#define TSC_CAL_NO_PIT  UINT64_MAX
uint64_t tsc_calibrate(const struct tsc_cal_ops *o, unsigned *discarded);

/* The same against a free-running up-counter (the HPET's main counter, the
   ACPI PM timer) of `bits` bits at `hz`: where the PIT is absent (UEFI
   machines may have none, QEMU's -machine pit=off) or gave nothing.  TSC
   Hz, or 0 (no trusted measurement, or the counter does not count). */
struct tsc_ref_ops {
    uint64_t (*tsc)(void);
    uint64_t (*read)(void);
    uint64_t hz;
    int bits;
};
uint64_t tsc_calibrate_counter(const struct tsc_ref_ops *o,
                               unsigned *discarded);
/* Measure the TSC against "PIT", "HPET" or "ACPI PM timer" now (boot,
   and tests comparing the sources): Hz, 0 if it is absent or gave
   nothing steady. */
uint64_t calibrate_against(const char *src, unsigned *discarded);
/* Where the TSC frequency came from: "PIT", "HPET", "ACPI PM timer" or
   "nothing (assumed 1 GHz)". */
extern const char *tsc_source;

/* One LAPIC timer serves a fixed set of users, one slot each.  Arm slot
   for absolute clock_ns() time `deadline` (replacing what it held); `fn`
   runs in interrupt context once that time has passed.  0 disarms. */
enum timer_slot {
    TIMER_ONESHOT, TIMER_QUANTUM, TIMER_NET, TIMER_WAKE, TIMER_PROFILE,
    TIMER_LXSIG,
    TIMER_NSLOTS
};
/* Each CPU has its own LAPIC timer and slots (struct cpu): timer_set and
   timer_oneshot act on the calling CPU's. */
struct timer {
    uint64_t deadline;          /* clock_ns time; 0 = not armed */
    void (*fn)(void);
};
void timer_set(enum timer_slot slot, uint64_t deadline, void (*fn)(void));
/* timer_set, and if the LAPIC would now fire before every deadline left
   (the one it was armed for was cancelled or moved later), re-arm it at
   once: for a deadline that is usually cancelled before it is due, where
   an interrupt finding nothing due would wake a halted CPU for nothing. */
void timer_set_exact(enum timer_slot slot, uint64_t deadline,
                     void (*fn)(void));
/* The TIMER_ONESHOT slot, `ns` from now (tests); ns == 0 disarms. */
void timer_oneshot(uint64_t ns, void (*fn)(void));
/* What a CPU's LAPIC timer did since boot (node stats, in struct cpu):
   each programming is an emulated device write, each interrupt a host
   timer and a wakeup. */
struct timer_stats {
    uint64_t irqs, arms;
};
/* The other CPUs: their LAPIC timer, at the rate the boot CPU measured. */
void timer_init_cpu(void);

/* Local APIC (apic.c). */
void apic_init(void);           /* boot CPU: PICs off, then apic_init_cpu */
void apic_init_cpu(void);       /* this CPU's LAPIC on */
uint32_t apic_id(void);
/* Send an IPI: `icr` is the low ICR word (vector, delivery mode, level);
   waits until the LAPIC has sent it. */
void apic_send_ipi(uint32_t apic_id, uint32_t icr);
void apic_eoi(void);
void apic_write(uint32_t reg, uint32_t v);
uint32_t apic_read(uint32_t reg);

#define APIC_ID         0x020
#define APIC_SVR        0x0F0
#define APIC_ICR_LO     0x300
#define APIC_ICR_HI     0x310
#define ICR_FIXED       0x00000
#define ICR_INIT        0x00500
#define ICR_STARTUP     0x00600
#define ICR_ASSERT      0x04000
#define ICR_PENDING     0x01000
#define APIC_EOI        0x0B0
#define APIC_LVT_TIMER  0x320
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR  0x390
#define APIC_TIMER_DIV  0x3E0

#endif
