/*
 * Time: the TSC as the clock (calibrated against the PIT at boot) and the
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

/* One LAPIC timer serves a fixed set of users, one slot each.  Arm slot
   for absolute clock_ns() time `deadline` (replacing what it held); `fn`
   runs in interrupt context once that time has passed.  0 disarms. */
enum timer_slot {
    TIMER_ONESHOT, TIMER_QUANTUM, TIMER_NET, TIMER_WAKE, TIMER_NSLOTS
};
void timer_set(enum timer_slot slot, uint64_t deadline, void (*fn)(void));
/* The TIMER_ONESHOT slot, `ns` from now (tests); ns == 0 disarms. */
void timer_oneshot(uint64_t ns, void (*fn)(void));
/* What the LAPIC timer did since boot (node stats): each programming is
   an emulated device write, each interrupt a host timer and a wakeup. */
struct timer_stats {
    uint64_t irqs, arms;
};
extern struct timer_stats timer_stats;

/* Local APIC (apic.c). */
void apic_init(void);
void apic_eoi(void);
void apic_write(uint32_t reg, uint32_t v);
uint32_t apic_read(uint32_t reg);

#define APIC_SVR        0x0F0
#define APIC_EOI        0x0B0
#define APIC_LVT_TIMER  0x320
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR  0x390
#define APIC_TIMER_DIV  0x3E0

#endif
