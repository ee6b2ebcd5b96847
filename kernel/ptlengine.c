/*
 * The CPU that runs the Portals engine (see include/portals.h).
 *
 * One CPU at a time enters the engine: the portable core is not
 * re-entrant, and neither is the NIC's driver.  In the default mode that
 * is CPU 0, where the NIC's interrupt goes and the main threads run.  In
 * message co-processor mode (node_engine, the PCT's decision) it is
 * another CPU, which polls the NIC and every process's command ring in a
 * loop: an application on CPU 0 posts its Portals calls in memory and
 * spins on memory for their results and its events, so its CPU takes no
 * trap and no interrupt for the network.  Calls that still come by
 * system call to a CPU other than the engine's (the PCT's, a process's
 * setup) are forwarded with smp_call; a process that waits in the kernel
 * there halts until the engine kicks it (portals.c, kptl_wake).
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "netdev.h"
#include "portals.h"
#include "proc.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

int kptl_engine_cpu;

bool kptl_on_engine(void)
{
    return this_cpu()->id == __atomic_load_n(&kptl_engine_cpu,
                                             __ATOMIC_ACQUIRE);
}

/* ---- forwarding ------------------------------------------------------------ */

struct fwd {
    struct proc *p;
    uint64_t op, uargs;
    long rc;
};

static void fwd_call(void *arg)
{
    struct fwd *f = arg;

    f->rc = ptl_syscall(f->p, f->op, f->uargs);
}

long kptl_forward_call(struct proc *p, uint64_t op, uint64_t uargs)
{
    struct fwd f = { p, op, uargs, 0 };

    smp_call(kptl_engine_cpu, fwd_call, &f);
    return f.rc;
}

/* The engine does the work; this CPU halts until it says there is news
   (a kick), the deadline passes, or another interrupt comes. */
void kptl_wait_elsewhere(struct kptl *kp, uint64_t seen, uint64_t deadline)
{
    uint64_t me = 1ULL << this_cpu()->id;

    kptl_flush();               /* held ACKs go before we wait */
    __atomic_fetch_add(&kp->nwaits, 1, __ATOMIC_RELAXED);
    __atomic_fetch_or(&kp->waiters, me, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&kp->wake_seq, __ATOMIC_RELAXED) == seen &&
        clock_ns() < deadline) {
        __atomic_fetch_add(&kp->nhalts, 1, __ATOMIC_RELAXED);
        timer_set(TIMER_WAKE, deadline, NULL);
        irq_enable_and_halt();
        irq_disable();
        timer_set(TIMER_WAKE, 0, NULL);
    }
    __atomic_fetch_and(&kp->waiters, ~me, __ATOMIC_RELAXED);
}

/* The PCT has nothing to do: it sleeps until an interrupt, and when the
   NIC's go to the engine's CPU, until the engine has news for it. */
void kptl_sleep(struct proc *p)
{
    struct kptl *kp = kptl_of(p);

    if (kptl_on_engine() || !kp) {
        kptl_flush();
        irq_enable_and_halt();
        irq_disable();
        return;
    }
    kptl_wait_elsewhere(kp, __atomic_load_n(&kp->wake_seq, __ATOMIC_RELAXED),
                        UINT64_MAX);
}

/* ---- the co-processor loop ------------------------------------------------- */

/* How the engine's loop spends idle time (ptl.engine_spin_us=,
   ptl.engine_nap_us=): it polls for spin_ns after its last piece of
   work, then halts until an interrupt (a frame: the NIC's interrupt comes
   here; a call) or nap_ns, and looks at the command rings again.  A nap
   of 0 polls without end, as a CPU of its own should; on a host with
   fewer cores than the nodes' vCPUs a polling engine starves the
   program's vCPU and the switch (docs/SMP.md has the figures). */
static uint64_t spin_ns, nap_ns;

/* One request from kp's ring, read once from the process's memory and
   run as its system call would be (ptl_call checks every argument).
   True if there was one. */
static bool serve_ring(struct kptl *kp)
{
    struct lwk_ptl_head *h = (void *)kp->shm;
    uint64_t req = __atomic_load_n(&h->cmd.req, __ATOMIC_ACQUIRE);
    uint64_t op, args;

    if (req == kp->cmd_seen)
        return false;
    op = __atomic_load_n(&h->cmd.op, __ATOMIC_RELAXED);
    args = __atomic_load_n(&h->cmd.args, __ATOMIC_RELAXED);
    kp->cmd_seen = req;
    kp->nring++;
    h->cmd.rc = ptl_call(kp->p, op, args);
    __atomic_store_n(&h->cmd.done, req, __ATOMIC_RELEASE);
    return true;
}

static void nap(void)
{
    timer_set(TIMER_WAKE, clock_ns() + nap_ns, NULL);
    irq_enable_and_halt();
    irq_disable();
    timer_set(TIMER_WAKE, 0, NULL);
}

void kptl_engine_run(void)
{
    struct cpu *c = this_cpu();
    struct netdev *nic = netdev_get();
    uint64_t busy = clock_ns(), frames;
    struct kptl *kp;

    kptl_after_call();          /* the network timer, on this CPU now */
    while (__atomic_load_n(&c->engine, __ATOMIC_ACQUIRE)) {
        frames = nic->st.rx_frames + nic->st.tx_frames;
        netdev_poll(nic);
        for (int i = 0; (kp = kptl_live_nth(i)); i++)
            if (serve_ring(kp))
                frames++;
        if (frames != nic->st.rx_frames + nic->st.tx_frames)
            busy = clock_ns();
        /* A window for calls (the PCT's, a stop), the timer and the
           NIC: between iterations the engine holds nothing. */
        cpu_relax();
        irq_window();
        if (nap_ns && clock_ns() - busy > spin_ns)
            nap();
    }
}

/* ---- moving the engine ----------------------------------------------------- */

static void start_here(void *arg)
{
    (void)arg;
    __atomic_store_n(&this_cpu()->engine, true, __ATOMIC_RELEASE);
}

/* On the engine CPU, between two turns of its loop: hand everything back
   to CPU 0 before anyone there may touch it. */
static void stop_here(void *arg)
{
    (void)arg;
    this_cpu()->engine = false;
    timer_set(TIMER_NET, 0, NULL);
    netdev_set_cpu(netdev_get(), 0);
    __atomic_store_n(&kptl_engine_cpu, 0, __ATOMIC_RELEASE);
}

/* From CPU 0 (the PCT), which is the engine or can stop it. */
long kptl_engine_set(int cpu)
{
    struct netdev *nic = netdev_get();
    uint64_t us;

    if (cpu < 0 || cpu >= ncpus)
        return -EINVAL;
    if (!nic)
        return -ENODEV;
    if (cpu == kptl_engine_cpu)
        return 0;
    if (cpu && thread_cpu_given(cpu))
        return -EBUSY;
    if (kptl_engine_cpu) {
        smp_call(kptl_engine_cpu, stop_here, NULL);
        netdev_poll(nic);       /* what came while it moved */
        kptl_after_call();
    }
    if (cpu) {
        cmdline_get_u64(&kernel_cmdline, "ptl.engine_spin_us", 200, &us);
        spin_ns = MIN(us, 1000000) * 1000;
        cmdline_get_u64(&kernel_cmdline, "ptl.engine_nap_us", 0, &us);
        nap_ns = MIN(us, 100000) * 1000;
        timer_set(TIMER_NET, 0, NULL);
        netdev_set_cpu(nic, cpu);
        __atomic_store_n(&kptl_engine_cpu, cpu, __ATOMIC_RELEASE);
        smp_call(cpu, start_here, NULL);
    }
    if (cpu)
        pr_info("engine on CPU %d: it polls the NIC and the command rings "
                "(naps of %lu us after %lu us idle; 0: none)\n", cpu,
                nap_ns / 1000, spin_ns / 1000);
    else
        pr_info("engine on CPU 0\n");
    return 0;
}
