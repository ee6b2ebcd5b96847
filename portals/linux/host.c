/* SPDX-License-Identifier: MIT */
/*
 * host.c: libportals, the Linux host of the portable core.  One "iface" per
 * station (normally one per process), memory from malloc once at open, and
 * one process-wide lock around the core (progress.c, with the waits, the
 * frames coming in and the progress thread).
 *
 * Here: the interfaces (open with their link's transport, close) and the
 * core's host hooks.  Frames a station sends to its own nid go through a
 * loopback queue (a switch does not send a frame back out of the port it
 * came in by).  PtlInit/PtlFini (interface 0 from the environment) are in
 * init.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "host_internal.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

struct iface ptl_lx_ifaces[PTL_MAX_IFACES];
unsigned ptl_lx_n_slots;        /* ptl_lx_ifaces[0..n) may be open */

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
    return f->virtual_clock ? ptl_memnet_clock() : ptl_lx_mono_ns();
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
    .wait = ptl_lx_wait,
    .poll = ptl_lx_poll,
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
    uint32_t e = (uint32_t)(ptl_lx_mono_ns() ^ ((uint64_t)getpid() << 16) ^
                            (uint64_t)time(NULL) * 2654435761u);
    return e ? e : 1;
}

uint64_t ptl_linux_born(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int ptl_linux_auth(unsigned iface, const uint64_t key[2])
{
    struct ptl_lib *lib = ptl_linux_lib(iface);

    if (lib == NULL || key == NULL)
        return PTL_ARG_INVALID;
    ptl_lib_auth(lib, key);
    return PTL_OK;
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
    f = &ptl_lx_ifaces[iface];
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
        if (rc == PTL_OK && ptl_lx_progress_start(f) != 0) {
            ptl_lib_destroy(f->lib);
            rc = PTL_FAIL;
        }
        if (rc != PTL_OK) {
            f->tp.ops->close(&f->tp);
            f->open = false;
        } else if (iface >= ptl_lx_n_slots) {
            ptl_lx_n_slots = iface + 1;
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
    p.born = ptl_linux_born();
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
    f = &ptl_lx_ifaces[iface];
    if (f->open) {
        ptl_lx_progress_stop(f);
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
    return iface < PTL_MAX_IFACES && ptl_lx_ifaces[iface].open
               ? ptl_lx_ifaces[iface].lib : NULL;
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
