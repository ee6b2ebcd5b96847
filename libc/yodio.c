/* SPDX-License-Identifier: MIT */
/*
 * yodio.c: the channel between a program run by yod (LWK_YOD=NID:PID in
 * its environment) and yod, over Portals: what the program writes to
 * stdout and stderr (Puts to yod's YOD_PT_IO), and file requests
 * (lwk_yod_call, used by yodfile.c) to this rank's I/O server: yod, or
 * with yod -io N the one of LWK_YOD=YOD,SERVER,... whose ranks hold it;
 * and one request more that the program does not wait for (aio.c,
 * lwk_yod_async_*).  The protocol is in yod/yod_proto.h.
 *
 * Portals opens at first use, on a physical NI of the program's own pid
 * (PTL_PID), so the job's logical NI (ptl_job.h) is not disturbed.  Every
 * Put is acknowledged before the call returns, because the kernel drops a
 * process's traffic when it exits.  Everything sent is signed with the
 * rank's key, which the PCT put in the auxiliary vector (yod_proto.h,
 * Authentication): yod takes nothing unsigned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>
#include <portals4.h>

#include "libc_internal.h"
#include "yod_proto.h"

static enum { CLOSED, OPENING, OPEN, BROKEN } state;
static ptl_process_t yod;              /* output */
static ptl_process_t srv;              /* file requests: this rank's server */
static const char *servers;            /* LWK_YOD's value */
static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_handle_md_t md;
static uint32_t seq;
static uint32_t out_seq;                /* output Puts so far */
static struct sipkey key;               /* the rank's */

/* A piece of a striped transfer's request: the header, the file's id
   and its name (cut short: it is for yod's messages). */
#define PIECES_MAX      16      /* in flight at once, one per server */
#define PIECE_PATHS     160
struct piece_req {
    char hdr[YOD_FILE_REQ_HDR];
    char paths[PIECE_PATHS];
} __attribute__((aligned(8)));

/* Events the channel may have waiting: an ACK and an answer for each
   request in flight (the call's, the aio one's, the pieces'), and the
   output's. */
#define EQ_SIZE         (2 * (2 + PIECES_MAX) + 8)

/* Everything this side sends or is answered in; the MD covers it all. */
static struct {
    struct yod_file_req req;
    struct yod_file_req areq;   /* the aio request in flight: its own, as
                                   file calls fill req meanwhile */
    struct piece_req preq[PIECES_MAX];
    struct yod_file_ans ans;
    char out[YOD_IO_CHUNK];     /* output: a copy of the caller's bytes */
} ch;

/* An ME on our YOD_PT_FILE that only yod may use, whichever user runs
   it (a zero uid would admit root's yod only); `ignore`: bits that may
   be anything. */
static int append(ptl_process_t from, void *start, size_t len, unsigned opts,
                  uint64_t bits, uint64_t ignore, ptl_handle_me_t *h)
{
    ptl_me_t me = { .start = start, .length = len, .ct_handle = PTL_CT_NONE,
                    .match_id = from, .uid = PTL_UID_ANY, .match_bits = bits,
                    .ignore_bits = ignore,
                    .options = opts | PTL_ME_EVENT_UNLINK_DISABLE };

    return PtlMEAppend(ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, start, h);
}

static int open_portals(void)
{
    const char *p = getenv("PTL_PID");
    ptl_pid_t pid = p ? (ptl_pid_t)strtoul(p, NULL, 0) : PTL_PID_ANY;
    ptl_md_t d = { .start = &ch, .length = sizeof(ch),
                   .options = PTL_MD_EVENT_SEND_DISABLE,
                   .ct_handle = PTL_CT_NONE };
    ptl_handle_me_t answers;
    ptl_pt_index_t pt;
    int rc;

    if (PtlInit() != PTL_OK)
        return -1;
    /* The rank's own pid, the job map's: its PCT bound it to that one, so
       the channel never moves to another (frames to it would go astray). */
    rc = PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, pid,
                   NULL, NULL, &ni);
    if (rc != PTL_OK ||
        PtlEQAlloc(ni, EQ_SIZE, &eq) != PTL_OK ||
        PtlPTAlloc(ni, 0, eq, YOD_PT_FILE, &pt) != PTL_OK)
        return -1;
    d.eq_handle = eq;
    /* Every output Put's answer lands here, its number in the bits. */
    if (append(yod, NULL, 0, PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
               YOD_MB_OUT, 0xffffffffull, &answers) != PTL_OK)
        return -1;
    return PtlMDBind(ni, &d, &md) == PTL_OK ? 0 : -1;
}

/* This rank's I/O server in LWK_YOD's list (yod_proto.h, I/O servers);
   yod if the list names none for it. */
static void pick_server(void)
{
    unsigned nid, pid;

    srv = yod;
    if (yod_io_station(servers, (int)lwk_rank(), &nid, &pid) == 0) {
        srv.phys.nid = (ptl_nid_t)nid;
        srv.phys.pid = (ptl_pid_t)pid;
    }
}

/* 0 once the channel is open; -1 if it cannot be (yod unreachable). */
static int channel(void)
{
    if (state == CLOSED) {
        state = OPENING;        /* Portals' own messages go to the console */
        pick_server();
        state = open_portals() == 0 ? OPEN : BROKEN;
    }
    return state == OPEN ? 0 : -1;
}

/* The link to yod gave up (PTL_NI_UNDELIVERABLE): what this rank wrote
   or asked may be lost, and nothing it writes from now on reaches yod.
   As a write to a broken pipe ends a Linux process, the rank ends, and
   its job with it, loudly: yod names it, with status 125, never a job
   that looks as if it succeeded (docs/SECURITY.md). */
static void lost_if_undeliverable(const ptl_event_t *ev)
{
    if (ev->ni_fail_type != PTL_NI_UNDELIVERABLE)
        return;
    state = BROKEN;             /* what is still buffered: the console */
    lwk_abort(125, "its channel to yod failed: its output or file data "
              "could not all be delivered");
}

/* A file request on its way: the one a file call waits for, and the one
   an aio operation has in flight (aio.c), each its own sequence number
   and answer, their ACKs told apart by user_ptr. */
struct call {
    int flying;                 /* sent, not complete */
    int acked, answered;
    int failed;                 /* it never reached the server */
    uint32_t seq;
    int piece;                  /* a striped transfer's: its piece */
    ptl_process_t to;           /* the server */
    size_t len;                 /* the buffer exposed, or 0 */
    ptl_handle_me_t ans_me, buf_me;
    struct yod_file_req *req;   /* what is sent, from the MD */
    struct yod_file_ans *ans;   /* where the answer lands */
};
static struct yod_file_ans async_ans, piece_ans[PIECES_MAX];
static struct call sync_call = { .req = &ch.req, .ans = &ch.ans },
                   async_call = { .req = &ch.areq, .ans = &async_ans },
                   piece_call[PIECES_MAX];

/* The call an ACK's user_ptr names, or NULL. */
static struct call *call_of_ptr(void *p)
{
    if (p == &sync_call || p == &async_call)
        return p;
    for (int i = 0; i < PIECES_MAX; i++)
        if (p == &piece_call[i])
            return p;
    return NULL;
}

/* The call in flight an answer's match bits name, or NULL. */
static struct call *call_of_answer(uint64_t bits)
{
    if (sync_call.flying && bits == (YOD_MB_ANS | sync_call.seq))
        return &sync_call;
    if (async_call.flying && bits == (YOD_MB_ANS | async_call.seq))
        return &async_call;
    for (int i = 0; i < PIECES_MAX; i++)
        if (piece_call[i].flying && bits == (YOD_MB_ANS | piece_call[i].seq))
            return &piece_call[i];
    return NULL;
}

/* Once acknowledged and answered (or refused): the buffer leaves the
   portal, and so does the answer's ME if no answer is coming. */
static void call_end(struct call *c)
{
    if (c->failed)
        PtlMEUnlink(c->ans_me);
    if (c->len)
        PtlMEUnlink(c->buf_me);
    c->flying = 0;
}

/* An event of a file request (the Put's ACK, the answer): 1 if it was. */
static int call_event(const ptl_event_t *ev)
{
    struct call *c = NULL;

    if (ev->type == PTL_EVENT_ACK && (c = call_of_ptr(ev->user_ptr))) {
        lost_if_undeliverable(ev);
        c->acked = 1;
        c->failed = ev->ni_fail_type != PTL_NI_OK;
    } else if (ev->type == PTL_EVENT_PUT) {
        if (!(c = call_of_answer(ev->match_bits)))
            return 0;
        c->answered = 1;
    } else {
        return 0;
    }
    if (c->flying && c->acked && (c->answered || c->failed))
        call_end(c);
    return 1;
}

/* Wait for the ACK of the output Put just made and for yod's answer to
   it, a Put with match bits `bits` (in either order), taking the events
   of a file request in flight on the way.  0 with the answer's hdr_data
   in *hdr, or -1 if the Put never reached yod. */
static int await_answer(uint64_t bits, uint64_t *hdr)
{
    int acked = 0, answered = 0;
    ptl_event_t ev;

    while (!acked || !answered) {
        if (PtlEQWait(eq, &ev) != PTL_OK)
            return -1;
        if (call_event(&ev))
            continue;
        if (ev.type == PTL_EVENT_ACK) {
            lost_if_undeliverable(&ev);
            if (ev.ni_fail_type != PTL_NI_OK)
                return -1;      /* yod did not take it */
            acked = 1;
        } else if (ev.type == PTL_EVENT_PUT && ev.match_bits == bits) {
            *hdr = ev.hdr_data;
            answered = 1;
        }
    }
    return 0;
}

#define YOD_GONE 1      /* put_chunk: the Put never reached yod */

/* One chunk of output to yod, numbered and signed: 0 once yod wrote it,
   -errno if it could not, or YOD_GONE. */
static long put_chunk(int fd, const char *buf, size_t len)
{
    ptl_hdr_data_t hdr = (ptl_hdr_data_t)++out_seq << 32 |
                         ((uint64_t)lwk_rank() & 0xffffff) << 8 |
                         (unsigned)fd;
    uint64_t err = 0;

    memcpy(ch.out, buf, len);
    if (PtlPut(md, offsetof(typeof(ch), out), len, PTL_ACK_REQ, yod,
               YOD_PT_IO, yod_output_mac(&key, hdr, ch.out, len), 0, NULL,
               hdr) != PTL_OK ||
        await_answer(YOD_MB_OUT | out_seq, &err) < 0)
        return YOD_GONE;
    return err ? -lwk_yod_errno((uint32_t)err) : 0;
}

/* What the program writes to fds 1 and 2.  An error yod met writing it
   (a full disk, a closed pipe) is this write's: the chunks before the one
   it met were written, and a write that wrote some says how many. */
long lwk_yod_output(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    size_t done = 0;
    long rc;

    if (channel() < 0)
        return lwk_io_console.write(fd, buf, len);
    while (done < len) {
        size_t n = len - done < YOD_IO_CHUNK ? len - done : YOD_IO_CHUNK;
        if ((rc = put_chunk(fd, p + done, n)) == YOD_GONE) {
            state = BROKEN;     /* yod is gone: the console has the rest */
            return lwk_io_console.write(fd, p + done, len - done) + done;
        }
        if (rc < 0)
            return done ? (long)done : rc;
        done += n;
    }
    return (long)done;
}

/* Send the request `src` as call c to server `to` (from c's own buffer:
   the Put reads it until its ACK), with `buf` (len bytes) exposed to the
   server for `buf_op` while it lasts; 0 or -errno. */
static long call_start(struct call *c, ptl_process_t to,
                       const struct yod_file_req *src, size_t req_len,
                       void *buf, size_t len, unsigned buf_op)
{
    struct yod_file_req *q = c->req;
    int r;

    if (channel() < 0)
        return -EIO;
    if (q != src)
        memcpy(q, src, req_len);
    q->seq = ++seq;
    q->rank = (int32_t)lwk_rank();
    if (req_len >= YOD_FILE_REQ_HDR)
        q->mac = yod_file_mac(&key, q, req_len);
    *c = (struct call){ .seq = seq, .len = len, .req = q, .ans = c->ans,
                        .piece = c->piece, .to = to };
    if (append(to, c->ans, sizeof(*c->ans),
               PTL_ME_OP_PUT | PTL_ME_USE_ONCE, YOD_MB_ANS | seq, 0,
               &c->ans_me) != PTL_OK)
        return -EIO;
    if (len && (r = append(to, buf, len, buf_op | PTL_ME_EVENT_COMM_DISABLE,
                           YOD_MB_BUF | seq, 0, &c->buf_me)) != PTL_OK) {
        PtlMEUnlink(c->ans_me);
        return r == PTL_ARG_INVALID ? -EFAULT : -EIO;
    }
    c->flying = 1;
    if (PtlPut(md, (ptl_size_t)((char *)q - (char *)&ch), req_len,
               PTL_ACK_REQ, to, YOD_PT_FILE, 0, 0, c, 0) != PTL_OK) {
        c->failed = 1;
        call_end(c);
        return -EIO;
    }
    return 0;
}

/* Take events until call c completes, or `ms` milliseconds pass
   (PTL_TIME_FOREVER: until it completes); 1 once complete. */
static int call_wait(struct call *c, ptl_time_t ms)
{
    ptl_event_t ev;
    unsigned int which;

    while (c->flying) {
        int rc = PtlEQPoll(&eq, 1, ms, &ev, &which);

        if (rc == PTL_EQ_EMPTY)
            return 0;
        if (rc != PTL_OK && rc != PTL_EQ_DROPPED) {
            c->failed = 1;      /* no event will come: give it up */
            call_end(c);
            break;
        }
        call_event(&ev);
    }
    return 1;
}

/*
 * Send the request in lwk_yod_req() to yod and wait for its answer, with
 * `buf` (len bytes) exposed to yod for `buf_op` (PTL_ME_OP_GET: yod reads
 * it, PTL_ME_OP_PUT: yod fills it) while the request lasts.  Returns 0
 * with the answer in *ans, or -errno if the request could not be made
 * (EFAULT: the buffer is not the program's memory).  An aio operation in
 * flight is let finish first: a server serves one request of a rank at
 * a time.
 */
long lwk_yod_call(size_t req_len, void *buf, size_t len, unsigned buf_op,
                  struct yod_file_ans **ans)
{
    long rc;

    if (channel() < 0)
        return -EIO;            /* (and srv is known from here on) */
    call_wait(&async_call, PTL_TIME_FOREVER);
    if ((rc = call_start(&sync_call, srv, &ch.req, req_len, buf, len,
                         buf_op)) < 0)
        return rc;
    call_wait(&sync_call, PTL_TIME_FOREVER);
    *ans = &ch.ans;
    return sync_call.failed ? -EIO : 0;
}

/* The asynchronous form (aio.c): start the request in lwk_yod_req(), the
   only one in flight (-EBUSY while the last is); then lwk_yod_async_wait
   with a timeout in ms (0: a look, PTL_TIME_FOREVER), 1 once it is
   complete, *ans its answer and the result 0, or -EIO if it never
   reached the server. */
long lwk_yod_async_start(size_t req_len, void *buf, size_t len,
                         unsigned buf_op)
{
    if (async_call.flying)
        return -EBUSY;
    if (channel() < 0)
        return -EIO;
    return call_start(&async_call, srv, &ch.req, req_len, buf, len, buf_op);
}

int lwk_yod_async_busy(void)
{
    return async_call.flying;
}

int lwk_yod_async_wait(unsigned ms, struct yod_file_ans **ans, long *rc)
{
    if (!call_wait(&async_call, (ptl_time_t)ms))
        return 0;
    *ans = &async_ans;
    *rc = async_call.failed ? -EIO : 0;
    return 1;
}

/* ---- the pieces of a striped transfer (pfs.c) -------------------------- */

/* The stations of LWK_YOD (yod first), the servers of stripes. */
int lwk_yod_nservers(void)
{
    unsigned nid, pid;
    int n = 0;

    while (servers && yod_io_nth(servers, n, &nid, &pid) == 0)
        n++;
    return n ? n : 1;
}

static ptl_process_t station(int k)
{
    ptl_process_t p = yod;
    unsigned nid, pid;

    if (servers && yod_io_nth(servers, k, &nid, &pid) == 0) {
        p.phys.nid = (ptl_nid_t)nid;
        p.phys.pid = (ptl_pid_t)pid;
    }
    return p;
}

/* Piece i's request (op SREAD or SWRITE), sent as call c. */
static long piece_start(struct call *c, const char *id, const char *name,
                        const struct lwk_yod_piece *p)
{
    struct yod_file_req *q = (struct yod_file_req *)&ch.preq[c - piece_call];
    size_t a = strlen(id) + 1, b = strnlen(name, PIECE_PATHS - a - 1);

    memset(q, 0, YOD_FILE_REQ_HDR);
    q->op = p->op;
    q->flags = p->stripe;
    q->off = (int64_t)p->off;
    q->len = p->len;
    q->fd = -1;
    memcpy(q->path, id, a);
    memcpy(q->path + a, name, b);
    q->path[a + b] = 0;
    q->path_len = (uint32_t)a;
    q->path2_len = (uint32_t)(b + 1);
    c->req = q;
    c->ans = &piece_ans[c - piece_call];
    return call_start(c, station((int)(p->stripe % (unsigned)lwk_yod_nservers())),
                      q, YOD_FILE_REQ_HDR + a + b + 1, p->buf, p->len,
                      p->op == YOD_F_SWRITE ? PTL_ME_OP_GET : PTL_ME_OP_PUT);
}

/* A piece's result once its call ended: bytes, or -errno. */
static long piece_result(const struct call *c)
{
    if (c->failed)
        return -EIO;
    return c->ans->err ? -lwk_yod_errno(c->ans->err) : (long)c->ans->ret;
}

static int owed[PIECES_MAX];    /* piece_call[i] started, its result untaken */

/* A piece call free to start, or NULL. */
static struct call *free_piece_call(void)
{
    for (int i = 0; i < PIECES_MAX; i++)
        if (!owed[i])
            return &piece_call[i];
    return NULL;
}

/* Has server k a piece of ours in flight? */
static int server_busy(const struct lwk_yod_piece *p, unsigned k,
                       unsigned nserv)
{
    for (int i = 0; i < PIECES_MAX; i++)
        if (owed[i] && p[piece_call[i].piece].stripe % nserv == k)
            return 1;
    return 0;
}

/* Move the n pieces of a striped file's transfer (id and name: the
   file's), each to its stripe's server, in order, one in flight per
   server (a server serves one request of a rank at a time) and up to
   PIECES_MAX at once; each piece's result in its `ret`.  0, or -EIO if
   the channel is broken. */
long lwk_yod_pieces(const char *id, const char *name,
                    struct lwk_yod_piece *p, int n)
{
    unsigned nserv = (unsigned)lwk_yod_nservers();
    int next = 0, left = n;
    struct call *c;
    ptl_event_t ev;

    if (channel() < 0)
        return -EIO;
    call_wait(&async_call, PTL_TIME_FOREVER);   /* its server is ours */
    while (left > 0) {
        while (next < n && (c = free_piece_call()) &&
               !server_busy(p, p[next].stripe % nserv, nserv)) {
            c->piece = next;
            if ((p[next].ret = piece_start(c, id, name, &p[next])) < 0)
                left--;         /* it never went */
            else
                owed[c - piece_call] = 1;
            next++;
        }
        if (left == 0)
            break;
        if (PtlEQWait(eq, &ev) != PTL_OK)
            return -EIO;
        call_event(&ev);
        for (int i = 0; i < PIECES_MAX; i++)
            if (owed[i] && !piece_call[i].flying) {
                p[piece_call[i].piece].ret = piece_result(&piece_call[i]);
                owed[i] = 0;
                left--;
            }
    }
    return 0;
}

/* The request lwk_yod_call sends: fill it, then call. */
struct yod_file_req *lwk_yod_req(void)
{
    return &ch.req;
}

/* LWK_YOD=NID:PID[@A-B][,NID:PID@A-B...]: yod is there (the first), and
   the I/O servers; lwk_io becomes yodfile.c's table. */
void lwk_yod_io_setup(const char *where)
{
    unsigned nid, pid;

    if (yod_io_station(where, -1, &nid, &pid) < 0)
        return;
    yod.phys.nid = (ptl_nid_t)nid;
    yod.phys.pid = (ptl_pid_t)pid;
    servers = where;
    key.k0 = lwk_getauxval(AT_LWK_YOD_KEY0, 0);
    key.k1 = lwk_getauxval(AT_LWK_YOD_KEY1, 0);
    lwk_io = &lwk_io_yod;
}
