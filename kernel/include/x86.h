/* One inline wrapper per x86 instruction the kernel needs. */
#ifndef X86_H
#define X86_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
    __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
    uint16_t v;
    __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
    __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
    __asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v),
                     "d"((uint32_t)(v >> 32)));
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
}

static inline uint64_t read_cr2(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr2, %0" : "=r"(v));
    return v;
}

static inline uint64_t read_cr3(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr3, %0" : "=r"(v));
    return v;
}

static inline void write_cr3(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void invlpg(uint64_t va)
{
    __asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* Drop every non-global TLB entry of this CPU. */
static inline void tlb_flush_local(void)
{
    write_cr3(read_cr3());
}

static inline uint64_t read_cr0(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr0, %0" : "=r"(v));
    return v;
}

static inline void write_cr0(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline uint64_t read_cr4(void)
{
    uint64_t v;
    __asm__ volatile("mov %%cr4, %0" : "=r"(v));
    return v;
}

static inline void write_cr4(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

#define CR0_MP          (1UL << 1)
#define CR0_EM          (1UL << 2)
#define CR4_OSFXSR      (1UL << 9)
#define CR4_OSXMMEXCPT  (1UL << 10)

#define MSR_APIC_BASE       0x1B
#define MSR_EFER            0xC0000080
#define MSR_FS_BASE         0xC0000100
#define MSR_GS_BASE         0xC0000101
#define MSR_KERNEL_GS_BASE  0xC0000102
#define EFER_SCE            (1 << 0)
#define EFER_LME            (1 << 8)
#define EFER_NXE            (1 << 11)

/* x87/SSE state (512-byte, 16-aligned FXSAVE image). */
static inline void fxsave(void *area)
{
    __asm__ volatile("fxsave (%0)" : : "r"(area) : "memory");
}

static inline void fxrstor(const void *area)
{
    __asm__ volatile("fxrstor (%0)" : : "r"(area) : "memory");
}

/* Let ring 3 use x87/SSE on this CPU (each CPU has its own CR0/CR4). */
static inline void fpu_enable(void)
{
    write_cr0((read_cr0() & ~CR0_EM) | CR0_MP);
    write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
}

static inline uint64_t read_rbp(void)
{
    uint64_t v;
    __asm__ volatile("mov %%rbp, %0" : "=r"(v));
    return v;
}

static inline void irq_enable(void)  { __asm__ volatile("sti" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void halt(void)        { __asm__ volatile("hlt" ::: "memory"); }
static inline void cpu_relax(void)   { __asm__ volatile("pause" ::: "memory"); }

/* Let pending interrupts in, between two pieces of work.  The nop is sti's
   one-instruction shadow: with `pause` there, QEMU's TCG leaves the
   shadow on (pause leaves the translated block early) and no interrupt
   ever comes in. */
static inline void irq_window(void)
{
    __asm__ volatile("sti; nop; cli" ::: "memory");
}

/* Enable interrupts and halt atomically: an interrupt arriving between
   the two still wakes the hlt (sti's one-instruction shadow). */
static inline void irq_enable_and_halt(void)
{
    __asm__ volatile("sti; hlt" ::: "memory");
}

#endif
