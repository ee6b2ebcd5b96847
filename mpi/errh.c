/* SPDX-License-Identifier: MIT */
/*
 * errh.c: error handlers, error codes and strings.  Every public function
 * that fails calls mpi_err() (or mpi_err_handler() for a window or a
 * file): the object's handler runs (the default, MPI_ERRORS_ARE_FATAL,
 * prints the error and aborts the job; with MPI_ERRORS_RETURN the code
 * comes back to the caller).  Errors not tied to a communicator use
 * MPI_COMM_WORLD's handler.
 *
 * Codes: below MPIX_ERR_NCLASSES a code is its own class; the library's
 * own codes (ERRC_*, mpi_impl.h) name one failure with a message of its
 * own and belong to a class; MPI_Add_error_class/_code hand out codes
 * above MPI_ERR_LASTCODE, with strings from MPI_Add_error_string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "ptl_job.h"

struct mpi_errh_s mpi_errh_fatal_ = { .refs = 1, .builtin = true };
struct mpi_errh_s mpi_errh_return_ = { .refs = 1, .builtin = true };

static const char *const msgs[MPIX_ERR_NCLASSES] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer (NULL with a nonzero count, "
                       "or a buffer already attached)",
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
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid file access mode",
    [MPI_ERR_ASSERT] = "invalid assert argument",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_CONVERSION] = "data conversion failed",
    [MPI_ERR_DISP] = "invalid displacement unit or displacement",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO_KEY] = "info key too long (MPI_MAX_INFO_KEY)",
    [MPI_ERR_INFO_NOKEY] = "no such info key",
    [MPI_ERR_INFO_VALUE] = "info value too long (MPI_MAX_INFO_VAL)",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_IO] = "input/output error",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_NAME] = "invalid service name",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "arguments differ between processes of a "
                         "collective call",
    [MPI_ERR_NO_SPACE] = "no space left on the device",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "file or file system is read-only",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached to the window",
    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
    [MPI_ERR_RMA_RANGE] = "access outside the target's window",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_SYNC] = "RMA call outside an access or exposure epoch "
                         "(or the wrong synchronisation call)",
    [MPI_ERR_RMA_FLAVOR] = "the window is of the wrong flavor",
    [MPI_ERR_SERVICE] = "invalid service",
    [MPI_ERR_SIZE] = "invalid size",
    [MPI_ERR_SPAWN] = "cannot spawn processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation "
                                    "(only \"native\")",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "operation not supported",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_T_ERR_MEMORY] = "out of memory (tool interface)",
    [MPI_T_ERR_NOT_INITIALIZED] = "the tool interface is not initialized "
                                  "(MPI_T_init_thread)",
    [MPI_T_ERR_CANNOT_INIT] = "the tool interface cannot be initialized",
    [MPI_T_ERR_INVALID] = "invalid use of the tool interface",
    [MPI_T_ERR_INVALID_INDEX] = "no variable or category of that index",
    [MPI_T_ERR_INVALID_ITEM] = "no item of that index in the enumeration",
    [MPI_T_ERR_INVALID_SESSION] = "invalid performance variable session",
    [MPI_T_ERR_INVALID_HANDLE] = "invalid variable handle",
    [MPI_T_ERR_INVALID_NAME] = "no variable or category of that name",
    [MPI_T_ERR_OUT_OF_HANDLES] = "no more variable handles",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "no more performance variable sessions",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "the control variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "the control variable cannot be set",
    [MPI_T_ERR_PVAR_NO_WRITE] = "the performance variable cannot be "
                                "written or reset",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "the performance variable is always "
                                    "on: it cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "the performance variable cannot be read "
                                 "and reset at once",
};

/* The library's own codes: one failure each, with its class. */
static const struct { int cls; const char *msg; } lib_codes[] = {
    [ERRC_NO_ENTRIES - ERRC_BASE] = { MPI_ERR_OTHER,
        "out of Portals match entries: too many receives posted and long "
        "or synchronous sends pending at once; complete some before "
        "starting more" },
    [ERRC_NO_CTS - ERRC_BASE] = { MPI_ERR_OTHER,
        "out of Portals counters or memory descriptors (a window or a "
        "triggered collective needs some); free windows you no longer use" },
    [ERRC_SIZE4G - ERRC_BASE] = { MPI_ERR_COUNT,
        "a message of 4 GiB or more exceeds Portals' message size; send it "
        "in parts" },
    [ERRC_RMA_ENTRIES - ERRC_BASE] = { MPI_ERR_OTHER,
        "out of Portals match entries: each window takes one and each "
        "region attached to a dynamic window one, from the same table as "
        "posted receives (a node has 1024); free windows or detach regions "
        "you no longer use" },
    [ERRC_NO_CTX - ERRC_BASE] = { MPI_ERR_OTHER,
        "out of communicator contexts: 16318 communicators (each window "
        "and file holds one) exist at once in a process; free some" },
    /* what this system cannot do (mpi/README.md, Limits) */
    [ERRC_NO_SPAWN - ERRC_BASE] = { MPI_ERR_SPAWN,
        "cannot spawn processes: a job's ranks are the ones yod started "
        "(no free node is given to a running job); start the job with "
        "every rank it needs" },
    [ERRC_NO_PORTS - ERRC_BASE] = { MPI_ERR_PORT,
        "no such port: jobs cannot open ports to each other here "
        "(MPI_Open_port is not supported)" },
    [ERRC_NO_OPEN_PORT - ERRC_BASE] = { MPI_ERR_UNSUPPORTED_OPERATION,
        "cannot open a port: jobs cannot connect to each other here" },
    [ERRC_NO_PUBLISH - ERRC_BASE] = { MPI_ERR_UNSUPPORTED_OPERATION,
        "cannot publish a name: there is no name service here" },
    [ERRC_NO_NAME - ERRC_BASE] = { MPI_ERR_NAME,
        "no such service name: there is no name service here, so none "
        "was published" },
    [ERRC_NO_SERVICE - ERRC_BASE] = { MPI_ERR_SERVICE,
        "no such service name was published: there is no name service here" },
    [ERRC_NO_JOIN - ERRC_BASE] = { MPI_ERR_UNSUPPORTED_OPERATION,
        "cannot join over a socket: MPI runs over Portals here; make both "
        "sides ranks of one job" },
    [ERRC_NO_SHARED - ERRC_BASE] = { MPI_ERR_RMA_SHARED,
        "memory cannot be shared between these processes: only the "
        "processes of one Linux host, or a communicator of one process, "
        "share a window's memory here; use MPI_Win_allocate" },
};

/* Classes and codes added at run time (MPI_Add_error_*), from
 * MPI_ERR_LASTCODE + 1 on. */
struct dyn_code {
    int cls;
    char *msg;
};
static struct dyn_code *dyn;
static int ndyn;

/* The class of code, or -1 if code is no code. */
int err_class(int code)
{
    if (code >= 0 && code < MPIX_ERR_NCLASSES)
        return code;
    if (code >= ERRC_BASE && code < ERRC_END)
        return lib_codes[code - ERRC_BASE].cls;
    if (code > MPI_ERR_LASTCODE && code <= MPI_ERR_LASTCODE + ndyn)
        return dyn[code - MPI_ERR_LASTCODE - 1].cls;
    return -1;
}

static const char *err_msg(int code)
{
    if (code >= 0 && code < MPIX_ERR_NCLASSES)
        return msgs[code];
    if (code >= ERRC_BASE && code < ERRC_END)
        return lib_codes[code - ERRC_BASE].msg;
    if (code > MPI_ERR_LASTCODE && code <= MPI_ERR_LASTCODE + ndyn) {
        const char *m = dyn[code - MPI_ERR_LASTCODE - 1].msg;
        return m ? m : "";
    }
    return NULL;
}

/* The largest code in use (the MPI_LASTUSEDCODE attribute). */
int err_last_used(void)
{
    return MPI_ERR_LASTCODE + ndyn;
}

void mpi_fatal(const char *fmt, ...)
{
    char why[320];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    ptl_job_abort(1, why);
}

/* The same, when peer's failure is the cause: the job ends naming it. */
void mpi_fatal_peer(int peer, const char *fmt, ...)
{
    char why[320];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    ptl_job_abort_peer(1, peer, why);
}

/* Run handler eh for the object at objp (an MPI_Comm, MPI_Win or
 * MPI_File variable); returns the code for the caller. */
int mpi_err_handler(MPI_Errhandler eh, void *objp, int code,
                    const char *where)
{
    if (code == MPI_SUCCESS)
        return code;
    if (eh == MPI_ERRHANDLER_NULL)
        eh = MPI_ERRORS_ARE_FATAL;
    if (eh == MPI_ERRORS_RETURN)
        return code;
    if (eh == MPI_ERRORS_ARE_FATAL) {
        const char *m = err_msg(code);
        mpi_fatal("%s: %s (MPI error class %d); set MPI_ERRORS_RETURN to "
                  "handle errors yourself", where, m ? m : msgs[MPI_ERR_UNKNOWN],
                  err_class(code));
    }
    switch (eh->kind) {
    case ERRH_WIN: eh->wfn(objp, &code, where); break;
    case ERRH_FILE: eh->ffn(objp, &code, where); break;
    default: eh->cfn(objp, &code, where); break;
    }
    return code;
}

int mpi_err(MPI_Comm comm, int code, const char *where)
{
    if (code == MPI_SUCCESS)
        return code;
    if (comm == MPI_COMM_NULL || comm->refs <= 0)
        comm = MPI_COMM_WORLD;
    return mpi_err_handler(comm->errh, &comm, code, where);
}

MPI_Errhandler errh_new(int kind)
{
    struct mpi_errh_s *e = calloc(1, sizeof(*e));

    if (e != NULL) {
        e->refs = 1;
        e->kind = kind;
    }
    return e;
}

void errh_retain(MPI_Errhandler eh)
{
    if (eh != NULL && !eh->builtin)
        eh->refs++;
}

void errh_release(MPI_Errhandler eh)
{
    if (eh != NULL && !eh->builtin && --eh->refs == 0)
        free(eh);
}

/* Is eh a live handler that may be set on an object of this kind? */
bool errh_fits(MPI_Errhandler eh, int kind)
{
    return eh != MPI_ERRHANDLER_NULL && eh->refs > 0 &&
           (eh->builtin || eh->kind == kind);
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                               MPI_Errhandler *eh)
{
    MPI_Errhandler e;

    if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;      /* if the call fails */
    if (fn == NULL || eh == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                       "MPI_Comm_create_errhandler");
    if ((e = errh_new(ERRH_COMM)) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
                       "MPI_Comm_create_errhandler");
    e->cfn = fn;
    *eh = e;
    return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh)
{
    return MPI_Comm_create_errhandler(fn, eh);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    int rc = comm_check(comm);

    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Comm_set_errhandler");
    if (!errh_fits(eh, ERRH_COMM))
        return mpi_err(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler");
    errh_retain(eh);
    errh_release(comm->errh);
    comm->errh = eh;
    return MPI_SUCCESS;
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh)
{
    return MPI_Comm_set_errhandler(comm, eh);
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && eh == NULL)
        rc = MPI_ERR_ARG;
    else if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Comm_get_errhandler");
    *eh = comm->errh;
    errh_retain(*eh);       /* the caller frees what get returns */
    return MPI_SUCCESS;
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    return MPI_Comm_get_errhandler(comm, eh);
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int code)
{
    int rc = comm_check(comm);

    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Comm_call_errhandler");
    mpi_err(comm, code, "MPI_Comm_call_errhandler");
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
    const char *m = err_msg(code);

    if (m == NULL || string == NULL || resultlen == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string");
    snprintf(string, MPI_MAX_ERROR_STRING, "%s", m);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

int MPI_Error_class(int code, int *errclass)
{
    int cls = err_class(code);

    if (cls < 0 || errclass == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class");
    *errclass = cls;
    return MPI_SUCCESS;
}

/* ---- codes added at run time ---- */

static int dyn_add(int cls, int *out, const char *name)
{
    struct dyn_code *n;

    if (out == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, name);
    if ((n = realloc(dyn, ((size_t)ndyn + 1) * sizeof(*n))) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, name);
    dyn = n;
    dyn[ndyn].msg = NULL;
    /* a new class is its own class */
    dyn[ndyn].cls = cls >= 0 ? cls : MPI_ERR_LASTCODE + ndyn + 1;
    *out = MPI_ERR_LASTCODE + ++ndyn;
    return MPI_SUCCESS;
}

int MPI_Add_error_class(int *errorclass)
{
    return dyn_add(-1, errorclass, "MPI_Add_error_class");
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
    int cls = err_class(errorclass);

    /* only a class (its own class) may have codes added to it */
    if (cls < 0 || cls != errorclass)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Add_error_code");
    return dyn_add(errorclass, errorcode, "MPI_Add_error_code");
}

int MPI_Add_error_string(int errorcode, const char *string)
{
    struct dyn_code *d;
    char *copy;

    /* the predefined codes' strings cannot be changed */
    if (errorcode <= MPI_ERR_LASTCODE || err_class(errorcode) < 0 ||
        string == NULL || strlen(string) >= MPI_MAX_ERROR_STRING)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Add_error_string");
    if ((copy = strdup(string)) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
                       "MPI_Add_error_string");
    d = &dyn[errorcode - MPI_ERR_LASTCODE - 1];
    free(d->msg);
    d->msg = copy;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Errhandler_create)
PMPI(MPI_Errhandler_set)
PMPI(MPI_Errhandler_get)
PMPI(MPI_Errhandler_free)
PMPI(MPI_Error_string)
PMPI(MPI_Error_class)
PMPI(MPI_Comm_create_errhandler)
PMPI(MPI_Comm_set_errhandler)
PMPI(MPI_Comm_get_errhandler)
PMPI(MPI_Comm_call_errhandler)
PMPI(MPI_Add_error_class)
PMPI(MPI_Add_error_code)
PMPI(MPI_Add_error_string)
