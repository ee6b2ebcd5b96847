/* SPDX-License-Identifier: MIT */
/*
 * fspecial.c: the Fortran wrappers that genwrap.py cannot make from a
 * line of mpi.def: MPI_INIT (no argc/argv), the DOUBLE PRECISION
 * functions, attribute values (an INTEGER in Fortran, a pointer in C),
 * and the calls that take a Fortran procedure (user ops, error handlers,
 * attribute copy/delete functions), which C calls through trampolines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "fmpi.h"

/* pmpi_x_ is the body; mpi_x_ a weak alias (a profiler may replace it). */
#define WEAK(f, args) void mpi_##f##_ args __attribute__((weak, alias("pmpi_" #f "_")));

void pmpi_init_(MPI_Fint *ierror)
{
    *ierror = MPI_Init(NULL, NULL);
}
WEAK(init, (MPI_Fint *ierror))

void pmpi_init_thread_(MPI_Fint *required, MPI_Fint *provided,
                       MPI_Fint *ierror)
{
    *ierror = MPI_Init_thread(NULL, NULL, *required, provided);
}
WEAK(init_thread, (MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror))

double pmpi_wtime_(void) { return MPI_Wtime(); }
double pmpi_wtick_(void) { return MPI_Wtick(); }
double mpi_wtime_(void) __attribute__((weak, alias("pmpi_wtime_")));
double mpi_wtick_(void) __attribute__((weak, alias("pmpi_wtick_")));

void pmpi_pcontrol_(MPI_Fint *level) { MPI_Pcontrol(*level); }
WEAK(pcontrol, (MPI_Fint *level))

/* Fortran's buffer argument is only a name for the buffer: C gives its
 * address, which Fortran has no use for. */
void pmpi_buffer_detach_(void *buffer, MPI_Fint *size, MPI_Fint *ierror)
{
    void *addr;
    (void)buffer;
    *ierror = MPI_Buffer_detach(&addr, size);
}
WEAK(buffer_detach, (void *buffer, MPI_Fint *size, MPI_Fint *ierror))

/* ---- attributes: a Fortran value is an INTEGER kept in the pointer ---- */
void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                    MPI_Fint *ierror)
{
    *ierror = MPI_Attr_put(MPI_Comm_f2c(*comm), *keyval,
                           (void *)(intptr_t)*val);
}
WEAK(attr_put, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                MPI_Fint *ierror))

/* The predefined keys (MPI_TAG_UB ... MPI_APPNUM) give C a pointer to
 * the value, Fortran the value itself. */
void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                    MPI_Fint *flag, MPI_Fint *ierror)
{
    void *v = NULL;
    int fl = 0;
    *ierror = MPI_Attr_get(MPI_Comm_f2c(*comm), *keyval, &v, &fl);
    *flag = fl ? MPIF_TRUE : MPIF_FALSE;
    if (*ierror == MPI_SUCCESS && fl)
        *val = *keyval >= 0 && *keyval <= MPI_APPNUM ? *(int *)v
                                                     : (MPI_Fint)(intptr_t)v;
}
WEAK(attr_get, (MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                MPI_Fint *flag, MPI_Fint *ierror))

typedef void fcopy_fn(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *extra,
                      MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                      MPI_Fint *ierr);
typedef void fdel_fn(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                     MPI_Fint *extra, MPI_Fint *ierr);

/* A Fortran keyval's C extra_state: its procedures and its own extra.
 * Kept for the program's life: attributes outlive MPI_KEYVAL_FREE. */
struct fkey {
    fcopy_fn *copy;
    fdel_fn *del;
    MPI_Fint extra;
};

static int fkey_copy(MPI_Comm old, int keyval, void *extra, void *in,
                     void *out, int *flag)
{
    struct fkey *k = extra;
    MPI_Fint c = MPI_Comm_c2f(old), kv = keyval, fin = (MPI_Fint)(intptr_t)in;
    MPI_Fint fout = 0, fflag = MPIF_FALSE, ierr = MPI_SUCCESS;
    k->copy(&c, &kv, &k->extra, &fin, &fout, &fflag, &ierr);
    *flag = fflag != 0;
    if (*flag)
        *(void **)out = (void *)(intptr_t)fout;
    return ierr;
}

static int fkey_del(MPI_Comm comm, int keyval, void *val, void *extra)
{
    struct fkey *k = extra;
    MPI_Fint c = MPI_Comm_c2f(comm), kv = keyval, v = (MPI_Fint)(intptr_t)val;
    MPI_Fint ierr = MPI_SUCCESS;
    k->del(&c, &kv, &v, &k->extra, &ierr);
    return ierr;
}

void pmpi_keyval_create_(fcopy_fn *copy, fdel_fn *del, MPI_Fint *keyval,
                         MPI_Fint *extra, MPI_Fint *ierror)
{
    struct fkey *k = malloc(sizeof *k);
    if (k == NULL) {
        *keyval = MPI_KEYVAL_INVALID;
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *k = (struct fkey){ copy, del, *extra };
    *ierror = MPI_Keyval_create(fkey_copy, fkey_del, keyval, k);
    if (*ierror != MPI_SUCCESS)
        free(k);
}
WEAK(keyval_create, (fcopy_fn *copy, fdel_fn *del, MPI_Fint *keyval,
                     MPI_Fint *extra, MPI_Fint *ierror))

/* MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN for Fortran. */
void mpi_null_copy_fn_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *extra,
                       MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                       MPI_Fint *ierr)
{
    (void)comm, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = MPIF_FALSE;
    *ierr = MPI_SUCCESS;
}

void mpi_dup_fn_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *extra,
                 MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)comm, (void)keyval, (void)extra;
    *out = *in;
    *flag = MPIF_TRUE;
    *ierr = MPI_SUCCESS;
}

void mpi_null_delete_fn_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val,
                         MPI_Fint *extra, MPI_Fint *ierr)
{
    (void)comm, (void)keyval, (void)val, (void)extra;
    *ierr = MPI_SUCCESS;
}

/* ---- Fortran procedures C calls without a context argument: a fixed
 * set of trampolines, each bound to one slot.  A user op's slot is freed
 * by MPI_OP_FREE; an error handler's is kept (a comm may still use it). */
#define NSLOTS 32
#define SLOTS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) \
    X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21)   \
    X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

typedef void fop_fn(void *in, void *inout, MPI_Fint *len, MPI_Fint *dt);
static struct { fop_fn *fn; MPI_Op op; } fops[NSLOTS];

#define OP_TRAMP(i)                                                     \
    static void op_tramp##i(void *in, void *io, int *len,               \
                            MPI_Datatype *dt)                           \
    {                                                                   \
        MPI_Fint fdt = MPI_Type_c2f(*dt), n = *len;                     \
        fops[i].fn(in, io, &n, &fdt);                                   \
    }
SLOTS(OP_TRAMP)
#define OP_NAME(i) op_tramp##i,
static MPI_User_function *const op_tramps[NSLOTS] = { SLOTS(OP_NAME) };

/* No slot left: the error says what to do. */
static int no_slot(const char *what)
{
    fprintf(stderr, "MPI (Fortran): more than %d %s at once; free one "
            "first (the Fortran bindings call them through %d fixed "
            "trampolines)\n", NSLOTS, what, NSLOTS);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_INTERN);
    return MPI_ERR_INTERN;      /* (the call above returns success) */
}

void pmpi_op_create_(fop_fn *fn, MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror)
{
    int i = 0;
    MPI_Op c = MPI_OP_NULL;
    while (i < NSLOTS && fops[i].fn != NULL)
        i++;
    *ierror = i == NSLOTS ? no_slot("user operations (MPI_OP_CREATE)")
                          : MPI_Op_create(op_tramps[i], *commute != 0, &c);
    if (*ierror == MPI_SUCCESS)
        fops[i].fn = fn, fops[i].op = c;
    *op = MPI_Op_c2f(c);        /* MPI_OP_NULL if the call failed */
}
WEAK(op_create, (fop_fn *fn, MPI_Fint *commute, MPI_Fint *op,
                 MPI_Fint *ierror))

void pmpi_op_free_(MPI_Fint *op, MPI_Fint *ierror)
{
    MPI_Op c = MPI_Op_f2c(*op), was = c;
    *ierror = MPI_Op_free(&c);
    if (*ierror != MPI_SUCCESS)
        return;
    for (int i = 0; i < NSLOTS; i++)
        if (fops[i].fn != NULL && fops[i].op == was)
            fops[i].fn = NULL;
    *op = mpif_update(MPIF_OP, *op, (void *)c);
}
WEAK(op_free, (MPI_Fint *op, MPI_Fint *ierror))

typedef void feh_fn(MPI_Fint *comm, MPI_Fint *code);
static feh_fn *fehs[NSLOTS];

#define EH_TRAMP(i)                                                     \
    static void eh_tramp##i(MPI_Comm *comm, int *code, ...)            \
    {                                                                   \
        MPI_Fint c = MPI_Comm_c2f(*comm), e = *code;                    \
        fehs[i](&c, &e);                                                \
    }
SLOTS(EH_TRAMP)
#define EH_NAME(i) eh_tramp##i,
static MPI_Handler_function *const eh_tramps[NSLOTS] = { SLOTS(EH_NAME) };

void pmpi_errhandler_create_(feh_fn *fn, MPI_Fint *eh, MPI_Fint *ierror)
{
    int i = 0;
    MPI_Errhandler c = MPI_ERRHANDLER_NULL;
    while (i < NSLOTS && fehs[i] != NULL && fehs[i] != fn)
        i++;                    /* the same procedure shares its slot */
    *ierror = i == NSLOTS ? no_slot("error handler procedures")
                          : MPI_Comm_create_errhandler(eh_tramps[i], &c);
    if (*ierror == MPI_SUCCESS)
        fehs[i] = fn;
    *eh = MPI_Errhandler_c2f(c); /* MPI_ERRHANDLER_NULL if it failed */
}
WEAK(errhandler_create, (feh_fn *fn, MPI_Fint *eh, MPI_Fint *ierror))
void pmpi_comm_create_errhandler_(feh_fn *fn, MPI_Fint *eh, MPI_Fint *ierror)
    __attribute__((alias("pmpi_errhandler_create_")));
WEAK(comm_create_errhandler, (feh_fn *fn, MPI_Fint *eh, MPI_Fint *ierror))
