/* SPDX-License-Identifier: MIT */
/*
 * nx_internal.h: libnx's private state.  One process per node, one thread;
 * progress happens inside NX calls (nx_progress), never behind the
 * program's back.  See nx/README.md for the protocol.
 */
#ifndef NX_INTERNAL_H
#define NX_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "nx.h"
#include "ptl_job.h"

/* Portal indexes (PTL_JOB_PT_NX..+3 are ours). */
#define NX_PT_DATA  (PTL_JOB_PT_NX + 0)  /* messages; flow controlled */
#define NX_PT_RNDV  (PTL_JOB_PT_NX + 1)  /* long messages' data, for Get */
#define NX_PT_CTL   (PTL_JOB_PT_NX + 2)  /* flow-control handshake */

/*
 * Match bits of a message on NX_PT_DATA:
 *   [63] internal (collectives) | [62:48] destination ptype |
 *   [47] long (every receive ignores it) | [46:32] source ptype |
 *   [31:0] type
 * The source node is the initiator's rank (Portals matches it).
 */
#define NX_MB_INTERNAL   (1ull << 63)
#define NX_MB_LONG       (1ull << 47)
#define NX_MB_DPTYPE     48
#define NX_MB_SPTYPE     32
#define NX_MB_PTYPE_MASK 0x7fffull
#define NX_MB_TYPE_MASK  0xffffffffull
#define NX_PTYPE_MAX     32767L
#define NX_TYPE_MAX      999999999L

/* hdr_data: [63] long | [62] the data came along | [61:40] cookie |
 * [39:0] message length. */
#define NX_HD_RNDV       (1ull << 63)
#define NX_HD_DATA       (1ull << 62)
#define NX_HD_COOKIE     40
#define NX_HD_COOKIE_MASK 0x3fffffull
#define NX_DATA_AFTER    8      /* posted receives in a row before a long
                                 * message to that peer carries data again */
#define NX_HD_LEN_MASK   ((1ull << 40) - 1)

/* Control messages on NX_PT_CTL: hdr_data = op << 32 | epoch. */
enum nx_ctl { NX_CTL_DISABLED = 1, NX_CTL_READY, NX_CTL_RESUME, NX_CTL_BYE,
              NX_CTL_FIN };     /* FIN: epoch = cookie of a fetched leg */

#define NX_MAX_INFLIGHT  256    /* Puts and Gets awaiting ACK/REPLY, at
                                 * most; see nx.max_inflight */
#define NX_MAX_REQS      65535  /* message ids: index in the low 16 bits */

struct nx_info {
    long type, count, node, ptype;
};

struct nx_req;

/* One destination of a send (node -1 makes one per other node). */
struct nx_leg {
    struct nx_req *req;
    struct nx_leg *next;        /* in its peer's queue or nack list */
    int dst;
    int issued;                 /* a Put is out, its ACK not yet in */
    int acked, got, done;       /* long: Put ACKed, receiver has the data */
    int listed;                 /* long: on nx.fin_head until it has */
    int with_data;              /* long: this Put carries the data */
    struct nx_leg *fin_next;
    uint32_t cookie;
    ptl_handle_me_t me;         /* rendezvous: the exposed buffer */
    int has_me;
};

enum nx_req_kind { NX_REQ_FREE, NX_REQ_SEND, NX_REQ_RECV };

struct nx_req {
    enum nx_req_kind kind;
    unsigned gen;               /* message id = gen << 16 | index */
    int index;
    int done;
    int err;                    /* errno value once done, 0 if fine */
    char errmsg[160];
    int err_peer;               /* 1 + the node whose absence failed it */
    /* send */
    const void *sbuf;
    long count;
    uint64_t bits;
    int rndv;
    int detached;               /* libnx's own copy of a short message */
    void *bounce;               /* that copy */
    struct nx_leg *legs;
    int nlegs, legs_left;
    /* receive */
    void *rbuf;
    long rcount;
    int nodesel;                /* -1 any */
    uint64_t rbits, ignore;
    ptl_handle_me_t me;
    int linked;                 /* posted and not yet matched */
    struct nx_req *posted_next; /* posted receives, in posting order */
    int get_src;
    uint32_t get_cookie;
    long get_len;
    struct nx_req *get_next;    /* Gets waiting for an in-flight slot */
    long *infox;                /* irecvx's info array */
    struct nx_info info;
};

/* Per other node. */
struct nx_peer {
    struct nx_leg *q_head, *q_tail;       /* not yet issued, in order */
    struct nx_leg *nack_head, *nack_tail; /* refused: resend these first */
    int inflight;               /* Puts to it whose ACK is not in */
    int paused;                 /* its data portal is disabled */
    int ready_owed;             /* it asked for READY (epoch below) */
    uint32_t ready_epoch;
    int readied;                /* (our recovery) its READY came */
    int gone;                   /* said BYE: sends nothing more */
    int hdr_only;               /* long messages to it go header only for
                                 * this many more found posted (send.c) */
};

/* A control message Portals had no room for yet (flow.c). */
struct nx_ctlmsg {
    struct nx_ctlmsg *next;
    int to;
    ptl_hdr_data_t hdr;
};

/* A message a node sent to itself: copied, matched by libnx. */
struct nx_selfmsg {
    struct nx_selfmsg *next;
    uint64_t bits;
    long len;
    char data[];
};

struct nx_block {
    void *mem;
    ptl_handle_me_t me;
    int linked;
};

struct nx_state {
    int up, finished;
    struct ptl_job job;
    int me, n;
    long ptype;
    ptl_handle_eq_t tgt_eq, ctl_eq, ini_eq;
    ptl_handle_md_t ctl_md;
    ptl_handle_md_t all_md;     /* the user address space (ptl_job.h):
                                   every data Put and rendezvous Get */
    ptl_handle_me_t ctl_me;
    ptl_handle_me_t long_me;    /* overflow: keeps only a long one's header */
    struct nx_peer *peers;
    /* message ids */
    struct nx_req **reqs;
    int nreqs;
    struct nx_req *posted_head;
    struct nx_req *get_head, *get_tail;
    int inflight;               /* all Puts and Gets awaiting a response */
    int max_inflight;           /* its cap: each holds an MD (init.c) */
    int starved;                /* Portals said NO_SPACE: retry soon */
    struct nx_ctlmsg *ctl_head, *ctl_tail; /* control messages to retry */
    int legs_pending;           /* send legs not done */
    uint32_t next_cookie;
    struct nx_leg *fin_head;    /* long legs the receiver has not taken */
    /* buffer for unexpected messages */
    struct nx_block *blocks;
    int nblocks, blocks_linked;
    long eager, copy, block_size, buffer_max;
    /* flow control, as the target */
    int fc_active, fc_waiting;
    uint32_t fc_epoch;
    /* self messages, the last message's description, probes */
    struct nx_selfmsg *self_head, *self_tail;
    struct nx_info last;
    int probe_done, probe_found;
    struct nx_info probe_info;
    unsigned long arrivals;     /* PUTs on the data portal (cprobe) */
    unsigned coll_seq;
    char errmsg[200];
    int err_peer;               /* of the last error, as nx_req's */
    struct { long recoveries, nacks, blocks_added;
             long long_in_place, long_fetched; } stats;
};

extern struct nx_state nx;

/* init.c */
int nx_up(void);
int nx_block_add(void);
void nx_block_repost(struct nx_block *b);
int nx_error(int err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
__attribute__((noreturn)) void nx_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* progress.c */
void nx_progress(int wait);
int nx_wait_req(struct nx_req *r);

/* req.c */
struct nx_req *nx_req_new(enum nx_req_kind kind);
void nx_req_free(struct nx_req *r);
struct nx_req *nx_req_find(long mid);
long nx_req_id(const struct nx_req *r);

/* send.c */
int nx_send_start(struct nx_req *r, const void *buf, long count, long node,
                  uint64_t bits);
void nx_pump(int dst);
void nx_pump_all(void);
void nx_on_ack(struct nx_leg *leg, const ptl_event_t *ev);
void nx_on_get(struct nx_leg *leg);
void nx_on_fin(int from, uint32_t cookie);

/* recv.c */
int nx_recv_start(struct nx_req *r, void *buf, long count, long nodesel,
                  uint64_t bits, uint64_t ignore);
void nx_on_match(struct nx_req *r, const ptl_event_t *ev);
void nx_on_reply(struct nx_req *r, const ptl_event_t *ev);
void nx_pump_gets(void);
int nx_recv_cancel(struct nx_req *r);
int nx_self_deliver(uint64_t bits, const void *buf, long len);
int nx_probe(uint64_t bits, uint64_t ignore, long nodesel,
             struct nx_info *info);
void nx_posted_remove(struct nx_req *r);

/* flow.c */
void nx_flow_disabled(void);
void nx_flow_ctl(const ptl_event_t *ev);
void nx_flow_nacked(struct nx_leg *leg);
void nx_flow_try_ready(int dst);
void nx_flow_poll(void);
void nx_flow_bye(void);
void nx_ctl_send(int to, enum nx_ctl op, uint32_t arg);
void nx_ctl_flush(void);

/* global.c */
int nx_gsync(void);

/* bits for user messages */
static inline uint64_t nx_bits(long type, long dptype, long sptype)
{
    return ((uint64_t)dptype << NX_MB_DPTYPE) |
           ((uint64_t)sptype << NX_MB_SPTYPE) | (uint64_t)type;
}

#endif /* NX_INTERNAL_H */
