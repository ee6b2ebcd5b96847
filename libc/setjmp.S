/* SPDX-License-Identifier: MIT */
/*
 * setjmp.S: setjmp/longjmp for compute-node programs.  Replaces newlib
 * 3.3's x86-64 version, whose longjmp(env, 0) makes setjmp return 0 again
 * (C11 7.13.2.1: it must return 1), so a program doing "if (setjmp(env)
 * == 0) longjmp(env, 0);" loops forever.  liblwk.a is searched before
 * libc.a, so this one is linked.  Same jmp_buf layout as newlib (8 quads):
 * rbx rbp r12 r13 r14 r15 rsp-after-return rip.
 */
    .text
    .globl  setjmp
    .type   setjmp, @function
setjmp:
    movq    %rbx, 0(%rdi)
    movq    %rbp, 8(%rdi)
    movq    %r12, 16(%rdi)
    movq    %r13, 24(%rdi)
    movq    %r14, 32(%rdi)
    movq    %r15, 40(%rdi)
    leaq    8(%rsp), %rax           /* rsp as it will be after our ret */
    movq    %rax, 48(%rdi)
    movq    (%rsp), %rax            /* return address */
    movq    %rax, 56(%rdi)
    xorl    %eax, %eax
    ret
    .size   setjmp, . - setjmp

    .globl  longjmp
    .type   longjmp, @function
longjmp:
    movl    %esi, %eax              /* setjmp's return value ... */
    testl   %eax, %eax
    jnz     1f
    incl    %eax                    /* ... never 0 */
1:  movq    0(%rdi), %rbx
    movq    8(%rdi), %rbp
    movq    16(%rdi), %r12
    movq    24(%rdi), %r13
    movq    32(%rdi), %r14
    movq    40(%rdi), %r15
    movq    48(%rdi), %rsp
    jmpq    *56(%rdi)
    .size   longjmp, . - longjmp

    .section .note.GNU-stack, "", @progbits
