/* SPDX-License-Identifier: MIT */
/*
 * fmpi.h: what the Fortran bindings share (f2c.c, fcallback.c and the
 * wrappers genwrap.py writes).  Fortran handles are INTEGER indices into a
 * table per kind of object (f2c.c); the sentinels MPI_BOTTOM, MPI_IN_PLACE
 * and MPI_STATUS(ES)_IGNORE are variables in common blocks that mpif.h
 * and the mpi module declare and this library defines, so a wrapper knows
 * them by their address.
 */
#ifndef FMPI_H
#define FMPI_H

#include "../names.h"
#include <stddef.h>
#include "mpi.h"

enum { MPIF_COMM, MPIF_GROUP, MPIF_TYPE, MPIF_OP, MPIF_REQ, MPIF_ERRH,
       MPIF_INFO, MPIF_WIN, MPIF_FILE, MPIF_MSG, MPIF_NKINDS };

/* The predefined handles, in index order per kind (f2c.c): genmpif.c
 * writes mpif.h's PARAMETERs from this table, so no index is kept twice. */
struct mpif_predef {
    const char *name;           /* the Fortran name */
    int kind;
    void *obj;                  /* the C handle */
};
extern const struct mpif_predef mpif_predefs[];
extern const int mpif_npredefs;

void *mpif_get(int kind, MPI_Fint f);           /* index -> C handle */
MPI_Fint mpif_put(int kind, void *obj);         /* C handle -> index */
MPI_Fint mpif_update(int kind, MPI_Fint old, void *now);
MPI_Fint mpif_index_of(int kind, void *obj);    /* -1 if it has none */
MPI_Fint mpif_predef_index(const char *name);

/* The sentinels' common blocks (gfortran names /MPI_FORTRAN_BOTTOM/
 * mpi_fortran_bottom_). */
#define MPIF_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[MPIF_STATUS_SIZE];
extern MPI_Fint mpi_fortran_statuses_ignore_[MPIF_STATUS_SIZE];
extern MPI_Fint mpi_fortran_errcodes_ignore_[1], mpi_fortran_unweighted_[1];
extern MPI_Fint mpi_fortran_weights_empty_[1];
extern char mpi_fortran_argv_null_[1], mpi_fortran_argvs_null_[1];

/* A Fortran choice buffer as the C library takes it. */
static inline void *mpif_buf(void *b)
{
    if (b == (void *)&mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (b == (void *)&mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return b;
}

/* A Fortran weights argument as C takes it (MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY: the sentinels). */
static inline int *mpif_weights(MPI_Fint *w)
{
    if (w == mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

/* The length of a Fortran call's per-rank arrays (the remote group's
 * for an intercommunicator), and of its per-neighbour ones (f2c.c). */
int mpif_comm_size(MPI_Fint comm);
int mpif_nbrs(MPI_Fint comm);

/* MPI_Comm_idup with the new communicator given to made() when the
 * request completes (mpi/comm_idup.c). */
int comm_idup_then(MPI_Comm comm, void (*made)(MPI_Comm c, void *arg),
                   void *arg, MPI_Request *req);

/* gfortran's LOGICAL: .TRUE. is 1, .FALSE. 0; any nonzero reads true. */
#define MPIF_TRUE 1
#define MPIF_FALSE 0

/* Copy a C string result into a blank-padded Fortran CHARACTER. */
void mpif_str_out(char *dst, size_t dstlen, const char *src, int srclen);
/* A Fortran CHARACTER argument as a C string (trailing blanks dropped);
 * free() the result. */
char *mpif_str_in(const char *src, size_t len);

#endif
