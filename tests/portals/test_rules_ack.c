/* SPDX-License-Identifier: MIT */
/*
 * test_rules_ack.c: ptl-test-rules, PTL_ME_ACK_DISABLE and
 * PTL_LE_ACK_DISABLE: no ACK event or ACK count at the initiator.
 */
#include "test_rules.h"

/* ---- PTL_ME_ACK_DISABLE ---- */

/* A put (or atomic) of 64 (8) bytes from md with match bits bits. */
static void op_to_b(ptl_handle_md_t md, ptl_ack_req_t ack,
                    ptl_match_bits_t bits, bool atomic, void *uptr)
{
    if (atomic)
        assert_int_equal(PtlAtomic(md, 0, 8, ack, B.id, PT, bits, 0, uptr, 0,
                                   PTL_SUM, PTL_UINT64_T), PTL_OK);
    else
        assert_int_equal(PtlPut(md, 0, 64, ack, B.id, PT, bits, 0, uptr, 0),
                         PTL_OK);
}

/* Spec: "an acknowledgment should not be sent for incoming put operations
 * [that match the entry], even if requested ... This applies to both
 * standard and counting type events."  A put to the ACK-disabled entry,
 * then one to an ordinary entry of the same index (whose ACK comes after
 * any ACK of the first, PROTOCOL.md 5): when the second is acknowledged,
 * the first has completed (its MD is free) with its SEND and no ACK
 * event, and no ACK was counted for it; as in the reference
 * implementation, atomics too, and for every kind of ACK request. */
void ack_disable_put_completes_without_ack(void **state)
{
    ptl_me_t off = me_make(tbuf, 4096, 81, PTL_ME_OP_PUT |
                           PTL_ME_EVENT_LINK_DISABLE | PTL_ME_ACK_DISABLE);
    ptl_me_t on = me_make(tbuf + 4096, 4096, 82, PTL_ME_OP_PUT |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_ct_t ct;
    ptl_ct_event_t c;
    ptl_event_t ev;

    (void)state;
    append(&off, PTL_PRIORITY_LIST, NULL);
    append(&on, PTL_PRIORITY_LIST, NULL);
    assert_int_equal(PtlCTAlloc(A.ni, &ct), PTL_OK);
    for (int atomic = 0; atomic <= 1; atomic++) {
        for (ptl_ack_req_t k = PTL_ACK_REQ; k <= PTL_OC_ACK_REQ; k++) {
            ptl_handle_md_t md1 = md_make(&A, sbuf, 64, PTL_MD_EVENT_CT_ACK,
                                          ct);
            ptl_handle_md_t md2 = md_make(&A, sbuf, 64, PTL_MD_EVENT_CT_ACK,
                                          ct);
            int sends = 0, acks = 0;

            PtlCTSet(ct, (ptl_ct_event_t){ 0, 0 });
            op_to_b(md1, k, 81, atomic, (void *)1);
            op_to_b(md2, k, 82, atomic, (void *)2);
            for (int i = 0; i < 2; i++)
                st_expect(&B, atomic ? PTL_EVENT_ATOMIC : PTL_EVENT_PUT);
            assert_int_equal(PtlCTWait(ct, 1, &c), PTL_OK);
            while (PtlEQGet(A.eq, &ev) == PTL_OK) {
                assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
                sends += ev.type == PTL_EVENT_SEND;
                if (ev.type == PTL_EVENT_ACK) {
                    assert_ptr_equal(ev.user_ptr, (void *)2);
                    acks++;
                }
            }
            assert_int_equal(sends, 2);
            assert_int_equal(acks, k == PTL_ACK_REQ);
            assert_int_equal(PtlMDRelease(md1), PTL_OK);    /* complete */
            assert_int_equal(PtlMDRelease(md2), PTL_OK);
            PtlCTGet(ct, &c);
            assert_int_equal(c.success, 1);
            assert_int_equal(c.failure, 0);
        }
    }
    st_expect_none(&A);                 /* and no late ACK either */
    PtlCTGet(ct, &c);
    assert_int_equal(c.success, 1);
    assert_memory_equal(tbuf, tbuf + 4096, 64);     /* the same landed */
}

/* On the in-process network ACKs are held to ride in the next frame to
 * the initiator (a response record): B answers A's put at once with a
 * put of its own, which carries the ACK-disabled ACK. */
void ack_disable_in_a_response_record(void **state)
{
    static uint8_t abuf[256];
    ptl_me_t off = me_make(tbuf, 256, 83, PTL_ME_OP_PUT |
                           PTL_ME_EVENT_LINK_DISABLE | PTL_ME_ACK_DISABLE);
    ptl_me_t back = me_make(abuf, sizeof(abuf), 84, PTL_ME_OP_PUT |
                            PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t amd = md_make(&A, sbuf, 64, 0, PTL_CT_NONE);
    ptl_handle_md_t bmd = md_make(&B, sbuf, 64, PTL_MD_EVENT_SUCCESS_DISABLE,
                                  PTL_CT_NONE);
    struct ptl_lib_stats st0, st;
    ptl_pt_index_t apt;
    ptl_event_t ev;
    int sends = 0, puts = 0;

    (void)state;
    if (!in_process())
        skip();         /* only the in-process network holds ACKs */
    assert_int_equal(PtlPTAlloc(A.ni, 0, A.eq, 0, &apt), PTL_OK);
    assert_int_equal(PtlMEAppend(A.ni, apt, &back, PTL_PRIORITY_LIST, NULL,
                                 &(ptl_handle_me_t){ 0 }), PTL_OK);
    append(&off, PTL_PRIORITY_LIST, NULL);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &st0);
    assert_int_equal(PtlPut(amd, 0, 64, PTL_ACK_REQ, B.id, PT, 83, 0, NULL,
                            0), PTL_OK);
    /* pump, never wait (a waiting B would send the ACK alone) */
    while (PtlEQGet(B.eq, &ev) != PTL_OK)
        ptl_memnet_pump();
    assert_int_equal(ev.type, PTL_EVENT_PUT);
    assert_int_equal(PtlPut(bmd, 0, 32, PTL_NO_ACK_REQ, A.id, apt, 84, 0,
                            NULL, 0), PTL_OK);
    for (int i = 0; i < 2000; i++) {
        ptl_memnet_pump();
        while (PtlEQGet(A.eq, &ev) == PTL_OK) {
            assert_int_not_equal(ev.type, PTL_EVENT_ACK);
            sends += ev.type == PTL_EVENT_SEND;
            puts += ev.type == PTL_EVENT_PUT;
        }
    }
    assert_int_equal(sends, 1);
    assert_int_equal(puts, 1);
    ptl_lib_get_stats(ptl_linux_lib(B.iface), &st);
    assert_int_equal(st.acks_carried - st0.acks_carried, 1);
    assert_int_equal(PtlMDRelease(amd), PTL_OK);        /* complete */
}

/* The LE form, on a non-matching NI of each station: the first put
 * takes the use-once ACK-disabled LE, the second the ordinary one behind
 * it, and only the second is acknowledged. */
void le_ack_disable(void **state)
{
    struct le_nis n;
    ptl_handle_ni_t ani, bni;
    ptl_handle_eq_t aeq;
    ptl_handle_md_t md1, md2;
    ptl_pt_index_t pt;
    ptl_le_t le = { .start = tbuf, .length = 100, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY,
                    .options = PTL_LE_OP_PUT | PTL_LE_USE_ONCE |
                               PTL_LE_ACK_DISABLE |
                               PTL_LE_EVENT_LINK_DISABLE |
                               PTL_LE_EVENT_UNLINK_DISABLE };
    ptl_md_t d = { .start = sbuf, .length = 100, .ct_handle = PTL_CT_NONE };
    ptl_event_t ev;
    int sends = 0, acks = 0;

    (void)state;
    le_nis_open(&n);
    ani = n.ani, bni = n.bni, aeq = n.aeq, pt = n.pt;
    d.eq_handle = aeq;
    assert_int_equal(PtlMDBind(ani, &d, &md1), PTL_OK);
    assert_int_equal(PtlMDBind(ani, &d, &md2), PTL_OK);
    assert_int_equal(PtlLEAppend(bni, pt, &le, PTL_PRIORITY_LIST, NULL,
                                 &(ptl_handle_le_t){ 0 }), PTL_OK);
    le.options = PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE;
    le.start = tbuf + 100;
    assert_int_equal(PtlLEAppend(bni, pt, &le, PTL_PRIORITY_LIST, NULL,
                                 &(ptl_handle_le_t){ 0 }), PTL_OK);
    assert_int_equal(PtlPut(md1, 0, 10, PTL_ACK_REQ, B.id, pt, 0, 0,
                            (void *)1, 0), PTL_OK);
    assert_int_equal(PtlPut(md2, 0, 10, PTL_ACK_REQ, B.id, pt, 0, 0,
                            (void *)2, 0), PTL_OK);
    while (sends < 2 || acks < 1) {
        assert_int_equal(PtlEQPoll(&aeq, 1, 2000, &ev, &(unsigned){ 0 }),
                         PTL_OK);
        assert_int_equal(ev.ni_fail_type, PTL_NI_OK);
        if (ev.type == PTL_EVENT_ACK) {
            assert_ptr_equal(ev.user_ptr, (void *)2);
            acks++;
        } else {
            assert_int_equal(ev.type, PTL_EVENT_SEND);
            sends++;
        }
    }
    assert_int_equal(PtlMDRelease(md1), PTL_OK);
    assert_memory_equal(tbuf, tbuf + 100, 10);
}
