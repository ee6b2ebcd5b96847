/* SPDX-License-Identifier: MIT */
/*
 * control.c: yod's side of the control protocol (yod_proto.h): its
 * Portals NI and buffers, the requests to the PCTs and their answers, the
 * lease's PINGs, and the loop that hands every event to its handler (the
 * ranks' output to yod.c, file requests to fileio.c).  Everything yod
 * sends a PCT is signed and everything it takes from one is checked
 * (auth.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "ioserver.h"
#include "cluster.h"
#include "yod.h"

#define IO_BUF      (1u << 20)
#define CTL_BUF     (256 * sizeof(struct yod_msg))

ptl_handle_ni_t yod_ni;
ptl_handle_eq_t yod_eq;

static struct {
    ptl_handle_eq_t ini_eq;
    ptl_handle_md_t md, ping_md;
    ptl_handle_md_t ans_md;     /* no bytes: output answers (hdr_data) */
    struct yod_msg out;
    struct yod_msg ping[MAX_RANKS];     /* by rank: each signed for its node */
    double pinged;              /* ms: the last round of pings */
    int watch;                  /* the job runs: silent nodes are down */
} P;
static char ctl_buf[2][CTL_BUF], io_buf[2][IO_BUF];

void watch_nodes(int on)
{
    P.watch = on;
}

void append(ptl_pt_index_t pt, void *buf, size_t len, unsigned opts,
            ptl_match_bits_t bits, size_t min_free)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .match_bits = bits, .ignore_bits = min_free ? ~0ull : 0,
                    .min_free = min_free, .options = opts };
    ptl_handle_me_t h;

    if (PtlMEAppend(yod_ni, pt, &me, PTL_PRIORITY_LIST, buf, &h) != PTL_OK)
        die("PtlMEAppend on portal %u failed", pt);
}

void open_portals(unsigned nid)
{
    ptl_pt_index_t pt;
    ptl_md_t md = { .start = &P.out, .length = sizeof(P.out),
                    .ct_handle = PTL_CT_NONE };

    yod_ni = cluster_join(nid, YOD_PID);
    auth_transport();
    if (PtlEQAlloc(yod_ni, 4096, &yod_eq) != PTL_OK ||
        PtlEQAlloc(yod_ni, 64, &P.ini_eq) != PTL_OK)
        die("cannot open a Portals NI on nid %u pid %d", nid, YOD_PID);
    for (ptl_pt_index_t want = YOD_PT_CTL; want <= YOD_PT_IO; want++)
        if ((want == YOD_PT_CTL || want == YOD_PT_DATA || want == YOD_PT_IO) &&
            PtlPTAlloc(yod_ni, 0, yod_eq, want, &pt) != PTL_OK)
            die("cannot allocate portal %u", want);
    for (int i = 0; i < 2; i++) {
        append(YOD_PT_CTL, ctl_buf[i], CTL_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, sizeof(struct yod_msg));
        append(YOD_PT_IO, io_buf[i], IO_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, YOD_IO_CHUNK);
    }
    append(YOD_PT_DATA, image, image_len, PTL_ME_OP_GET, YOD_MB_IMAGE, 0);
    append(YOD_PT_DATA, args, sizeof(args), PTL_ME_OP_GET, YOD_MB_ARGS, 0);
    md.eq_handle = P.ini_eq;
    if (PtlMDBind(yod_ni, &md, &P.md) != PTL_OK)
        die("PtlMDBind failed");
    /* Pings are fire and forget: the ALIVE answers are what count. */
    md.start = P.ping;
    md.length = sizeof(P.ping);
    md.eq_handle = PTL_EQ_NONE;
    if (PtlMDBind(yod_ni, &md, &P.ping_md) != PTL_OK)
        die("PtlMDBind failed");
    md.start = NULL;
    md.length = 0;
    if (PtlMDBind(yod_ni, &md, &P.ans_md) != PTL_OK)
        die("PtlMDBind failed");
}

/* What became of an output Put (ev): a Put of no bytes back to its
   sender, the protocol's errno in hdr_data, 0 if it was written
   (yod_proto.h, Output).  Fire and forget: the rank waits for it, and a
   rank that is gone needs no answer. */
void answer_output(const ptl_event_t *ev, uint32_t err)
{
    PtlPut(P.ans_md, 0, 0, PTL_NO_ACK_REQ, ev->initiator, YOD_PT_FILE,
           YOD_MB_OUT | (ev->hdr_data >> 32), 0, NULL, err);
}

static struct node *node_of(unsigned nid)
{
    for (int i = 0; i < nnodes; i++)
        if (nodes[i].nid == nid)
            return &nodes[i];
    return NULL;
}

/* The lease: a PING to every node yod holds each YOD_PING_MS; a node
   silent for YOD_LEASE_MS is down.  If yod itself was stalled (stopped,
   or a slow terminal), the nodes get the benefit of the doubt. */
static void heartbeat(void)
{
    double now = now_ms();

    if (now - P.pinged < YOD_PING_MS)
        return;
    for (int r = 0; r < o.size && job[r]; r++) {
        struct node *n = job[r];
        ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
        if (n->down || n->leader)
            continue;           /* a node's first rank speaks for it */
        if (now - P.pinged > 2 * YOD_PING_MS || !P.watch)
            n->heard = now;
        else if (now - n->heard > YOD_LEASE_MS) {
            lost(n, "stopped answering (down?)");
            continue;
        }
        /* The last round's frames left long ago (a second per round). */
        P.ping[r] = (struct yod_msg){ .type = YOD_PING };
        auth_sign(&P.ping[r], n->nid);
        PtlPut(P.ping_md, (ptl_size_t)r * sizeof(P.ping[0]),
               sizeof(P.ping[0]), PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0,
               NULL, 0);
    }
    P.pinged = now;
}

static void control(const ptl_event_t *ev)
{
    struct node *n = node_of(ev->initiator.phys.nid);
    struct yod_msg m;

    if (!n || ev->mlength != sizeof(m)) {
        auth_drop(AUTH_CONTROL);        /* not from a node of the cluster */
        return;
    }
    memcpy(&m, ev->start, sizeof(m));
    if (m.job != jobid)
        return;                 /* an answer to an earlier yod or attempt */
    if (!auth_pct(ev, &m, n))
        return;
    n->heard = now_ms();
    if (m.type == YOD_ALIVE) {
        /* Only once the job runs: while the tree loads, a node not yet
           reached holds no job. */
        if (m.job2 != jobid && P.watch && n->rank >= 0 && !n->down)
            lost(n, "no longer holds the job (its lease ran out?)");
    } else if (m.type == YOD_GOT) {
        n->fan_got = m.status ? 2 : 1;
    } else if (m.type == YOD_LOST) {
        if (m.rank >= 0 && m.rank < o.size && job[m.rank])
            job[m.rank]->got = m;   /* its parent speaks for it */
    } else if (m.type == YOD_EXIT) {
        /* The rank it names, if it is one of this node's. */
        struct node *r = m.rank >= 0 && m.rank < o.size ? job[m.rank] : NULL;
        if (!r || leader_of(r) != n)
            auth_drop(AUTH_CONTROL);
        else if (!r->exited)
            rank_ended(r, &m);
    } else {
        n->got = m;
    }
}

/* Handle events for up to `ms` milliseconds (at least one poll). */
void pump(int ms)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(&yod_eq, 1, ms, &ev, &which);

    fileio_poll();
    ioservers_poll();
    heartbeat();
    if (rc != PTL_OK && rc != PTL_EQ_DROPPED)
        return;
    if (fileio_event(&ev))
        return;
    if (ev.type == PTL_EVENT_PUT && ev.ni_fail_type == PTL_NI_OK) {
        if (ev.pt_index == YOD_PT_IO)
            output(&ev);
        else if (ev.pt_index == YOD_PT_CTL)
            control(&ev);
    } else if (ev.type == PTL_EVENT_AUTO_UNLINK) {
        /* A full buffer: its events were handled already, so reuse it. */
        if (ev.pt_index == YOD_PT_IO)
            append(YOD_PT_IO, ev.user_ptr, IO_BUF,
                   PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, YOD_IO_CHUNK);
        else
            append(YOD_PT_CTL, ev.user_ptr, CTL_BUF,
                   PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0,
                   sizeof(struct yod_msg));
    }
}

static const char *const names[] = {
    [YOD_ALLOC] = "ALLOC", [YOD_LOAD] = "LOAD", [YOD_START] = "START",
    [YOD_KILL] = "KILL", [YOD_FREE] = "FREE", [YOD_FLOAD] = "FLOAD",
};

static const char *name_of(uint32_t type)
{
    return type < sizeof(names) / sizeof(names[0]) && names[type]
           ? names[type] : "request";
}

/* One request to a node's PCT; 0 once the PCT has it, else -1 with what
   happened in n->tried (for "does not answer (...)"). */
int request(struct node *n, uint32_t type, int rank)
{
    static uintptr_t seq;       /* tells this Put's ACK from late ones */
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
    ptl_event_t ev;
    unsigned which;
    int rc;

    P.out = (struct yod_msg){ .type = type, .rank = rank, .size = o.size };
    if (type == YOD_LOAD || type == YOD_FLOAD) {
        P.out.image_len = image_len;
        P.out.args_len = args_len;
        P.out.argc = 0;
        for (char **a = o.argv; *a; a++)
            P.out.argc++;
        P.out.envc = nenv;
        P.out.heap = o.heap;
        P.out.stack = o.stack;
        P.out.mode = o.mode;
        P.out.local = (uint32_t)n->nlocal;
        P.out.src = P.out.owner = YOD_STATION(self_nid, YOD_PID);
    }
    auth_sign(&P.out, n->nid);
    n->got.type = 0;
    n->tried[0] = 0;
    if ((rc = PtlPut(P.md, 0, sizeof(P.out), PTL_ACK_REQ, to, YOD_PT_CTL, 0,
                     0, (void *)++seq, 0)) != PTL_OK) {
        snprintf(n->tried, sizeof(n->tried), "yod could not send %s: "
                 "PtlPut %d", name_of(type), rc);
        return -1;
    }
    /* A request that timed out to a dead node is failed by the library
       much later: its ACK event must not answer this one. */
    for (double end = now_ms() + ANSWER_MS; now_ms() < end;) {
        if (PtlEQPoll(&P.ini_eq, 1, 50, &ev, &which) == PTL_OK &&
            ev.type == PTL_EVENT_ACK && ev.user_ptr == (void *)seq) {
            if (ev.ni_fail_type == PTL_NI_OK)
                return 0;
            snprintf(n->tried, sizeof(n->tried), "%s to its PCT (pid %d) "
                     "failed: Portals failure %d (%s)", name_of(type),
                     YOD_PCT_PID, ev.ni_fail_type, ev.ni_fail_type ==
                     PTL_NI_UNDELIVERABLE ? "resent until given up, or no "
                     "process there any more" : "refused");
            return -1;
        }
        pump(0);
    }
    snprintf(n->tried, sizeof(n->tried), "%s to its PCT (pid %d) not "
             "acknowledged in %d s", name_of(type), YOD_PCT_PID,
             ANSWER_MS / 1000);
    return -1;
}

/* The node's answer to the last request, or 0 after ANSWER_MS. */
uint32_t answer(struct node *n)
{
    for (double end = now_ms() + ANSWER_MS; !n->got.type && now_ms() < end;)
        pump(50);
    if (!n->got.type)
        snprintf(n->tried, sizeof(n->tried), "its PCT took %s but sent no "
                 "answer in %d s", name_of(P.out.type), ANSWER_MS / 1000);
    return n->got.type;
}

