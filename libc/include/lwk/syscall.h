/* SPDX-License-Identifier: MIT */
/*
 * lwk/syscall.h: raw Q-Kernel system calls for compute-node programs.
 * The numbers and names come from the one list, lwk/uapi/syscalls.def (a copy
 * of kernel/include/uapi/syscalls.def installed by libc/libc.mk), so there is
 * no second list to keep in step.  Each call becomes
 *
 *     long lwk_sys_<name>(long a1, ...);   returns the result or -errno
 *     LWK_SYS_<name>                       its number
 *
 * Most programs want the libc functions (write, clock_gettime, ...) instead.
 */
#ifndef LWK_SYSCALL_H
#define LWK_SYSCALL_H

/* x86-64 `syscall`: rax = nr; rdi rsi rdx r10 r8 r9; rcx and r11 clobbered. */
static inline long lwk_syscall6(long nr, long a1, long a2, long a3, long a4,
                                long a5, long a6)
{
    register long r10 __asm__("r10") = a4;
    register long r8 __asm__("r8") = a5;
    register long r9 __asm__("r9") = a6;
    long ret;

    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8),
                       "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

#include <lwk/uapi/abi.h>

/* The number in rax: LWK_SYSCALL_BASE + the list's number. */
enum {
#define SYSCALL(nr, name, nargs, class) LWK_SYS_##name = LWK_SYSCALL_BASE + (nr),
#include <lwk/uapi/syscalls.def>
#undef SYSCALL
};

/* One typed stub per call; unused arguments are passed as 0. */
#define LWK_STUB_0(nr, name) \
    static inline long lwk_sys_##name(void) \
    { return lwk_syscall6(nr, 0, 0, 0, 0, 0, 0); }
#define LWK_STUB_1(nr, name) \
    static inline long lwk_sys_##name(long a1) \
    { return lwk_syscall6(nr, a1, 0, 0, 0, 0, 0); }
#define LWK_STUB_2(nr, name) \
    static inline long lwk_sys_##name(long a1, long a2) \
    { return lwk_syscall6(nr, a1, a2, 0, 0, 0, 0); }
#define LWK_STUB_3(nr, name) \
    static inline long lwk_sys_##name(long a1, long a2, long a3) \
    { return lwk_syscall6(nr, a1, a2, a3, 0, 0, 0); }
#define LWK_STUB_4(nr, name) \
    static inline long lwk_sys_##name(long a1, long a2, long a3, long a4) \
    { return lwk_syscall6(nr, a1, a2, a3, a4, 0, 0); }
#define LWK_STUB_5(nr, name) \
    static inline long lwk_sys_##name(long a1, long a2, long a3, long a4, \
                                      long a5) \
    { return lwk_syscall6(nr, a1, a2, a3, a4, a5, 0); }
#define LWK_STUB_6(nr, name) \
    static inline long lwk_sys_##name(long a1, long a2, long a3, long a4, \
                                      long a5, long a6) \
    { return lwk_syscall6(nr, a1, a2, a3, a4, a5, a6); }

#define SYSCALL(nr, name, nargs, class) LWK_STUB_##nargs(LWK_SYS_##name, name)
#include <lwk/uapi/syscalls.def>
#undef SYSCALL

/* clock_ns clock ids (see syscalls.def). */
#define LWK_CLOCK_MONOTONIC 0
#define LWK_CLOCK_REALTIME  1

#endif
