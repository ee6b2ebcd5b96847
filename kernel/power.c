/*
 * Power-off and reset through the ACPI tables (FADT, the DSDT's \_S5),
 * with no AML interpreter: what a node needs to switch itself off on a
 * real machine, where QEMU's isa-debug-exit port does not exist.
 *
 * Power-off (ACPI 6.5 §7.4.2, §4.8.3.2.1): if the firmware left ACPI off
 * (SCI_EN clear) write ACPI_ENABLE to SMI_CMD and wait for SCI_EN; then
 * write SLP_TYPx | SLP_EN to PM1a_CNT (and PM1b_CNT when there is one).
 * Reset: the FADT's reset register (§4.8.3.6), else the chipset's reset
 * control port 0xCF9, else the keyboard controller.
 */
#define LOG_PREFIX "power"
#include "kernel.h"
#include "acpi.h"
#include "console.h"
#include "memlayout.h"
#include "paging.h"
#include "power.h"
#include "timer.h"
#include "x86.h"

#define PCI_RESET_PORT  0xCF9   /* Intel chipsets: reset control */
#define CF9_FULL_RESET  0x0E    /* full reset, CPU reset, system reset */
#define KBC_CMD         0x64
#define KBC_PULSE_RESET 0xFE
#define PCI_CFG_ADDR    0xCF8
#define PCI_CFG_DATA    0xCFC

static struct {
    bool have_fadt, have_s5;
    struct acpi_fadt fadt;
    uint16_t slp_typa, slp_typb;
} pw;

void power_init(void)
{
    const char *why;

    if (acpi_fadt(&acpi_tables, &pw.fadt, &why) < 0) {
        pr_warn("%s: power-off needs QEMU's debug-exit port, reset "
                "uses port 0xCF9\n", why);
        return;
    }
    pw.have_fadt = true;
    if (acpi_s5(&acpi_tables, &pw.fadt, &pw.slp_typa, &pw.slp_typb,
                &why) == 0)
        pw.have_s5 = true;
    else
        pr_warn("%s: the node cannot power itself off\n", why);
    pr_info("FADT: PM1a_CNT %#x PM1b_CNT %#x, S5 SLP_TYP %u/%u%s, SMI_CMD "
            "%#x, reset %s %#lx, PM timer %#x (%d-bit)\n", pw.fadt.pm1a_cnt,
            pw.fadt.pm1b_cnt, pw.slp_typa, pw.slp_typb,
            pw.have_s5 ? "" : " (none)", pw.fadt.smi_cmd,
            pw.fadt.reset_supported ? "register" : "port 0xCF9",
            pw.fadt.reset_supported ? pw.fadt.reset_reg.addr : 0xCF9,
            pw.fadt.pm_tmr, pw.fadt.pm_tmr_bits);
}

const struct acpi_fadt *power_fadt(void)
{
    return pw.have_fadt ? &pw.fadt : NULL;
}

/* Firmware that boots with ACPI off (legacy mode) switches it on when
   told through SMI_CMD; it may take a while (§4.8.2.1): wait up to 1 s. */
static void acpi_enable(void)
{
    const struct acpi_fadt *f = &pw.fadt;

    if (!f->pm1a_cnt || (inw(f->pm1a_cnt) & ACPI_PM1_SCI_EN) ||
        !f->smi_cmd || !f->acpi_enable || (f->flags & ACPI_FADT_HW_REDUCED))
        return;
    kprintf("power: ACPI mode on through SMI_CMD %#x\n", f->smi_cmd);
    outb((uint16_t)f->smi_cmd, f->acpi_enable);
    for (int i = 0; i < 1000 && !(inw(f->pm1a_cnt) & ACPI_PM1_SCI_EN); i++)
        udelay(1000);
}

static void pm1_sleep(uint16_t port, uint16_t typ)
{
    uint16_t v;

    if (!port)
        return;
    v = inw(port) & ~(7u << ACPI_PM1_SLP_TYP_SHIFT);
    outw(port, v | typ << ACPI_PM1_SLP_TYP_SHIFT | ACPI_PM1_SLP_EN);
}

void power_off(void)
{
    if (!pw.have_s5 || !pw.fadt.pm1a_cnt)
        return;
    kprintf("power: off through the FADT (PM1a_CNT %#x, SLP_TYP %u)\n",
            pw.fadt.pm1a_cnt, pw.slp_typa);
    acpi_enable();
    /* Both halves of the sleep command, B first: some chipsets act on
       the A write at once. */
    pm1_sleep(pw.fadt.pm1b_cnt, pw.slp_typb);
    pm1_sleep(pw.fadt.pm1a_cnt, pw.slp_typa);
    udelay(100000);
    kprintf("power: the machine did not switch off\n");
}

/* A byte to a Generic Address: I/O port, memory, or PCI configuration
   space of bus 0 (address: device << 32 | function << 16 | offset). */
static void gas_write8(const struct acpi_gas *g, uint8_t v)
{
    switch (g->space) {
    case ACPI_SPACE_IO:
        outb((uint16_t)g->addr, v);
        break;
    case ACPI_SPACE_MEM:
        if (g->addr + 1 <= paging_physmap_top())
            *(volatile uint8_t *)phys_to_virt(g->addr) = v;
        break;
    case ACPI_SPACE_PCI: {
        uint32_t dev = (g->addr >> 32) & 0x1F, fn = (g->addr >> 16) & 7;
        uint32_t off = g->addr & 0xFF;
        outl(PCI_CFG_ADDR, 0x80000000u | dev << 11 | fn << 8 | (off & 0xFC));
        outb((uint16_t)(PCI_CFG_DATA + (off & 3)), v);
        break;
    }
    }
}

void power_reset(void)
{
    if (pw.fadt.reset_supported) {
        kprintf("power: reset through the FADT's reset register\n");
        gas_write8(&pw.fadt.reset_reg, pw.fadt.reset_value);
        udelay(100000);
    }
    kprintf("power: reset through port 0xCF9\n");
    outb(PCI_RESET_PORT, 0x02);
    outb(PCI_RESET_PORT, CF9_FULL_RESET);
    udelay(100000);
    kprintf("power: reset through the keyboard controller\n");
    outb(KBC_CMD, KBC_PULSE_RESET);
    udelay(100000);
}
