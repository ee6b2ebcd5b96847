/* SPDX-License-Identifier: MIT */
/*
 * rma_ops.c: the one-sided operations: MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the
 * request-based MPI_Rput, _Rget, _Raccumulate, _Rget_accumulate.
 *
 * The origin side is a stream of bytes in typemap order (the user's
 * buffer if contiguous, else a packed copy, or a result unpacked at the
 * flush); the target side is its datatype's contiguous pieces, each a
 * put, a get or a run of atomics.  Accumulates are Portals atomics where
 * Portals has the operation on the type (every built-in op on the integer
 * and floating types; MPI_REPLACE and MPI_NO_OP as puts and gets of at
 * most one frame, which Portals applies at once); elsewhere (MAXLOC and
 * MINLOC on pair types) the origin takes the target's accumulate lock
 * (a compare-and-swap on its state area), reads, combines, writes back
 * and unlocks, all one-sided.  Every type takes one of the two paths for
 * every op, so accumulates on one type are atomic with each other.
 */
#include <stdlib.h>
#include <string.h>
#include "rma.h"
#include "coll.h"

/* The Portals type of a basic MPI type, or -1 (proto.h). */
int ptl_type_of(int base)
{
    static const signed char map[B_NBUILTIN] = {
        [B_CHAR] = PTL_INT8_T, [B_SHORT] = PTL_INT16_T,
        [B_INT] = PTL_INT32_T, [B_LONG] = PTL_INT64_T,
        [B_UCHAR] = PTL_UINT8_T, [B_USHORT] = PTL_UINT16_T,
        [B_UNSIGNED] = PTL_UINT32_T, [B_ULONG] = PTL_UINT64_T,
        [B_FLOAT] = PTL_FLOAT, [B_DOUBLE] = PTL_DOUBLE,
        [B_LDOUBLE] = PTL_LONG_DOUBLE, [B_BYTE] = PTL_UINT8_T,
        [B_PACKED] = -1, [B_LLONG] = PTL_INT64_T, [B_ULLONG] = PTL_UINT64_T,
        [B_SCHAR] = PTL_INT8_T, [B_I8] = PTL_INT8_T, [B_I16] = PTL_INT16_T,
        [B_I32] = PTL_INT32_T, [B_I64] = PTL_INT64_T, [B_U8] = PTL_UINT8_T,
        [B_U16] = PTL_UINT16_T, [B_U32] = PTL_UINT32_T,
        [B_U64] = PTL_UINT64_T, [B_WCHAR] = PTL_INT32_T,
        [B_C_BOOL] = PTL_UINT8_T, [B_CXX_BOOL] = PTL_UINT8_T,
        [B_C_FCOMPLEX] = PTL_FLOAT_COMPLEX,
        [B_C_DCOMPLEX] = PTL_DOUBLE_COMPLEX,
        [B_C_LDCOMPLEX] = PTL_LONG_DOUBLE_COMPLEX,
        [B_CXX_FCOMPLEX] = PTL_FLOAT_COMPLEX,
        [B_CXX_DCOMPLEX] = PTL_DOUBLE_COMPLEX,
        [B_CXX_LDCOMPLEX] = PTL_LONG_DOUBLE_COMPLEX,
        [B_AINT] = PTL_INT64_T, [B_OFFSET] = PTL_INT64_T,
        [B_COUNT] = PTL_INT64_T, [B_INTEGER] = PTL_INT32_T,
        [B_REAL] = PTL_FLOAT, [B_DPREC] = PTL_DOUBLE,
        [B_COMPLEX] = PTL_FLOAT_COMPLEX, [B_DCOMPLEX] = PTL_DOUBLE_COMPLEX,
        [B_LOGICAL] = PTL_INT32_T, [B_CHARACTER] = PTL_INT8_T,
        [B_INTEGER1] = PTL_INT8_T, [B_INTEGER2] = PTL_INT16_T,
        [B_INTEGER4] = PTL_INT32_T, [B_INTEGER8] = PTL_INT64_T,
        [B_REAL4] = PTL_FLOAT, [B_REAL8] = PTL_DOUBLE,
        [B_COMPLEX8] = PTL_FLOAT_COMPLEX, [B_COMPLEX16] = PTL_DOUBLE_COMPLEX,
        /* no Portals type: the accumulate lock's path */
        [B_INTEGER16] = -1, [B_REAL16] = -1, [B_COMPLEX32] = -1,
        [B_2REAL ... B_2INTEGER] = -1, [B_FLOAT_INT ... B_LB] = -1,
    };
    return base >= 0 && base < B_NBUILTIN ? map[base] : -1;
}

/* The Portals operation of a built-in MPI op, or -1 (proto.h). */
int ptl_op_of(MPI_Op op)
{
    static const signed char map[O_NBUILTIN] = {
        [O_MAX] = PTL_MAX, [O_MIN] = PTL_MIN, [O_SUM] = PTL_SUM,
        [O_PROD] = PTL_PROD, [O_LAND] = PTL_LAND, [O_BAND] = PTL_BAND,
        [O_LOR] = PTL_LOR, [O_BOR] = PTL_BOR, [O_LXOR] = PTL_LXOR,
        [O_BXOR] = PTL_BXOR, [O_MAXLOC] = -1, [O_MINLOC] = -1,
        [O_REPLACE] = PTL_SWAP, [O_NO_OP] = -1,
    };
    return op->builtin ? map[op->which] : -1;
}

/* Does Portals do op on this type (the native path)? */
static bool native(MPI_Op op, MPI_Datatype dt)
{
    return ptl_type_of(dt->base) >= 0 &&
           (ptl_op_of(op) >= 0 || op->which == O_NO_OP);
}

/* ---- one operation's description ---- */

enum { K_PUT, K_GET, K_ACC };

struct rop {
    MPI_Win w;
    int t;                      /* target rank */
    int kind;
    char *stream;               /* origin bytes in typemap order */
    char *res;                  /* fetched old values, same order */
    size_t pos;
    MPI_Aint disp;              /* target byte displacement */
    int tcount;
    MPI_Datatype tdt;
    MPI_Op op;
    MPI_Request rq;
};

/* ---- moving one piece ---- */

/* The most bytes of elements of the target's type one atomic carries. */
static size_t chunk_of(const struct rop *o)
{
    size_t es = dt_basic_size(o->tdt->base);

    if (o->kind != K_ACC)
        return SIZE_MAX;
    return ATOMIC_MAX - ATOMIC_MAX % es;
}

static int move(struct rop *o, const struct where *off, size_t n)
{
    char *src = o->stream + o->pos, *res = o->res ? o->res + o->pos : NULL;
    int pt = ptl_type_of(o->tdt->base), op;

    switch (o->kind) {
    case K_PUT: return rma_put(o->w, o->t, src, n, off, o->rq);
    case K_GET: return rma_get(o->w, o->t, src, n, off, o->rq);
    }
    op = ptl_op_of(o->op);
    if (o->op->which == O_NO_OP)        /* an atomic read */
        return res ? rma_get(o->w, o->t, res, n, off, o->rq) : MPI_SUCCESS;
    if (res != NULL && op == PTL_SWAP)
        return rma_swap(o->w, o->t, res, src, NULL, n, off, PTL_SWAP,
                        (ptl_datatype_t)pt, o->rq);
    if (op == PTL_SWAP)                 /* one frame: applied at once */
        return rma_put(o->w, o->t, src, n, off, o->rq);
    if (res != NULL)
        return rma_fetch(o->w, o->t, res, src, n, off, (ptl_op_t)op,
                         (ptl_datatype_t)pt, o->rq);
    return rma_atomic(o->w, o->t, src, n, off, (ptl_op_t)op,
                      (ptl_datatype_t)pt, o->rq);
}

static int piece(void *arg, MPI_Aint off, size_t len)
{
    struct rop *o = arg;
    size_t chunk = chunk_of(o);

    for (size_t done = 0; done < len;) {
        size_t n = len - done < chunk ? len - done : chunk;
        struct where at;
        int rc = rma_where(o->w, o->t, o->disp + off + (MPI_Aint)done, n,
                           &at);
        if (rc == MPI_SUCCESS)
            rc = move(o, &at, n);
        if (rc != MPI_SUCCESS)
            return rc;
        o->pos += n;
        done += n;
    }
    return MPI_SUCCESS;
}

/* The target side: its datatype's contiguous pieces. */
static int to_target(struct rop *o)
{
    o->pos = 0;
    return dt_pieces(o->tdt, o->tcount, piece, o);
}

/* ---- accumulates the long way: under the target's accumulate lock ---- */

static void acc_lock(MPI_Win w, int t)
{
    int64_t me = w->comm->rank + 1;

    while (rma_state_swap(w, t, ST_ACC, 0, me, PTL_CSWAP) != 0)
        proto_progress(false);
}

static void acc_unlock(MPI_Win w, int t)
{
    rma_state_add(w, t, ST_ACC, -(int64_t)(w->comm->rank + 1));
}

/* Combine the origin stream into count items of dt at target (in its
 * layout); the old values go to o->res first. */
static int combine(struct rop *o, void *target)
{
    size_t n = (size_t)o->tcount * (size_t)o->tdt->size;
    void *base, *ot = tmp_typed(o->tcount, o->tdt, &base);
    int rc = ot ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    if (rc == MPI_SUCCESS && o->res)
        dt_pack(target, o->tcount, o->tdt, o->res);
    if (rc == MPI_SUCCESS && o->op->which != O_NO_OP) {
        dt_unpack(o->stream, n, ot, o->tcount, o->tdt);
        rc = op_apply(o->op, ot, target, o->tcount, o->tdt);
    }
    free(base);
    return rc;
}

/* Read the target's pieces, combine here, write them back. */
static int acc_locked(struct rop *o)
{
    size_t n = (size_t)o->tcount * (size_t)o->tdt->size;
    char *cur = malloc(n + 1), *origin = o->stream;
    void *base, *tt = tmp_typed(o->tcount, o->tdt, &base);
    struct rop io = *o;
    int rc = cur && tt ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    io.rq = NULL;               /* done before this call returns */
    io.res = NULL;
    io.stream = cur;
    if (rc == MPI_SUCCESS) {
        acc_lock(o->w, o->t);
        io.kind = K_GET;
        rc = to_target(&io);
        if (rc == MPI_SUCCESS)
            rc = rma_complete(o->w);
        dt_unpack(cur, n, tt, o->tcount, o->tdt);
        o->stream = origin;
        if (rc == MPI_SUCCESS)
            rc = combine(o, tt);
        dt_pack(tt, o->tcount, o->tdt, cur);
        io.kind = K_PUT;
        if (rc == MPI_SUCCESS && o->op->which != O_NO_OP)
            rc = to_target(&io);
        acc_unlock(o->w, o->t);         /* flushes the puts first */
    }
    free(cur);
    free(base);
    return rc;
}

/* The bytes count items of dt at byte displacement disp span. */
static void span(MPI_Aint disp, int count, MPI_Datatype dt, MPI_Aint *lo,
                 MPI_Aint *hi)
{
    MPI_Aint more = (MPI_Aint)(count - 1) * dt_extent(dt);

    *lo = disp + dt->true_lb + (more < 0 ? more : 0);
    *hi = disp + dt->true_ub + (more > 0 ? more : 0);
}

static int accumulate(struct rop *o)
{
    bool nat = native(o->op, o->tdt);

    if (!nat)
        return acc_locked(o);
    o->kind = K_ACC;
    return to_target(o);
}

/* ---- the calls ---- */

/* The target range must lie in its window (dynamic windows: checked by
 * the target's entry, which spans everything). */
static int range_check(MPI_Win w, int t, MPI_Aint disp, int count,
                       MPI_Datatype dt)
{
    MPI_Aint lo, hi;

    span(disp, count, dt, &lo, &hi);
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC || count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    return lo < 0 || hi > w->sizes[t] ? MPI_ERR_RMA_RANGE : MPI_SUCCESS;
}

/* Check an operation's arguments and fill o; the target's byte
 * displacement is disp in its unit. */
static int rop_make(struct rop *o, MPI_Win w, int t, MPI_Aint disp, int ocnt,
                    MPI_Datatype odt, int tcnt, MPI_Datatype tdt)
{
    int rc = win_check(w);

    if (rc == MPI_SUCCESS && (t < 0 || t >= w->comm->size) &&
        t != MPI_PROC_NULL)
        rc = MPI_ERR_RANK;
    if (rc == MPI_SUCCESS && (ocnt < 0 || tcnt < 0))
        rc = MPI_ERR_COUNT;
    if (rc == MPI_SUCCESS && (rc = dt_check(odt)) == MPI_SUCCESS)
        rc = dt_check(tdt);
    if (rc == MPI_SUCCESS &&
        (size_t)ocnt * (size_t)odt->size != (size_t)tcnt * (size_t)tdt->size)
        rc = MPI_ERR_TYPE;              /* the type signatures differ */
    if (rc == MPI_SUCCESS && t != MPI_PROC_NULL && !rma_may_access(w, t))
        rc = MPI_ERR_RMA_SYNC;
    if (rc != MPI_SUCCESS || t == MPI_PROC_NULL)
        return rc;
    *o = (struct rop){ .w = w, .t = t, .disp = disp * w->units[t],
                       .tcount = tcnt, .tdt = tdt };
    return range_check(w, t, o->disp, tcnt, tdt);
}

/* count items of dt as a stream of bytes: the buffer itself if they are
 * contiguous, else fresh memory of their packed size (*fresh set). */
static char *stream_of(const void *buf, int count, MPI_Datatype dt,
                       bool *fresh)
{
    MPI_Aint off;
    char *p;

    *fresh = !dt_contig(dt, count, &off);
    if (!*fresh)
        return (char *)buf + off;
    if ((p = malloc((size_t)count * (size_t)dt->size + 1)) == NULL)
        mpi_fatal("out of memory for an RMA buffer of %d items", count);
    return p;
}

/* The origin as a stream: a packed copy kept until the next flush. */
static char *out_stream(MPI_Win w, const void *buf, int count,
                        MPI_Datatype dt)
{
    bool fresh;
    char *p = stream_of(buf, count, dt, &fresh);

    if (fresh) {
        dt_pack(buf, count, dt, p);
        rma_hold(w, p, NULL, 0, MPI_DATATYPE_NULL);
    }
    return p;
}

/* Where results land: unpacked into the buffer when the operation is
 * complete (at the flush, or when its request is). */
static char *in_stream(MPI_Win w, void *buf, int count, MPI_Datatype dt,
                       MPI_Request rq)
{
    size_t n = (size_t)count * (size_t)dt->size;
    bool fresh;
    char *p = stream_of(buf, count, dt, &fresh);

    if (!fresh)
        return p;
    if (rq != NULL) {           /* req_complete unpacks a receive's tmp */
        rq->kind = RQ_RECV;
        rq->tmp = p;
        rq->buf = buf;
        rq->count = count;
        rq->dt = dt;
        dt_retain(dt);
        rq->status.mpi_bytes = n;
    } else {
        rma_hold(w, p, buf, count, dt);
    }
    return p;
}

/* A request for a one-sided operation: done when its moves are. */
static MPI_Request rq_new(MPI_Win w, MPI_Request *out)
{
    MPI_Request r = out ? req_new(RQ_SEND) : NULL;

    if (r == NULL)
        return NULL;
    r->tag_kind = UP_RMA;
    r->win = w;
    r->comm = w->comm;
    r->state = RS_ACTIVE;
    r->wait = 1;                /* until every move is issued */
    return r;
}

static int rq_issued(MPI_Request r, MPI_Request *out)
{
    *out = r;
    if (--r->wait == 0)
        req_complete(r);
    return MPI_SUCCESS;
}

static int put_get(int kind, void *obuf, int ocnt, MPI_Datatype odt, int t,
                   MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Win w,
                   MPI_Request *req, const char *name)
{
    struct rop o;
    MPI_Request r = NULL;
    int rc = rop_make(&o, w, t, disp, ocnt, odt, tcnt, tdt);

    if (req != NULL)
        *req = MPI_REQUEST_NULL;        /* if the call fails */
    if (rc == MPI_SUCCESS && req != NULL && (r = rq_new(w, req)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && t != MPI_PROC_NULL) {
        o.kind = kind;
        o.rq = r;
        o.stream = kind == K_PUT ? out_stream(w, obuf, ocnt, odt)
                                 : in_stream(w, obuf, ocnt, odt, r);
        rc = to_target(&o);
    }
    if (rc == MPI_SUCCESS && r != NULL)
        rc = rq_issued(r, req);
    return win_err(w, rc, name);
}

int MPI_Put(const void *obuf, int ocnt, MPI_Datatype odt, int t,
            MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Win w)
{
    return put_get(K_PUT, (void *)obuf, ocnt, odt, t, disp, tcnt, tdt, w,
                   NULL, "MPI_Put");
}

int MPI_Get(void *obuf, int ocnt, MPI_Datatype odt, int t, MPI_Aint disp,
            int tcnt, MPI_Datatype tdt, MPI_Win w)
{
    return put_get(K_GET, obuf, ocnt, odt, t, disp, tcnt, tdt, w, NULL,
                   "MPI_Get");
}

int MPI_Rput(const void *obuf, int ocnt, MPI_Datatype odt, int t,
             MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Win w,
             MPI_Request *req)
{
    if (req == NULL)
        return win_err(w, MPI_ERR_REQUEST, "MPI_Rput");
    return put_get(K_PUT, (void *)obuf, ocnt, odt, t, disp, tcnt, tdt, w,
                   req, "MPI_Rput");
}

int MPI_Rget(void *obuf, int ocnt, MPI_Datatype odt, int t, MPI_Aint disp,
             int tcnt, MPI_Datatype tdt, MPI_Win w, MPI_Request *req)
{
    if (req == NULL)
        return win_err(w, MPI_ERR_REQUEST, "MPI_Rget");
    return put_get(K_GET, obuf, ocnt, odt, t, disp, tcnt, tdt, w, req,
                   "MPI_Rget");
}

/* Accumulate, with the old target values into rbuf if it is not NULL. */
static int get_acc(const void *obuf, int ocnt, MPI_Datatype odt, void *rbuf,
                   int rcnt, MPI_Datatype rdt, int t, MPI_Aint disp,
                   int tcnt, MPI_Datatype tdt, MPI_Op op, MPI_Win w,
                   MPI_Request *req, const char *name)
{
    struct rop o;
    MPI_Request r = NULL;
    bool no_op = op != MPI_OP_NULL && op->builtin && op->which == O_NO_OP;
    /* MPI_NO_OP takes no origin: the target's types stand for it */
    int rc = rop_make(&o, w, t, disp, no_op ? tcnt : ocnt,
                      no_op ? tdt : odt, tcnt, tdt);

    if (rc == MPI_SUCCESS && rbuf != NULL)
        rc = rop_make(&o, w, t, disp, rcnt, rdt, tcnt, tdt);
    if (rc == MPI_SUCCESS)
        rc = op_check_rma(op, tdt);
    if (req != NULL)
        *req = MPI_REQUEST_NULL;        /* if the call fails */
    if (rc == MPI_SUCCESS && req != NULL && (r = rq_new(w, req)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && t != MPI_PROC_NULL) {
        o.op = op;
        o.rq = r;
        o.stream = no_op ? NULL : out_stream(w, obuf, ocnt, odt);
        o.res = rbuf ? in_stream(w, rbuf, rcnt, rdt, r) : NULL;
        rc = accumulate(&o);
    }
    if (rc == MPI_SUCCESS && r != NULL)
        rc = rq_issued(r, req);
    return win_err(w, rc, name);
}

int MPI_Accumulate(const void *obuf, int ocnt, MPI_Datatype odt, int t,
                   MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Op op,
                   MPI_Win w)
{
    return get_acc(obuf, ocnt, odt, NULL, 0, odt, t, disp, tcnt, tdt, op, w,
                   NULL, "MPI_Accumulate");
}

int MPI_Get_accumulate(const void *obuf, int ocnt, MPI_Datatype odt,
                       void *rbuf, int rcnt, MPI_Datatype rdt, int t,
                       MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Op op,
                       MPI_Win w)
{
    return get_acc(obuf, ocnt, odt, rbuf, rcnt, rdt, t, disp, tcnt, tdt, op,
                   w, NULL, "MPI_Get_accumulate");
}

int MPI_Raccumulate(const void *obuf, int ocnt, MPI_Datatype odt, int t,
                    MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Op op,
                    MPI_Win w, MPI_Request *req)
{
    if (req == NULL)
        return win_err(w, MPI_ERR_REQUEST, "MPI_Raccumulate");
    return get_acc(obuf, ocnt, odt, NULL, 0, odt, t, disp, tcnt, tdt, op, w,
                   req, "MPI_Raccumulate");
}

int MPI_Rget_accumulate(const void *obuf, int ocnt, MPI_Datatype odt,
                        void *rbuf, int rcnt, MPI_Datatype rdt, int t,
                        MPI_Aint disp, int tcnt, MPI_Datatype tdt, MPI_Op op,
                        MPI_Win w, MPI_Request *req)
{
    if (req == NULL)
        return win_err(w, MPI_ERR_REQUEST, "MPI_Rget_accumulate");
    return get_acc(obuf, ocnt, odt, rbuf, rcnt, rdt, t, disp, tcnt, tdt, op,
                   w, req, "MPI_Rget_accumulate");
}

int MPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype dt, int t,
                     MPI_Aint disp, MPI_Op op, MPI_Win w)
{
    return get_acc(obuf, 1, dt, rbuf, 1, dt, t, disp, 1, dt, op, w, NULL,
                   "MPI_Fetch_and_op");
}

/* One element of an integer, logical or byte type, as the standard
 * says (MPI-3.1 11.3.4). */
int MPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf,
                         MPI_Datatype dt, int t, MPI_Aint disp, MPI_Win w)
{
    struct rop o;
    int rc = rop_make(&o, w, t, disp, 1, dt, 1, dt), pt;

    pt = rc ? -1 : ptl_type_of(dt->base);
    if (rc == MPI_SUCCESS && (!dt->builtin || pt < 0 ||
                              dt_class_of(dt->base) == DC_FLOAT ||
                              dt_class_of(dt->base) == DC_COMPLEX))
        rc = MPI_ERR_TYPE;
    if (rc == MPI_SUCCESS && (!obuf || !cbuf || !rbuf))
        rc = MPI_ERR_BUFFER;
    if (rc != MPI_SUCCESS || t == MPI_PROC_NULL)
        return win_err(w, rc, "MPI_Compare_and_swap");
    size_t n = (size_t)dt->size;
    struct where at;
    if ((rc = rma_where(w, t, o.disp, n, &at)) != MPI_SUCCESS)
        return win_err(w, rc, "MPI_Compare_and_swap");
    rc = rma_swap(w, t, rbuf, obuf, cbuf, n, &at, PTL_CSWAP,
                  (ptl_datatype_t)pt, NULL);
    return win_err(w, rc, "MPI_Compare_and_swap");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Put)
PMPI(MPI_Get)
PMPI(MPI_Rput)
PMPI(MPI_Rget)
PMPI(MPI_Accumulate)
PMPI(MPI_Get_accumulate)
PMPI(MPI_Raccumulate)
PMPI(MPI_Rget_accumulate)
PMPI(MPI_Fetch_and_op)
PMPI(MPI_Compare_and_swap)
