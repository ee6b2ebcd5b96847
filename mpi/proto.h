/* SPDX-License-Identifier: MIT */
/*
 * proto.h: what the protocol engine's two files share (proto.c: sending,
 * receiving, events; flowctl.c: holding sends back).  Private to them.
 */
#ifndef MPI_PROTO_H
#define MPI_PROTO_H

#include "mpi_impl.h"
#include "ptl_job.h"

#define PT_DATA     (PTL_JOB_PT_MPI + 0)
#define PT_READ     (PTL_JOB_PT_MPI + 1)
#define PT_CTRL     (PTL_JOB_PT_MPI + 2)
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

/* hdr_data: bits 63..56 flags, 55..24 a long message's length (Portals'
 * max_msg_size is 32 bits), 23..0 the sender's key. */
#define HF_SYNC     (1ull << 56)
#define HKEY_MASK   0xffffffu
#define HKEY(h)     ((uint32_t)(h) & HKEY_MASK)
#define HLEN(h)     ((size_t)(((h) >> 24) & 0xffffffffu))
#define CTRL(t, p)  (((uint64_t)(t) << 56) | (uint32_t)(p))
enum { C_SYNC_ACK = 1, C_FIN, C_PAUSE, C_PAUSE_ACK, C_UNPAUSE };

struct tagged { int kind; };

/* An unexpected message the library holds itself: drained during flow
 * control, or sent to self.  data is NULL for a remote long message. */
struct uq {
    struct uq *next;
    uint64_t bits, hdr;
    size_t len;
    void *data;
    int world;
    MPI_Request sreq;           /* self synchronous send to complete */
};

struct peer {
    uint64_t next_seq;
    int inflight;               /* data puts not yet ACKed */
    bool paused, pause_req;
    MPI_Request resend, qtail;  /* refused or held sends, by seq */
};

static inline ptl_process_t rank_id(int world)
{
    ptl_process_t id;

    id.rank = (ptl_rank_t)world;
    return id;
}

static inline void check(int rc, const char *what)
{
    if (rc != PTL_OK)
        mpi_fatal("%s failed (Portals error %d)", what, rc);
}

extern struct ptl_job job;

/* Each posted receive and each long send not yet fetched is a Portals
 * match entry; the table is finite (a compute node: 1024 per process). */
static inline void check_entry(int rc, const char *what)
{
    if (rc == PTL_NO_SPACE)
        mpi_fatal("%s: out of Portals match entries (%d): too many "
                  "receives posted and long sends pending at once; "
                  "complete some before starting more", what,
                  job.limits.max_entries);
    check(rc, what);
}

extern struct ptl_job job;
extern ptl_handle_md_t md;
extern struct peer *peers;

/* proto.c */
void uq_push(struct uq *u);
size_t proto_msg_len(const ptl_event_t *ev);

/* flowctl.c: initiator back-pressure and flow-control recovery */
void ctrl_send(int world, uint64_t hdr);
void data_put(MPI_Request r);
void get_start(MPI_Request r);
void unstall(void);
void fc_init(void);
void fc_acked(int world);
void fc_got(void);
void fc_refused(MPI_Request r);
void fc_begin(void);
void fc_ctrl(int type, int from);
void hold_drained(const ptl_event_t *ev);
bool fc_busy(void);

#endif
