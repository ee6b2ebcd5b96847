/*
 * Global descriptor table and task state segment, one of each per CPU (in
 * its struct cpu: a TSS is busy while loaded, and each CPU has its own
 * stacks).  In long mode segments are flat; the GDT exists for the
 * privilege levels and the TSS for the stacks the CPU switches to: rsp0 on
 * a trap from user mode, IST1 for double faults and IST2 for NMI/machine
 * checks (so a broken kernel stack still gets a readable report).
 */
#include "kernel.h"
#include "cpu.h"
#include "lib.h"
#include "trap.h"

_Static_assert(sizeof(struct tss) == 104, "TSS layout (SDM Vol 3 8.7)");

/* Flat descriptors: L=1 for 64-bit code, DPL in bits 45-46. */
static const uint64_t gdt_template[8] = {
    [SEL_KCODE / 8]   = 0x00AF9A000000FFFF,     /* kernel code, 64-bit */
    [SEL_KDATA / 8]   = 0x00CF92000000FFFF,     /* kernel data */
    [SEL_UCODE32 / 8] = 0x00CFFA000000FFFF,     /* user code, 32-bit (STAR) */
    [SEL_UDATA / 8]   = 0x00CFF2000000FFFF,     /* user data */
    [SEL_UCODE / 8]   = 0x00AFFA000000FFFF,     /* user code, 64-bit */
    /* SEL_TSS: 16-byte system descriptor, filled in gdt_init */
};

static void set_tss_descriptor(struct cpu *c)
{
    uint64_t base = (uint64_t)&c->tss, limit = sizeof(c->tss) - 1;

    c->gdt[SEL_TSS / 8] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) |
                          (0x89ULL << 40) |         /* present, 64-bit TSS */
                          (((limit >> 16) & 0xF) << 48) |
                          (((base >> 24) & 0xFF) << 56);
    c->gdt[SEL_TSS / 8 + 1] = base >> 32;
}

/* `ist` points at two IST_SIZE stacks. */
void gdt_init(struct cpu *c, uint8_t *ist)
{
    struct { uint16_t limit; uint64_t base; } __packed ptr = {
        sizeof(c->gdt) - 1, (uint64_t)c->gdt
    };

    memcpy(c->gdt, gdt_template, sizeof(c->gdt));
    c->tss.ist[0] = (uint64_t)ist + IST_SIZE;
    c->tss.ist[1] = (uint64_t)ist + 2 * IST_SIZE;
    c->tss.iomap_base = sizeof(c->tss); /* no I/O bitmap: ring 3 has no ports */
    set_tss_descriptor(c);
    __asm__ volatile(
        "lgdt %0\n\t"
        "pushq %1\n\t"                  /* reload CS with a far return */
        "leaq 1f(%%rip), %%rax\n\t"
        "pushq %%rax\n\t"
        "lretq\n"
        "1:\n\t"
        "mov %2, %%ds\n\t"
        "mov %2, %%es\n\t"
        "mov %2, %%ss\n\t"
        "ltr %w3"
        : : "m"(ptr), "i"(SEL_KCODE), "r"(SEL_KDATA), "r"(SEL_TSS)
        : "rax", "memory");
}

void gdt_set_kernel_stack(uint64_t rsp0)
{
    this_cpu()->tss.rsp[0] = rsp0;
}
