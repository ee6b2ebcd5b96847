/* SPDX-License-Identifier: MIT */
/*
 * api.c: the NX calls.  The underscore forms check their arguments, do
 * the work and return -1 with errno on failure; the plain forms call them
 * and end the job with "NX: <call>: <reason>" instead (NX's behaviour).
 */
#include <time.h>

#include "nx_internal.h"

/* ---- argument checks ---- */

static int bad(const char *what, long v)
{
    return nx_error(EINVAL, "bad %s %ld", what, v);
}

static int check_send(long type, const void *buf, long count, long node,
                      long ptype)
{
    if (type < 0 || type > NX_TYPE_MAX)
        return bad("message type (0..999999999)", type);
    if (count < 0 || (count > 0 && buf == NULL))
        return bad("count (or NULL buffer)", count);
    if (node < -1 || node >= nx.n)
        return bad("node", node);
    if (ptype < 0 || ptype > NX_PTYPE_MAX)
        return bad("ptype (0..32767)", ptype);
    return 0;
}

/* Selectors: a value or -1 for any. */
static int check_sel(long typesel, long nodesel, long ptypesel)
{
    if (typesel < -1 || typesel > NX_TYPE_MAX)
        return bad("type selector", typesel);
    if (nodesel < -1 || nodesel >= nx.n)
        return bad("node selector", nodesel);
    if (ptypesel < -1 || ptypesel > NX_PTYPE_MAX)
        return bad("ptype selector", ptypesel);
    return 0;
}

static void recv_bits(long typesel, long ptypesel, uint64_t *bits,
                      uint64_t *ignore)
{
    *bits = nx_bits(typesel < 0 ? 0 : typesel, nx.ptype,
                    ptypesel < 0 ? 0 : ptypesel);
    *ignore = (typesel < 0 ? NX_MB_TYPE_MASK : 0) |
              (ptypesel < 0 ? NX_MB_PTYPE_MASK << NX_MB_SPTYPE : 0);
}

static void fill_info(long info[], const struct nx_info *in)
{
    if (info == NULL)
        return;
    for (int i = 0; i < NX_INFO_LEN; i++)
        info[i] = 0;
    info[NX_INFO_TYPE] = in->type;
    info[NX_INFO_COUNT] = in->count;
    info[NX_INFO_NODE] = in->node;
    info[NX_INFO_PTYPE] = in->ptype;
}

/* A request is over: describe a receive, report, release the id. */
static long finish(struct nx_req *r)
{
    int err = r->err;

    if (r->kind == NX_REQ_RECV) {
        nx.last = r->info;
        fill_info(r->infox, &r->info);
    }
    if (err) {
        nx_error(err, "%s", r->errmsg);
        nx.err_peer = r->err_peer;
    }
    nx_req_free(r);
    return err ? -1 : 0;
}

static struct nx_req *find(long mid)
{
    struct nx_req *r = nx_req_find(mid);

    if (r == NULL)
        nx_error(EINVAL, "bad message id %ld (not in use, or already "
                 "waited for)", mid);
    return r;
}

/* ---- point to point ---- */

long _isend(long type, const void *buf, long count, long node, long ptype)
{
    struct nx_req *r;

    if (nx_up() != 0 || check_send(type, buf, count, node, ptype) != 0)
        return -1;
    if ((r = nx_req_new(NX_REQ_SEND)) == NULL)
        return nx_error(ENOMEM, "out of message ids");
    if (nx_send_start(r, buf, count, node,
                      nx_bits(type, ptype, nx.ptype)) != 0) {
        nx_req_free(r);
        return -1;
    }
    return nx_req_id(r);
}

long _irecvx(long typesel, void *buf, long count, long nodesel,
             long ptypesel, long info[])
{
    struct nx_req *r;
    uint64_t bits, ignore;

    if (nx_up() != 0 || check_sel(typesel, nodesel, ptypesel) != 0)
        return -1;
    if (count < 0 || (count > 0 && buf == NULL))
        return bad("count (or NULL buffer)", count);
    if ((r = nx_req_new(NX_REQ_RECV)) == NULL)
        return nx_error(ENOMEM, "out of message ids");
    r->infox = info;
    recv_bits(typesel, ptypesel, &bits, &ignore);
    if (nx_recv_start(r, buf, count, nodesel, bits, ignore) != 0) {
        nx_req_free(r);
        return -1;
    }
    return nx_req_id(r);
}

long _irecv(long typesel, void *buf, long count)
{
    return _irecvx(typesel, buf, count, -1, -1, NULL);
}

long _msgwait(long mid)
{
    struct nx_req *r;

    if (nx_up() != 0 || (r = find(mid)) == NULL)
        return -1;
    while (!r->done)
        nx_progress(1);
    return finish(r);
}

long _msgdone(long mid)
{
    struct nx_req *r;

    if (nx_up() != 0 || (r = find(mid)) == NULL)
        return -1;
    if (!r->done)
        nx_progress(0);
    if (!r->done)
        return 0;
    return finish(r) == 0 ? 1 : -1;
}

/* A receive not yet matched is withdrawn; anything else (a send, a
 * receive whose message is arriving) completes first.  The id is free
 * either way and the result is discarded. */
long _msgcancel(long mid)
{
    struct nx_req *r;

    if (nx_up() != 0 || (r = find(mid)) == NULL)
        return -1;
    if (r->kind == NX_REQ_RECV && nx_recv_cancel(r)) {
        nx_req_free(r);
        return 0;
    }
    while (!r->done)
        nx_progress(1);
    nx_req_free(r);
    return 0;
}

long _csend(long type, const void *buf, long count, long node, long ptype)
{
    long mid = _isend(type, buf, count, node, ptype);

    return mid < 0 ? -1 : _msgwait(mid);
}

long _crecvx(long typesel, void *buf, long count, long nodesel,
             long ptypesel, long info[])
{
    long mid = _irecvx(typesel, buf, count, nodesel, ptypesel, info);

    return mid < 0 ? -1 : _msgwait(mid);
}

long _crecv(long typesel, void *buf, long count)
{
    return _crecvx(typesel, buf, count, -1, -1, NULL);
}

/* ---- probes ---- */

long _iprobex(long typesel, long nodesel, long ptypesel, long info[])
{
    struct nx_info in;
    uint64_t bits, ignore;

    if (nx_up() != 0 || check_sel(typesel, nodesel, ptypesel) != 0)
        return -1;
    recv_bits(typesel, ptypesel, &bits, &ignore);
    if (!nx_probe(bits, ignore, nodesel, &in))
        return 0;
    nx.last = in;
    fill_info(info, &in);
    return 1;
}

long _cprobex(long typesel, long nodesel, long ptypesel, long info[])
{
    unsigned long seen = nx.arrivals;
    long f;

    /* A message that came after a probe's search looked was taken in
     * while its answer was awaited, and its event consumed: sleeping for
     * the next event would wait out nx_progress's 100 ms.  Look again. */
    while ((f = _iprobex(typesel, nodesel, ptypesel, info)) == 0) {
        if (nx.arrivals == seen)
            nx_progress(1);
        seen = nx.arrivals;
    }
    return f < 0 ? -1 : 0;
}

long _iprobe(long typesel)
{
    return _iprobex(typesel, -1, -1, NULL);
}

long _cprobe(long typesel)
{
    return _cprobex(typesel, -1, -1, NULL);
}

long infocount(void) { return nx.last.count; }
long infonode(void) { return nx.last.node; }
long infotype(void) { return nx.last.type; }
long infoptype(void) { return nx.last.ptype; }

/* ---- who and when ---- */

static void up_or_die(void)
{
    if (nx_up() != 0)
        nx_fatal("NX: %s", nx.errmsg);
}

long mynode(void) { up_or_die(); return nx.me; }
long numnodes(void) { up_or_die(); return nx.n; }
long myptype(void) { up_or_die(); return nx.ptype; }

long _setptype(long ptype)
{
    if (nx_up() != 0)
        return -1;
    if (ptype < 0 || ptype > NX_PTYPE_MAX)
        return bad("ptype (0..32767)", ptype);
    nx.ptype = ptype;
    return 0;
}

double dclock(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long _gsync(void)
{
    if (nx_up() != 0)
        return -1;
    return nx_gsync();
}

/* ---- the plain forms: the same, ending the job on error ---- */

static void must(long rc, const char *call)
{
    if (rc < 0)
        nx_fatal("NX: node %d: %s: %s", nx.me, call, nx.errmsg);
}

void csend(long type, const void *buf, long count, long node, long ptype)
{ must(_csend(type, buf, count, node, ptype), "csend"); }
void crecv(long typesel, void *buf, long count)
{ must(_crecv(typesel, buf, count), "crecv"); }
void crecvx(long typesel, void *buf, long count, long nodesel,
            long ptypesel, long info[])
{ must(_crecvx(typesel, buf, count, nodesel, ptypesel, info), "crecvx"); }
void msgwait(long mid) { must(_msgwait(mid), "msgwait"); }
void msgcancel(long mid) { must(_msgcancel(mid), "msgcancel"); }
void cprobe(long typesel) { must(_cprobe(typesel), "cprobe"); }
void cprobex(long typesel, long nodesel, long ptypesel, long info[])
{ must(_cprobex(typesel, nodesel, ptypesel, info), "cprobex"); }
void setptype(long ptype) { must(_setptype(ptype), "setptype"); }
void gsync(void) { must(_gsync(), "gsync"); }
void gcolx(const void *x, const long xlens[], void *y)
{ must(_gcolx(x, xlens, y), "gcolx"); }

#define RETURNING(name, params, args)                                   \
    long name params                                                    \
    {                                                                   \
        long rc = _##name args;                                         \
        must(rc, #name);                                                \
        return rc;                                                      \
    }

RETURNING(isend, (long type, const void *buf, long count, long node,
                  long ptype), (type, buf, count, node, ptype))
RETURNING(irecv, (long typesel, void *buf, long count),
          (typesel, buf, count))
RETURNING(irecvx, (long typesel, void *buf, long count, long nodesel,
                   long ptypesel, long info[]),
          (typesel, buf, count, nodesel, ptypesel, info))
RETURNING(msgdone, (long mid), (mid))
RETURNING(iprobe, (long typesel), (typesel))
RETURNING(iprobex, (long typesel, long nodesel, long ptypesel, long info[]),
          (typesel, nodesel, ptypesel, info))

#define GLOBAL(name, T)                                                 \
    void name(T x[], long n, T work[]) { must(_##name(x, n, work), #name); }

GLOBAL(gdsum, double)
GLOBAL(gdprod, double)
GLOBAL(gdhigh, double)
GLOBAL(gdlow, double)
GLOBAL(gssum, float)
GLOBAL(gsprod, float)
GLOBAL(gshigh, float)
GLOBAL(gslow, float)
GLOBAL(gisum, long)
GLOBAL(giprod, long)
GLOBAL(gihigh, long)
GLOBAL(gilow, long)
