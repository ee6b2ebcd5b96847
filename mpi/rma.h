/* SPDX-License-Identifier: MIT */
/*
 * rma.h: what the one-sided files share (win.c: windows; rma.c: the
 * moves to a target; rma_ops.c: MPI_Put, MPI_Get and the accumulates;
 * rma_sync.c: fences, post-start-complete-wait, locks, flushes).
 *
 * A window is, per rank, a match entry on the ONE portal over its memory
 * and a small state area (lock words and PSCW counters) in a page of
 * such areas that one entry exposes (rma_state.c); neither posts events,
 * so nothing runs on the target's CPU.  The origin
 * counts its completions on the counter of an MD every window shares
 * (ACKs and REPLYs: Portals says an ACK comes once the data is in the
 * target's memory), and a flush waits for the count to reach what was
 * issued.  Arrivals at any state area count on one counter too: windows
 * take no counters or MDs of their own (a node has 128 and 256).
 */
#ifndef MPI_RMA_H
#define MPI_RMA_H

#include "mpi_impl.h"
#include "proto.h"

/* Match bits on PT_ONE: bit 63 clear (set: triggered collectives), the
 * window's id (a context of its own communicator), which entry: its
 * memory, a dynamic window's table of attached regions, or its region
 * number n (RMA_REGION(n)).  (Pages of state areas: id 0, rma_state.c.) */
#define RMA_BITS(id, which) (MB_CTX(id) | (uint64_t)(which))
enum { RMA_MEM, RMA_TABLE };
#define RMA_REGION(n) ((uint64_t)(n) << 8)

/* A dynamic window's regions, as every rank publishes them: each is an
 * entry of its own, matched by its number; origins fetch the table when
 * an address is in none of the regions they know of.  The table grows
 * as regions are attached (win.c). */
struct region {
    int64_t base, size, id;
};
struct dyn_table {
    int64_t n, cap;             /* regions listed, room for */
    struct region r[];
};
#define TABLE_BYTES(cap) (sizeof(struct dyn_table) + \
                          (size_t)(cap) * sizeof(struct region))

/* Where an access lands at a target: the entry and the offset in it. */
struct where {
    uint64_t bits, off;
};

/* The state area: lock words, then a counter per rank for each PSCW
 * notice (posts it received as an origin, completes as a target). */
enum { ST_LOCK, ST_ACC, ST_POSTS };
#define ST_COMPLETES(n) (ST_POSTS + (n))
#define ST_WORDS(n) (ST_POSTS + 2 * (n))

/* ST_LOCK: readers counted in the low bits, a writer is this bit. */
#define LOCK_EXCL ((int64_t)1 << 40)

/* Portals atomics carry at most this many bytes (one frame, so one
 * frame's worth is applied at once: plain puts and gets of this size
 * serve MPI_REPLACE and MPI_NO_OP with the same element atomicity). */
#define ATOMIC_MAX 512

/* Which synchronisation the window is in (MPI's epochs). */
enum { EP_NONE, EP_FENCE, EP_PSCW, EP_LOCK, EP_LOCK_ALL };

/* Memory an operation reads or fills on this side, kept until a flush:
 * a packed copy of the origin, or a result to unpack into the user's
 * buffer (non-contiguous) afterwards. */
struct held {
    struct held *next;
    void *mem;
    void *ubuf;                 /* unpack into this at the flush, or NULL */
    int ucount;
    MPI_Datatype utype;
};

struct mpi_win_s {
    int refs;
    struct attr *attrs;         /* attr.c */
    int flavor;                 /* MPI_WIN_FLAVOR_* */
    MPI_Comm comm;              /* a duplicate: its context is the id */
    void *base;
    MPI_Aint size;
    int disp_unit;
    bool base_ours;             /* MPI_Win_allocate's: freed with it */
    struct win_shm *shm;        /* MPI_Win_allocate_shared's memory: every
                                   rank's segment (win_shared.c) */
    MPI_Aint *sizes;            /* every rank's size and unit */
    int *units;
    ptl_handle_me_t mem_me;
    bool counted;               /* holds the shared MD and counters */
    int64_t *state;             /* ST_WORDS(n) words (rma_state.c) */
    struct where *states;       /* every rank's, as its origins reach it */
    struct {                    /* the state atomics' operands */
        int64_t old, operand, cmp;
    } io;
    int rq_pending;             /* request-based ones (events) not done */
    struct held *held;
    /* synchronisation */
    int epoch;
    bool *locked;               /* EP_LOCK: per target; EP_LOCK_ALL: all */
    int *lock_kind;
    MPI_Group start_grp, post_grp;
    int64_t *posts_seen, *completes_seen;
    struct attach *attached;    /* dynamic windows' regions: ours */
    struct dyn_table *table;    /* ... as published */
    struct retired *retired;    /* ... tables it outgrew */
    struct dyn_table **known;   /* ... others', as last fetched */
    int64_t next_region;
    MPI_Errhandler errh;
    char *name;
    MPI_Info info;
};

/* ---- win.c, win_shared.c: windows ---- */
/* The checks of a window's communicator, size, unit and handle (*out is
 * MPI_WIN_NULL if they fail, and from then on until the window exists). */
int win_args(MPI_Aint size, int unit, MPI_Comm comm, MPI_Win *out);
/* A window over [base, base+size) of flavor MPI_WIN_FLAVOR_*, collective
 * over comm; *out is MPI_WIN_NULL if it fails. */
int win_make(void *base, MPI_Aint size, int unit, int flavor,
             MPI_Info info, MPI_Comm comm, MPI_Win *out);
/* MPI_Win_allocate_shared's memory goes with the window. */
void win_shared_free(MPI_Win w);

/* ---- rma.c: moving bytes to and from a target ---- */
/* The MD and counters every window shares: made for the first window,
 * freed with the last (ERRC_NO_CTS if Portals has none). */
int rma_up(void);
void rma_down(void);
ptl_handle_ct_t rma_state_ct(void);     /* arrivals at state areas */
int win_check(MPI_Win w);
/* rc through w's error handler (MPI_COMM_WORLD's if w is no window). */
int win_err(MPI_Win w, int rc, const char *name);
/* Where len bytes at target t's byte displacement lie (a dynamic
 * window: in which attached region); MPI_ERR_RMA_RANGE if nowhere. */
int rma_where(MPI_Win w, int t, MPI_Aint byte_disp, size_t len,
              struct where *at);
int rma_put(MPI_Win w, int t, const void *src, size_t len,
            const struct where *at, MPI_Request rq);
int rma_get(MPI_Win w, int t, void *dst, size_t len, const struct where *at,
            MPI_Request rq);
int rma_atomic(MPI_Win w, int t, const void *src, size_t len,
               const struct where *at, ptl_op_t op, ptl_datatype_t pt,
               MPI_Request rq);
int rma_fetch(MPI_Win w, int t, void *res, const void *src, size_t len,
              const struct where *at, ptl_op_t op, ptl_datatype_t pt,
              MPI_Request rq);
int rma_swap(MPI_Win w, int t, void *res, const void *src,
             const void *cmp, size_t len, const struct where *at,
             ptl_op_t op, ptl_datatype_t pt, MPI_Request rq);
/* Wait until every operation issued on w is complete at its target
 * (MPI_ERR_RMA_RANGE if one was refused since the last time); a flush
 * also unpacks results and frees the buffers held for them. */
int rma_complete(MPI_Win w);
int rma_flush(MPI_Win w);
/* Wait for a notice at our state area (or anything else to do). */
void rma_wait_state(MPI_Win w);
void rma_hold(MPI_Win w, void *mem, void *ubuf, int ucount,
              MPI_Datatype utype);
/* A word of target t's state area: an atomic on it (local or not). */
int rma_state_add(MPI_Win w, int t, int word, int64_t v);
int64_t rma_state_swap(MPI_Win w, int t, int word, int64_t cmp,
                       int64_t v, ptl_op_t op);

/* ---- rma_state.c ---- */
/* A zeroed state area of bytes bytes, and where origins reach it. */
int state_alloc(size_t bytes, int64_t **area, struct where *at);
void state_free(int64_t *area);

/* ---- rma_sync.c ---- */
/* May this process access target t now (an epoch covers it)? */
bool rma_may_access(MPI_Win w, int t);

#endif
