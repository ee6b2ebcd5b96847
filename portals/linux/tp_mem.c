/* SPDX-License-Identifier: MIT */
/*
 * tp_mem.c: the in-process network for tests.  Every "mem:" interface of
 * the process is a station on one virtual segment; frames are delivered by
 * destination MAC (nid) after a delay, on a virtual clock that jumps to the
 * next event whenever nothing is due, so retransmission timeouts cost no
 * real time.  On command it drops, duplicates, reorders (extra delay),
 * corrupts (flips a byte) and truncates frames, from a seeded generator so
 * every run is reproducible.
 */
#include <stdlib.h>
#include <string.h>

#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

struct mframe {
    struct mframe *next;
    uint64_t at;
    size_t len;
    uint8_t data[];
};

static struct {
    struct ptl_tp *st[PTL_MAX_IFACES];
    struct mframe *q;
    uint64_t now;
    uint64_t rng;
    uint64_t sent_since;        /* frames sent since the faults were set */
    struct ptl_memnet_faults f;
    struct ptl_memnet_stats s;
} net = { .f = { .delay_ns = 10000 }, .rng = 1 };

static uint64_t rnd(void)
{
    /* xorshift64*: small, seedable, good enough for fault injection */
    net.rng ^= net.rng >> 12;
    net.rng ^= net.rng << 25;
    net.rng ^= net.rng >> 27;
    return net.rng * 2685821657736338717ull;
}

static bool chance(unsigned pct)
{
    return pct && rnd() % 100 < pct;
}

uint64_t ptl_memnet_clock(void) { return net.now; }
uint64_t ptl_memnet_now(void) { return net.now; }

void ptl_memnet_set_faults(const struct ptl_memnet_faults *f)
{
    ptl_host_lock();
    net.f = *f;
    if (net.f.delay_ns == 0)
        net.f.delay_ns = 10000;
    if (net.f.jitter_ns == 0)
        net.f.jitter_ns = 200000;
    net.rng = f->seed ? f->seed : 1;
    net.sent_since = 0;
    ptl_host_unlock();
}

void ptl_memnet_get_stats(struct ptl_memnet_stats *st)
{
    *st = net.s;
}

static void enqueue(const uint8_t *buf, size_t len, uint64_t at)
{
    struct mframe *m = malloc(sizeof(*m) + len), **pp;

    if (m == NULL)
        return;
    memcpy(m->data, buf, len);
    m->len = len;
    m->at = at;
    for (pp = &net.q; *pp && (*pp)->at <= at; pp = &(*pp)->next)
        ;
    m->next = *pp;
    *pp = m;
}

static void damage(uint8_t *buf, size_t *len)
{
    if (chance(net.f.corrupt_pct)) {
        buf[rnd() % *len] ^= (uint8_t)(1u << (rnd() % 8));
        net.s.corrupted++;
    }
    if (chance(net.f.truncate_pct)) {
        *len = rnd() % *len;
        net.s.truncated++;
    }
}

static int mem_tx(struct ptl_tp *tp, const struct ptl_iov *iov, int niov)
{
    static uint8_t buf[PTL_ETH_HLEN + PTL_MTU_MAX];
    size_t len = ptl_tp_gather(buf, sizeof(buf), iov, niov);
    uint64_t at = net.now + net.f.delay_ns;

    (void)tp;
    if (net.now < net.f.busy_until_ns)
        return -1;
    net.s.sent++;
    if (len == 0 || ++net.sent_since == net.f.drop_nth ||
        chance(net.f.loss_pct)) {
        net.s.lost++;
        return 0;
    }
    damage(buf, &len);
    if (chance(net.f.reorder_pct)) {
        at += 1 + rnd() % net.f.jitter_ns;
        net.s.reordered++;
    }
    enqueue(buf, len, at);
    if (chance(net.f.dup_pct)) {
        enqueue(buf, len, at + rnd() % net.f.jitter_ns);
        net.s.duplicated++;
    }
    return 0;
}

/* Hand a frame to every station whose nid owns the destination MAC. */
static void deliver(struct mframe *m)
{
    uint32_t nid;

    if (m->len < PTL_ETH_HLEN || ptl_wire_mac_nid(m->data, &nid) != 0)
        return;
    for (unsigned i = 0; i < PTL_MAX_IFACES; i++)
        if (net.st[i] != NULL && net.st[i]->nid == nid) {
            ptl_host_deliver(i, m->data, m->len);
            net.s.delivered++;
        }
}

static uint64_t next_event(void)
{
    uint64_t t = net.q ? net.q->at : UINT64_MAX;

    for (unsigned i = 0; i < PTL_MAX_IFACES; i++) {
        struct ptl_lib *lib = net.st[i] ? ptl_linux_lib(i) : NULL;
        uint64_t d = lib ? ptl_lib_deadline(lib) : UINT64_MAX;
        if (d < t)
            t = d;
    }
    return t;
}

static void run_timers(void)
{
    for (unsigned i = 0; i < PTL_MAX_IFACES; i++) {
        struct ptl_lib *lib = net.st[i] ? ptl_linux_lib(i) : NULL;
        if (lib)
            ptl_lib_progress(lib);
    }
}

/* Deliver what is due and run the timers; the clock stands still (what
 * PtlEQGet/CTGet do: a poll takes in what has arrived, no more). */
int ptl_memnet_poll(void)
{
    int n = 0;

    ptl_host_lock();
    while (net.q != NULL && net.q->at <= net.now) {
        struct mframe *m = net.q;
        net.q = m->next;
        deliver(m);
        free(m);
        n++;
    }
    run_timers();
    ptl_host_unlock();
    return n;
}

int ptl_memnet_pump(void)
{
    int n;
    uint64_t t;

    ptl_host_lock();
    n = ptl_memnet_poll();
    if (n == 0 && (t = next_event()) != UINT64_MAX && t > net.now)
        net.now = t;
    ptl_host_unlock();
    return n;
}

/* The host's wait hook for mem stations: one pump step.  The caller loops
 * until its own condition or deadline, both on the virtual clock. */
int ptl_memnet_wait(uint64_t deadline)
{
    ptl_host_lock();
    if (ptl_memnet_pump() == 0 && deadline != UINT64_MAX &&
        next_event() > deadline && deadline > net.now)
        net.now = deadline;     /* nothing happens before the deadline */
    ptl_host_unlock();
    return 0;
}

void ptl_memnet_reset(void)
{
    ptl_host_lock();
    while (net.q != NULL) {
        struct mframe *m = net.q;
        net.q = m->next;
        free(m);
    }
    memset(&net.s, 0, sizeof(net.s));
    memset(&net.f, 0, sizeof(net.f));
    net.f.delay_ns = 10000;
    net.f.jitter_ns = 200000;
    ptl_host_unlock();
}

static long mem_rx(struct ptl_tp *tp, void *buf, size_t len)
{
    (void)tp, (void)buf, (void)len;
    return 0;       /* frames are pushed by the pump, never pulled */
}

static int mem_fd(struct ptl_tp *tp)
{
    (void)tp;
    return -1;
}

static void mem_close(struct ptl_tp *tp)
{
    ptl_host_lock();
    net.st[tp->iface] = NULL;
    ptl_host_unlock();
}

static const struct ptl_tp_ops mem_ops = {
    .tx = mem_tx, .rx = mem_rx, .fd = mem_fd, .close = mem_close,
};

int ptl_tp_mem_open(struct ptl_tp *tp)
{
    tp->ops = &mem_ops;
    net.st[tp->iface] = tp;
    return 0;
}
