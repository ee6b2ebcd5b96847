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
 */
#include <stdio.h>
#include <lwk/syscall.h>
#include "ratelimit.h"
#include "serve.h"

#define SLOTS       16
#define OWNER_SLOTS 4
#define STATION_SLOTS 2

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
} R = { .log = RATELIMIT_INIT(1000000000ull) };

int reply_open(void)
{
    ptl_md_t md = { .start = slots, .length = sizeof(slots),
                    .ct_handle = PTL_CT_NONE };

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

/* Free the buffers whose answers have gone. */
static void reap(void)
{
    ptl_event_t ev;

    while (PtlEQGet(R.eq, &ev) == PTL_OK) {
        struct slot *sl = ev.user_ptr;
        if (ev.type != PTL_EVENT_SEND || sl < slots || sl >= slots + SLOTS)
            continue;
        sl->busy = 0;
        if (ev.ni_fail_type != PTL_NI_OK)
            lost(sl->to, "was not delivered");
    }
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

int reply_send(ptl_process_t to, const struct yod_msg *m,
               const struct sipkey *k, int trusted)
{
    struct slot *sl;

    reap();
    if (!(sl = slot_for(to, trusted))) {
        lost(to, "was dropped: no buffer free for it");
        return -1;
    }
    sl->m = *m;
    sl->to = to;
    sl->busy = 1;
    if (k)
        auth_sign(&sl->m, k, to);
    if (PtlPut(R.md, (ptl_size_t)((char *)&sl->m - (char *)slots),
               sizeof(sl->m), PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0, sl, 0)
        != PTL_OK) {
        sl->busy = 0;
        lost(to, "could not be sent");
        return -1;
    }
    return 0;
}
