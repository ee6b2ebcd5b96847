/* SPDX-License-Identifier: MIT */
/*
 * progress.c: the Linux host's lock and progress.  One process-wide lock
 * around the core; every frame is received into the iface's buffer with
 * that lock held (a waiter that read the link outside it let two threads
 * share the buffer: corrupted payloads under threads).
 *
 * Progress (portals/README.md "Progress"): by default a progress thread per
 * link receives, acknowledges and delivers while the application computes,
 * as the nodes' kernel does in its interrupt; threads that wait in Portals
 * sleep on a condition the core's changes signal.  PTL_PROGRESS=call turns
 * the thread off: then whichever thread waits in Portals reads the link
 * (ppoll), and PtlEQGet/PtlCTGet take in what already arrived.
 *
 * The interfaces and the core's other hooks are host.c.
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
#include "host_internal.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

static pthread_mutex_t big_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

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

uint64_t ptl_lx_mono_ns(void)
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

    for (unsigned i = 0; i < ptl_lx_n_slots; i++) {
        struct iface *f = &ptl_lx_ifaces[i];
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
    while (atomic_load(&gen) == gen_seen && ptl_lx_mono_ns() < deadline &&
           !atomic_load(&aborted)) {
        uint64_t d = deadline;
        if (d > ptl_lx_mono_ns() + 1000000000ull)
            d = ptl_lx_mono_ns() + 1000000000ull;
        ts.tv_sec = (time_t)(d / 1000000000ull);
        ts.tv_nsec = (long)(d % 1000000000ull);
        pthread_cond_timedwait(&news, &news_lock, &ts);
    }
    atomic_fetch_sub(&sleepers, 1);
    pthread_mutex_unlock(&news_lock);
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
    struct iface *f = &ptl_lx_ifaces[iface];

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
    now = ptl_lx_mono_ns();
    left = deadline <= now ? 0 : deadline - now;
    if (left > 10000000ull)
        left = 10000000ull;
    ts = ns_ts(left);
    if (ppoll(&pfd, 1, &ts, NULL) > 0)
        drain(f);
}

int ptl_lx_wait(void *ctx, uint64_t deadline)
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

void ptl_lx_poll(void *ctx)
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
        now = ptl_lx_mono_ns();
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
int ptl_lx_progress_start(struct iface *f)
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
void ptl_lx_progress_stop(struct iface *f)
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
