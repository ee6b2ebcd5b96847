/*
 * 32-bit entry from either multiboot loader: check for long mode, build
 * boot page tables (2 MB pages: identity for the first 4 GiB so this code
 * keeps running, and the kernel image at -2 GiB), enter long mode and jump
 * to kmain() in the higher half.  kernel/paging.c replaces these tables.
 *
 * On entry: eax = loader magic, ebx = physical address of its info block,
 * paging off, interrupts off, no usable stack.
 */
#include "memlayout.h"

#define PHYS(sym)   ((sym) - KERNEL_VMA)
#define PTE_P       0x1
#define PTE_W       0x2
#define PTE_PS      0x80
#define CR0_PG      (1 << 31)
#define CR0_WP      (1 << 16)
#define CR4_PAE     (1 << 5)
#define CR4_PGE     (1 << 7)
#define MSR_EFER    0xC0000080
#define EFER_LME    (1 << 8)
#define EFER_NXE    (1 << 11)
#define COM1        0x3F8

    .section .boot.text, "ax"
    .code32
    .global _start32
_start32:
    cli
    cld
    mov %eax, %edi              /* keep magic and info for kmain */
    mov %ebx, %esi
    rdtsc                       /* boot time is measured from here */
    mov %eax, PHYS(boot_tsc)
    mov %edx, PHYS(boot_tsc) + 4
    mov $PHYS(boot_stack_top), %esp

    /* Long mode and NX support: CPUID 0x80000001 EDX bits 29 and 20. */
    mov $0x80000000, %eax
    cpuid
    cmp $0x80000001, %eax
    jb no_long_mode
    mov $0x80000001, %eax
    cpuid
    bt $29, %edx
    jnc no_long_mode
    mov %edx, %ebp              /* bit 20: NX */

    /* PD entries: 2048 x 2 MB = 0..4 GiB. */
    mov $PHYS(boot_pd), %ebx
    xor %ecx, %ecx
1:  mov %ecx, %eax
    shl $21, %eax
    or $(PTE_P | PTE_W | PTE_PS), %eax
    mov %eax, (%ebx, %ecx, 8)
    movl $0, 4(%ebx, %ecx, 8)
    inc %ecx
    cmp $2048, %ecx
    jne 1b

    /* PDPT low: 4 PDs; PDPT high: slots 510, 511 -> first 2 GiB. */
    mov $PHYS(boot_pdpt_low), %edx
    xor %ecx, %ecx
2:  mov %ecx, %eax
    shl $12, %eax
    add $(PHYS(boot_pd) + PTE_P + PTE_W), %eax
    mov %eax, (%edx, %ecx, 8)
    inc %ecx
    cmp $4, %ecx
    jne 2b
    movl $(PHYS(boot_pd) + PTE_P + PTE_W), PHYS(boot_pdpt_high) + 510 * 8
    movl $(PHYS(boot_pd) + 0x1000 + PTE_P + PTE_W), PHYS(boot_pdpt_high) + 511 * 8
    movl $(PHYS(boot_pdpt_low) + PTE_P + PTE_W), PHYS(boot_pml4)
    movl $(PHYS(boot_pdpt_high) + PTE_P + PTE_W), PHYS(boot_pml4) + 511 * 8

    mov %cr4, %eax
    or $(CR4_PAE | CR4_PGE), %eax
    mov %eax, %cr4
    mov $PHYS(boot_pml4), %eax
    mov %eax, %cr3
    mov $MSR_EFER, %ecx
    rdmsr
    or $EFER_LME, %eax
    bt $20, %ebp
    jnc 3f
    or $EFER_NXE, %eax
3:  wrmsr
    mov %cr0, %eax
    or $(CR0_PG | CR0_WP), %eax
    mov %eax, %cr0
    lgdt boot_gdt_ptr
    ljmp $0x08, $long_entry

no_long_mode:
    mov $msg_no_lm, %ebx
4:  movb (%ebx), %al
    test %al, %al
    jz 5f
    mov $COM1, %dx
    outb %al, %dx
    inc %ebx
    jmp 4b
5:  hlt
    jmp 5b

    .code64
long_entry:
    mov $0x10, %eax
    mov %eax, %ds
    mov %eax, %es
    mov %eax, %ss
    xor %eax, %eax
    mov %eax, %fs
    mov %eax, %gs
    movabs $boot_stack_top, %rsp
    mov %edi, %edi              /* zero-extend magic and info */
    mov %esi, %esi
    xor %ebp, %ebp              /* end of the frame chain */
    movabs $kmain, %rax
    call *%rax
6:  hlt
    jmp 6b

    .section .boot.data, "a"
    .align 16
boot_gdt:
    .quad 0
    .quad 0x00AF9A000000FFFF    /* 0x08: 64-bit code */
    .quad 0x00CF92000000FFFF    /* 0x10: data */
boot_gdt_ptr:
    .short boot_gdt_ptr - boot_gdt - 1
    .long boot_gdt
msg_no_lm:
    .asciz "boot: this CPU has no 64-bit long mode; the Q-Kernel needs an x86-64 CPU\r\n"

    .bss
    .align 4096
boot_pml4:      .skip 4096
boot_pdpt_low:  .skip 4096
boot_pdpt_high: .skip 4096
boot_pd:        .skip 4096 * 4
    .global boot_stack_top
boot_stack:     .skip 16384
boot_stack_top:
    .global boot_tsc
    .align 8
boot_tsc:       .skip 8
