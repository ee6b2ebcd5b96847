/*
 * Traps and interrupts: GDT/TSS (gdt.c), IDT and dispatch (trap.c), entry
 * stubs (trapentry.S).
 */
#ifndef TRAP_H
#define TRAP_H

#include <stdint.h>

/* GDT selectors.  The order user-data-before-user-code is what
   syscall/sysret require (STAR layout); see gdt.c. */
#define SEL_KCODE       0x08
#define SEL_KDATA       0x10
#define SEL_UCODE32     0x18
#define SEL_UDATA       0x20
#define SEL_UCODE       0x28
#define SEL_TSS         0x30

#define VEC_PF          14
#define VEC_NET0        0x30    /* one MSI-X vector per NIC (virtio_net.c) */
#define VEC_NET_COUNT   4
#define VEC_E1000E0     0x34    /* one MSI-X vector per NIC (e1000e.c) */
#define VEC_E1000E_COUNT 4
#define VEC_TIMER       0x40
#define VEC_CALL        0xF0    /* smp_call: run the mailbox's function */
#define VEC_KICK        0xF1    /* look: a thread ended its process (CPU 0), a signal came (linux.c) */
#define VEC_DBG_STOP    0xF2    /* debug.c: park this CPU's thread */
#define VEC_SPURIOUS    0xFF

/* Saved by trapentry.S; the last five are pushed by the CPU. */
struct trapframe {
    uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
    uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
    uint64_t vector, error;
    uint64_t rip, cs, rflags, rsp, ss;
};

typedef void (*trap_handler_t)(struct trapframe *tf);

struct cpu;
/* This CPU's GDT and TSS (in `c`), with IST stacks at `ist` (2 x IST_SIZE). */
void gdt_init(struct cpu *c, uint8_t *ist);
void gdt_set_kernel_stack(uint64_t rsp0);
/* Boot CPU: its GDT/TSS, then the IDT every CPU shares. */
void trap_init(void);
/* Another CPU: its GDT/TSS and the shared IDT. */
void trap_init_cpu(struct cpu *c, uint8_t *ist);
/* Route `vector` to `h` (NULL restores the default: report and stop). */
void trap_set_handler(int vector, trap_handler_t h);
/* Run the handler of an interrupt vector (>= 32). */
void trap_handle_irq(struct trapframe *tf);
/* Print the trap, registers and a stack trace to the console. */
void trap_dump(const struct trapframe *tf);
const char *trap_name(uint64_t vector);

/* Symbol lookup and stack traces (ksym.c). */
const char *ksym_lookup(uint64_t addr, uint64_t *offset);
void stacktrace_print(uint64_t rip, uint64_t rbp);

#endif
