/*
 * The kernel as the Portals core's host (portals/include/ptl_host.h), and
 * the NIC's receive path into the core (see portals.c).
 *
 * Hooks: a frame goes to the NIC as a scatter list whose payload segments
 * point into the sender's own region (zero copy), or to the loop queue
 * when it is for this node (ptlloop.c); copies in and out of a process
 * check its regions; the shared area (event queues, counters) is carved
 * here, its bookkeeping out of the process's reach.  Receive: frames are
 * demultiplexed by destination pid and handed to that endpoint's core in
 * the NIC interrupt (or the engine's poll); the rest of the work is done
 * once per batch.
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "netdev.h"
#include "timer.h"

#include "portals_internal.h"

#define USER_TOP        0x0000800000000000ULL

uint64_t kptl_rx_unclaimed;             /* frames for no process here */
static uint64_t resets_sent;            /* RESETs answering them (rx_gone) */
static uint64_t acks_gone;              /* bare ACKs for no process here */
static uint64_t rx_version;             /* of another wire version */
static uint64_t rx_flooded;             /* for another node (a switch floods
                                           frames to MACs it has not learnt) */

/* ---- the host hooks ------------------------------------------------------- */

static int h_tx(void *ctx, const struct ptl_iov *iov, int niov)
{
    struct kptl *kp = ctx;
    struct netdev_seg seg[NETDEV_SEG_MAX];
    int n = 0;

    if (niov < 1 || niov - 1 > NETDEV_SEG_MAX)
        return -1;
    if (memcmp(iov[0].base, kptl_own_mac, 6) == 0)
        return kptl_loop_tx(kp, iov, niov);
    if (!kptl_nic)
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
    if (netdev_tx(kptl_nic, iov[0].base, iov[0].len, seg, n) < 0)
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

void kptl_copy_in(void *ctx, void *dst, const void *app, size_t len)
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

const struct ptl_host_ops kptl_host_ops = {
    .tx = h_tx, .now_ns = h_now, .check = h_check,
    .copy_out = h_copy_out, .copy_in = kptl_copy_in, .map_app = h_map_app,
    .shared_alloc = h_shared_alloc, .shared_free = h_shared_free,
    .wait = h_wait,
};

uint64_t kptl_shm_uva(const struct kptl *kp, const void *kptr)
{
    return kp->shm_uva + (uint64_t)((const uint8_t *)kptr - kp->shm);
}

/* ---- receive: demultiplex by destination pid ------------------------------ */

/* A frame for a pid with no endpoint here.  If its sender knew an
   incarnation at that pid (a process that has exited), say that one is
   gone, so the sender fails what it still sends there at once instead of
   resending for the better part of a minute (a yod whose last ACK the
   exiting rank never acknowledged waited out PtlNIFini's 10 s).  A frame
   that knew no incarnation may be early for a process about to start: it
   is dropped and resent, as before.  Only a frame whose checksum holds is
   answered: a corrupted pid must not reset a live process's peer.  A
   bare ACK is never resent and needs no answer: one that reaches a
   process just gone (its peer answering a last frame, or a duplicate it
   sent) is counted apart. */
static void rx_gone(const void *frame, size_t len, const struct ptl_whdr *h)
{
    uint8_t f[PTL_FRAME_HMAX];
    size_t n;

    if (h->type == PTL_W_LACK) {
        acks_gone++;
        return;
    }
    kptl_rx_unclaimed++;
    if (ptl_wire_check_csum(frame, len, h) != 0 ||
        (n = ptl_wire_reset(h, f, kptl_reset_key(frame, h))) == 0)
        return;
    if (netdev_tx(kptl_nic, f, n, NULL, 0) == 0)
        resets_sent++;
}

/* The key to sign a RESET that answers frame h with: the node's, if h
   was signed with it (PROTOCOL.md 2.3), else none. */
const uint64_t *kptl_reset_key(const void *frame, const struct ptl_whdr *h)
{
    return kptl_params.auth &&
           ptl_wire_signed(kptl_params.auth_key, frame, h) ?
           kptl_params.auth_key : NULL;
}

void kptl_rx(void *ctx, const void *frame, size_t len)
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
        kptl_rx_unclaimed++;
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
    /* The rest once per batch (kptl_rx_done): timers, queued frames, wakeups
       and the timer's reprogramming were most of the receive path's work
       per frame. */
    uint64_t seen = ptl_lib_changes(kp->lib);
    ptl_lib_rx_parsed(kp->lib, frame, len, &h, payload);
    kp->rx_news = true;
    /* Its process sleeps for news and now has some (an event, a counter):
       it runs before the rest of the batch is taken in.  In a ping-pong
       the ACK that ends its send comes just ahead of the answer's frames;
       taking them all first made the answer arrive before the process
       could post its receive (an eager one then copied out of an overflow
       buffer, a long one fetched with a Get). */
    if (kp->idle_here && ptl_lib_changes(kp->lib) != seen)
        kptl_rx_pause();
}

/* After a batch of received frames (an interrupt's, a poll's). */
void kptl_rx_done(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < kptl_nlive; i++)
        if (kptl_live[i]->rx_news) {
            kptl_live[i]->rx_news = false;
            ptl_lib_progress(kptl_live[i]->lib);
            kptl_wake(kptl_live[i]);
        }
    kptl_loop_drain_all();
    kptl_arm_timer();
}

/* The node's side of an endpoint's statistics (ptlendpoint.c logs them). */
void kptl_log_node_rx(void)
{
    pr_info("node: %lu frames for no process here (%lu answered with a "
            "reset; %lu bare ACKs besides), %lu for other nodes, %lu of "
            "another wire version\n", kptl_rx_unclaimed, resets_sent,
            acks_gone, rx_flooded, rx_version);
}
