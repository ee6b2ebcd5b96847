/*
 * Host tests of the split virtqueue bookkeeping (kernel/virtq.c), with a
 * model device on the other side of the rings: it takes chains from the
 * available ring in order and completes them in whatever order a test
 * asks, as a real device may.
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
#include "virtq.h"

#define QSZ 16

static struct virtq q;
static struct virtq_desc desc[VIRTQ_MAX_SIZE] __attribute__((aligned(16)));
static uint16_t avail_mem[3 + VIRTQ_MAX_SIZE];
static uint32_t used_mem[2 + 2 * VIRTQ_MAX_SIZE];
static uint16_t dev_last_avail;         /* the model device's position */

static int setup(void **s)
{
    (void)s;
    memset(desc, 0, sizeof(desc));
    memset(avail_mem, 0, sizeof(avail_mem));
    memset(used_mem, 0, sizeof(used_mem));
    dev_last_avail = 0;
    return virtq_init(&q, QSZ, desc, avail_mem, used_mem);
}

static struct virtq_avail *avail(void) { return (struct virtq_avail *)avail_mem; }
static struct virtq_used *used(void) { return (struct virtq_used *)used_mem; }

/* The device takes the next available chain: its head, and its length
   and total bytes through *n and *bytes. */
static int dev_take(int *n, uint32_t *bytes)
{
    uint16_t head, i;

    if (dev_last_avail == avail()->idx)
        return -1;
    head = avail()->ring[dev_last_avail++ % q.size];
    *n = 0;
    *bytes = 0;
    for (i = head;; i = desc[i].next) {
        (*n)++;
        *bytes += desc[i].len;
        if (!(desc[i].flags & VIRTQ_DESC_F_NEXT))
            break;
    }
    return head;
}

static void dev_complete(uint16_t head, uint32_t len)
{
    struct virtq_used *u = used();

    u->ring[u->idx % q.size] = (struct virtq_used_elem){ head, len };
    u->idx++;
}

static struct virtq_buf buf(uint64_t addr, uint32_t len, bool w)
{
    return (struct virtq_buf){ addr, len, w };
}

static void bad_sizes_rejected(void **s)
{
    struct virtq t;
    (void)s;
    assert_int_equal(virtq_init(&t, 0, desc, avail_mem, used_mem), -EINVAL);
    assert_int_equal(virtq_init(&t, 12, desc, avail_mem, used_mem), -EINVAL);
    assert_int_equal(virtq_init(&t, 512, desc, avail_mem, used_mem), -EINVAL);
    assert_int_equal(virtq_init(&t, 256, desc, avail_mem, used_mem), 0);
    assert_int_equal(t.nfree, 256);
}

static void chain_layout_as_the_device_sees_it(void **s)
{
    struct virtq_buf b[3] = { buf(0x1000, 12, false), buf(0x2000, 100, false),
                              buf(0x3000, 1500, true) };
    int head, n;
    uint32_t bytes, len;
    (void)s;

    head = virtq_add(&q, b, 3);
    assert_true(head >= 0);
    assert_int_equal(q.nfree, QSZ - 3);
    assert_int_equal(avail()->idx, 1);
    assert_int_equal(avail()->ring[0], head);
    assert_int_equal(desc[head].addr, 0x1000);
    assert_int_equal(desc[head].flags, VIRTQ_DESC_F_NEXT);
    uint16_t second = desc[head].next, third = desc[second].next;
    assert_int_equal(desc[second].len, 100);
    assert_int_equal(desc[third].flags, VIRTQ_DESC_F_WRITE);   /* last: no NEXT */
    assert_int_equal(dev_take(&n, &bytes), head);
    assert_int_equal(n, 3);
    assert_int_equal(bytes, 1612);
    assert_false(virtq_has_used(&q));
    assert_int_equal(virtq_get_used(&q, &len), -EAGAIN);
    dev_complete(head, 77);
    assert_true(virtq_has_used(&q));
    assert_int_equal(virtq_get_used(&q, &len), head);
    assert_int_equal(len, 77);
    assert_int_equal(q.nfree, QSZ);
}

static void full_ring_is_eagain_and_bad_lengths_einval(void **s)
{
    struct virtq_buf b[QSZ + 1];
    int n;
    uint32_t bytes, len;
    (void)s;

    for (int i = 0; i <= QSZ; i++)
        b[i] = buf(0x1000 * i, 64, false);
    assert_int_equal(virtq_add(&q, b, 0), -EINVAL);
    assert_int_equal(virtq_add(&q, b, QSZ + 1), -EINVAL);
    for (int i = 0; i < QSZ / 5; i++)
        assert_true(virtq_add(&q, b, 5) >= 0);
    assert_int_equal(q.nfree, QSZ % 5);
    assert_int_equal(virtq_add(&q, b, 5), -EAGAIN);     /* 1 left, 5 wanted */
    assert_true(virtq_add(&q, b, 1) >= 0);
    assert_int_equal(virtq_add(&q, b, 1), -EAGAIN);
    int h = dev_take(&n, &bytes);
    dev_complete(h, 0);
    assert_int_equal(virtq_get_used(&q, &len), h);
    assert_int_equal(q.nfree, 5);
    assert_true(virtq_add(&q, b, 5) >= 0);              /* room again */
}

/* Completions out of order, over many times the 16-bit index range: the
   free list and the heads stay consistent and no descriptor leaks. */
static void out_of_order_completion_and_index_wrap(void **s)
{
    struct virtq_buf b[4];
    int pending[QSZ], npend = 0, n;
    uint32_t bytes, len, done = 0;
    (void)s;

    srand(7);
    for (int i = 0; i < 4; i++)
        b[i] = buf(0x10000 + i, 10 * (i + 1), i == 3);
    for (int round = 0; round < 200000; round++) {
        int k = 1 + rand() % 4, h = virtq_add(&q, b, k);
        if (h >= 0) {
            assert_int_equal(dev_take(&n, &bytes), h);
            assert_int_equal(n, k);
            pending[npend++] = h;
        } else {
            assert_int_equal(h, -EAGAIN);
        }
        if (npend && (h < 0 || rand() % 3 == 0)) {
            int j = rand() % npend;
            dev_complete(pending[j], pending[j]);
            pending[j] = pending[--npend];
            int got = virtq_get_used(&q, &len);
            assert_true(got >= 0);
            assert_int_equal(len, (uint32_t)got);
            done++;
        }
    }
    while (npend) {
        dev_complete(pending[--npend], 0);
        assert_true(virtq_get_used(&q, &len) >= 0);
    }
    assert_int_equal(q.nfree, QSZ);
    assert_true(done > 65536);              /* the indexes wrapped */
}

static void device_errors_are_eio(void **s)
{
    struct virtq_buf b = buf(0x1000, 8, false);
    uint32_t len;
    int n, h;
    uint32_t bytes;
    (void)s;

    h = virtq_add(&q, &b, 1);
    dev_take(&n, &bytes);
    dev_complete(QSZ + 3, 0);               /* out of range */
    assert_int_equal(virtq_get_used(&q, &len), -EIO);
    dev_complete((h + 1) % QSZ, 0);         /* a free descriptor */
    assert_int_equal(virtq_get_used(&q, &len), -EIO);
    dev_complete(h, 0);
    assert_int_equal(virtq_get_used(&q, &len), h);
    dev_complete(h, 0);                     /* the same chain twice */
    assert_int_equal(virtq_get_used(&q, &len), -EIO);
    assert_int_equal(q.nfree, QSZ);
}

static void notification_and_interrupt_flags(void **s)
{
    (void)s;
    assert_true(virtq_kick_needed(&q));
    used()->flags = VIRTQ_USED_F_NO_NOTIFY;
    assert_false(virtq_kick_needed(&q));
    virtq_set_interrupts(&q, false);
    assert_int_equal(avail()->flags, VIRTQ_AVAIL_F_NO_INTERRUPT);
    virtq_set_interrupts(&q, true);
    assert_int_equal(avail()->flags, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(bad_sizes_rejected, setup),
        cmocka_unit_test_setup(chain_layout_as_the_device_sees_it, setup),
        cmocka_unit_test_setup(full_ring_is_eagain_and_bad_lengths_einval, setup),
        cmocka_unit_test_setup(out_of_order_completion_and_index_wrap, setup),
        cmocka_unit_test_setup(device_errors_are_eio, setup),
        cmocka_unit_test_setup(notification_and_interrupt_flags, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
