/*
 * reply.c: the PCT's answers, sent without waiting (yod_proto.h, "Answers
 * never wait").  Portals sends a Put's bytes from the sender's memory
 * until the receiver has them, so every answer in flight needs a buffer
 * of its own: SLOTS of them, each free again at its SEND event (the last
 * frame acknowledged, or the receiver given up on).  An asker that is
 * not the job's owner holds at most STATION_SLOTS at a time and never the
 * last OWNER_SLOTS, so a flood of STATUS, or askers that vanish before
 * their answer arrives, cost answers to themselves, never a wait in the
 * serve loop nor the owner's EXIT.  Before, an answer waited up to 10 s
 * for its ACK, and yod called the node down meanwhile.
 *
 * Two per station, not one: a yod reuses its station (nid, pid) as soon as
 * the last one to use it has exited, and an answer to that gone yod stays
 * in flight until Portals gives it up (no kernel answers for a Linux
 * process that is gone) or until a frame of the new yod tells our
 * library of the new incarnation.  With one, the new yod's first answer
 * (a BUSY in the fan-out tree, whose request came from another PCT before
 * any frame of the new yod) was dropped, and yod called the node silent
 * (suite-yodfan.busy-middle, seen under load).
 *
 * An answer to the owner is never dropped for want of a buffer: it waits
 * in a queue of QUEUED until one frees (an EXIT is said once).  Yet the
 * owner's answers did run out of buffers on 128 nodes of a loaded host,
 * one ALIVE a second each waiting seconds for its ACK: an ALIVE now goes
 * only when none to that station is on its way (reply_on_its_way).
 *
 * pct.answer_loss=P (percent, kernel command line) drops that share of
 * the answers to yod's requests (OK, BUSY, ERR, ALIVE; never an EXIT) as
 * if lost on their way, so tests can show yod and the PCT still agree on
 * who holds the node (suite-scale).
 */
#include <stdio.h>
#include <stdlib.h>
#include <lwk/syscall.h>
#include "ratelimit.h"
#include "serve.h"

#define SLOTS       16
#define OWNER_SLOTS 4
#define STATION_SLOTS 2
#define QUEUED      16

struct answer {
    struct yod_msg m;
    ptl_process_t to;
    struct sipkey k;
    int signed_;
};

static struct slot {
    struct yod_msg m;
    ptl_process_t to;
    int busy;
} slots[SLOTS];

static struct {
    ptl_handle_md_t md;
    ptl_handle_eq_t eq;
    uint32_t lost;
    struct ratelimit log;
    struct answer queue[QUEUED];        /* to the owner, for a buffer */
    int nqueued;
    unsigned loss_pct;                  /* pct.answer_loss */
    uint64_t rng;
} R = { .log = RATELIMIT_INIT(1000000000ull) };

static void loss_setup(void)
{
    const char *v = pct_opt("pct.answer_loss");

    if (!v)
        return;
    R.loss_pct = (unsigned)strtoul(v, NULL, 10);
    R.loss_pct = R.loss_pct > 100 ? 100 : R.loss_pct;
    R.rng = srv.nid * 0x9E3779B97F4A7C15ull + 1;
    printf("pct: dropping %u%% of the answers to yod's requests "
           "(pct.answer_loss)\n", R.loss_pct);
}

int reply_open(void)
{
    ptl_md_t md = { .start = slots, .length = sizeof(slots),
                    .ct_handle = PTL_CT_NONE };

    loss_setup();
    if (PtlEQAlloc(srv.ni, 2 * SLOTS, &R.eq) != PTL_OK)
        return -1;
    md.eq_handle = R.eq;
    return PtlMDBind(srv.ni, &md, &R.md) == PTL_OK ? 0 : -1;
}

/* An answer was dropped (no buffer) or not delivered (the asker is
   gone): counted, and a line a second at most. */
static void lost(ptl_process_t to, const char *what)
{
    uint64_t missed;

    R.lost++;
    if (ratelimit_event(&R.log, lwk_sys_clock_ns(0), &missed))
        printf("pct: an answer to nid %u pid %u %s (%u answers lost since "
               "the PCT started)\n", to.phys.nid, to.phys.pid, what, R.lost);
}

/* pct.answer_loss: is this answer to be lost?  xorshift64, seeded by
   the nid: a run is repeatable, and nodes drop different answers. */
static int lose(const struct yod_msg *m)
{
    if (!R.loss_pct || (m->type != YOD_OK && m->type != YOD_BUSY &&
                        m->type != YOD_ERR && m->type != YOD_ALIVE))
        return 0;
    R.rng ^= R.rng << 13;
    R.rng ^= R.rng >> 7;
    R.rng ^= R.rng << 17;
    return R.rng % 100 < R.loss_pct;
}

/* A free buffer for an answer to `to`, or NULL. */
static struct slot *slot_for(ptl_process_t to, int trusted)
{
    struct slot *free_slot = NULL;
    int busy = 0, its = 0;

    for (struct slot *sl = slots; sl < slots + SLOTS; sl++) {
        if (!sl->busy) {
            free_slot = free_slot ? free_slot : sl;
            continue;
        }
        busy++;
        its += same_station(sl->to, to);
    }
    if (!trusted && (its >= STATION_SLOTS || busy >= SLOTS - OWNER_SLOTS))
        return NULL;            /* its answers are still on their way */
    return free_slot;
}

/* Put `a` from buffer `sl`; 0 if it went. */
static int put(struct slot *sl, const struct answer *a)
{
    sl->m = a->m;
    sl->to = a->to;
    sl->busy = 1;
    if (a->signed_)
        auth_sign(&sl->m, &a->k, a->to);
    if (lose(&sl->m)) {
        sl->busy = 0;
        lost(a->to, "was dropped on purpose (pct.answer_loss)");
        return 0;
    }
    if (PtlPut(R.md, (ptl_size_t)((char *)&sl->m - (char *)slots),
               sizeof(sl->m), PTL_NO_ACK_REQ, a->to, YOD_PT_CTL, 0, 0, sl, 0)
        != PTL_OK) {
        sl->busy = 0;
        lost(a->to, "could not be sent");
        return -1;
    }
    return 0;
}

/* Free the buffers whose answers have gone, and send what waited for
   one. */
static void reap(void)
{
    ptl_event_t ev;
    int sent = 0;

    while (PtlEQGet(R.eq, &ev) == PTL_OK) {
        struct slot *sl = ev.user_ptr;
        if (ev.type != PTL_EVENT_SEND || sl < slots || sl >= slots + SLOTS)
            continue;
        sl->busy = 0;
        if (ev.ni_fail_type != PTL_NI_OK)
            lost(sl->to, "was not delivered");
    }
    for (struct slot *sl; sent < R.nqueued && (sl = slot_for(
             R.queue[sent].to, 1)); sent++)
        put(sl, &R.queue[sent]);
    for (int i = sent; i < R.nqueued; i++)
        R.queue[i - sent] = R.queue[i];
    R.nqueued -= sent;
}

int reply_send(ptl_process_t to, const struct yod_msg *m,
               const struct sipkey *k, int trusted)
{
    struct answer a = { .m = *m, .to = to, .signed_ = k != NULL };
    struct slot *sl;

    if (k)
        a.k = *k;
    reap();
    if (R.nqueued && trusted && R.nqueued < QUEUED) {
        R.queue[R.nqueued++] = a;       /* behind the ones waiting */
        return 0;
    }
    if ((sl = slot_for(to, trusted)))
        return put(sl, &a);
    if (trusted && R.nqueued < QUEUED) {
        R.queue[R.nqueued++] = a;
        return 0;
    }
    lost(to, "was dropped: no buffer free for it");
    return -1;
}

int reply_on_its_way(ptl_process_t to, uint32_t type)
{
    reap();
    for (struct slot *sl = slots; sl < slots + SLOTS; sl++)
        if (sl->busy && sl->m.type == type && same_station(sl->to, to))
            return 1;
    return 0;
}

int reply_waiting(void)
{
    reap();
    return R.nqueued;
}
