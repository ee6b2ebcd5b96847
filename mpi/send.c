/* SPDX-License-Identifier: MIT */
/*
 * send.c: the sending side of the protocol (proto.c describes it): small
 * sends completed by a copy, eager puts, long and synchronous sends that
 * expose their buffer on READ, put their data and finish on an ACK from
 * a posted receive or on FIN, acknowledgements, and cancelling a send
 * that has not been matched.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "proto.h"
#include "shm.h"

static MPI_Request rdv_wait;    /* long and synchronous sends, not done */
static uint32_t next_key;
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

void copy_fini(void)
{
    while (copy_bufs_n > 0)
        free(copy_bufs[--copy_bufs_n]);
}

/* Anything sent that still waits for its FIN? */
bool send_pending(void)
{
    return rdv_wait != NULL;
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

    if (len > (size_t)copy_limit || copies_out >= COPIES_MAX)
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

/* Whether a long message's put carries its data is decided per peer by
 * how the last ones fared (each ACK says from which list).  Data that
 * finds no receive is dropped and then fetched: it crossed the link
 * twice, while data that lands saves only a Get's round trip.  A late
 * receive is the rule, not the exception, in a ping-pong without
 * pre-posting: the target holds the ACK that completes the sender's send
 * until it rides in the first frame of the answer (portals/rel.c,
 * hold_ack), so the answer arrives before its receive; measured with 1
 * MiB, 24 to 38 of 42 messages came unexpected.  So after one comes
 * unexpected, long messages to that peer put their header only (the
 * receiver fetches, as before this protocol) until DATA_AFTER in a row
 * have found their receive posted.  With 1 at most a message in four
 * dropped its data in that ping-pong; with 8 one in the whole run (two
 * nodes, 20 rounds of 256 KiB and 1 MiB, three runs each). */
#define DATA_AFTER 8
static int dropped;              /* long puts whose data found no receive */

int MPIX_Long_dropped_count(void) { return dropped; }

static void learn(MPI_Request r)
{
    struct peer *p = &peers[r->world];

    if (!r->prio)
        p->hdr_only = DATA_AFTER;
    else if (p->hdr_only > 0)
        p->hdr_only--;
    if ((r->hdr & H_DATA) && !r->prio)
        dropped++;
}

static bool data_ok(int world)
{
    return peers[world].hdr_only == 0;
}

/* A long or synchronous send: its data goes in the put (H_DATA), but if
 * no receive was posted only the header stays (proto.c), and the receiver
 * Gets the data from a READ entry named by the key when a receive
 * matches it.  Exposed before the put: that Get may come at once. */
static int expose(MPI_Request r)
{
    ptl_me_t me = me_make(r->data, r->len, PTL_ME_OP_GET | ME_ONCE,
                          (ptl_rank_t)r->world, r->key, 0);
    int rc = entry_rc(PtlMEAppend(job.ni, PT_READ, &me, PTL_PRIORITY_LIST, r,
                              &r->me), "PtlMEAppend (long send)");
    r->me_linked = rc == MPI_SUCCESS;
    return rc;
}

/* Start a send; an error (no match entry for a long one, too long) is
 * returned before anything leaves. */
int proto_send(MPI_Request r)
{
    /* A synchronous send is a long one whatever its size: it is done
     * when a receive took it (the ACK from a posted receive, or FIN
     * after a fetch), and until then it can be withdrawn (MPI_Cancel).
     * So is a single copy to a rank of this node (shm.c). */
    bool rdv;
    int rc;

    pvc.sent++;
    pvc.sent_bytes += r->len;
    r->world = r->comm->remote->world[r->peer];
    rdv = r->len > (size_t)eager_limit || r->mode == M_SYNC ||
          shm_send_wanted(r);
    r->bits = MB_CTX(r->ctx) | MB_SRC(r->comm->rank) | MB_TAG(r->tag) |
              (rdv ? MB_LONG : 0);
    if (r->world == job.rank) {
        self_send(r);
        return MPI_SUCCESS;
    }
    if (rdv && r->len > UINT32_MAX)
        return ERRC_SIZE4G;
    if (++next_key > HKEY_MASK)
        next_key = 1;           /* 24 bits: a key names one send in flight */
    r->key = next_key;
    if (rdv && !shm_send_post(r) && (rc = expose(r)) != MPI_SUCCESS)
        return rc;
    if (!rdv)
        r = copy_send(r);
    r->seq = peers[r->world].next_seq++;
    r->hdr = r->key | (rdv ? (uint64_t)r->len << 24 : 0) |
             (r->shm ? H_SHM : rdv && data_ok(r->world) ? H_DATA : 0);
    r->wait = 1;                        /* the ACK */
    r->prio = r->put_out = r->cancel_req = false;
    if (rdv) {
        list_add(&rdv_wait, r);
        r->wait++;              /* delivered by the put, FIN, or withdrawn */
    }
    data_put(r);
    return MPI_SUCCESS;
}

static void step_done(MPI_Request r)
{
    if (--r->wait == 0)
        req_complete(r);
}

/* A long or synchronous send's put landed in a posted receive: that
 * receive is complete (truncated or not: the ACK's mlength is what fit),
 * nobody will fetch the data, so the READ entry goes and no FIN comes. */
static void delivered(MPI_Request r)
{
    if (r->me_linked)
        check(PtlMEUnlink(r->me), "PtlMEUnlink (long send delivered)");
    r->me_linked = false;
    list_del(&rdv_wait, r);
    r->wait--;
}

static bool cancel_now(MPI_Request r);

void on_ack(MPI_Request r, const ptl_event_t *ev)
{
    r->put_out = false;
    if (ev->ni_fail_type == PTL_NI_PT_DISABLED) {
        fc_refused(r);                  /* PAUSE follows; held, re-sent */
        if (r->cancelled)
            step_done(r);               /* ... unless withdrawn */
        else if (r->cancel_req)         /* nothing landed: withdraw it */
            cancel_now(r);
        return;
    }
    fc_acked(r->world);
    if (ev->ni_fail_type != PTL_NI_OK)
        mpi_fatal_peer(r->world, "message to rank %d failed (Portals "
                       "ni_fail %d): is that rank alive?", r->world,
                       (int)ev->ni_fail_type);
    r->prio = ev->ptl_list == PTL_PRIORITY_LIST;
    if (r->copied)
        copies_out--;
    if ((r->bits & MB_LONG) && !r->shm)
        learn(r);
    if ((r->hdr & H_DATA) && r->prio) {
        delivered(r);                   /* too late to cancel */
    } else if (r->cancel_req && r->wait > 1) {
        r->wait--;                      /* the ACK; FIN is still to come */
        cancel_now(r);                  /* only its header was kept */
        return;
    }
    step_done(r);
}

/* The receiver's Get took a READ entry: a FIN follows once the data has
 * left (this event comes when the request arrives, before the reply). */
void on_get(MPI_Request r)
{
    r->me_linked = false;
}

void on_ctrl(const ptl_event_t *ev)
{
    int from = (int)ev->initiator.rank;
    uint32_t key = HKEY(ev->hdr_data);

    if ((int)(ev->hdr_data >> 56) != C_FIN) {
        fc_ctrl((int)(ev->hdr_data >> 56), from);
        return;
    }
    for (MPI_Request r = rdv_wait; r != NULL; r = r->next)
        if (r->key == key && r->world == from) {
            if (r->shm)
                shm_send_done(r);
            list_del(&rdv_wait, r);
            step_done(r);
            return;
        }
    mpi_fatal("FIN from rank %d for unknown key %u", from, key);
}

/* ---- cancelling a send ---- */

/* A synchronous send to self waits in the held queue until a receive
 * takes it: withdrawn if it is still there. */
static bool cancel_self(MPI_Request r)
{
    struct uq *u = uq_find(r->bits, MB_LONG, r, true);

    if (u == NULL)
        return false;
    free(u->data);
    free(u);
    r->wait = 0;
    return true;
}

/* A message still held by flow control (never sent, or refused), or a
 * long or synchronous one whose READ entry nobody has fetched (a receiver
 * that matches its header later finds nothing and forgets it). */
static bool withdraw(MPI_Request r)
{
    bool held = fc_withdraw(r);

    if (r->shm) {               /* single copy: unless a receive took it */
        if (!shm_send_cancel(r))
            return false;       /* being copied: FIN will come */
        list_del(&rdv_wait, r);
        r->wait -= held ? 2 : 1;        /* FIN, and the ACK if held */
        return true;
    }
    if (!held && r->put_out && (r->hdr & H_DATA)) {
        /* Its data may be landing in a posted receive: the ACK will say
         * (on_ack decides then); MPI_Wait waits for that ACK anyway. */
        r->cancel_req = true;
        return false;
    }
    if (!held && !r->me_linked)
        return false;           /* eager and sent, or being fetched */
    if (r->me_linked) {
        if (PtlMEUnlink(r->me) != PTL_OK)
            return false;       /* the Get is under way: FIN will come */
        r->me_linked = false;
        list_del(&rdv_wait, r);
        r->wait--;
    }
    if (held)
        r->wait--;              /* its ACK will never come */
    return true;
}

/* Withdraw r if no receive has matched it.  Local: no answer from the
 * receiver is awaited, only the ACK of a put already sent, which says
 * whether it landed in a posted receive (the cancel fails) or only its
 * header was kept (withdrawn then, in on_ack). */
static bool cancel_now(MPI_Request r)
{
    if (r->state != RS_ACTIVE || r->internal)
        return false;
    if (r->world == job.rank ? !cancel_self(r) : !withdraw(r))
        return false;
    r->cancelled = true;
    r->status.mpi_cancelled = 1;
    if (r->wait == 0)
        req_complete(r);
    return true;
}

bool proto_cancel_send(MPI_Request r)
{
    drain();        /* a GET already queued means the data is taken */
    return cancel_now(r);
}
