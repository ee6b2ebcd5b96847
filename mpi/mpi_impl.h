/* SPDX-License-Identifier: MIT */
/*
 * mpi_impl.h: the library's private structures and the calls between its
 * subsystems.  Error convention: internal int functions return an MPI
 * error class (MPI_SUCCESS = 0); the public entry points pass nonzero
 * codes through mpi_err() so the communicator's error handler runs.
 */
#ifndef MPI_IMPL_H
#define MPI_IMPL_H

#include "names.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "portals4.h"

/* ---- datatypes (dt_basic.c, datatype.c, pack.c) ---- */

/* Basic type numbers: the index of dt_basic().  The pairs with a
 * hole between value and index (MPI_FLOAT_INT ... MPI_LONG_DOUBLE_INT)
 * come last before the bounds markers: dt_pair() is a range. */
enum { B_CHAR, B_SHORT, B_INT, B_LONG, B_UCHAR, B_USHORT, B_UNSIGNED,
       B_ULONG, B_FLOAT, B_DOUBLE, B_LDOUBLE, B_BYTE, B_PACKED, B_LLONG,
       B_ULLONG, B_SCHAR, B_I8, B_I16, B_I32, B_I64, B_U8, B_U16, B_U32,
       B_U64, B_WCHAR, B_C_BOOL, B_C_FCOMPLEX, B_C_DCOMPLEX, B_C_LDCOMPLEX,
       B_CXX_BOOL, B_CXX_FCOMPLEX, B_CXX_DCOMPLEX, B_CXX_LDCOMPLEX, B_AINT,
       B_OFFSET, B_COUNT,
       /* Fortran's */
       B_INTEGER, B_REAL, B_DPREC, B_COMPLEX, B_DCOMPLEX, B_LOGICAL,
       B_CHARACTER, B_INTEGER1, B_INTEGER2, B_INTEGER4, B_INTEGER8,
       B_INTEGER16, B_REAL4, B_REAL8, B_REAL16, B_COMPLEX8, B_COMPLEX16,
       B_COMPLEX32, B_2REAL, B_2DPREC, B_2INTEGER,
       /* C's pairs, with a hole */
       B_FLOAT_INT, B_DOUBLE_INT, B_LONG_INT, B_2INT, B_SHORT_INT,
       B_LDOUBLE_INT, B_UB, B_LB, B_NBUILTIN };

/* Fortran's COMPLEX(16): two IEEE quads (gcc's __complex128). */
typedef _Complex float __attribute__((mode(TC))) quad_complex;

/* What the reduction operations see in a basic type (MPI-3.1 5.9.2's
 * groups; op.c says which op takes which). */
enum dt_class { DC_CINT, DC_FINT, DC_FLOAT, DC_COMPLEX, DC_LOGICAL,
                DC_BYTE, DC_PAIR, DC_NONE };

static inline bool dt_pair(int base)      /* value, hole, int */
{
    return base >= B_FLOAT_INT && base <= B_LDOUBLE_INT;
}

/* A datatype is flattened into runs: `count` consecutive elements of one
 * basic type starting at byte `off` (relative to the buffer address).
 * Pack/unpack and reductions walk the runs; nothing recurses. */
struct dt_run {
    MPI_Aint off;
    MPI_Aint count;
    int base;
};

struct mpi_dt_s {
    int refs;                   /* user handle + users (requests) */
    bool builtin, committed;
    int base;                   /* the one basic type it holds, or -1 */
    MPI_Aint size;              /* bytes of data in one element */
    MPI_Aint lb, ub;            /* bounds (MPI_LB/MPI_UB markers honoured) */
    MPI_Aint true_lb, true_ub;  /* where the data itself lies */
    bool lb_marked, ub_marked;
    MPI_Aint nelems;            /* basic elements in one item */
    int nruns;
    struct dt_run *runs;        /* builtin: one run, points at run1 */
    struct dt_run run1;
    struct dt_make *make;       /* how it was made (typeinfo.c) */
    char *name;                 /* MPI_Type_set_name, or NULL */
    struct attr *attrs;         /* attr.c */
};

static inline MPI_Aint dt_extent(const struct mpi_dt_s *dt)
{
    return dt->ub - dt->lb;
}

MPI_Datatype dt_basic(int base);          /* the predefined type */
size_t dt_basic_size(int base);
size_t dt_basic_align(int base);
enum dt_class dt_class_of(int base);
const char *dt_basic_name(int base);     /* "MPI_INT"... */
bool dt_contig(const struct mpi_dt_s *dt, int count, MPI_Aint *off);
bool dt_null_buffer(const void *buf, int count, MPI_Datatype dt);
int dt_check(MPI_Datatype dt);
int dt_check_any(MPI_Datatype dt);
void dt_retain(MPI_Datatype dt);
void dt_release(MPI_Datatype dt);
/* Pack `count` items at buf into out (size*count bytes); unpack back;
 * unpack stops after `bytes` bytes (a short message). */
void dt_pack(const void *buf, int count, MPI_Datatype dt, void *out);
void dt_unpack(const void *in, size_t bytes, void *buf, int count,
               MPI_Datatype dt);
MPI_Aint dt_elements(MPI_Datatype dt, size_t bytes);
size_t dt_elements_bytes(MPI_Datatype dt, MPI_Count n);
/* fn(arg, offset, length) on each contiguous piece of count items of dt,
 * in typemap (packed) order; the first nonzero return stops it. */
int dt_pieces(MPI_Datatype dt, int count,
              int (*fn)(void *arg, MPI_Aint off, size_t len), void *arg);
/* A pair type's (MPI_DOUBLE_INT...) value size and its int's offset. */
size_t dt_pair_val(int base);
size_t dt_pair_int_off(int base);
/* count blocks of lens[i] items of old at byte displacements disps[i]. */
int dt_build(int count, const int *lens, const MPI_Aint *disps,
             MPI_Datatype old, MPI_Datatype *out);
/* Give dt the bounds lb, lb+extent, as MPI_LB/MPI_UB markers would. */
void dt_resize(MPI_Datatype dt, MPI_Aint lb, MPI_Aint extent);

/* A constructor's record for MPI_Type_get_contents (typeinfo.c): start
 * it, append its arguments in the standard's order, keep it. */
struct rec {
    int comb;
    bool ok;
    int ni, na, nt;
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
};
void rec_init(struct rec *r, int comb);
void rec_ints(struct rec *r, const int *v, int n);
void rec_aints(struct rec *r, const MPI_Aint *v, int n);
void rec_types(struct rec *r, const MPI_Datatype *v, int n);
int rec_keep(int rc, MPI_Datatype *t, struct rec *r);
void dt_forget(MPI_Datatype dt);
/* Object names (comm, type, window): set a copy, get into out. */
int name_set(char **slot, const char *name);
int name_get(const char *name, char *out, int *len);

/* ---- info objects (info.c) ---- */
int info_set(MPI_Info info, const char *key, const char *val);
int info_copy(MPI_Info info, MPI_Info *out);     /* NULL stays NULL */
void info_free(MPI_Info info);
int info_give(MPI_Info kept, MPI_Info *out);     /* for MPI_*_get_info */
void info_env_init(const char *host, const char *thread_level);

/* ---- reduction operations (op.c) ---- */
enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR,
       O_BXOR, O_MAXLOC, O_MINLOC, O_REPLACE, O_NO_OP, O_NBUILTIN };
struct mpi_op_s {
    MPI_User_function *fn;      /* user op; NULL for built-in */
    int which;                  /* built-in index */
    bool commute, builtin;
};
/* inout[i] = in[i] op inout[i] over count items of dt. */
int op_apply(MPI_Op op, const void *in, void *inout, int count,
             MPI_Datatype dt);
int op_check(MPI_Op op, MPI_Datatype dt);
int op_check_rma(MPI_Op op, MPI_Datatype dt);

/* ---- groups (group.c) ---- */
struct mpi_group_s {
    int refs;
    bool builtin;
    int size;
    int myrank;                 /* MPI_UNDEFINED if not a member */
    int *world;                 /* rank -> world rank */
};
MPI_Group group_new(int size, const int *world);
void group_retain(MPI_Group g);
void group_release(MPI_Group g);
int group_rank_of_world(MPI_Group g, int world);

/* ---- communicators (comm.c), attributes (attr.c), topologies ---- */
struct attr {
    int keyval;
    void *value;
    struct attr *next;
};

struct topo {
    int kind;                   /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int ndims, *dims, *periods; /* cartesian */
    int nnodes, *index, *edges; /* graph */
    int indeg, outdeg;          /* distributed graph: this rank's edges */
    int *in, *out, *inw, *outw; /* ... and their weights */
    bool weighted;
};

struct mpi_comm_s {
    int refs;
    bool builtin, inter;
    uint32_t ctx;               /* point-to-point context; ctx+1 collective */
    MPI_Group local, remote;    /* remote == local for intracommunicators */
    int rank, size;
    MPI_Errhandler errh;
    struct attr *attrs;
    struct topo *topo;
    MPI_Comm local_comm;        /* intercomm: its local group's intracomm */
    char *name;                 /* MPI_Comm_set_name, or NULL */
    MPI_Info info;              /* MPI_Comm_set_info's copy, or NULL */
    uint32_t nbc_seq;           /* nonblocking collectives started (tags) */
    struct tbar *tbar;          /* triggered barriers' state (nbc_trig.c) */
};

int comm_check(MPI_Comm c);
int comm_new(MPI_Group local, MPI_Group remote, uint32_t ctx, MPI_Comm *out);
void comm_destroy(MPI_Comm c);      /* its contexts given back */
int comm_dup_make(MPI_Comm comm, const uint32_t *ctx, MPI_Comm *out);
/* comm_idup.c: MPI_Comm_idup, the new communicator given to made() when
 * the request completes (MPI_COMM_NULL if it could not be made). */
int comm_idup_then(MPI_Comm comm, void (*made)(MPI_Comm c, void *arg),
                   void *arg, MPI_Request *req);
/* The members of g of my color, by (key, rank in g); ck: every
 * member's (color, key).  An empty group if none. */
int split_group(MPI_Group g, const int *ck, int color, MPI_Group *out);
/* commx.c: are all of comm's processes on one node? (collective) */
int comm_one_node(MPI_Comm comm, bool *one);
/* intercomm.c: MPI_Comm_split and MPI_Comm_create on intercomms */
int inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newc);
int inter_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newc);
void comm_init_builtin(int rank, int size);

/* ---- context pairs (context.c): 15 bits of the match bits ---- */
#define CTX_PAIRS (1 << 14)
#define CTX_WORDS (CTX_PAIRS / 64)
struct ctx_mask {
    uint64_t w[CTX_WORDS];      /* bit p: pair p (ctx 2p) is free */
};
void ctx_mine(struct ctx_mask *m);              /* free at this process */
void ctx_and(struct ctx_mask *into, const struct ctx_mask *m);
/* The lowest n pairs free in agreed (every process that agreed on it
 * takes the same), taken here; ERRC_NO_CTX if there are not n. */
int ctx_take(const struct ctx_mask *agreed, int n, uint32_t *ctx);
/* n pairs free at every member of an intracommunicator (collective),
 * or of both groups of an intercommunicator. */
int ctx_agree(MPI_Comm parent, int n, uint32_t *ctx);
int ctx_agree_inter(MPI_Comm inter, int n, uint32_t *ctx);
void ctx_release(uint32_t ctx);                 /* a freed communicator's */
void ctx_untake(uint32_t ctx);          /* taken, never used: free now */
bool ctx_free_here(uint32_t ctx);       /* free at this process? */
/* A blocking agreement's two ends: offer this process's free pairs, then
 * take n of the agreed ones (rc: how the agreeing went). */
void ctx_offer(struct ctx_mask *m);
int ctx_settle(int rc, const struct ctx_mask *agreed, int n, uint32_t *ctx);
bool ctx_agreeing(void);        /* between the two */
/* attr.c: the kinds of object attributes hang on; copying (at a dup)
 * and deleting (at a free) every attribute, through the callbacks. */
enum { ATTR_COMM, ATTR_WIN, ATTR_TYPE };
int attr_copy_all(MPI_Comm from, MPI_Comm to);
int attr_delete_all(MPI_Comm c);
int type_attr_copy_all(MPI_Datatype from, MPI_Datatype to);
int type_attr_delete_all(MPI_Datatype t);
int win_attr_delete_all(MPI_Win w);
int win_attr_get(MPI_Win w, int keyval, void *value, int *flag);
void topo_free(struct topo *t);
int *copy_ints(const int *a, int n);
/* The ranks a neighbourhood collective receives from (in) and sends to
 * (out), in the standard's order; MPI_PROC_NULL for a missing Cartesian
 * neighbour.  Arrays the caller frees; MPI_ERR_TOPOLOGY without one. */
int topo_neighbors(MPI_Comm comm, int **in, int *nin, int **out, int *nout);

/* ---- errors (errh.c) ---- */
enum { ERRH_COMM, ERRH_WIN, ERRH_FILE };
struct mpi_errh_s {
    int refs;
    bool builtin;
    int kind;                   /* ERRH_*: which objects it may be set on */
    MPI_Comm_errhandler_function *cfn;
    MPI_Win_errhandler_function *wfn;
    MPI_File_errhandler_function *ffn;
};
/* The library's own error codes: each names one failure, with a message
 * of its own, and belongs to a class (errh.c). */
enum { ERRC_BASE = 0x100, ERRC_NO_ENTRIES = ERRC_BASE, ERRC_NO_CTS,
       ERRC_SIZE4G, ERRC_NO_CTX, ERRC_RMA_ENTRIES, ERRC_NO_SPAWN,
       ERRC_NO_PORTS, ERRC_NO_OPEN_PORT, ERRC_NO_PUBLISH, ERRC_NO_NAME,
       ERRC_NO_SERVICE, ERRC_NO_JOIN, ERRC_NO_SHARED, ERRC_END };
/* Report code on comm (may not return); returns code for the caller. */
int mpi_err(MPI_Comm comm, int code, const char *where);
/* The same through handler eh for the object at objp (window, file). */
int mpi_err_handler(MPI_Errhandler eh, void *objp, int code,
                    const char *where);
int err_class(int code);
int err_last_used(void);
MPI_Errhandler errh_new(int kind);
void errh_retain(MPI_Errhandler eh);
void errh_release(MPI_Errhandler eh);
bool errh_fits(MPI_Errhandler eh, int kind);
__attribute__((noreturn)) void mpi_fatal(const char *fmt, ...);
/* The same, because world rank `peer` is gone (a message to or from it
   failed): the launcher can tell the job's cause from this consequence. */
__attribute__((noreturn, format(printf, 2, 3)))
void mpi_fatal_peer(int peer, const char *fmt, ...);

/* ---- matched probes (mprobe.c): a message no other receive can take */
struct mpi_msg_s {
    struct uq *u;               /* the message, as the library holds it */
    MPI_Comm comm;
    uint32_t ctx;
};

/* ---- requests, point to point (request.c, p2p.c, probe.c, proto.c) ---- */
enum req_kind { RQ_SEND, RQ_RECV, RQ_COLL, RQ_GREQ, RQ_FILE };
enum send_mode { M_STD, M_SYNC, M_BUF, M_READY };
enum req_state { RS_INACTIVE, RS_ACTIVE, RS_DONE };

struct mpi_req_s {
    int tag_kind;               /* first: event user_ptr dispatch (UP_REQ) */
    enum req_kind kind;
    enum send_mode mode;
    enum req_state state;
    bool persistent, freed, cancelled, internal;
    bool copied;                /* internal: carries a copied send (proto.c) */
    /* arguments */
    void *buf;
    int count;
    MPI_Datatype dt;
    int peer, tag;              /* comm ranks; MPI_ANY_* for receives */
    MPI_Comm comm;
    uint32_t ctx;               /* comm->ctx or ctx+1 (collectives) */
    /* the bytes on the wire */
    void *data;                 /* contiguous buffer: user's or tmp */
    void *tmp;                  /* packed copy owned by the request */
    size_t len;
    MPI_Status status;
    /* protocol state (proto.c) */
    int world;                  /* peer's world rank */
    uint32_t key;               /* long/sync handshakes */
    uint64_t bits, ignore, hdr; /* match bits (proto.c layout), header */
    uint64_t seq;               /* per-peer send order (flow control) */
    unsigned wait;              /* protocol steps still outstanding */
    size_t fetch;               /* bytes a long receive Gets */
    MPI_Win win;                /* a one-sided request's window */
    bool prio;                  /* matched a posted receive */
    bool put_out;               /* a data put not yet ACKed (send.c) */
    bool cancel_req;            /* MPI_Cancel waits for that ACK */
    ptl_handle_me_t me;
    bool me_linked;
    void *shm;                  /* a single-copy send's descriptor (shm.c) */
    struct mpi_req_s *next, *prev;   /* posted / sync-wait / get lists */
    struct mpi_req_s *qnext;         /* a peer's send queue */
    void *bsend_seg;            /* buffered send: attached-buffer segment */
    struct greq *greq;          /* a generalized request's functions */
    struct io_op *io;           /* a file request's aio operation */
};

#define UP_REQ   1
#define UP_BLOCK 2
#define UP_CTRL  3
#define UP_PROBE 4
#define UP_DRAIN 5
#define UP_HOOK  6
#define UP_RMA   7              /* a one-sided request (rma.c) */
#define UP_LONGHDR 8            /* a long message kept as its header */

MPI_Request req_new(enum req_kind kind);
void req_free(MPI_Request r);
void req_complete(MPI_Request r);
int req_finish(MPI_Request *rp, MPI_Status *st);  /* status + free */
void status_empty(MPI_Status *st);
MPI_Request req_done(MPI_Comm comm, const MPI_Status *st);
MPI_Count status_count(const MPI_Status *st, MPI_Datatype dt);
/* Generalized requests (grequest.c): the status the user's query
 * function gives, its cancel function, its free function (at req_free). */
void greq_query(MPI_Request r);
void greq_cancel(MPI_Request r);
void greq_release(MPI_Request r);

/* A request with its arguments set (the datatype retained), not started. */
MPI_Request p2p_make(enum req_kind kind, void *buf, int count,
                     MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                     uint32_t ctx, enum send_mode mode);
int p2p_isend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm, uint32_t ctx, enum send_mode mode,
              MPI_Request *out);
int p2p_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, uint32_t ctx, MPI_Request *out);
int p2p_start(MPI_Request r);
int p2p_stage(MPI_Request r);           /* r->data: user's or a temp */
int p2p_wait(MPI_Request *rp, MPI_Status *st);
int buf_check(const void *buf, int count, MPI_Datatype dt);
int p2p_check_send(MPI_Comm comm, const void *buf, int count,
                   MPI_Datatype dt, int dest, int tag);
int p2p_check_recv(MPI_Comm comm, const void *buf, int count,
                   MPI_Datatype dt, int src, int tag);
/* Internal blocking helpers for collectives (context comm->ctx+1). */
int coll_send(const void *buf, int count, MPI_Datatype dt, int dest,
              MPI_Comm comm);
int coll_recv(void *buf, int count, MPI_Datatype dt, int src, MPI_Comm comm);
int coll_barrier(MPI_Comm comm);
int coll_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm c);
int coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm);
int coll_allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   int rcount, MPI_Datatype rt, MPI_Comm comm);
int coll_sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest,
                  void *rbuf, int rcount, MPI_Datatype rt, int src,
                  MPI_Comm comm);

/* proto.c: the Portals protocol engine */
int proto_init(void);
void proto_fini(void);
int proto_send(MPI_Request r);           /* start a send request */
int proto_recv(MPI_Request r);           /* post a receive request */
void proto_copy_release(void *buf);      /* a copied send's buffer */
bool proto_send_copy(const void *data, size_t len, int peer, int tag,
                     MPI_Comm comm, uint32_t ctx);  /* MPI_Send fast path */
bool proto_cancel_recv(MPI_Request r);
bool proto_cancel_send(MPI_Request r);
int proto_iprobe(uint32_t ctx, int src, int tag, MPI_Comm comm, int *flag,
                 MPI_Status *st);
void proto_progress(bool block);
/* Events handled so far (proto.c): MPI_Probe's guard against sleeping
 * after its own probe took in the arrival it waits for. */
extern unsigned long proto_events;
void proto_poll(void);
int proto_world_rank(void);
long proto_nid(void);
int proto_world_size(void);
void proto_barrier(void);

/* nonblocking file calls over aio (io_async.c): pending ones complete
 * in progress passes; MPI_Wait on one sleeps in aio_suspend */
bool io_async_pending(void);
bool io_async_progress(void);   /* true if one completed */
void io_async_wait(MPI_Request r);

/* nonblocking collectives (nbc.c, nbc_trig.c) */
bool nbc_progress(void);         /* true if one completed */
bool nbc_block(void);           /* waited on a triggered barrier's counter */
void trig_comm_free(MPI_Comm comm);

/* buffered sends (bsend.c) */
int bsend_start(MPI_Request r);
void bsend_done(MPI_Request r);

/* Every MPI_X is also PMPI_X (the profiling interface): MPI_X is weak so
 * a profiling library's own MPI_X wins, and it calls PMPI_X. */
#define PMPI_PRAGMA(x) _Pragma(#x)
#define PMPI(f) PMPI_PRAGMA(weak f)                                    \
    extern __typeof(f) P##f __attribute__((alias(#f)));

/* What the library counts: its MPI_T performance variables (tool.c).
 * Every message, collectives' included; unexpected ones are those that
 * came before their receive (unexp_in - unexp_out wait now). */
struct pvcounts {
    uint64_t sent, sent_bytes, received, received_bytes;
    uint64_t unexp_in, unexp_out;
    uint64_t file_reads, file_writes;   /* read/write calls on files */
    uint64_t file_async;                /* aio operations started */
};
extern struct pvcounts pvc;
/* Its control variables (proto.c): sends past eager_limit bytes go by
 * the long protocol; standard sends up to copy_limit complete once
 * copied.  At most EAGER_LIMIT and COPY_LIMIT (proto.h). */
extern int eager_limit, copy_limit;
bool fc_state(void);            /* flow control recovering DATA? */
int posted_count(void);         /* receives posted with a match entry */

/* library state */
extern int mpi_state;           /* 0 before Init, 1 running, 2 finalized */

#endif /* MPI_IMPL_H */
