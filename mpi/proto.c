/* SPDX-License-Identifier: MIT */
/*
 * proto.c: MPI point-to-point over Portals 4 (the protocol engine).
 *
 * Portal table entries on the job NI (PTL_JOB_PT_MPI + n):
 *   +0 DATA  every message (flow controlled).  Priority list: posted
 *            receives (use-once MEs).  Overflow list: first a zero-length
 *            entry that matches only long messages (so only their header
 *            is kept), then NBLOCKS locally managed blocks of BLOCK_SIZE
 *            with min_free = EAGER_LIMIT that catch unexpected eager data;
 *            a block is re-posted when it is AUTO_FREEd.
 *   +1 READ  long send buffers, exposed as use-once MEs for PtlGet.
 *   +2 CTRL  zero-length control messages (synchronous-send acks and the
 *            flow-control handshake), one persistent entry.
 *
 * Match bits: bit 63 LONG | 62..48 context | 47..28 source rank in the
 * communicator | 27..0 tag.  Receives ignore LONG (and source/tag for the
 * wildcards).  hdr_data: bits 63..56 flags (SYNC), 55..24 the length of a
 * long message, 23..0 the sender's key naming its READ entry or its
 * pending synchronous send.
 *
 * Eager (<= EAGER_LIMIT): one put; a pre-posted receive gets it in place,
 * else it lands in a block and a later receive copies it out.  A standard
 * or ready send of at most COPY_LIMIT bytes completes once copied: an
 * internal request carries the copy and takes the ACK (copy_send; a
 * blocking MPI_Send makes only that one: proto_send_copy).  Long: the
 * sender exposes the buffer on READ and puts only the header (no data; the
 * length rides in hdr_data); the receiver PtlGets the data when a receive
 * matches it, pre-posted or not, then sends FIN (the buffer is free).
 * Putting the whole message instead would save a round trip when the
 * receive is pre-posted, but a receive posted late gets the data dropped
 * and sent again: in a ping-pong the answer's first frame brings the ACK
 * that ends the blocking MPI_Send before its MPI_Recv, so the receive is
 * always late, and 1 MiB took 1.48x raw Portals.  Synchronous sends
 * complete when the ACK says PRIORITY (matched on arrival), on FIN (long),
 * or on a SYNC_ACK.
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
#include "mpi_impl.h"
#include "ptl_job.h"
#include "proto.h"

struct block {
    int kind;                   /* UP_BLOCK */
    void *mem;
};

struct probe {
    int kind;                   /* UP_PROBE */
    bool done, found;
    ptl_event_t ev;
};

struct ptl_job job;
static ptl_handle_eq_t eq;
ptl_handle_md_t md;
static struct block blocks[NBLOCKS];
static struct tagged ctrl_tag = { UP_CTRL };
struct peer *peers;
static struct uq *uq_head, **uq_tail = &uq_head;
static MPI_Request posted;      /* receives with an ME, in post order */
static MPI_Request sync_wait;   /* sends waiting for SYNC_ACK or FIN */
static uint32_t next_key;

int proto_world_rank(void) { return job.rank; }
int proto_world_size(void) { return job.size; }

/* This rank's node id in Portals, or -1 before MPI_Init. */
long proto_nid(void)
{
    ptl_process_t id;

    return PtlGetPhysId(job.ni, &id) == PTL_OK ? (long)id.phys.nid : -1;
}

/* ---- lists ---- */

static void list_add(MPI_Request *head, MPI_Request r)
{
    MPI_Request *pp = head;

    while (*pp != NULL)
        pp = &(*pp)->next;
    r->next = NULL;
    r->prev = NULL;
    *pp = r;
}

static void list_del(MPI_Request *head, MPI_Request r)
{
    for (MPI_Request *pp = head; *pp != NULL; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            r->next = NULL;
            return;
        }
}

void uq_push(struct uq *u)
{
    u->next = NULL;
    *uq_tail = u;
    uq_tail = &u->next;
}

/* First held message matching (bits, ignore); removed if take. */
static struct uq *uq_find(uint64_t bits, uint64_t ignore, bool take)
{
    for (struct uq **pp = &uq_head; *pp != NULL; pp = &(*pp)->next) {
        struct uq *u = *pp;
        if (((u->bits ^ bits) & ~ignore) != 0)
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

/* ---- sending ---- */

static void expose_long(MPI_Request r)
{
    ptl_me_t me = { 0 };

    me.start = r->len ? r->data : NULL;
    me.length = r->len;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = PTL_ME_OP_GET | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_UNLINK_DISABLE;
    me.match_id = rank_id(r->world);
    me.match_bits = r->key;
    check_entry(PtlMEAppend(job.ni, PT_READ, &me, PTL_PRIORITY_LIST, r,
                            &r->me), "PtlMEAppend (long send)");
    r->me_linked = true;
}

/* The length of the message an arrival event announces: a long one's
 * header comes without its data. */
size_t proto_msg_len(const ptl_event_t *ev)
{
    return (ev->match_bits & MB_LONG) ? HLEN(ev->hdr_data)
                                      : (size_t)ev->rlength;
}

static void fill_status(MPI_Request r, uint64_t bits, size_t got,
                        size_t sent)
{
    r->status.MPI_SOURCE = MB_GETSRC(bits);
    r->status.MPI_TAG = MB_GETTAG(bits);
    r->status.mpi_bytes = got;
    r->status.MPI_ERROR = sent > got ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

static void self_send(MPI_Request r);
static int copies_out;          /* copied sends not yet ACKed */

/* Copy buffers (COPY_LIMIT bytes each) freed by completed copies, kept
 * for the next ones rather than costing a malloc and a free per send. */
static void *copy_bufs[COPIES_MAX];
static int copy_bufs_n;

void proto_copy_release(void *buf)
{
    if (copy_bufs_n < COPIES_MAX)
        copy_bufs[copy_bufs_n++] = buf;
    else
        free(buf);
}

/* MPI lets a standard send complete once its data is buffered.  For a
 * small one, copying is cheaper than waiting a round trip for the ACK: the
 * sender goes on at once (to post the receive for the answer before the
 * answer comes, in a ping-pong), and an internal request with the copy
 * takes the ACK and is what flow control re-sends if refused.  Past
 * COPIES_MAX copies in flight, sends wait for their ACKs again, so a
 * sender cannot bury a slow receiver.  The internal request, or NULL if
 * the message is too big, too many are out, or memory is short. */
static MPI_Request copy_make(const void *data, size_t len, int peer, int tag,
                             MPI_Comm comm, uint32_t ctx)
{
    void *copy;
    MPI_Request c;

    if (len > COPY_LIMIT || copies_out >= COPIES_MAX)
        return NULL;
    copy = copy_bufs_n ? copy_bufs[--copy_bufs_n] : malloc(COPY_LIMIT);
    if (copy == NULL ||
        (c = p2p_make(RQ_SEND, copy, (int)len, MPI_BYTE, peer, tag, comm,
                      ctx, M_STD)) == NULL) {
        if (copy)
            proto_copy_release(copy);
        return NULL;
    }
    if (len)
        memcpy(copy, data, len);
    c->data = c->tmp = copy;            /* released when c completes */
    c->len = len;
    c->state = RS_ACTIVE;
    c->internal = c->freed = c->copied = true;
    copies_out++;
    return c;
}

/* The request to send for r: a copy if r may complete now (r is then
 * complete), else r itself. */
static MPI_Request copy_send(MPI_Request r)
{
    MPI_Request c;

    if ((r->mode != M_STD && r->mode != M_READY) || r->internal ||
        (c = copy_make(r->data, r->len, r->peer, r->tag, r->comm,
                       r->ctx)) == NULL)
        return r;
    c->world = r->world;
    c->bits = r->bits;
    req_complete(r);
    return c;
}

/* MPI_Send's fast path: a small contiguous message to another rank goes
 * as a copy at once, and the caller needs no request of its own: making,
 * completing and freeing one cost ~260 of the ~11.5k instructions of a
 * 0-byte ping-pong round trip (callgrind, rank 0 over the host libportals).
 * false: take the general path. */
bool proto_send_copy(const void *data, size_t len, int peer, int tag,
                     MPI_Comm comm, uint32_t ctx)
{
    MPI_Request c;

    if (comm->remote->world[peer] == job.rank ||
        (c = copy_make(data, len, peer, tag, comm, ctx)) == NULL)
        return false;
    proto_send(c);
    return true;
}

void proto_send(MPI_Request r)
{
    bool is_long = r->len > EAGER_LIMIT, sync = r->mode == M_SYNC;

    r->world = r->comm->remote->world[r->peer];
    r->bits = MB_CTX(r->ctx) | MB_SRC(r->comm->rank) | MB_TAG(r->tag) |
              (is_long ? MB_LONG : 0);
    if (r->world == job.rank) {
        self_send(r);
        return;
    }
    if (!is_long && !sync)
        r = copy_send(r);
    if (is_long && r->len > UINT32_MAX)
        mpi_fatal("a %zu-byte message exceeds Portals' 4 GiB message size; "
                  "send it in parts", r->len);
    if (++next_key > HKEY_MASK)
        next_key = 1;           /* 24 bits: a key names one send in flight */
    r->key = next_key;
    r->seq = peers[r->world].next_seq++;
    r->hdr = (sync ? HF_SYNC : 0) | r->key |
             (is_long ? (uint64_t)r->len << 24 : 0);
    r->wait = 1;                        /* the ACK */
    r->prio = false;
    if (is_long) {
        expose_long(r);
        list_add(&sync_wait, r);
        r->wait++;                      /* FIN, or withdrawn */
    } else if (sync) {
        list_add(&sync_wait, r);
        r->wait++;                      /* matched on arrival, or SYNC_ACK */
    }
    data_put(r);
}

static void step_done(MPI_Request r)
{
    if (--r->wait == 0)
        req_complete(r);
}

static void on_ack(MPI_Request r, const ptl_event_t *ev)
{
    if (ev->ni_fail_type == PTL_NI_PT_DISABLED) {
        fc_refused(r);                  /* PAUSE follows; held, re-sent */
        return;
    }
    fc_acked(r->world);
    if (ev->ni_fail_type != PTL_NI_OK)
        mpi_fatal_peer(r->world, "message to rank %d failed (Portals "
                       "ni_fail %d): is that rank alive?", r->world,
                       (int)ev->ni_fail_type);
    r->prio = ev->ptl_list == PTL_PRIORITY_LIST;
    if (r->prio && (r->hdr & HF_SYNC) && !(r->bits & MB_LONG)) {
        list_del(&sync_wait, r);
        r->wait--;
    }
    if (r->copied)
        copies_out--;
    step_done(r);
}

/* ---- receiving ---- */

/* Fetch a long message from the sender's READ entry.  When the REPLY is
 * in, a FIN tells the sender its buffer is free: its own GET event comes
 * when the request arrives, before the reply data has left the buffer. */
static void get_long(MPI_Request r, int world, uint32_t key)
{
    r->wait = 1;
    r->world = world;
    r->key = key;
    get_start(r);               /* fetches status.mpi_bytes (fill_status) */
}

/* A receive matched a message held in our own queue. */
static void take_held(MPI_Request r, struct uq *u)
{
    size_t n = u->len < r->len ? u->len : r->len;

    fill_status(r, u->bits, n, u->len);
    if (u->data == NULL) {
        get_long(r, u->world, HKEY(u->hdr));
        free(u);
        return;
    }
    if (n)
        memcpy(r->data, u->data, n);
    if (u->sreq != NULL)
        req_complete(u->sreq);          /* self synchronous send */
    else if (u->hdr & HF_SYNC)
        ctrl_send(u->world, CTRL(C_SYNC_ACK, HKEY(u->hdr)));
    free(u->data);
    free(u);
    req_complete(r);
}

static void recv_bits(MPI_Request r)
{
    r->bits = MB_CTX(r->ctx) |
              (r->peer == MPI_ANY_SOURCE ? 0 : MB_SRC(r->peer)) |
              (r->tag == MPI_ANY_TAG ? 0 : MB_TAG(r->tag));
    r->ignore = MB_LONG | (r->peer == MPI_ANY_SOURCE ? MB_SRCMASK : 0) |
                (r->tag == MPI_ANY_TAG ? MB_TAGMASK : 0);
}

static void drain(void);

void proto_recv(MPI_Request r)
{
    struct uq *u;
    ptl_me_t me = { 0 };

    recv_bits(r);
    if ((u = uq_find(r->bits, r->ignore, true)) != NULL) {
        take_held(r, u);
        return;
    }
    me.start = r->len ? r->data : NULL;
    me.length = r->len;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_UNLINK_DISABLE;
    me.match_id = rank_id(PTL_RANK_ANY);
    me.match_bits = r->bits;
    me.ignore_bits = r->ignore;
    check_entry(PtlMEAppend(job.ni, PT_DATA, &me, PTL_PRIORITY_LIST, r,
                            &r->me), "PtlMEAppend (receive)");
    r->me_linked = true;
    list_add(&posted, r);
    /* If an unexpected header satisfied it at once, the event is queued:
     * handle it now so r->me is never used after the entry is gone. */
    drain();
}

static void on_put(MPI_Request r, const ptl_event_t *ev)
{
    r->me_linked = false;
    list_del(&posted, r);
    if (ev->ni_fail_type != PTL_NI_OK)
        mpi_fatal("receive failed (Portals ni_fail %d)",
                  (int)ev->ni_fail_type);
    if (ev->match_bits & MB_LONG) {     /* only the header came */
        size_t sent = proto_msg_len(ev);
        fill_status(r, ev->match_bits, sent < r->len ? sent : r->len, sent);
        get_long(r, (int)ev->initiator.rank, HKEY(ev->hdr_data));
        return;
    }
    if (ev->type == PTL_EVENT_PUT) {          /* landed in place */
        fill_status(r, ev->match_bits, ev->mlength, ev->rlength);
        req_complete(r);
        return;
    }
    /* PUT_OVERFLOW: it had arrived before this receive was posted */
    size_t n = ev->mlength < r->len ? ev->mlength : r->len;
    fill_status(r, ev->match_bits, n, ev->rlength);
    if (n)
        memcpy(r->data, ev->start, n);
    if (ev->hdr_data & HF_SYNC)
        ctrl_send((int)ev->initiator.rank, CTRL(C_SYNC_ACK,
                                                HKEY(ev->hdr_data)));
    req_complete(r);
}

/* ---- messages to self ---- */

static void self_send(MPI_Request r)
{
    struct uq *u;

    drain();    /* posted receives already matched must leave the list */
    for (MPI_Request q = posted; q != NULL; q = q->next) {
        if (((q->bits ^ r->bits) & ~q->ignore) != 0)
            continue;
        if (PtlMEUnlink(q->me) != PTL_OK)
            continue;           /* a remote message is landing in it */
        q->me_linked = false;
        list_del(&posted, q);
        size_t n = r->len < q->len ? r->len : q->len;
        fill_status(q, r->bits, n, r->len);
        if (n)
            memcpy(q->data, r->data, n);
        req_complete(q);
        req_complete(r);
        return;
    }
    if ((u = calloc(1, sizeof(*u))) == NULL ||
        (r->len && (u->data = malloc(r->len)) == NULL))
        mpi_fatal("out of memory holding a %zu-byte message to self", r->len);
    if (u->data == NULL)
        u->data = malloc(1);
    u->bits = r->bits;
    u->len = r->len;
    u->world = job.rank;
    if (r->len)
        memcpy(u->data, r->data, r->len);
    uq_push(u);
    if (r->mode == M_SYNC)
        u->sreq = r;            /* completes when a receive takes it */
    else
        req_complete(r);
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

static void on_ctrl(const ptl_event_t *ev)
{
    int from = (int)ev->initiator.rank;
    uint32_t key = HKEY(ev->hdr_data);

    switch ((int)(ev->hdr_data >> 56)) {
    case C_SYNC_ACK:
    case C_FIN:
        for (MPI_Request r = sync_wait; r != NULL; r = r->next)
            if (r->key == key && r->world == from) {
                list_del(&sync_wait, r);
                step_done(r);
                return;
            }
        mpi_fatal("sync/fin message from rank %d for unknown key %u",
                  from, key);
    default:
        fc_ctrl((int)(ev->hdr_data >> 56), from);
        return;
    }
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
        ((struct probe *)t)->done = true;
        ((struct probe *)t)->found = ev->ni_fail_type == PTL_NI_OK;
        ((struct probe *)t)->ev = *ev;
        return;
    }
    MPI_Request r = (MPI_Request)t;
    switch (ev->type) {
    case PTL_EVENT_ACK: on_ack(r, ev); return;
    case PTL_EVENT_GET: r->me_linked = false; return;   /* FIN follows */
    case PTL_EVENT_REPLY:
        if (ev->ni_fail_type != PTL_NI_OK)
            mpi_fatal_peer(r->world, "fetching a long message from rank "
                           "%d failed (ni_fail %d)", r->world,
                           (int)ev->ni_fail_type);
        fc_got();
        ctrl_send(r->world, CTRL(C_FIN, r->key));
        step_done(r);
        return;
    case PTL_EVENT_PUT:
    case PTL_EVENT_PUT_OVERFLOW: on_put(r, ev); return;
    default: return;
    }
}

static bool handle(int rc, const ptl_event_t *ev)
{
    if (rc == PTL_EQ_EMPTY)
        return false;
    if (rc == PTL_EQ_DROPPED)
        mpi_fatal("the MPI event queue overflowed (events lost)");
    check(rc, "PtlEQGet");
    on_event(ev);
    return true;
}

/* Handle every event already queued. */
static void drain(void)
{
    ptl_event_t ev;

    while (handle(PtlEQGet(eq, &ev), &ev))
        ;
    unstall();
}

/* Handle what is queued; then read the link: PtlEQGet only processes
 * frames the library already has (on Linux nothing reads the socket
 * without a wait), so a non-blocking pass waits at most 1 ms. */
void proto_progress(bool block)
{
    ptl_event_t ev;
    unsigned which;

    if (handle(PtlEQGet(eq, &ev), &ev)) {
        drain();
        return;
    }
    unstall();
    if (block ? handle(PtlEQWait(eq, &ev), &ev)
              : handle(PtlEQPoll(&eq, 1, 1, &ev, &which), &ev))
        drain();
}

/* ---- probe and cancel ---- */

int proto_iprobe(uint32_t ctx, int src, int tag, MPI_Comm comm, int *flag,
                 MPI_Status *st)
{
    struct mpi_req_s q = { 0 };
    struct probe pr = { .kind = UP_PROBE };
    ptl_me_t me = { 0 };
    struct uq *u;

    (void)comm;
    q.ctx = ctx;
    q.peer = src;
    q.tag = tag;
    recv_bits(&q);
    drain();
    *flag = 0;
    if ((u = uq_find(q.bits, q.ignore, false)) != NULL) {
        fill_status(&q, u->bits, u->len, u->len);
    } else {
        me.ct_handle = PTL_CT_NONE;
        me.uid = PTL_UID_ANY;
        me.options = PTL_ME_OP_PUT;
        me.match_id = rank_id(PTL_RANK_ANY);
        me.match_bits = q.bits;
        me.ignore_bits = q.ignore;
        check(PtlMESearch(job.ni, PT_DATA, &me, PTL_SEARCH_ONLY, &pr),
              "PtlMESearch (probe)");
        while (!pr.done)
            proto_progress(false);
        if (!pr.found)
            return MPI_SUCCESS;
        size_t len = proto_msg_len(&pr.ev);
        fill_status(&q, pr.ev.match_bits, len, len);
    }
    *flag = 1;
    if (st != MPI_STATUS_IGNORE)
        *st = q.status;
    return MPI_SUCCESS;
}

bool proto_cancel_recv(MPI_Request r)
{
    drain();
    if (!r->me_linked || PtlMEUnlink(r->me) != PTL_OK)
        return false;
    r->me_linked = false;
    list_del(&posted, r);
    return true;
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
    check(PtlMEAppend(job.ni, PT_DATA, &me, PTL_OVERFLOW_LIST, NULL, &h),
          "PtlMEAppend (long overflow)");
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
}

int proto_init(void)
{
    if (ptl_job_init(&job) != PTL_OK)
        return MPI_ERR_OTHER;
    if ((peers = calloc((size_t)job.size, sizeof(*peers))) == NULL)
        return MPI_ERR_INTERN;
    fc_init();
    setup_portals();
    ptl_job_barrier();      /* every rank's MPI portals exist now */
    return MPI_SUCCESS;
}

/* Wait until nothing of ours is in flight, then a barrier so no peer
 * still sends to us, then let the NI go. */
void proto_fini(void)
{
    for (;;) {
        if (sync_wait == NULL && !fc_busy())
            break;
        proto_progress(true);
    }
    ptl_job_barrier();
    drain();
    PtlMDRelease(md);
    ptl_job_fini();
    for (int i = 0; i < NBLOCKS; i++)
        free(blocks[i].mem);
    free(peers);
    while (copy_bufs_n > 0)
        free(copy_bufs[--copy_bufs_n]);
}

void proto_barrier(void)
{
    ptl_job_barrier();
}
