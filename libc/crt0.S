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
 * We decode it, put the FPU/SSE control state in its ABI default, record
 * the auxv (__lwk_init), run newlib's constructors, call main and exit()
 * with its result so atexit handlers run and stdio is flushed.
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
    movq    %rdi, %r12              /* keep argc, argv, envp for main */
    movq    %rsi, %r13
    movq    %rdx, %r14
    call    __lwk_init              /* (argc, argv, envp, auxv) */

    call    __lwk_time_init
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
