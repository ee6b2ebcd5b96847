/*
 * Intel 82574L (e1000e) driver: one receive and one transmit queue, legacy
 * descriptors, no offloads, one MSI-X vector for every cause.  The ring
 * bookkeeping is e1000e_ring.c; this file is the controller's setup, its
 * interrupt, and the netdev operations.
 *
 * Receive: each descriptor owns one buffer big enough for a whole frame
 * (2 KiB at MTU 1500, 16 KiB for jumbo frames); a frame is handed to the
 * netdev layer in place and its descriptor goes back to the controller
 * as soon as the handler returns.
 *
 * Transmit, zero copy as virtio-net: a frame is the caller's header,
 * copied into a slot we own (slot i belongs to the frame whose first
 * descriptor is i), then the caller's segments, which the controller reads
 * in place.  Finished frames are reclaimed when the ring fills or the NIC
 * is polled; no transmit interrupt.
 *
 * MTU: a NIC cannot learn the link's MTU, so it comes from the kernel
 * command line (e1000e.mtu=, default 1500); the 82574L takes frames up to
 * 9234 bytes with CRC (its jumbo limit), so at most 9216.  Link changes
 * (the "other" cause, LSC) are logged and counted by the netdev layer.
 */
#define LOG_PREFIX "net"
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "cpu.h"
#include "e1000e.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "netdev.h"
#include "pci.h"
#include "printf.h"
#include "timer.h"
#include "trap.h"

#define ETH_HLEN        14
#define ETH_FCS         4
#define DEFAULT_MTU     1500
#define MAX_FRAME       9234            /* 82574L jumbo limit, with CRC */
#define MAX_MTU         (MAX_FRAME - ETH_HLEN - ETH_FCS)
#define TX_SIZE         256
#define RX_SIZE_STD     256             /* 2 KiB buffers: 512 KiB */
#define RX_SIZE_JUMBO   128             /* 16 KiB buffers: 2 MiB */
#define TX_SLOT         NETDEV_HDR_MAX
#define MAX_NICS        VEC_E1000E_COUNT
#define IRQ_CAUSES      (E1000_ICR_RXQ0 | E1000_ICR_RXT0 | E1000_ICR_OTHER | \
                         E1000_ICR_LSC | E1000_ICR_RXO)

struct e1k {
    struct netdev nd;
    struct pci_dev *pci;
    volatile uint8_t *mmio;
    struct e1000e_txring tx;
    struct e1000e_rxring rx;
    uint8_t *rxbuf, *slots;
    uint64_t rxbuf_phys, slots_phys;
    uint32_t rxbuf_size;
    uint8_t vector;
    bool in_rx;
    char name[8];
};

static struct e1k nics[MAX_NICS];
static int nnics;

static uint32_t rd(struct e1k *n, uint32_t reg)
{
    return *(volatile uint32_t *)(n->mmio + reg);
}

static void wr(struct e1k *n, uint32_t reg, uint32_t v)
{
    *(volatile uint32_t *)(n->mmio + reg) = v;
}

static bool link_up(struct e1k *n)
{
    return rd(n, E1000_STATUS) & E1000_STATUS_LU;
}

static void rx_drain(struct e1k *n)
{
    uint16_t tail = n->rx.tail;
    uint32_t len;
    int idx, got = 0;

    if (n->in_rx)
        return;
    if (n->nd.rx_paused) {
        if (e1000e_rx_ready(&n->rx))
            netdev_rx_left(&n->nd);
        return;
    }
    n->in_rx = true;
    /* Whatever this batch makes us send goes with one doorbell, and the
       per-batch work (timers, wakeups) runs once: netdev.h. */
    netdev_tx_hold(&n->nd);
    while ((idx = e1000e_rx_next(&n->rx, &len)) >= 0) {
        bool more = len > n->rxbuf_size ||
                    netdev_deliver(&n->nd,
                                   n->rxbuf + (uint64_t)idx * n->rxbuf_size,
                                   len);
        e1000e_rx_release(&n->rx, idx);
        got++;
        if (!more) {
            if (e1000e_rx_ready(&n->rx))
                netdev_rx_left(&n->nd);
            break;
        }
    }
    if (n->rx.tail != tail) {
        wr(n, E1000_RDT, n->rx.tail);
        n->nd.st.rx_kicks++;
    }
    if (got)
        netdev_rx_done(&n->nd);
    netdev_tx_release(&n->nd);
    n->in_rx = false;
}

/* The transmit doorbell: the tail register tells the controller what is
   queued up to here. */
static void e1k_kick(struct netdev *nd)
{
    struct e1k *n = nd->priv;

    wr(n, E1000_TDT, n->tx.tail);
    n->nd.st.tx_kicks++;
}

static int e1k_tx(struct netdev *nd, const void *hdr, size_t hlen,
                  const struct netdev_seg *seg, int nseg)
{
    struct e1k *n = nd->priv;
    struct e1000e_txbuf b[1 + NETDEV_SEG_MAX] = { 0 };
    uint16_t first = n->tx.tail;
    int nb = 0;

    if (hlen) {
        memcpy(n->slots + first * TX_SLOT, hdr, hlen);
        b[nb++] = (struct e1000e_txbuf){ n->slots_phys + first * TX_SLOT,
                                         hlen };
    }
    for (int i = 0; i < nseg; i++) {
        if (!seg[i].len)
            continue;
        if (netdev_seg_phys(seg[i].base, seg[i].len, &b[nb].addr) < 0)
            return -EINVAL;
        b[nb++].len = seg[i].len;
    }
    if (n->tx.nfree < nb) {
        netdev_tx_kick(nd);     /* held frames: let the controller take them */
        e1000e_tx_reclaim(&n->tx);
    }
    if (e1000e_tx_add(&n->tx, b, nb) != first)
        return n->tx.nfree < nb ? -EAGAIN : -EINVAL;
    if (nd->tx_hold)
        nd->tx_unkicked = true;
    else
        e1k_kick(nd);
    return 0;
}

static void e1k_poll(struct netdev *nd)
{
    struct e1k *n = nd->priv;

    rx_drain(n);
    netdev_tx_kick(nd);
    e1000e_tx_reclaim(&n->tx);
}

static bool e1k_tx_idle(struct netdev *nd)
{
    struct e1k *n = nd->priv;

    netdev_tx_kick(nd);
    e1000e_tx_reclaim(&n->tx);
    return e1000e_tx_idle(&n->tx);
}

static void e1k_irq_to(struct netdev *nd, uint32_t apic)
{
    struct e1k *n = nd->priv;

    pci_msix_enable(n->pci, 0, n->vector, apic);
}

static const struct netdev_ops e1k_ops = {
    .tx = e1k_tx, .poll = e1k_poll, .tx_idle = e1k_tx_idle,
    .irq_to = e1k_irq_to, .kick = e1k_kick,
};

/* Causes are cleared by writing them back (MSI-X mode does not clear on
   read); a frame that lands after the clear raises a new message, and
   one that landed before it is in the ring when we drain. */
static void e1k_irq(struct trapframe *tf)
{
    struct e1k *n = &nics[tf->vector - VEC_E1000E0];
    uint32_t icr;

    if (this_cpu()->id != n->nd.cpu) {
        apic_eoi();
        return;
    }
    icr = rd(n, E1000_ICR);
    wr(n, E1000_ICR, icr);
    n->nd.st.irqs++;
    if (icr & E1000_ICR_LSC)
        netdev_link_changed(&n->nd, link_up(n));
    rx_drain(n);
    e1000e_tx_reclaim(&n->tx);
    apic_eoi();
}

/* Rings, header slots and receive buffers in one contiguous region:
   rings first, so they keep the region's page alignment. */
static int alloc_rings(struct e1k *n, unsigned nrx)
{
    uint64_t rings = (nrx + TX_SIZE) * 16, bytes, pa;
    uint8_t *va;

    n->rxbuf_size = n->nd.mtu > DEFAULT_MTU ? KiB(16) : KiB(2);
    bytes = rings + TX_SIZE * TX_SLOT + (uint64_t)nrx * n->rxbuf_size;
    if (mem_region_alloc(&bytes, true, &pa) < 0)
        return -ENOMEM;
    va = phys_to_virt(pa);
    memset(va, 0, rings);
    n->slots_phys = pa + rings;
    n->slots = va + rings;
    n->rxbuf_phys = ALIGN_UP(n->slots_phys + TX_SIZE * TX_SLOT, 64);
    n->rxbuf = phys_to_virt(n->rxbuf_phys);
    if (n->rxbuf_phys + (uint64_t)nrx * n->rxbuf_size > pa + bytes ||
        e1000e_rx_init(&n->rx, va, nrx, n->rxbuf_phys, n->rxbuf_size) < 0 ||
        e1000e_tx_init(&n->tx, va + nrx * 16, TX_SIZE) < 0)
        return -ENOMEM;
    wr(n, E1000_RDBAL, (uint32_t)pa);
    wr(n, E1000_RDBAH, pa >> 32);
    wr(n, E1000_RDLEN, nrx * 16);
    wr(n, E1000_TDBAL, (uint32_t)(pa + nrx * 16));
    wr(n, E1000_TDBAH, (pa + nrx * 16) >> 32);
    wr(n, E1000_TDLEN, TX_SIZE * 16);
    return 0;
}

/* Software reset: every register back to its default, the MAC address
   reloaded from the NVM, interrupts masked. */
static bool reset(struct e1k *n)
{
    wr(n, E1000_IMC, ~0u);
    wr(n, E1000_CTRL, rd(n, E1000_CTRL) | E1000_CTRL_RST);
    udelay(20);
    for (int i = 0; i < 1000 && (rd(n, E1000_CTRL) & E1000_CTRL_RST); i++)
        udelay(10);
    wr(n, E1000_IMC, ~0u);
    wr(n, E1000_ICR, rd(n, E1000_ICR));
    return !(rd(n, E1000_CTRL) & E1000_CTRL_RST);
}

static void read_mac(struct e1k *n)
{
    uint32_t lo = rd(n, E1000_RAL0), hi = rd(n, E1000_RAH0);

    for (int i = 0; i < 4; i++)
        n->nd.mac[i] = lo >> (8 * i);
    n->nd.mac[4] = hi;
    n->nd.mac[5] = hi >> 8;
}

static uint32_t mtu_wanted(const char *pn)
{
    uint64_t mtu;

    if (cmdline_get_u64(&kernel_cmdline, "e1000e.mtu", DEFAULT_MTU, &mtu) < 0
        || mtu < 68 || mtu > MAX_MTU) {
        pr_warn("e1000e %s: e1000e.mtu=%s is not an MTU from 68 to %u (the "
                "82574L's jumbo limit); using %u\n", pn,
                cmdline_get(&kernel_cmdline, "e1000e.mtu"), MAX_MTU,
                DEFAULT_MTU);
        return DEFAULT_MTU;
    }
    return mtu;
}

/* Everything after the reset; on failure a message says which step. */
static const char *setup(struct e1k *n, const char *pn)
{
    uint32_t rctl = E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_SECRC;

    if (!reset(n))
        return "did not come out of reset";
    read_mac(n);
    if (!(rd(n, E1000_RAH0) & E1000_RAH_AV))
        return "has no MAC address (RAH0.AV clear: NVM not loaded)";
    n->nd.mtu = mtu_wanted(pn);
    if (alloc_rings(n, n->nd.mtu > DEFAULT_MTU ? RX_SIZE_JUMBO
                                               : RX_SIZE_STD) < 0)
        return "no contiguous memory for rings and buffers";
    for (int i = 0; i < 128; i++)
        wr(n, E1000_MTA + 4 * i, 0);
    wr(n, E1000_RDH, 0);
    wr(n, E1000_RDT, n->rx.tail);
    wr(n, E1000_RDTR, 0);               /* no receive interrupt delay */
    wr(n, E1000_RADV, 0);
    /* No throttling (0 turns it off, datasheet 10.2.4.2).  QEMU 7.2's
       model keeps at least 500 x 256 ns = 128 us between interrupts of a
       vector whatever we write (E1000E_MIN_XITR; later QEMUs honour 0),
       which costs node-to-node latency (its trace events show the
       postponed interrupts): docs/PERFORMANCE.md. */
    wr(n, E1000_ITR, 0);
    wr(n, E1000_EITR(0), 0);
    if (n->nd.mtu > DEFAULT_MTU)
        rctl |= E1000_RCTL_LPE | E1000_RCTL_BSIZE_16384;
    wr(n, E1000_RCTL, rctl);
    wr(n, E1000_TDH, 0);
    wr(n, E1000_TDT, 0);
    wr(n, E1000_TIPG, E1000_TIPG_DEFAULT);
    wr(n, E1000_TCTL, E1000_TCTL_EN | E1000_TCTL_PSP | E1000_TCTL_CT(0x0F) |
                      E1000_TCTL_COLD(0x3F));
    /* Every cause to MSI-X entry 0; nothing auto-cleared or auto-masked. */
    wr(n, E1000_IVAR, E1000_IVAR_RXQ0(0) | E1000_IVAR_TXQ0(0) |
                      E1000_IVAR_OTHER(0));
    wr(n, E1000_EIAC, 0);
    wr(n, E1000_IAM, 0);
    trap_set_handler(n->vector, e1k_irq);
    if (pci_msix_enable(n->pci, 0, n->vector, apic_id()) < 0)
        return "MSI-X could not be enabled";
    wr(n, E1000_CTRL, rd(n, E1000_CTRL) | E1000_CTRL_SLU);
    wr(n, E1000_IMS, IRQ_CAUSES);
    return NULL;
}

static void probe_one(struct pci_dev *d)
{
    struct e1k *n = &nics[nnics];
    const char *why;
    const uint8_t *m;
    char pn[8];

    pci_name(d, pn);
    if (nnics == MAX_NICS) {
        pr_warn("e1000e %s ignored: at most %d NICs\n", pn, MAX_NICS);
        return;
    }
    memset(n, 0, sizeof(*n));
    n->pci = d;
    n->mmio = pci_bar_map(d, 0, 0, E1000_MMIO_SIZE);
    if (!n->mmio || !d->msix_cap) {
        pr_err("e1000e %s: no 128 KiB memory BAR 0 or no MSI-X; NIC not "
               "used\n", pn);
        return;
    }
    pci_enable(d);
    n->vector = VEC_E1000E0 + nnics;
    ksnprintf(n->name, sizeof(n->name), "net%d", netdev_count());
    n->nd = (struct netdev){ .name = n->name, .ops = &e1k_ops, .priv = n };
    if ((why = setup(n, pn))) {
        reset(n);
        pr_err("e1000e %s: %s; NIC not used\n", pn, why);
        return;
    }
    nnics++;
    n->nd.link_up = link_up(n);
    m = n->nd.mac;
    pr_info("e1000e %s mac %02x:%02x:%02x:%02x:%02x:%02x mtu %u msix vector "
            "%u%s (%s)\n", pn, m[0], m[1], m[2], m[3], m[4], m[5], n->nd.mtu,
            n->vector, n->nd.link_up ? "" : " link down", n->name);
    netdev_register(&n->nd);
}

void e1000e_probe(void)
{
    for (int i = 0; pci_nth(i); i++) {
        struct pci_dev *d = pci_nth(i);
        if (d->vendor == E1000E_VENDOR && d->device == E1000E_DEV_82574L)
            probe_one(d);
    }
}
