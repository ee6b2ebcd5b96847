/* SPDX-License-Identifier: MIT */
/*
 * genmpif.c: write the Fortran constants from mpi.h's values and f2c.c's
 * handle table, so no constant is kept twice by hand.
 *   genmpif h     mpif.h: the constants, the sentinels' common blocks and
 *                 the EXTERNAL and typed function declarations
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
    C(MPI_ERR_PENDING) C(MPI_ERR_KEYVAL) C(MPI_ERR_ACCESS) C(MPI_ERR_AMODE)
    C(MPI_ERR_ASSERT) C(MPI_ERR_BAD_FILE) C(MPI_ERR_BASE)
    C(MPI_ERR_CONVERSION) C(MPI_ERR_DISP) C(MPI_ERR_DUP_DATAREP)
    C(MPI_ERR_FILE_EXISTS) C(MPI_ERR_FILE_IN_USE) C(MPI_ERR_FILE)
    C(MPI_ERR_INFO_KEY) C(MPI_ERR_INFO_NOKEY) C(MPI_ERR_INFO_VALUE)
    C(MPI_ERR_INFO) C(MPI_ERR_IO) C(MPI_ERR_LOCKTYPE) C(MPI_ERR_NAME)
    C(MPI_ERR_NO_MEM) C(MPI_ERR_NOT_SAME) C(MPI_ERR_NO_SPACE)
    C(MPI_ERR_NO_SUCH_FILE) C(MPI_ERR_PORT) C(MPI_ERR_QUOTA)
    C(MPI_ERR_READ_ONLY) C(MPI_ERR_RMA_ATTACH) C(MPI_ERR_RMA_CONFLICT)
    C(MPI_ERR_RMA_RANGE) C(MPI_ERR_RMA_SHARED) C(MPI_ERR_RMA_SYNC)
    C(MPI_ERR_RMA_FLAVOR) C(MPI_ERR_SERVICE) C(MPI_ERR_SIZE)
    C(MPI_ERR_SPAWN) C(MPI_ERR_UNSUPPORTED_DATAREP)
    C(MPI_ERR_UNSUPPORTED_OPERATION) C(MPI_ERR_WIN)
    C(MPI_T_ERR_CANNOT_INIT) C(MPI_T_ERR_NOT_INITIALIZED)
    C(MPI_T_ERR_MEMORY) C(MPI_T_ERR_INVALID) C(MPI_T_ERR_INVALID_INDEX)
    C(MPI_T_ERR_INVALID_ITEM) C(MPI_T_ERR_INVALID_SESSION)
    C(MPI_T_ERR_INVALID_HANDLE) C(MPI_T_ERR_INVALID_NAME)
    C(MPI_T_ERR_OUT_OF_HANDLES) C(MPI_T_ERR_OUT_OF_SESSIONS)
    C(MPI_T_ERR_CVAR_SET_NOT_NOW) C(MPI_T_ERR_CVAR_SET_NEVER)
    C(MPI_T_ERR_PVAR_NO_WRITE) C(MPI_T_ERR_PVAR_NO_STARTSTOP)
    C(MPI_T_ERR_PVAR_NO_ATOMIC) C(MPI_ERR_LASTCODE)
}

static void others(void)
{
    C(MPI_VERSION) C(MPI_SUBVERSION)
    C(MPI_ANY_SOURCE) C(MPI_PROC_NULL) C(MPI_ROOT) C(MPI_ANY_TAG)
    C(MPI_UNDEFINED) C(MPI_KEYVAL_INVALID) C(MPI_BSEND_OVERHEAD)
    C(MPI_LOCK_EXCLUSIVE) C(MPI_LOCK_SHARED)
    C(MPI_MAX_PROCESSOR_NAME) C(MPI_MAX_ERROR_STRING)
    C(MPI_MAX_OBJECT_NAME) C(MPI_MAX_DATAREP_STRING) C(MPI_MAX_INFO_KEY)
    C(MPI_MAX_INFO_VAL) C(MPI_MAX_LIBRARY_VERSION_STRING)
    C(MPI_MAX_PORT_NAME)
    C(MPI_TAG_UB) C(MPI_HOST) C(MPI_IO) C(MPI_WTIME_IS_GLOBAL)
    C(MPI_LASTUSEDCODE) C(MPI_UNIVERSE_SIZE) C(MPI_APPNUM)
    C(MPI_WIN_BASE) C(MPI_WIN_SIZE) C(MPI_WIN_DISP_UNIT)
    C(MPI_WIN_CREATE_FLAVOR) C(MPI_WIN_MODEL)
    C(MPI_WIN_FLAVOR_CREATE) C(MPI_WIN_FLAVOR_ALLOCATE)
    C(MPI_WIN_FLAVOR_DYNAMIC) C(MPI_WIN_FLAVOR_SHARED)
    C(MPI_WIN_SEPARATE) C(MPI_WIN_UNIFIED)
    C(MPI_IDENT) C(MPI_CONGRUENT) C(MPI_SIMILAR) C(MPI_UNEQUAL)
    C(MPI_GRAPH) C(MPI_CART) C(MPI_DIST_GRAPH) C(MPI_COMM_TYPE_SHARED)
    C(MPI_THREAD_SINGLE) C(MPI_THREAD_FUNNELED) C(MPI_THREAD_SERIALIZED)
    C(MPI_THREAD_MULTIPLE)
    C(MPI_MODE_APPEND) C(MPI_MODE_CREATE) C(MPI_MODE_DELETE_ON_CLOSE)
    C(MPI_MODE_EXCL) C(MPI_MODE_NOCHECK) C(MPI_MODE_NOPRECEDE)
    C(MPI_MODE_NOPUT) C(MPI_MODE_NOSTORE) C(MPI_MODE_NOSUCCEED)
    C(MPI_MODE_RDONLY) C(MPI_MODE_RDWR) C(MPI_MODE_SEQUENTIAL)
    C(MPI_MODE_UNIQUE_OPEN) C(MPI_MODE_WRONLY)
    C(MPI_COMBINER_NAMED) C(MPI_COMBINER_DUP) C(MPI_COMBINER_CONTIGUOUS)
    C(MPI_COMBINER_VECTOR) C(MPI_COMBINER_HVECTOR_INTEGER)
    C(MPI_COMBINER_HVECTOR) C(MPI_COMBINER_INDEXED)
    C(MPI_COMBINER_HINDEXED_INTEGER) C(MPI_COMBINER_HINDEXED)
    C(MPI_COMBINER_INDEXED_BLOCK) C(MPI_COMBINER_HINDEXED_BLOCK)
    C(MPI_COMBINER_STRUCT_INTEGER) C(MPI_COMBINER_STRUCT)
    C(MPI_COMBINER_SUBARRAY) C(MPI_COMBINER_DARRAY)
    C(MPI_COMBINER_F90_REAL) C(MPI_COMBINER_F90_COMPLEX)
    C(MPI_COMBINER_F90_INTEGER) C(MPI_COMBINER_RESIZED)
    C(MPI_DISTRIBUTE_BLOCK) C(MPI_DISTRIBUTE_CYCLIC)
    C(MPI_DISTRIBUTE_NONE) C(MPI_DISTRIBUTE_DFLT_DARG)
    C(MPI_ORDER_C) C(MPI_ORDER_FORTRAN)
    C(MPI_SEEK_SET) C(MPI_SEEK_CUR) C(MPI_SEEK_END)
    C(MPI_TYPECLASS_REAL) C(MPI_TYPECLASS_INTEGER) C(MPI_TYPECLASS_COMPLEX)
    /* A status is C's MPI_Status word for word; its fields 1-based. */
    param("MPI_STATUS_SIZE", MPIF_STATUS_SIZE);
    param("MPI_SOURCE", offsetof(MPI_Status, MPI_SOURCE) / sizeof(MPI_Fint) + 1);
    param("MPI_TAG", offsetof(MPI_Status, MPI_TAG) / sizeof(MPI_Fint) + 1);
    param("MPI_ERROR", offsetof(MPI_Status, MPI_ERROR) / sizeof(MPI_Fint) + 1);
    /* gfortran's kinds are byte sizes */
    param("MPI_ADDRESS_KIND", sizeof(MPI_Aint));
    param("MPI_OFFSET_KIND", sizeof(MPI_Offset));
    param("MPI_COUNT_KIND", sizeof(MPI_Count));
    param("MPI_INTEGER_KIND", sizeof(MPI_Fint));
    printf("      INTEGER*%zu MPI_DISPLACEMENT_CURRENT\n"
           "      PARAMETER (MPI_DISPLACEMENT_CURRENT=%ld)\n",
           sizeof(MPI_Offset), (long)MPI_DISPLACEMENT_CURRENT);
    /* no Fortran 2008 subarrays or ASYNCHRONOUS guarantees (mpi_f08's) */
    puts("      LOGICAL MPI_SUBARRAYS_SUPPORTED\n"
         "      PARAMETER (MPI_SUBARRAYS_SUPPORTED=.FALSE.)\n"
         "      LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING\n"
         "      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)");
}

static int handles(void)
{
    static const struct { const char *name; int kind; } nulls[] = {
        { "MPI_COMM_NULL", MPIF_COMM }, { "MPI_GROUP_NULL", MPIF_GROUP },
        { "MPI_DATATYPE_NULL", MPIF_TYPE }, { "MPI_OP_NULL", MPIF_OP },
        { "MPI_REQUEST_NULL", MPIF_REQ },
        { "MPI_ERRHANDLER_NULL", MPIF_ERRH }, { "MPI_INFO_NULL", MPIF_INFO },
        { "MPI_WIN_NULL", MPIF_WIN }, { "MPI_FILE_NULL", MPIF_FILE },
        { "MPI_MESSAGE_NULL", MPIF_MSG },
        /* optional types gfortran has no kind for */
        { "MPI_REAL2", MPIF_TYPE }, { "MPI_COMPLEX4", MPIF_TYPE },
    };
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        param(nulls[i].name, mpif_index_of(nulls[i].kind, NULL));
    for (int i = 0; i < mpif_npredefs; i++) {
        const struct mpif_predef *d = &mpif_predefs[i];
        MPI_Fint f = mpif_predef_index(d->name);
        /* the table and the library agree, or the build stops here */
        if (f <= 0 || mpif_get(d->kind, f) != d->obj) {
            fprintf(stderr, "genmpif: %s: index %d does not name it\n",
                    d->name, f);
            return 1;
        }
        param(d->name, f);
    }
    return 0;
}

/* Variables in common blocks the library knows by their addresses
 * (mpi/fortran/f2c.c), each in a block of its own. */
static void sentinels(void)
{
    static const char *const decl[][2] = {
        { "INTEGER MPI_BOTTOM", "MPI_FORTRAN_BOTTOM" },
        { "INTEGER MPI_IN_PLACE", "MPI_FORTRAN_IN_PLACE" },
        { "INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
          "MPI_FORTRAN_STATUS_IGNORE" },
        { "INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)",
          "MPI_FORTRAN_STATUSES_IGNORE" },
        { "INTEGER MPI_ERRCODES_IGNORE(1)", "MPI_FORTRAN_ERRCODES_IGNORE" },
        { "INTEGER MPI_UNWEIGHTED(1)", "MPI_FORTRAN_UNWEIGHTED" },
        { "INTEGER MPI_WEIGHTS_EMPTY(1)", "MPI_FORTRAN_WEIGHTS_EMPTY" },
        { "CHARACTER*1 MPI_ARGV_NULL(1)", "MPI_FORTRAN_ARGV_NULL" },
        { "CHARACTER*1 MPI_ARGVS_NULL(1,1)", "MPI_FORTRAN_ARGVS_NULL" },
    };
    puts("! The sentinels: the library knows these variables by their\n"
         "! addresses (mpi/fortran/f2c.c)");
    for (size_t i = 0; i < sizeof decl / sizeof decl[0]; i++) {
        const char *var = strchr(decl[i][0], ' ') + 1;
        int n = (int)strcspn(var, "(");
        printf("      %s\n      COMMON /%s/ %.*s\n      SAVE /%s/\n",
               decl[i][0], decl[i][1], n, var, decl[i][1]);
    }
}

/* mpif.h's procedures: the predefined callbacks, and the functions. */
static void procedures(void)
{
    puts("      EXTERNAL MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, MPI_DUP_FN\n"
         "      EXTERNAL MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN\n"
         "      EXTERNAL MPI_COMM_DUP_FN\n"
         "      EXTERNAL MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN\n"
         "      EXTERNAL MPI_WIN_DUP_FN\n"
         "      EXTERNAL MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN\n"
         "      EXTERNAL MPI_TYPE_DUP_FN, MPI_CONVERSION_FN_NULL\n"
         "      DOUBLE PRECISION MPI_WTIME, MPI_WTICK\n"
         "      DOUBLE PRECISION PMPI_WTIME, PMPI_WTICK\n"
         "      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK");
    /* INTEGER(KIND=MPI_ADDRESS_KIND) in a form fixed form takes */
    printf("      INTEGER*%zu MPI_AINT_ADD, MPI_AINT_DIFF\n"
           "      INTEGER*%zu PMPI_AINT_ADD, PMPI_AINT_DIFF\n"
           "      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF\n"
           "      EXTERNAL PMPI_AINT_ADD, PMPI_AINT_DIFF\n",
           sizeof(MPI_Aint), sizeof(MPI_Aint));
}

int main(int argc, char **argv)
{
    int h = argc == 2 && strcmp(argv[1], "h") == 0;
    if (!h && !(argc == 2 && strcmp(argv[1], "mod") == 0)) {
        fprintf(stderr, "usage: genmpif h|mod\n");
        return 2;
    }
    puts("! Made by mpi/fortran/genmpif.c from mpi.h: do not edit.\n"
         "! The MPI-3.1 Fortran interface of the Q-Kernel MPI over Portals.");
    errors();
    others();
    if (handles() != 0)
        return 1;
    sentinels();
    if (h)
        procedures();
    return 0;
}
