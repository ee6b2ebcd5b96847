/* SPDX-License-Identifier: MIT */
/*
 * control.c: yod's side of the control protocol (yod_proto.h): its
 * Portals NI and buffers, what the PCTs say, the lease's PINGs, and the
 * loop that hands every event to its handler (the requests' ACKs and
 * answers to request.c, the ranks' output to yod.c, file requests to
 * fileio.c).  Everything yod sends a PCT is signed and everything it
 * takes from one is checked (auth.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "ioserver.h"
#include "cluster.h"
#include "gdbserver.h"
#include "yod.h"

#define IO_BUF      (1u << 20)
#define CTL_BUF     (256 * sizeof(struct yod_msg))

ptl_handle_ni_t yod_ni;
ptl_handle_eq_t yod_eq;

static struct {
    ptl_handle_eq_t eqs[2];     /* yod_eq, the requests' ACKs */
    ptl_handle_md_t ping_md;
    ptl_handle_md_t ans_md;     /* no bytes: output answers (hdr_data) */
    struct yod_msg ping[MAX_RANKS];     /* by rank: each signed for its node */
    struct ping_round round;    /* lease.c */
    double called;              /* ms: heartbeat's last look */
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
    ptl_md_t md = { .ct_handle = PTL_CT_NONE, .eq_handle = PTL_EQ_NONE };

    /* Links with every node's PCT and every rank, and a few more. */
    yod_ni = cluster_join(nid, YOD_PID, 2 * nnodes + MAX_RANKS + 64);
    auth_transport();
    if (PtlEQAlloc(yod_ni, 4096, &yod_eq) != PTL_OK)
        die("cannot open a Portals NI on nid %u pid %d", nid, YOD_PID);
    P.eqs[0] = yod_eq;
    P.eqs[1] = requests_open();
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
    /* Pings are fire and forget: the ALIVE answers are what count. */
    md.start = P.ping;
    md.length = sizeof(P.ping);
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
    return cluster_find_nid(nodes, nnodes, sizeof(nodes[0]), nid);
}

/* Rank r's node: a PING, unless it has been silent for YOD_LEASE_MS
   while the job runs: then it is down. */
static void ping(int r, double now)
{
    struct node *n = job[r];
    ptl_process_t to;

    if (!n || n->down || n->leader)
        return;                 /* a node's first rank speaks for it */
    if (!P.watch)
        n->heard = now;
    else if (now - n->heard > YOD_LEASE_MS) {
        lost(n, "stopped answering (down?)");
        return;
    }
    /* The last round's frame left long ago (a second per round). */
    to = (ptl_process_t){ .phys = { n->nid, YOD_PCT_PID } };
    P.ping[r] = (struct yod_msg){ .type = YOD_PING };
    auth_sign(&P.ping[r], n->nid);
    PtlPut(P.ping_md, (ptl_size_t)r * sizeof(P.ping[0]), sizeof(P.ping[0]),
           PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0, NULL, 0);
}

/* The lease: every node yod holds is pinged once each YOD_PING_MS
   (lease.c paces them).  If yod itself was stalled (stopped, or a slow
   terminal), the nodes get the benefit of the doubt. */
static void heartbeat(void)
{
    double now = now_ms();
    int end;

    if (P.called && now - P.called > 2 * YOD_PING_MS)
        for (int r = 0; r < o.size; r++)
            if (job[r])
                job[r]->heard = now;
    P.called = now;
    end = ping_round_due(&P.round, o.size, now, YOD_PING_MS);
    while (P.round.next < end)
        ping(P.round.next++, now);
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
           reached holds no job (and one that has the program tells so,
           if its OK was lost). */
        if (m.job2 != jobid && P.watch && n->rank >= 0 && !n->down)
            lost(n, "no longer holds the job (its lease ran out?)");
        else if (m.job2 == jobid)
            request_loaded(n, &m);
    } else if (m.type == YOD_GOT) {
        n->fan_got = m.status ? 2 : 1;
    } else if (m.type == YOD_LOST) {
        if (m.rank >= 0 && m.rank < o.size && job[m.rank])
            request_answer(job[m.rank], &m);    /* its parent speaks */
    } else if (m.type == YOD_STOPPED) {
        struct node *r = m.rank >= 0 && m.rank < o.size ? job[m.rank] : NULL;
        if (!r || leader_of(r) != n)
            auth_drop(AUTH_CONTROL);
        else
            gdbserver_stopped(&m);
    } else if (m.type == YOD_EXIT) {
        /* The rank it names, if it is one of this node's. */
        struct node *r = m.rank >= 0 && m.rank < o.size ? job[m.rank] : NULL;
        if (!r || leader_of(r) != n)
            auth_drop(AUTH_CONTROL);
        else if (!r->exited)
            rank_ended(r, &m);
    } else {
        request_answer(n, &m);
    }
}

/* Handle events for up to `ms` milliseconds (at least one poll). */
void pump(int ms)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(P.eqs, 2, gdbserver_wait(ms), &ev, &which);

    fileio_poll();
    gdbserver_poll();
    ioservers_poll();
    heartbeat();
    if (rc != PTL_OK && rc != PTL_EQ_DROPPED)
        return;
    if (which == 1) {
        request_ack(&ev);
        return;
    }
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

/* Handle events for `ms` milliseconds, or until a signal came. */
void pump_for(int ms)
{
    for (double end = now_ms() + ms; now_ms() < end && !stop_signal;)
        pump((int)(end - now_ms()) + 1);
}
