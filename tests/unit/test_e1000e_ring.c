/*
 * Host tests of the 82574L descriptor rings (kernel/e1000e_ring.c) against
 * a model controller that follows the datasheet's legacy queue rules: it
 * owns transmit descriptors from TDH up to TDT, gathers buffers into a
 * frame up to EOP, and writes DD back only where RS asks; it fills
 * receive descriptors from RDH and never the one at RDT, one buffer per
 * descriptor, a longer frame spread over several with EOP on the last.
 * Buffer "physical" addresses are host pointers, so the model reads and
 * writes real memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "errno.h"
#include "e1000e.h"

#define TSZ     16
#define RSZ     16
#define BUF     256

static struct e1000e_txring tx;
static struct e1000e_rxring rx;
static struct e1000_tx_desc tdesc[E1000E_RING_MAX] __attribute__((aligned(128)));
static struct e1000_rx_desc rdesc[E1000E_RING_MAX] __attribute__((aligned(128)));
static uint8_t rbuf[RSZ * BUF];
static uint8_t data[4096];

/* The model controller. */
static struct {
    unsigned tdh, rdh;
    uint8_t frame[8192];            /* the transmit frame being gathered */
    size_t flen;
    uint8_t sent[64][2048];         /* frames it put on the wire */
    size_t sent_len[64];
    int nsent;
    int bad_cmd;                    /* descriptors with DEXT or no IFCS */
} dev;

static int setup(void **s)
{
    (void)s;
    memset(&dev, 0, sizeof(dev));
    memset(tdesc, 0xA5, sizeof(tdesc));     /* init must not rely on zeros */
    memset(rdesc, 0, sizeof(rdesc));
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)(i * 7 + 3);
    assert_int_equal(e1000e_tx_init(&tx, tdesc, TSZ), 0);
    return e1000e_rx_init(&rx, rdesc, RSZ, (uintptr_t)rbuf, BUF);
}

/* The controller processes up to `max` transmit descriptors below TDT. */
static void dev_tx(unsigned tdt, int max)
{
    while (dev.tdh != tdt && max-- > 0) {
        struct e1000_tx_desc *d = &tdesc[dev.tdh];
        if ((d->cmd & E1000_TXD_CMD_DEXT) || !(d->cmd & E1000_TXD_CMD_IFCS))
            dev.bad_cmd++;
        memcpy(dev.frame + dev.flen, (void *)(uintptr_t)d->addr, d->length);
        dev.flen += d->length;
        if (d->cmd & E1000_TXD_CMD_EOP) {
            memcpy(dev.sent[dev.nsent % 64], dev.frame, dev.flen);
            dev.sent_len[dev.nsent++ % 64] = dev.flen;
            dev.flen = 0;
        }
        if (d->cmd & E1000_TXD_CMD_RS)
            d->status |= E1000_TXD_STA_DD;
        dev.tdh = (dev.tdh + 1) % TSZ;
    }
}

/* The controller receives a frame of len bytes (byte i = seed + i) with
   `errors`; false if it had no descriptor (RDH reached RDT).  Write only
   the first `only` descriptors (0: all). */
static bool dev_rx(size_t len, uint8_t seed, uint8_t errors, int only)
{
    size_t off = 0;
    int k = 0;

    do {
        struct e1000_rx_desc *d = &rdesc[dev.rdh];
        size_t piece = len - off < BUF ? len - off : BUF;
        if (dev.rdh == rx.tail)
            return false;
        if (only && k++ == only)
            return true;
        for (size_t i = 0; i < piece; i++)
            ((uint8_t *)(uintptr_t)d->addr)[i] = (uint8_t)(seed + off + i);
        d->length = piece;
        d->errors = errors;
        off += piece;
        d->status = E1000_RXD_STA_DD | (off == len ? E1000_RXD_STA_EOP : 0);
        dev.rdh = (dev.rdh + 1) % RSZ;
    } while (off < len);
    return true;
}

static void bad_sizes_rejected(void **s)
{
    struct e1000e_txring t;
    struct e1000e_rxring r;
    (void)s;
    assert_int_equal(e1000e_tx_init(&t, tdesc, 0), -EINVAL);
    assert_int_equal(e1000e_tx_init(&t, tdesc, 12), -EINVAL);  /* not 8k */
    assert_int_equal(e1000e_tx_init(&t, tdesc, 264), -EINVAL);
    assert_int_equal(e1000e_tx_init(&t, (char *)tdesc + 8, 16), -EINVAL);
    assert_int_equal(e1000e_tx_init(&t, tdesc, 256), 0);
    assert_int_equal(t.nfree, 255);         /* one kept: TDH == TDT is empty */
    assert_int_equal(e1000e_rx_init(&r, rdesc, 4, 0, BUF), -EINVAL);
    assert_int_equal(e1000e_rx_init(&r, rdesc, 16, 0, 0), -EINVAL);
    assert_int_equal(e1000e_rx_init(&r, rdesc, 8, 0x1000, BUF), 0);
    assert_int_equal(r.tail, 7);
    assert_int_equal(rdesc[3].addr, 0x1000 + 3 * BUF);
}

static struct e1000e_txbuf tb(size_t off, size_t len)
{
    return (struct e1000e_txbuf){ (uintptr_t)(data + off), len };
}

static void tx_frames_as_the_controller_sees_them(void **s)
{
    struct e1000e_txbuf b[5] = { tb(0, 14), tb(100, 50), tb(1000, 1),
                                 tb(2000, 300), tb(3000, 7) };
    (void)s;
    for (int n = 1; n <= 5; n++) {
        int first = e1000e_tx_add(&tx, b, n);
        assert_true(first >= 0);
        for (int k = 0; k < n; k++) {
            uint8_t cmd = tdesc[(first + k) % TSZ].cmd;
            bool last = k == n - 1;
            assert_int_equal(!!(cmd & E1000_TXD_CMD_EOP), last);
            assert_int_equal(!!(cmd & E1000_TXD_CMD_RS), last);
            assert_int_equal(tdesc[(first + k) % TSZ].status, 0);
        }
    }
    assert_int_equal(e1000e_tx_reclaim(&tx), 0);    /* nothing sent yet */
    assert_false(e1000e_tx_idle(&tx));
    dev_tx(tx.tail, 1000);
    assert_int_equal(dev.nsent, 5);
    assert_int_equal(dev.bad_cmd, 0);
    for (int n = 1; n <= 5; n++) {
        size_t off = 0;
        for (int k = 0; k < n; k++) {
            assert_memory_equal(dev.sent[n - 1] + off,
                                (void *)(uintptr_t)b[k].addr, b[k].len);
            off += b[k].len;
        }
        assert_int_equal(dev.sent_len[n - 1], off);
    }
    assert_int_equal(e1000e_tx_reclaim(&tx), 5);
    assert_true(e1000e_tx_idle(&tx));
    assert_int_equal(tx.nfree, TSZ - 1);
}

static void tx_bad_input_einval(void **s)
{
    struct e1000e_txbuf b[9];
    (void)s;
    for (int k = 0; k < 9; k++)
        b[k] = tb(k, 10);
    assert_int_equal(e1000e_tx_add(&tx, b, 0), -EINVAL);
    assert_int_equal(e1000e_tx_add(&tx, b, 9), -EINVAL);
    b[2].len = 0;
    assert_int_equal(e1000e_tx_add(&tx, b, 3), -EINVAL);
    assert_int_equal(tx.nfree, TSZ - 1);
    assert_true(e1000e_tx_idle(&tx));
}

/* Frames of 1..5 buffers, a paused controller that takes part of a frame
   at a time: only whole frames come back, the ring is full at exactly
   TSZ-1 descriptors, and the free count never drifts over many wraps. */
static void tx_full_ring_and_partial_progress(void **s)
{
    struct e1000e_txbuf b[5] = { tb(0, 20), tb(40, 30), tb(80, 40),
                                 tb(200, 50), tb(400, 60) };
    int inflight = 0, sent = 0, reclaimed = 0, n;
    unsigned seed = 1;
    (void)s;
    while (e1000e_tx_add(&tx, b, 5) >= 0)
        inflight += 5;
    assert_int_equal(inflight, 15);         /* 15 of 16: one more is EAGAIN */
    assert_int_equal(e1000e_tx_add(&tx, b, 1), -EAGAIN);
    dev_tx(tx.tail, 1000);
    assert_int_equal(e1000e_tx_reclaim(&tx), 3);
    for (int round = 0; round < 2000; round++) {
        int rc;
        seed = seed * 1103515245 + 12345;
        n = 1 + (seed >> 16) % 5;
        rc = e1000e_tx_add(&tx, b, n);
        if (rc == -EAGAIN) {
            assert_true(tx.nfree < n);
            dev_tx(tx.tail, 1 + (seed >> 8) % 7);   /* maybe mid-frame */
            reclaimed += e1000e_tx_reclaim(&tx);
            continue;
        }
        assert_true(rc >= 0);
        sent++;
    }
    dev_tx(tx.tail, 100000);
    reclaimed += e1000e_tx_reclaim(&tx);
    assert_int_equal(reclaimed, sent);
    assert_true(e1000e_tx_idle(&tx));
    assert_int_equal(tx.nfree, TSZ - 1);
    assert_true(sent > 500);
}

static void rx_in_order_over_many_wraps(void **s)
{
    uint32_t len;
    int idx, expect = 0;
    (void)s;
    assert_int_equal(e1000e_rx_next(&rx, &len), -EAGAIN);
    for (int f = 0; f < 1000; f++) {
        size_t flen = 60 + f % (BUF - 60);
        assert_false(e1000e_rx_ready(&rx));
        assert_true(dev_rx(flen, f, 0, 0));
        assert_true(e1000e_rx_ready(&rx));
        idx = e1000e_rx_next(&rx, &len);
        assert_int_equal(idx, expect);
        assert_int_equal(len, flen);
        for (size_t i = 0; i < flen; i++)
            assert_int_equal(rbuf[idx * BUF + i], (uint8_t)(f + i));
        e1000e_rx_release(&rx, idx);
        assert_int_equal(rx.tail, idx);     /* what RDT will say */
        assert_int_equal(rdesc[idx].status, 0);
        expect = (expect + 1) % RSZ;
    }
    assert_int_equal(rx.bad_frames, 0);
}

/* Nobody takes frames: the controller fills RSZ-1 and then has none. */
static void rx_full_ring_holds_the_controller(void **s)
{
    uint32_t len;
    int got = 0, idx;
    (void)s;
    for (int f = 0; f < RSZ - 1; f++)
        assert_true(dev_rx(100, f, 0, 0));
    assert_false(dev_rx(100, 99, 0, 0));
    while ((idx = e1000e_rx_next(&rx, &len)) >= 0) {
        assert_int_equal(rbuf[idx * BUF], (uint8_t)got);
        e1000e_rx_release(&rx, idx);
        got++;
        assert_true(e1000e_rx_ready(&rx) == (got < RSZ - 1));
    }
    assert_int_equal(got, RSZ - 1);
    assert_true(dev_rx(100, 7, 0, 0));      /* room again */
    assert_int_equal(e1000e_rx_next(&rx, &len), RSZ - 1);
}

/* A frame with an error, one spread over three buffers, one whose first
   buffer is written before the rest: each skipped, counted once, its
   descriptors given back; the good frames after them arrive. */
static void rx_bad_and_split_frames_skipped(void **s)
{
    uint32_t len;
    int idx;
    (void)s;
    assert_true(dev_rx(100, 1, 0x01, 0));           /* CRC error */
    assert_true(dev_rx(2 * BUF + 10, 2, 0, 0));     /* three buffers */
    assert_true(dev_rx(80, 3, 0, 0));
    idx = e1000e_rx_next(&rx, &len);
    assert_int_equal(idx, 4);
    assert_int_equal(len, 80);
    assert_int_equal(rbuf[4 * BUF], 3);
    assert_int_equal(rx.bad_frames, 2);
    e1000e_rx_release(&rx, idx);
    assert_int_equal(rx.tail, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rdesc[i].status, 0);
    assert_true(dev_rx(3 * BUF, 4, 0, 1));          /* first buffer only */
    assert_int_equal(e1000e_rx_next(&rx, &len), -EAGAIN);
    assert_true(rx.skipping);
    rdesc[6] = (struct e1000_rx_desc){ .addr = rdesc[6].addr, .length = BUF,
                                       .status = E1000_RXD_STA_DD };
    rdesc[7] = (struct e1000_rx_desc){ .addr = rdesc[7].addr, .length = BUF,
                                       .status = E1000_RXD_STA_DD |
                                                 E1000_RXD_STA_EOP };
    dev.rdh = 8;
    assert_true(dev_rx(90, 5, 0, 0));
    idx = e1000e_rx_next(&rx, &len);
    assert_int_equal(idx, 8);
    assert_int_equal(len, 90);
    assert_int_equal(rx.bad_frames, 3);
    assert_false(rx.skipping);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(bad_sizes_rejected, setup),
        cmocka_unit_test_setup(tx_frames_as_the_controller_sees_them, setup),
        cmocka_unit_test_setup(tx_bad_input_einval, setup),
        cmocka_unit_test_setup(tx_full_ring_and_partial_progress, setup),
        cmocka_unit_test_setup(rx_in_order_over_many_wraps, setup),
        cmocka_unit_test_setup(rx_full_ring_holds_the_controller, setup),
        cmocka_unit_test_setup(rx_bad_and_split_frames_skipped, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
