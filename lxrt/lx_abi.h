/* SPDX-License-Identifier: MIT */
/*
 * lx_abi.h: the parts of the Linux x86-64 user ABI the runtime answers in
 * (values and structure layouts as the Linux kernel defines them).  The
 * runtime is built against newlib, whose names and values differ, so
 * everything here is prefixed LX_; tests/unit/test_linux_abi checks each
 * value and layout against the host's own headers.
 */
#ifndef LX_ABI_H
#define LX_ABI_H

#include <stdint.h>

/* errno: every name that travels from yod (YOD_ERRNO_LIST), Linux's value. */
#define LX_ERRNO_LIST(X) \
    X(EPERM, 1) X(ENOENT, 2) X(ESRCH, 3) X(EINTR, 4) X(EIO, 5) X(ENXIO, 6) \
    X(E2BIG, 7) X(ENOEXEC, 8) X(EBADF, 9) X(ECHILD, 10) X(EAGAIN, 11)     \
    X(ENOMEM, 12) X(EACCES, 13) X(EFAULT, 14) X(EBUSY, 16) X(EEXIST, 17)  \
    X(EXDEV, 18) X(ENODEV, 19) X(ENOTDIR, 20) X(EISDIR, 21) X(EINVAL, 22) \
    X(ENFILE, 23) X(EMFILE, 24) X(ENOTTY, 25) X(ETXTBSY, 26) X(EFBIG, 27) \
    X(ENOSPC, 28) X(ESPIPE, 29) X(EROFS, 30) X(EMLINK, 31) X(EPIPE, 32)   \
    X(EDOM, 33) X(ERANGE, 34) X(EDEADLK, 35) X(ENAMETOOLONG, 36)          \
    X(ENOLCK, 37) X(ENOSYS, 38) X(ENOTEMPTY, 39) X(ELOOP, 40)             \
    X(EOVERFLOW, 75) X(EDQUOT, 122) X(ESTALE, 116) X(EOPNOTSUPP, 95)      \
    X(ENOTSUP, 95) X(EILSEQ, 84) X(ECANCELED, 125) X(ETIMEDOUT, 110)      \
    X(ENOBUFS, 105)
#define LX_ERRNO_ENUM(name, v) LX_##name = v,
enum { LX_ERRNO_LIST(LX_ERRNO_ENUM) };

/* open(2) flags (asm-generic/fcntl.h) */
#define LX_O_ACCMODE    03
#define LX_O_CREAT      0100
#define LX_O_EXCL       0200
#define LX_O_NOCTTY     0400
#define LX_O_TRUNC      01000
#define LX_O_APPEND     02000
#define LX_O_NONBLOCK   04000
#define LX_O_DSYNC      010000
#define LX_O_LARGEFILE  0100000
#define LX_O_DIRECTORY  0200000
#define LX_O_NOFOLLOW   0400000
#define LX_O_CLOEXEC    02000000
#define LX_O_SYNC       04010000

#define LX_AT_FDCWD             (-100)
#define LX_AT_SYMLINK_NOFOLLOW  0x100
#define LX_AT_REMOVEDIR         0x200
#define LX_AT_EMPTY_PATH        0x1000

#define LX_F_DUPFD      0
#define LX_F_GETFD      1
#define LX_F_SETFD      2
#define LX_F_GETFL      3
#define LX_F_SETFL      4
#define LX_F_DUPFD_CLOEXEC 1030
#define LX_FD_CLOEXEC   1

#define LX_TCGETS       0x5401
#define LX_TIOCGWINSZ   0x5413

#define LX_PROT_READ    1
#define LX_MAP_SHARED   0x01
#define LX_MAP_PRIVATE  0x02
#define LX_MAP_FIXED    0x10
#define LX_MAP_ANONYMOUS 0x20
#define LX_MAP_FIXED_NOREPLACE 0x100000
#define LX_MREMAP_MAYMOVE 1
#define LX_MREMAP_FIXED 2
#define LX_MADV_DONTNEED 4

#define LX_CLOCK_REALTIME           0
#define LX_CLOCK_MONOTONIC          1
#define LX_CLOCK_PROCESS_CPUTIME_ID 2
#define LX_CLOCK_THREAD_CPUTIME_ID  3
#define LX_CLOCK_MONOTONIC_RAW      4
#define LX_CLOCK_REALTIME_COARSE    5
#define LX_CLOCK_MONOTONIC_COARSE   6
#define LX_CLOCK_BOOTTIME           7
#define LX_TIMER_ABSTIME            1

#define LX_RLIMIT_DATA      2
#define LX_RLIMIT_STACK     3
#define LX_RLIMIT_NOFILE    7
#define LX_RLIMIT_AS        9
#define LX_RLIM_INFINITY    (~0ULL)

#define LX_SIG_DFL      0
#define LX_SIG_IGN      1
#define LX_SIGKILL      9
#define LX_SIGSEGV      11
#define LX_SIGSTOP      19
#define LX_SIGABRT      6
#define LX_SIGCHLD      17
#define LX_SIGCONT      18
#define LX_SIGURG       23
#define LX_SIGWINCH     28
#define LX_SIGALRM      14
#define LX_NSIG         64
#define LX_SIG_BLOCK    0
#define LX_SIG_UNBLOCK  1
#define LX_SIG_SETMASK  2

#define LX_FUTEX_WAIT   0
#define LX_FUTEX_WAKE   1
#define LX_FUTEX_CMD_MASK 0x7f  /* without FUTEX_PRIVATE_FLAG, _CLOCK_REALTIME */

#define LX_S_IFMT       0170000
#define LX_S_IFLNK      0120000

struct lx_stat {                /* the kernel's struct stat on x86-64 */
    uint64_t st_dev, st_ino, st_nlink;
    uint32_t st_mode, st_uid, st_gid, pad0;
    uint64_t st_rdev;
    int64_t st_size, st_blksize, st_blocks;
    uint64_t st_atime_sec, st_atime_nsec, st_mtime_sec, st_mtime_nsec,
             st_ctime_sec, st_ctime_nsec;
    int64_t unused[3];
};

/* statx's (Linux 4.11): what stat says, in its own layout */
struct lx_statx_time { int64_t tv_sec; uint32_t tv_nsec; int32_t reserved; };
struct lx_statx {
    uint32_t mask, blksize;
    uint64_t attributes;
    uint32_t nlink, uid, gid;
    uint16_t mode, spare0;
    uint64_t ino, size, blocks, attributes_mask;
    struct lx_statx_time atime, btime, ctime, mtime;
    uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
    uint64_t spare[14];
};
#define LX_STATX_BASIC_STATS 0x7ffu     /* type, mode, ... blocks; no btime */

struct lx_timespec { int64_t tv_sec, tv_nsec; };
struct lx_timeval { int64_t tv_sec, tv_usec; };
struct lx_iovec { uint64_t base, len; };
struct lx_rlimit { uint64_t cur, max; };

/* Linux's native asynchronous I/O (<linux/aio_abi.h>; lxrt/rt_aio.c) */
#define LX_EINPROGRESS      115 /* io_cancel: the cancellation is under way */
#define LX_IOCB_CMD_PREAD   0
#define LX_IOCB_CMD_PWRITE  1
#define LX_IOCB_CMD_FSYNC   2
#define LX_IOCB_CMD_FDSYNC  3
#define LX_IOCB_CMD_PREADV  7
#define LX_IOCB_CMD_PWRITEV 8
#define LX_IOCB_FLAG_RESFD  1
struct lx_iocb {                /* little-endian: the key before rw_flags */
    uint64_t aio_data;
    uint32_t aio_key;           /* the kernel writes 0 (KIOCB_KEY) */
    int32_t aio_rw_flags;
    uint16_t aio_lio_opcode;
    int16_t aio_reqprio;
    uint32_t aio_fildes;
    uint64_t aio_buf, aio_nbytes;
    int64_t aio_offset;
    uint64_t aio_reserved2;
    uint32_t aio_flags, aio_resfd;
};
struct lx_io_event { uint64_t data, obj; int64_t res, res2; };
/* The head of the ring an aio_context_t points at (fs/aio.c's struct
   aio_ring; the events would follow it).  libaio reads it to reap events
   in user space only if magic is LX_AIO_RING_MAGIC. */
#define LX_AIO_RING_MAGIC   0xa10a10a1u
struct lx_aio_ring {
    uint32_t id, nr, head, tail, magic, compat_features, incompat_features,
             header_length;
};
struct lx_tms { int64_t utime, stime, cutime, cstime; };

struct lx_rusage {
    struct lx_timeval utime, stime;
    int64_t maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock,
            oublock, msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

struct lx_utsname {
    char sysname[65], nodename[65], release[65], version[65], machine[65],
         domainname[65];
};

struct lx_sysinfo {
    int64_t uptime;
    uint64_t loads[3];
    uint64_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
    uint16_t procs, pad;
    uint64_t totalhigh, freehigh;
    uint32_t mem_unit;
    char f[4];                  /* pads to 112 bytes as Linux's */
};

struct lx_sigaction {           /* the kernel's (rt_sigaction) */
    uint64_t handler, flags, restorer, mask;
};
#define LX_SA_SIGINFO   0x4
#define LX_SA_RESTORER  0x04000000
#define LX_SA_NODEFER   0x40000000
#define LX_SA_RESTART   0x10000000
#define LX_SA_RESETHAND 0x80000000u
#define LX_SI_TKILL     (-6)
#define LX_SS_DISABLE   2
#define LX_UC_SIGCONTEXT_SS     2
#define LX_UC_STRICT_RESTORE_SS 4

/* A signal handler's frame (x86-64 Linux's rt_sigframe): what the handler
   gets (rdi the signal, rsi &info, rdx &uc) and rt_sigreturn reads back.
   glibc's ucontext_t and mcontext_t's gregs are these (test_linux_abi). */
struct lx_sigcontext {
    uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
    uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
    uint16_t cs, gs, fs, ss;
    uint64_t err, trapno, oldmask, cr2;
    uint64_t fpstate;           /* its FXSAVE image, 64-byte aligned */
    uint64_t reserved[8];
};

struct lx_ucontext {
    uint64_t flags, link;
    uint64_t ss_sp;             /* uc_stack: the alternate stack, none */
    int32_t ss_flags, pad;
    uint64_t ss_size;
    struct lx_sigcontext mc;
    uint64_t sigmask;           /* the thread's mask before the handler */
};

struct lx_siginfo {             /* 128 bytes; a kill's fields */
    int32_t signo, errno_, code, pad;
    int32_t pid;
    uint32_t uid;
    uint8_t rest[104];
};

/* Timers (setitimer, timer_create). */
#define LX_ITIMER_REAL      0
#define LX_ITIMER_VIRTUAL   1
#define LX_ITIMER_PROF      2
struct lx_itimerval { struct lx_timeval interval, value; };
struct lx_itimerspec { struct lx_timespec interval, value; };
struct lx_sigevent {            /* 64 bytes; the kernel's */
    uint64_t value;
    int32_t signo, notify;
    int32_t tid;                /* SIGEV_THREAD_ID's */
    uint8_t rest[44];
};
#define LX_SIGEV_SIGNAL     0
#define LX_SIGEV_NONE       1
#define LX_SIGEV_THREAD     2
#define LX_SIGEV_THREAD_ID  4

struct lx_rt_sigframe {
    uint64_t pretcode;          /* sa_restorer: the handler returns there */
    struct lx_ucontext uc;
    struct lx_siginfo info;
};

struct lx_termios {             /* the kernel's (TCGETS), NCCS 19 */
    uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
    uint8_t c_line, c_cc[19];
};

struct lx_winsize { uint16_t row, col, xpixel, ypixel; };

struct lx_dirent64 {            /* getdents64's record; the name follows */
    uint64_t ino;
    int64_t off;                /* where the next record starts */
    uint16_t reclen;            /* this one's bytes, a multiple of 8 */
    uint8_t type;               /* DT_DIR 4, DT_REG 8, DT_LNK 10 */
} __attribute__((packed));

#endif
