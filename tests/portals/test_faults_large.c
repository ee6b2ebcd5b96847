/* SPDX-License-Identifier: MIT */
/*
 * test_faults_large.c: ptl-test-faults, a large message and small ones
 * through loss (selective ACK), and a small put not stuck behind a large one.
 */
#include "test_faults.h"

/* ---- a large message and a small one through loss (selective ACK) ---- */

#define BIG   (4u << 20)
#define GOT   (1u << 20)

/* A 4 MiB put (hdr_data 0) and a 64-byte put (1) to one portal index,
 * whose two use-once entries carry the same match bits (the big buffer
 * first), a 64-byte put (2) to another index, and (lossy test) a 1 MiB
 * get. */
struct bigsmall {
    uint8_t *src, *big, small_src[64], small[64], other_src[64], other[64];
    uint8_t *got_src, *got;
    ptl_handle_md_t md_big, md_small, md_other, md_got;
    ptl_handle_me_t me[4];
    ptl_pt_index_t pt2;
    unsigned b_seen, a_seen;        /* puts landed (bit hdr_data), events */
    uint64_t frames_to_other;       /* B's frames from issue to put 2 */
};

static void bigsmall_open(struct bigsmall *t)
{
    unsigned o = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_UNLINK_DISABLE;
    ptl_me_t me;

    memset(t, 0, sizeof(*t));
    t->src = malloc(BIG);
    t->big = calloc(1, BIG);
    t->got_src = malloc(GOT);
    t->got = calloc(1, GOT);
    for (uint32_t i = 0; i < BIG; i++)
        t->src[i] = pattern(1, i);
    for (uint32_t i = 0; i < 64; i++) {
        t->small_src[i] = pattern(2, i);
        t->other_src[i] = pattern(4, i);
    }
    for (uint32_t i = 0; i < GOT; i++)
        t->got_src[i] = pattern(3, i);
    assert_int_equal(PtlPTAlloc(B.ni, 0, B.eq, PTL_PT_ANY, &t->pt2), PTL_OK);
    me = me_make(t->big, BIG, 1, o);
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &t->me[0]), PTL_OK);
    me = me_make(t->small, 64, 1, o);
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &t->me[1]), PTL_OK);
    me = me_make(t->other, 64, 1, o);
    assert_int_equal(PtlMEAppend(B.ni, t->pt2, &me, PTL_PRIORITY_LIST, NULL,
                                 &t->me[2]), PTL_OK);
    me = me_make(t->got_src, GOT, 3,
                 PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE);
    assert_int_equal(PtlMEAppend(B.ni, PT, &me, PTL_PRIORITY_LIST, NULL,
                                 &t->me[3]), PTL_OK);
    t->md_big = md_make(&A, t->src, BIG, PTL_MD_EVENT_SEND_DISABLE,
                        PTL_CT_NONE);
    t->md_small = md_make(&A, t->small_src, 64, PTL_MD_EVENT_SEND_DISABLE,
                          PTL_CT_NONE);
    t->md_other = md_make(&A, t->other_src, 64, PTL_MD_EVENT_SEND_DISABLE,
                          PTL_CT_NONE);
    t->md_got = md_make(&A, t->got, GOT, PTL_MD_EVENT_SEND_DISABLE,
                        PTL_CT_NONE);
}

static void bigsmall_close(struct bigsmall *t)
{
    PtlMEUnlink(t->me[3]);
    PtlMDRelease(t->md_big);
    PtlMDRelease(t->md_small);
    PtlMDRelease(t->md_other);
    PtlMDRelease(t->md_got);
    free(t->src);
    free(t->big);
    free(t->got_src);
    free(t->got);
}

static void bigsmall_put(struct bigsmall *t, unsigned which)
{
    if (which == 0)
        assert_int_equal(PtlPut(t->md_big, 0, BIG, PTL_ACK_REQ, B.id, PT, 1,
                                0, NULL, 0), PTL_OK);
    else
        assert_int_equal(PtlPut(which == 1 ? t->md_small : t->md_other, 0,
                                64, PTL_ACK_REQ, B.id,
                                which == 1 ? PT : t->pt2, 1, 0, NULL, which),
                         PTL_OK);
}

/* Take both stations' events, checking each landed put once, whole, in
 * its own buffer (Portals matched in the order of sending: the big put
 * took the first entry), and the small put to the big one's portal index
 * after the big one; the put to the other index may come any time. */
static void bigsmall_events(struct bigsmall *t)
{
    ptl_event_t ev;

    while (PtlEQGet(B.eq, &ev) == PTL_OK) {
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        if (ev.type != PTL_EVENT_PUT)
            continue;               /* B's side of the GET */
        if (ev.hdr_data > 2 || (t->b_seen & 1u << ev.hdr_data))
            fail_msg("put %lu delivered again", (unsigned long)ev.hdr_data);
        assert_int_equal(ev.mlength, ev.hdr_data ? 64 : BIG);
        if (ev.hdr_data == 0) {
            assert_ptr_equal(ev.start, t->big);
            check_bytes(t->big, BIG, 1, "big put");
        } else if (ev.hdr_data == 1) {
            if (!(t->b_seen & 1))
                fail_msg("the small put overtook the big one to its index");
            assert_ptr_equal(ev.start, t->small);
            check_bytes(t->small, 64, 2, "small put");
        } else {
            assert_ptr_equal(ev.start, t->other);
            check_bytes(t->other, 64, 4, "put to the other index");
        }
        t->b_seen |= 1u << ev.hdr_data;
    }
    while (PtlEQGet(A.eq, &ev) == PTL_OK) {
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        if (ev.type == PTL_EVENT_REPLY) {
            assert_int_equal(ev.mlength, GOT);
            check_bytes(t->got, GOT, 3, "got");
        }
        if (ev.type == PTL_EVENT_ACK || ev.type == PTL_EVENT_REPLY)
            t->a_seen++;
    }
}

/* Pump until every put landed and A has want ACK/REPLY events. */
static void bigsmall_run(struct bigsmall *t, unsigned want, uint64_t from)
{
    struct ptl_lib_stats sb;

    for (long i = 0; i < 20000000 && (t->b_seen != 7 || t->a_seen < want);
         i++) {
        ptl_memnet_pump();
        bigsmall_events(t);
        if ((t->b_seen & 4) && !t->frames_to_other) {
            ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
            t->frames_to_other = sb.rx_frames - from;
        }
    }
    for (int i = 0; i < 2000; i++)
        ptl_memnet_pump();          /* a second delivery would show now */
    bigsmall_events(t);
    assert_int_equal(t->b_seen, 7);
    assert_int_equal(t->a_seen, want);
}

/* The three puts and the get through 10% loss, duplication and
 * reordering: all arrive exactly once, intact, in Portals order, and with
 * selective ACK a loss resends what was lost, not the window behind it
 * (go-back-N resent more than half the frames here). */
void large_and_small_lossy_link(void **state)
{
    struct ptl_memnet_faults f = { .loss_pct = 10, .dup_pct = 10,
                                   .reorder_pct = 10, .seed = 2424 };
    static struct bigsmall t;
    struct ptl_lib_stats sa, sb;

    (void)state;
    bigsmall_open(&t);
    ptl_memnet_set_faults(&f);
    for (unsigned w = 0; w < 3; w++)
        bigsmall_put(&t, w);
    assert_int_equal(PtlGet(t.md_got, 0, GOT, B.id, PT, 3, 0, NULL),
                     PTL_OK);
    bigsmall_run(&t, 4, 0);
    ptl_lib_get_stats(ptl_linux_lib(A.iface), &sa);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("A sent %lu frames, resent %lu, %lu inside others; B sent "
                  "%lu, resent %lu; taken beyond a gap: at B %lu, at A %lu; "
                  "virtual %.3f s\n",
                  (unsigned long)sa.tx_frames, (unsigned long)sa.rtx_frames,
                  (unsigned long)sa.tx_interleaved,
                  (unsigned long)sb.tx_frames, (unsigned long)sb.rtx_frames,
                  (unsigned long)sb.rx_early, (unsigned long)sa.rx_early,
                  ptl_memnet_now() / 1e9);
    assert_true(sb.rx_early > 0 && sa.rx_early > 0);
    assert_true(sa.rtx_frames * 4 < sa.tx_frames);
    assert_true(sb.rtx_frames * 4 < sb.tx_frames);
    assert_true(sa.tx_interleaved > 0);
    bigsmall_close(&t);
}

/* Two 64-byte puts issued while a 4 MiB put is on the wire: the one to
 * another portal index reaches the target within a window or so of
 * frames, not after the ~2900 frames of the big one (main framed
 * messages to one peer strictly one after another); the one to the big
 * one's index comes after it (bigsmall_events). */
void small_put_not_stuck_behind_large(void **state)
{
    static struct bigsmall t;
    struct ptl_lib_stats sb;
    uint64_t at_issue = 0;

    (void)state;
    bigsmall_open(&t);
    bigsmall_put(&t, 0);
    for (long i = 0; i < 1000000 && at_issue < 100; i++) {
        ptl_memnet_pump();
        ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
        at_issue = sb.rx_frames;
    }
    bigsmall_put(&t, 1);
    bigsmall_put(&t, 2);
    bigsmall_run(&t, 3, at_issue);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &sb);
    print_message("the put to another index landed %lu frames after it was "
                  "issued, the big one after %lu\n",
                  (unsigned long)t.frames_to_other,
                  (unsigned long)(sb.rx_frames - at_issue));
    /* at most a window (64) in flight ahead of it, and every other frame
     * is its turn */
    assert_true(t.frames_to_other > 0 && t.frames_to_other <= 2 * 64 + 8);
    assert_true(sb.rx_frames - at_issue > 2500);
    bigsmall_close(&t);
}
