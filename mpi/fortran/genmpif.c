/* SPDX-License-Identifier: MIT */
/*
 * genmpif.c: write the Fortran constants from mpi.h's values and f2c.c's
 * handle table, so no constant is kept twice by hand.
 *   genmpif h     mpif.h: the constants, the sentinels' common blocks and
 *                 the EXTERNAL/DOUBLE PRECISION declarations
 *   genmpif mod   the same without those declarations (the mpi module
 *                 declares its procedures itself)
 * The lines fit both source forms: they start in column 7, end before
 * column 73, and comments start with ! in column 1.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fmpi.h"

static void param(const char *name, long v)
{
    printf("      INTEGER %s\n      PARAMETER (%s=%ld)\n", name, name, v);
}

#define C(x) param(#x, (long)(x));

static void errors(void)
{
    C(MPI_SUCCESS) C(MPI_ERR_BUFFER) C(MPI_ERR_COUNT) C(MPI_ERR_TYPE)
    C(MPI_ERR_TAG) C(MPI_ERR_COMM) C(MPI_ERR_RANK) C(MPI_ERR_REQUEST)
    C(MPI_ERR_ROOT) C(MPI_ERR_GROUP) C(MPI_ERR_OP) C(MPI_ERR_TOPOLOGY)
    C(MPI_ERR_DIMS) C(MPI_ERR_ARG) C(MPI_ERR_UNKNOWN) C(MPI_ERR_TRUNCATE)
    C(MPI_ERR_OTHER) C(MPI_ERR_INTERN) C(MPI_ERR_IN_STATUS)
    C(MPI_ERR_PENDING) C(MPI_ERR_KEYVAL) C(MPI_ERR_NO_MEM) C(MPI_ERR_INFO)
    C(MPI_ERR_NAME) C(MPI_ERR_WIN) C(MPI_ERR_FILE) C(MPI_ERR_LASTCODE)
}

static void others(void)
{
    C(MPI_VERSION) C(MPI_SUBVERSION)
    C(MPI_ANY_SOURCE) C(MPI_PROC_NULL) C(MPI_ROOT) C(MPI_ANY_TAG)
    C(MPI_UNDEFINED) C(MPI_KEYVAL_INVALID) C(MPI_BSEND_OVERHEAD)
    C(MPI_MAX_PROCESSOR_NAME) C(MPI_MAX_ERROR_STRING)
    C(MPI_MAX_OBJECT_NAME)
    C(MPI_TAG_UB) C(MPI_HOST) C(MPI_IO) C(MPI_WTIME_IS_GLOBAL)
    C(MPI_IDENT) C(MPI_CONGRUENT) C(MPI_SIMILAR) C(MPI_UNEQUAL)
    C(MPI_GRAPH) C(MPI_CART)
    C(MPI_THREAD_SINGLE) C(MPI_THREAD_FUNNELED) C(MPI_THREAD_SERIALIZED)
    C(MPI_THREAD_MULTIPLE)
    /* A status is C's MPI_Status word for word; its fields 1-based. */
    param("MPI_STATUS_SIZE", MPIF_STATUS_SIZE);
    param("MPI_SOURCE", offsetof(MPI_Status, MPI_SOURCE) / sizeof(MPI_Fint) + 1);
    param("MPI_TAG", offsetof(MPI_Status, MPI_TAG) / sizeof(MPI_Fint) + 1);
    param("MPI_ERROR", offsetof(MPI_Status, MPI_ERROR) / sizeof(MPI_Fint) + 1);
    /* gfortran's kinds are byte sizes */
    param("MPI_ADDRESS_KIND", sizeof(MPI_Aint));
    param("MPI_OFFSET_KIND", sizeof(MPI_Offset));
    param("MPI_INTEGER_KIND", sizeof(MPI_Fint));
}

static int handles(void)
{
    static const struct { const char *name; int kind; } nulls[] = {
        { "MPI_COMM_NULL", MPIF_COMM }, { "MPI_GROUP_NULL", MPIF_GROUP },
        { "MPI_DATATYPE_NULL", MPIF_TYPE }, { "MPI_OP_NULL", MPIF_OP },
        { "MPI_REQUEST_NULL", MPIF_REQ },
        { "MPI_ERRHANDLER_NULL", MPIF_ERRH }, { "MPI_INFO_NULL", MPIF_INFO },
        { "MPI_WIN_NULL", MPIF_WIN }, { "MPI_FILE_NULL", MPIF_FILE },
    };
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        param(nulls[i].name, mpif_index_of(nulls[i].kind, NULL));
    for (int i = 0; i < mpif_npredefs; i++) {
        const struct mpif_predef *d = &mpif_predefs[i];
        MPI_Fint f = mpif_predef_index(d->name);
        /* the table and the library agree, or the build stops here */
        if (f <= 0 || mpif_get(d->kind, f) == NULL ||
            (d->obj != NULL && mpif_get(d->kind, f) != d->obj)) {
            fprintf(stderr, "genmpif: %s: index %d does not name it\n",
                    d->name, f);
            return 1;
        }
        param(d->name, f);
    }
    return 0;
}

static void sentinels(void)
{
    puts("! MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE: the library\n"
         "! knows these variables by their addresses (mpi/fortran/f2c.c)\n"
         "      INTEGER MPI_BOTTOM, MPI_IN_PLACE\n"
         "      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)\n"
         "      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)\n"
         "      COMMON /MPI_FORTRAN_BOTTOM/ MPI_BOTTOM\n"
         "      COMMON /MPI_FORTRAN_IN_PLACE/ MPI_IN_PLACE\n"
         "      COMMON /MPI_FORTRAN_STATUS_IGNORE/ MPI_STATUS_IGNORE\n"
         "      COMMON /MPI_FORTRAN_STATUSES_IGNORE/ MPI_STATUSES_IGNORE\n"
         "      SAVE /MPI_FORTRAN_BOTTOM/, /MPI_FORTRAN_IN_PLACE/\n"
         "      SAVE /MPI_FORTRAN_STATUS_IGNORE/\n"
         "      SAVE /MPI_FORTRAN_STATUSES_IGNORE/");
}

int main(int argc, char **argv)
{
    int h = argc == 2 && strcmp(argv[1], "h") == 0;
    if (!h && !(argc == 2 && strcmp(argv[1], "mod") == 0)) {
        fprintf(stderr, "usage: genmpif h|mod\n");
        return 2;
    }
    puts("! Made by mpi/fortran/genmpif.c from mpi.h: do not edit.\n"
         "! The MPI-1.1 Fortran interface of the Q-Kernel MPI over Portals.");
    errors();
    others();
    if (handles() != 0)
        return 1;
    sentinels();
    if (h)
        puts("      EXTERNAL MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN\n"
             "      EXTERNAL MPI_DUP_FN\n"
             "      DOUBLE PRECISION MPI_WTIME, MPI_WTICK\n"
             "      DOUBLE PRECISION PMPI_WTIME, PMPI_WTICK\n"
             "      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK");
    return 0;
}
