/*
 * Interrupt descriptor table and trap dispatch.  An exception in the
 * kernel is always fatal: report everything we know, then stop the node.
 */
#define LOG_PREFIX "trap"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "panic.h"
#include "proc.h"
#include "trap.h"
#include "x86.h"

struct idt_entry {
    uint16_t off_lo, sel;
    uint8_t ist, type;
    uint16_t off_mid;
    uint32_t off_hi, zero;
} __packed;
_Static_assert(sizeof(struct idt_entry) == 16, "IDT gate (SDM Vol 3 6.14.1)");

#define GATE_INTR       0x8E    /* present, DPL 0, 64-bit interrupt gate */
#define GATE_INTR_USER  0xEE    /* the same, DPL 3: int3 from user mode */

extern const uint64_t trap_vectors[256];
static struct idt_entry idt[256];
static trap_handler_t handlers[256];

static const char *const names[32] = {
    "divide error", "debug", "NMI", "breakpoint", "overflow",
    "bound range exceeded", "invalid opcode", "device not available",
    "double fault", "coprocessor segment overrun", "invalid TSS",
    "segment not present", "stack-segment fault", "general protection fault",
    "page fault", "reserved", "x87 floating-point error", "alignment check",
    "machine check", "SIMD floating-point error", "virtualization exception",
    "control protection exception",
};

const char *trap_name(uint64_t vector)
{
    if (vector < 32 && names[vector])
        return names[vector];
    return vector < 32 ? "reserved exception" : "interrupt";
}

static void set_gate(int v, uint64_t addr, int ist)
{
    idt[v] = (struct idt_entry){
        .off_lo = addr & 0xFFFF, .sel = SEL_KCODE, .ist = ist,
        .type = GATE_INTR, .off_mid = (addr >> 16) & 0xFFFF,
        .off_hi = addr >> 32,
    };
}

static void idt_load(void)
{
    struct { uint16_t limit; uint64_t base; } __packed ptr = {
        sizeof(idt) - 1, (uint64_t)idt
    };

    __asm__ volatile("lidt %0" : : "m"(ptr));
}

/* The boot CPU's IST stacks; the others' come with their kernel stack. */
static uint8_t boot_ist[2 * IST_SIZE] __attribute__((aligned(16)));

void trap_init(void)
{
    gdt_init(this_cpu(), boot_ist);
    for (int v = 0; v < 256; v++)
        set_gate(v, trap_vectors[v], 0);
    set_gate(8, trap_vectors[8], 1);    /* double fault: IST1 */
    set_gate(2, trap_vectors[2], 2);    /* NMI: IST2 */
    set_gate(18, trap_vectors[18], 2);  /* machine check: IST2 */
    /* int3 in a program is a breakpoint (a #BP its debugger hears:
       debug.c), not a #GP for lack of privilege. */
    idt[3].type = GATE_INTR_USER;
    idt_load();
}

void trap_init_cpu(struct cpu *c, uint8_t *ist)
{
    gdt_init(c, ist);
    idt_load();
}

void trap_set_handler(int vector, trap_handler_t h)
{
    handlers[vector] = h;
}

static void dump_pf_error(const struct trapframe *tf)
{
    uint64_t e = tf->error;

    pr_info("address %016lx: %s, %s, %s mode%s%s\n", read_cr2(),
            e & 1 ? "protection violation" : "page not present",
            e & 2 ? "write" : "read", e & 4 ? "user" : "kernel",
            e & 8 ? ", reserved bit set" : "",
            e & 16 ? ", instruction fetch" : "");
}

void trap_dump(const struct trapframe *tf)
{
    uint64_t off;
    const char *sym = ksym_lookup(tf->rip, &off);

    pr_info("%s (vector %lu) error %#lx\n", trap_name(tf->vector),
            tf->vector, tf->error);
    if (tf->vector == VEC_PF)
        dump_pf_error(tf);
    pr_info("RIP %016lx <%s+%#lx>  CS %04lx  RFLAGS %08lx\n", tf->rip,
            sym ? sym : "?", sym ? off : 0, tf->cs, tf->rflags);
    pr_info("RSP %016lx  SS %04lx  CR3 %016lx\n", tf->rsp, tf->ss,
            read_cr3());
    pr_info("RAX %016lx RBX %016lx RCX %016lx\n", tf->rax, tf->rbx, tf->rcx);
    pr_info("RDX %016lx RSI %016lx RDI %016lx\n", tf->rdx, tf->rsi, tf->rdi);
    pr_info("RBP %016lx R8  %016lx R9  %016lx\n", tf->rbp, tf->r8, tf->r9);
    pr_info("R10 %016lx R11 %016lx R12 %016lx\n", tf->r10, tf->r11, tf->r12);
    pr_info("R13 %016lx R14 %016lx R15 %016lx\n", tf->r13, tf->r14, tf->r15);
    stacktrace_print(tf->rip, tf->rbp);
}

/* Interrupts (vector >= 32), from either mode. */
void trap_handle_irq(struct trapframe *tf)
{
    trap_handler_t h = handlers[tf->vector];

    if (h)
        h(tf);
    else if (tf->vector != VEC_SPURIOUS)    /* spurious: no EOI */
        pr_warn("unexpected interrupt, vector %lu\n", tf->vector);
}

void trap_dispatch(struct trapframe *tf);
void trap_dispatch(struct trapframe *tf)
{
    if (tf->cs & 3) {
        proc_user_trap(tf);     /* a process: faults kill only it */
        return;
    }
    if (tf->vector >= 32 || handlers[tf->vector]) {
        if (tf->vector < 32)
            handlers[tf->vector](tf);
        else
            trap_handle_irq(tf);
        return;
    }
    trap_dump(tf);
    panic("unhandled %s in the kernel", trap_name(tf->vector));
}
