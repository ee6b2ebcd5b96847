/* SPDX-License-Identifier: MIT */
/*
 * rt.h: the Linux runtime (docs/LINUX.md).  The PCT loads this newlib
 * program beside a static Linux program; the kernel reflects the Linux
 * program's RUNTIME-class calls (kernel/include/uapi/linux.def) here, one
 * at a time, on the runtime's own stack.  Every lx_<name> takes the call's
 * six argument registers and returns what the Linux call returns (a value
 * or -errno with Linux's numbering).
 */
#ifndef LXRT_H
#define LXRT_H

#include <stddef.h>
#include <stdint.h>

#include "lx_abi.h"

#define LX_ARGS long a0, long a1, long a2, long a3, long a4, long a5
#define LINUX(nr, name, class) long lx_##name(LX_ARGS);
#include <lwk/uapi/linux.def>
#undef LINUX

/* What the PCT told us (rt.c). */
struct lxrt {
    uint64_t lo, hi;            /* the Linux program's region */
    uint64_t image_end;         /* its image ends here: brk starts */
    uint64_t stack_lo, stack_hi;/* the stack region */
    long pid;
};
extern struct lxrt lxrt;

/* [p, p + len) lies in the Linux program's memory (its region or the
   stack): the runtime never lets a call touch anything else (EFAULT). */
int lx_ok(uint64_t p, uint64_t len);
/* A NUL-terminated path in the program's memory, or NULL. */
const char *lx_path(long p);
/* newlib's -errno (lwk_io's results) in Linux's numbering. */
long lx_err(long r);

/* rt_fd.c: the program's fd -> yod's (lwk_io's), -1 if not open; a
   yod fd just opened -> the program's lowest free fd; fcntl's fd commands
   (-LX_ENOSYS for the others). */
int lx_fd(long fd);
long lx_fd_opened(long yod_fd, int cloexec);
long lx_fd_fcntl(long fd, int cmd, long arg);

/* rt_mem.c */
void lx_mem_init(void);
uint64_t lx_mem_free_bytes(void);

/* rt_sys.c: end the process as Linux would for signal `sig`. */
__attribute__((noreturn)) void lx_die_by_signal(int sig, const char *why);

#endif
