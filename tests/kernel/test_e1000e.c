/*
 * In-kernel tests of the e1000e (82574L) driver that the generic net
 * tests (test_net.c, which also run on two e1000e NICs) cannot make: the
 * device found as PCI sees it, a full transmit ring (QEMU's model sends
 * at the tail write, so the ring fills only while the transmitter is
 * paused), and the link going down and up (tests/qemu/suite-net unplugs
 * NIC B through QEMU's monitor when the test asks for it on the console).
 * Manual tests: test=e1000e; two e1000e NICs on one QEMU hub.
 */
#include "kernel.h"
#include "console.h"
#include "e1000e.h"
#include "ktest.h"
#include "lib.h"
#include "netdev.h"
#include "pci.h"
#include "timer.h"
#include "x86.h"

#define ETH_HLEN        14
#define ETHERTYPE_TEST  0x88B5
#define FRAME           1000

static const uint8_t mac_a[6] = { 0x02, 0x50, 0, 0, 0, 0x01 };
static const uint8_t mac_b[6] = { 0x02, 0x50, 0, 0, 0, 0x02 };

static struct netdev *A, *B;
static uint8_t frame[FRAME], last[FRAME];
static uint64_t got;
static size_t last_len;

static void capture(void *ctx, const void *f, size_t len)
{
    (void)ctx;
    got++;
    last_len = MIN(len, sizeof(last));
    memcpy(last, f, last_len);
}

/* The i-th 82574L in PCI order (the driver probes in that order). */
static struct pci_dev *e1k_pci(int i)
{
    for (int k = 0; pci_nth(k); k++) {
        struct pci_dev *d = pci_nth(k);
        if (d->vendor == E1000E_VENDOR && d->device == E1000E_DEV_82574L &&
            i-- == 0)
            return d;
    }
    return NULL;
}

static bool begin(void)
{
    irq_disable();
    A = netdev_nth(0);
    B = netdev_nth(1);
    if (!A || !B || !e1k_pci(1)) {
        ktest_fail(__FILE__, __LINE__, "needs two e1000e NICs on one hub "
                   "(run tests/qemu/suite-net)");
        return false;
    }
    got = 0;
    netdev_set_rx(A, capture, NULL);
    netdev_set_rx(B, capture, NULL);
    memcpy(frame, mac_b, 6);
    memcpy(frame + 6, mac_a, 6);
    frame[12] = ETHERTYPE_TEST >> 8;
    frame[13] = ETHERTYPE_TEST & 0xFF;
    for (int i = ETH_HLEN; i < FRAME; i++)
        frame[i] = (uint8_t)(i * 13 + 5);
    return true;
}

/* A frame as a 64-byte header and four segments in the kernel image: five
   descriptors. */
static int send5(void)
{
    struct netdev_seg seg[4];
    size_t piece = (FRAME - 64) / 4;

    for (int k = 0; k < 4; k++)
        seg[k] = (struct netdev_seg){ frame + 64 + k * piece, piece };
    return netdev_tx(A, frame, 64, seg, 4);
}

static bool poll_for(uint64_t n, uint64_t ms)
{
    uint64_t end = clock_ns() + ms * 1000000ULL;

    while (got < n && clock_ns() < end) {
        netdev_poll(A);
        netdev_poll(B);
    }
    return got >= n;
}

KTEST_MANUAL(e1000e, pci_finds_both_nics)
{
    for (int i = 0; i < 2; i++) {
        struct pci_dev *d = e1k_pci(i);
        KEXPECT(d != NULL);
        if (!d)
            continue;
        KEXPECT_EQ(d->class, 0x02);         /* network controller */
        KEXPECT(d->msix_cap && d->msix_size >= 5);  /* 82574L: 5 vectors */
        KEXPECT(d->bar[0].base && !d->bar[0].io);
        KEXPECT(d->bar[0].size >= E1000_MMIO_SIZE);
        KEXPECT(pci_read16(d, PCI_COMMAND) & PCI_CMD_MASTER);
        KEXPECT(pci_find_cap(d, 0x05, 0));  /* MSI too, as the datasheet says */
    }
    KEXPECT(e1k_pci(2) == NULL);
}

KTEST_MANUAL(e1000e, ring_full_with_transmitter_paused)
{
    volatile uint32_t *tctl, *tdt;
    uint64_t full0, sent = 0;
    int rc;

    if (!begin())
        return;
    tctl = pci_bar_map(e1k_pci(0), 0, E1000_TCTL, 4);
    tdt = pci_bar_map(e1k_pci(0), 0, E1000_TDT, 4);
    full0 = A->st.tx_full;
    KEXPECT(netdev_tx_idle(A));
    *tctl &= ~E1000_TCTL_EN;
    while ((rc = send5()) == 0 && sent < 1000)
        sent++;
    KEXPECT_EQ(rc, -EAGAIN);
    KEXPECT_EQ(sent, 255 / 5);              /* 256 descriptors, one kept */
    KEXPECT_EQ(A->st.tx_full, full0 + 1);
    KEXPECT(!netdev_tx_idle(A));
    KEXPECT(!poll_for(1, 100));             /* nothing left the paused NIC */
    *tctl |= E1000_TCTL_EN;
    *tdt = *tdt;                            /* the controller looks again */
    KEXPECT(poll_for(sent, 2000));
    KEXPECT_EQ(got, sent);
    KEXPECT(netdev_tx_idle(A));
    KEXPECT_EQ(send5(), 0);
    KEXPECT(poll_for(sent + 1, 2000));
    KEXPECT_EQ(last_len, FRAME);
    KEXPECT(!memcmp(last, frame, FRAME));
    irq_enable();
}

static void wake(void)
{
}

/* Sleep with interrupts on until B's link is `up` (only B's interrupt can
   tell: nothing polls), or `secs` pass. */
static bool halt_until_link(bool up, int secs)
{
    uint64_t end = clock_ns() + secs * 1000000000ULL;

    while (B->link_up != up && clock_ns() < end) {
        timer_oneshot(10000000, wake);
        irq_enable_and_halt();
        irq_disable();
    }
    timer_oneshot(0, NULL);
    return B->link_up == up;
}

KTEST_MANUAL(e1000e, link_down_and_up)
{
    uint64_t ch0;

    if (!begin())
        return;
    ch0 = B->st.link_changes;
    KEXPECT(B->link_up);
    kprintf("e1000e-test: unplug net1\n");  /* suite-net: set_link off */
    KEXPECT(halt_until_link(false, 30));
    KEXPECT_EQ(B->st.link_changes, ch0 + 1);
    KEXPECT_EQ(send5(), 0);                 /* B is unplugged: not taken */
    KEXPECT(!poll_for(1, 300));
    kprintf("e1000e-test: plug net1\n");    /* suite-net: set_link on */
    KEXPECT(halt_until_link(true, 30));
    KEXPECT_EQ(B->st.link_changes, ch0 + 2);
    got = 0;
    KEXPECT_EQ(send5(), 0);
    KEXPECT(poll_for(1, 2000));
    KEXPECT_EQ(last_len, FRAME);
    KEXPECT(!memcmp(last, frame, FRAME));
    irq_enable();
}
