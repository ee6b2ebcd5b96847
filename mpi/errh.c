/* SPDX-License-Identifier: MIT */
/*
 * errh.c: error handlers and error strings.  Every public function that
 * fails calls mpi_err(): the communicator's handler runs (the default,
 * MPI_ERRORS_ARE_FATAL, prints the error and aborts the job; with
 * MPI_ERRORS_RETURN the code comes back to the caller).  Errors not tied
 * to a communicator use MPI_COMM_WORLD's handler.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "ptl_job.h"

struct mpi_errh_s mpi_errh_fatal_ = { .refs = 1, .builtin = true };
struct mpi_errh_s mpi_errh_return_ = { .refs = 1, .builtin = true };

static const char *const msgs[MPI_ERR_LASTCODE] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype (null, freed or not committed)",
    [MPI_ERR_TAG] = "invalid tag (must be 0..MPI_TAG_UB, or MPI_ANY_TAG "
                    "when receiving)",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request handle",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid reduction operation for this datatype",
    [MPI_ERR_TOPOLOGY] = "communicator has no (or the wrong) topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated: receive buffer too small",
    [MPI_ERR_OTHER] = "other error (see the message printed before it)",
    [MPI_ERR_INTERN] = "internal error (out of memory?)",
    [MPI_ERR_IN_STATUS] = "error code is in the status array",
    [MPI_ERR_PENDING] = "request pending",
    [MPI_ERR_KEYVAL] = "invalid attribute key",
};

void mpi_fatal(const char *fmt, ...)
{
    char why[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    ptl_job_abort(1, why);
}

void mpi_fatal_peer(int peer, const char *fmt, ...)
{
    char why[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    ptl_job_abort_peer(1, peer, why);
}

int mpi_err(MPI_Comm comm, int code, const char *where)
{
    MPI_Errhandler eh;

    if (code == MPI_SUCCESS)
        return code;
    if (comm == MPI_COMM_NULL || comm->refs <= 0)
        comm = MPI_COMM_WORLD;
    eh = comm->errh ? comm->errh : MPI_ERRORS_ARE_FATAL;
    if (eh == MPI_ERRORS_RETURN)
        return code;
    if (eh == MPI_ERRORS_ARE_FATAL) {
        int cls = code > 0 && code < MPI_ERR_LASTCODE ? code : MPI_ERR_UNKNOWN;
        mpi_fatal("%s: %s (MPI error class %d); set MPI_ERRORS_RETURN to "
                  "handle errors yourself", where, msgs[cls], code);
    }
    eh->fn(&comm, &code, where);
    return code;
}

int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh)
{
    struct mpi_errh_s *e;

    if (fn == NULL || eh == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_create");
    if ((e = calloc(1, sizeof(*e))) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INTERN,
                       "MPI_Errhandler_create");
    e->refs = 1;
    e->fn = fn;
    *eh = e;
    return MPI_SUCCESS;
}

static void errh_release(MPI_Errhandler eh)
{
    if (eh != NULL && !eh->builtin && --eh->refs == 0)
        free(eh);
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh)
{
    int rc = comm_check(comm);

    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Errhandler_set");
    if (eh == MPI_ERRHANDLER_NULL || eh->refs <= 0)
        return mpi_err(comm, MPI_ERR_ARG, "MPI_Errhandler_set");
    if (!eh->builtin)
        eh->refs++;
    errh_release(comm->errh);
    comm->errh = eh;
    return MPI_SUCCESS;
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    int rc = comm_check(comm);

    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Errhandler_get");
    *eh = comm->errh;
    if (!(*eh)->builtin)
        (*eh)->refs++;      /* MPI-1: the caller frees what get returns */
    return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *eh)
{
    if (eh == NULL || *eh == MPI_ERRHANDLER_NULL || (*eh)->refs <= 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_free");
    errh_release(*eh);
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int MPI_Error_string(int code, char *string, int *resultlen)
{
    const char *m = code >= 0 && code < MPI_ERR_LASTCODE ? msgs[code] : NULL;

    if (m == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string");
    snprintf(string, MPI_MAX_ERROR_STRING, "%s", m);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

int MPI_Error_class(int code, int *errclass)
{
    if (code < 0 || code >= MPI_ERR_LASTCODE)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class");
    *errclass = code;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Errhandler_create)
PMPI(MPI_Errhandler_set)
PMPI(MPI_Errhandler_get)
PMPI(MPI_Errhandler_free)
PMPI(MPI_Error_string)
PMPI(MPI_Error_class)
