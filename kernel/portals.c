/*
 * The Portals host in the kernel: one Portals "lib" (the portable core in
 * portals/) per process that asks for one, bound to the node's NIC.
 *
 * Data moves between the wire and the process's own regions with no
 * intermediate buffer: a sent frame's payload is a virtio descriptor
 * pointing at the sender's physically contiguous region, and a received
 * payload is copied once, from the receive buffer into the buffer the
 * match chose.  Reception runs in the NIC interrupt, whatever process is
 * running, so messages progress while the application computes.
 *
 * Event queues and counters live in memory the process gave at PtlInit
 * (its own heap): the kernel writes events there and the process reads
 * them without a trap.  The core's tables stay in kernel memory.
 *
 * The kernel is not preemptible and runs with interrupts off except when
 * it idles, so the core needs no lock: it is entered from system calls,
 * from the NIC interrupt and from the network timer, never twice at once,
 * and only on the engine's CPU (ptlengine.c).
 *
 * The host is in parts, each named for what it owns:
 *   portals.c      this file: the node's NIC and the endpoints' parameters
 *                  (portals_init), the network timer, waiting, the FPU
 *                  around the core's SSE part;
 *   ptlendpoint.c  the endpoints: finding one, setting one up, logging what
 *                  it did and releasing it when its process ends;
 *   ptlhost.c      the core's host hooks (sending, copies, the shared area)
 *                  and the NIC's receive path into the core;
 *   ptlloop.c      the loop queues, for frames between endpoints of a node;
 *   ptlcall.c      the `ptl` system call;  ptlengine.c  the engine's CPU.
 * portals_internal.h declares what they share.
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "memlayout.h"
#include "netdev.h"
#include "timer.h"
#include "x86.h"

#include "portals_internal.h"

#define ACK_DELAY_US    2000            /* see portals_init */
#define SPIN_US         0               /* see kptl_idle: 50 and 200 measured slower on a shared 2-core TCG host */
#define LOOP_MTU_MAX    9000            /* largest frame (loop queue slots) */

struct netdev *kptl_nic;
struct ptl_lib_params kptl_params;
uint8_t kptl_own_mac[6];                /* 02:50:<nid> */
static uint64_t spin_ns;                /* see kptl_idle */

/* ---- the SSE part of the core --------------------------------------------- */

/* atomic_ops.c does floating-point atomics with SSE.  The running
   process's FPU state is live in the registers while the kernel runs (it
   is only switched with the process), so every entry saves and restores
   it.  Interrupts are off: these never nest. */
size_t ptl_atomic_dtsize_sse(ptl_datatype_t dt);
bool ptl_atomic_valid_sse(ptl_op_t op, ptl_datatype_t dt, uint64_t len,
                          bool is_swap);
void ptl_atomic_apply_sse(ptl_op_t op, ptl_datatype_t dt, void *dst,
                          const void *src, const void *operand, size_t len);
size_t ptl_atomic_dtsize(ptl_datatype_t dt);
bool ptl_atomic_valid(ptl_op_t op, ptl_datatype_t dt, uint64_t len,
                      bool is_swap);
void ptl_atomic_apply(ptl_op_t op, ptl_datatype_t dt, void *dst,
                      const void *src, const void *operand, size_t len);

static uint8_t fpu_area[512] __attribute__((aligned(16)));

static void fpu_save(void)
{
    fxsave(fpu_area);
}

static void fpu_restore(void)
{
    fxrstor(fpu_area);
}

size_t ptl_atomic_dtsize(ptl_datatype_t dt)
{
    size_t r;

    fpu_save();
    r = ptl_atomic_dtsize_sse(dt);
    fpu_restore();
    return r;
}

bool ptl_atomic_valid(ptl_op_t op, ptl_datatype_t dt, uint64_t len,
                      bool is_swap)
{
    bool r;

    fpu_save();
    r = ptl_atomic_valid_sse(op, dt, len, is_swap);
    fpu_restore();
    return r;
}

void ptl_atomic_apply(ptl_op_t op, ptl_datatype_t dt, void *dst,
                      const void *src, const void *operand, size_t len)
{
    fpu_save();
    ptl_atomic_apply_sse(op, dt, dst, src, operand, len);
    fpu_restore();
}

/* ---- receive paused for a woken process (kptl_rx_pause) ------------------ */

/* How long frames may wait in the NIC's ring for the process that was
   woken to post an entry or wait again (`ptl.rx_defer_us=`; 0: never
   pause): a woken process does so within tens of microseconds; one that
   computes instead delays the rest by this much, well under the ACK
   delay and the retransmission timeouts. */
#define RX_DEFER_US     100

static uint64_t rx_defer_ns;
static uint64_t rx_resume_due;          /* of a pause; 0: none */

void kptl_rx_pause(void)
{
    if (!rx_defer_ns || kptl_nic->rx_paused)
        return;
    netdev_rx_pause(kptl_nic);
    rx_resume_due = clock_ns() + rx_defer_ns;
}

static bool rx_timed;                   /* the network timer bounds a pause */
static void rx_untime(void);

/* Frames wait while paused: the network timer bounds the wait. */
static void rx_held(void *ctx)
{
    (void)ctx;
    rx_timed = true;
    kptl_arm_timer();
}

void kptl_rx_resume(void)
{
    if (kptl_nic && kptl_nic->rx_paused) {
        rx_resume_due = 0;
        netdev_rx_resume(kptl_nic);
    }
    rx_untime();
}

/* ---- timers: retransmission, delayed acks --------------------------------- */

/* Tell a process waiting in its library to look again: the counter is
   published at the start of its shared area (kptl_setup reserved it). */
void kptl_wake(struct kptl *kp)
{
    uint64_t w;

    kp->wake_seq++;
    __atomic_store_n((uint64_t *)kp->shm, kp->wake_seq, __ATOMIC_RELEASE);
    /* Threads of the process halted in ptl_wait on other CPUs than the
       engine's: the fence pairs with each waiter's between publishing
       itself and its last look at the counter (kptl_wait_elsewhere). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    w = __atomic_load_n(&kp->waiters, __ATOMIC_RELAXED) &
        ~(1ULL << this_cpu()->id);
    for (; w; w &= w - 1)
        apic_send_ipi(cpus[__builtin_ctzll(w)].apic_id, ICR_FIXED | VEC_KICK);
}

static void net_timer(void);

/* The network timer's next deadline, 0 if none. */
static uint64_t net_deadline(void)
{
    uint64_t first = UINT64_MAX;

    for (int i = 0; i < kptl_nlive; i++) {
        uint64_t d = ptl_lib_deadline(kptl_live[i]->lib);
        first = MIN(first, d);
    }
    if (kptl_nic && kptl_nic->rx_waiting)
        first = MIN(first, rx_resume_due);
    return first == UINT64_MAX ? 0 : MAX(first, 1);
}

void kptl_arm_timer(void)
{
    timer_set(TIMER_NET, net_deadline(), net_timer);
}

/* A pause ended (its process appended or waited, or the bound passed):
   the LAPIC, armed for the bound, would otherwise fire for nothing ~100
   us later, an interrupt into whatever the node does next.  In MPI's
   64 KiB ping-pong that was once per message: 197 timer interrupts on a
   node in 201 round trips, of which the network timer's were due 6
   times; 39 with this (node log, `tools/cluster log 1`). */
static void rx_untime(void)
{
    if (!rx_timed || (kptl_nic && kptl_nic->rx_waiting))
        return;
    rx_timed = false;
    timer_set_exact(TIMER_NET, net_deadline(), net_timer);
}

static void net_timer(void)
{
    uint64_t now = clock_ns();

    if (!kptl_on_engine())
        return;                 /* armed before the engine moved away */
    kptl_tx_hold();
    if (kptl_nic && kptl_nic->rx_waiting && rx_resume_due <= now)
        kptl_rx_resume();
    for (int i = 0; i < kptl_nlive; i++)
        if (ptl_lib_deadline(kptl_live[i]->lib) <= now) {
            ptl_lib_progress(kptl_live[i]->lib);
            kptl_wake(kptl_live[i]);
        }
    kptl_loop_drain_all();
    kptl_arm_timer();
    kptl_tx_release();
}

void kptl_after_call(void)
{
    kptl_loop_drain_all();
    kptl_arm_timer();
}

void kptl_tx_hold(void)
{
    if (kptl_nic)
        netdev_tx_hold(kptl_nic);
}

void kptl_tx_release(void)
{
    if (kptl_nic)
        netdev_tx_release(kptl_nic);
}

/* ---- waiting -------------------------------------------------------------- */

/* The node is about to wait: ACKs the cores held for a reply to carry
   go now (portals/rel.c hold_ack).  Every wait passes here, so the timer
   is re-armed only when something went (its frames need resending). */
static void flush_here(void *arg)
{
    (void)arg;
    kptl_flush();
}

void kptl_flush(void)
{
    bool sent = false;

    if (!kptl_on_engine()) {
        smp_call(kptl_engine_cpu, flush_here, NULL);
        return;
    }
    for (int i = 0; i < kptl_nlive; i++)
        if (ptl_lib_flush(kptl_live[i]->lib))
            sent = true;
    if (sent) {
        kptl_loop_drain_all();
        kptl_arm_timer();
    }
}

static bool woken(const struct kptl *kp, uint64_t seen)
{
    return kp && kp->wake_seq != seen;
}

/* Wait for news for kp.  First poll the NIC for a short while (spin_ns,
   `ptl.spin_us=`): a frame then lands while we look, with no interrupt to
   take and no halted CPU to wake.  Then sleep until an interrupt (the
   NIC's, the network timer's) or the deadline.  No periodic wakeup: a
   check at every wait found no receive-ring entry without its interrupt
   pending, across runs of the 4-node all-to-all. */
static void idle(struct kptl *kp, uint64_t seen, uint64_t deadline)
{
    uint64_t spin_end = MIN(deadline, clock_ns() + spin_ns);

    kptl_flush();
    do {
        if (kptl_nic)
            netdev_poll(kptl_nic);      /* ends a pause too */
    } while (!woken(kp, seen) && clock_ns() < spin_end);
    rx_untime();                        /* the poll ended any pause */
    if (woken(kp, seen) || clock_ns() >= deadline)
        return;
    timer_set(TIMER_WAKE, deadline, NULL);
    if (kp)
        kp->nhalts++;
    irq_enable_and_halt();
    irq_disable();
    timer_set(TIMER_WAKE, 0, NULL);
}

/* While kp's process sleeps here, news for it ends a receive batch
   (kptl_rx): it runs before the rest is taken in. */
void kptl_idle(struct kptl *kp, uint64_t seen, uint64_t deadline)
{
    if (!kp) {
        idle(kp, seen, deadline);
        return;
    }
    kp->nwaits++;
    kp->idle_here = true;
    idle(kp, seen, deadline);
    kp->idle_here = false;
}

/* One frame from our MAC to our MAC, at boot: the segment's learning
   switch learns our port from it, and drops it (a frame for the port it
   came from goes nowhere).  Until a node has sent something the switch
   sends every frame for it to every port, so the first request to each
   of N fresh nodes woke all N of them: N^2 frames after every boot
   (tools/lwkcluster/switchtable.py).  IEEE 802's second local
   experimental ethertype: not a Portals frame, should one reach a node
   on a hub. */
#define ANNOUNCE_ETHERTYPE  0x88B6

static void announce(const uint8_t mac[6])
{
    static const uint8_t pad[46];       /* Ethernet's minimum frame */
    struct netdev_seg seg = { pad, sizeof(pad) };
    uint8_t h[14];

    memcpy(h, mac, 6);
    memcpy(h + 6, mac, 6);
    h[12] = ANNOUNCE_ETHERTYPE >> 8;
    h[13] = ANNOUNCE_ETHERTYPE & 0xff;
    if (netdev_tx(kptl_nic, h, sizeof(h), &seg, 1) < 0)
        pr_warn("%s: could not announce our MAC to the switch\n",
                kptl_nic->name);
}

void portals_init(void)
{
    uint8_t mac[6];
    uint64_t window, ack_us, spin_us, defer_us, lib_mem;

    kptl_nic = netdev_get();
    if (!kptl_nic) {
        pr_info("no NIC: Portals disabled\n");
        return;
    }
    ptl_lib_params_default(&kptl_params);
    kptl_params.nid = (ptl_nid_t)node_id;
    kptl_params.pid = PTL_PID_ANY;
    kptl_params.mtu = MIN(kptl_nic->mtu, LOOP_MTU_MAX);
    /* Enough for MPI's posted receives and overflow headers, small enough
       that one endpoint fits beside the kernel in its 2 MB chunk. */
    kptl_params.max_entries = 1024;
    kptl_params.max_uh = 1024;
    kptl_params.max_mds = 256;
    kptl_params.max_msgs = 256;
    kptl_params.max_peers = 128;
    kptl_params.max_trig = 256;
    kptl_params.max_cts = 128;
    kptl_params.max_eqs = 32;
    /* Most frames in flight per peer (the congestion window adapts below
       it, rel.c).  A vde_switch port (MTU 1500) queues only 10 frames, so
       more than 8 there is only dropped and sent again; vdeplug4's switch
       (the 9000-byte default) and taps take more.  At most 64: the SACK
       bitmap's reach. */
    window = kptl_params.mtu > 1500 ? 32 : 8;
    cmdline_get_u64(&kernel_cmdline, "ptl.window", window, &window);
    kptl_params.window = window >= 1 && window <= 64 ? (uint32_t)window : 8;
    /* A peer is given up only after ~40 s without progress: TCG nodes
       sharing a loaded host can stall for seconds. */
    kptl_params.max_retries = 40;
    /* How long a received frame's link ACK may wait for data going back
       to carry it while the process computes (when it waits, the ACK goes
       at once: ptl_lib_flush).  An application here needs tens of
       microseconds to wake and answer (more under TCG), so the core's
       20 us default sent a separate ACK frame for nearly every message.
       Every deadline that is earlier than the armed one reprograms the
       LAPIC, and a carried ACK leaves it armed to fire for nothing: at
       250 us a ping-pong took 0.7 timer interrupts and 1.3 programmings
       per round trip on each node, each an emulated device access or a
       wakeup of the host's threads; at 2 ms, 0.1 and 0.2. */
    cmdline_get_u64(&kernel_cmdline, "ptl.ack_us", ACK_DELAY_US, &ack_us);
    kptl_params.ack_delay_ns = MIN(ack_us, 10000) * 1000;
    kptl_params.hold_acks = true;       /* the network timer sends them */
    cmdline_get_u64(&kernel_cmdline, "ptl.spin_us", SPIN_US, &spin_us);
    spin_ns = MIN(spin_us, 10000) * 1000;
    cmdline_get_u64(&kernel_cmdline, "ptl.rx_defer_us", RX_DEFER_US,
                    &defer_us);
    rx_defer_ns = MIN(defer_us, 1000000) * 1000;
    lib_mem = ALIGN_UP(ptl_lib_mem_size(&kptl_params) + LOOP_BYTES, PAGE_4K);
    ptl_wire_nid_mac((uint32_t)node_id, mac);
    memcpy(kptl_own_mac, mac, 6);
    if (memcmp(mac, kptl_nic->mac, 6) != 0)
        pr_info("NIC MAC %02x:%02x:%02x:%02x:%02x:%02x is not nid %lu's; "
                "sending as 02:50:%02x:%02x:%02x:%02x\n", kptl_nic->mac[0],
                kptl_nic->mac[1], kptl_nic->mac[2], kptl_nic->mac[3],
                kptl_nic->mac[4], kptl_nic->mac[5], node_id, mac[2], mac[3],
                mac[4], mac[5]);
    kptl_endpoints_init(lib_mem);
    netdev_set_rx(kptl_nic, kptl_rx, NULL);
    netdev_set_rx_done(kptl_nic, kptl_rx_done);
    netdev_set_rx_held(kptl_nic, rx_held);
    announce(mac);
    pr_info("nid %lu on %s, mtu %u, window %u, %lu KiB of tables per "
            "process\n", node_id, kptl_nic->name, kptl_params.mtu,
            kptl_params.window, lib_mem >> 10);
}
