/* SPDX-License-Identifier: MIT */
/*
 * atomic_ops.c: the arithmetic of Portals atomics for every operation and
 * datatype.  All floating point of the core is here and nowhere else: the
 * kernel builds this one file with SSE enabled and brackets calls to it
 * with an FPU save/restore.  Elements are copied through locals so the
 * buffers need no alignment (frames put payloads at odd offsets).
 */
#include "ptl_internal.h"

typedef float _Complex ptl_cf;
typedef double _Complex ptl_cd;
typedef long double _Complex ptl_cld;

size_t ptl_atomic_dtsize(ptl_datatype_t dt)
{
    switch (dt) {
    case PTL_INT8_T: case PTL_UINT8_T: return 1;
    case PTL_INT16_T: case PTL_UINT16_T: return 2;
    case PTL_INT32_T: case PTL_UINT32_T: case PTL_FLOAT: return 4;
    case PTL_INT64_T: case PTL_UINT64_T: case PTL_DOUBLE:
    case PTL_FLOAT_COMPLEX: return 8;
    case PTL_DOUBLE_COMPLEX: case PTL_LONG_DOUBLE: return 16;
    case PTL_LONG_DOUBLE_COMPLEX: return 32;
    default: return 0;
    }
}

static bool is_int(ptl_datatype_t dt) { return dt <= PTL_UINT64_T; }

static bool is_complex(ptl_datatype_t dt)
{
    return dt == PTL_FLOAT_COMPLEX || dt == PTL_DOUBLE_COMPLEX ||
           dt == PTL_LONG_DOUBLE_COMPLEX;
}

/* Which (op, datatype) pairs the specification allows. */
bool ptl_atomic_valid(ptl_op_t op, ptl_datatype_t dt, uint64_t len,
                      bool is_swap)
{
    size_t es = ptl_atomic_dtsize(dt);
    bool swapop = op >= PTL_SWAP && op <= PTL_MSWAP;

    if (es == 0 || (unsigned)op >= PTL_OP_LAST || len % es != 0)
        return false;
    if (swapop != is_swap)
        return false;
    if (op >= PTL_CSWAP && op <= PTL_MSWAP && len != es)
        return false;       /* compare-and-swap works on one element */
    switch (op) {
    case PTL_MIN: case PTL_MAX:
    case PTL_CSWAP_LE: case PTL_CSWAP_LT: case PTL_CSWAP_GE:
    case PTL_CSWAP_GT:
        return !is_complex(dt);
    case PTL_LOR: case PTL_LAND: case PTL_LXOR:
    case PTL_BOR: case PTL_BAND: case PTL_BXOR: case PTL_MSWAP:
        return is_int(dt);
    default:
        return true;
    }
}

/* Comparison-based ops, shared by real types (integer and floating). */
#define REAL_CMP_OPS(a, b, c)                                          \
    case PTL_MIN: if (b < a) a = b; break;                             \
    case PTL_MAX: if (b > a) a = b; break;                             \
    case PTL_CSWAP_LE: if (c <= a) a = b; break;                       \
    case PTL_CSWAP_LT: if (c < a) a = b; break;                        \
    case PTL_CSWAP_GE: if (c >= a) a = b; break;                       \
    case PTL_CSWAP_GT: if (c > a) a = b; break;

#define COMMON_OPS(a, b, c)                                            \
    case PTL_SWAP: a = b; break;                                       \
    case PTL_CSWAP: if (c == a) a = b; break;                          \
    case PTL_CSWAP_NE: if (c != a) a = b; break;

#define INT_FN(T)                                                      \
static void op_##T(ptl_op_t op, uint8_t *d, const uint8_t *s,          \
                   const uint8_t *o)                                   \
{                                                                      \
    T a, b, c;                                                         \
    ptl_memcopy(&a, d, sizeof(T));                                     \
    ptl_memcopy(&b, s, sizeof(T));                                     \
    ptl_memcopy(&c, o, sizeof(T));                                     \
    switch (op) {                                                      \
    REAL_CMP_OPS(a, b, c)                                              \
    COMMON_OPS(a, b, c)                                                \
    /* two's complement wrap, as a NIC would (no signed overflow UB) */ \
    case PTL_SUM: a = (T)((uint64_t)a + (uint64_t)b); break;           \
    case PTL_PROD: a = (T)((uint64_t)a * (uint64_t)b); break;          \
    case PTL_LOR: a = a || b; break;                                   \
    case PTL_LAND: a = a && b; break;                                  \
    case PTL_LXOR: a = !a != !b; break;                                \
    case PTL_BOR: a = a | b; break;                                    \
    case PTL_BAND: a = a & b; break;                                   \
    case PTL_BXOR: a = a ^ b; break;                                   \
    case PTL_MSWAP: a = (T)((b & c) | (a & ~c)); break;                \
    default: break;                                                    \
    }                                                                  \
    ptl_memcopy(d, &a, sizeof(T));                                     \
}

#define FLT_FN(T)                                                      \
static void op_##T(ptl_op_t op, uint8_t *d, const uint8_t *s,          \
                   const uint8_t *o)                                   \
{                                                                      \
    T a, b, c;                                                         \
    ptl_memcopy(&a, d, sizeof(T));                                     \
    ptl_memcopy(&b, s, sizeof(T));                                     \
    ptl_memcopy(&c, o, sizeof(T));                                     \
    switch (op) {                                                      \
    REAL_CMP_OPS(a, b, c)                                              \
    COMMON_OPS(a, b, c)                                                \
    case PTL_SUM: a = a + b; break;                                    \
    case PTL_PROD: a = a * b; break;                                   \
    default: break;                                                    \
    }                                                                  \
    ptl_memcopy(d, &a, sizeof(T));                                     \
}

/* Complex product written out: the compiler's version calls libgcc
 * (__mulsc3...), which the kernel does not link. */
#define CPLX_FN(T)                                                     \
static void op_##T(ptl_op_t op, uint8_t *d, const uint8_t *s,          \
                   const uint8_t *o)                                   \
{                                                                      \
    T a, b, c;                                                         \
    ptl_memcopy(&a, d, sizeof(T));                                     \
    ptl_memcopy(&b, s, sizeof(T));                                     \
    ptl_memcopy(&c, o, sizeof(T));                                     \
    switch (op) {                                                      \
    COMMON_OPS(a, b, c)                                                \
    case PTL_SUM: a = a + b; break;                                    \
    case PTL_PROD: {                                                   \
        T r;                                                           \
        __real__ r = __real__ a * __real__ b - __imag__ a * __imag__ b;\
        __imag__ r = __real__ a * __imag__ b + __imag__ a * __real__ b;\
        a = r;                                                         \
        break;                                                         \
    }                                                                  \
    default: break;                                                    \
    }                                                                  \
    ptl_memcopy(d, &a, sizeof(T));                                     \
}

typedef long double ptl_ld;

INT_FN(int8_t)
INT_FN(uint8_t)
INT_FN(int16_t)
INT_FN(uint16_t)
INT_FN(int32_t)
INT_FN(uint32_t)
INT_FN(int64_t)
INT_FN(uint64_t)
FLT_FN(float)
FLT_FN(double)
FLT_FN(ptl_ld)
CPLX_FN(ptl_cf)
CPLX_FN(ptl_cd)
CPLX_FN(ptl_cld)

typedef void (*elem_fn)(ptl_op_t, uint8_t *, const uint8_t *,
                        const uint8_t *);

static elem_fn fn_for(ptl_datatype_t dt)
{
    switch (dt) {
    case PTL_INT8_T: return op_int8_t;
    case PTL_UINT8_T: return op_uint8_t;
    case PTL_INT16_T: return op_int16_t;
    case PTL_UINT16_T: return op_uint16_t;
    case PTL_INT32_T: return op_int32_t;
    case PTL_UINT32_T: return op_uint32_t;
    case PTL_INT64_T: return op_int64_t;
    case PTL_UINT64_T: return op_uint64_t;
    case PTL_FLOAT: return op_float;
    case PTL_DOUBLE: return op_double;
    case PTL_LONG_DOUBLE: return op_ptl_ld;
    case PTL_FLOAT_COMPLEX: return op_ptl_cf;
    case PTL_DOUBLE_COMPLEX: return op_ptl_cd;
    case PTL_LONG_DOUBLE_COMPLEX: return op_ptl_cld;
    default: return NULL;
    }
}

void ptl_atomic_apply(ptl_op_t op, ptl_datatype_t dt, void *dst,
                      const void *src, const void *operand, size_t len)
{
    static const uint8_t zero[32];
    size_t es = ptl_atomic_dtsize(dt);
    elem_fn fn = fn_for(dt);
    uint8_t *d = dst;
    const uint8_t *s = src;

    if (fn == NULL)
        return;
    if (operand == NULL)
        operand = zero;
    for (size_t i = 0; i + es <= len; i += es)
        fn(op, d + i, s + i, operand);
}
