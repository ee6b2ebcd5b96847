/* SPDX-License-Identifier: MIT */
/*
 * proto.h: what the protocol engine's files share (proto.c: portals and
 * events; send.c: sending; recv.c: receiving; flowctl.c: holding sends
 * back).  Private to them (and to the one-sided code, rma*.c, nbc_trig.c,
 * which use the same NI, EQ and MD).
 */
#ifndef MPI_PROTO_H
#define MPI_PROTO_H

#include "mpi_impl.h"
#include "ptl_job.h"

#define PT_DATA     (PTL_JOB_PT_MPI + 0)
#define PT_READ     (PTL_JOB_PT_MPI + 1)
#define PT_CTRL     (PTL_JOB_PT_MPI + 2)
#define PT_ONE      (PTL_JOB_PT_MPI + 3)
#define EAGER_LIMIT 65536
#define COPY_LIMIT  4096        /* sends this small complete once copied */
#define COPIES_MAX  64          /* copied sends in flight at once */
#define NBLOCKS     8
#define BLOCK_SIZE  (1 << 20)
#define EQ_SIZE     16384

#define MB_LONG     (1ull << 63)
#define MB_CTX(c)   ((uint64_t)((c) & 0x7fff) << 48)
#define MB_SRC(s)   ((uint64_t)((s) & 0xfffff) << 28)
#define MB_TAG(t)   ((uint64_t)((t) & 0xfffffff))
#define MB_SRCMASK  MB_SRC(0xfffff)
#define MB_TAGMASK  MB_TAG(0xfffffff)
#define MB_GETSRC(b) ((int)(((b) >> 28) & 0xfffff))
#define MB_GETTAG(b) ((int)((b) & 0xfffffff))

/* PT_ONE's match bits for triggered broadcasts and allreduces
 * (nbc_tcoll.c): bits 63 and 47, the context and the call's number
 * (triggered barriers: bit 63 and a round below 24; windows: bit 63
 * clear, rma.h). */
#define TC_FLAG     (1ull << 47)
#define TC_SEQ      (TC_FLAG - 1)
#define TC_BITS(ctx, seq) ((1ull << 63) | MB_CTX(ctx) | TC_FLAG | \
                           ((uint64_t)(seq) & TC_SEQ))

/* hdr_data: bits 63..56 flags, 55..24 a long message's length (Portals'
 * max_msg_size is 32 bits), 23..0 the sender's key.  H_DATA: a long
 * message's put carries its data (else only its header, send.c); H_SHM:
 * the receiver copies it from the sender's memory (shm.c). */
#define HKEY_MASK   0xffffffu
#define HKEY(h)     ((uint32_t)(h) & HKEY_MASK)
#define HLEN(h)     ((size_t)(((h) >> 24) & 0xffffffffu))
#define H_DATA      (1ull << 56)
#define H_SHM       (1ull << 57)    /* single copy: shm.c */
#define CTRL(t, p)  (((uint64_t)(t) << 56) | (uint32_t)(p))
enum { C_FIN = 1, C_PAUSE, C_PAUSE_ACK, C_UNPAUSE };

struct tagged { int kind; };

/* An event for code outside the protocol (RMA, triggered collectives):
 * user_ptr points at one of these (UP_HOOK) and fn gets the event. */
struct hook {
    int kind;                   /* UP_HOOK */
    void (*fn)(struct hook *h, const ptl_event_t *ev);
};

/* An unexpected message the library holds itself: drained during flow
 * control, or sent to self.  data is NULL for a remote long message. */
struct uq {
    struct uq *next;
    uint64_t bits, hdr;
    uint64_t roff;              /* its put's remote offset (H_SHM: shm.c) */
    size_t len;
    void *data;
    int world;
    MPI_Request sreq;           /* self synchronous send to complete */
};

struct peer {
    uint64_t next_seq;
    int inflight;               /* data puts not yet ACKed */
    bool paused, pause_req;
    unsigned hdr_only;          /* long messages to it that put their
                                   header only before data goes again
                                   (send.c, learn) */
    MPI_Request resend, qtail;  /* refused or held sends, by seq */
};

static inline ptl_process_t rank_id(int world)
{
    ptl_process_t id;

    id.rank = (ptl_rank_t)world;
    return id;
}

/* A match entry over [start, start+len) for messages from rank world
 * (PTL_RANK_ANY: anyone) whose bits match outside ignore. */
static inline ptl_me_t me_make(void *start, size_t len, unsigned options,
                               ptl_rank_t world, uint64_t bits,
                               uint64_t ignore)
{
    ptl_me_t me = { 0 };

    me.start = len ? start : NULL;
    me.length = len;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = options;
    me.match_id = rank_id(world);
    me.match_bits = bits;
    me.ignore_bits = ignore;
    return me;
}

/* A use-once entry that tells nobody when it is linked or unlinked. */
#define ME_ONCE (PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE | \
                 PTL_ME_EVENT_UNLINK_DISABLE)

static inline void check(int rc, const char *what)
{
    if (rc != PTL_OK)
        mpi_fatal("%s failed (Portals error %d)", what, rc);
}

/* Each posted receive and each long or synchronous send not yet fetched
 * is a Portals match entry; the table is finite (a compute node: 1024 per
 * process).  Running out is the caller's error, not the job's end. */
static inline int entry_rc(int rc, const char *what)
{
    if (rc == PTL_NO_SPACE)
        return ERRC_NO_ENTRIES;
    check(rc, what);
    return MPI_SUCCESS;
}

/* The Portals type of a basic MPI type, and the Portals operation of a
 * built-in MPI op; -1 if Portals has none (rma_ops.c). */
int ptl_type_of(int base);
int ptl_op_of(MPI_Op op);

extern struct ptl_job job;
extern ptl_handle_eq_t eq;
extern ptl_handle_md_t md;
extern struct peer *peers;
extern MPI_Request posted;      /* receives with an ME, in post order */

/* proto.c */
void list_add(MPI_Request *head, MPI_Request r);
bool list_del(MPI_Request *head, MPI_Request r);
void uq_push(struct uq *u);
struct uq *uq_find(uint64_t bits, uint64_t ignore, MPI_Request sreq,
                   bool take);
bool drain(void);

/* send.c */
void on_ack(MPI_Request r, const ptl_event_t *ev);
void on_get(MPI_Request r);
void on_ctrl(const ptl_event_t *ev);
bool send_pending(void);
void copy_fini(void);

/* recv.c */
size_t proto_msg_len(const ptl_event_t *ev);
void fill_status(MPI_Request r, uint64_t bits, size_t got, size_t sent);
void self_send(MPI_Request r);
void on_put(MPI_Request r, const ptl_event_t *ev);
void on_reply(MPI_Request r, const ptl_event_t *ev);
void on_probe(struct tagged *t, const ptl_event_t *ev);
struct uq *proto_match(uint32_t ctx, int src, int tag);
void proto_recv_held(MPI_Request r, struct uq *u);

/* rma.c */
void rma_event(MPI_Request r, const ptl_event_t *ev);

/* flowctl.c: initiator back-pressure and flow-control recovery */
void ctrl_send(int world, uint64_t hdr);
void data_put(MPI_Request r);
void get_start(MPI_Request r);
void unstall(void);
void fc_init(void);
void fc_acked(int world);
void fc_got(void);
void fc_refused(MPI_Request r);
bool fc_withdraw(MPI_Request r);
void fc_begin(void);
void fc_ctrl(int type, int from);
void hold_drained(const ptl_event_t *ev);
struct uq *uq_from_event(const ptl_event_t *ev);
bool fc_busy(void);

#endif
