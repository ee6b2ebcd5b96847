/*
 * Global descriptor table and task state segment.  In long mode segments
 * are flat; the GDT exists for the privilege levels and the TSS for the
 * stacks the CPU switches to: rsp0 on a trap from user mode, IST1 for
 * double faults and IST2 for NMI/machine checks (so a broken kernel stack
 * still gets a readable report).
 */
#include "kernel.h"
#include "trap.h"

struct tss {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
} __packed;
_Static_assert(sizeof(struct tss) == 104, "TSS layout (SDM Vol 3 8.7)");

static struct tss tss;
static uint8_t ist_stacks[2][8192] __attribute__((aligned(16)));

/* Flat descriptors: L=1 for 64-bit code, DPL in bits 45-46. */
static uint64_t gdt[8] = {
    [SEL_KCODE / 8]   = 0x00AF9A000000FFFF,     /* kernel code, 64-bit */
    [SEL_KDATA / 8]   = 0x00CF92000000FFFF,     /* kernel data */
    [SEL_UCODE32 / 8] = 0x00CFFA000000FFFF,     /* user code, 32-bit (STAR) */
    [SEL_UDATA / 8]   = 0x00CFF2000000FFFF,     /* user data */
    [SEL_UCODE / 8]   = 0x00AFFA000000FFFF,     /* user code, 64-bit */
    /* SEL_TSS: 16-byte system descriptor, filled in gdt_init */
};

static void set_tss_descriptor(void)
{
    uint64_t base = (uint64_t)&tss, limit = sizeof(tss) - 1;

    gdt[SEL_TSS / 8] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) |
                       (0x89ULL << 40) |            /* present, 64-bit TSS */
                       (((limit >> 16) & 0xF) << 48) |
                       (((base >> 24) & 0xFF) << 56);
    gdt[SEL_TSS / 8 + 1] = base >> 32;
}

void gdt_init(void)
{
    struct { uint16_t limit; uint64_t base; } __packed ptr = {
        sizeof(gdt) - 1, (uint64_t)gdt
    };

    tss.ist[0] = (uint64_t)&ist_stacks[0][sizeof(ist_stacks[0])];
    tss.ist[1] = (uint64_t)&ist_stacks[1][sizeof(ist_stacks[1])];
    tss.iomap_base = sizeof(tss);       /* no I/O bitmap: ring 3 has no ports */
    set_tss_descriptor();
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
    tss.rsp[0] = rsp0;
}
