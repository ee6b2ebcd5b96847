/* SPDX-License-Identifier: MIT */
/*
 * test_semantics_ops.c: ptl-test-semantics, gets, operation and permission
 * violations, and atomics (every operation on every datatype).
 */
#include "test_semantics.h"

/* ---- get ---- */

void get_reply(void **state)
{
    ptl_me_t me = me_make(sbuf, 5000, 19, PTL_ME_OP_GET);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlGet(md, 100, 4000, B.id, PT, 19, 50, (void *)4),
                     PTL_OK);
    ev = st_expect(&A, PTL_EVENT_REPLY);
    assert_int_equal(ev.mlength, 4000);
    assert_int_equal(ev.remote_offset, 50);
    assert_ptr_equal(ev.user_ptr, (void *)4);
    assert_memory_equal(tbuf + 100, sbuf + 50, 4000);
    ev = st_expect(&B, PTL_EVENT_GET);
    assert_int_equal(ev.mlength, 4000);
}

void get_truncated(void **state)
{
    ptl_me_t me = me_make(sbuf, 100, 20, PTL_ME_OP_GET);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_event_t ev;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlGet(md, 0, 500, B.id, PT, 20, 0, NULL);
    ev = st_expect(&A, PTL_EVENT_REPLY);
    assert_int_equal(ev.mlength, 100);
    assert_int_equal(ev.rlength, 500);
}

void op_violation_reported(void **state)
{
    ptl_me_t me = me_make(sbuf, 100, 21, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, tbuf, 5000, 0, PTL_CT_NONE);
    ptl_sr_value_t v;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    PtlGet(md, 0, 10, B.id, PT, 21, 0, NULL);
    assert_int_equal(st_expect(&A, PTL_EVENT_REPLY).ni_fail_type,
                     PTL_NI_OP_VIOLATION);
    assert_int_equal(PtlNIStatus(B.ni, PTL_SR_OPERATION_VIOLATIONS, &v),
                     PTL_OK);
    assert_int_equal(v, 1);
}

void uid_mismatch_is_permission_violation(void **state)
{
    ptl_me_t me = me_make(tbuf, 100, 22, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    ptl_sr_value_t v;

    (void)state;
    me.uid = 4242;
    append(&me, PTL_PRIORITY_LIST, NULL);
    put(md, 0, 10, 22, 0);
    assert_int_equal(put_done().ni_fail_type, PTL_NI_PERM_VIOLATION);
    PtlNIStatus(B.ni, PTL_SR_PERMISSION_VIOLATIONS, &v);
    assert_int_equal(v, 1);
}

/* ---- atomics ---- */

static void set_elem(uint8_t *p, ptl_datatype_t dt, double v)
{
    switch (dt) {
#define S(E, T) case E: { T x = (T)v; memcpy(p, &x, sizeof(x)); break; }
    S(PTL_INT8_T, int8_t) S(PTL_UINT8_T, uint8_t) S(PTL_INT16_T, int16_t)
    S(PTL_UINT16_T, uint16_t) S(PTL_INT32_T, int32_t)
    S(PTL_UINT32_T, uint32_t) S(PTL_INT64_T, int64_t)
    S(PTL_UINT64_T, uint64_t) S(PTL_FLOAT, float) S(PTL_DOUBLE, double)
    S(PTL_LONG_DOUBLE, long double)
    S(PTL_FLOAT_COMPLEX, float _Complex)
    S(PTL_DOUBLE_COMPLEX, double _Complex)
    S(PTL_LONG_DOUBLE_COMPLEX, long double _Complex)
#undef S
    default: break;
    }
}

static double get_elem(const uint8_t *p, ptl_datatype_t dt)
{
    switch (dt) {
#define G(E, T) case E: { T x; memcpy(&x, p, sizeof(x)); return (double)x; }
    G(PTL_INT8_T, int8_t) G(PTL_UINT8_T, uint8_t) G(PTL_INT16_T, int16_t)
    G(PTL_UINT16_T, uint16_t) G(PTL_INT32_T, int32_t)
    G(PTL_UINT32_T, uint32_t) G(PTL_INT64_T, int64_t)
    G(PTL_UINT64_T, uint64_t) G(PTL_FLOAT, float) G(PTL_DOUBLE, double)
    G(PTL_LONG_DOUBLE, long double)
#undef G
    case PTL_FLOAT_COMPLEX: { float _Complex x; memcpy(&x, p, 8);
                              return (double)__real__ x; }
    case PTL_DOUBLE_COMPLEX: { double _Complex x; memcpy(&x, p, 16);
                               return __real__ x; }
    case PTL_LONG_DOUBLE_COMPLEX: { long double _Complex x; memcpy(&x, p, 32);
                                    return (double)__real__ x; }
    default: return -1;
    }
}

static const size_t dtsz[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16, 16, 32 };

struct acase {
    ptl_op_t op;
    double target, src, operand, expect;
    bool ints_only, reals_only;
};

/* target 6 OP source 3 (operand for the swaps) */
static const struct acase acases[] = {
    { PTL_SUM, 6, 3, 0, 9, 0, 0 },   { PTL_PROD, 6, 3, 0, 18, 0, 0 },
    { PTL_MIN, 6, 3, 0, 3, 0, 1 },   { PTL_MAX, 6, 3, 0, 6, 0, 1 },
    { PTL_LOR, 6, 0, 0, 1, 1, 0 },   { PTL_LAND, 6, 0, 0, 0, 1, 0 },
    { PTL_LXOR, 6, 3, 0, 0, 1, 0 },  { PTL_BOR, 6, 3, 0, 7, 1, 0 },
    { PTL_BAND, 6, 3, 0, 2, 1, 0 },  { PTL_BXOR, 6, 3, 0, 5, 1, 0 },
    { PTL_SWAP, 6, 3, 0, 3, 0, 0 },  { PTL_CSWAP, 6, 3, 6, 3, 0, 0 },
    { PTL_CSWAP, 6, 3, 5, 6, 0, 0 }, { PTL_CSWAP_NE, 6, 3, 6, 6, 0, 0 },
    { PTL_CSWAP_NE, 6, 3, 5, 3, 0, 0 },
    { PTL_CSWAP_LE, 6, 3, 5, 3, 0, 1 }, { PTL_CSWAP_LT, 6, 3, 6, 6, 0, 1 },
    { PTL_CSWAP_GE, 6, 3, 6, 3, 0, 1 }, { PTL_CSWAP_GT, 6, 3, 7, 3, 0, 1 },
    { PTL_CSWAP_GT, 6, 3, 6, 6, 0, 1 }, { PTL_MSWAP, 6, 3, 1, 7, 1, 0 },
};

static bool dt_is_int(ptl_datatype_t dt) { return dt <= PTL_UINT64_T; }
static bool dt_is_cplx(ptl_datatype_t dt)
{
    return dt == PTL_FLOAT_COMPLEX || dt == PTL_DOUBLE_COMPLEX ||
           dt == PTL_LONG_DOUBLE_COMPLEX;
}

static void one_atomic(ptl_handle_md_t src, ptl_handle_md_t res,
                       ptl_datatype_t dt, const struct acase *c)
{
    static uint8_t operand[32];
    size_t n = dtsz[dt];
    int rc;

    set_elem(tbuf, dt, c->target);
    set_elem(sbuf, dt, c->src);
    set_elem(operand, dt, c->operand);
    memset(sbuf + 64, 0xee, 32);
    if (c->op >= PTL_SWAP)
        rc = PtlSwap(res, 64, src, 0, n, B.id, PT, 26, 0, NULL, 0, operand,
                     c->op, dt);
    else
        rc = PtlFetchAtomic(res, 64, src, 0, n, B.id, PT, 26, 0, NULL, 0,
                            c->op, dt);
    assert_int_equal(rc, PTL_OK);
    st_expect(&A, PTL_EVENT_SEND);
    assert_int_equal(st_expect(&A, PTL_EVENT_REPLY).ni_fail_type, PTL_NI_OK);
    st_expect(&B, PTL_EVENT_FETCH_ATOMIC);
    if (get_elem(tbuf, dt) != c->expect || get_elem(sbuf + 64, dt) != 6)
        fail_msg("op %d dt %d: got %g (fetched %g), want %g", c->op, dt,
                 get_elem(tbuf, dt), get_elem(sbuf + 64, dt), c->expect);
}

void atomics_every_op_and_type(void **state)
{
    ptl_me_t me = me_make(tbuf, 64, 26, PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_EVENT_LINK_DISABLE);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    int ran = 0;

    (void)state;
    append(&me, PTL_PRIORITY_LIST, NULL);
    for (ptl_datatype_t dt = 0; dt < PTL_DATATYPE_LAST; dt++) {
        for (size_t i = 0; i < sizeof(acases) / sizeof(acases[0]); i++) {
            const struct acase *c = &acases[i];
            bool ok = !(c->ints_only && !dt_is_int(dt)) &&
                      !(c->reals_only && dt_is_cplx(dt));
            if (!ok) {      /* the spec forbids it: refused locally */
                assert_int_equal(PtlAtomic(md, 0, dtsz[dt], PTL_NO_ACK_REQ,
                                           B.id, PT, 26, 0, NULL, 0, c->op,
                                           dt), PTL_ARG_INVALID);
                continue;
            }
            one_atomic(md, md, dt, c);
            ran++;
        }
    }
    assert_true(ran > 200);
}

void atomic_put_applies_vector(void **state)
{
    ptl_me_t me = me_make(tbuf, 64, 27, PTL_ME_OP_PUT);
    ptl_handle_md_t md = md_make(&A, sbuf, 1000, 0, PTL_CT_NONE);
    int32_t v[4] = { 1, 2, 3, 4 }, t[4] = { 10, 20, 30, 40 };

    (void)state;
    memcpy(sbuf, v, sizeof(v));
    memcpy(tbuf, t, sizeof(t));
    append(&me, PTL_PRIORITY_LIST, NULL);
    st_expect(&B, PTL_EVENT_LINK);
    assert_int_equal(PtlAtomic(md, 0, 16, PTL_ACK_REQ, B.id, PT, 27, 0, NULL,
                               0, PTL_SUM, PTL_INT32_T), PTL_OK);
    assert_int_equal(st_expect(&B, PTL_EVENT_ATOMIC).atomic_operation,
                     PTL_SUM);
    put_done();
    memcpy(t, tbuf, sizeof(t));
    assert_int_equal(t[0], 11);
    assert_int_equal(t[3], 44);
}
