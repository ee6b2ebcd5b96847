/* SPDX-License-Identifier: MIT */
/*
 * external.c: MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size (MPI-3.1 4.2): data in "external32", the
 * representation every MPI reads alike (13.5.2): big-endian, IEEE
 * floating point, the sizes of its Table 13.2 (MPI_LONG and
 * MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE an IEEE quad
 * of 16).  A value that does not fit its external size (a long past 32
 * bits, a wide character past 16) is MPI_ERR_CONVERSION.
 *
 * The data is packed natively first (pack.c: typemap order), then each
 * basic element converted field by field: a complex or a Fortran pair
 * is two fields, a C pair (MPI_DOUBLE_INT...) its value and its int.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

enum { F_BYTES, F_SINT, F_UINT, F_FLOAT, F_LDOUBLE };

struct field {
    unsigned char kind, native, ext;    /* sizes in bytes */
};

struct ext {
    struct field f[2];          /* f[1].native 0: one field */
};

#define ONE(k, n, e) { { { k, n, e }, { 0, 0, 0 } } }
#define TWO(k, n, e) { { { k, n, e }, { k, n, e } } }
#define PAIR(k, n, e) { { { k, n, e }, { F_SINT, 4, 4 } } }

static const struct ext exts[B_NBUILTIN] = {
    [B_CHAR] = ONE(F_BYTES, 1, 1), [B_SHORT] = ONE(F_SINT, 2, 2),
    [B_INT] = ONE(F_SINT, 4, 4), [B_LONG] = ONE(F_SINT, 8, 4),
    [B_UCHAR] = ONE(F_UINT, 1, 1), [B_USHORT] = ONE(F_UINT, 2, 2),
    [B_UNSIGNED] = ONE(F_UINT, 4, 4), [B_ULONG] = ONE(F_UINT, 8, 4),
    [B_FLOAT] = ONE(F_FLOAT, 4, 4), [B_DOUBLE] = ONE(F_FLOAT, 8, 8),
    [B_LDOUBLE] = ONE(F_LDOUBLE, 16, 16), [B_BYTE] = ONE(F_BYTES, 1, 1),
    [B_PACKED] = ONE(F_BYTES, 1, 1), [B_LLONG] = ONE(F_SINT, 8, 8),
    [B_ULLONG] = ONE(F_UINT, 8, 8), [B_SCHAR] = ONE(F_SINT, 1, 1),
    [B_I8] = ONE(F_SINT, 1, 1), [B_I16] = ONE(F_SINT, 2, 2),
    [B_I32] = ONE(F_SINT, 4, 4), [B_I64] = ONE(F_SINT, 8, 8),
    [B_U8] = ONE(F_UINT, 1, 1), [B_U16] = ONE(F_UINT, 2, 2),
    [B_U32] = ONE(F_UINT, 4, 4), [B_U64] = ONE(F_UINT, 8, 8),
    [B_WCHAR] = ONE(F_UINT, 4, 2), [B_C_BOOL] = ONE(F_BYTES, 1, 1),
    [B_C_FCOMPLEX] = TWO(F_FLOAT, 4, 4), [B_C_DCOMPLEX] = TWO(F_FLOAT, 8, 8),
    [B_C_LDCOMPLEX] = TWO(F_LDOUBLE, 16, 16),
    [B_CXX_BOOL] = ONE(F_BYTES, 1, 1),
    [B_CXX_FCOMPLEX] = TWO(F_FLOAT, 4, 4),
    [B_CXX_DCOMPLEX] = TWO(F_FLOAT, 8, 8),
    [B_CXX_LDCOMPLEX] = TWO(F_LDOUBLE, 16, 16),
    [B_AINT] = ONE(F_SINT, 8, 8), [B_OFFSET] = ONE(F_SINT, 8, 8),
    [B_COUNT] = ONE(F_SINT, 8, 8), [B_INTEGER] = ONE(F_SINT, 4, 4),
    [B_REAL] = ONE(F_FLOAT, 4, 4), [B_DPREC] = ONE(F_FLOAT, 8, 8),
    [B_COMPLEX] = TWO(F_FLOAT, 4, 4), [B_DCOMPLEX] = TWO(F_FLOAT, 8, 8),
    [B_LOGICAL] = ONE(F_SINT, 4, 4), [B_CHARACTER] = ONE(F_BYTES, 1, 1),
    [B_INTEGER1] = ONE(F_SINT, 1, 1), [B_INTEGER2] = ONE(F_SINT, 2, 2),
    [B_INTEGER4] = ONE(F_SINT, 4, 4), [B_INTEGER8] = ONE(F_SINT, 8, 8),
    [B_INTEGER16] = ONE(F_SINT, 16, 16), [B_REAL4] = ONE(F_FLOAT, 4, 4),
    [B_REAL8] = ONE(F_FLOAT, 8, 8), [B_REAL16] = ONE(F_FLOAT, 16, 16),
    [B_COMPLEX8] = TWO(F_FLOAT, 4, 4), [B_COMPLEX16] = TWO(F_FLOAT, 8, 8),
    [B_COMPLEX32] = TWO(F_FLOAT, 16, 16), [B_2REAL] = TWO(F_FLOAT, 4, 4),
    [B_2DPREC] = TWO(F_FLOAT, 8, 8), [B_2INTEGER] = TWO(F_SINT, 4, 4),
    [B_FLOAT_INT] = PAIR(F_FLOAT, 4, 4), [B_DOUBLE_INT] = PAIR(F_FLOAT, 8, 8),
    [B_LONG_INT] = PAIR(F_SINT, 8, 4), [B_2INT] = PAIR(F_SINT, 4, 4),
    [B_SHORT_INT] = PAIR(F_SINT, 2, 2),
    [B_LDOUBLE_INT] = PAIR(F_LDOUBLE, 16, 16),
};

static size_t ext_size(int base)
{
    return (size_t)exts[base].f[0].ext + exts[base].f[1].ext;
}

/* The external32 bytes of count items of dt. */
static size_t dt_ext_size(MPI_Datatype dt, int count)
{
    size_t n = 0;

    for (int k = 0; k < dt->nruns; k++)
        n += (size_t)dt->runs[k].count * ext_size(dt->runs[k].base);
    return n * (size_t)count;
}

/* ---- one field: little-endian native <-> big-endian external ---- */

static void reverse(unsigned char *d, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = s[n - 1 - i];
}

/* A native integer of n bytes into m < n: it must fit. */
static int narrow(unsigned char *out, const unsigned char *in,
                  const struct field *f)
{
    int64_t v = 0;
    uint64_t u = 0;

    memcpy(f->kind == F_SINT ? (void *)&v : (void *)&u, in, f->native);
    if (f->kind == F_SINT ? v < -((int64_t)1 << (8 * f->ext - 1)) ||
                            v >= (int64_t)1 << (8 * f->ext - 1)
                          : u >= (uint64_t)1 << (8 * f->ext))
        return MPI_ERR_CONVERSION;
    reverse(out, in, f->ext);           /* the low bytes, big-endian */
    return MPI_SUCCESS;
}

/* ... and back, sign- or zero-extended. */
static void widen(unsigned char *out, const unsigned char *in,
                  const struct field *f)
{
    unsigned char fill = 0;

    reverse(out, in, f->ext);
    if (f->kind == F_SINT && (in[0] & 0x80))
        fill = 0xff;
    memset(out + f->ext, fill, (size_t)(f->native - f->ext));
}

static int to_ext(unsigned char *out, const unsigned char *in,
                  const struct field *f)
{
    long double ld;
    __float128 q;

    switch (f->kind) {
    case F_BYTES:
        memcpy(out, in, f->ext);
        return MPI_SUCCESS;
    case F_LDOUBLE:             /* x87's 80 bits to an IEEE quad */
        memcpy(&ld, in, sizeof(ld));
        q = (__float128)ld;
        reverse(out, (const unsigned char *)&q, 16);
        return MPI_SUCCESS;
    default:
        if (f->native > f->ext)
            return narrow(out, in, f);
        reverse(out, in, f->ext);
        return MPI_SUCCESS;
    }
}

static void from_ext(unsigned char *out, const unsigned char *in,
                     const struct field *f)
{
    long double ld;
    __float128 q;

    switch (f->kind) {
    case F_BYTES:
        memcpy(out, in, f->ext);
        break;
    case F_LDOUBLE:
        reverse((unsigned char *)&q, in, 16);
        ld = (long double)q;
        memcpy(out, &ld, f->native);
        break;
    default:
        if (f->native > f->ext)
            widen(out, in, f);
        else
            reverse(out, in, f->ext);
    }
}

/* Convert count items of dt between the native packed stream and the
 * external one (to_external: native -> external). */
static int convert(MPI_Datatype dt, int count, unsigned char *native,
                   unsigned char *ext, bool to_external)
{
    int rc = MPI_SUCCESS;

    for (int i = 0; i < count; i++)
        for (int k = 0; k < dt->nruns; k++)
            for (MPI_Aint e = 0; e < dt->runs[k].count; e++)
                for (int j = 0; j < 2; j++) {
                    const struct field *f = &exts[dt->runs[k].base].f[j];
                    if (f->native == 0)
                        break;
                    if (to_external)
                        rc = rc ? rc : to_ext(ext, native, f);
                    else
                        from_ext(native, ext, f);
                    native += f->native;
                    ext += f->ext;
                }
    return rc;
}

/* ---- the calls ---- */

static int datarep_ok(const char *datarep)
{
    if (datarep == NULL)
        return MPI_ERR_ARG;
    return strcmp(datarep, "external32") == 0 ? MPI_SUCCESS
                                              : MPI_ERR_UNSUPPORTED_DATAREP;
}

int MPI_Pack_external_size(const char *datarep, int incount,
                           MPI_Datatype dt, MPI_Aint *size)
{
    int rc = datarep_ok(datarep);

    if (rc == MPI_SUCCESS)
        rc = dt_check(dt);
    if (rc == MPI_SUCCESS && (incount < 0 || size == NULL))
        rc = incount < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Pack_external_size");
    *size = (MPI_Aint)dt_ext_size(dt, incount);
    return MPI_SUCCESS;
}

int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                      MPI_Datatype dt, void *outbuf, MPI_Aint outsize,
                      MPI_Aint *position)
{
    int rc = datarep_ok(datarep);
    size_t n = 0, ext = 0;
    unsigned char *tmp = NULL;

    if (rc == MPI_SUCCESS)
        rc = buf_check(inbuf, incount, dt);
    if (rc == MPI_SUCCESS && position == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS) {
        n = (size_t)incount * (size_t)dt->size;
        ext = dt_ext_size(dt, incount);
        if (*position < 0 || (size_t)*position + ext > (size_t)outsize)
            rc = MPI_ERR_TRUNCATE;
    }
    if (rc == MPI_SUCCESS && (tmp = malloc(n + 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        dt_pack(inbuf, incount, dt, tmp);
        rc = convert(dt, incount, tmp, (unsigned char *)outbuf + *position,
                     true);
    }
    free(tmp);
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Pack_external");
    *position += (MPI_Aint)ext;
    return MPI_SUCCESS;
}

int MPI_Unpack_external(const char *datarep, const void *inbuf,
                        MPI_Aint insize, MPI_Aint *position, void *outbuf,
                        int outcount, MPI_Datatype dt)
{
    int rc = datarep_ok(datarep);
    size_t n = 0, ext = 0;
    unsigned char *tmp = NULL;

    if (rc == MPI_SUCCESS)
        rc = buf_check(outbuf, outcount, dt);
    if (rc == MPI_SUCCESS && position == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS) {
        n = (size_t)outcount * (size_t)dt->size;
        ext = dt_ext_size(dt, outcount);
        if (*position < 0 || (size_t)*position + ext > (size_t)insize)
            rc = MPI_ERR_TRUNCATE;
    }
    if (rc == MPI_SUCCESS && (tmp = malloc(n + 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        convert(dt, outcount, tmp,
                (unsigned char *)inbuf + *position, false);
        dt_unpack(tmp, n, outbuf, outcount, dt);
    }
    free(tmp);
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Unpack_external");
    *position += (MPI_Aint)ext;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Pack_external_size)
PMPI(MPI_Pack_external)
PMPI(MPI_Unpack_external)
