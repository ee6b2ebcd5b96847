/* SPDX-License-Identifier: MIT */
/*
 * dt_basic.c: the predefined datatypes (the basic types, the pairs for
 * MINLOC/MAXLOC, the MPI_LB/MPI_UB markers) and what every subsystem asks
 * of a datatype: is it live and committed, references, is the data one
 * contiguous range, would a NULL buffer reach address 0.  The type
 * constructors are datatype.c.
 */
#include <stdlib.h>
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
#define BT(name, idx, sz, ext, end) struct mpi_dt_s mpi_dt_##name##_ = { \
    .refs = 1, .builtin = true, .committed = true, .base = idx,            \
    .size = sz, .lb = 0, .ub = ext, .true_ub = end, .nelems = 1,           \
    .nruns = 1, .runs = &mpi_dt_##name##_.run1,                            \
    .run1 = { .off = 0, .count = 1, .base = idx } };
#define B(name, idx, T) BT(name, idx, sizeof(T), sizeof(T), sizeof(T))

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
BT(float_int, B_FLOAT_INT, PAIR(fi, float), sizeof(struct fi), PAIR_END(fi))
BT(double_int, B_DOUBLE_INT, PAIR(di, double), sizeof(struct di),
   PAIR_END(di))
BT(long_int, B_LONG_INT, PAIR(li, long), sizeof(struct li), PAIR_END(li))
BT(2int, B_2INT, PAIR(ii, int), sizeof(struct ii), PAIR_END(ii))
BT(short_int, B_SHORT_INT, PAIR(si, short), sizeof(struct si), PAIR_END(si))
BT(long_double_int, B_LDOUBLE_INT, PAIR(ldi, long double),
   sizeof(struct ldi), PAIR_END(ldi))
/* markers: no data, bounds only */
struct mpi_dt_s mpi_dt_ub_ = { .refs = 1, .builtin = true, .committed = true,
                               .base = -2, .ub_marked = true };
struct mpi_dt_s mpi_dt_lb_ = { .refs = 1, .builtin = true, .committed = true,
                               .base = -2, .lb_marked = true };

/* Basic type number -> its datatype. */
struct mpi_dt_s *const mpi_dt_table[B_NBUILTIN] = {
    &mpi_dt_char_, &mpi_dt_short_, &mpi_dt_int_, &mpi_dt_long_,
    &mpi_dt_unsigned_char_, &mpi_dt_unsigned_short_, &mpi_dt_unsigned_,
    &mpi_dt_unsigned_long_, &mpi_dt_float_, &mpi_dt_double_,
    &mpi_dt_long_double_, &mpi_dt_byte_, &mpi_dt_packed_,
    &mpi_dt_long_long_int_, &mpi_dt_unsigned_long_long_,
    &mpi_dt_signed_char_, &mpi_dt_int8_t_, &mpi_dt_int16_t_,
    &mpi_dt_int32_t_, &mpi_dt_int64_t_, &mpi_dt_uint8_t_, &mpi_dt_uint16_t_,
    &mpi_dt_uint32_t_, &mpi_dt_uint64_t_, &mpi_dt_float_int_,
    &mpi_dt_double_int_, &mpi_dt_long_int_, &mpi_dt_2int_,
    &mpi_dt_short_int_, &mpi_dt_long_double_int_, &mpi_dt_ub_, &mpi_dt_lb_,
};

size_t dt_basic_size(int base)
{
    return (size_t)mpi_dt_table[base]->size;
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
