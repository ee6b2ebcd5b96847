/* SPDX-License-Identifier: MIT */
/*
 * dt_basic.c: the predefined datatypes (the basic types, the pairs for
 * MINLOC/MAXLOC, the MPI_LB/MPI_UB markers) and what every subsystem asks
 * of a datatype: is it live and committed, references, is the data one
 * contiguous range, would a NULL buffer reach address 0.  The type
 * constructors are datatype.c.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <wchar.h>
#include "mpi_impl.h"

struct fi { float v; int i; };
struct di { double v; int i; };
struct li { long v; int i; };
struct ii { int v; int i; };
struct si { short v; int i; };
struct ldi { long double v; int i; };

#define PAIR(T, V) (sizeof(V) + sizeof(int))
/* A pair's data ends after its int (the struct may pad beyond). */
#define PAIR_END(T) (offsetof(struct T, i) + sizeof(int))
/* ne: its basic elements (MPI_Get_elements): 2 in a pair, value and
 * index (MPI-3.1 5.9.4: MPI_2INT is {MPI_INT, MPI_INT}), else 1 */
#define BT(name, idx, sz, ext, end, ne) struct mpi_dt_s mpi_dt_##name##_ = { \
    .refs = 1, .builtin = true, .committed = true, .base = idx,            \
    .size = sz, .lb = 0, .ub = ext, .true_ub = end, .nelems = ne,          \
    .nruns = 1, .runs = &mpi_dt_##name##_.run1,                            \
    .run1 = { .off = 0, .count = 1, .base = idx } };
#define B(name, idx, T) BT(name, idx, sizeof(T), sizeof(T), sizeof(T), 1)
#define B2(name, idx, T) BT(name, idx, sizeof(T), sizeof(T), sizeof(T), 2)

/* C */
B(char, B_CHAR, char) B(short, B_SHORT, short) B(int, B_INT, int)
B(long, B_LONG, long) B(unsigned_char, B_UCHAR, unsigned char)
B(unsigned_short, B_USHORT, unsigned short)
B(unsigned, B_UNSIGNED, unsigned) B(unsigned_long, B_ULONG, unsigned long)
B(float, B_FLOAT, float) B(double, B_DOUBLE, double)
B(long_double, B_LDOUBLE, long double) B(byte, B_BYTE, char)
B(packed, B_PACKED, char) B(long_long_int, B_LLONG, long long)
B(unsigned_long_long, B_ULLONG, unsigned long long)
B(signed_char, B_SCHAR, signed char)
B(int8_t, B_I8, int8_t) B(int16_t, B_I16, int16_t) B(int32_t, B_I32, int32_t)
B(int64_t, B_I64, int64_t) B(uint8_t, B_U8, uint8_t)
B(uint16_t, B_U16, uint16_t) B(uint32_t, B_U32, uint32_t)
B(uint64_t, B_U64, uint64_t)
B(wchar, B_WCHAR, wchar_t) B(c_bool, B_C_BOOL, _Bool)
B(c_float_complex, B_C_FCOMPLEX, float _Complex)
B(c_double_complex, B_C_DCOMPLEX, double _Complex)
B(c_long_double_complex, B_C_LDCOMPLEX, long double _Complex)
B(aint, B_AINT, MPI_Aint) B(offset, B_OFFSET, MPI_Offset)
B(count, B_COUNT, MPI_Count)
/* C++: bool is one byte, std::complex<T> is T[2] (as C's _Complex) */
B(cxx_bool, B_CXX_BOOL, _Bool)
B(cxx_float_complex, B_CXX_FCOMPLEX, float _Complex)
B(cxx_double_complex, B_CXX_DCOMPLEX, double _Complex)
B(cxx_long_double_complex, B_CXX_LDCOMPLEX, long double _Complex)
/* Fortran (gfortran): default INTEGER, REAL and LOGICAL are 4 bytes;
 * REAL(16) is IEEE quad, __float128 */
B(integer, B_INTEGER, int32_t) B(real, B_REAL, float)
B(double_precision, B_DPREC, double)
B(complex, B_COMPLEX, float _Complex)
B(double_complex, B_DCOMPLEX, double _Complex)
B(logical, B_LOGICAL, int32_t) B(character, B_CHARACTER, char)
B(integer1, B_INTEGER1, int8_t) B(integer2, B_INTEGER2, int16_t)
B(integer4, B_INTEGER4, int32_t) B(integer8, B_INTEGER8, int64_t)
B(integer16, B_INTEGER16, __int128)
B(real4, B_REAL4, float) B(real8, B_REAL8, double)
B(real16, B_REAL16, __float128)
B(complex8, B_COMPLEX8, float _Complex)
B(complex16, B_COMPLEX16, double _Complex)
B(complex32, B_COMPLEX32, quad_complex)
B2(2real, B_2REAL, float[2]) B2(2double_precision, B_2DPREC, double[2])
B2(2integer, B_2INTEGER, int32_t[2])
/* C's pairs for MINLOC/MAXLOC */
BT(float_int, B_FLOAT_INT, PAIR(fi, float), sizeof(struct fi), PAIR_END(fi),
   2)
BT(double_int, B_DOUBLE_INT, PAIR(di, double), sizeof(struct di),
   PAIR_END(di), 2)
BT(long_int, B_LONG_INT, PAIR(li, long), sizeof(struct li), PAIR_END(li), 2)
BT(2int, B_2INT, PAIR(ii, int), sizeof(struct ii), PAIR_END(ii), 2)
BT(short_int, B_SHORT_INT, PAIR(si, short), sizeof(struct si), PAIR_END(si),
   2)
BT(long_double_int, B_LDOUBLE_INT, PAIR(ldi, long double),
   sizeof(struct ldi), PAIR_END(ldi), 2)
/* markers: no data, bounds only */
struct mpi_dt_s mpi_dt_ub_ = { .refs = 1, .builtin = true, .committed = true,
                               .base = -2, .ub_marked = true };
struct mpi_dt_s mpi_dt_lb_ = { .refs = 1, .builtin = true, .committed = true,
                               .base = -2, .lb_marked = true };

/* Basic type number -> its datatype, name and class. */
#define E(b, name, str, cls) [b] = { &mpi_dt_##name##_, str, cls }
static const struct basic {
    struct mpi_dt_s *dt;
    const char *name;
    enum dt_class cls;
} basics[B_NBUILTIN] = {
    /* MPI_WCHAR and MPI_CHARACTER are text: no reduction takes them.
     * Nor, says the standard, MPI_CHAR: this library lets it be a C
     * integer, as it always did (and MPICH does), for the programs that
     * sum chars.  MPI_AINT, _OFFSET and _COUNT are in the standard's C
     * and Fortran integer groups both: every integer op */
    E(B_CHAR, char, "MPI_CHAR", DC_CINT),
    E(B_SHORT, short, "MPI_SHORT", DC_CINT),
    E(B_INT, int, "MPI_INT", DC_CINT),
    E(B_LONG, long, "MPI_LONG", DC_CINT),
    E(B_UCHAR, unsigned_char, "MPI_UNSIGNED_CHAR", DC_CINT),
    E(B_USHORT, unsigned_short, "MPI_UNSIGNED_SHORT", DC_CINT),
    E(B_UNSIGNED, unsigned, "MPI_UNSIGNED", DC_CINT),
    E(B_ULONG, unsigned_long, "MPI_UNSIGNED_LONG", DC_CINT),
    E(B_FLOAT, float, "MPI_FLOAT", DC_FLOAT),
    E(B_DOUBLE, double, "MPI_DOUBLE", DC_FLOAT),
    E(B_LDOUBLE, long_double, "MPI_LONG_DOUBLE", DC_FLOAT),
    E(B_BYTE, byte, "MPI_BYTE", DC_BYTE),
    E(B_PACKED, packed, "MPI_PACKED", DC_NONE),
    E(B_LLONG, long_long_int, "MPI_LONG_LONG_INT", DC_CINT),
    E(B_ULLONG, unsigned_long_long, "MPI_UNSIGNED_LONG_LONG", DC_CINT),
    E(B_SCHAR, signed_char, "MPI_SIGNED_CHAR", DC_CINT),
    E(B_I8, int8_t, "MPI_INT8_T", DC_CINT),
    E(B_I16, int16_t, "MPI_INT16_T", DC_CINT),
    E(B_I32, int32_t, "MPI_INT32_T", DC_CINT),
    E(B_I64, int64_t, "MPI_INT64_T", DC_CINT),
    E(B_U8, uint8_t, "MPI_UINT8_T", DC_CINT),
    E(B_U16, uint16_t, "MPI_UINT16_T", DC_CINT),
    E(B_U32, uint32_t, "MPI_UINT32_T", DC_CINT),
    E(B_U64, uint64_t, "MPI_UINT64_T", DC_CINT),
    E(B_WCHAR, wchar, "MPI_WCHAR", DC_NONE),
    E(B_C_BOOL, c_bool, "MPI_C_BOOL", DC_LOGICAL),
    E(B_C_FCOMPLEX, c_float_complex, "MPI_C_FLOAT_COMPLEX", DC_COMPLEX),
    E(B_C_DCOMPLEX, c_double_complex, "MPI_C_DOUBLE_COMPLEX", DC_COMPLEX),
    E(B_C_LDCOMPLEX, c_long_double_complex,
      "MPI_C_LONG_DOUBLE_COMPLEX", DC_COMPLEX),
    E(B_CXX_BOOL, cxx_bool, "MPI_CXX_BOOL", DC_LOGICAL),
    E(B_CXX_FCOMPLEX, cxx_float_complex, "MPI_CXX_FLOAT_COMPLEX", DC_COMPLEX),
    E(B_CXX_DCOMPLEX, cxx_double_complex,
      "MPI_CXX_DOUBLE_COMPLEX", DC_COMPLEX),
    E(B_CXX_LDCOMPLEX, cxx_long_double_complex,
      "MPI_CXX_LONG_DOUBLE_COMPLEX", DC_COMPLEX),
    E(B_AINT, aint, "MPI_AINT", DC_CINT),
    E(B_OFFSET, offset, "MPI_OFFSET", DC_CINT),
    E(B_COUNT, count, "MPI_COUNT", DC_CINT),
    E(B_INTEGER, integer, "MPI_INTEGER", DC_FINT),
    E(B_REAL, real, "MPI_REAL", DC_FLOAT),
    E(B_DPREC, double_precision, "MPI_DOUBLE_PRECISION", DC_FLOAT),
    E(B_COMPLEX, complex, "MPI_COMPLEX", DC_COMPLEX),
    E(B_DCOMPLEX, double_complex, "MPI_DOUBLE_COMPLEX", DC_COMPLEX),
    E(B_LOGICAL, logical, "MPI_LOGICAL", DC_LOGICAL),
    E(B_CHARACTER, character, "MPI_CHARACTER", DC_NONE),
    E(B_INTEGER1, integer1, "MPI_INTEGER1", DC_FINT),
    E(B_INTEGER2, integer2, "MPI_INTEGER2", DC_FINT),
    E(B_INTEGER4, integer4, "MPI_INTEGER4", DC_FINT),
    E(B_INTEGER8, integer8, "MPI_INTEGER8", DC_FINT),
    E(B_INTEGER16, integer16, "MPI_INTEGER16", DC_FINT),
    E(B_REAL4, real4, "MPI_REAL4", DC_FLOAT),
    E(B_REAL8, real8, "MPI_REAL8", DC_FLOAT),
    E(B_REAL16, real16, "MPI_REAL16", DC_FLOAT),
    E(B_COMPLEX8, complex8, "MPI_COMPLEX8", DC_COMPLEX),
    E(B_COMPLEX16, complex16, "MPI_COMPLEX16", DC_COMPLEX),
    E(B_COMPLEX32, complex32, "MPI_COMPLEX32", DC_COMPLEX),
    E(B_2REAL, 2real, "MPI_2REAL", DC_PAIR),
    E(B_2DPREC, 2double_precision, "MPI_2DOUBLE_PRECISION", DC_PAIR),
    E(B_2INTEGER, 2integer, "MPI_2INTEGER", DC_PAIR),
    E(B_FLOAT_INT, float_int, "MPI_FLOAT_INT", DC_PAIR),
    E(B_DOUBLE_INT, double_int, "MPI_DOUBLE_INT", DC_PAIR),
    E(B_LONG_INT, long_int, "MPI_LONG_INT", DC_PAIR),
    E(B_2INT, 2int, "MPI_2INT", DC_PAIR),
    E(B_SHORT_INT, short_int, "MPI_SHORT_INT", DC_PAIR),
    E(B_LDOUBLE_INT, long_double_int, "MPI_LONG_DOUBLE_INT", DC_PAIR),
    E(B_UB, ub, "MPI_UB", DC_NONE),
    E(B_LB, lb, "MPI_LB", DC_NONE),
};

MPI_Datatype dt_basic(int base)
{
    return basics[base].dt;
}

const char *dt_basic_name(int base)
{
    return basics[base].name;
}

enum dt_class dt_class_of(int base)
{
    return base >= 0 && base < B_NBUILTIN ? basics[base].cls : DC_NONE;
}

/* The alignment the C and Fortran compilers give a basic type, which
 * MPI_Type_create_struct pads an extent to (MPI-3.1 4.1.6): a complex
 * or a Fortran pair is aligned as its half, a C pair as its struct. */
size_t dt_basic_align(int base)
{
    size_t sz = (size_t)basics[base].dt->size;

    if (basics[base].cls == DC_COMPLEX || base == B_2REAL ||
        base == B_2DPREC || base == B_2INTEGER)
        sz /= 2;
    else if (dt_pair(base))
        sz = dt_pair_val(base) > sizeof(int) ? dt_pair_val(base)
                                              : sizeof(int);
    return sz < 16 ? sz : 16;
}

size_t dt_basic_size(int base)
{
    return (size_t)basics[base].dt->size;
}

/* A live datatype, committed or not (what constructors accept). */
int dt_check_any(MPI_Datatype dt)
{
    return dt == MPI_DATATYPE_NULL || dt->refs <= 0 ? MPI_ERR_TYPE
                                                    : MPI_SUCCESS;
}

int dt_check(MPI_Datatype dt)
{
    if (dt == MPI_DATATYPE_NULL || dt->refs <= 0)
        return MPI_ERR_TYPE;
    if (!dt->committed)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

void dt_retain(MPI_Datatype dt)
{
    if (!dt->builtin)
        dt->refs++;
}

void dt_release(MPI_Datatype dt)
{
    if (dt->builtin || --dt->refs > 0)
        return;
    dt_forget(dt);
    free(dt->runs);
    free(dt);
}

/* Is count items of dt one contiguous byte range?  *off is where it
 * starts relative to the buffer. */
bool dt_contig(const struct mpi_dt_s *dt, int count, MPI_Aint *off)
{
    *off = 0;
    if (count == 0 || dt->size == 0)
        return true;
    if (dt->nruns != 1 || dt->runs[0].base >= B_FLOAT_INT)
        return false;
    *off = dt->runs[0].off;
    return count == 1 || dt_extent(dt) == dt->size;
}

/* Would count items of dt at buf reach into the first page?  A NULL
 * buffer is MPI_BOTTOM: right only with absolute addresses in dt. */
bool dt_null_buffer(const void *buf, int count, MPI_Datatype dt)
{
    MPI_Aint span = (MPI_Aint)(count - 1) * dt_extent(dt);

    if (buf != NULL || count == 0 || dt->size == 0)
        return false;
    return dt->true_lb + (span < 0 ? span : 0) < 4096;
}
