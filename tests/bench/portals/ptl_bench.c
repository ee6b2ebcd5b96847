/* SPDX-License-Identifier: MIT */
/*
 * ptl_bench.c: ping-pong latency and streaming bandwidth between two
 * processes on a VDE switch, through Portals and through plain libvdeplug
 * frames (the floor: what the switch costs with no protocol at all).
 *
 *   ptl-bench portals|raw ping|stream ROLE URL MTU SIZE ITERS
 *
 * ROLE 0 measures and prints one number (half round trip in us, or MB/s);
 * ROLE 1 answers.  nid = ROLE + 1 (Portals), MAC from the nid (raw).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libvdeplug.h>

#include "portals4.h"
#include "ptl_linux.h"
#include "ptl_wire.h"

static int role;
static uint64_t size, iters;
static uint32_t mtu;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *m)
{
    fprintf(stderr, "ptl-bench role %d: %s\n", role, m);
    exit(1);
}

/* ---- Portals ---- */

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_handle_md_t md;
static ptl_pt_index_t pt;
static uint8_t *buf;

static void ptl_setup(const char *url)
{
    ptl_me_t me;
    ptl_handle_me_t h;
    ptl_md_t d;

    if (ptl_linux_iface_open(0, url, (ptl_nid_t)role + 1, 1, mtu) != PTL_OK)
        die("iface");
    if (PtlNIInit(0, PTL_NI_MATCHING | PTL_NI_PHYSICAL, 1, NULL, NULL, &ni)
        != PTL_OK || PtlEQAlloc(ni, 65536, &eq) != PTL_OK ||
        PtlPTAlloc(ni, 0, eq, 0, &pt) != PTL_OK)
        die("init");
    buf = calloc(1, size + 1);
    memset(&me, 0, sizeof(me));
    me.start = buf;
    me.length = size;
    me.ct_handle = PTL_CT_NONE;
    me.uid = PTL_UID_ANY;
    me.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.phys.nid = PTL_NID_ANY;
    me.match_id.phys.pid = PTL_PID_ANY;
    PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h);
    d = (ptl_md_t){ .start = buf, .length = size, .eq_handle = eq,
                    .ct_handle = PTL_CT_NONE };
    PtlMDBind(ni, &d, &md);
}

static ptl_event_kind_t wait_kind(ptl_event_kind_t k)
{
    ptl_event_t ev;

    do {
        if (PtlEQWait(eq, &ev) != PTL_OK && ev.type != k)
            die("eqwait");
        if (ev.ni_fail_type != PTL_NI_OK)
            die("event failed");
    } while (ev.type != k);
    return ev.type;
}

static void ptl_send(uint64_t len)
{
    ptl_process_t peer = { .phys = { (ptl_nid_t)(2 - role), 1 } };

    if (PtlPut(md, 0, len, PTL_NO_ACK_REQ, peer, pt, 0, 0, NULL, 0) !=
        PTL_OK)
        die("put");
}

static void ptl_ping(void)
{
    double t0 = 0;

    for (uint64_t i = 0; i < iters + 1; i++) {
        if (i == 1)
            t0 = now_s();       /* the first round trip warms up */
        if (role == 0) {
            ptl_send(size);
            wait_kind(PTL_EVENT_PUT);
        } else {
            wait_kind(PTL_EVENT_PUT);
            ptl_send(size);
        }
    }
    if (role == 1)
        wait_kind(PTL_EVENT_SEND);  /* the last pong left our buffer */
    if (role == 0)
        printf("%.2f\n", (now_s() - t0) / (double)iters / 2 * 1e6);
}

static void ptl_stream(void)
{
    double t0 = now_s();
    uint64_t sent = 0, done = 0;

    if (role == 1) {
        for (uint64_t i = 0; i < iters; i++)
            wait_kind(PTL_EVENT_PUT);
        ptl_send(0);
        wait_kind(PTL_EVENT_SEND);
        return;
    }
    /* keep up to 8 messages in flight; the buffer is never rewritten */
    while (done < iters) {
        ptl_event_t ev;
        while (sent < iters && sent - done < 8)
            ptl_send(size), sent++;
        if (PtlEQWait(eq, &ev) != PTL_OK)
            die("eqwait");
        if (ev.type == PTL_EVENT_SEND)
            done++;
    }
    wait_kind(PTL_EVENT_PUT);
    printf("%.1f\n", (double)size * iters / (now_s() - t0) / 1e6);
}

/* ---- raw frames through libvdeplug ---- */

static VDECONN *conn;
static uint8_t frame[PTL_ETH_HLEN + 65536];

static void raw_setup(const char *url)
{
    struct vde_open_args a = { .port = 0, .group = NULL, .mode = 0700 };

    conn = vde_open((char *)url, "ptl-bench", &a);
    if (conn == NULL)
        die("vde_open");
    ptl_wire_nid_mac(2 - (uint32_t)role, frame);
    ptl_wire_nid_mac((uint32_t)role + 1, frame + 6);
    frame[12] = 0x88;       /* 0x88B6/B7: not Portals */
}

/*
 * The floor protocol: frames in bursts of BURST, each burst answered by a
 * one-frame credit from the receiver.  A VDE port queues only 10 frames
 * (net.unix.max_dgram_qlen) and the switch drops the rest, so even the
 * floor needs this much flow control; it has no retransmission, no
 * header beyond Ethernet, no copy beyond libvdeplug's.
 */
#define BURST 8
#define ET_DATA 0xB6
#define ET_CREDIT 0xB7

static uint8_t rb[PTL_ETH_HLEN + 65536];
static uint64_t nsent, nrecv, credits, data_waiting;

/* Take one frame: count a credit, or note a data frame. */
static void raw_take(void)
{
    struct pollfd p = { .fd = vde_datafd(conn), .events = POLLIN };
    ssize_t n;

    if (poll(&p, 1, 5000) <= 0)
        die("raw: timeout (a frame was dropped)");
    n = vde_recv(conn, rb, sizeof(rb), 0);
    if (n < PTL_ETH_HLEN || rb[12] != 0x88)
        return;
    if (rb[13] == ET_CREDIT)
        credits++;
    else if (rb[13] == ET_DATA)
        data_waiting++;
}

/* Credits are counted over the whole run, not per message, so streams
 * of small messages are paced too. */
static void raw_send_msg(uint64_t len)
{
    uint64_t off = 0;

    do {        /* a zero-length message is one header-only frame */
        uint64_t n = len - off < mtu ? len - off : mtu;
        while (nsent >= (credits + 1) * BURST)
            raw_take();
        frame[13] = ET_DATA;
        if (vde_send(conn, frame, PTL_ETH_HLEN + n, 0) < 0)
            die("vde_send");
        nsent++;
        off += n;
    } while (off < len);
}

static void raw_recv_msg(uint64_t len)
{
    uint64_t want = len == 0 ? 1 : (len + mtu - 1) / mtu;

    for (uint64_t i = 0; i < want; i++) {
        while (data_waiting == 0)
            raw_take();
        data_waiting--;
        if (++nrecv % BURST == 0) {
            frame[13] = ET_CREDIT;
            vde_send(conn, frame, PTL_ETH_HLEN + 1, 0);
        }
    }
}

static void raw_ping(void)
{
    double t0 = 0;

    for (uint64_t i = 0; i < iters + 1; i++) {
        if (i == 1)
            t0 = now_s();
        if (role == 0) {
            raw_send_msg(size);
            raw_recv_msg(size);
        } else {
            raw_recv_msg(size);
            raw_send_msg(size);
        }
    }
    if (role == 0)
        printf("%.2f\n", (now_s() - t0) / (double)iters / 2 * 1e6);
}

/* Messages back to back; the receiver answers when it has them all. */
static void raw_stream(void)
{
    double t0 = now_s();

    if (role == 1) {
        for (uint64_t i = 0; i < iters; i++)
            raw_recv_msg(size);
        raw_send_msg(0);
        return;
    }
    for (uint64_t i = 0; i < iters; i++)
        raw_send_msg(size);
    raw_recv_msg(0);
    printf("%.1f\n", (double)size * iters / (now_s() - t0) / 1e6);
}

int main(int argc, char **argv)
{
    bool portals;

    if (argc != 8)
        die("usage: ptl-bench portals|raw ping|stream ROLE URL MTU SIZE N");
    portals = strcmp(argv[1], "portals") == 0;
    role = atoi(argv[3]);
    mtu = (uint32_t)atoi(argv[5]);
    size = strtoull(argv[6], NULL, 0);
    iters = strtoull(argv[7], NULL, 0);
    if (portals) {
        ptl_setup(argv[4]);
        if (strcmp(argv[2], "ping") == 0)
            ptl_ping();
        else
            ptl_stream();
        if (getenv("PTL_STATS")) {
            struct ptl_lib_stats st;
            ptl_lib_get_stats(ptl_linux_lib(0), &st);
            fprintf(stderr, "role %d: tx %lu rx %lu rtx %lu acks %lu "
                    "dup %lu ooo %lu bad %lu\n", role,
                    (unsigned long)st.tx_frames, (unsigned long)st.rx_frames,
                    (unsigned long)st.rtx_frames, (unsigned long)st.acks_sent,
                    (unsigned long)st.rx_dup, (unsigned long)st.rx_ooo,
                    (unsigned long)st.rx_bad);
        }
        PtlNIFini(ni);
        ptl_linux_iface_close(0);
    } else {
        raw_setup(argv[4]);
        if (strcmp(argv[2], "ping") == 0)
            raw_ping();
        else
            raw_stream();
        vde_close(conn);
    }
    return 0;
}
