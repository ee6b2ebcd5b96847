/*
 * A Linux process's futexes (futex(2), docs/LINUX.md): a wait halts its
 * CPU until a wake, a signal or its deadline; a wake ends the waits it
 * matches and says how many.
 *
 * One thread per CPU, so at most one wait per CPU: p->lx_futex[cpu] says
 * which word it waits on (its user address: one address space per
 * process, so a private futex and a shared one are the same) and with
 * which bitset.  Waits and wakes take p->lx_futex_lock.  A wait records
 * itself and then checks the word under the lock; a waker changes the
 * word before it wakes, so a wake that comes between the check and the
 * halt finds the record, marks it woken and kicks the CPU, and the kick,
 * held while interrupts are off, ends the halt at once.
 *
 * A wait halts once per call.  Any interrupt (a kick, its deadline, a
 * timer, CPU 0's quantum) ends the halt and the call leaves through the
 * usual way out, so that the PCT gets CPU 0 when the quantum is over, a
 * stopped thread stops, a process ends.  If the wait is not over, the
 * call is restarted as Linux restarts one: rip back on the syscall, rax
 * the call's number, the record kept with its deadline and any wake that
 * comes meanwhile; the program makes the call again when it runs next
 * and that call carries on with the record.  A signal sent to the thread
 * ends the wait with EINTR; the runtime, which knows the masks and the
 * handlers, makes it again if no handler runs (linux_signal_check tells
 * it the call was interrupted).
 */
#define LOG_PREFIX "linux"
#include "kernel.h"
#include "cpu.h"
#include "lib.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_REQUEUE           3
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_WAKE_OP           5
#define FUTEX_WAIT_BITSET       9
#define FUTEX_WAKE_BITSET       10
#define FUTEX_CMD_MASK          127     /* less PRIVATE_FLAG, CLOCK_REALTIME */
#define FUTEX_CLOCK_REALTIME    256
#define FUTEX_BITSET_MATCH_ANY  0xffffffffu

#define LINUX_EINTR     4
#define LINUX_ENOSYS    38
#define LINUX_ETIMEDOUT 110

#define NR_FUTEX        202
#define SYSCALL_LEN     2               /* 0f 05 */

enum { FX_FREE, FX_WAITING, FX_WOKEN };

/* A wait's deadline in clock_ns() time from its timeout (r10): none,
   FUTEX_WAIT's relative one, or FUTEX_WAIT_BITSET's absolute one on
   CLOCK_MONOTONIC or (FUTEX_CLOCK_REALTIME) CLOCK_REALTIME. */
static long futex_deadline(struct trapframe *tf, int op, uint64_t *deadline)
{
    int64_t ts[2];
    uint64_t ns;

    *deadline = UINT64_MAX;
    if (!tf->r10)
        return 0;
    if (copy_from_user(current, ts, tf->r10, sizeof(ts)) < 0)
        return -EFAULT;
    if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
        return -EINVAL;
    ns = (uint64_t)ts[0] >= UINT64_MAX / 2000000000u ? UINT64_MAX / 2
         : (uint64_t)ts[0] * 1000000000u + (uint64_t)ts[1];
    if (op == FUTEX_WAIT)
        *deadline = clock_ns() + ns;
    else if (tf->rsi & FUTEX_CLOCK_REALTIME)
        *deadline = ns > realtime_base_ns ? ns - realtime_base_ns : 0;
    else
        *deadline = ns;
    return 0;
}

/* With the lock: up to n of the waits on uaddr whose bitset meets
   `bitset` are woken (at least one, as Linux counts); how many. */
static long wake_locked(struct proc *p, uint64_t uaddr, uint32_t bitset,
                        long n)
{
    int me = this_cpu()->id;
    long woken = 0;

    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct lx_futex *f = &p->lx_futex[cpu];

        if (f->state != FX_WAITING || f->addr != uaddr ||
            !(f->bitset & bitset))
            continue;
        f->state = FX_WOKEN;
        if (cpu != me)
            apic_send_ipi(cpus[cpu].apic_id, ICR_FIXED | VEC_KICK);
        if (++woken >= n)
            break;
    }
    return woken;
}

long linux_futex_wake(struct proc *p, uint64_t uaddr, long n)
{
    long woken;

    spin_lock(&p->lx_futex_lock);
    woken = wake_locked(p, uaddr, FUTEX_BITSET_MATCH_ANY, n);
    spin_unlock(&p->lx_futex_lock);
    return woken;
}

/* The wait on this CPU is over with rc, unless a wake came first: then
   it is over with 0, Linux's answer when the waker dequeued it. */
static long wait_end(struct proc *p, struct lx_futex *f, long rc)
{
    spin_lock(&p->lx_futex_lock);
    if (f->state == FX_WOKEN)
        rc = 0;
    f->state = FX_FREE;
    spin_unlock(&p->lx_futex_lock);
    return rc;
}

/* Ended by a signal: -EINTR, and the runtime hears that the call may be
   made again (linux_signal_check): after a handler with SA_RESTART too
   if it had no timeout, as Linux's -ERESTARTSYS and restart block. */
static long interrupted(struct proc *p, int cpu, struct lx_futex *f)
{
    bool untimed = f->deadline == UINT64_MAX;
    long rc = wait_end(p, f, -LINUX_EINTR);

    if (rc == -LINUX_EINTR)
        p->lx_restart[cpu] = untimed ? LWK_LX_RESTART_ANY : LWK_LX_RESTART;
    return rc;
}

/* The wait's result if it is over, else 1. */
static long wait_over(struct proc *p, int cpu, struct lx_futex *f)
{
    if (cpu < LWK_LXRT_CPUS)
        linux_timers_due(p, cpu);       /* a timer's signal, maybe */
    if (__atomic_load_n(&f->state, __ATOMIC_ACQUIRE) == FX_WOKEN)
        return wait_end(p, f, 0);
    if (cpu < LWK_LXRT_CPUS &&
        __atomic_load_n(&p->lx_sigpend[cpu], __ATOMIC_ACQUIRE))
        return interrupted(p, cpu, f);
    if (clock_ns() >= f->deadline)
        return wait_end(p, f, -LINUX_ETIMEDOUT);
    return 1;
}

/* One halt (interrupts off until it), then the result or a restart. */
static long wait_halt(struct trapframe *tf, struct proc *p, int cpu,
                      struct lx_futex *f)
{
    long rc = wait_over(p, cpu, f);

    if (rc <= 0)
        return rc;
    timer_set(TIMER_WAKE, f->deadline == UINT64_MAX ? 0 : f->deadline, NULL);
    irq_enable_and_halt();              /* a kick, a timer, the deadline */
    irq_disable();
    timer_set(TIMER_WAKE, 0, NULL);
    if ((rc = wait_over(p, cpu, f)) <= 0)
        return rc;
    tf->rip -= SYSCALL_LEN;             /* made again when it runs next */
    return NR_FUTEX;                    /* becomes rax */
}

/* FUTEX_WAIT(uaddr, val, timeout) and FUTEX_WAIT_BITSET(uaddr, val,
   timeout, -, bitset): -EAGAIN if the word is not val. */
static long futex_wait(struct trapframe *tf, volatile uint32_t *w, int op)
{
    struct proc *p = current;
    int cpu = this_cpu()->id;
    struct lx_futex *f = &p->lx_futex[cpu];
    uint32_t bitset = op == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY
                                       : (uint32_t)tf->r9;
    uint64_t deadline;
    long rc;

    if (f->state != FX_FREE) {
        if (f->rip == tf->rip)          /* the restarted call: go on */
            return wait_halt(tf, p, cpu, f);
        wait_end(p, f, 0);              /* left behind (a debugger) */
    }
    if (!bitset)
        return -EINVAL;
    if ((rc = futex_deadline(tf, op, &deadline)) < 0)
        return rc;
    spin_lock(&p->lx_futex_lock);
    if (*w != (uint32_t)tf->rdx) {
        spin_unlock(&p->lx_futex_lock);
        return -EAGAIN;
    }
    *f = (struct lx_futex){ .addr = tf->rdi, .deadline = deadline,
                            .rip = tf->rip, .bitset = bitset,
                            .state = FX_WAITING };
    spin_unlock(&p->lx_futex_lock);
    return wait_halt(tf, p, cpu, f);
}

void linux_futex_signalled(struct proc *p, int cpu, struct trapframe *tf)
{
    struct lx_futex *f = &p->lx_futex[cpu];

    if (f->state == FX_FREE)
        return;
    if (tf->rip + SYSCALL_LEN != f->rip) {
        wait_end(p, f, 0);              /* not about to go on: drop it */
        return;
    }
    tf->rip = f->rip;                   /* the call returns now */
    tf->rax = (uint64_t)interrupted(p, cpu, f);
}

/* FUTEX_CMP_REQUEUE(uaddr, nr_wake, nr_requeue, uaddr2, val3) and
   FUTEX_REQUEUE (no compare): nr_wake waits on uaddr woken, up to
   nr_requeue others moved to uaddr2; how many of both, as Linux. */
static long futex_requeue(struct trapframe *tf, volatile uint32_t *w, int op)
{
    struct proc *p = current;
    long woken, moved = 0, nr_wake = (int)tf->rdx, nr_move = (int)tf->r10;

    if (nr_wake < 0 || nr_move < 0)
        return -EINVAL;
    if (!user_ptr(p, tf->r8, 4, true) || (tf->r8 & 3))
        return tf->r8 & 3 ? -EINVAL : -EFAULT;
    spin_lock(&p->lx_futex_lock);
    if (op == FUTEX_CMP_REQUEUE && *w != (uint32_t)tf->r9) {
        spin_unlock(&p->lx_futex_lock);
        return -EAGAIN;
    }
    woken = nr_wake ? wake_locked(p, tf->rdi, FUTEX_BITSET_MATCH_ANY,
                                  nr_wake) : 0;
    for (int cpu = 0; cpu < MAX_CPUS && moved < nr_move; cpu++) {
        struct lx_futex *f = &p->lx_futex[cpu];

        if (f->state == FX_WAITING && f->addr == tf->rdi) {
            f->addr = tf->r8;
            moved++;
        }
    }
    spin_unlock(&p->lx_futex_lock);
    return woken + moved;
}

static int32_t sext12(uint32_t v)
{
    return (int32_t)(v << 20) >> 20;
}

/* FUTEX_WAKE_OP's operation on the word at w2, atomically: old value. */
static long wake_op_apply(volatile uint32_t *w2, uint32_t enc, uint32_t *old)
{
    int op = enc >> 28 & 7;
    int32_t arg = sext12(enc >> 12);
    uint32_t v = __atomic_load_n(w2, __ATOMIC_RELAXED), nv;

    if (enc >> 28 & 8)                  /* FUTEX_OP_OPARG_SHIFT */
        arg = (int32_t)(1u << (arg & 31));
    do {
        switch (op) {
        case 0: nv = (uint32_t)arg; break;              /* SET */
        case 1: nv = v + (uint32_t)arg; break;          /* ADD */
        case 2: nv = v | (uint32_t)arg; break;          /* OR */
        case 3: nv = v & ~(uint32_t)arg; break;         /* ANDN */
        case 4: nv = v ^ (uint32_t)arg; break;          /* XOR */
        default: return -LINUX_ENOSYS;
        }
    } while (!__atomic_compare_exchange_n(w2, &v, nv, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_RELAXED));
    *old = v;
    return 0;
}

static long wake_op_cmp(uint32_t enc, int32_t old)
{
    int32_t arg = sext12(enc);

    switch (enc >> 24 & 15) {
    case 0: return old == arg;
    case 1: return old != arg;
    case 2: return old < arg;
    case 3: return old <= arg;
    case 4: return old > arg;
    case 5: return old >= arg;
    default: return -LINUX_ENOSYS;
    }
}

/* FUTEX_WAKE_OP(uaddr, nr_wake, nr_wake2, uaddr2, op): the operation on
   uaddr2, nr_wake waits on uaddr woken, and nr_wake2 on uaddr2 if the
   old value of uaddr2 passes the comparison. */
static long futex_wake_op(struct trapframe *tf)
{
    struct proc *p = current;
    volatile uint32_t *w2 = user_ptr(p, tf->r8, 4, true);
    uint32_t enc = (uint32_t)tf->r9, old;
    long rc, cmp, woken;

    if (!w2 || (tf->r8 & 3))
        return w2 ? -EINVAL : -EFAULT;
    spin_lock(&p->lx_futex_lock);
    if ((rc = wake_op_apply(w2, enc, &old)) < 0 ||
        (cmp = wake_op_cmp(enc, (int32_t)old)) < 0) {
        spin_unlock(&p->lx_futex_lock);
        return rc < 0 ? rc : -LINUX_ENOSYS;
    }
    woken = wake_locked(p, tf->rdi, FUTEX_BITSET_MATCH_ANY, (int)tf->rdx);
    if (cmp)
        woken += wake_locked(p, tf->r8, FUTEX_BITSET_MATCH_ANY, (int)tf->r10);
    spin_unlock(&p->lx_futex_lock);
    return woken;
}

long linux_futex(struct trapframe *tf)
{
    volatile uint32_t *w = user_ptr(current, tf->rdi, 4, true);
    int op = (int)tf->rsi & FUTEX_CMD_MASK;
    long rc;

    if (!w)
        return -EFAULT;
    if (tf->rdi & 3)
        return -EINVAL;
    switch (op) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET:
        return futex_wait(tf, w, op);
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET:
        if (op == FUTEX_WAKE_BITSET && !(uint32_t)tf->r9)
            return -EINVAL;
        spin_lock(&current->lx_futex_lock);
        rc = wake_locked(current, tf->rdi, op == FUTEX_WAKE ?
                         FUTEX_BITSET_MATCH_ANY : (uint32_t)tf->r9,
                         (int)tf->rdx);
        spin_unlock(&current->lx_futex_lock);
        return rc;
    case FUTEX_REQUEUE:
    case FUTEX_CMP_REQUEUE:
        return futex_requeue(tf, w, op);
    case FUTEX_WAKE_OP:
        return futex_wake_op(tf);
    default:
        return -LINUX_ENOSYS;
    }
}
