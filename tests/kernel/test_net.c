/*
 * In-kernel tests of PCI, virtio-net and the netdev layer.  They need two
 * virtio-net NICs on one QEMU hub, so that what NIC A sends NIC B
 * receives: tests/qemu/suite-net boots that machine.  Manual tests (test=
 * net, test=netloss, test=netbench select them); test=all leaves them out.
 *
 * The kernel runs with interrupts off; the tests do too (the KTEST runner
 * turns them on), except where a test waits for an interrupt.
 */
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "ktest.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "netdev.h"
#include "paging.h"
#include "pci.h"
#include "timer.h"
#include "x86.h"

#define ETH_HLEN        14
#define ETHERTYPE_TEST  0x88B5      /* IEEE local experimental */
#define MAX_FRAME       (ETH_HLEN + 9216)
#define LOSS_FRAMES     2000

static const uint8_t mac_a[6] = { 0x02, 0x50, 0, 0, 0, 0x01 };
static const uint8_t mac_b[6] = { 0x02, 0x50, 0, 0, 0, 0x02 };

static struct netdev *A, *B;
static uint8_t frame[MAX_FRAME];        /* the frame as it should arrive */
static uint8_t img[MAX_FRAME + 64];     /* segments in the kernel image */
static uint8_t *pm;                     /* segments in PHYSMAP memory */
static uint64_t pm_phys;

/* What B (or A) received. */
static struct rxcap {
    uint8_t last[MAX_FRAME];
    size_t last_len;
    uint64_t n;
    uint8_t seen[LOSS_FRAMES / 8 + 1];  /* by sequence number */
    bool bad;                           /* a frame not from this test */
} cap;

static void capture(void *ctx, const void *f, size_t len)
{
    struct rxcap *c = ctx;
    const uint8_t *p = f;

    c->n++;
    c->last_len = MIN(len, sizeof(c->last));
    memcpy(c->last, f, c->last_len);
    if (len < ETH_HLEN || p[12] != ETHERTYPE_TEST >> 8 ||
        p[13] != (ETHERTYPE_TEST & 0xFF)) {
        c->bad = true;
        return;
    }
    if (len < ETH_HLEN + 3)
        return;                         /* too short for a sequence number */
    uint32_t seq = p[14] | p[15] << 8 | (uint32_t)p[16] << 16;
    if (seq < LOSS_FRAMES)
        c->seen[seq / 8] |= 1 << (seq % 8);
}

static uint64_t mtu_expected(void)
{
    uint64_t m;

    cmdline_get_u64(&kernel_cmdline, "nettest.mtu", 1500, &m);
    return m;
}

/* A real Ethernet NIC pads frames to the 60-byte minimum (the 82574L
   does: nettest.minframe=60); virtio-net delivers them as sent. */
static size_t min_frame(void)
{
    uint64_t m;

    cmdline_get_u64(&kernel_cmdline, "nettest.minframe", 0, &m);
    return m;
}

/* Two NICs, interrupts off, handlers set, segment memory ready. */
static bool begin(void)
{
    irq_disable();
    A = netdev_nth(0);
    B = netdev_nth(1);
    if (!A || !B) {
        ktest_fail(__FILE__, __LINE__, "needs two NICs on one hub (run "
                   "tests/qemu/suite-net)");
        return false;
    }
    netdev_set_rx(A, capture, &cap);
    netdev_set_rx(B, capture, &cap);
    /* What was sent before the test (the kernel's Portals announces its
       MAC on NIC A at boot, kernel/portals.c; a kick may wait for a
       poll) reaches B now, not inside a test's count: netloss counted
       2001 of 2000 frames in about 1 run of 6. */
    for (uint64_t end = clock_ns() + 20000000ULL; clock_ns() < end;) {
        netdev_poll(A);
        netdev_poll(B);
    }
    memset(&cap, 0, sizeof(cap));
    if (!pm && region_alloc(&phys_pool, MAX_FRAME + 64, &pm_phys) == 0)
        pm = phys_to_virt(pm_phys);
    return pm != NULL;
}

static void end(void)
{
    irq_enable();
}

/* Frame `seq` of `len` bytes from `src` to `dst` into frame[]. */
static void make_frame(size_t len, uint32_t seq, const uint8_t *dst,
                       const uint8_t *src)
{
    memcpy(frame, dst, 6);
    memcpy(frame + 6, src, 6);
    frame[12] = ETHERTYPE_TEST >> 8;
    frame[13] = ETHERTYPE_TEST & 0xFF;
    for (size_t i = ETH_HLEN; i < len; i++)
        frame[i] = (uint8_t)(seq * 131 + i * 7 + (i >> 8));
    frame[14] = seq;
    frame[15] = seq >> 8;
    frame[16] = seq >> 16;
}

/* Send frame[0..len) as hlen copied bytes and nseg segments, which come
   alternately from the kernel image and PHYSMAP, at odd addresses. */
static int send_split(struct netdev *nd, size_t len, size_t hlen, int nseg)
{
    struct netdev_seg seg[NETDEV_SEG_MAX + 1];
    size_t off = hlen;

    for (int k = 0; k < nseg; k++) {
        size_t piece = k == nseg - 1 ? len - off : (len - hlen) / nseg;
        uint8_t *dst = (k & 1) ? pm + 3 + off : img + 1 + off;
        memcpy(dst, frame + off, piece);
        seg[k] = (struct netdev_seg){ dst, piece };
        off += piece;
    }
    return netdev_tx(nd, frame, hlen, seg, nseg);
}

/* Poll both NICs until cap.n reaches n (or ~2 s pass). */
static bool poll_for(uint64_t n)
{
    uint64_t end = clock_ns() + 2000000000ULL;

    while (cap.n < n && clock_ns() < end) {
        netdev_poll(A);
        netdev_poll(B);
    }
    return cap.n >= n;
}

static void wake(void)
{
}

/* Sleep with interrupts on until cap.n reaches n; nothing polls. */
static bool halt_for(uint64_t n)
{
    uint64_t end = clock_ns() + 2000000000ULL;

    while (cap.n < n && clock_ns() < end) {
        timer_oneshot(10000000, wake);      /* hlt never outlives 10 ms */
        irq_enable_and_halt();
        irq_disable();
    }
    timer_oneshot(0, NULL);
    return cap.n >= n;
}

KTEST_MANUAL(net, pci_finds_both_nics)
{
    int found = 0;

    for (int i = 0; pci_nth(i); i++) {
        struct pci_dev *d = pci_nth(i);
        if (d->vendor != 0x1AF4 || d->device != 0x1000)
            continue;
        found++;
        KEXPECT(d->msix_cap && d->msix_size >= 2);
        KEXPECT(d->class == 0x02);          /* network controller */
        KEXPECT(d->bar[4].base && !d->bar[4].io && d->bar[4].is64);
        KEXPECT(d->bar[4].size >= PAGE_4K && IS_ALIGNED(d->bar[4].base,
                                                        d->bar[4].size));
        KEXPECT(d->bar[0].io);              /* the legacy interface */
        KEXPECT(pci_read16(d, PCI_COMMAND) & PCI_CMD_MASTER);
        KEXPECT(pci_find_cap(d, PCI_CAP_VENDOR, 0));
    }
    KEXPECT_EQ(found, 2);
}

KTEST_MANUAL(net, config_mac_mtu)
{
    if (!begin())
        return;
    KEXPECT(!memcmp(A->mac, mac_a, 6));
    KEXPECT(!memcmp(B->mac, mac_b, 6));
    KEXPECT_EQ(A->mtu, mtu_expected());
    KEXPECT_EQ(B->mtu, mtu_expected());
    KEXPECT(netdev_get() == A);
    KEXPECT(netdev_nth(2) == NULL);
    uint32_t ppm;
    KEXPECT_EQ(cmdline_get_ppm(&kernel_cmdline, "net.loss", 0, &ppm), 0);
    KEXPECT_EQ(A->loss_ppm, ppm);           /* net.loss= reached each NIC */
    KEXPECT_EQ(B->loss_ppm, ppm);
    end();
}

/* One frame A -> B, polled, compared byte for byte. */
static void check_one(size_t len, size_t hlen, int nseg, uint32_t seq)
{
    uint64_t n0 = cap.n;

    make_frame(len, seq, mac_b, mac_a);
    KEXPECT_EQ(send_split(A, len, hlen, nseg), 0);
    KEXPECT(poll_for(n0 + 1));
    KEXPECT_EQ(cap.last_len, MAX(len, min_frame()));
    if (cap.last_len == MAX(len, min_frame()) && memcmp(cap.last, frame, len))
        ktest_fail(__FILE__, __LINE__, "frame of %lu bytes (hdr %lu, %d "
                   "segments) arrived corrupted", len, hlen, nseg);
}

KTEST_MANUAL(net, every_size_and_split_polled)
{
    static const size_t sizes[] = { 14, 60, 61, 64, 127, 128, 129, 513,
                                    1001, 1513, 0 };
    static const struct { size_t hlen; int nseg; } splits[] = {
        { 0, 0 }, { 14, 1 }, { 33, 2 }, { 60, 3 }, { NETDEV_HDR_MAX, 4 },
    };
    uint32_t seq = 0;
    uint64_t tx0, rx0;

    if (!begin())
        return;
    tx0 = A->st.tx_frames;
    rx0 = B->st.rx_frames;
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        size_t len = sizes[i] ? sizes[i] : ETH_HLEN + A->mtu;
        if (len > ETH_HLEN + A->mtu)
            continue;
        for (size_t s = 0; s < ARRAY_SIZE(splits); s++) {
            size_t hlen = splits[s].nseg ? splits[s].hlen : len;
            if (hlen > NETDEV_HDR_MAX || hlen > len ||
                len - hlen < (size_t)splits[s].nseg)
                continue;
            check_one(len, hlen, splits[s].nseg, seq++);
        }
    }
    KEXPECT(seq >= 30);
    KEXPECT_EQ(A->st.tx_frames - tx0, seq);
    KEXPECT_EQ(B->st.rx_frames - rx0, seq);
    KEXPECT(!cap.bad);
    end();
}

KTEST_MANUAL(net, b_to_a)
{
    if (!begin())
        return;
    make_frame(200, 7, mac_a, mac_b);
    KEXPECT_EQ(send_split(B, 200, 20, 2), 0);
    KEXPECT(poll_for(1));
    KEXPECT_EQ(cap.last_len, 200);
    KEXPECT(!memcmp(cap.last, frame, 200));
    KEXPECT_EQ(A->st.rx_frames >= 1, 1);
    end();
}

KTEST_MANUAL(net, malformed_tx_is_einval)
{
    struct netdev_seg seg[NETDEV_SEG_MAX + 1];
    uint64_t tx0;

    if (!begin())
        return;
    tx0 = A->st.tx_frames;
    make_frame(ETH_HLEN + A->mtu + 1, 0, mac_b, mac_a);
    for (int k = 0; k <= NETDEV_SEG_MAX; k++)
        seg[k] = (struct netdev_seg){ img, 10 };
    KEXPECT_EQ(netdev_tx(A, frame, NETDEV_HDR_MAX + 1, NULL, 0), -EINVAL);
    KEXPECT_EQ(netdev_tx(A, frame, 20, seg, NETDEV_SEG_MAX + 1), -EINVAL);
    KEXPECT_EQ(netdev_tx(A, frame, 20, seg, -1), -EINVAL);
    KEXPECT_EQ(send_split(A, ETH_HLEN + A->mtu + 1, 64, 2), -EINVAL);
    KEXPECT_EQ(netdev_tx(A, frame, 10, NULL, 0), -EINVAL);   /* < Ethernet */
    seg[0] = (struct netdev_seg){ (const void *)0x400000, 100 };  /* user */
    KEXPECT_EQ(netdev_tx(A, frame, 14, seg, 1), -EINVAL);
    seg[0] = (struct netdev_seg){ phys_to_virt(GiB(3)), 100 };   /* MMIO */
    KEXPECT_EQ(netdev_tx(A, frame, 14, seg, 1), -EINVAL);
    KEXPECT_EQ(A->st.tx_frames, tx0);
    /* Exactly at the limits is fine. */
    KEXPECT_EQ(send_split(A, ETH_HLEN + A->mtu, NETDEV_HDR_MAX,
                          NETDEV_SEG_MAX), 0);
    KEXPECT(poll_for(1));
    KEXPECT_EQ(cap.last_len, ETH_HLEN + A->mtu);
    end();
}

KTEST_MANUAL(net, ring_full_then_recovers)
{
    uint64_t full0, sent = 0;
    int rc = 0;

    if (!begin())
        return;
    full0 = A->st.tx_full;
    make_frame(1000, 1, mac_b, mac_a);
    /* Nobody polls B, so its receive ring fills, QEMU holds A's frames,
       and A's transmit ring runs out of descriptors.  A full ring may also
       just mean QEMU has not caught up yet: send again after a pause
       until the ring stays full. */
    for (int tries = 0; tries < 1000 && rc != -EAGAIN; tries++) {
        for (int i = 0; i < 100000 && (rc = send_split(A, 1000, 64, 4)) == 0; i++)
            sent++;
        udelay(20000);
        if (rc == -EAGAIN && (rc = send_split(A, 1000, 64, 4)) == 0)
            sent++;
    }
    KEXPECT_EQ(rc, -EAGAIN);
    KEXPECT(A->st.tx_full > full0);
    KEXPECT(!netdev_tx_idle(A));
    KEXPECT(sent >= 256 / 5);               /* at least a ring's worth */
    KEXPECT(poll_for(sent));                /* B drains; A reclaims */
    KEXPECT_EQ(cap.n, sent);
    KEXPECT_EQ(send_split(A, 1000, 64, 4), 0);
    KEXPECT(poll_for(sent + 1));
    KEXPECT(!memcmp(cap.last, frame, 1000));
    end();
}

KTEST_MANUAL(net, interrupt_driven_receive)
{
    uint64_t irqs0, n0;

    if (!begin())
        return;
    irqs0 = B->st.irqs;
    for (uint32_t i = 0; i < 20; i++) {
        n0 = cap.n;
        make_frame(60 + i * 37, i, mac_b, mac_a);
        KEXPECT_EQ(send_split(A, 60 + i * 37, 30, 2), 0);
        KEXPECT(halt_for(n0 + 1));          /* only the interrupt delivers */
        KEXPECT_EQ(cap.last_len, 60 + i * 37);
        KEXPECT(!memcmp(cap.last, frame, cap.last_len));
    }
    KEXPECT(B->st.irqs > irqs0);
    end();
}

KTEST_MANUAL(net, tx_idle_after_reclaim)
{
    uint64_t end_ns;

    if (!begin())
        return;
    KEXPECT(poll_for(0) && netdev_tx_idle(A));
    make_frame(1500, 3, mac_b, mac_a);
    for (int i = 0; i < 8; i++)
        KEXPECT_EQ(send_split(A, 1500, 40, 3), 0);
    end_ns = clock_ns() + 2000000000ULL;
    while (!netdev_tx_idle(A) && clock_ns() < end_ns)
        netdev_poll(B);                     /* B must take them */
    KEXPECT(netdev_tx_idle(A));
    KEXPECT(poll_for(8));
    end();
}

KTEST(paging, map_mmio_above_4g)
{
    uint64_t pa = GiB(64) + MiB(3);

    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, PHYSMAP_BASE + pa), (uint64_t)-1);
    KEXPECT_EQ(paging_map_mmio(pa, MiB(2)), 0);
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, PHYSMAP_BASE + pa), pa);
    KEXPECT_EQ(paging_virt_to_phys(kernel_cr3, PHYSMAP_BASE + pa + MiB(2) - 1),
               pa + MiB(2) - 1);
    KEXPECT_EQ(paging_map_mmio(PAGING_PHYS_LIMIT, MiB(2)), -EINVAL);
    KEXPECT_EQ(paging_map_mmio(pa, 0), -EINVAL);
}

KTEST(pci, host_bridge_found)
{
    struct pci_dev *d = pci_nth(0);

    KEXPECT(d != NULL);
    if (d) {
        KEXPECT_EQ(d->bus, 0);
        KEXPECT_EQ(d->class, 0x06);         /* bridge */
        KEXPECT(d->vendor != 0xFFFF);
        KEXPECT_EQ(pci_read16(d, PCI_VENDOR_ID), d->vendor);
    }
}

/* With net.loss=5: 2000 frames, about 5% dropped, and exactly the ones the
   counter says.  The same seed drops the same frames. */
static uint64_t rx_seen(const struct netdev *nd)
{
    return nd->st.rx_frames + nd->st.rx_dropped;
}

/* Poll until B has seen (delivered or dropped) `want` frames, or ~2 s. */
static bool poll_seen(uint64_t want)
{
    uint64_t end = clock_ns() + 2000000000ULL;

    while (rx_seen(B) < want && clock_ns() < end) {
        netdev_poll(A);
        netdev_poll(B);
    }
    return rx_seen(B) >= want;
}

static void loss_run(uint8_t seen[LOSS_FRAMES / 8 + 1], uint64_t *dropped)
{
    uint64_t d0 = B->st.rx_dropped, r0 = B->st.rx_frames, s0 = rx_seen(B);

    /* The sequence number is in the copied header; the one payload
       segment is rewritten while earlier frames may still be in flight,
       which is fine here since only sequence numbers are checked. */
    memset(&cap, 0, sizeof(cap));
    for (uint32_t seq = 0; seq < LOSS_FRAMES; seq++) {
        make_frame(100, seq, mac_b, mac_a);
        while (send_split(A, 100, 40, 1) == -EAGAIN)
            netdev_poll(B);
        if (seq % 32 == 31)                 /* let B keep up: no overruns */
            poll_seen(s0 + seq + 1);
    }
    KEXPECT(poll_seen(s0 + LOSS_FRAMES));
    KEXPECT_EQ(rx_seen(B) - s0, LOSS_FRAMES);
    KEXPECT_EQ(cap.n, B->st.rx_frames - r0);
    KEXPECT(!cap.bad);
    memcpy(seen, cap.seen, LOSS_FRAMES / 8 + 1);
    *dropped = B->st.rx_dropped - d0;
}

KTEST_MANUAL(netloss, five_percent_from_cmdline)
{
    static uint8_t seen1[LOSS_FRAMES / 8 + 1], seen2[LOSS_FRAMES / 8 + 1];
    uint64_t drop1, drop2, missing = 0;
    uint64_t seed = 12345;

    if (!begin())
        return;
    KEXPECT_EQ(B->loss_ppm, 50000);         /* net.loss=5 */
    KEXPECT_EQ(A->loss_ppm, 50000);
    netdev_set_loss(B, 50000, seed);
    loss_run(seen1, &drop1);
    for (int s = 0; s < LOSS_FRAMES; s++)
        missing += !(seen1[s / 8] & (1 << (s % 8)));
    KEXPECT_EQ(missing, drop1);
    /* 5% of 2000 = 100, sd ~ 9.7: 60..140 is over 4 sd either side. */
    KEXPECT(drop1 >= 60 && drop1 <= 140);
    netdev_set_loss(B, 50000, seed);
    loss_run(seen2, &drop2);
    KEXPECT_EQ(drop2, drop1);
    KEXPECT(!memcmp(seen1, seen2, sizeof(seen1)));
    kprintf("netloss: %lu of %d frames dropped at 5%%\n", drop1, LOSS_FRAMES);
    netdev_set_loss(B, 0, 0);
    loss_run(seen2, &drop2);
    KEXPECT_EQ(drop2, 0);
    end();
}

/* Throughput NIC A -> NIC B, polled: `count` frames of `len` bytes. */
static void bench(size_t len, uint64_t count)
{
    uint64_t t0, ns, sent = 0;

    cap.n = 0;
    make_frame(len, 0, mac_b, mac_a);
    send_split(A, len, MIN(len, 64), len > 64 ? 1 : 0);     /* warm up */
    poll_for(1);
    cap.n = 0;
    t0 = clock_ns();
    while (sent < count) {
        int rc = send_split(A, len, MIN(len, 64), len > 64 ? 1 : 0);
        if (rc == 0)
            sent++;
        else
            netdev_poll(A);
        if (sent % 16 == 0 || rc)
            netdev_poll(B);
    }
    poll_for(count);
    ns = clock_ns() - t0;
    KEXPECT_EQ(cap.n, count);
    kprintf("BENCH net len=%lu frames=%lu ns=%lu fps=%lu MBps=%lu.%02lu\n",
            len, count, ns, count * (uint64_t)1000000000 / ns,
            count * len * 1000 / ns, count * len * 100000 / ns % 100);
}

static void count_only(void *ctx, const void *f, size_t len)
{
    (void)f, (void)len;
    ((struct rxcap *)ctx)->n++;
}

KTEST_MANUAL(netbench, a_to_b)
{
    if (!begin())
        return;
    netdev_set_rx(B, count_only, &cap);
    bench(64, 20000);
    bench(1514, 20000);
    if (A->mtu > 1500 && B->mtu == A->mtu)
        bench(ETH_HLEN + A->mtu, 10000);    /* jumbo frames */
    end();
}

/* test=all runs on a machine without NICs: the node must have none, and
   the netdev layer must say so rather than invent one. */
KTEST(nonic, netdev_absent)
{
    bool nic = false;

    for (int i = 0; pci_nth(i); i++)
        nic |= pci_nth(i)->vendor == 0x1AF4 && pci_nth(i)->class == 0x02;
    KEXPECT(!nic);
    KEXPECT(netdev_get() == NULL);
    KEXPECT(netdev_nth(0) == NULL);
}
