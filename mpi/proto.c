/* SPDX-License-Identifier: MIT */
/*
 * proto.c: MPI point-to-point over Portals 4 (the protocol engine): the
 * portals, the event loop and progress.  Sending is send.c, receiving
 * recv.c, holding sends back flowctl.c.
 *
 * Portal table entries on the job NI (PTL_JOB_PT_MPI + n):
 *   +0 DATA  every message (flow controlled).  Priority list: posted
 *            receives (use-once MEs).  Overflow list: first a zero-length
 *            entry that matches only long messages (so only their header
 *            is kept), then NBLOCKS locally managed blocks of BLOCK_SIZE
 *            with min_free = EAGER_LIMIT that catch unexpected eager data;
 *            a block is re-posted when it is AUTO_FREEd.
 *   +1 READ  long and synchronous send buffers, exposed as use-once MEs
 *            for PtlGet (unlinked unfetched when the put delivered them).
 *   +2 CTRL  zero-length control messages (FIN and the flow-control
 *            handshake), one persistent entry.
 *   +3 ONE   one-sided: RMA windows and triggered collectives (rma.c,
 *            nbc_trig.c), told apart by match bits.
 *
 * Match bits: bit 63 LONG | 62..48 context | 47..28 source rank in the
 * communicator | 27..0 tag.  Receives ignore LONG (and source/tag for the
 * wildcards).  hdr_data: bits 63..56 flags, 55..24 the length of a long
 * message, 23..0 the sender's key naming its READ entry.
 *
 * Eager (<= EAGER_LIMIT, not synchronous): one put; a pre-posted receive
 * gets it in place, else it lands in a block and a later receive copies it
 * out.  A standard or ready send of at most COPY_LIMIT bytes completes
 * once copied: an internal request carries the copy and takes the ACK.
 * Long (or synchronous): the sender exposes the buffer on READ, then
 * puts the whole message (the length also rides in hdr_data).  If it
 * matches a posted receive the data lands in place (truncated to the
 * receive's length if longer: MPI_ERR_TRUNCATE) and the receive completes
 * on its PUT event; the ACK, from the priority list, tells the sender,
 * which unlinks READ and completes (a synchronous send knows it was
 * matched).  Otherwise the zero-length long entry on the overflow list
 * keeps only the header, the ACK comes from the overflow list, and the
 * receiver PtlGets the data when a receive matches it, then sends FIN
 * (the buffer is free).  After a long message to a peer came unexpected,
 * the next ones to it put only their header (H_DATA clear), until 8 in a
 * row have found their receive posted: send.c (learn) says why.  Such a send is
 * cancelled by unlinking its READ entry once its ACK says only the header
 * was kept: a receiver whose Get then finds nothing (PTL_NI_DROPPED)
 * forgets the message and goes on matching (recv.c).
 *
 * Flow control: when DATA is disabled (no header slot, no buffer, EQ
 * short), the receiver moves every unexpected message into its own queue
 * (PtlMESearch SEARCH_DELETE), sends PAUSE to every peer and waits for
 * PAUSE_ACKs; a peer answers only once none of its puts to us is in
 * flight, and from then on holds new ones.  Then DATA is enabled and
 * UNPAUSE sent; peers re-send refused messages in their original order
 * (per-peer sequence numbers), so nothing is lost or reordered.
 *
 * Messages to oneself never touch the network (a switch does not reflect
 * frames back): they match posted receives or wait in the same queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mpi_impl.h"
#include "ptl_job.h"
#include "proto.h"
#include "shm.h"

struct block {
    int kind;                   /* UP_BLOCK */
    void *mem;
};

struct ptl_job job;
ptl_handle_eq_t eq;
ptl_handle_md_t md;
static struct block blocks[NBLOCKS];
static struct tagged ctrl_tag = { UP_CTRL };
static struct tagged longhdr_tag = { UP_LONGHDR };

struct pvcounts pvc;
int eager_limit = EAGER_LIMIT, copy_limit = COPY_LIMIT;
struct peer *peers;
static struct uq *uq_head, **uq_tail = &uq_head;

int proto_world_rank(void) { return job.rank; }
int proto_world_size(void) { return job.size; }

/* This rank's node id in Portals, or -1 before MPI_Init. */
long proto_nid(void)
{
    ptl_process_t id;

    return PtlGetPhysId(job.ni, &id) == PTL_OK ? (long)id.phys.nid : -1;
}

/* ---- lists ---- */

void list_add(MPI_Request *head, MPI_Request r)
{
    MPI_Request *pp = head;

    while (*pp != NULL)
        pp = &(*pp)->next;
    r->next = NULL;
    r->prev = NULL;
    *pp = r;
}

bool list_del(MPI_Request *head, MPI_Request r)
{
    for (MPI_Request *pp = head; *pp != NULL; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            r->next = NULL;
            return true;
        }
    return false;
}

void uq_push(struct uq *u)
{
    u->next = NULL;
    *uq_tail = u;
    uq_tail = &u->next;
}

/* First held message matching (bits, ignore) and, if sreq is not NULL,
 * sent by that self send; removed if take. */
struct uq *uq_find(uint64_t bits, uint64_t ignore, MPI_Request sreq,
                   bool take)
{
    for (struct uq **pp = &uq_head; *pp != NULL; pp = &(*pp)->next) {
        struct uq *u = *pp;
        if (((u->bits ^ bits) & ~ignore) != 0 ||
            (sreq != NULL && u->sreq != sreq))
            continue;
        if (take) {
            *pp = u->next;
            if (uq_tail == &u->next)
                uq_tail = pp;
        }
        return u;
    }
    return NULL;
}

/* ---- the overflow list ---- */

static void post_block(struct block *b)
{
    ptl_me_t me = { 0 };
    ptl_handle_me_t h;

    me.start = b->mem;
    me.length = BLOCK_SIZE;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    /* Arrival events are ignored, but they wake a blocked MPI_Probe. */
    me.options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                 PTL_ME_EVENT_LINK_DISABLE;
    me.match_id = rank_id(PTL_RANK_ANY);
    me.ignore_bits = ~0ull;
    me.min_free = EAGER_LIMIT;
    check(PtlMEAppend(job.ni, PT_DATA, &me, PTL_OVERFLOW_LIST, b, &h),
          "PtlMEAppend (overflow block)");
}

/* ---- events ---- */

static void on_event(const ptl_event_t *ev)
{
    struct tagged *t = ev->user_ptr;

    if (ev->type == PTL_EVENT_PT_DISABLED) {
        fc_begin();
        return;
    }
    if (t == NULL)
        return;
    switch (t->kind) {
    case UP_BLOCK:
        if (ev->type == PTL_EVENT_AUTO_FREE)
            post_block((struct block *)t);
        else if (ev->type == PTL_EVENT_PUT)
            pvc.unexp_in++;     /* eager data with no receive */
        return;
    case UP_LONGHDR:
        if (ev->type == PTL_EVENT_PUT)
            pvc.unexp_in++;     /* a long message's header, likewise */
        return;
    case UP_CTRL:
        if (ev->type == PTL_EVENT_PUT)
            on_ctrl(ev);
        return;
    case UP_DRAIN:
        if (ev->type == PTL_EVENT_PUT_OVERFLOW)
            hold_drained(ev);
        return;
    case UP_PROBE:
        on_probe(t, ev);
        return;
    case UP_HOOK:
        ((struct hook *)t)->fn((struct hook *)t, ev);
        return;
    case UP_RMA:
        rma_event((MPI_Request)t, ev);
        return;
    }
    MPI_Request r = (MPI_Request)t;
    switch (ev->type) {
    case PTL_EVENT_ACK: on_ack(r, ev); return;
    case PTL_EVENT_GET: on_get(r); return;
    case PTL_EVENT_REPLY: on_reply(r, ev); return;
    case PTL_EVENT_PUT:
    case PTL_EVENT_PUT_OVERFLOW: on_put(r, ev); return;
    default: return;
    }
}

unsigned long proto_events;

static bool handle(int rc, const ptl_event_t *ev)
{
    if (rc == PTL_EQ_EMPTY)
        return false;
    if (rc == PTL_EQ_DROPPED)
        mpi_fatal("the MPI event queue overflowed (events lost)");
    check(rc, "PtlEQGet");
    proto_events++;
    on_event(ev);
    return true;
}

/* Handle every event already queued; true if there was one. */
bool drain(void)
{
    ptl_event_t ev;
    bool any = false;

    while (handle(PtlEQGet(eq, &ev), &ev))
        any = true;
    unstall();
    return any;
}

/* Take in what the link holds and handle it, never waiting: for calls
 * that may complete without a Portals call of their own (one-sided
 * operations on oneself), so a process spinning in them still answers. */
void proto_poll(void)
{
    ptl_event_t ev;
    unsigned which;

    drain();
    if (handle(PtlEQPoll(&eq, 1, 0, &ev, &which), &ev))
        drain();
}

/* Work that moves without events of its own: nonblocking collectives'
 * next rounds, triggered barriers' counters (nbc.c).  True if something
 * completed, so a blocking pass must not sleep for an event that its
 * waiter no longer needs. */
static bool advance(void)
{
    bool nbc = nbc_progress();

    return io_async_progress() || nbc;
}

/* A caller polling for nothing in a tight loop (MPI_Test or MPI_Iprobe
 * until a message comes) sleeps once it has done so for SPIN_NS: it
 * leaves the CPU to the processes it waits for (many ranks share two
 * cores).  A pass after the caller was away for more than GAP_NS
 * (computing between MPI_Tests) starts afresh and returns at once, so
 * polling now and then costs no sleep. */
#define SPIN_NS 100000
#define GAP_NS  20000

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t spin_since, pass_left;    /* this loop's start, last pass's end */

/* May this non-blocking pass, which found nothing unless found, sleep? */
static bool spun_long(bool found)
{
    uint64_t now = now_ns();

    if (found || now - pass_left > GAP_NS)
        spin_since = now;       /* news, or the caller was away: afresh */
    return now - spin_since >= SPIN_NS;
}

/* Handle what is queued, then read the link: on Linux PtlEQGet only
 * processes frames the library already has (nothing reads the socket
 * without a poll or wait), so every pass polls the link once, whether or
 * not events were queued: a loop of MPI_Iprobe, whose own search event is
 * always queued, must still take in the message it waits for.  A pass
 * that found nothing sleeps (on the event queue, or on a triggered
 * barrier's counter, which posts no event) if it blocks, or for at most
 * 1 ms if its caller has spun long. */
void proto_progress(bool block)
{
    ptl_event_t ev;
    unsigned which;
    bool any = drain();
    bool rest;

    /* A file request's end is not an event here (io_async.c): with one
     * pending, a blocking pass polls (sleeping a little between). */
    block = block && !io_async_pending();
    rest = block ? !any : spun_long(any);

    any |= advance();
    rest = rest && !any;
    if (rest && nbc_block()) {
        proto_poll();           /* slept on a counter: look at the rest */
    } else if (block && !any) {
        if (handle(PtlEQWait(eq, &ev), &ev))
            drain();
    } else if (handle(PtlEQPoll(&eq, 1, rest ? 1 : 0, &ev, &which), &ev)) {
        drain();
    }
    advance();
    if (!block)
        pass_left = now_ns();
}

/* ---- setup ---- */

static void setup_portals(void)
{
    ptl_pt_index_t got;
    ptl_md_t d = { 0 };
    ptl_me_t me = { 0 };
    ptl_handle_me_t h;

    check(PtlEQAlloc(job.ni, EQ_SIZE, &eq), "PtlEQAlloc");
    check(PtlPTAlloc(job.ni, PTL_PT_FLOWCTRL, eq, PT_DATA, &got),
          "PtlPTAlloc (data)");
    check(PtlPTAlloc(job.ni, 0, eq, PT_READ, &got), "PtlPTAlloc (read)");
    check(PtlPTAlloc(job.ni, 0, eq, PT_CTRL, &got), "PtlPTAlloc (ctrl)");
    check(PtlPTAlloc(job.ni, 0, eq, PT_ONE, &got), "PtlPTAlloc (one-sided)");
    /* One MD over the whole user address space (ptl_job.h). */
    d.start = PTL_JOB_MD_START;
    d.length = PTL_JOB_MD_LENGTH;
    d.options = PTL_MD_EVENT_SEND_DISABLE;
    d.eq_handle = eq;
    d.ct_handle = PTL_CT_NONE;
    check(PtlMDBind(job.ni, &d, &md), "PtlMDBind");
    /* Long messages that find no receive keep only their header. */
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id = rank_id(PTL_RANK_ANY);
    me.match_bits = MB_LONG;
    me.ignore_bits = ~MB_LONG;
    check(PtlMEAppend(job.ni, PT_DATA, &me, PTL_OVERFLOW_LIST, &longhdr_tag,
                      &h), "PtlMEAppend (long overflow)");
    for (int i = 0; i < NBLOCKS; i++) {
        blocks[i].kind = UP_BLOCK;
        if ((blocks[i].mem = malloc(BLOCK_SIZE)) == NULL)
            mpi_fatal("out of memory for unexpected-message blocks");
        post_block(&blocks[i]);
    }
    me.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.match_bits = 0;
    me.ignore_bits = ~0ull;
    check(PtlMEAppend(job.ni, PT_CTRL, &me, PTL_PRIORITY_LIST, &ctrl_tag, &h),
          "PtlMEAppend (control)");
    /* A triggered collective's ready that comes before its entry waits
       here, data-less and silent, until that entry is appended and
       counts it (nbc_tcoll.c). */
    me = me_make(NULL, 0, PTL_ME_OP_PUT | PTL_ME_EVENT_COMM_DISABLE |
                 PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_UNLINK_DISABLE,
                 PTL_RANK_ANY, TC_BITS(0, 0), MB_CTX(~0u) | TC_SEQ);
    check(PtlMEAppend(job.ni, PT_ONE, &me, PTL_OVERFLOW_LIST, NULL, &h),
          "PtlMEAppend (triggered collectives' overflow)");
}

int proto_init(void)
{
    if (ptl_job_init(&job) != PTL_OK)
        return MPI_ERR_OTHER;
    if ((peers = calloc((size_t)job.size, sizeof(*peers))) == NULL)
        return MPI_ERR_INTERN;
    fc_init();
    shm_init();
    setup_portals();
    ptl_job_barrier();      /* every rank's MPI portals exist now */
    return MPI_SUCCESS;
}

/* Wait until nothing of ours is in flight, then a barrier so no peer
 * still sends to us, then let the NI go. */
void proto_fini(void)
{
    while (send_pending() || fc_busy())
        proto_progress(true);
    ptl_job_barrier();
    drain();
    PtlMDRelease(md);
    ptl_job_fini();
    for (int i = 0; i < NBLOCKS; i++)
        free(blocks[i].mem);
    free(peers);
    copy_fini();
}

void proto_barrier(void)
{
    ptl_job_barrier();
}
