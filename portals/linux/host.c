/* SPDX-License-Identifier: MIT */
/*
 * host.c: libportals, the Linux host of the portable core.  One "iface" per
 * station (normally one per process), memory from malloc once at open, and
 * one process-wide lock around the core.  Every frame is received into the
 * iface's buffer with that lock held (a waiter that read the link outside
 * it let two threads share the buffer: corrupted payloads under threads).
 *
 * Progress (portals/README.md "Progress"): by default a progress thread per
 * link receives, acknowledges and delivers while the application computes,
 * as the nodes' kernel does in its interrupt; threads that wait in Portals
 * sleep on a condition the core's changes signal.  PTL_PROGRESS=call turns
 * the thread off: then whichever thread waits in Portals reads the link
 * (ppoll), and PtlEQGet/PtlCTGet take in what already arrived.
 *
 * Frames a station sends to its own nid go through a loopback queue (a
 * switch does not send a frame back out of the port it came in by).
 * PtlInit/PtlFini (interface 0 from the environment) are in init.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

struct lframe {
    struct lframe *next;
    size_t len;
    uint8_t data[];
};

struct iface {
    bool open;
    struct ptl_tp tp;
    struct ptl_lib *lib;
    void *mem;
    bool virtual_clock;
    uint8_t *rxbuf;             /* touched only with big_lock held */
    uint64_t changes_seen;      /* ptl_lib_changes at the last unlock */
    struct lframe *loop, **loop_tail;   /* frames to ourselves */
    /* The progress thread (pt_on): it sleeps in ppoll on the link and on
     * kick until pt_wake_at; others write kick when it must wake sooner. */
    bool pt_on, pt_stop;
    pthread_t pt;
    int kick;
    uint64_t pt_wake_at;
};

static struct iface ifaces[PTL_MAX_IFACES];
static pthread_mutex_t big_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static unsigned n_slots;        /* ifaces[0..n_slots) may be open */

/* Waking waiters: gen grows (with big_lock held) whenever the core changed
 * something a waiter may wait for; each thread remembers the gen it saw
 * when it last left the core, and sleeps only while gen still is that. */
static _Thread_local unsigned lock_depth;
static _Thread_local uint64_t gen_seen;
static _Thread_local bool in_progress_thread;
static _Atomic uint64_t gen;
static _Atomic unsigned sleepers;
static _Atomic bool aborted;     /* PtlAbort: every wait returns */
static pthread_mutex_t news_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t news;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_condattr_t c;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big_lock, &a);
    pthread_condattr_init(&c);
    pthread_condattr_setclock(&c, CLOCK_MONOTONIC);
    pthread_cond_init(&news, &c);
}

void ptl_host_lock(void)
{
    pthread_once(&lock_once, lock_init);
    pthread_mutex_lock(&big_lock);
    lock_depth++;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void kick(struct iface *f)
{
    uint64_t one = 1;

    if (write(f->kick, &one, sizeof(one)) < 0 && errno != EAGAIN)
        perror("portals: progress thread kick");
}

/* Leaving the core (outermost level, big_lock held): wake the progress
 * threads whose plans changed, and the waiters if anything happened. */
static bool leaving(void)
{
    bool news_now = in_progress_thread;

    for (unsigned i = 0; i < n_slots; i++) {
        struct iface *f = &ifaces[i];
        uint64_t c;

        if (!f->open)
            continue;
        c = ptl_lib_changes(f->lib);
        if (c != f->changes_seen) {
            f->changes_seen = c;
            news_now = true;
        }
        if (f->pt_on && !in_progress_thread &&
            (f->loop != NULL || ptl_lib_deadline(f->lib) < f->pt_wake_at)) {
            f->pt_wake_at = 0;
            kick(f);
        }
    }
    if (news_now)
        atomic_fetch_add(&gen, 1);
    gen_seen = atomic_load(&gen);
    return news_now;
}

void ptl_host_unlock(void)
{
    bool wake = false;

    if (lock_depth == 1)
        wake = leaving();
    lock_depth--;
    pthread_mutex_unlock(&big_lock);
    if (wake && atomic_load(&sleepers) > 0) {
        pthread_mutex_lock(&news_lock);
        pthread_cond_broadcast(&news);
        pthread_mutex_unlock(&news_lock);
    }
}

/* Sleep until the core changed since this thread last left it, or until
 * deadline (monotonic ns).  Lost wake-ups are impossible: a change bumps
 * gen before it reads sleepers, a sleeper counts itself before it reads
 * gen, and it reads gen and sleeps under news_lock, which the broadcast
 * takes. */
static void sleep_for_news(uint64_t deadline)
{
    struct timespec ts;

    pthread_mutex_lock(&news_lock);
    atomic_fetch_add(&sleepers, 1);
    while (atomic_load(&gen) == gen_seen && mono_ns() < deadline &&
           !atomic_load(&aborted)) {
        uint64_t d = deadline;
        if (d > mono_ns() + 1000000000ull)
            d = mono_ns() + 1000000000ull;
        ts.tv_sec = (time_t)(d / 1000000000ull);
        ts.tv_nsec = (long)(d % 1000000000ull);
        pthread_cond_timedwait(&news, &news_lock, &ts);
    }
    atomic_fetch_sub(&sleepers, 1);
    pthread_mutex_unlock(&news_lock);
}

/* ---- host hooks ---- */

/* A frame for our own nid waits in the loopback queue (big_lock held:
 * the core transmits only from inside). */
static int loop_tx(struct iface *f, const struct ptl_iov *iov, int niov)
{
    size_t len = 0;
    struct lframe *l;

    for (int i = 0; i < niov; i++)
        len += iov[i].len;
    l = malloc(sizeof(*l) + len);
    if (l == NULL)
        return -1;              /* not sent: the reliable layer resends */
    l->next = NULL;
    l->len = ptl_tp_gather(l->data, len, iov, niov);
    *f->loop_tail = l;
    f->loop_tail = &l->next;
    return 0;
}

static int h_tx(void *ctx, const struct ptl_iov *iov, int niov)
{
    struct iface *f = ctx;
    uint32_t nid;

    if (!f->virtual_clock && niov > 0 && iov[0].len >= PTL_ETH_HLEN &&
        ptl_wire_mac_nid(iov[0].base, &nid) == 0 && nid == f->tp.nid)
        return loop_tx(f, iov, niov);
    return f->tp.ops->tx(&f->tp, iov, niov);
}

static uint64_t h_now(void *ctx)
{
    struct iface *f = ctx;
    return f->virtual_clock ? ptl_memnet_clock() : mono_ns();
}

/* A Linux process can touch all of its own memory; reject only what is
 * plainly wrong (NULL with a length, or wrapping the address space).  An
 * MD may cover all of memory (start NULL, length PTL_SIZE_MAX). */
static int h_check(void *ctx, const void *addr, uint64_t len, int write)
{
    (void)ctx;
    if (len == 0 || ((write & PTL_CHECK_BIND) && addr == NULL &&
                     len == UINT64_MAX))
        return 0;
    if (addr == NULL || (uintptr_t)addr + len < (uintptr_t)addr)
        return -1;
    return 0;
}

static void h_copy_out(void *ctx, void *dst, const void *src, size_t len)
{
    (void)ctx;
    memcpy(dst, src, len);
}

static void h_copy_in(void *ctx, void *dst, const void *src, size_t len)
{
    (void)ctx;
    memcpy(dst, src, len);
}

static const void *h_map_app(void *ctx, const void *app, size_t len)
{
    (void)ctx, (void)len;
    return app;
}

static void *h_shared_alloc(void *ctx, size_t len)
{
    void *p = NULL;

    (void)ctx;
    if (posix_memalign(&p, 64, len) != 0)
        return NULL;
    memset(p, 0, len);
    return p;
}

static void h_shared_free(void *ctx, void *p, size_t len)
{
    (void)ctx, (void)len;
    free(p);
}

/* A frame of another wire version is refused by the core; say who sent
 * it, once per station and version (a mixed segment otherwise looks like
 * peers that never answer). */
static void say_version(const void *frame, size_t len)
{
    static uint32_t said_nid = UINT32_MAX, said_version;
    struct ptl_whdr h;
    const uint8_t *payload;

    if (ptl_wire_parse(frame, len, &h, &payload, 1) != PTL_WIRE_EVERSION ||
        (h.src_nid == said_nid && h.version == said_version))
        return;
    said_nid = h.src_nid;
    said_version = h.version;
    fprintf(stderr, "portals: " PTL_WIRE_REFUSED_FMT "\n", h.src_nid,
            h.version, PTL_WIRE_VERSION);
}

/* One received frame to the core (big_lock held). */
static void rx_frame(struct iface *f, const void *frame, size_t len)
{
    ptl_lib_rx(f->lib, frame, len);
    if (len > PTL_ETH_HLEN &&
        ((const uint8_t *)frame)[PTL_ETH_HLEN] != PTL_WIRE_VERSION)
        say_version(frame, len);
}

void ptl_host_deliver(unsigned iface, const void *frame, size_t len)
{
    struct iface *f = &ifaces[iface];

    ptl_host_lock();
    if (f->open)
        rx_frame(f, frame, len);
    ptl_host_unlock();
}

/* Feed the core every frame already queued on the link and in the
 * loopback queue, then run its timers.  Takes big_lock: the receive
 * buffer is the iface's, one frame at a time.  Returns frames taken. */
static int drain(struct iface *f)
{
    int n = 0;
    long len;

    ptl_host_lock();
    while (f->open && f->loop != NULL) {
        struct lframe *l = f->loop;
        f->loop = l->next;
        if (f->loop == NULL)
            f->loop_tail = &f->loop;
        rx_frame(f, l->data, l->len);
        free(l);
        n++;
    }
    while (f->open && (len = f->tp.ops->rx(&f->tp, f->rxbuf,
                                           PTL_ETH_HLEN + PTL_MTU_MAX)) > 0) {
        rx_frame(f, f->rxbuf, (size_t)len);
        n++;
    }
    if (f->open)
        ptl_lib_progress(f->lib);
    ptl_host_unlock();
    return n;
}

static struct timespec ns_ts(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000ull),
                           (long)(ns % 1000000000ull) };
    return ts;
}

/* Progress on call (PTL_PROGRESS=call): the waiting thread reads the link.
 * Another thread's change (a PtlCTInc) is seen within 10 ms, the bound of
 * one sleep: this mode is for single-threaded programs. */
static void wait_on_link(struct iface *f, uint64_t deadline)
{
    struct pollfd pfd = { .fd = f->tp.ops->fd(&f->tp), .events = POLLIN };
    uint64_t now, left;
    struct timespec ts;

    if (drain(f) > 0)
        return;
    now = mono_ns();
    left = deadline <= now ? 0 : deadline - now;
    if (left > 10000000ull)
        left = 10000000ull;
    ts = ns_ts(left);
    if (ppoll(&pfd, 1, &ts, NULL) > 0)
        drain(f);
}

static int h_wait(void *ctx, uint64_t deadline)
{
    struct iface *f = ctx;

    if (atomic_load(&aborted))
        return PTL_ABORTED;
    if (f->virtual_clock)
        ptl_memnet_wait(deadline);
    else if (f->pt_on)
        sleep_for_news(deadline);
    else
        wait_on_link(f, deadline);
    return atomic_load(&aborted) ? PTL_ABORTED : 0;
}

static void h_poll(void *ctx)
{
    struct iface *f = ctx;

    if (f->virtual_clock)
        ptl_memnet_poll();
    else if (!f->pt_on)
        drain(f);
}

/* The progress thread: take in frames as they come, run the timers when
 * due, until the iface closes. */
static void *progress_main(void *arg)
{
    struct iface *f = arg;
    struct pollfd pfd[2] = {
        { .fd = f->tp.ops->fd(&f->tp), .events = POLLIN },
        { .fd = f->kick, .events = POLLIN },
    };
    uint64_t d, now, junk;
    struct timespec ts;

    in_progress_thread = true;
    for (;;) {
        ptl_host_lock();
        if (f->pt_stop) {
            ptl_host_unlock();
            return NULL;
        }
        d = f->loop != NULL ? 0 : ptl_lib_deadline(f->lib);
        f->pt_wake_at = d;
        ptl_host_unlock();
        now = mono_ns();
        ts = ns_ts(d <= now ? 0 : d - now > 1000000000ull ? 1000000000ull
                                                          : d - now);
        if (ppoll(pfd, 2, &ts, NULL) > 0 && (pfd[1].revents & POLLIN))
            (void)!read(f->kick, &junk, sizeof(junk));
        drain(f);
    }
}

/* PTL_PROGRESS=call turns the thread off; anything else (or nothing)
 * leaves it on.  The in-process network never has one (virtual clock). */
static bool progress_thread_wanted(const struct iface *f)
{
    const char *v = getenv("PTL_PROGRESS");

    if (f->virtual_clock || f->tp.ops->fd((struct ptl_tp *)&f->tp) < 0)
        return false;
    if (v != NULL && strcmp(v, "call") == 0)
        return false;
    if (v != NULL && *v != '\0' && strcmp(v, "thread") != 0)
        fprintf(stderr, "portals: PTL_PROGRESS=%s not understood (thread "
                "or call): using a progress thread\n", v);
    return true;
}

/* big_lock held. */
static int progress_start(struct iface *f)
{
    if (!progress_thread_wanted(f))
        return 0;
    f->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (f->kick < 0) {
        perror("portals: eventfd for the progress thread");
        return -1;
    }
    f->pt_on = true;
    f->pt_stop = false;
    if (pthread_create(&f->pt, NULL, progress_main, f) != 0) {
        fprintf(stderr, "portals: cannot start the progress thread\n");
        close(f->kick);
        f->pt_on = false;
        return -1;
    }
    return 0;
}

/* big_lock held by the caller (dropped while the thread ends). */
static void progress_stop(struct iface *f)
{
    if (!f->pt_on)
        return;
    unsigned depth = lock_depth;

    f->pt_stop = true;
    kick(f);
    for (unsigned i = 0; i < depth; i++)    /* it needs the lock to end */
        pthread_mutex_unlock(&big_lock);
    lock_depth = 0;
    pthread_join(f->pt, NULL);
    for (unsigned i = 0; i < depth; i++)
        pthread_mutex_lock(&big_lock);
    lock_depth = depth;
    close(f->kick);
    f->pt_on = false;
}

static void h_lock(void *ctx)
{
    (void)ctx;
    ptl_host_lock();
}

static void h_unlock(void *ctx)
{
    (void)ctx;
    ptl_host_unlock();
}

static const struct ptl_host_ops linux_ops = {
    .tx = h_tx,
    .now_ns = h_now,
    .check = h_check,
    .copy_out = h_copy_out,
    .copy_in = h_copy_in,
    .map_app = h_map_app,
    .shared_alloc = h_shared_alloc,
    .shared_free = h_shared_free,
    .wait = h_wait,
    .poll = h_poll,
    .lock = h_lock,
    .unlock = h_unlock,
};

/* ---- interfaces ---- */

static int tp_open(struct ptl_tp *tp, const char *spec)
{
    if (strncmp(spec, "vde://", 6) == 0 || strncmp(spec, "vxvde://", 8) == 0 ||
        strncmp(spec, "tap://", 6) == 0)
        return ptl_tp_vde_open(tp, spec);
    if (strncmp(spec, "packet:", 7) == 0)
        return ptl_tp_packet_open(tp, spec + 7);
    if (strncmp(spec, "mem:", 4) == 0)
        return ptl_tp_mem_open(tp);
    if (strncmp(spec, "unix:", 5) == 0)
        return ptl_tp_unix_open(tp, spec + 5);
    fprintf(stderr, "portals: unknown interface '%s'\n", spec);
    return -1;
}

uint32_t ptl_linux_new_epoch(void)
{
    uint32_t e = (uint32_t)(mono_ns() ^ ((uint64_t)getpid() << 16) ^
                            (uint64_t)time(NULL) * 2654435761u);
    return e ? e : 1;
}

int ptl_linux_iface_open_params(unsigned iface, const char *spec,
                                const struct ptl_lib_params *p)
{
    struct iface *f;
    size_t need;
    int rc;

    if (iface >= PTL_MAX_IFACES || spec == NULL || p == NULL)
        return PTL_ARG_INVALID;
    ptl_host_lock();
    f = &ifaces[iface];
    if (f->open) {
        ptl_host_unlock();
        return PTL_IN_USE;
    }
    memset(f, 0, sizeof(*f));
    f->loop_tail = &f->loop;
    f->tp.nid = p->nid;
    f->tp.iface = iface;
    need = ptl_lib_mem_size(p);
    f->mem = aligned_alloc(64, (need + 63) & ~(size_t)63);
    f->rxbuf = malloc(PTL_ETH_HLEN + PTL_MTU_MAX);
    rc = PTL_FAIL;
    if (f->mem && f->rxbuf && tp_open(&f->tp, spec) == 0) {
        f->virtual_clock = strncmp(spec, "mem:", 4) == 0;
        f->open = true;
        rc = ptl_lib_create(iface, p, &linux_ops, f, f->mem, need, &f->lib);
        if (rc == PTL_OK && progress_start(f) != 0) {
            ptl_lib_destroy(f->lib);
            rc = PTL_FAIL;
        }
        if (rc != PTL_OK) {
            f->tp.ops->close(&f->tp);
            f->open = false;
        } else if (iface >= n_slots) {
            n_slots = iface + 1;
        }
    }
    if (rc != PTL_OK) {
        free(f->mem);
        free(f->rxbuf);
    }
    ptl_host_unlock();
    return rc;
}

/* A port of Debian's vde_switch (MTU 1500) is a unix datagram socket
 * whose queue holds only net.unix.max_dgram_qlen (default 10) frames: the
 * switch drops the rest, and so does a unix: link's socket.  Keep the
 * window under that there; vdeplug4's switch (the jumbo-frame default)
 * takes more, how many depends on the frame size and the host's socket
 * buffers: tools/cluster works it out and says it in its env file as
 * PTL_WINDOW (12 at MTU 9000), as it tells its nodes (ptl.window=).
 * Without it, 32 (the kernel's own choice). */
void ptl_linux_link_defaults(const char *spec, uint32_t mtu,
                             struct ptl_lib_params *p)
{
    const char *w = getenv("PTL_WINDOW");

    if (w != NULL && atoi(w) > 0)
        p->window = (uint32_t)atoi(w);
    else if (strncmp(spec, "vde://", 6) == 0)
        p->window = mtu > 1500 ? 32 : 8;
    else if (strncmp(spec, "unix:", 5) == 0)
        p->window = 8;
    /* The in-memory network runs every station's timers as it goes. */
    p->hold_acks = strncmp(spec, "mem:", 4) == 0;
}

int ptl_linux_iface_open(unsigned iface, const char *spec, ptl_nid_t nid,
                         ptl_pid_t pid, uint32_t mtu)
{
    struct ptl_lib_params p;

    ptl_lib_params_default(&p);
    p.nid = nid;
    p.pid = pid;
    p.uid = (ptl_uid_t)getuid();
    p.epoch = ptl_linux_new_epoch();
    if (mtu)
        p.mtu = mtu;
    ptl_linux_link_defaults(spec, p.mtu, &p);
    return ptl_linux_iface_open_params(iface, spec, &p);
}

void ptl_linux_iface_close(unsigned iface)
{
    struct iface *f;

    if (iface >= PTL_MAX_IFACES)
        return;
    ptl_host_lock();
    f = &ifaces[iface];
    if (f->open) {
        progress_stop(f);
        ptl_lib_destroy(f->lib);
        while (f->loop != NULL) {
            struct lframe *l = f->loop;
            f->loop = l->next;
            free(l);
        }
        f->tp.ops->close(&f->tp);
        free(f->mem);
        free(f->rxbuf);
        f->open = false;
    }
    ptl_host_unlock();
}

struct ptl_lib *ptl_linux_lib(unsigned iface)
{
    return iface < PTL_MAX_IFACES && ifaces[iface].open ? ifaces[iface].lib
                                                        : NULL;
}

size_t ptl_tp_gather(uint8_t *buf, size_t cap, const struct ptl_iov *iov,
                     int niov)
{
    size_t n = 0;

    for (int i = 0; i < niov; i++) {
        if (iov[i].len > cap - n)
            return 0;
        memcpy(buf + n, iov[i].base, iov[i].len);
        n += iov[i].len;
    }
    return n;
}

/* Every thread waiting in Portals (and every later wait) returns
 * PTL_ABORTED; nothing is freed under their feet: the process is
 * expected to end (PtlFini may still tidy up). */
void PtlAbort(void)
{
    atomic_store(&aborted, true);
    ptl_host_lock();
    atomic_fetch_add(&gen, 1);
    ptl_host_unlock();
    pthread_mutex_lock(&news_lock);
    pthread_cond_broadcast(&news);
    pthread_mutex_unlock(&news_lock);
}
