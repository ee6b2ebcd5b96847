/*
 * The CMOS real-time clock, read once at boot to give CLOCK_REALTIME a
 * base (the TSC carries it from there).  UTC is assumed, as QEMU gives.
 */
#define LOG_PREFIX "timer"
#include "kernel.h"
#include "acpi.h"
#include "console.h"
#include "power.h"
#include "timer.h"
#include "x86.h"

uint64_t realtime_base_ns;      /* Unix time in ns at boot_tsc */

static uint8_t cmos(uint8_t reg)
{
    outb(0x70, reg);
    return inb(0x71);
}

static unsigned bcd(uint8_t v, bool binary)
{
    return binary ? v : (v >> 4) * 10 + (v & 15);
}

/* Days since 1970-01-01 (civil-from-days inverse, proleptic Gregorian). */
static uint64_t days_from_civil(unsigned y, unsigned m, unsigned d)
{
    y -= m <= 2;
    uint64_t era = y / 400, yoe = y - era * 400;
    uint64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    uint64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void rtc_init(void)
{
    const struct acpi_fadt *f = power_fadt();
    uint8_t s, mi, h, d, mo, y, b;
    int wait;

    /* Some UEFI-only machines have no CMOS clock (the FADT says so), and
       an absent one reads 0xFF: "update in progress" for ever.  An update
       takes under 2 ms. */
    if (f && (f->boot_arch & ACPI_BOOT_NO_CMOS_RTC)) {
        pr_warn("no CMOS clock (FADT): CLOCK_REALTIME starts at 1970\n");
        return;
    }
    for (wait = 0; wait < 20 && (cmos(0x0A) & 0x80); wait++)
        udelay(1000);                   /* update in progress */
    if (wait == 20) {
        pr_warn("the CMOS clock never finishes its update (absent?): "
                "CLOCK_REALTIME starts at 1970\n");
        return;
    }
    s = cmos(0x00); mi = cmos(0x02); h = cmos(0x04);
    d = cmos(0x07); mo = cmos(0x08); y = cmos(0x09); b = cmos(0x0B);
    bool bin = b & 0x04;
    unsigned hour = bcd(h & 0x7F, bin);
    if (!(b & 0x02) && (h & 0x80))      /* 12-hour clock, PM */
        hour = hour % 12 + 12;
    uint64_t days = days_from_civil(2000 + bcd(y, bin), bcd(mo, bin),
                                    bcd(d, bin));
    uint64_t secs = days * 86400 + hour * 3600 + bcd(mi, bin) * 60 +
                    bcd(s, bin);
    realtime_base_ns = secs * 1000000000ULL - clock_ns();
}
