/* SPDX-License-Identifier: MIT */
/*
 * dt_f90.c: the Fortran 90 parameterized types (MPI-3.1 17.1.9):
 * MPI_Type_create_f90_real/_complex/_integer give the type of
 * SELECTED_REAL_KIND(p, r) (or _INT_KIND(r)) as gfortran picks it: REAL
 * kinds 4, 8, 10 (x87's, stored in 16 bytes: MPI_LONG_DOUBLE's layout)
 * and 16 (IEEE quad); INTEGER kinds 1, 2, 4, 8, 16.  Each is a
 * predefined type (never freed) whose envelope says MPI_COMBINER_F90_*
 * with the (p, r) asked for; the same arguments give the same handle.
 * MPI_Type_match_size gives the named type of a class and size.
 */
#include <stdlib.h>
#include "mpi_impl.h"

struct f90 {
    struct f90 *next;
    int comb, p, r;
    MPI_Datatype dt;
};
static struct f90 *made;

/* The kind's basic type: the smallest whose precision and range hold
 * p digits and 10^r; MPI_DATATYPE_NULL if none does. */
static MPI_Datatype real_kind(int p, int r, bool complex)
{
    static const struct { int p, r; MPI_Datatype re, cx; } kinds[] = {
        { 6, 37, MPI_REAL4, MPI_COMPLEX8 },
        { 15, 307, MPI_REAL8, MPI_COMPLEX16 },
        { 18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX },
        { 33, 4931, MPI_REAL16, MPI_COMPLEX32 },
    };
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if ((p == MPI_UNDEFINED || p <= kinds[i].p) &&
            (r == MPI_UNDEFINED || r <= kinds[i].r))
            return complex ? kinds[i].cx : kinds[i].re;
    return MPI_DATATYPE_NULL;
}

static MPI_Datatype int_kind(int r)
{
    static const struct { int r; MPI_Datatype t; } kinds[] = {
        { 2, MPI_INTEGER1 }, { 4, MPI_INTEGER2 }, { 9, MPI_INTEGER4 },
        { 18, MPI_INTEGER8 }, { 38, MPI_INTEGER16 },
    };
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (r <= kinds[i].r)
            return kinds[i].t;
    return MPI_DATATYPE_NULL;
}

/* The predefined type for (comb, p, r), made the first time. */
static int f90_type(int comb, int p, int r, MPI_Datatype basic,
                    MPI_Datatype *out)
{
    MPI_Aint zero = 0;
    int one = 1, pr[2] = { p, r }, rc;
    struct f90 *f;
    struct rec rec;

    for (f = made; f != NULL; f = f->next)
        if (f->comb == comb && f->p == p && f->r == r) {
            *out = f->dt;
            return MPI_SUCCESS;
        }
    if ((f = malloc(sizeof(*f))) == NULL)
        return MPI_ERR_NO_MEM;
    rc = dt_build(1, &one, &zero, basic, out);
    rec_init(&rec, comb);
    if (comb == MPI_COMBINER_F90_INTEGER)
        rec_ints(&rec, &r, 1);
    else
        rec_ints(&rec, pr, 2);
    if ((rc = rec_keep(rc, out, &rec)) != MPI_SUCCESS) {
        free(f);
        return rc;
    }
    (*out)->committed = true;
    (*out)->builtin = true;     /* predefined: never freed */
    *f = (struct f90){ made, comb, p, r, *out };
    made = f;
    return MPI_SUCCESS;
}

static int f90_call(int comb, int p, int r, MPI_Datatype basic,
                    MPI_Datatype *out, const char *name)
{
    int rc = out == NULL ? MPI_ERR_ARG : MPI_SUCCESS;

    if (out != NULL)
        *out = MPI_DATATYPE_NULL;
    if (rc == MPI_SUCCESS && basic == MPI_DATATYPE_NULL)
        rc = MPI_ERR_ARG;       /* no kind has that precision or range */
    if (rc == MPI_SUCCESS)
        rc = f90_type(comb, p, r, basic, out);
    return rc ? mpi_err(MPI_COMM_WORLD, rc, name) : MPI_SUCCESS;
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newt)
{
    return f90_call(MPI_COMBINER_F90_REAL, p, r, real_kind(p, r, false),
                    newt, "MPI_Type_create_f90_real");
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newt)
{
    return f90_call(MPI_COMBINER_F90_COMPLEX, p, r, real_kind(p, r, true),
                    newt, "MPI_Type_create_f90_complex");
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype *newt)
{
    return f90_call(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                    int_kind(r), newt, "MPI_Type_create_f90_integer");
}

/* The named type of a class and a size in bytes (MPI_TYPECLASS_*). */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *dt)
{
    static const struct { int cls, size; MPI_Datatype t; } named[] = {
        { MPI_TYPECLASS_REAL, 4, MPI_REAL4 },
        { MPI_TYPECLASS_REAL, 8, MPI_REAL8 },
        { MPI_TYPECLASS_REAL, 16, MPI_REAL16 },
        { MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1 },
        { MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2 },
        { MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4 },
        { MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8 },
        { MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16 },
        { MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8 },
        { MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16 },
        { MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32 },
    };

    if (dt == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size");
    *dt = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
        if (named[i].cls == typeclass && named[i].size == size) {
            *dt = named[i].t;
            return MPI_SUCCESS;
        }
    return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Type_create_f90_real)
PMPI(MPI_Type_create_f90_complex)
PMPI(MPI_Type_create_f90_integer)
PMPI(MPI_Type_match_size)
