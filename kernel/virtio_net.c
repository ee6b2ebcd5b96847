/*
 * virtio-net (virtio 1.x, device type 1): one receive and one transmit
 * queue, no offloads.  Each NIC takes one MSI-X vector for both queues.
 *
 * Receive: every receive descriptor is one buffer big enough for a whole
 * frame at the negotiated MTU (no mergeable buffers), from one region of
 * contiguous memory; a frame is handed to the netdev layer in place and
 * the buffer goes back on the ring as soon as the handler returns.
 *
 * Transmit: a frame is a chain of a slot we own (virtio_net_hdr, all
 * zero: no offloads, followed by the caller's copied header) and the
 * caller's segments, which the device reads in place.  Slot i belongs to
 * the chain whose head is descriptor i, so a slot is free exactly when
 * its chain is.
 */
#define LOG_PREFIX "net"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "netdev.h"
#include "paging.h"
#include "printf.h"
#include "timer.h"
#include "trap.h"
#include "virtio.h"
#include "virtio_net.h"

#define VIRTIO_NET_F_MTU        3
#define VIRTIO_NET_F_MAC        5
#define VIRTIO_NET_F_STATUS     16
#define VIRTIO_NET_S_LINK_UP    1

#define VIRTIO_NET_PCI_LEGACY   0x1000  /* transitional device id */
#define RXQ                     0
#define TXQ                     1
#define ETH_HLEN                14
#define DEFAULT_MTU             1500
#define MAX_MTU                 9216    /* jumbo frames; buffers stay sane */
#define MAX_NICS                VEC_NET_COUNT

struct virtio_net_config {
    uint8_t mac[6];
    uint16_t status;
    uint16_t max_virtqueue_pairs;
    uint16_t mtu;
} __packed;

/* With VERSION_1 the header always has num_buffers: 12 bytes. */
struct virtio_net_hdr {
    uint8_t flags;
    uint8_t gso_type;
    uint16_t hdr_len;
    uint16_t gso_size;
    uint16_t csum_start;
    uint16_t csum_offset;
    uint16_t num_buffers;
} __packed;

_Static_assert(sizeof(struct virtio_net_hdr) == 12, "virtio_net_hdr, VERSION_1");
_Static_assert(__builtin_offsetof(struct virtio_net_config, status) == 6, "cfg.status");
_Static_assert(__builtin_offsetof(struct virtio_net_config, mtu) == 10, "cfg.mtu");

#define NET_HDR         sizeof(struct virtio_net_hdr)
#define TX_SLOT         ALIGN_UP(NET_HDR + NETDEV_HDR_MAX, 16)

struct vnet {
    struct netdev nd;
    struct virtio_dev vd;
    struct virtio_queue rx, tx;
    uint8_t *mem;               /* rx buffers, then tx slots */
    uint64_t mem_phys, mem_bytes;
    uint32_t rxbuf_size;        /* net header + Ethernet header + MTU */
    uint16_t rx_buf_of[VIRTQ_MAX_SIZE];     /* rx head -> buffer number */
    uint8_t *slots;
    uint64_t slots_phys;
    uint8_t vector;
    bool in_rx;                 /* a handler polled from inside delivery */
    char name[8];
};

static struct vnet nics[MAX_NICS];
static int nnics;

static uint8_t *rx_buf(struct vnet *n, unsigned b)
{
    return n->mem + (uint64_t)b * n->rxbuf_size;
}

static void rx_post(struct vnet *n, unsigned b)
{
    struct virtq_buf vb = { n->mem_phys + (uint64_t)b * n->rxbuf_size,
                            n->rxbuf_size, true };
    int head = virtq_add(&n->rx.vq, &vb, 1);

    if (head >= 0)              /* never fails: one descriptor per buffer */
        n->rx_buf_of[head] = b;
}

static void rx_drain(struct vnet *n)
{
    uint32_t len;
    int head, got = 0;

    if (n->in_rx)
        return;
    if (n->nd.rx_paused) {
        if (virtq_has_used(&n->rx.vq))
            netdev_rx_left(&n->nd);
        return;
    }
    n->in_rx = true;
    netdev_tx_hold(&n->nd);
    while ((head = virtq_get_used(&n->rx.vq, &len)) >= 0) {
        unsigned b = n->rx_buf_of[head];
        bool more = len <= NET_HDR || len > n->rxbuf_size ||
                    netdev_deliver(&n->nd, rx_buf(n, b) + NET_HDR,
                                   len - NET_HDR);
        rx_post(n, b);
        got++;
        if (!more) {
            if (virtq_has_used(&n->rx.vq))
                netdev_rx_left(&n->nd);
            break;
        }
    }
    if (head == -EIO)
        pr_err("%s: device returned a receive buffer it does not hold\n",
               n->name);
    if (got && virtio_kick(&n->rx))
        n->nd.st.rx_kicks++;
    if (got)
        netdev_rx_done(&n->nd);
    netdev_tx_release(&n->nd);
    n->in_rx = false;
}

static void tx_reclaim(struct vnet *n)
{
    uint32_t len;
    int head;

    while ((head = virtq_get_used(&n->tx.vq, &len)) >= 0)
        ;
    if (head == -EIO)
        pr_err("%s: device completed a transmission we never made\n",
               n->name);
}

static void vnet_kick(struct netdev *nd)
{
    struct vnet *n = nd->priv;

    if (virtio_kick(&n->tx))
        n->nd.st.tx_kicks++;
}

static int vnet_tx(struct netdev *nd, const void *hdr, size_t hlen,
                   const struct netdev_seg *seg, int nseg)
{
    struct vnet *n = nd->priv;
    struct virtq_buf b[1 + NETDEV_SEG_MAX];
    struct virtq *q = &n->tx.vq;
    int nb = 1;
    uint16_t head;
    uint8_t *slot;

    for (int i = 0; i < nseg; i++) {
        if (!seg[i].len)
            continue;
        if (netdev_seg_phys(seg[i].base, seg[i].len, &b[nb].addr) < 0)
            return -EINVAL;
        b[nb].len = seg[i].len;
        b[nb++].device_writes = false;
    }
    if (q->nfree < nb) {
        netdev_tx_kick(nd);     /* held frames: let the device take them */
        tx_reclaim(n);
    }
    if (q->nfree < nb)
        return -EAGAIN;
    /* virtq_add takes the free list's head for the chain's head: fill
       that descriptor's slot before the device can see the chain. */
    head = q->free_head;
    slot = n->slots + head * TX_SLOT;
    *(struct virtio_net_hdr *)slot = (struct virtio_net_hdr){ 0 };
    memcpy(slot + NET_HDR, hdr, hlen);
    b[0] = (struct virtq_buf){ n->slots_phys + head * TX_SLOT, NET_HDR + hlen,
                               false };
    if (virtq_add(q, b, nb) != head)
        return -EIO;            /* cannot happen: checked room above */
    if (nd->tx_hold)
        nd->tx_unkicked = true;
    else
        vnet_kick(nd);
    return 0;
}

/* A poll comes before a wait: nothing queued may stay unannounced (a
   call holding doorbells may be the one waiting: PtlNIFini). */
static void vnet_poll(struct netdev *nd)
{
    struct vnet *n = nd->priv;

    rx_drain(n);
    netdev_tx_kick(nd);
    tx_reclaim(n);
}

static bool vnet_tx_idle(struct netdev *nd)
{
    struct vnet *n = nd->priv;

    netdev_tx_kick(nd);
    tx_reclaim(n);
    return n->tx.vq.nfree == n->tx.vq.size;
}

static void vnet_irq_to(struct netdev *nd, uint32_t apic);

static const struct netdev_ops vnet_ops = {
    .tx = vnet_tx, .poll = vnet_poll, .tx_idle = vnet_tx_idle,
    .irq_to = vnet_irq_to, .kick = vnet_kick,
};

static void vnet_irq_to(struct netdev *nd, uint32_t apic)
{
    struct vnet *n = nd->priv;

    pci_msix_enable(n->vd.pci, 0, n->vector, apic);
}

/* An interrupt that was on its way when the NIC moved to another CPU is
   left to that CPU, which polls after taking the NIC over. */
static void vnet_irq(struct trapframe *tf)
{
    struct vnet *n = &nics[tf->vector - VEC_NET0];

    if (this_cpu()->id != n->nd.cpu) {
        apic_eoi();
        return;
    }
    n->nd.st.irqs++;
    rx_drain(n);
    tx_reclaim(n);
    apic_eoi();
}

/* Receive buffers and transmit slots in one contiguous region. */
static int alloc_buffers(struct vnet *n)
{
    unsigned nrx = n->rx.vq.size;

    n->rxbuf_size = ALIGN_UP(NET_HDR + ETH_HLEN + n->nd.mtu, 64);
    n->mem_bytes = (uint64_t)nrx * n->rxbuf_size + n->tx.vq.size * TX_SLOT;
    if (mem_region_alloc(&n->mem_bytes, true, &n->mem_phys) < 0)
        return -ENOMEM;
    n->mem = phys_to_virt(n->mem_phys);
    n->slots_phys = n->mem_phys + (uint64_t)nrx * n->rxbuf_size;
    n->slots = phys_to_virt(n->slots_phys);
    for (unsigned b = 0; b < nrx; b++)
        rx_post(n, b);
    return 0;
}

#define CFG_OFF(f)  __builtin_offsetof(struct virtio_net_config, f)

/* Each field on its own: the configuration space ends after the last
   field the device's features need. */
static void read_config(struct vnet *n)
{
    uint16_t mtu = DEFAULT_MTU;

    virtio_config_read(&n->vd, CFG_OFF(mac), n->nd.mac, 6);
    if (virtio_has(&n->vd, VIRTIO_NET_F_MTU))
        virtio_config_read(&n->vd, CFG_OFF(mtu), &mtu, 2);
    if (mtu > MAX_MTU)
        pr_warn("%s: device MTU %u is above the %u this driver buffers; "
                "frames longer than %u bytes will be lost\n", n->name, mtu,
                MAX_MTU, ETH_HLEN + MAX_MTU);
    n->nd.mtu = mtu < 68 ? DEFAULT_MTU : MIN(mtu, MAX_MTU);
}

static bool link_up(struct vnet *n)
{
    uint16_t st;

    if (!virtio_has(&n->vd, VIRTIO_NET_F_STATUS))
        return true;            /* no status: the link is always up */
    virtio_config_read(&n->vd, CFG_OFF(status), &st, 2);
    return st & VIRTIO_NET_S_LINK_UP;
}

/* Queues, vector, buffers: everything between FEATURES_OK and DRIVER_OK.
   On failure a message says which step failed. */
static const char *setup(struct vnet *n)
{
    uint64_t want = 1ULL << VIRTIO_NET_F_MTU | 1ULL << VIRTIO_NET_F_STATUS;

    if (virtio_negotiate(&n->vd, want, 1ULL << VIRTIO_NET_F_MAC) < 0)
        return "lacks VERSION_1 or MAC, or refused our features";
    read_config(n);
    if (virtio_config_vector(&n->vd, VIRTIO_MSI_NO_VECTOR) < 0 ||
        virtio_queue_setup(&n->vd, &n->rx, RXQ, VIRTQ_MAX_SIZE, 0) < 0 ||
        virtio_queue_setup(&n->vd, &n->tx, TXQ, VIRTQ_MAX_SIZE, 0) < 0)
        return "queue setup failed (no MSI-X vector, or no memory for rings)";
    if (alloc_buffers(n) < 0)
        return "no contiguous memory for receive buffers";
    /* Finished transmissions are reclaimed when the ring fills or the NIC
       is polled; an interrupt for each would cost more than the send. */
    virtq_set_interrupts(&n->tx.vq, false);
    trap_set_handler(n->vector, vnet_irq);
    if (pci_msix_enable(n->vd.pci, 0, n->vector, apic_id()) < 0)
        return "MSI-X could not be enabled";
    return NULL;
}

static void probe_one(struct pci_dev *d)
{
    struct vnet *n = &nics[nnics];
    const char *why;
    char pn[8];
    const uint8_t *m;

    pci_name(d, pn);
    if (nnics == MAX_NICS) {
        pr_warn("virtio-net %s ignored: at most %d NICs\n", pn, MAX_NICS);
        return;
    }
    memset(n, 0, sizeof(*n));
    if (virtio_pci_init(&n->vd, d) < 0 || !d->msix_cap) {
        pr_err("virtio-net %s: no virtio 1.x capabilities or no MSI-X; use "
               "a modern device (disable-modern=off)\n", pn);
        return;
    }
    n->vector = VEC_NET0 + nnics;
    ksnprintf(n->name, sizeof(n->name), "net%d", nnics);
    n->nd = (struct netdev){ .name = n->name, .ops = &vnet_ops, .priv = n };
    if ((why = setup(n))) {
        virtio_fail(&n->vd);
        pr_err("virtio-net %s: %s; NIC not used\n", pn, why);
        return;
    }
    virtio_driver_ok(&n->vd);
    virtio_kick(&n->rx);
    nnics++;
    m = n->nd.mac;
    /* Receive buffers are sized for the MTU: jumbo frames (the cluster's
       default) cost ~6x the memory of 1500-byte ones, said here. */
    pr_info("virtio-net %s mac %02x:%02x:%02x:%02x:%02x:%02x mtu %u msix "
            "vector %u%s (%s), %u receive buffers of %u bytes: %lu KiB\n",
            pn, m[0], m[1], m[2], m[3], m[4], m[5], n->nd.mtu, n->vector,
            link_up(n) ? "" : " link down", n->name, n->rx.vq.size,
            n->rxbuf_size, (unsigned long)(n->mem_bytes >> 10));
    netdev_register(&n->nd);
}

void virtio_net_probe(void)
{
    for (int i = 0; pci_nth(i); i++) {
        struct pci_dev *d = pci_nth(i);
        if (d->vendor == VIRTIO_PCI_VENDOR &&
            (d->device == VIRTIO_NET_PCI_LEGACY ||
             d->device == VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_NET))
            probe_one(d);
    }
}
