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
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "netdev.h"
#include "panic.h"
#include "portals.h"
#include "printf.h"
#include "proc.h"
#include "timer.h"
#include "x86.h"

#include "ptl_host.h"
#include "ptl_wire.h"

#define USER_TOP        0x0000800000000000ULL
#define ACK_DELAY_US    2000            /* see portals_init */
#define SPIN_US         0               /* see kptl_idle: 50 and 200 measured slower on a shared 2-core TCG host */
#define LOOP_MTU_MAX    9000            /* largest frame (loop queue slots) */
#define LOOP_SLOT_BYTES (PTL_ETH_HLEN + params.mtu)
#define LOOP_BYTES      ((uint64_t)LOOP_SLOTS * LOOP_SLOT_BYTES)

extern uint64_t node_id;

static struct kptl kptls[NPROC];
/* The endpoints in use, packed: every frame, call and timer visits them,
   and a node usually has one or two (the PCT's, an application's). */
static struct kptl *live[NPROC];
static int nlive;
static uint32_t loop_queued;            /* frames in all loop queues */
static struct netdev *nic;
static struct ptl_lib_params params;
static uint8_t own_mac[6];           /* 02:50:<nid> */
static uint64_t rx_unclaimed;           /* frames for no process here */
static uint64_t resets_sent;            /* RESETs answering them (rx_gone) */
static uint64_t rx_version;             /* of another wire version */
static uint64_t rx_flooded;             /* for another node (a switch floods
                                           frames to MACs it has not learnt) */
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

/* ---- finding a process's lib ---------------------------------------------- */

struct kptl *kptl_of(struct proc *p)
{
    for (int i = 0; i < nlive; i++)
        if (live[i]->p == p)
            return live[i];
    return NULL;
}

unsigned kptl_iface(const struct kptl *kp)
{
    return (unsigned)(kp - kptls);
}

static struct kptl *kptl_of_pid(uint32_t pid)
{
    for (int i = 0; i < nlive; i++)
        if (ptl_lib_pid(live[i]->lib) == pid)
            return live[i];
    return NULL;
}

bool kptl_pid_taken(uint32_t pid, const struct kptl *self)
{
    struct kptl *kp = kptl_of_pid(pid);

    return kp && kp != self;
}

struct kptl *kptl_live_nth(int i)
{
    return i < nlive ? live[i] : NULL;
}

/* ---- timers: retransmission, delayed acks --------------------------------- */

/* Tell a process waiting in its library to look again: the counter is
   published at the start of its shared area (kptl_setup reserved it). */
static void wake(struct kptl *kp)
{
    int w;

    kp->wake_seq++;
    __atomic_store_n((uint64_t *)kp->shm, kp->wake_seq, __ATOMIC_RELEASE);
    /* A process halted in ptl_wait on another CPU than the engine's: the
       fence pairs with the waiter's between publishing itself and its
       last look at the counter (kptl_wait_elsewhere). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    w = __atomic_load_n(&kp->waiter_cpu, __ATOMIC_RELAXED);
    if (w >= 0 && w != this_cpu()->id)
        apic_send_ipi(cpus[w].apic_id, ICR_FIXED | VEC_KICK);
}

static void net_timer(void);
static void loop_drain_all(void);

static void arm_timer(void)
{
    uint64_t first = UINT64_MAX;

    for (int i = 0; i < nlive; i++) {
        uint64_t d = ptl_lib_deadline(live[i]->lib);
        first = MIN(first, d);
    }
    timer_set(TIMER_NET, first == UINT64_MAX ? 0 : MAX(first, 1), net_timer);
}

static void net_timer(void)
{
    uint64_t now = clock_ns();

    if (!kptl_on_engine())
        return;                 /* armed before the engine moved away */
    kptl_tx_hold();
    for (int i = 0; i < nlive; i++)
        if (ptl_lib_deadline(live[i]->lib) <= now) {
            ptl_lib_progress(live[i]->lib);
            wake(live[i]);
        }
    loop_drain_all();
    arm_timer();
    kptl_tx_release();
}

void kptl_after_call(void)
{
    loop_drain_all();
    arm_timer();
}

void kptl_tx_hold(void)
{
    if (nic)
        netdev_tx_hold(nic);
}

void kptl_tx_release(void)
{
    if (nic)
        netdev_tx_release(nic);
}

/* ---- the host hooks ------------------------------------------------------- */

static void h_copy_in(void *ctx, void *dst, const void *app, size_t len);

/* ---- loopback: frames to this node never reach the wire ------------------ */

/* The switch does not send a frame back out of the port it came from, so a
   frame to an endpoint of this node is copied into a slot of that
   endpoint's loop queue and delivered (loop_drain_all) once the core call,
   interrupt or timer that sent it is done.  Never at once: the sender may
   be inside its own core, which is not re-entrant, and a core that
   receives a frame may send others (acks, its window's next frames) before
   it has read the payload, so the slot stays taken until the receiver is
   done with it. */

static size_t gather(uint8_t *dst, const struct ptl_iov *iov, int niov,
                     struct kptl *kp)
{
    size_t n = 0;

    for (int i = 0; i < niov; i++) {
        if (iov[i].app)
            h_copy_in(kp, dst + n, iov[i].base, iov[i].len);
        else
            memcpy(dst + n, iov[i].base, iov[i].len);
        n += iov[i].len;
    }
    return n;
}

/* Queue a frame in to's loop queue (it has a free slot). */
static void loop_put(struct kptl *to, const struct ptl_iov *iov, int niov,
                     struct kptl *from)
{
    uint32_t i = (to->loop_head + to->loop_n) % LOOP_SLOTS;

    to->loop_len[i] = (uint32_t)gather(to->loop + (size_t)i * LOOP_SLOT_BYTES,
                                       iov, niov, from);
    to->loop_n++;
    loop_queued++;
}

static int loop_tx(struct kptl *kp, const struct ptl_iov *iov, int niov)
{
    size_t len = 0;
    struct ptl_whdr h;
    const uint8_t *payload;
    struct kptl *to;

    for (int j = 0; j < niov; j++)
        len += iov[j].len;
    if (len > LOOP_SLOT_BYTES || iov[0].len < PTL_FRAME_HLEN)
        return -1;
    /* The header (all in iov[0]) names the receiver; the checksum is the
       receiver's to check. */
    if (ptl_wire_parse(iov[0].base, len, &h, &payload, 1) != 0)
        return 0;               /* cannot happen: lost, as on the wire */
    if (!(to = kptl_of_pid(h.dst_pid))) {
        /* Nobody here: the sender hears so as from the wire (rx). */
        uint8_t f[PTL_FRAME_HLEN];
        struct ptl_iov r = { f, ptl_wire_reset(&h, f), 0 };
        rx_unclaimed++;
        if (r.len && kp->loop_n < LOOP_SLOTS)
            loop_put(kp, &r, 1, kp);
        return 0;
    }
    if (to->loop_n == LOOP_SLOTS)
        return -1;              /* the reliable layer sends it again */
    loop_put(to, iov, niov, kp);
    kp->tx_loop++;
    return 0;
}

/* Deliver kp's queued frames, each from its slot; true if there were any. */
static bool loop_drain(struct kptl *kp)
{
    uint32_t n = kp->loop_n;

    if (n == 0)
        return false;
    while (n--) {
        uint32_t i = kp->loop_head;

        ptl_lib_rx(kp->lib, kp->loop + (size_t)i * LOOP_SLOT_BYTES,
                   kp->loop_len[i]);
        kp->loop_head = (i + 1) % LOOP_SLOTS;
        kp->loop_n--;
        loop_queued--;
    }
    ptl_lib_progress(kp->lib);
    wake(kp);
    return true;
}

/* Deliver what endpoints of this node sent each other, and what that
   causes in turn, for a bounded number of rounds (what is left goes at
   the next call, interrupt or timer: unacked frames keep a timer armed). */
static void loop_drain_all(void)
{
    for (int round = 0; loop_queued && round < 4 * LOOP_SLOTS; round++)
        for (int i = 0; i < nlive; i++)
            loop_drain(live[i]);
}

static int h_tx(void *ctx, const struct ptl_iov *iov, int niov)
{
    struct kptl *kp = ctx;
    struct netdev_seg seg[NETDEV_SEG_MAX];
    int n = 0;

    if (niov < 1 || niov - 1 > NETDEV_SEG_MAX)
        return -1;
    if (memcmp(iov[0].base, own_mac, 6) == 0)
        return loop_tx(kp, iov, niov);
    if (!nic)
        return -1;
    for (int i = 1; i < niov; i++) {
        const void *base = iov[i].base;

        if (!iov[i].len)
            continue;
        if (iov[i].app &&
            !(base = user_ptr(kp->p, (uint64_t)base, iov[i].len, false)))
            return -1;          /* checked at the call: cannot happen */
        seg[n++] = (struct netdev_seg){ base, (uint32_t)iov[i].len };
    }
    /* A full ring (-EAGAIN, after the driver reclaimed what it could) is
       "not sent": the reliable layer sends it again.  No netdev_poll here:
       it would deliver frames into the core we are called from. */
    if (netdev_tx(nic, iov[0].base, iov[0].len, seg, n) < 0)
        return -1;
    kp->tx_nic++;
    return 0;
}

static uint64_t h_now(void *ctx)
{
    (void)ctx;
    return clock_ns();
}

static int h_check(void *ctx, const void *addr, uint64_t len, int how)
{
    struct kptl *kp = ctx;
    uint64_t a = (uint64_t)addr;

    /* An MD lies within the user half, or covers all of memory (start
     * NULL, length PTL_SIZE_MAX, as the spec allows); every operation
     * checks the bytes it really moves. */
    if (how & PTL_CHECK_BIND)
        return (a < USER_TOP && len <= USER_TOP - a) ||
               (a == 0 && len == UINT64_MAX) ? 0 : -1;
    return user_ptr(kp->p, a, len, how & 1) ? 0 : -1;
}

static void h_copy_out(void *ctx, void *app, const void *src, size_t len)
{
    struct kptl *kp = ctx;
    void *d = user_ptr(kp->p, (uint64_t)app, len, true);

    if (d)
        memcpy(d, src, len);
    else
        kp->bad_copies++;
}

static void h_copy_in(void *ctx, void *dst, const void *app, size_t len)
{
    struct kptl *kp = ctx;
    const void *s = user_ptr(kp->p, (uint64_t)app, len, false);

    if (s)
        memcpy(dst, s, len);
    else
        memset(dst, 0, len), kp->bad_copies++;
}

static const void *h_map_app(void *ctx, const void *app, size_t len)
{
    struct kptl *kp = ctx;

    return user_ptr(kp->p, (uint64_t)app, len, false);
}

/* The shared area: first fit over a few extents.  The bookkeeping is kept
   here, not in the area, which the process can write. */
static void *h_shared_alloc(void *ctx, size_t len)
{
    struct kptl *kp = ctx;
    uint64_t off = 0;

    len = ALIGN_UP(len, 64);
    for (;;) {
        bool moved = false;

        for (int i = 0; i < KPTL_SHM_EXTENTS; i++) {
            struct kptl_ext *e = &kp->ext[i];
            if (e->len && off < e->off + e->len && e->off < off + len) {
                off = e->off + e->len;
                moved = true;
            }
        }
        if (!moved)
            break;
    }
    if (off + len > kp->shm_len)
        return NULL;
    for (int i = 0; i < KPTL_SHM_EXTENTS; i++)
        if (!kp->ext[i].len) {
            kp->ext[i] = (struct kptl_ext){ off, len };
            memset(kp->shm + off, 0, len);
            return kp->shm + off;
        }
    return NULL;
}

static void h_shared_free(void *ctx, void *ptr, size_t len)
{
    struct kptl *kp = ctx;
    uint64_t off = (uint64_t)((uint8_t *)ptr - kp->shm);

    (void)len;
    for (int i = 0; i < KPTL_SHM_EXTENTS; i++)
        if (kp->ext[i].len && kp->ext[i].off == off)
            kp->ext[i].len = 0;
}

/* The core blocks only in PtlNIFini (draining); the application's waits are
   in its library, which polls shared memory and calls kptl_wait. */
static int h_wait(void *ctx, uint64_t deadline)
{
    (void)ctx;
    kptl_idle(NULL, 0, deadline);
    return 0;
}

static const struct ptl_host_ops host_ops = {
    .tx = h_tx, .now_ns = h_now, .check = h_check,
    .copy_out = h_copy_out, .copy_in = h_copy_in, .map_app = h_map_app,
    .shared_alloc = h_shared_alloc, .shared_free = h_shared_free,
    .wait = h_wait,
};

uint64_t kptl_shm_uva(const struct kptl *kp, const void *kptr)
{
    return kp->shm_uva + (uint64_t)((const uint8_t *)kptr - kp->shm);
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
    for (int i = 0; i < nlive; i++)
        if (ptl_lib_flush(live[i]->lib))
            sent = true;
    if (sent) {
        loop_drain_all();
        arm_timer();
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
void kptl_idle(struct kptl *kp, uint64_t seen, uint64_t deadline)
{
    uint64_t spin_end = MIN(deadline, clock_ns() + spin_ns);

    if (kp)
        kp->nwaits++;
    kptl_flush();
    do {
        if (nic)
            netdev_poll(nic);
        if (woken(kp, seen))
            return;
    } while (clock_ns() < spin_end);
    if (clock_ns() >= deadline)
        return;
    timer_set(TIMER_WAKE, deadline, NULL);
    if (kp)
        kp->nhalts++;
    irq_enable_and_halt();
    irq_disable();
    timer_set(TIMER_WAKE, 0, NULL);
}

/* ---- receive: demultiplex by destination pid ------------------------------ */

/* A frame for a pid with no endpoint here.  If its sender knew an
   incarnation at that pid (a process that has exited), say that one is
   gone, so the sender fails what it still sends there at once instead of
   resending for the better part of a minute (a yod whose last ACK the
   exiting rank never acknowledged waited out PtlNIFini's 10 s).  A frame
   that knew no incarnation may be early for a process about to start: it
   is dropped and resent, as before.  Only a frame whose checksum holds is
   answered: a corrupted pid must not reset a live process's peer. */
static void rx_gone(const void *frame, size_t len, const struct ptl_whdr *h)
{
    uint8_t f[PTL_FRAME_HLEN];
    size_t n;

    rx_unclaimed++;
    if (ptl_wire_check_csum(frame, len, h) != 0 ||
        (n = ptl_wire_reset(h, f)) == 0)
        return;
    if (netdev_tx(nic, f, n, NULL, 0) == 0)
        resets_sent++;
}

static void rx(void *ctx, const void *frame, size_t len)
{
    struct ptl_whdr h;
    const uint8_t *payload;
    struct kptl *kp;

    (void)ctx;
    switch (ptl_wire_parse(frame, len, &h, &payload, 1)) {
    case 0:
        break;
    case PTL_WIRE_EVERSION:
        /* A station of another build: say so (a mixed segment otherwise
           looks like nodes that do not answer). */
        rx_version++;
        proc_event(PE_WIRE_VERSION, "portals: " PTL_WIRE_REFUSED_FMT
                   " (%lu such frames)", h.src_nid, h.version,
                   PTL_WIRE_VERSION, rx_version);
        return;
    default:
        rx_unclaimed++;
        return;
    }
    if (h.dst_nid != node_id) {
        rx_flooded++;
        return;
    }
    if (!(kp = kptl_of_pid(h.dst_pid))) {
        rx_gone(frame, len, &h);
        return;
    }
    /* The rest once per batch (rx_done): timers, queued frames, wakeups
       and the timer's reprogramming were most of the receive path's work
       per frame. */
    ptl_lib_rx_parsed(kp->lib, frame, len, &h, payload);
    kp->rx_news = true;
}

/* After a batch of received frames (an interrupt's, a poll's). */
static void rx_done(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < nlive; i++)
        if (live[i]->rx_news) {
            live[i]->rx_news = false;
            ptl_lib_progress(live[i]->lib);
            wake(live[i]);
        }
    loop_drain_all();
    arm_timer();
}

/* ---- life cycle ----------------------------------------------------------- */

/* Two endpoints' tables are set aside at boot, the PCT's (it serves yod
   over Portals) and one application's: the PCT hands applications all the
   memory there is, and the usual node runs one application.  Without
   this a program that took the whole node could not open Portals. */
#define SPARES          2

static struct { uint64_t pa, len; } spare[SPARES];

static void give_back(uint64_t pa, uint64_t len)
{
    for (int i = 0; i < SPARES; i++)
        if (!spare[i].pa) {
            spare[i].pa = pa, spare[i].len = len;
            return;
        }
    mem_region_free(pa, len);
}

static bool take_spare(uint64_t *pa, uint64_t *len)
{
    for (int i = 0; i < SPARES; i++)
        if (spare[i].pa) {
            *pa = spare[i].pa, *len = spare[i].len;
            spare[i].pa = 0;
            return true;
        }
    return false;
}

static uint64_t lib_mem;                /* bytes per endpoint */


/* The core's tables and the loopback queue: kernel memory, in the OS's
   chunk while it has room. */
static int lib_mem_alloc(uint64_t *pa, uint64_t *len)
{
    *len = lib_mem;             /* may grow to whole chunks */
    return mem_region_alloc(len, true, pa) < 0 ? -ENOMEM : 0;
}

int kptl_setup(struct proc *p, uint64_t shm_uva, uint64_t shm_len,
               struct kptl **out)
{
    struct kptl *kp = NULL;
    uint64_t pa, len;
    uint8_t *shm;
    int rc;

    if (!nic)
        return -ENODEV;
    if ((*out = kptl_of(p)))    /* PtlInit again: the area stays the one */
        return (*out)->shm_uva == shm_uva ? 0 : -EEXIST;   /* (ptl Area) */
    if (shm_len < 4096 || !(shm = user_ptr(p, shm_uva, shm_len, true)))
        return -EFAULT;
    for (int i = 0; i < NPROC && !kp; i++)
        if (!kptls[i].lib)
            kp = &kptls[i];
    if (!kp)
        return -EBUSY;
    if (!take_spare(&pa, &len) && lib_mem_alloc(&pa, &len) < 0) {
        pr_warn("pid %d: no memory left for its Portals tables (%lu KiB)\n",
                p->pid, lib_mem >> 10);
        return -ENOMEM;
    }
    *kp = (struct kptl){ .p = p, .mem_pa = pa, .mem_len = len, .shm = shm,
                         .shm_uva = shm_uva, .shm_len = shm_len,
                         .waiter_cpu = -1 };
    /* The loopback queue sits after the core's tables, in the same region. */
    kp->loop = (uint8_t *)phys_to_virt(pa) + len - LOOP_BYTES;
    kp->ext[0] = (struct kptl_ext){ 0, 64 };   /* struct lwk_ptl_head */
    _Static_assert(sizeof(struct lwk_ptl_head) <= 64, "ptl head");
    memset(shm, 0, 64);
    /* The engine polls its command ring when it has a CPU of its own. */
    ((struct lwk_ptl_head *)shm)->engine = kptl_engine_cpu != 0;
    params.epoch = (uint32_t)clock_ns() | 1;    /* a new incarnation */
    rc = ptl_lib_create(kptl_iface(kp), &params, &host_ops, kp,
                        phys_to_virt(pa), len - LOOP_BYTES, &kp->lib);
    if (rc != PTL_OK) {
        give_back(pa, len);
        kp->lib = NULL;
        pr_warn("pid %d: cannot create a Portals endpoint (%d)\n", p->pid, rc);
        return -ENOMEM;
    }
    live[nlive++] = kp;
    *out = kp;
    return 0;
}

/* "pid 2: calls Put 1000, MEAppend 1000, ...; waits 2000 (halted 1990)" */
static void log_calls(struct kptl *kp)
{
    char line[512];
    int n = ksnprintf(line, sizeof(line), "pid %d: calls", kp->p->pid);

    for (unsigned op = 0; op < KPTL_NCALLS; op++)
        if (kp->ncalls[op] && n < (int)sizeof(line))
            n += ksnprintf(line + n, sizeof(line) - n, " %s %lu,",
                          ptlcall_name(op), kp->ncalls[op]);
    pr_info("%s waits %lu (halted %lu); by system call %lu, by the "
            "command ring %lu\n", line, kp->nwaits, kp->nhalts, kp->ntraps,
            kp->nring);
}

/* What the endpoint did, for the node log (tests read it). */
static void log_stats(struct kptl *kp)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(kp->lib, &st);
    pr_info("pid %d: frames sent %lu received %lu, retransmitted %lu "
            "(tail-loss probes %lu), duplicates %lu, out of order %lu "
            "(taken beyond a gap %lu), refused (no resources) %lu, bad %lu\n",
            kp->p->pid, st.tx_frames, st.rx_frames, st.rtx_frames,
            st.tx_probes, st.rx_dup, st.rx_ooo, st.rx_early, st.rx_notready,
            st.rx_bad);
    pr_info("pid %d: ACKs carried by other frames %lu; messages dropped "
            "%lu, events lost %lu; NIC lost %lu (net.loss); resets sent "
            "%lu received %lu\n", kp->p->pid, st.acks_carried, st.drops,
            st.eq_dropped, nic ? nic->st.rx_dropped : 0, st.tx_resets,
            st.rx_resets);
    pr_info("node: %lu frames for no process here (%lu answered with a "
            "reset), %lu for other nodes, %lu of another wire version\n",
            rx_unclaimed, resets_sent, rx_flooded, rx_version);

    /* Virtual-node mode's claim, checked by tests/qemu/suite-vnode: what
       went to endpoints of this node never reached the NIC. */
    pr_info("pid %d: frames to this node's endpoints %lu (kernel copy, not "
            "the NIC), to the NIC %lu\n", kp->p->pid, kp->tx_loop,
            kp->tx_nic);
    log_calls(kp);
    /* Each of these is an emulated device access or a wakeup on a
       virtual machine: what a message costs beyond its own code. */
    if (nic)
        pr_info("node: NIC frames sent %lu received %lu, interrupts %lu, "
                "transmit kicks %lu, receive kicks %lu; timer interrupts "
                "%lu, timer programmings %lu\n", nic->st.tx_frames,
                nic->st.rx_frames, nic->st.irqs, nic->st.tx_kicks,
                nic->st.rx_kicks,
                this_cpu()->timer_stats.irqs, this_cpu()->timer_stats.arms);
}

/* The process is gone: no more frames for it, and none of its memory may
   still be in the device's hands when its regions are reused. */
static void release_here(void *arg)
{
    kptl_release(arg);
}

void kptl_release(struct proc *p)
{
    struct kptl *kp = kptl_of(p);
    uint64_t give_up = clock_ns() + 100000000ULL;

    if (!kp)
        return;
    if (!kptl_on_engine()) {
        smp_call(kptl_engine_cpu, release_here, p);
        return;
    }
    /* What the process owes its peers goes before its endpoint does: the
       link ACK of frames it took (delayed up to ack_delay, to ride in a
       reply) and the Portals ACKs it held for the same reason.  Without
       them a peer whose last frame we accepted resends it to nobody. */
    ptl_lib_flush(kp->lib);
    log_stats(kp);
    ptl_lib_destroy(kp->lib);
    kp->lib = NULL;
    for (int i = 0; i < nlive; i++)
        if (live[i] == kp)
            live[i] = live[--nlive];
    loop_queued -= kp->loop_n;          /* frames to it are lost */
    while (nic && !netdev_tx_idle(nic) && clock_ns() < give_up)
        netdev_poll(nic);
    if (nic && !netdev_tx_idle(nic))
        pr_warn("pid %d: NIC still holds its frames after 100 ms\n", p->pid);
    give_back(kp->mem_pa, kp->mem_len);
    if (kp->bad_copies)
        pr_warn("pid %d: %lu copies to memory it no longer had\n", p->pid,
                kp->bad_copies);
    *kp = (struct kptl){ 0 };
    arm_timer();
}

void portals_init(void)
{
    uint8_t mac[6];
    uint64_t window, ack_us, spin_us;

    nic = netdev_get();
    if (!nic) {
        pr_info("no NIC: Portals disabled\n");
        return;
    }
    ptl_lib_params_default(&params);
    params.nid = (ptl_nid_t)node_id;
    params.pid = PTL_PID_ANY;
    params.mtu = MIN(nic->mtu, LOOP_MTU_MAX);
    /* Enough for MPI's posted receives and overflow headers, small enough
       that one endpoint fits beside the kernel in its 2 MB chunk. */
    params.max_entries = 1024;
    params.max_uh = 1024;
    params.max_mds = 256;
    params.max_msgs = 256;
    params.max_peers = 128;
    params.max_trig = 256;
    params.max_cts = 128;
    params.max_eqs = 32;
    /* Most frames in flight per peer (the congestion window adapts below
       it, rel.c).  A vde_switch port (MTU 1500) queues only 10 frames, so
       more than 8 there is only dropped and sent again; vdeplug4's switch
       (the 9000-byte default) and taps take more.  At most 64: the SACK
       bitmap's reach. */
    window = params.mtu > 1500 ? 32 : 8;
    cmdline_get_u64(&kernel_cmdline, "ptl.window", window, &window);
    params.window = window >= 1 && window <= 64 ? (uint32_t)window : 8;
    /* A peer is given up only after ~40 s without progress: TCG nodes
       sharing a loaded host can stall for seconds. */
    params.max_retries = 40;
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
    params.ack_delay_ns = MIN(ack_us, 10000) * 1000;
    params.hold_acks = true;    /* the network timer sends them */
    cmdline_get_u64(&kernel_cmdline, "ptl.spin_us", SPIN_US, &spin_us);
    spin_ns = MIN(spin_us, 10000) * 1000;
    lib_mem = ALIGN_UP(ptl_lib_mem_size(&params) + LOOP_BYTES, PAGE_4K);
    ptl_wire_nid_mac((uint32_t)node_id, mac);
    memcpy(own_mac, mac, 6);
    if (memcmp(mac, nic->mac, 6) != 0)
        pr_info("NIC MAC %02x:%02x:%02x:%02x:%02x:%02x is not nid %lu's; "
                "sending as 02:50:%02x:%02x:%02x:%02x\n", nic->mac[0],
                nic->mac[1], nic->mac[2], nic->mac[3], nic->mac[4],
                nic->mac[5], node_id, mac[2], mac[3], mac[4], mac[5]);
    for (int i = 0; i < SPARES; i++)
        if (lib_mem_alloc(&spare[i].pa, &spare[i].len) < 0)
            pr_warn("no memory for Portals tables set aside at boot\n");
    netdev_set_rx(nic, rx, NULL);
    netdev_set_rx_done(nic, rx_done);
    pr_info("nid %lu on %s, mtu %u, window %u, %lu KiB of tables per "
            "process\n", node_id, nic->name, params.mtu, params.window,
            lib_mem >> 10);
}
