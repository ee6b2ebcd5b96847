/* SPDX-License-Identifier: MIT */
/*
 * rt_signal.c: a Linux program's signals (docs/LINUX.md).  Dispositions
 * (rt_sigaction) are the process's; masks and pending sets are each
 * thread's, by the CPU it runs on (one thread per CPU, never moved).
 *
 * Every signal is sent through the kernel (linux_kill, kernel/linux.c),
 * which carries it to its thread's CPU and reflects it here as a call of
 * its own on that thread (LWK_LX_SIGNALS), as it reflects a system call.
 * After every call a thread makes, that one included, one pending signal
 * it does not block is taken (lx_sig_deliver): ignored, the process
 * ended as Linux's default action would (128 + signal: abort() gives
 * 134 and the job ends, as newlib's abort does), or its handler run on
 * that thread: Linux's rt_sigframe goes on the thread's stack and the
 * reflected frame is rewritten so that linux_return enters the handler;
 * the handler returns to glibc's sa_restorer, whose rt_sigreturn puts
 * the saved registers back into the frame it was reflected with.
 */
#include <string.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>

#include "rt.h"

#define CHECK(p, n) do { if (!lx_ok((uint64_t)(p), (uint64_t)(n))) \
                              return -LX_EFAULT; } while (0)
#define BIT(sig)        (1ULL << ((sig) - 1))
#define UNBLOCKABLE     (BIT(LX_SIGKILL) | BIT(LX_SIGSTOP))
#define RED_ZONE        128     /* below rsp, the x86-64 ABI's */
#define RFLAGS_TF_DF    0x500   /* cleared for a handler, as Linux does */

static struct lx_sigaction act[LX_NSIG + 1];
static struct {
    uint64_t blocked, pending;
    uint64_t saved;             /* rt_sigsuspend's caller's mask, */
    int restore;                /* given back after its handler runs */
    int restart;                /* the kernel's LWK_LX_RESTART*, and */
    uint64_t restart_nr;        /* the call it would make again */
} thr[LWK_LXRT_CPUS];

/* The thread whose call is being answered. */
static int self(void)
{
    return (int)(lx_call->cpu & ~LWK_LX_FRESH);
}

static const char *sig_name(int sig)
{
    static const char *const n[] = { [1] = "SIGHUP", "SIGINT", "SIGQUIT",
        "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
        "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM" };
    return sig > 0 && sig < 16 ? n[sig] : "signal";
}

/* No printf here: it would double the runtime the PCT carries. */
void lx_die_by_signal(int sig, const char *why)
{
    char msg[160];
    size_t n = strlen(why);

    memcpy(msg, why, n);
    memcpy(msg + n, " (", 2);
    n += 2;
    strcpy(msg + n, sig_name(sig));
    n += strlen(sig_name(sig));
    msg[n++] = ' ';
    if (sig >= 10)
        msg[n++] = (char)('0' + sig / 10);
    msg[n++] = (char)('0' + sig % 10);
    msg[n++] = ')';
    lwk_sys_abort(128 + sig, (long)msg, (long)n, -1);
    __builtin_unreachable();
}

/* ---- dispositions and masks --------------------------------------------- */

long lx_rt_sigaction(LX_ARGS)
{
    a0 = (int)a0;
    if (a0 < 1 || a0 > LX_NSIG || a3 != 8)
        return -LX_EINVAL;
    CHECK(a1, a1 ? sizeof(struct lx_sigaction) : 0);
    CHECK(a2, a2 ? sizeof(struct lx_sigaction) : 0);
    if (a2)
        *(struct lx_sigaction *)a2 = act[a0];
    if (a1) {
        if (a0 == LX_SIGKILL || a0 == LX_SIGSTOP)
            return -LX_EINVAL;
        act[a0] = *(const struct lx_sigaction *)a1;
    }
    return 0;
}

long lx_rt_sigprocmask(LX_ARGS)
{
    uint64_t set, *blocked = &thr[self()].blocked;

    if (a3 != 8)
        return -LX_EINVAL;
    CHECK(a1, a1 ? 8 : 0);
    CHECK(a2, a2 ? 8 : 0);
    if (a2)
        *(uint64_t *)a2 = *blocked;
    if (!a1)
        return 0;
    set = *(const uint64_t *)a1 & ~UNBLOCKABLE;
    switch ((int)a0) {
    case LX_SIG_BLOCK:   *blocked |= set; break;
    case LX_SIG_UNBLOCK: *blocked &= ~set; break;
    case LX_SIG_SETMASK: *blocked = set; break;
    default:             return -LX_EINVAL;
    }
    return 0;                   /* one it unblocked runs after the call */
}

/* Those sent to the thread (or the process) that it blocks: the others
   ran when they came. */
long lx_rt_sigpending(LX_ARGS)
{
    if (a1 != 8)
        return -LX_EINVAL;
    CHECK(a0, 8);
    *(uint64_t *)a0 = thr[self()].pending & thr[self()].blocked;
    return 0;
}

/* ---- sending: always through the kernel --------------------------------- */

/* tid 0: the calling thread (a signal to the process: Linux gives it to
   any thread that does not block it; here the sender's, which keeps it
   pending while it blocks it). */
static long send(long tid, long sig)
{
    return lx_err(lwk_sys_linux_kill(tid, sig));
}

long lx_kill(LX_ARGS)
{
    if ((int)a0 != 0 && (int)a0 != lxrt.pid)
        return -LX_ESRCH;       /* no other process on the node */
    return send(0, (int)a1);
}

long lx_tkill(LX_ARGS)
{
    return (int)a0 <= 0 ? -LX_EINVAL : send((int)a0, (int)a1);
}

long lx_tgkill(LX_ARGS)
{
    if ((int)a0 <= 0 || (int)a1 <= 0)
        return -LX_EINVAL;
    return (int)a0 == lxrt.pid ? send((int)a1, (int)a2) : -LX_ESRCH;
}

/* sigqueue(3) to itself: glibc's aio tells each completion this way
   (SIGEV_SIGNAL with signal 0 when the aiocb names none: a check that
   the process is there, which must succeed, or aio_error says ENOSYS
   for an operation that was done).  The siginfo is Linux's 128 bytes. */
long lx_rt_sigqueueinfo(LX_ARGS)
{
    CHECK(a2, sizeof(struct lx_siginfo));
    return (int)a0 == lxrt.pid ? send(0, (int)a1) : -LX_ESRCH;
}

long lx_rt_tgsigqueueinfo(LX_ARGS)
{
    CHECK(a3, sizeof(struct lx_siginfo));
    return lx_tgkill(a0, a1, a2, 0, 0, 0);
}

/* ---- taking a signal ---------------------------------------------------- */

void lx_sig_thread(struct lwk_lx_frame *f)
{
    if (f->cpu & LWK_LX_FRESH)  /* a new thread: nothing of the last one's */
        memset(&thr[self()], 0, sizeof(thr[0]));
}

long lx_sig_arrived(struct lwk_lx_frame *f)
{
    thr[self()].pending |= f->arg[0];
    thr[self()].restart = (int)f->arg[1];
    thr[self()].restart_nr = f->arg[2];
    return (long)f->regs.rax;   /* the program goes on as it was */
}

/* The call these signals ended with EINTR is made again, as Linux
   restarts it: rip back on its syscall instruction, rax its number. */
static long again(struct lwk_lx_frame *f, long rax, int when)
{
    int t = self();

    if (thr[t].restart < when)
        return rax;
    f->regs.rip -= 2;
    return (long)thr[t].restart_nr;
}

/* x87 and SSE as a program starts (FCW 0x37F, MXCSR 0x1F80): what a
   handler starts with on Linux, and what a frame without one restores. */
static void fpu_initial(uint8_t *fpu)
{
    memset(fpu, 0, 512);
    fpu[0] = 0x7f;
    fpu[1] = 0x03;
    fpu[24] = 0x80;
    fpu[25] = 0x1f;
}

/* The thread's registers, with rax the result of the call it made. */
static struct lx_sigcontext saved(const struct lwk_lx_frame *f, long rax,
                                  uint64_t fpstate)
{
    return (struct lx_sigcontext){
        .r8 = f->regs.r8, .r9 = f->regs.r9, .r10 = f->regs.r10,
        .r11 = f->regs.r11, .r12 = f->regs.r12, .r13 = f->regs.r13,
        .r14 = f->regs.r14, .r15 = f->regs.r15, .rdi = f->regs.rdi,
        .rsi = f->regs.rsi, .rbp = f->regs.rbp, .rbx = f->regs.rbx,
        .rdx = f->regs.rdx, .rax = (uint64_t)rax, .rcx = f->regs.rcx,
        .rsp = f->regs.rsp, .rip = f->regs.rip, .eflags = f->regs.rflags,
        .cs = 0x33, .ss = 0x2b,  /* Linux's user selectors */
        .fpstate = fpstate,
    };
}

/* Linux's frame on the thread's stack (below its red zone: the FXSAVE
   image 64-aligned, the frame under it so the handler starts as after a
   call), and the reflected frame pointed at the handler. */
static long run_handler(struct lwk_lx_frame *f, int sig, long rax)
{
    struct lx_sigaction *a = &act[sig];
    uint64_t fp = (f->regs.rsp - RED_ZONE - sizeof(f->fpu)) & ~63ULL;
    uint64_t at = ((fp - sizeof(struct lx_rt_sigframe)) & ~15ULL) - 8;
    struct lx_rt_sigframe *fr = (struct lx_rt_sigframe *)at;
    uint64_t *blocked = &thr[self()].blocked;

    if (!(a->flags & LX_SA_RESTORER))
        lx_die_by_signal(sig, "a signal handler without sa_restorer "
                              "(x86-64 Linux needs one)");
    if (!lx_ok(at, fp + sizeof(f->fpu) - at))
        lx_die_by_signal(LX_SIGSEGV, "no room for a signal frame on the "
                                     "thread's stack");
    memcpy((void *)fp, f->fpu, sizeof(f->fpu));
    memset((uint8_t *)fp + 464, 0, 48); /* no XSAVE marks: plain FXSAVE */
    memset(fr, 0, sizeof(*fr));
    fr->pretcode = a->restorer;
    fr->uc.flags = LX_UC_SIGCONTEXT_SS | LX_UC_STRICT_RESTORE_SS;
    fr->uc.ss_flags = LX_SS_DISABLE;
    fr->uc.mc = saved(f, rax, fp);
    fr->uc.sigmask = thr[self()].restore ? thr[self()].saved : *blocked;
    fr->info.signo = sig;
    fr->info.code = LX_SI_TKILL;
    fr->info.pid = (int32_t)lxrt.pid;
    *blocked |= (a->mask | (a->flags & LX_SA_NODEFER ? 0 : BIT(sig))) &
                ~UNBLOCKABLE;
    f->regs.rip = a->handler;
    f->regs.rsp = at;
    f->regs.rdi = (uint64_t)sig;
    f->regs.rsi = (uint64_t)&fr->info;
    f->regs.rdx = (uint64_t)&fr->uc;
    f->regs.rflags &= ~(uint64_t)RFLAGS_TF_DF;
    fpu_initial(f->fpu);
    if (a->flags & LX_SA_RESETHAND)
        a->handler = LX_SIG_DFL;
    return 0;                   /* the handler's rax */
}

static int ignored(int sig)
{
    uint64_t h = act[sig].handler;

    return h == LX_SIG_IGN || (h == LX_SIG_DFL &&
           (sig == LX_SIGCHLD || sig == LX_SIGCONT || sig == LX_SIGURG ||
            sig == LX_SIGWINCH));
}

/* Thread t's pending signals it does not block, the ignored ones
   dropped: what lx_sig_deliver will act on. */
static uint64_t deliverable(int t)
{
    uint64_t ready = thr[t].pending & ~thr[t].blocked;

    for (int sig = 1; sig <= LX_NSIG; sig++)
        if ((ready & BIT(sig)) && ignored(sig))
            thr[t].pending &= ~BIT(sig);
    return thr[t].pending & ~thr[t].blocked;
}

long lx_sig_deliver(struct lwk_lx_frame *f, long rax)
{
    uint64_t ready;
    int t = self(), sig;

    if ((ready = deliverable(t))) {
        sig = __builtin_ctzll(ready) + 1;
        thr[t].pending &= ~BIT(sig);
        if (act[sig].handler == LX_SIG_DFL)
            lx_die_by_signal(sig, "killed by a signal");
        if (act[sig].flags & LX_SA_RESTART)
            rax = again(f, rax, LWK_LX_RESTART_ANY);
        rax = run_handler(f, sig, rax);     /* its frame has saved */
    } else {
        rax = again(f, rax, LWK_LX_RESTART);
        if (thr[t].restore)
            thr[t].blocked = thr[t].saved;
    }
    thr[t].restore = thr[t].restart = 0;
    return rax;
}

/* ---- waiting for one ---------------------------------------------------- */

static uint64_t mono_ns(void)
{
    uint64_t ns = 0;

    lx_clock_ns(LX_CLOCK_MONOTONIC, &ns);
    return ns;
}

long lx_sig_sleep(uint64_t end)
{
    int t = self();
    uint64_t now;

    while (!deliverable(t)) {
        if ((now = mono_ns()) >= end)
            return 0;
        thr[t].pending |= lx_sleep(end - now);
    }
    return -LX_EINTR;
}

/* With the thread's mask `mask` until a signal it does not block comes;
   then its handler runs with the mask as it was (given back when the
   handler returns) and the call returns EINTR, as Linux's. */
static long suspend(uint64_t mask)
{
    int t = self();

    thr[t].saved = thr[t].blocked;
    thr[t].restore = 1;
    thr[t].blocked = mask & ~UNBLOCKABLE;
    while (!deliverable(t))
        thr[t].pending |= lx_sleep(UINT64_MAX);
    return -LX_EINTR;
}

long lx_rt_sigsuspend(LX_ARGS)
{
    if (a1 != 8)
        return -LX_EINVAL;
    CHECK(a0, 8);
    return suspend(*(const uint64_t *)a0);
}

long lx_pause(LX_ARGS)
{
    return suspend(thr[self()].blocked);
}

/* rt_sigtimedwait(set, info, timeout, 8): sigwait, sigwaitinfo and
   sigtimedwait.  A signal of the set is taken (blocked or not, as on
   Linux) and returned; another that runs a handler ends the wait with
   EINTR; the timeout with EAGAIN. */
long lx_rt_sigtimedwait(LX_ARGS)
{
    const struct lx_timespec *ts = (const struct lx_timespec *)a2;
    uint64_t set, end = UINT64_MAX, now;
    int t = self(), sig;

    if (a3 != 8)
        return -LX_EINVAL;
    CHECK(a0, 8);
    CHECK(a1, a1 ? sizeof(struct lx_siginfo) : 0);
    CHECK(a2, a2 ? sizeof(*ts) : 0);
    set = *(const uint64_t *)a0 & ~UNBLOCKABLE;
    if (ts && (ts->tv_sec < 0 || ts->tv_nsec < 0 ||
               ts->tv_nsec >= 1000000000))
        return -LX_EINVAL;
    if (ts)
        end = mono_ns() + lx_ts_ns(ts->tv_sec, ts->tv_nsec);
    for (;;) {
        if (thr[t].pending & set) {
            sig = __builtin_ctzll(thr[t].pending & set) + 1;
            thr[t].pending &= ~BIT(sig);
            if (a1)
                *(struct lx_siginfo *)a1 = (struct lx_siginfo){
                    .signo = sig, .code = LX_SI_TKILL,
                    .pid = (int32_t)lxrt.pid };
            return sig;
        }
        if (deliverable(t) & ~set)
            return -LX_EINTR;           /* its handler runs next */
        if ((now = mono_ns()) >= end)
            return -LX_EAGAIN;
        thr[t].pending |= lx_sleep(end - now);
    }
}

/* The handler returned to sa_restorer, which made this call with rsp at
   the frame's ucontext (the return popped pretcode). */
long lx_rt_sigreturn(LX_ARGS)
{
    struct lwk_lx_frame *f = lx_call;
    const struct lx_ucontext *uc = (const struct lx_ucontext *)f->regs.rsp;
    const struct lx_sigcontext *m = &uc->mc;

    if (!lx_ok((uint64_t)uc, sizeof(*uc)) ||
        (m->fpstate && !lx_ok(m->fpstate, sizeof(f->fpu))))
        lx_die_by_signal(LX_SIGSEGV, "rt_sigreturn without a signal frame "
                                     "on the stack");
    f->regs.r8 = m->r8;   f->regs.r9 = m->r9;   f->regs.r10 = m->r10;
    f->regs.r11 = m->r11; f->regs.r12 = m->r12; f->regs.r13 = m->r13;
    f->regs.r14 = m->r14; f->regs.r15 = m->r15; f->regs.rdi = m->rdi;
    f->regs.rsi = m->rsi; f->regs.rbp = m->rbp; f->regs.rbx = m->rbx;
    f->regs.rdx = m->rdx; f->regs.rcx = m->rcx; f->regs.rsp = m->rsp;
    f->regs.rip = m->rip; f->regs.rflags = m->eflags;
    if (m->fpstate)
        memcpy(f->fpu, (const void *)m->fpstate, sizeof(f->fpu));
    else
        fpu_initial(f->fpu);
    thr[self()].blocked = uc->sigmask & ~UNBLOCKABLE;
    return (long)m->rax;        /* linux_return checks what it restores */
}
