/* SPDX-License-Identifier: MIT */
/*
 * rt_entry.S: where the kernel reflects a Linux call (kernel/linux.c):
 * rsp (16-aligned) and rdi point at the call's struct lwk_lx_frame
 * (uapi/abi.h) on the runtime's own stack.  The answer goes back with linux_return, which resumes the
 * program after its syscall instruction.
 */
/* LWK_SYS_linux_return (LWK_SYSCALL_BASE + 33): rt.c asserts it. */
    .set    LINUX_RETURN, 0x1021

    .text
    .globl  lxrt_entry
    .type   lxrt_entry, @function
lxrt_entry:
    call    lxrt_dispatch
    movq    %rax, %rdi
    movl    $LINUX_RETURN, %eax
    syscall
    ud2
    .size   lxrt_entry, . - lxrt_entry

/* lxrt_jump(entry, sp): start the Linux program with the initial stack
   the PCT built (rdx 0: no function for atexit, as the ELF ABI says). */
    .globl  lxrt_jump
    .type   lxrt_jump, @function
lxrt_jump:
    movq    %rsi, %rsp
    xorl    %edx, %edx
    xorl    %ebp, %ebp
    xorl    %eax, %eax
    jmpq    *%rdi
    .size   lxrt_jump, . - lxrt_jump
