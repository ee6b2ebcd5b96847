/*
 * The loop queues: frames to an endpoint of this node never reach the
 * wire (see portals.c).
 *
 * The switch does not send a frame back out of the port it came from, so a
 * frame to an endpoint of this node is copied into a slot of that
 * endpoint's loop queue and delivered (kptl_loop_drain_all) once the core
 * call, interrupt or timer that sent it is done.  Never at once: the sender
 * may be inside its own core, which is not re-entrant, and a core that
 * receives a frame may send others (acks, its window's next frames) before
 * it has read the payload, so the slot stays taken until the receiver is
 * done with it.  An endpoint's LOOP_SLOTS slots sit after its core's
 * tables, in the same region (ptlendpoint.c).
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "lib.h"

#include "portals_internal.h"

static uint32_t loop_queued;            /* frames in all loop queues */

static size_t gather(uint8_t *dst, const struct ptl_iov *iov, int niov,
                     struct kptl *kp)
{
    size_t n = 0;

    for (int i = 0; i < niov; i++) {
        if (iov[i].app)
            kptl_copy_in(kp, dst + n, iov[i].base, iov[i].len);
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

int kptl_loop_tx(struct kptl *kp, const struct ptl_iov *iov, int niov)
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
        /* Nobody here: the sender hears so as from the wire (rx_gone). */
        uint8_t f[PTL_FRAME_HMAX];
        struct ptl_iov r = { f, ptl_wire_reset(&h, f, kptl_reset_key(
                                                iov[0].base, &h)), 0 };
        kptl_rx_unclaimed++;
        if (r.len && kp->loop_n < LOOP_SLOTS)
            loop_put(kp, &r, 1, kp);
        return 0;
    }
    if (to->loop_n == LOOP_SLOTS)
        return -1;              /* not taken: the core keeps it and tries
                                   again soon (back-pressure, not loss) */
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
    kptl_wake(kp);
    return true;
}

/* Deliver what endpoints of this node sent each other, and what that
   causes in turn, for a bounded number of rounds (what is left goes at
   the next call, interrupt or timer: unacked frames keep a timer armed). */
void kptl_loop_drain_all(void)
{
    for (int round = 0; loop_queued && round < 4 * LOOP_SLOTS; round++)
        for (int i = 0; i < kptl_nlive; i++)
            loop_drain(kptl_live[i]);
}

/* kp's endpoint is going (kptl_release): the frames queued to it are
   lost. */
void kptl_loop_drop(struct kptl *kp)
{
    loop_queued -= kp->loop_n;
}
