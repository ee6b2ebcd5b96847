/* SPDX-License-Identifier: MIT */
/*
 * signal.c: signals on a compute node.  Nothing sends a process a signal
 * (no other process, no terminal, no timer of its own): a signal happens
 * only when the process raises it itself, with raise() or kill() of its
 * own pid, and is handled there and then.
 *
 * newlib keeps the handler table: signal() sets an entry; raise() runs a
 * handler (resetting the entry to SIG_DFL first, System V style), does
 * nothing for SIG_IGN and calls kill() for SIG_DFL, which ends the
 * process with status 128 + sig, the shell convention the PCT reports.
 * sigaction() puts run_action() in that table and keeps the action it was
 * given, so its handler stays installed unless SA_RESETHAND says
 * otherwise, and a signal raised again inside its handler waits until the
 * handler returns unless SA_NODEFER.  sa_mask and sigprocmask() defer
 * nothing: with no asynchronous delivery there is nothing to block.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "libc_internal.h"

static struct sigaction actions[NSIG];  /* what sigaction installed */
static sigset_t pending;        /* raised again inside their handler */

static void run_action(int sig);

/* The entry of newlib's table (NULL until signal() first runs). */
static _sig_func_ptr disposition(int sig)
{
    struct _reent *r = _REENT;

    return r->_sig_func ? r->_sig_func[sig] : SIG_DFL;
}

/* The entry once sig's handler has returned. */
static _sig_func_ptr after_handler(int sig)
{
    return actions[sig].sa_flags & SA_RESETHAND ? SIG_DFL : run_action;
}

/* The entry while sig's handler runs (no SA_NODEFER): a raise of sig is
   remembered and handled when the handler returns. */
static void defer(int sig)
{
    signal(sig, defer);             /* raise() reset the entry */
    sigaddset(&pending, sig);
}

/* What raise() calls for a handler installed by sigaction. */
static void run_action(int sig)
{
    struct sigaction a = actions[sig];

    signal(sig, a.sa_flags & SA_NODEFER ? after_handler(sig) : defer);
    a.sa_handler(sig);
    if (disposition(sig) == defer)  /* unless the handler changed it */
        signal(sig, after_handler(sig));
    if (sigismember(&pending, sig)) {
        sigdelset(&pending, sig);
        raise(sig);
    }
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    struct sigaction want = act ? *act : (struct sigaction){ 0 };
    _sig_func_ptr cur, fn = want.sa_handler;

    if (sig <= 0 || sig >= NSIG ||
        (act && (sig == SIGKILL || sig == SIGSTOP)))
        return lwk_fail(EINVAL);
    cur = disposition(sig);
    if (cur == defer)               /* asked from inside its handler */
        cur = after_handler(sig);
    if (old && cur == run_action)
        *old = actions[sig];
    else if (old)   /* SIG_DFL, SIG_IGN, or a one-shot handler of signal() */
        *old = (struct sigaction){
            .sa_handler = cur,
            .sa_flags = cur == SIG_DFL || cur == SIG_IGN
                            ? 0 : SA_RESETHAND | SA_NODEFER,
        };
    if (!act)
        return 0;
    actions[sig] = want;
    if (fn != SIG_DFL && fn != SIG_IGN)
        fn = run_action;
    return signal(sig, fn) == SIG_ERR ? -1 : 0;
}

/* A process can signal only itself (pid 0 is its group: itself too). */
int kill(pid_t pid, int sig)
{
    if (sig < 0 || sig >= NSIG)
        return lwk_fail(EINVAL);
    if (pid != 0 && pid != getpid())
        return lwk_fail(ESRCH);
    if (sig == 0)
        return 0;
    if (disposition(sig) == SIG_DFL || sig == SIGKILL || sig == SIGSTOP)
        _exit(128 + sig);
    return raise(sig);      /* runs the handler, or ignores */
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    (void)how;
    (void)set;
    if (old)
        sigemptyset(old);
    return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    return sigprocmask(how, set, old) < 0 ? errno : 0;
}

/* newlib makes the set operations macros; POSIX wants functions too
   (a program may take their address).  The parentheses keep the macros
   out. */
int (sigemptyset)(sigset_t *set)
{
    *set = 0;
    return 0;
}

int (sigfillset)(sigset_t *set)
{
    *set = ~(sigset_t)0;
    return 0;
}

static int bad_signal(int sig)
{
    return sig <= 0 || sig >= NSIG;
}

int (sigaddset)(sigset_t *set, int sig)
{
    if (bad_signal(sig))
        return lwk_fail(EINVAL);
    *set |= (sigset_t)1 << sig;
    return 0;
}

int (sigdelset)(sigset_t *set, int sig)
{
    if (bad_signal(sig))
        return lwk_fail(EINVAL);
    *set &= ~((sigset_t)1 << sig);
    return 0;
}

int (sigismember)(const sigset_t *set, int sig)
{
    if (bad_signal(sig))
        return lwk_fail(EINVAL);
    return (*set >> sig) & 1;
}

/* A thread can signal itself (as raise() does) or test that a thread
   exists (signal 0); another thread runs on its own CPU and cannot be
   interrupted: ENOSYS, as for cancelling one. */
int pthread_kill(pthread_t thread, int sig)
{
    if (sig < 0 || sig >= NSIG)
        return EINVAL;
    if (thread >= PTHREAD_THREADS_MAX || !lwk_threads[thread].used)
        return ESRCH;
    if (thread == pthread_self())
        return sig ? (raise(sig) ? errno : 0) : 0;
    return sig ? ENOSYS : 0;
}

int pthread_cancel(pthread_t thread)
{
    (void)thread;
    return ENOSYS;
}

/* A process group is the process itself (identity.c). */
int killpg(pid_t pgrp, int sig)
{
    return pgrp == getpid() ? kill(0, sig) : lwk_fail(ESRCH);
}

/* Waiting for a signal: none ever comes from outside the process, so
   these would wait for ever; they fail at once instead, as alarm() with
   a handler stops (below). */
int sigsuspend(const sigset_t *mask)
{
    (void)mask;
    return lwk_fail(ENOSYS);
}

int pause(void)
{
    return lwk_fail(ENOSYS);
}

int sigwait(const sigset_t *set, int *sig)
{
    (void)set, (void)sig;
    return ENOSYS;
}

/* Handlers run on the stack of the raise() that runs them: there is no
   alternate stack to switch to (SS_DISABLE, as the Linux personality). */
int sigaltstack(const stack_t *ss, stack_t *old)
{
    (void)ss;
    if (old)
        *old = (stack_t){ .ss_flags = SS_DISABLE };
    return 0;
}

/* No call is ever interrupted by a signal: nothing to choose. */
int siginterrupt(int sig, int flag)
{
    (void)flag;
    return bad_signal(sig) ? lwk_fail(EINVAL) : 0;
}

/*
 * No timer interrupts a process on a node, so SIGALRM never comes.
 * Ignored: nothing was going to happen.  Default action (a watchdog that
 * would end the process): it will not fire; say so once.  A handler: the
 * program waits for a signal that never comes, so it stops here, loudly,
 * rather than spin until the job's time limit.
 */
unsigned alarm(unsigned seconds)
{
    static int warned;
    _sig_func_ptr fn = disposition(SIGALRM);

    if (seconds == 0 || fn == SIG_IGN)
        return 0;
    if (fn == SIG_DFL) {
        if (!warned++)
            fprintf(stderr, "lwk: alarm(%u): a compute node has no timer "
                    "signals; SIGALRM will not come (yod -t limits a "
                    "job's time)\n", seconds);
        return 0;
    }
    fprintf(stderr, "lwk: alarm(%u): a compute node has no timer signals, "
            "so the SIGALRM handler would never run; stopping (time the "
            "work with clock_gettime instead)\n", seconds);
    abort();
}
