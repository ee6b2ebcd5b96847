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

#include <stdarg.h>
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
    char **argv, **envp;        /* the program's, on its initial stack */
    const uint64_t *auxv;       /* its auxiliary vector, AT_NULL ended */
};
extern struct lxrt lxrt;

/* [p, p + len) lies in the Linux program's memory (its region or the
   stack): the runtime never lets a call touch anything else (EFAULT). */
int lx_ok(uint64_t p, uint64_t len);
/* A NUL-terminated path in the program's memory, or NULL. */
const char *lx_path(long p);
/* newlib's -errno (lwk_io's results) in Linux's numbering. */
long lx_err(long r);

/* rt_fd.c: the program's fd -> its handle, -1 if not open: yod's fd
   (lwk_io's) below LX_NODE_H, a file of the node's own (rt_proc.c) from
   there up; a handle just opened -> the program's lowest free fd;
   fcntl's fd commands (-LX_ENOSYS for the others). */
#define LX_NFD      64          /* program fds (and yod's, per rank) */
#define LX_NODE_H   LX_NFD
int lx_fd(long fd);
long lx_fd_opened(long yod_fd, int cloexec);
long lx_fd_fcntl(long fd, int cmd, long arg);

/* rt_proc.c: the node's own /proc and /sys (and /dev/fd, /dev/std*),
   answered here from what the node knows, never by yod (docs/LINUX.md).
   lx_node_setup puts its lwk_io table in front of yod's (or the
   console's); lx_node_path: the path is one of those; readlink there. */
void lx_node_setup(void);
/* rt_procio.c: whether files are yod's (else the console's: lwkrun). */
int lx_yod_files(void);
int lx_node_path(const char *path);
long lx_node_readlink(const char *path, char *buf, size_t len);

/* rt_mem.c */
void lx_mem_init(void);
uint64_t lx_mem_free_bytes(void);

/* The reflected call being answered (rt.c, under its lock): the
   program's registers and state as the kernel saved them. */
struct lwk_lx_frame;
extern struct lwk_lx_frame *lx_call;
/* Sleep, with the lock let go, until a signal is sent to the calling
   thread or ns pass (or sooner: look again); the signals sent (bit
   sig - 1). */
uint64_t lx_sleep(uint64_t ns);

/* rt_signal.c: end the process as Linux would for signal `sig`; a new
   thread's first call (LWK_LX_FRESH); signals the kernel brought to
   this thread (LWK_LX_SIGNALS: returns the program's rax); after each
   call, a pending signal taken (returns the result linux_return gives,
   0 when the frame was pointed at a handler). */
__attribute__((noreturn)) void lx_die_by_signal(int sig, const char *why);
void lx_sig_thread(struct lwk_lx_frame *f);
long lx_sig_arrived(struct lwk_lx_frame *f);
long lx_sig_deliver(struct lwk_lx_frame *f, long rax);
/* Sleep until CLOCK_MONOTONIC time `end` (ns): 0, or -LX_EINTR when a
   signal the thread does not block came first (its handler runs after
   the call). */
long lx_sig_sleep(uint64_t end);

/* rt_sys.c: a clock's time in ns (-LX_EINVAL for a clock we have no
   timers on); a limit as getrlimit gives it; what uname says. */
long lx_clock_ns(long clk, uint64_t *ns);
/* A checked time (sec >= 0, 0 <= frac_ns < 1 s) in ns, saturating. */
uint64_t lx_ts_ns(int64_t sec, int64_t frac_ns);
struct lx_rlimit lx_limit(long res);
#define LX_RELEASE  "6.1.0-qkernel"     /* glibc refuses an old kernel */
#define LX_VERSION  "Q-Kernel Linux personality"

/* rt_file.c: the file-mode creation mask (umask). */
long lx_umask_now(void);

/* rt_fmt.c: vsnprintf for integers and strings (no floating point). */
int lx_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);

#endif
