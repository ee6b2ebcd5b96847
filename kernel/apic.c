/*
 * Local APIC: enabled in xAPIC (MMIO) mode, reached through PHYSMAP
 * (paging.c maps the MMIO hole uncached).  The legacy 8259 PICs are
 * remapped away from the exception vectors and masked: nothing uses them.
 */
#define LOG_PREFIX "apic"
#include "kernel.h"
#include "console.h"
#include "memlayout.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define APIC_BASE_ENABLE    (1 << 11)
#define SVR_ENABLE          (1 << 8)

static volatile uint32_t *apic;

void apic_write(uint32_t reg, uint32_t v)
{
    apic[reg / 4] = v;
}

uint32_t apic_read(uint32_t reg)
{
    return apic[reg / 4];
}

void apic_eoi(void)
{
    apic_write(APIC_EOI, 0);
}

static void pic_disable(void)
{
    /* ICW1-4: cascade, vectors 0x20/0x28, then mask every line. */
    outb(0x20, 0x11); outb(0xA0, 0x11);
    outb(0x21, 0x20); outb(0xA1, 0x28);
    outb(0x21, 0x04); outb(0xA1, 0x02);
    outb(0x21, 0x01); outb(0xA1, 0x01);
    outb(0x21, 0xFF); outb(0xA1, 0xFF);
}

uint32_t apic_id(void)
{
    return apic_read(APIC_ID) >> 24;
}

void apic_send_ipi(uint32_t dest, uint32_t icr)
{
    apic_write(APIC_ICR_HI, dest << 24);
    apic_write(APIC_ICR_LO, icr);
    while (apic_read(APIC_ICR_LO) & ICR_PENDING)
        cpu_relax();
}

/* Every CPU sees its own LAPIC at the same address. */
void apic_init_cpu(void)
{
    wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE);
    apic_write(APIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
}

void apic_init(void)
{
    uint64_t base = rdmsr(MSR_APIC_BASE) & ~0xFFFUL;

    pic_disable();
    apic = phys_to_virt(base);
    apic_init_cpu();
    pr_info("local APIC at %#lx enabled\n", base);
}
