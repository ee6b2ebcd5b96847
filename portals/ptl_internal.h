/* SPDX-License-Identifier: MIT */
/*
 * ptl_internal.h: the core's private structures.  Everything lives in
 * fixed-size pools carved from the memory the host gave ptl_lib_create;
 * nothing is allocated on the message path.
 */
#ifndef PTL_INTERNAL_H
#define PTL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portals4.h"
#include "ptl_eqring.h"
#include "ptl_host.h"
#include "ptl_wire.h"

#define PTL_NNI          4       /* matching x logical */
#define PTL_INLINE_MAX   512     /* atomic operands and fetched data */
#define PTL_MAX_WINDOW   256

/* Handle layout: kind(4) | lib slot(6) | ni(2) | index(20). */
enum ptl_kind {
    PTL_K_NI = 1, PTL_K_EQ, PTL_K_CT, PTL_K_MD, PTL_K_ME
};
#define PTL_H_IDX_BITS  20
#define PTL_H_IDX_MASK  ((1u << PTL_H_IDX_BITS) - 1)

static inline uint32_t ptl_handle(unsigned kind, unsigned lib, unsigned ni,
                                  unsigned idx)
{
    return (uint32_t)kind << 28 | (uint32_t)lib << 22 | (uint32_t)ni << 20 |
           (idx & PTL_H_IDX_MASK);
}

struct ptl_lib;

/* Intrusive singly linked queue (FIFO), by pool index via pointers. */
struct ptl_link {
    struct ptl_link *next;
};

struct ptl_eq {
    bool used;
    uint8_t ni;
    struct ptl_eq_ring *ring;
    size_t ring_bytes;
    uint64_t head;                /* private copies: the ring is writable */
    uint32_t size;                /* by the application */
};

struct ptl_trig;

struct ptl_ct {
    bool used;
    uint8_t ni;
    ptl_ct_event_t *val;          /* in host shared memory */
    struct ptl_trig *trigs;       /* sorted by threshold */
};

struct ptl_md {
    bool used;
    uint8_t ni;
    uint32_t refs;                /* operations in flight */
    ptl_md_t md;
    struct ptl_eq *eq;
    struct ptl_ct *ct;
};

struct ptl_uh;

struct ptl_me {
    bool used, linked, is_le;
    uint8_t ni;
    uint8_t list;                 /* ptl_list_t */
    uint32_t pt;
    uint32_t busy;                /* messages landing in it right now */
    uint32_t uh_refs;             /* unexpected headers pointing into it */
    bool auto_unlinked;           /* AUTO_FREE due when uh_refs == 0 */
    bool unlink_pending;          /* AUTO_UNLINK when the message ends */
    bool searching;               /* PtlMESearch's entry: counts every
                                   * result on its counting event */
    bool armed;                   /* PtlTriggeredMEAppend: not linked yet */
    ptl_me_t me;
    struct ptl_ct *ct;
    void *user_ptr;
    uint64_t local_offset;        /* MANAGE_LOCAL */
    struct ptl_me *next;
};

/* A header that matched the overflow list, kept for late receives. */
struct ptl_uh {
    struct ptl_uh *next;
    struct ptl_me *me;            /* overflow entry that holds the data */
    uint8_t ni;                   /* whose max_unexpected_headers it uses */
    uint8_t wtype;                /* PTL_W_* of the request */
    uint8_t atomic_op, atomic_type;
    ptl_process_t initiator;
    ptl_uid_t uid;
    ptl_match_bits_t match_bits;
    ptl_hdr_data_t hdr_data;
    uint64_t rlength, mlength, remote_offset;
    void *start;
    /* Recorded when the message starts matching the overflow list, so a
     * receive appended while it still lands finds it; pending until its
     * last fragment.  A receive that takes a pending header is its
     * claimer: it gets PUT_OVERFLOW when the data is all there. */
    bool pending;
    struct ptl_me *claimer;
};

struct ptl_pt {
    bool used, enabled;
    unsigned options;
    struct ptl_eq *eq;
    struct ptl_me *prio, *prio_tail;
    struct ptl_me *over, *over_tail;
    struct ptl_uh *uh, *uh_tail;
};

struct ptl_ni {
    bool used;
    unsigned options;
    ptl_ni_limits_t limits;
    struct ptl_pt *pts;           /* limits.max_pt_index + 1 */
    ptl_process_t *map;           /* logical NIs: rank -> phys */
    uint32_t map_size;
    uint32_t my_rank;
    uint32_t refs;                /* PtlNIInit calls not yet finalized */
    uint64_t fini_give_up;        /* PtlNIFini draining until (0: not yet) */
    uint64_t fini_linger;         /* then lingering until (0: not yet) */
    /* Objects of this NI, against limits (PtlNIInit's desired limits may
     * make them smaller than the lib's pools, which all NIs share). */
    uint32_t n_eqs, n_cts, n_mds, n_mes, n_trigs, n_uhs;
};

/* Outgoing message: an initiator operation or a target response. */
enum ptl_msg_state { PTL_M_FREE, PTL_M_QUEUED, PTL_M_SENT };

struct ptl_msg {
    uint8_t state;
    uint8_t ni;
    bool need_send_ev;            /* wait for link ack, then SEND */
    bool need_resp;               /* wait for ACK/REPLY from the target */
    bool send_done, resp_done;
    bool is_response;
    bool owes_self;               /* to this process: a slot is kept for
                                   * its response (rel.c) */
    uint32_t frames_unacked;
    uint32_t gen;
    struct ptl_peer *peer;
    struct ptl_msg *next;         /* peer send queue */
    struct ptl_whdr hdr;          /* template for every fragment */
    const uint8_t *data;          /* payload: app address, or inline */
    bool data_app;
    uint64_t len, queued;         /* payload bytes, bytes framed so far */
    /* initiator bookkeeping */
    struct ptl_md *md, *get_md;
    uint64_t local_off, get_off;
    void *user_ptr;
    uint8_t inline_data[PTL_INLINE_MAX];
};

/* One unacknowledged frame in a peer's window. */
struct ptl_txslot {
    uint32_t seq;
    uint32_t len;
    uint64_t off;
    uint64_t sent;                /* first sent (ns); PTL_SENT_AGAIN once
                                   * resent: its ACK times nothing (Karn) */
    struct ptl_msg *msg;          /* NULL: slot free */
    struct ptl_msg *resp;         /* an ACK riding in this frame, or NULL */
    uint32_t order;               /* the peer's tx_order at its last send */
    uint32_t acks;                /* our cumulative ACK (rx_next) in its
                                   * first send */
    bool sacked;                  /* the receiver has it (selective ACK) */
};
#define PTL_SENT_AGAIN UINT64_MAX

/* Receive-side state of the message a peer is streaming to us. */
struct ptl_rxmsg {
    bool active;
    uint8_t wtype;
    uint64_t rlength;
    uint64_t mlength;
    uint8_t *dst;                 /* app address of byte 0, or NULL */
    struct ptl_me *me;            /* target side */
    struct ptl_msg *op;           /* initiator side (REPLY) */
    struct ptl_msg *resp;         /* target side: our ACK/REPLY */
    struct ptl_whdr first;        /* header of the first fragment */
    uint8_t fail;
    uint8_t list;
    bool ack_disabled;            /* the entry has ACK_DISABLE (kept here:
                                   * it may be freed before the ACK goes) */
    uint64_t offset;              /* where in the ME the data lands */
    struct ptl_pt *pt;
    struct ptl_uh *uh;            /* overflow: its (pending) header */
};

struct ptl_peer {
    bool used;
    uint32_t nid, pid;
    uint32_t epoch;               /* theirs, 0 until heard from */
    uint32_t tx_next, tx_acked;   /* seq to use next, oldest unacked */
    uint32_t tx_resend;           /* next presumed-lost frame to resend */
    uint32_t cwnd;                /* frames allowed in flight now */
    uint32_t rx_next;             /* next seq we expect */
    uint32_t rx_confirmed;        /* our ACK they are known to hold: the
                                   * one in a frame of ours they acked */
    uint64_t rx_last;             /* when a sequenced frame last came */
    bool ack_owed, dead;
    bool ack_waited;              /* of what is owed, a frame with more
                                   * than a Portals ACK: its sender may
                                   * wait on our link ACK (SEND event) */
    uint32_t unacked_rx;          /* frames received since last ack sent */
    uint64_t rto, deadline;       /* retransmission timer */
    bool probe;                   /* deadline is the tail-loss probe's,
                                   * not yet the RTO */
    uint64_t srtt, rttvar;        /* round trip: smoothed, mean deviation
                                   * (0: no sample yet) */
    uint64_t rto_base;            /* RTO from them; rto returns to it on
                                   * progress */
    uint64_t ack_due;             /* delayed ACK: send a LACK by then */
    uint32_t retries;
    uint32_t dupacks;             /* GAP LACKs that taught nothing */
    uint32_t recover;             /* in recovery until tx_acked reaches it:
                                   * one window cut per loss episode */
    uint32_t ssthresh;            /* AIMD: cwnd grows +1 a round above */
    uint32_t cwnd_acc;            /* frames acked toward that +1 */
    uint32_t nsacked;             /* slots in the window marked sacked */
    uint32_t high_sack;           /* one past the newest sacked seq */
    uint32_t tx_order;            /* transmissions to this peer so far */
    uint32_t delivered_order;     /* newest transmission known to arrive */
    uint64_t rx_sack;             /* bit i: seq rx_next + i already taken
                                   * (landed beyond a gap) */
    bool ack_gap;                 /* the owed LACK is a GAP LACK */
    bool ack_rnr;                 /* ... an RNR LACK: we refused rx_next */
    bool rx_refused;              /* we refused rx_next, said RNR, and take
                                   * nothing beyond it until it comes */
    bool tx_stalled;              /* the host could not take a frame to
                                   * them: retry soon, blame nobody */
    uint64_t stalled_since;       /* ... and has not taken one since then
                                   * (0: it has) */
    uint64_t rnr_until;           /* they refused our request for want of
                                   * a slot: none goes before then */
    uint64_t rnr_wait;            /* and the pause, doubled while they
                                   * refuse */
    bool interleaved;             /* the last frame was a one-frame
                                   * message's, sent inside a larger one */
    bool authed;                  /* its frames carry the cluster's MAC:
                                   * no other frame from its address may
                                   * change what it owns here */
    uint64_t born;                /* then: its incarnation's start */
    struct ptl_msg *sq, *sq_tail; /* messages waiting for the window */
    struct ptl_msg *held, *held_tail; /* ACKs waiting to ride along with
                                   * our next frame to this peer */
    uint64_t held_due;            /* ... or to go alone by then */
    struct ptl_txslot *win;       /* window slots, indexed seq % window */
    struct ptl_rxmsg rx;
    struct ptl_peer *hnext;       /* hash chain */
    struct ptl_peer *lnext;       /* every peer, newest first */
};

enum ptl_trig_kind {
    PTL_T_PUT, PTL_T_GET, PTL_T_ATOMIC, PTL_T_FETCH, PTL_T_SWAP,
    PTL_T_CTINC, PTL_T_CTSET,
    PTL_T_APPEND, PTL_T_UNLINK    /* PtlTriggeredMEAppend/MEUnlink (LE) */
};

/* A deferred operation; the arguments are copied at registration. */
struct ptl_trig {
    bool used;
    uint8_t kind;
    uint8_t ni;                   /* its counter's NI (limits) */
    struct ptl_trig *next;
    struct ptl_ct *trig_ct;
    uint64_t threshold;
    ptl_handle_md_t md, get_md;
    ptl_size_t local_off, get_off, length, remote_off;
    ptl_ack_req_t ack_req;
    ptl_process_t target;
    ptl_pt_index_t pt;
    ptl_match_bits_t bits;
    void *user_ptr;
    ptl_hdr_data_t hdr_data;
    ptl_op_t op;
    ptl_datatype_t dt;
    uint8_t operand[32];
    ptl_handle_ct_t ct;           /* CTINC/CTSET target */
    ptl_ct_event_t ctval;
    struct ptl_me *entry;         /* APPEND: filled, waiting to be linked */
    uint32_t entry_h;             /* UNLINK: the entry's handle */
};

/* A fixed-size pool: objects plus a stack of free indexes. */
struct ptl_pool {
    void *base;
    size_t objsize;
    size_t clear;                 /* bytes ptl_pool_get zeroes */
    uint32_t count, nfree;
    uint32_t *free;
};

#define PTL_RTT_HINTS 256      /* 6 KiB */

struct ptl_lib {
    bool live;
    unsigned slot;
    const struct ptl_host_ops *ops;
    void *ctx;
    struct ptl_lib_params p;
    struct ptl_lib_stats st;
    uint32_t msg_gen;
    uint32_t self_owed;           /* slots kept for the responses of
                                   * operations to this process */
    struct ptl_ni ni[PTL_NNI];
    struct ptl_pool eqs, cts, mds, mes, uhs, msgs, peers, trigs;
    struct ptl_peer **phash;
    uint32_t phash_size;
    struct ptl_peer *peer_list;   /* the peers heard from or sent to: the
                                   * timers walk these, not the whole pool
                                   * (per frame, under emulation, that walk
                                   * was most of the receive path) */
    struct ptl_txslot *wins;      /* max_peers windows of p.window */
    struct ptl_rtt_hint {         /* the round trip last measured to a  */
        uint32_t nid;             /* node, by nid mod PTL_RTT_HINTS:   */
        uint64_t srtt, rttvar;    /* a new peer there starts from it   */
    } rtt_hint[PTL_RTT_HINTS];    /* (RFC 2140; srtt 0: none)          */
    uint8_t frame_hdr[PTL_FRAME_HMAX];
    int in_fire;                  /* nested trigger firing guard */
    struct ptl_trig *trig_wait, **trig_wait_tail; /* fired operations
                                   * waiting for a message slot, in order */
    uint64_t changes;             /* events posted, counters moved: a
                                   * host wakes its waiters when it grows */
};

/* ---- lib.c ---- */
extern struct ptl_lib *ptl_libs[PTL_MAX_IFACES];
void *ptl_pool_get(struct ptl_pool *pl);
void ptl_pool_put(struct ptl_pool *pl, void *obj);
uint32_t ptl_pool_idx(const struct ptl_pool *pl, const void *obj);
void *ptl_pool_at(const struct ptl_pool *pl, uint32_t idx);
/* Resolve a handle of kind to (lib, object); NULL if invalid. */
void *ptl_resolve(uint32_t h, unsigned kind, struct ptl_lib **lib);
struct ptl_ni *ptl_resolve_ni(ptl_handle_ni_t h, struct ptl_lib **lib,
                              unsigned *nii);
void ptl_enter(struct ptl_lib *lib);
void ptl_leave(struct ptl_lib *lib);
uint64_t ptl_now(struct ptl_lib *lib);
/* Run the host's wait hook until deadline (lock released meanwhile). */
int ptl_block(struct ptl_lib *lib, uint64_t deadline);
/* Take in what the link already holds, never blocking (PtlEQGet/CTGet). */
void ptl_poll(struct ptl_lib *lib);
uint64_t ptl_deadline_ms(struct ptl_lib *lib, ptl_time_t ms);
void ptl_memzero(void *p, size_t n);
void ptl_memcopy(void *d, const void *s, size_t n);

/* ---- eq.c ---- */
struct ptl_eq *ptl_eq_get(struct ptl_lib *lib, ptl_handle_eq_t h, int ni);
/* Post an event; false if the ring was full (event dropped). */
bool ptl_eq_post(struct ptl_lib *lib, struct ptl_eq *eq,
                 const ptl_event_t *ev);
bool ptl_eq_post_reserved(struct ptl_lib *lib, struct ptl_eq *eq,
                          const ptl_event_t *ev);
uint64_t ptl_eq_space(const struct ptl_eq *eq);

/* ---- ct.c ---- */
struct ptl_ct *ptl_ct_get(struct ptl_lib *lib, ptl_handle_ct_t h, int ni);
void ptl_ct_add(struct ptl_lib *lib, struct ptl_ct *ct, uint64_t ok,
                uint64_t fail);
void ptl_ct_fire(struct ptl_lib *lib, struct ptl_ct *ct);
void ptl_trig_retry(struct ptl_lib *lib);
/* list.c: an entry made (ptl_me_new) and linked later (ptl_me_fire) for
 * the triggered appends and unlinks of ct.c. */
int ptl_me_new(struct ptl_lib *lib, unsigned nii, ptl_pt_index_t pti,
               const ptl_me_t *mein, bool is_le, ptl_list_t list,
               void *uptr, uint32_t *out, struct ptl_me **mep);
void ptl_le_to_me(const ptl_le_t *le, ptl_me_t *me);
void ptl_me_fire(struct ptl_lib *lib, struct ptl_me *me);
void ptl_me_disarm(struct ptl_lib *lib, struct ptl_me *me);
void ptl_me_unlink_handle(struct ptl_lib *lib, uint32_t h);
/* ct.c: hang a copy of tmpl on counter trig_ct (lock held). */
int ptl_trig_add(struct ptl_lib *lib, const struct ptl_trig *tmpl,
                 ptl_handle_ct_t trig_ct);
void ptl_trig_drop_all(struct ptl_lib *lib, struct ptl_ct *ct);

/* ---- list.c ---- */
/* An unexpected header for NI nii, within its max_unexpected_headers
 * (NULL: none left); is one left? */
struct ptl_uh *ptl_uh_get(struct ptl_lib *lib, unsigned nii);
bool ptl_uh_room(const struct ptl_lib *lib, unsigned nii);
bool ptl_me_matches(const struct ptl_lib *lib, const struct ptl_ni *ni,
                    const struct ptl_me *me, const struct ptl_whdr *h,
                    ptl_process_t init);
void ptl_me_release(struct ptl_lib *lib, struct ptl_me *me);
void ptl_uh_landed(struct ptl_lib *lib, struct ptl_pt *pt,
                   struct ptl_uh *uh, uint64_t mlength, uint8_t fail);
void ptl_uh_abort(struct ptl_lib *lib, struct ptl_pt *pt,
                  struct ptl_uh *uh);
void ptl_me_unlink(struct ptl_lib *lib, struct ptl_pt *pt,
                   struct ptl_me *me);
void ptl_pt_reset(struct ptl_lib *lib, struct ptl_pt *pt);
/* Does unexpected header uh match entry me?  ptl_uh_scan: walk pt's
 * unexpected list for me (deliver: report and remove matches, else
 * report them as SEARCH events; once: stop at the first; claim: me is
 * a real entry, see list.c); how many matched.  search.c uses both. */
bool ptl_uh_matches(struct ptl_lib *lib, struct ptl_ni *ni,
                    const struct ptl_me *me, const struct ptl_uh *uh);
unsigned ptl_uh_scan(struct ptl_lib *lib, struct ptl_ni *ni,
                     struct ptl_pt *pt, struct ptl_me *me, bool deliver,
                     bool once, bool claim);

/* ---- target.c ---- */
/* Process an in-order request fragment; false = no resources, retry. */
bool ptl_tgt_rx(struct ptl_lib *lib, struct ptl_peer *peer,
                const struct ptl_whdr *h, const uint8_t *data);
void ptl_target_event(struct ptl_lib *lib, struct ptl_pt *pt,
                      struct ptl_me *me, ptl_event_kind_t kind,
                      const ptl_event_t *tmpl);
ptl_process_t ptl_initiator_of(const struct ptl_lib *lib,
                               const struct ptl_ni *ni,
                               const struct ptl_whdr *h);

/* ---- initiator.c ---- */
bool ptl_ini_rx(struct ptl_lib *lib, struct ptl_peer *peer,
                const struct ptl_whdr *h, const uint8_t *data);
void ptl_msg_sent(struct ptl_lib *lib, struct ptl_msg *m);
void ptl_msg_fail(struct ptl_lib *lib, struct ptl_msg *m, uint8_t fail);
int ptl_do_put(struct ptl_lib *lib, ptl_handle_md_t mdh, ptl_size_t loff,
               ptl_size_t len, ptl_ack_req_t ack, ptl_process_t tgt,
               ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
               void *uptr, ptl_hdr_data_t hdr, uint8_t wtype, ptl_op_t op,
               ptl_datatype_t dt);
int ptl_do_get(struct ptl_lib *lib, ptl_handle_md_t gmdh, ptl_size_t goff,
               ptl_handle_md_t pmdh, ptl_size_t poff, ptl_size_t len,
               ptl_process_t tgt, ptl_pt_index_t pt, ptl_match_bits_t bits,
               ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
               uint8_t wtype, const void *operand, ptl_op_t op,
               ptl_datatype_t dt);

/* ---- peer.c ---- */
struct ptl_peer *ptl_peer_find(struct ptl_lib *lib, uint32_t nid,
                               uint32_t pid, bool create);
/* Leaving: a NOP to each peer that may still need our last link ACK;
 * the longest RTO measured to those peers, 0 if none (peer.c). */
uint64_t ptl_peer_confirm_acks(struct ptl_lib *lib);
/* A message slot: a response, or an operation (to this very process if
 * self); NULL if none may be taken. */
struct ptl_msg *ptl_msg_alloc(struct ptl_lib *lib, bool response, bool self);
void ptl_msg_free(struct ptl_lib *lib, struct ptl_msg *m);
void ptl_msg_self_answered(struct ptl_lib *lib, uint32_t id);
struct ptl_msg *ptl_msg_lookup(struct ptl_lib *lib, uint32_t id);
/* Queue a message to its peer and push what the window allows. */
void ptl_rel_send(struct ptl_lib *lib, struct ptl_msg *m);
void ptl_rel_drop_peer_msgs(struct ptl_lib *lib, struct ptl_peer *peer);
/* ptl_lib_busy but for link ACKs owed: our own frames are queued or
 * unacknowledged. */
bool ptl_lib_sending(struct ptl_lib *lib);
/* Frames are in flight: start the peer's probe timer, then its RTO. */
void ptl_rel_arm(struct ptl_lib *lib, struct ptl_peer *p);
void ptl_rel_peer_reset(struct ptl_lib *lib, struct ptl_peer *p);
/* A new peer's round trip and timeout: its node's last measured, else
 * rto_init_ns (recover.c). */
void ptl_rel_rtt_start(struct ptl_lib *lib, struct ptl_peer *p);
/* Resend presumed-lost frames, then frame new data, within the window. */
void ptl_rel_push(struct ptl_lib *lib, struct ptl_peer *p);
/* Send one window slot again (not timed: Karn). */
void ptl_rel_resend(struct ptl_lib *lib, struct ptl_peer *p,
                    struct ptl_txslot *s);
bool ptl_rel_release_held(struct ptl_lib *lib, struct ptl_peer *p);
void ptl_rel_send_lack(struct ptl_lib *lib, struct ptl_peer *p);
/* The peer refused frame tx_acked and took nothing after it (RNR): take
 * back every frame from it into the send queue, responses first. */
void ptl_rel_unframe(struct ptl_lib *lib, struct ptl_peer *p);

/* ---- recover.c: the sender's side of acknowledgement ---- */
/* The cumulative ACK of any frame from p, and a LACK's SACK and GAP. */
void ptl_rel_ack(struct ptl_lib *lib, struct ptl_peer *p,
                 const struct ptl_whdr *h);

/* ---- atomic_ops.c ---- */
size_t ptl_atomic_dtsize(ptl_datatype_t dt);
/* Is (op, dt, len) a legal combination? */
bool ptl_atomic_valid(ptl_op_t op, ptl_datatype_t dt, uint64_t len,
                      bool is_swap);
/* dst = dst OP src over len bytes (whole elements); operand for CSWAP and
 * MSWAP. */
void ptl_atomic_apply(ptl_op_t op, ptl_datatype_t dt, void *dst,
                      const void *src, const void *operand, size_t len);

#endif /* PTL_INTERNAL_H */
