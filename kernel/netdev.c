/*
 * The network-device layer (see include/netdev.h): the table of NICs,
 * checks common to every driver, statistics, and receive loss injection.
 *
 * Loss injection (net.loss= on the kernel command line, see cmdline.h for
 * the forms: net.loss=5 is 5%, net.loss=0.5 is 0.5%, net.loss=250ppm)
 * drops received frames before the handler sees them, each with that
 * probability, decided by a generator seeded from the node id and the
 * NIC's index: a run is repeatable, and two nodes drop different frames.
 */
#define LOG_PREFIX "net"
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "netdev.h"
#include "mem.h"
#include "memlayout.h"
#include "paging.h"
#include "panic.h"

#define NETDEV_MAX      4
#define ETH_HLEN        14
#define PPM             1000000

extern uint64_t node_id;

static struct netdev *devs[NETDEV_MAX];
static int ndevs;

/* splitmix64: small, fast, and every seed (even 0) gives a good stream. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void netdev_set_loss(struct netdev *nd, unsigned ppm, uint64_t seed)
{
    nd->loss_ppm = MIN(ppm, PPM);
    nd->rng = seed;
}

void netdev_register(struct netdev *nd)
{
    uint32_t ppm;

    if (ndevs == NETDEV_MAX) {
        pr_warn("%s ignored: only %d network devices are supported\n",
                nd->name, NETDEV_MAX);
        return;
    }
    if (cmdline_get_ppm(&kernel_cmdline, "net.loss", 0, &ppm) < 0)
        panic("net.loss=%s is not a loss rate; give percent (net.loss=5, "
              "net.loss=0.5) or parts per million (net.loss=250ppm), at "
              "most 100%%", cmdline_get(&kernel_cmdline, "net.loss"));
    netdev_set_loss(nd, ppm, node_id << 8 | ndevs);
    devs[ndevs++] = nd;
    if (ppm)
        pr_info("%s: dropping %u ppm of received frames (net.loss, seed "
                "nid %lu)\n", nd->name, ppm, node_id);
}

struct netdev *netdev_get(void)
{
    return netdev_nth(0);
}

struct netdev *netdev_nth(int i)
{
    return i >= 0 && i < ndevs ? devs[i] : NULL;
}

void netdev_set_rx(struct netdev *nd, netdev_rx_fn fn, void *ctx)
{
    nd->rx = fn;
    nd->rx_ctx = ctx;
}

void netdev_set_rx_done(struct netdev *nd, void (*done)(void *ctx))
{
    nd->rx_done = done;
}

void netdev_rx_done(struct netdev *nd)
{
    if (nd->rx_done)
        nd->rx_done(nd->rx_ctx);
}

void netdev_set_rx_held(struct netdev *nd, void (*held)(void *ctx))
{
    nd->rx_held = held;
}

void netdev_rx_pause(struct netdev *nd)
{
    nd->rx_stop = nd->rx_paused = true;
}

void netdev_rx_left(struct netdev *nd)
{
    if (nd->rx_waiting)
        return;
    nd->rx_waiting = true;
    if (nd->rx_held)
        nd->rx_held(nd->rx_ctx);
}

void netdev_rx_resume(struct netdev *nd)
{
    if (nd->rx_waiting)
        netdev_poll(nd);
    nd->rx_paused = false;
}

void netdev_tx_hold(struct netdev *nd)
{
    nd->tx_hold++;
}

void netdev_tx_kick(struct netdev *nd)
{
    if (nd->tx_unkicked) {
        nd->tx_unkicked = false;
        nd->ops->kick(nd);
    }
}

void netdev_tx_release(struct netdev *nd)
{
    if (--nd->tx_hold == 0)
        netdev_tx_kick(nd);
}

bool netdev_deliver(struct netdev *nd, const void *frame, size_t len)
{
    if (nd->loss_ppm && rng_next(&nd->rng) % PPM < nd->loss_ppm) {
        nd->st.rx_dropped++;
        return true;
    }
    nd->st.rx_frames++;
    nd->st.rx_bytes += len;
    if (nd->rx)
        nd->rx(nd->rx_ctx, frame, len);
    if (!nd->rx_stop)
        return true;
    nd->rx_stop = false;
    return false;
}

int netdev_tx(struct netdev *nd, const void *hdr, size_t hlen,
              const struct netdev_seg *seg, int nseg)
{
    size_t total = hlen;
    int rc;

    if (hlen > NETDEV_HDR_MAX || (hlen && !hdr) || nseg < 0 ||
        nseg > NETDEV_SEG_MAX || (nseg && !seg))
        return -EINVAL;
    for (int i = 0; i < nseg; i++)
        total += seg[i].len;
    if (total < ETH_HLEN || total > ETH_HLEN + nd->mtu)
        return -EINVAL;
    rc = nd->ops->tx(nd, hdr, hlen, seg, nseg);
    if (rc == -EAGAIN)
        nd->st.tx_full++;
    if (rc == 0) {
        nd->st.tx_frames++;
        nd->st.tx_bytes += total;
    }
    return rc;
}

void netdev_poll(struct netdev *nd)
{
    nd->rx_paused = nd->rx_waiting = false;
    nd->ops->poll(nd);
}

bool netdev_tx_idle(struct netdev *nd)
{
    return nd->ops->tx_idle(nd);
}

void netdev_set_cpu(struct netdev *nd, int cpu)
{
    nd->cpu = cpu;
    nd->ops->irq_to(nd, cpus[cpu].apic_id);
}

void netdev_link_changed(struct netdev *nd, bool up)
{
    if (up == nd->link_up)
        return;
    nd->link_up = up;
    nd->st.link_changes++;
    pr_info("%s: link %s\n", nd->name, up ? "up" : "down");
}

int netdev_count(void)
{
    return ndevs;
}

int netdev_seg_phys(const void *p, uint32_t len, uint64_t *pa)
{
    uint64_t v = (uint64_t)p;

    if (v >= KERNEL_VMA)
        *pa = v - KERNEL_VMA;
    else if (v >= PHYSMAP_BASE && v - PHYSMAP_BASE < PAGING_PHYS_LIMIT)
        *pa = v - PHYSMAP_BASE;
    else
        return -EINVAL;
    return mem_is_ram(*pa, len) && *pa + len >= *pa ? 0 : -EINVAL;
}
