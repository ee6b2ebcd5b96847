/*
 * Entry stubs for all 256 vectors.  Each pushes a zero error code when the
 * CPU does not, then its vector number, and jumps to trap_common, which
 * saves the registers as a struct trapframe (include/trap.h) and calls
 * trap_dispatch(tf).
 */
#include "cpu.h"

    .text

/* The CPU pushes an error code for 8, 10-14, 17, 21, 29, 30 (SDM Vol 3
   6.13); the other stubs push a zero so every frame has the same shape. */
    .macro STUB n
    .align 16
trap_stub_\n:
    .if !((\n == 8) || (\n >= 10 && \n <= 14) || (\n == 17) || (\n == 21) || (\n == 29) || (\n == 30))
    pushq $0
    .endif
    pushq $\n
    jmp trap_common
    .endm

    .altmacro
    .macro STUBS from, to
    STUB \from
    .if \to-\from
    STUBS %(\from+1), \to
    .endif
    .endm

    STUBS 0, 63
    STUBS 64, 127
    STUBS 128, 191
    STUBS 192, 255

/* Save the general registers in struct trapframe order (rax highest). */
    .macro PUSH_REGS
    pushq %rax
    pushq %rbx
    pushq %rcx
    pushq %rdx
    pushq %rsi
    pushq %rdi
    pushq %rbp
    pushq %r8
    pushq %r9
    pushq %r10
    pushq %r11
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    .endm

/* GS: the kernel's GS base points at this CPU's struct cpu, the user's is
   whatever the process has; swapgs exchanges them on every entry from and
   exit to ring 3 (the saved CS says which), so the kernel always runs with
   its own.  (A user cannot load a kernel GS: it has neither the MSRs nor
   wrgsbase.) */
trap_common:
    testb $3, 24(%rsp)          /* CS above rip, error code, vector */
    jz 1f
    swapgs
1:
    PUSH_REGS
    cld
    mov %rsp, %rdi
    call trap_dispatch
    .global trap_return
trap_return:
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %r11
    popq %r10
    popq %r9
    popq %r8
    popq %rbp
    popq %rdi
    popq %rsi
    popq %rdx
    popq %rcx
    popq %rbx
    popq %rax
    add $16, %rsp               /* vector and error code */
    testb $3, 8(%rsp)           /* CS: back to ring 3? */
    jz 2f
    swapgs
2:
    iretq

/* trap_return_to(tf): enter user mode with the frame at tf (which must
   be the top of the kernel stack). */
    .global trap_return_to
trap_return_to:
    mov %rdi, %rsp
    jmp trap_return

/*
 * System-call entry (`syscall`: rip in rcx, rflags in r11, still on the
 * user stack, IF cleared by SFMASK).  Build the same trapframe a trap
 * would, so switching processes is the same swap for both.  Vector 256
 * marks a system call.  The user rsp is parked in this CPU's struct cpu
 * while the kernel stack is found there.
 */
    .global syscall_entry
syscall_entry:
    swapgs
    mov %rsp, %gs:CPU_USER_RSP
    mov %gs:CPU_KSTACK_TOP, %rsp
    pushq $0x23                 /* ss: SEL_UDATA | 3 */
    pushq %gs:CPU_USER_RSP
    pushq %r11                  /* rflags */
    pushq $0x2B                 /* cs: SEL_UCODE | 3 */
    pushq %rcx                  /* rip */
    pushq $0                    /* error */
    pushq $256                  /* vector: system call */
    PUSH_REGS
    cld
    mov %rsp, %rdi
    call syscall_dispatch
    jmp trap_return

    .section .rodata
    .macro VEC n
    .quad trap_stub_\n
    .endm
    .macro VECS from, to
    VEC \from
    .if \to-\from
    VECS %(\from+1), \to
    .endif
    .endm

    .align 8
    .global trap_vectors
trap_vectors:
    VECS 0, 63
    VECS 64, 127
    VECS 128, 191
    VECS 192, 255
