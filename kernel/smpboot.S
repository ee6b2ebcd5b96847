/*
 * The application processors' first instructions.  smp.c copies this
 * code to a free page below 1 MiB and points each AP's start-up IPI at
 * it: the AP starts in real mode at that page (CS = page >> 4, IP = 0),
 * enters protected mode, then long mode with the tables smp.c prepared
 * (the kernel half, and this page identity-mapped so the code keeps
 * running), and calls smp_ap_main(cpu) on its own stack in the higher
 * half.  The code is position independent: it computes its physical
 * address from CS and patches its own GDT pointer and far jumps.
 * smp.c fills the parameters at the end before each start-up IPI.
 */
#include "memlayout.h"

#define TR(x)       ((x) - smp_tramp)
#define CR0_PE      (1 << 0)
#define CR0_WP      (1 << 16)
#define CR0_PG      (1 << 31)
#define CR4_PAE     (1 << 5)
#define CR4_PGE     (1 << 7)
#define MSR_EFER    0xC0000080

    .section .rodata
    .balign 16
    .global smp_tramp, smp_tramp_end, smp_tramp_params
    .code16
smp_tramp:
    cli
    cld
    mov %cs, %ax
    mov %ax, %ds
    movzwl %ax, %ebx
    shl $4, %ebx                        /* ebx: this page, physical */
    lea TR(tr_gdt)(%ebx), %eax
    mov %eax, TR(tr_gdt_ptr) + 2
    lea TR(tr_pm)(%ebx), %eax
    mov %eax, TR(tr_pm_jump)
    lea TR(tr_lm)(%ebx), %eax
    mov %eax, TR(tr_lm_jump)
    lgdtl TR(tr_gdt_ptr)
    mov %cr0, %eax
    or $CR0_PE, %eax
    mov %eax, %cr0
    ljmpl *TR(tr_pm_jump)

    .code32
tr_pm:
    mov $0x10, %ax
    mov %ax, %ds
    mov %ax, %es
    mov %ax, %ss
    mov %cr4, %eax
    or $(CR4_PAE | CR4_PGE), %eax
    mov %eax, %cr4
    mov TR(tr_cr3)(%ebx), %eax
    mov %eax, %cr3
    mov $MSR_EFER, %ecx
    mov TR(tr_efer)(%ebx), %eax         /* LME, and NXE as the boot CPU */
    xor %edx, %edx
    wrmsr
    mov %cr0, %eax
    or $(CR0_PG | CR0_WP), %eax
    mov %eax, %cr0
    ljmp *TR(tr_lm_jump)(%ebx)

    .code64
tr_lm:
    mov %ebx, %ebx                      /* upper half: zero */
    mov TR(tr_stack)(%rbx), %rsp
    mov TR(tr_cpu)(%rbx), %rdi
    xor %ebp, %ebp                      /* end of the frame chain */
    movabs $smp_ap_main, %rax
    call *%rax
1:  hlt
    jmp 1b

    .balign 8
tr_gdt:
    .quad 0
    .quad 0x00CF9A000000FFFF            /* 0x08: 32-bit code */
    .quad 0x00CF92000000FFFF            /* 0x10: data */
    .quad 0x00AF9A000000FFFF            /* 0x18: 64-bit code */
tr_gdt_ptr:
    .short 31
    .long 0
tr_pm_jump:
    .long 0
    .short 0x08
tr_lm_jump:
    .long 0
    .short 0x18

    .balign 8
smp_tramp_params:                       /* struct tramp_params (smp.c) */
tr_cr3:     .quad 0
tr_efer:    .quad 0
tr_stack:   .quad 0
tr_cpu:     .quad 0
smp_tramp_end:
