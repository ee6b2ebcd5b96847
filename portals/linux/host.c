/* SPDX-License-Identifier: MIT */
/*
 * host.c: libportals, the Linux host of the portable core.  One "iface" per
 * station (normally one per process), memory from malloc once at open, a
 * process-wide recursive lock, and progress on call: PtlEQWait/EQPoll/
 * CTWait/CTPoll block in poll(2) on the link and feed frames to the core;
 * PtlEQGet/CTGet drain whatever already arrived.  No progress thread: a
 * process that stops calling Portals stops answering (its peers retransmit
 * until it calls again).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

struct iface {
    bool open;
    struct ptl_tp tp;
    struct ptl_lib *lib;
    void *mem;
    bool virtual_clock;
    uint8_t *rxbuf;
};

static struct iface ifaces[PTL_MAX_IFACES];
static pthread_mutex_t big_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static int init_count;

static void lock_init(void)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big_lock, &a);
}

void ptl_host_lock(void)
{
    pthread_once(&lock_once, lock_init);
    pthread_mutex_lock(&big_lock);
}

void ptl_host_unlock(void)
{
    pthread_mutex_unlock(&big_lock);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- host hooks ---- */

static int h_tx(void *ctx, const struct ptl_iov *iov, int niov)
{
    struct iface *f = ctx;
    return f->tp.ops->tx(&f->tp, iov, niov);
}

static uint64_t h_now(void *ctx)
{
    struct iface *f = ctx;
    return f->virtual_clock ? ptl_memnet_clock() : mono_ns();
}

/* A Linux process can touch all of its own memory; reject only what is
 * plainly wrong (NULL with a length, or wrapping the address space). */
static int h_check(void *ctx, const void *addr, uint64_t len, int write)
{
    (void)ctx, (void)write;
    if (len == 0)
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

void ptl_host_deliver(unsigned iface, const void *frame, size_t len)
{
    struct iface *f = &ifaces[iface];

    ptl_host_lock();
    if (f->open) {
        ptl_lib_rx(f->lib, frame, len);
        if (len > PTL_ETH_HLEN &&
            ((const uint8_t *)frame)[PTL_ETH_HLEN] != PTL_WIRE_VERSION)
            say_version(frame, len);
    }
    ptl_host_unlock();
}

/* Drain every frame already queued on the link. */
static int drain(struct iface *f)
{
    int n = 0;
    long len;

    while ((len = f->tp.ops->rx(&f->tp, f->rxbuf,
                                PTL_ETH_HLEN + PTL_MTU_MAX)) > 0) {
        ptl_host_deliver(f->tp.iface, f->rxbuf, (size_t)len);
        n++;
    }
    return n;
}

static int h_wait(void *ctx, uint64_t deadline)
{
    struct iface *f = ctx;
    struct pollfd pfd = { .fd = f->tp.ops->fd(&f->tp), .events = POLLIN };
    struct timespec ts = { 0, 0 };
    uint64_t now, left;

    if (f->virtual_clock)
        return ptl_memnet_wait(deadline);
    if (drain(f) == 0) {
        /* Sleep until input or the deadline (at most 100 ms at a time,
         * so a caller's own deadline is re-checked). */
        now = mono_ns();
        left = deadline <= now ? 0 : deadline - now;
        if (left > 100000000ull)
            left = 100000000ull;
        ts.tv_sec = (time_t)(left / 1000000000ull);
        ts.tv_nsec = (long)(left % 1000000000ull);
        if (ppoll(&pfd, 1, &ts, NULL) > 0)
            drain(f);
    }
    ptl_host_lock();
    ptl_lib_progress(f->lib);
    ptl_host_unlock();
    return 0;
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
    fprintf(stderr, "portals: unknown interface '%s'\n", spec);
    return -1;
}

static uint32_t new_epoch(void)
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
        if (rc != PTL_OK) {
            f->tp.ops->close(&f->tp);
            f->open = false;
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
 * switch drops the rest.  Keep the window under that there; vdeplug4's
 * switch (the jumbo-frame default) takes 32 (the kernel's choice too).
 * PTL_WINDOW overrides. */
static void link_defaults(const char *spec, uint32_t mtu,
                          struct ptl_lib_params *p)
{
    const char *w = getenv("PTL_WINDOW");

    if (w != NULL && atoi(w) > 0)
        p->window = (uint32_t)atoi(w);
    else if (strncmp(spec, "vde://", 6) == 0)
        p->window = mtu > 1500 ? 32 : 8;
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
    p.epoch = new_epoch();
    if (mtu)
        p.mtu = mtu;
    link_defaults(spec, p.mtu, &p);
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
        ptl_lib_destroy(f->lib);
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

/* ---- PtlInit / PtlFini: interface 0 from the environment ---- */

static unsigned long env_num(const char *name, unsigned long dflt)
{
    const char *v = getenv(name);
    char *end;
    unsigned long n;

    if (v == NULL || *v == '\0')
        return dflt;
    n = strtoul(v, &end, 0);
    return *end == '\0' ? n : dflt;
}

static int open_from_env(void)
{
    const char *spec = getenv("PTL_IFACE");
    struct ptl_lib_params p;

    if (spec == NULL || ifaces[0].open)
        return PTL_OK;      /* tests open their own interfaces */
    if (getenv("PTL_NID") == NULL) {
        fprintf(stderr, "portals: PTL_IFACE set but PTL_NID missing\n");
        return PTL_FAIL;
    }
    ptl_lib_params_default(&p);
    p.nid = (ptl_nid_t)env_num("PTL_NID", 0);
    p.pid = (ptl_pid_t)env_num("PTL_PID", PTL_PID_ANY);
    p.mtu = (uint32_t)env_num("PTL_MTU", PTL_MTU_DEFAULT);
    p.uid = (ptl_uid_t)env_num("PTL_UID", getuid());
    p.jid = (ptl_jid_t)env_num("PTL_JID", 0);
    p.epoch = new_epoch();
    /* Table sizes: a Linux run can use a compute node's (kernel/portals.c)
     * and show on Linux, quickly, what would fail only on the nodes. */
    p.max_entries = (uint32_t)env_num("PTL_MAX_ENTRIES", p.max_entries);
    p.max_uh = (uint32_t)env_num("PTL_MAX_UH", p.max_uh);
    p.max_mds = (uint32_t)env_num("PTL_MAX_MDS", p.max_mds);
    p.max_msgs = (uint32_t)env_num("PTL_MAX_MSGS", p.max_msgs);
    p.max_eqs = (uint32_t)env_num("PTL_MAX_EQS", p.max_eqs);
    p.max_cts = (uint32_t)env_num("PTL_MAX_CTS", p.max_cts);
    link_defaults(spec, p.mtu, &p);
    return ptl_linux_iface_open_params(0, spec, &p);
}

int PtlInit(void)
{
    int rc = PTL_OK;

    ptl_host_lock();
    if (init_count == 0)
        rc = open_from_env();
    if (rc == PTL_OK)
        init_count++;
    ptl_host_unlock();
    return rc;
}

void PtlFini(void)
{
    ptl_host_lock();
    if (init_count > 0 && --init_count == 0)
        ptl_linux_iface_close(0);
    ptl_host_unlock();
}

void PtlAbort(void)
{
    PtlFini();
}
