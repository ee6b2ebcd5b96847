/* SPDX-License-Identifier: MIT */
/*
 * crt0.S: entry point of every compute-node program.  The PCT enters here
 * with the System V initial stack (lwk/uapi/abi.h):
 *
 *     rsp ->  argc
 *             argv[0] ... argv[argc-1], NULL
 *             envp[0] ... NULL
 *             auxv pairs (type, value) ... AT_NULL
 *
 * We put the FPU/SSE control state in its ABI default, decode the stack,
 * check that a PCT started us (not Linux), record the auxv (__lwk_init),
 * set up the main thread's thread-local storage,
 * run newlib's constructors, call main and exit() with its result so
 * atexit handlers run and stdio is flushed.
 */
    .text
    .globl  _start
    .type   _start, @function
_start:
    .cfi_startproc
    .cfi_undefined rip              /* end of the call chain for debuggers */
    xorl    %ebp, %ebp
    movq    %rsp, %rbx              /* rbx (callee-saved): initial stack */

    fninit                          /* x87 control word 0x37f */
    pushq   $0x1f80                 /* MXCSR default: all exceptions masked */
    ldmxcsr (%rsp)

    andq    $-16, %rsp              /* ABI: 16-byte aligned at each call */

    movq    (%rbx), %rdi            /* argc */
    leaq    8(%rbx), %rsi           /* argv */
    leaq    16(%rbx,%rdi,8), %rdx   /* envp = argv + argc + 1 */
    movq    %rdx, %rcx
1:  cmpq    $0, (%rcx)              /* auxv follows envp's NULL */
    leaq    8(%rcx), %rcx
    jne     1b
    call    on_a_node               /* (auxv in rcx); else ends here */
    movq    %rdi, %r12              /* keep argc, argv, envp for main */
    movq    %rsi, %r13
    movq    %rdx, %r14
    call    __lwk_init              /* (argc, argv, envp, auxv) */

    call    __lwk_time_init
    call    __lwk_threads_init      /* the main thread's TLS (%fs) */
    leaq    __libc_fini_array(%rip), %rdi
    call    atexit                  /* destructors run at exit() */
    call    __libc_init_array       /* constructors */

    movl    %r12d, %edi
    movq    %r13, %rsi
    movq    %r14, %rdx
    call    main
    movl    %eax, %edi
    call    exit
    ud2                             /* exit() does not return */
    .cfi_endproc
    .size   _start, . - _start

/*
 * A PCT (and the kernel, for the PCT) always passes AT_LWK_* auxv entries
 * (0x1000-0x10ff, lwk/uapi/abi.h); Linux never does.  Without one the
 * program was started on Linux by mistake ("./prog", not "yod ./prog"),
 * where our system calls (LWK_SYSCALL_BASE + n) mean nothing: say so with
 * Linux's own write and exit_group and stop with 126, the shell's "cannot
 * execute".  Leaves rdi, rsi, rdx, rcx as they were.
 */
    .type   on_a_node, @function
on_a_node:
    movq    %rcx, %rax
1:  movq    (%rax), %r8
    testq   %r8, %r8                /* AT_NULL: no LWK entry */
    jz      2f
    andq    $-0x100, %r8
    cmpq    $0x1000, %r8            /* AT_LWK_* */
    je      3f
    addq    $16, %rax
    jmp     1b
3:  ret
2:  movl    $1, %eax                /* Linux: write(2, msg, len) */
    movl    $2, %edi
    leaq    not_a_node(%rip), %rsi
    movl    $not_a_node_len, %edx
    syscall
    movl    $231, %eax              /* Linux: exit_group(126) */
    movl    $126, %edi
    syscall
    ud2
    .size   on_a_node, . - on_a_node

    .section .rodata
not_a_node:
    .ascii  "this is a compute-node program: run it with yod (or tools/lwkrun)\n"
    .set    not_a_node_len, . - not_a_node
    .text

/*
 * newlib is configured with HAVE_INIT_FINI: __libc_init_array calls _init
 * and __libc_fini_array calls _fini.  No crti/crtn is linked; constructors
 * and destructors go through .init_array/.fini_array only.
 */
    .globl  _init
    .type   _init, @function
_init:
    ret
    .size   _init, . - _init

    .globl  _fini
    .type   _fini, @function
_fini:
    ret
    .size   _fini, . - _fini

    .section .note.GNU-stack, "", @progbits
