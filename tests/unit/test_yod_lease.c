/* SPDX-License-Identifier: MIT */
/*
 * test_yod_lease: yod/lease.c, the pace of yod's lease PINGs.  Whenever
 * and however late yod looks, every node is pinged within two rounds of
 * its last PING plus the gap between two looks: far inside the PCTs'
 * lease (YOD_LEASE_MS), at any node count.  And the PINGs stay spread
 * over the round: one look does not ping every node at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "uapi/abi.h"
#include "yod.h"

#define PERIOD  1000.0
#define RUN_MS  20000.0

static double last[MAX_RANKS];  /* ms: each rank's last PING */
static int most;                /* most PINGs one look sent */

/* One look at `now`: ping what is due, as control.c's heartbeat does. */
static void look(struct ping_round *pr, int size, double now)
{
    int end = ping_round_due(pr, size, now, PERIOD);
    int sent = 0;

    for (; pr->next < end; pr->next++, sent++)
        last[pr->next] = now;
    if (sent > most)
        most = sent;
}

/* The longest any rank went without a PING, looking at the times next()
   gives from 1 ms on, for RUN_MS; ranks never pinged count as RUN_MS. */
static double longest_silence(int size, double (*next)(double, unsigned *))
{
    struct ping_round pr = { 0 };
    double worst = 0;
    unsigned seed = 12345;

    for (int r = 0; r < size; r++)
        last[r] = 0;
    most = 0;
    for (double now = 1; now < RUN_MS; now = next(now, &seed)) {
        for (int r = 0; r < size; r++)
            if (now - last[r] > worst)
                worst = now - last[r];
        look(&pr, size, now);
    }
    return worst;
}

static double every_100ms(double now, unsigned *seed)
{
    (void)seed;
    return now + 100;
}

/* 0 to 400 ms between looks: a yod descheduled on a loaded host. */
static double jittered(double now, unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return now + (*seed >> 16) % 400;
}

static double every_ms(double now, unsigned *seed)
{
    (void)seed;
    return now + 1;
}

/* Looks every 100 ms (yod's poll while a job runs): at 128 nodes the
   ranks at the end of the list fell due only in the last 8 ms of a
   round, which no look reached: they were never pinged. */
static void test_tail_pinged_at_poll_rate(void **state)
{
    (void)state;
    for (int size = 1; size <= MAX_RANKS; size *= 2)
        assert_true(longest_silence(size, every_100ms) <= 2 * PERIOD + 100);
}

static void test_tail_pinged_when_late(void **state)
{
    (void)state;
    for (int size = 1; size <= MAX_RANKS; size *= 2)
        assert_true(longest_silence(size, jittered) <= 2 * PERIOD + 400);
}

/* Frequent looks spread a round's PINGs: each look sends what fell due
   since the last, one ms's worth (plus one). */
static void test_spread_over_round(void **state)
{
    (void)state;
    assert_true(longest_silence(256, every_ms) <= PERIOD + 1 + 1);
    assert_true(most <= 256 / PERIOD + 2);
}

/* The first look starts a round with rank 0 alone. */
static void test_first_look_pings_one(void **state)
{
    struct ping_round pr = { 0 };

    (void)state;
    assert_int_equal(ping_round_due(&pr, 128, 5000, PERIOD), 1);
    assert_int_equal(pr.next, 0);
}

/* An unfinished round is finished by a late look, not restarted. */
static void test_late_look_finishes_round(void **state)
{
    struct ping_round pr = { 0 };

    (void)state;
    pr.next = ping_round_due(&pr, 128, 100, PERIOD);
    pr.next = ping_round_due(&pr, 128, 600, PERIOD);
    assert_int_equal(pr.next, 64 + 1);
    assert_int_equal(ping_round_due(&pr, 128, 1700, PERIOD), 128);
    assert_true(pr.start == 100);
    pr.next = 128;
    assert_int_equal(ping_round_due(&pr, 128, 1701, PERIOD), 1);
    assert_int_equal(pr.next, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tail_pinged_at_poll_rate),
        cmocka_unit_test(test_tail_pinged_when_late),
        cmocka_unit_test(test_spread_over_round),
        cmocka_unit_test(test_first_look_pings_one),
        cmocka_unit_test(test_late_look_finishes_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
