/*
 * The ACPI tables the firmware really gave (QEMU q35, under SeaBIOS and
 * OVMF: suite-boot runs test=all under both): what power-off, reset and
 * the TSC calibration read from them.  The crafted-table cases are the
 * host tests (tests/unit/test_acpi.c).
 */
#include "kernel.h"
#include "acpi.h"
#include "ktest.h"
#include "power.h"

KTEST(acpi, fadt_and_s5_read)
{
    const struct acpi_fadt *f = power_fadt();
    uint16_t a = 99, b = 99;
    const char *why = "";

    KEXPECT(f != NULL);
    if (!f)
        return;
    KEXPECT(f->pm1a_cnt != 0);          /* ICH9: PMBASE + 4 */
    KEXPECT(f->pm_tmr == f->pm1a_cnt + 4);
    KEXPECT(f->reset_supported);        /* q35: I/O port 0xCF9, value 6 */
    KEXPECT_EQ(f->reset_reg.space, ACPI_SPACE_IO);
    KEXPECT_EQ(f->reset_reg.addr, 0xCF9);
    KEXPECT_EQ(acpi_s5(&acpi_tables, f, &a, &b, &why), 0);
    KEXPECT_EQ(a, 0);                   /* QEMU's \_S5: Package { 0, 0 } */
}

KTEST(acpi, hpet_read)
{
    struct acpi_hpet h;
    const char *why = "";

    KEXPECT_EQ(acpi_hpet(&acpi_tables, &h, &why), 0);
    KEXPECT_EQ(h.base, 0xFED00000);
    KEXPECT_EQ(h.block_id >> 16, 0x8086);   /* QEMU's HPET: Intel's id */
}
