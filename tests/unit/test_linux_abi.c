/*
 * The Linux personality's one list (kernel/include/uapi/linux.def) and
 * the runtime's Linux ABI (lxrt/lx_abi.h) against the host's own
 * headers: every number is the host's SYS_<name>, every errno, flag and
 * structure layout the host's (docs/LINUX.md).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/futex.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/ucontext.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <cmocka.h>

#include "../../lxrt/lx_abi.h"

static void every_number_is_the_hosts(void **s)
{
    int n = 0;
    (void)s;
#define LINUX(nr, name, class) \
    assert_int_equal(nr, SYS_##name); n++;
#include "uapi/linux.def"
#undef LINUX
    assert_true(n > 60);
}

/* Numbers only once, below LWK_SYSCALL_BASE. */
static void numbers_unique_and_below_the_base(void **s)
{
    static const int nrs[] = {
#define LINUX(nr, name, class) nr,
#include "uapi/linux.def"
#undef LINUX
    };
    (void)s;
    for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
        assert_true(nrs[i] >= 0 && nrs[i] < 0x1000);
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(nrs[i], nrs[j]);
    }
}

static void errnos_are_the_hosts(void **s)
{
    (void)s;
#define CHECK_ERRNO(name, v) assert_int_equal(v, name);
    LX_ERRNO_LIST(CHECK_ERRNO)
#undef CHECK_ERRNO
    /* kernel/linux.c returns the kernel's own EPERM, EFAULT and EINVAL
       (uapi/errno.h: 1, 14, 22) to Linux programs, and 38 for ENOSYS. */
    assert_int_equal(EPERM, 1);
    assert_int_equal(EFAULT, 14);
    assert_int_equal(EINVAL, 22);
    assert_int_equal(ENOSYS, 38);
}

static void flags_are_the_hosts(void **s)
{
    (void)s;
    assert_int_equal(LX_O_ACCMODE, O_ACCMODE);
    assert_int_equal(LX_O_CREAT, O_CREAT);
    assert_int_equal(LX_O_EXCL, O_EXCL);
    assert_int_equal(LX_O_NOCTTY, O_NOCTTY);
    assert_int_equal(LX_O_TRUNC, O_TRUNC);
    assert_int_equal(LX_O_APPEND, O_APPEND);
    assert_int_equal(LX_O_NONBLOCK, O_NONBLOCK);
    assert_int_equal(LX_O_DSYNC, O_DSYNC);
    assert_int_equal(LX_O_DIRECTORY, O_DIRECTORY);
    assert_int_equal(LX_O_NOFOLLOW, O_NOFOLLOW);
    assert_int_equal(LX_O_CLOEXEC, O_CLOEXEC);
    assert_int_equal(LX_O_SYNC, O_SYNC);
    assert_int_equal(LX_AT_FDCWD, AT_FDCWD);
    assert_int_equal(LX_AT_SYMLINK_NOFOLLOW, AT_SYMLINK_NOFOLLOW);
    assert_int_equal(LX_AT_REMOVEDIR, AT_REMOVEDIR);
    assert_int_equal(LX_AT_EMPTY_PATH, AT_EMPTY_PATH);
    assert_int_equal(LX_F_DUPFD, F_DUPFD);
    assert_int_equal(LX_F_GETFD, F_GETFD);
    assert_int_equal(LX_F_SETFD, F_SETFD);
    assert_int_equal(LX_F_GETFL, F_GETFL);
    assert_int_equal(LX_F_SETFL, F_SETFL);
    assert_int_equal(LX_F_DUPFD_CLOEXEC, F_DUPFD_CLOEXEC);
    assert_int_equal(LX_FD_CLOEXEC, FD_CLOEXEC);
    assert_int_equal(LX_TCGETS, TCGETS);
    assert_int_equal(LX_TIOCGWINSZ, TIOCGWINSZ);
    assert_int_equal(LX_MAP_SHARED, MAP_SHARED);
    assert_int_equal(LX_MAP_PRIVATE, MAP_PRIVATE);
    assert_int_equal(LX_MAP_FIXED, MAP_FIXED);
    assert_int_equal(LX_MAP_ANONYMOUS, MAP_ANONYMOUS);
    assert_int_equal(LX_MAP_FIXED_NOREPLACE, MAP_FIXED_NOREPLACE);
    assert_int_equal(LX_MREMAP_MAYMOVE, MREMAP_MAYMOVE);
    assert_int_equal(LX_MREMAP_FIXED, MREMAP_FIXED);
    assert_int_equal(LX_MADV_DONTNEED, MADV_DONTNEED);
    assert_int_equal(LX_CLOCK_REALTIME, CLOCK_REALTIME);
    assert_int_equal(LX_CLOCK_MONOTONIC, CLOCK_MONOTONIC);
    assert_int_equal(LX_CLOCK_PROCESS_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID);
    assert_int_equal(LX_CLOCK_THREAD_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID);
    assert_int_equal(LX_CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC_RAW);
    assert_int_equal(LX_CLOCK_REALTIME_COARSE, CLOCK_REALTIME_COARSE);
    assert_int_equal(LX_CLOCK_MONOTONIC_COARSE, CLOCK_MONOTONIC_COARSE);
    assert_int_equal(LX_CLOCK_BOOTTIME, CLOCK_BOOTTIME);
    assert_int_equal(LX_TIMER_ABSTIME, TIMER_ABSTIME);
    assert_int_equal(LX_RLIMIT_DATA, RLIMIT_DATA);
    assert_int_equal(LX_RLIMIT_STACK, RLIMIT_STACK);
    assert_int_equal(LX_RLIMIT_NOFILE, RLIMIT_NOFILE);
    assert_int_equal(LX_RLIMIT_AS, RLIMIT_AS);
    assert_true(LX_RLIM_INFINITY == (unsigned long long)RLIM_INFINITY);
    assert_int_equal(LX_SIGABRT, SIGABRT);
    assert_int_equal(LX_SIGCHLD, SIGCHLD);
    assert_int_equal(LX_SIGCONT, SIGCONT);
    assert_int_equal(LX_SIGURG, SIGURG);
    assert_int_equal(LX_SIGWINCH, SIGWINCH);
    assert_int_equal(LX_SIGALRM, SIGALRM);
    assert_int_equal(LX_ITIMER_REAL, ITIMER_REAL);
    assert_int_equal(LX_ITIMER_VIRTUAL, ITIMER_VIRTUAL);
    assert_int_equal(LX_ITIMER_PROF, ITIMER_PROF);
    assert_int_equal(LX_SIGEV_SIGNAL, SIGEV_SIGNAL);
    assert_int_equal(LX_SIGEV_NONE, SIGEV_NONE);
    assert_int_equal(LX_SIGEV_THREAD, SIGEV_THREAD);
    assert_int_equal(LX_SIGEV_THREAD_ID, SIGEV_THREAD_ID);
    assert_int_equal(LX_SIG_BLOCK, SIG_BLOCK);
    assert_int_equal(LX_SIG_UNBLOCK, SIG_UNBLOCK);
    assert_int_equal(LX_SIG_SETMASK, SIG_SETMASK);
    assert_int_equal(LX_SIGKILL, SIGKILL);
    assert_int_equal(LX_SIGSEGV, SIGSEGV);
    assert_int_equal(LX_SIGSTOP, SIGSTOP);
    assert_int_equal(LX_SA_SIGINFO, SA_SIGINFO);
    assert_int_equal(LX_SA_RESTORER, 0x04000000);  /* glibc hides it */
    assert_int_equal(LX_SA_NODEFER, SA_NODEFER);
    assert_int_equal(LX_SA_RESTART, SA_RESTART);
    assert_int_equal(LX_SA_RESETHAND, SA_RESETHAND);
    assert_int_equal(LX_SI_TKILL, SI_TKILL);
    assert_int_equal(LX_SS_DISABLE, SS_DISABLE);
    assert_true((void (*)(int))LX_SIG_IGN == SIG_IGN);
    assert_true((void (*)(int))LX_SIG_DFL == SIG_DFL);
    assert_int_equal(LX_FUTEX_WAIT, FUTEX_WAIT);
    assert_int_equal(LX_FUTEX_WAKE, FUTEX_WAKE);
    assert_int_equal(LX_S_IFMT, S_IFMT);
    assert_int_equal(LX_S_IFLNK, S_IFLNK);
}

#define SAME(lx, host, f1, f2) do {                                     \
        assert_int_equal(sizeof(struct lx), sizeof(struct host));       \
        assert_int_equal(offsetof(struct lx, f1), offsetof(struct host, f2)); \
    } while (0)

/* struct lx_stat is the kernel's, which glibc's struct stat is on x86-64. */
static void layouts_are_the_hosts(void **s)
{
    (void)s;
    SAME(lx_stat, stat, st_mode, st_mode);
    assert_int_equal(offsetof(struct lx_stat, st_size), offsetof(struct stat, st_size));
    assert_int_equal(offsetof(struct lx_stat, st_blocks), offsetof(struct stat, st_blocks));
    assert_int_equal(offsetof(struct lx_stat, st_mtime_sec), offsetof(struct stat, st_mtim));
    assert_int_equal(offsetof(struct lx_stat, st_ctime_nsec),
                     offsetof(struct stat, st_ctim) + 8);
    SAME(lx_statx, statx, mode, stx_mode);
    assert_int_equal(offsetof(struct lx_statx, blocks), offsetof(struct statx, stx_blocks));
    assert_int_equal(offsetof(struct lx_statx, mtime), offsetof(struct statx, stx_mtime));
    assert_int_equal(offsetof(struct lx_statx, dev_minor), offsetof(struct statx, stx_dev_minor));
    SAME(lx_statx_time, statx_timestamp, tv_nsec, tv_nsec);
    assert_int_equal(LX_STATX_BASIC_STATS, STATX_BASIC_STATS);
    SAME(lx_timespec, timespec, tv_nsec, tv_nsec);
    SAME(lx_timeval, timeval, tv_usec, tv_usec);
    SAME(lx_iovec, iovec, len, iov_len);
    SAME(lx_rlimit, rlimit, max, rlim_max);
    /* Linux's native AIO: the iocb and event io_submit and io_getevents
       read and write */
    SAME(lx_iocb, iocb, aio_fildes, aio_fildes);
    assert_int_equal(offsetof(struct lx_iocb, aio_key), offsetof(struct iocb, aio_key));
    assert_int_equal(offsetof(struct lx_iocb, aio_rw_flags), offsetof(struct iocb, aio_rw_flags));
    assert_int_equal(offsetof(struct lx_iocb, aio_lio_opcode), offsetof(struct iocb, aio_lio_opcode));
    assert_int_equal(offsetof(struct lx_iocb, aio_offset), offsetof(struct iocb, aio_offset));
    assert_int_equal(offsetof(struct lx_iocb, aio_reserved2), offsetof(struct iocb, aio_reserved2));
    assert_int_equal(offsetof(struct lx_iocb, aio_resfd), offsetof(struct iocb, aio_resfd));
    SAME(lx_io_event, io_event, res, res);
    assert_int_equal(offsetof(struct lx_io_event, res2), offsetof(struct io_event, res2));
    assert_int_equal(LX_IOCB_CMD_PREAD, IOCB_CMD_PREAD);
    assert_int_equal(LX_IOCB_CMD_PWRITE, IOCB_CMD_PWRITE);
    assert_int_equal(LX_IOCB_CMD_FSYNC, IOCB_CMD_FSYNC);
    assert_int_equal(LX_IOCB_CMD_FDSYNC, IOCB_CMD_FDSYNC);
    assert_int_equal(LX_IOCB_CMD_PREADV, IOCB_CMD_PREADV);
    assert_int_equal(LX_IOCB_CMD_PWRITEV, IOCB_CMD_PWRITEV);
    assert_int_equal(LX_IOCB_FLAG_RESFD, IOCB_FLAG_RESFD);
    assert_int_equal(LX_EINPROGRESS, EINPROGRESS);
    SAME(lx_tms, tms, cstime, tms_cstime);
    SAME(lx_rusage, rusage, maxrss, ru_maxrss);
    assert_int_equal(offsetof(struct lx_rusage, nivcsw), offsetof(struct rusage, ru_nivcsw));
    SAME(lx_utsname, utsname, machine, machine);
    SAME(lx_sysinfo, sysinfo, mem_unit, mem_unit);
    assert_int_equal(offsetof(struct lx_sysinfo, procs), offsetof(struct sysinfo, procs));
    assert_int_equal(offsetof(struct lx_sysinfo, totalhigh), offsetof(struct sysinfo, totalhigh));
    SAME(lx_winsize, winsize, col, ws_col);
    /* The kernel's termios (TCGETS) is glibc's without its two speeds. */
    assert_int_equal(sizeof(struct lx_termios), 36);
    assert_int_equal(offsetof(struct lx_termios, c_cc), offsetof(struct termios, c_cc));
    /* getdents64's record (the node's /proc listings): the name at 19 */
    assert_int_equal(sizeof(struct lx_dirent64), offsetof(struct dirent64, d_name));
    assert_int_equal(offsetof(struct lx_dirent64, reclen), offsetof(struct dirent64, d_reclen));
    assert_int_equal(offsetof(struct lx_dirent64, type), offsetof(struct dirent64, d_type));
    assert_int_equal(DT_DIR, 4);
    assert_int_equal(DT_REG, 8);
    assert_int_equal(DT_LNK, 10);
    /* A signal handler's frame (lxrt/rt_signal.c): glibc's ucontext_t
       begins as the kernel's, its gregs are the sigcontext's registers
       in order, then the fpstate pointer; siginfo's kill fields. */
    assert_int_equal(offsetof(struct lx_ucontext, mc), offsetof(ucontext_t, uc_mcontext));
    assert_int_equal(offsetof(struct lx_ucontext, ss_flags),
                     offsetof(ucontext_t, uc_stack.ss_flags));
    assert_int_equal(offsetof(struct lx_ucontext, ss_size),
                     offsetof(ucontext_t, uc_stack.ss_size));
    assert_int_equal(offsetof(struct lx_sigcontext, r8), REG_R8 * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, rdi), REG_RDI * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, rax), REG_RAX * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, rsp), REG_RSP * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, rip), REG_RIP * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, eflags), REG_EFL * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, cs), REG_CSGSFS * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, cr2), REG_CR2 * 8);
    assert_int_equal(offsetof(struct lx_sigcontext, fpstate), offsetof(mcontext_t, fpregs));
    assert_int_equal(sizeof(struct lx_sigcontext), sizeof(mcontext_t));
    assert_int_equal(offsetof(struct lx_ucontext, sigmask), offsetof(ucontext_t, uc_sigmask));
    assert_int_equal(sizeof(struct lx_siginfo), sizeof(siginfo_t));
    assert_int_equal(offsetof(struct lx_siginfo, code), offsetof(siginfo_t, si_code));
    assert_int_equal(offsetof(struct lx_siginfo, pid), offsetof(siginfo_t, si_pid));
    assert_int_equal(offsetof(struct lx_siginfo, uid), offsetof(siginfo_t, si_uid));
    /* setitimer's and timer_settime's: the interval first, then the
       value; timer_create's sigevent (_sigev_un._tid is glibc's
       name for the kernel's tid). */
    SAME(lx_itimerval, itimerval, value, it_value);
    SAME(lx_itimerspec, itimerspec, value, it_value);
    SAME(lx_sigevent, sigevent, signo, sigev_signo);
    assert_int_equal(offsetof(struct lx_sigevent, notify), offsetof(struct sigevent, sigev_notify));
    assert_int_equal(offsetof(struct lx_sigevent, tid),
                     offsetof(struct sigevent, _sigev_un._tid));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_number_is_the_hosts),
        cmocka_unit_test(numbers_unique_and_below_the_base),
        cmocka_unit_test(errnos_are_the_hosts),
        cmocka_unit_test(flags_are_the_hosts),
        cmocka_unit_test(layouts_are_the_hosts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
