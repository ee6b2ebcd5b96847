/* SPDX-License-Identifier: MIT */
/*
 * op.c: reduction operations.  The built-in ops are applied per basic
 * type (a derived datatype works if it holds a single basic type: its runs
 * are reduced one by one); user ops get the buffers in the datatype's own
 * layout, as the standard says.  MPI_Op_create/MPI_Op_free.
 */
#include <stdlib.h>
#include "mpi_impl.h"


#define OPB(name, i) struct mpi_op_s mpi_op_##name##_ = { .fn = NULL,        \
    .which = i, .commute = true, .builtin = true };
OPB(max, O_MAX) OPB(min, O_MIN) OPB(sum, O_SUM) OPB(prod, O_PROD)
OPB(land, O_LAND) OPB(band, O_BAND) OPB(lor, O_LOR) OPB(bor, O_BOR)
OPB(lxor, O_LXOR) OPB(bxor, O_BXOR) OPB(maxloc, O_MAXLOC)
OPB(minloc, O_MINLOC) OPB(replace, O_REPLACE) OPB(no_op, O_NO_OP)

/* Which ops each class of basic type admits (MPI-3.1 5.9.2). */
static bool allowed(int which, enum dt_class k)
{
    switch (which) {
    case O_MAX: case O_MIN:
        return k == DC_CINT || k == DC_FINT || k == DC_FLOAT;
    case O_SUM: case O_PROD:
        return k == DC_CINT || k == DC_FINT || k == DC_FLOAT ||
               k == DC_COMPLEX;
    case O_LAND: case O_LOR: case O_LXOR:
        return k == DC_CINT || k == DC_LOGICAL;
    case O_BAND: case O_BOR: case O_BXOR:
        return k == DC_CINT || k == DC_FINT || k == DC_BYTE;
    case O_MAXLOC: case O_MINLOC:
        return k == DC_PAIR;
    default:
        return false;           /* REPLACE, NO_OP: one-sided only */
    }
}

/* The ops one-sided accumulates take: any built-in op the type admits,
 * and MPI_REPLACE and MPI_NO_OP on any type. */
int op_check_rma(MPI_Op op, MPI_Datatype dt)
{
    int rc = dt_check(dt);

    if (rc == MPI_SUCCESS && op != MPI_OP_NULL && op->builtin &&
        (op->which == O_REPLACE || op->which == O_NO_OP))
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS && (op == MPI_OP_NULL || !op->builtin))
        return MPI_ERR_OP;      /* user ops are not for one-sided */
    return rc ? rc : op_check(op, dt);
}

int op_check(MPI_Op op, MPI_Datatype dt)
{
    int rc = dt_check(dt);

    if (rc != MPI_SUCCESS)
        return rc;
    if (op == MPI_OP_NULL || (!op->builtin && op->fn == NULL))
        return MPI_ERR_OP;
    if (!op->builtin)
        return MPI_SUCCESS;
    if (dt->size == 0)
        return MPI_SUCCESS;
    if (dt->base < 0 || !allowed(op->which, dt_class_of(dt->base)))
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

/* ---- the arithmetic, one function per C type ---- */

#define ARITH_CASES(T)                                                      \
    case O_MAX: for (i = 0; i < n; i++) if (a[i] > b[i]) b[i] = a[i]; break;\
    case O_MIN: for (i = 0; i < n; i++) if (a[i] < b[i]) b[i] = a[i]; break;\
    case O_SUM: for (i = 0; i < n; i++) b[i] = (T)(a[i] + b[i]); break;     \
    case O_PROD: for (i = 0; i < n; i++) b[i] = (T)(a[i] * b[i]); break;

#define INT_FN(name, T)                                                     \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const T *a = in;                                                        \
    T *b = io;                                                              \
    MPI_Aint i;                                                             \
    switch (op) {                                                           \
    ARITH_CASES(T)                                                          \
    case O_LAND: for (i = 0; i < n; i++) b[i] = (T)(a[i] && b[i]); break;   \
    case O_LOR: for (i = 0; i < n; i++) b[i] = (T)(a[i] || b[i]); break;    \
    case O_LXOR: for (i = 0; i < n; i++) b[i] = (T)(!a[i] != !b[i]); break; \
    case O_BAND: for (i = 0; i < n; i++) b[i] = (T)(a[i] & b[i]); break;    \
    case O_BOR: for (i = 0; i < n; i++) b[i] = (T)(a[i] | b[i]); break;     \
    case O_BXOR: for (i = 0; i < n; i++) b[i] = (T)(a[i] ^ b[i]); break;    \
    }                                                                       \
}

#define FLT_FN(name, T)                                                     \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const T *a = in;                                                        \
    T *b = io;                                                              \
    MPI_Aint i;                                                             \
    switch (op) {                                                           \
    ARITH_CASES(T)                                                          \
    }                                                                       \
}

/* MAXLOC/MINLOC: the better value wins; on a tie the smaller index. */
#define PAIR_FN(name, TV)                                                   \
struct name##_p { TV v; int i; };                                           \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const struct name##_p *a = in;                                          \
    struct name##_p *b = io;                                                \
    for (MPI_Aint i = 0; i < n; i++) {                                      \
        bool better = op == O_MAXLOC ? a[i].v > b[i].v : a[i].v < b[i].v;   \
        if (better)                                                         \
            b[i] = a[i];                                                    \
        else if (a[i].v == b[i].v && a[i].i < b[i].i)                       \
            b[i].i = a[i].i;                                                \
    }                                                                       \
}

/* Complex: sum and product only. */
#define CPLX_FN(name, T)                                                    \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const T *a = in;                                                        \
    T *b = io;                                                              \
    MPI_Aint i;                                                             \
    switch (op) {                                                           \
    case O_SUM: for (i = 0; i < n; i++) b[i] = a[i] + b[i]; break;          \
    case O_PROD: for (i = 0; i < n; i++) b[i] = a[i] * b[i]; break;         \
    }                                                                       \
}

/* Logical (C's bool, Fortran's LOGICAL): any nonzero is true, results
 * are 1 or 0 (gfortran's .TRUE. and .FALSE.). */
#define LOG_FN(name, T)                                                     \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const T *a = in;                                                        \
    T *b = io;                                                              \
    MPI_Aint i;                                                             \
    switch (op) {                                                           \
    case O_LAND: for (i = 0; i < n; i++) b[i] = (T)(a[i] && b[i]); break;   \
    case O_LOR: for (i = 0; i < n; i++) b[i] = (T)(a[i] || b[i]); break;    \
    case O_LXOR: for (i = 0; i < n; i++) b[i] = (T)(!a[i] != !b[i]); break; \
    }                                                                       \
}

/* Fortran's pairs (MPI_2REAL...): value and index of one type. */
#define FPAIR_FN(name, T)                                                   \
static void name(int op, const void *in, void *io, MPI_Aint n)             \
{                                                                           \
    const T *a = in;                                                        \
    T *b = io;                                                              \
    for (MPI_Aint i = 0; i < 2 * n; i += 2) {                               \
        bool better = op == O_MAXLOC ? a[i] > b[i] : a[i] < b[i];           \
        if (better) {                                                       \
            b[i] = a[i];                                                    \
            b[i + 1] = a[i + 1];                                            \
        } else if (a[i] == b[i] && a[i + 1] < b[i + 1]) {                   \
            b[i + 1] = a[i + 1];                                            \
        }                                                                   \
    }                                                                       \
}

INT_FN(op_char, char)
INT_FN(op_short, short)
INT_FN(op_int, int)
INT_FN(op_long, long)
INT_FN(op_uchar, unsigned char)
INT_FN(op_ushort, unsigned short)
INT_FN(op_unsigned, unsigned)
INT_FN(op_ulong, unsigned long)
INT_FN(op_llong, long long)
INT_FN(op_ullong, unsigned long long)
INT_FN(op_schar, signed char)
INT_FN(op_i8, int8_t)
INT_FN(op_i16, int16_t)
INT_FN(op_i32, int32_t)
INT_FN(op_i64, int64_t)
INT_FN(op_u8, uint8_t)
INT_FN(op_u16, uint16_t)
INT_FN(op_u32, uint32_t)
INT_FN(op_u64, uint64_t)
FLT_FN(op_float, float)
FLT_FN(op_double, double)
FLT_FN(op_ldouble, long double)
FLT_FN(op_quad, __float128)
INT_FN(op_i128, __int128)
CPLX_FN(op_fcomplex, float _Complex)
CPLX_FN(op_dcomplex, double _Complex)
CPLX_FN(op_ldcomplex, long double _Complex)
CPLX_FN(op_qcomplex, quad_complex)
LOG_FN(op_bool, _Bool)
LOG_FN(op_logical, int32_t)
FPAIR_FN(op_2real, float)
FPAIR_FN(op_2dprec, double)
FPAIR_FN(op_2integer, int32_t)
PAIR_FN(op_fi, float)
PAIR_FN(op_di, double)
PAIR_FN(op_li, long)
PAIR_FN(op_ii, int)
PAIR_FN(op_si, short)
PAIR_FN(op_ldi, long double)

typedef void basic_fn(int op, const void *in, void *io, MPI_Aint n);

static basic_fn *const fns[B_NBUILTIN] = {
    [B_CHAR] = op_char, [B_SHORT] = op_short, [B_INT] = op_int,
    [B_LONG] = op_long, [B_UCHAR] = op_uchar, [B_USHORT] = op_ushort,
    [B_UNSIGNED] = op_unsigned, [B_ULONG] = op_ulong, [B_FLOAT] = op_float,
    [B_DOUBLE] = op_double, [B_LDOUBLE] = op_ldouble, [B_BYTE] = op_uchar,
    [B_LLONG] = op_llong, [B_ULLONG] = op_ullong, [B_SCHAR] = op_schar,
    [B_I8] = op_i8, [B_I16] = op_i16, [B_I32] = op_i32, [B_I64] = op_i64,
    [B_U8] = op_u8, [B_U16] = op_u16, [B_U32] = op_u32, [B_U64] = op_u64,
    [B_FLOAT_INT] = op_fi, [B_DOUBLE_INT] = op_di, [B_LONG_INT] = op_li,
    [B_2INT] = op_ii, [B_SHORT_INT] = op_si, [B_LDOUBLE_INT] = op_ldi,
    [B_C_BOOL] = op_bool, [B_CXX_BOOL] = op_bool,
    [B_C_FCOMPLEX] = op_fcomplex, [B_CXX_FCOMPLEX] = op_fcomplex,
    [B_COMPLEX] = op_fcomplex, [B_COMPLEX8] = op_fcomplex,
    [B_C_DCOMPLEX] = op_dcomplex, [B_CXX_DCOMPLEX] = op_dcomplex,
    [B_DCOMPLEX] = op_dcomplex, [B_COMPLEX16] = op_dcomplex,
    [B_C_LDCOMPLEX] = op_ldcomplex, [B_CXX_LDCOMPLEX] = op_ldcomplex,
    [B_COMPLEX32] = op_qcomplex, [B_AINT] = op_long, [B_OFFSET] = op_i64,
    [B_COUNT] = op_i64, [B_INTEGER] = op_i32, [B_REAL] = op_float,
    [B_DPREC] = op_double, [B_LOGICAL] = op_logical,
    [B_INTEGER1] = op_i8, [B_INTEGER2] = op_i16, [B_INTEGER4] = op_i32,
    [B_INTEGER8] = op_i64, [B_INTEGER16] = op_i128, [B_REAL4] = op_float,
    [B_REAL8] = op_double, [B_REAL16] = op_quad, [B_2REAL] = op_2real,
    [B_2DPREC] = op_2dprec, [B_2INTEGER] = op_2integer,
};

/* inout = in, item by item, through the packed form. */
static int replace(const void *in, void *inout, int count, MPI_Datatype dt)
{
    size_t n = (size_t)count * (size_t)dt->size;
    void *p = malloc(n);

    if (p == NULL)
        return MPI_ERR_NO_MEM;
    dt_pack(in, count, dt, p);
    dt_unpack(p, n, inout, count, dt);
    free(p);
    return MPI_SUCCESS;
}

int op_apply(MPI_Op op, const void *in, void *inout, int count,
             MPI_Datatype dt)
{
    MPI_Aint ext = dt_extent(dt);

    if (!op->builtin) {
        op->fn((void *)in, inout, &count, &dt);
        return MPI_SUCCESS;
    }
    if (dt->size == 0 || count == 0 || op->which == O_NO_OP)
        return MPI_SUCCESS;
    if (op->which == O_REPLACE)
        return replace(in, inout, count, dt);
    if (dt->base < 0 || fns[dt->base] == NULL)
        return MPI_ERR_OP;
    if (dt->builtin) {
        fns[dt->base](op->which, in, inout, count);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < count; i++)
        for (int k = 0; k < dt->nruns; k++) {
            MPI_Aint off = i * ext + dt->runs[k].off;
            fns[dt->base](op->which, (const char *)in + off,
                          (char *)inout + off, dt->runs[k].count);
        }
    return MPI_SUCCESS;
}

int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    struct mpi_op_s *o;

    if (op != NULL)
        *op = MPI_OP_NULL;              /* if the call fails */
    if (fn == NULL || op == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create");
    if ((o = calloc(1, sizeof(*o))) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INTERN, "MPI_Op_create");
    o->fn = fn;
    o->commute = commute != 0;
    *op = o;
    return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op *op)
{
    if (op == NULL || *op == MPI_OP_NULL || (*op)->builtin)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free");
    free(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
    if (op == MPI_OP_NULL || commute == NULL)
        return mpi_err(MPI_COMM_WORLD, op ? MPI_ERR_ARG : MPI_ERR_OP,
                       "MPI_Op_commutative");
    *commute = op->commute;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Op_create)
PMPI(MPI_Op_free)
PMPI(MPI_Op_commutative)
