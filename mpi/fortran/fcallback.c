/* SPDX-License-Identifier: MIT */
/*
 * fcallback.c: the MPI-2/3 Fortran wrappers genwrap.py cannot make:
 * the calls that take Fortran procedures (keyvals of communicators,
 * windows and types; generalized requests; window and file error
 * handlers; data representations), the attribute calls (an
 * INTEGER(KIND=MPI_ADDRESS_KIND) value in Fortran, a pointer in C), the
 * predefined attribute procedures, MPI_COMM_IDUP (its new handle comes
 * when the request completes), the spawn calls (CHARACTER arrays), and
 * the functions MPI_AINT_ADD/_DIFF and MPI_F_SYNC_REG.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmpi.h"

#define WEAK(f, args) void mpi_##f##_ args __attribute__((weak, alias("pmpi_" #f "_")));
typedef MPI_Aint faint;         /* INTEGER(KIND=MPI_ADDRESS_KIND) */

/* ---- keyvals of every kind ---- */

typedef void fcopy_fn(MPI_Fint *obj, MPI_Fint *keyval, faint *extra,
                      faint *in, faint *out, MPI_Fint *flag, MPI_Fint *ierr);
typedef void fdel_fn(MPI_Fint *obj, MPI_Fint *keyval, faint *val,
                     faint *extra, MPI_Fint *ierr);

/* A Fortran keyval's C extra_state: its procedures, its own extra, and
 * how its objects cross to Fortran.  Kept for the program's life:
 * attributes outlive the keyval. */
struct fkey {
    fcopy_fn *copy;
    fdel_fn *del;
    faint extra;
};

static int copy_any(MPI_Fint obj, int keyval, void *extra, void *in,
                    void *out, int *flag)
{
    struct fkey *k = extra;
    MPI_Fint kv = keyval, fflag = MPIF_FALSE, ierr = MPI_SUCCESS;
    faint fin = (faint)(intptr_t)in, fout = 0;

    k->copy(&obj, &kv, &k->extra, &fin, &fout, &fflag, &ierr);
    *flag = fflag != 0;
    if (*flag)
        *(void **)out = (void *)(intptr_t)fout;
    return ierr;
}

static int del_any(MPI_Fint obj, int keyval, void *val, void *extra)
{
    struct fkey *k = extra;
    MPI_Fint kv = keyval, ierr = MPI_SUCCESS;
    faint v = (faint)(intptr_t)val;

    k->del(&obj, &kv, &v, &k->extra, &ierr);
    return ierr;
}

#define KIND_TRAMPS(K, H)                                               \
    static int copy_##K(H o, int kv, void *x, void *in, void *out,     \
                        int *flag)                                      \
    {                                                                   \
        return copy_any(MPI_##K##_c2f(o), kv, x, in, out, flag);        \
    }                                                                   \
    static int del_##K(H o, int kv, void *v, void *x)                   \
    {                                                                   \
        return del_any(MPI_##K##_c2f(o), kv, v, x);                     \
    }
KIND_TRAMPS(Comm, MPI_Comm)
KIND_TRAMPS(Win, MPI_Win)
KIND_TRAMPS(Type, MPI_Datatype)

static struct fkey *fkey_new(fcopy_fn *copy, fdel_fn *del, faint *extra)
{
    struct fkey *k = malloc(sizeof *k);
    if (k != NULL)
        *k = (struct fkey){ copy, del, *extra };
    return k;
}

#define CREATE_KEYVAL(low, K)                                           \
    void pmpi_##low##_create_keyval_(fcopy_fn *copy, fdel_fn *del,     \
                                     MPI_Fint *keyval, faint *extra,    \
                                     MPI_Fint *ierror)                  \
    {                                                                   \
        struct fkey *k = fkey_new(copy, del, extra);                    \
        *keyval = MPI_KEYVAL_INVALID;                                   \
        *ierror = k ? MPI_##K##_create_keyval(copy_##K, del_##K,        \
                                              keyval, k)                \
                    : MPI_ERR_NO_MEM;                                   \
        if (*ierror != MPI_SUCCESS)                                     \
            free(k);                                                    \
    }                                                                   \
    WEAK(low##_create_keyval, (fcopy_fn *copy, fdel_fn *del,            \
                               MPI_Fint *keyval, faint *extra,          \
                               MPI_Fint *ierror))
CREATE_KEYVAL(comm, Comm)
CREATE_KEYVAL(win, Win)
CREATE_KEYVAL(type, Type)

/* MPI_{COMM,WIN,TYPE}_{NULL_COPY,DUP,NULL_DELETE}_FN, MPI-2's: the
 * values are INTEGER(KIND=MPI_ADDRESS_KIND). */
#define PREDEF_FNS(low)                                                 \
    void mpi_##low##_null_copy_fn_(MPI_Fint *o, MPI_Fint *kv, faint *x, \
                                   faint *in, faint *out, MPI_Fint *fl, \
                                   MPI_Fint *ierr)                      \
    {                                                                   \
        (void)o, (void)kv, (void)x, (void)in, (void)out;                \
        *fl = MPIF_FALSE;                                               \
        *ierr = MPI_SUCCESS;                                            \
    }                                                                   \
    void mpi_##low##_dup_fn_(MPI_Fint *o, MPI_Fint *kv, faint *x,       \
                             faint *in, faint *out, MPI_Fint *fl,       \
                             MPI_Fint *ierr)                            \
    {                                                                   \
        (void)o, (void)kv, (void)x;                                     \
        *out = *in;                                                     \
        *fl = MPIF_TRUE;                                                \
        *ierr = MPI_SUCCESS;                                            \
    }                                                                   \
    void mpi_##low##_null_delete_fn_(MPI_Fint *o, MPI_Fint *kv,         \
                                     faint *v, faint *x, MPI_Fint *ierr)\
    {                                                                   \
        (void)o, (void)kv, (void)v, (void)x;                            \
        *ierr = MPI_SUCCESS;                                            \
    }
PREDEF_FNS(comm)
PREDEF_FNS(win)
PREDEF_FNS(type)

/* ---- attribute values ---- */

/* A predefined communicator key gives C a pointer to its int; Fortran
 * gets the value.  A window's: the base address, the others' values. */
static faint comm_predef(int keyval, void *v)
{
    return keyval >= 0 && keyval <= MPI_APPNUM ? *(int *)v
                                               : (faint)(intptr_t)v;
}

static faint win_predef(int keyval, void *v)
{
    switch (keyval) {
    case MPI_WIN_BASE: return (faint)(intptr_t)v;
    case MPI_WIN_SIZE: return *(MPI_Aint *)v;
    case MPI_WIN_DISP_UNIT: case MPI_WIN_CREATE_FLAVOR: case MPI_WIN_MODEL:
        return *(int *)v;
    default: return (faint)(intptr_t)v;
    }
}

static faint type_predef(int keyval, void *v)
{
    (void)keyval;
    return (faint)(intptr_t)v;
}

#define ATTRS(low, K, H)                                                \
    void pmpi_##low##_set_attr_(MPI_Fint *o, MPI_Fint *kv, faint *val,  \
                                MPI_Fint *ierror)                       \
    {                                                                   \
        *ierror = MPI_##K##_set_attr(MPI_##K##_f2c(*o), *kv,            \
                                     (void *)(intptr_t)*val);           \
    }                                                                   \
    WEAK(low##_set_attr, (MPI_Fint *o, MPI_Fint *kv, faint *val,        \
                          MPI_Fint *ierror))                            \
    void pmpi_##low##_get_attr_(MPI_Fint *o, MPI_Fint *kv, faint *val,  \
                                MPI_Fint *flag, MPI_Fint *ierror)       \
    {                                                                   \
        void *v = NULL;                                                 \
        int fl = 0;                                                     \
        *ierror = MPI_##K##_get_attr(MPI_##K##_f2c(*o), *kv, &v, &fl);  \
        *flag = fl ? MPIF_TRUE : MPIF_FALSE;                            \
        if (*ierror == MPI_SUCCESS && fl)                               \
            *val = low##_predef(*kv, v);                                \
    }                                                                   \
    WEAK(low##_get_attr, (MPI_Fint *o, MPI_Fint *kv, faint *val,        \
                          MPI_Fint *flag, MPI_Fint *ierror))
ATTRS(comm, Comm, MPI_Comm)
ATTRS(win, Win, MPI_Win)
ATTRS(type, Type, MPI_Datatype)

/* ---- MPI_COMM_IDUP: the handle is written when the request is done
 * (the program may not look at it before, MPI-3.1 17.1.16) ---- */
static void into_fortran(MPI_Comm c, void *newcomm)
{
    *(MPI_Fint *)newcomm = MPI_Comm_c2f(c);
}

void pmpi_comm_idup_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                     MPI_Fint *ierror)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm c = MPI_Comm_f2c(*comm);

    *newcomm = MPI_Comm_c2f(MPI_COMM_NULL);
    *ierror = c == MPI_COMM_NULL ? MPI_ERR_COMM
                                 : comm_idup_then(c, into_fortran, newcomm,
                                                  &r);
    if (*ierror != MPI_SUCCESS)
        MPI_Comm_call_errhandler(c ? c : MPI_COMM_WORLD, *ierror);
    *request = MPI_Request_c2f(r);
}
WEAK(comm_idup, (MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                 MPI_Fint *ierror))

/* ---- generalized requests ---- */

typedef void fquery_fn(faint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void ffree_fn(faint *extra, MPI_Fint *ierr);
typedef void fcancel_fn(faint *extra, MPI_Fint *complete, MPI_Fint *ierr);

struct fgreq {
    fquery_fn *query;
    ffree_fn *free_fn;
    fcancel_fn *cancel;
    faint extra;
};

static int greq_query(void *x, MPI_Status *st)
{
    struct fgreq *g = x;
    MPI_Fint fst[MPIF_STATUS_SIZE], ierr = MPI_SUCCESS;

    MPI_Status_c2f(st, fst);
    g->query(&g->extra, fst, &ierr);
    MPI_Status_f2c(fst, st);
    return ierr;
}

static int greq_free(void *x)
{
    struct fgreq *g = x;
    MPI_Fint ierr = MPI_SUCCESS;

    g->free_fn(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *x, int complete)
{
    struct fgreq *g = x;
    MPI_Fint c = complete ? MPIF_TRUE : MPIF_FALSE, ierr = MPI_SUCCESS;

    g->cancel(&g->extra, &c, &ierr);
    return ierr;
}

void pmpi_grequest_start_(fquery_fn *q, ffree_fn *f, fcancel_fn *c,
                          faint *extra, MPI_Fint *request, MPI_Fint *ierror)
{
    struct fgreq *g = malloc(sizeof *g);
    MPI_Request r = MPI_REQUEST_NULL;

    if (g != NULL)
        *g = (struct fgreq){ q, f, c, *extra };
    *ierror = g ? MPI_Grequest_start(greq_query, greq_free, greq_cancel, g,
                                     &r)
                : MPI_ERR_NO_MEM;
    if (*ierror != MPI_SUCCESS)
        free(g);
    *request = MPI_Request_c2f(r);
}
WEAK(grequest_start, (fquery_fn *q, ffree_fn *f, fcancel_fn *c,
                      faint *extra, MPI_Fint *request, MPI_Fint *ierror))

/* ---- error handlers of windows and files: trampolines by slot ---- */
#define NSLOTS 32
#define SLOTS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) \
    X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21)   \
    X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

typedef void feh_fn(MPI_Fint *obj, MPI_Fint *code);

#define EH_KIND(K, H)                                                   \
    static feh_fn *K##_fehs[NSLOTS];                                    \
    SLOTS(K##_TRAMP)                                                    \
    static MPI_##K##_errhandler_function *const K##_tramps[NSLOTS] = {  \
        SLOTS(K##_NAME) };                                              \
    static int K##_slot(feh_fn *fn)                                     \
    {                                                                   \
        int i = 0;                                                      \
        while (i < NSLOTS && K##_fehs[i] != NULL && K##_fehs[i] != fn)  \
            i++;                /* the same procedure shares its slot */\
        if (i < NSLOTS)                                                 \
            K##_fehs[i] = fn;                                           \
        return i;                                                       \
    }
#define Win_TRAMP(i)                                                    \
    static void Win_tramp##i(MPI_Win *w, int *code, ...)               \
    {                                                                   \
        MPI_Fint f = MPI_Win_c2f(*w), e = *code;                        \
        Win_fehs[i](&f, &e);                                            \
    }
#define Win_NAME(i) Win_tramp##i,
#define File_TRAMP(i)                                                   \
    static void File_tramp##i(MPI_File *fh, int *code, ...)            \
    {                                                                   \
        MPI_Fint f = MPI_File_c2f(*fh), e = *code;                      \
        File_fehs[i](&f, &e);                                           \
    }
#define File_NAME(i) File_tramp##i,
EH_KIND(Win, MPI_Win)
EH_KIND(File, MPI_File)

#define CREATE_EH(low, K)                                               \
    void pmpi_##low##_create_errhandler_(feh_fn *fn, MPI_Fint *eh,     \
                                         MPI_Fint *ierror)              \
    {                                                                   \
        MPI_Errhandler c = MPI_ERRHANDLER_NULL;                         \
        int i = K##_slot(fn);                                           \
        if (i == NSLOTS) {                                              \
            fprintf(stderr, "MPI (Fortran): more than %d error handler "\
                    "procedures; the bindings call them through %d "    \
                    "fixed trampolines\n", NSLOTS, NSLOTS);             \
            *ierror = MPI_ERR_INTERN;                                   \
        } else {                                                        \
            *ierror = MPI_##K##_create_errhandler(K##_tramps[i], &c);   \
        }                                                               \
        *eh = MPI_Errhandler_c2f(c);                                    \
    }                                                                   \
    WEAK(low##_create_errhandler, (feh_fn *fn, MPI_Fint *eh,            \
                                   MPI_Fint *ierror))
CREATE_EH(win, Win)
CREATE_EH(file, File)

/* ---- data representations: views take "native" only (io_split.c), so
 * the conversion procedures are never called; the name is kept ---- */
static int no_extent(MPI_Datatype t, MPI_Aint *ext, void *x)
{
    MPI_Aint lb;
    (void)x;
    return MPI_Type_get_extent(t, &lb, ext);
}

void pmpi_register_datarep_(char *name, void *rd, void *wr, void *ext,
                            faint *extra, MPI_Fint *ierror, size_t name_len)
{
    char *c = mpif_str_in(name, name_len);

    (void)rd, (void)wr, (void)ext, (void)extra;
    *ierror = c ? MPI_Register_datarep(c, MPI_CONVERSION_FN_NULL,
                                       MPI_CONVERSION_FN_NULL, no_extent,
                                       NULL)
                : MPI_ERR_NO_MEM;
    free(c);
}
WEAK(register_datarep, (char *name, void *rd, void *wr, void *ext,
                        faint *extra, MPI_Fint *ierror, size_t name_len))

void mpi_conversion_fn_null_(void *ub, MPI_Fint *dt, MPI_Fint *count,
                             void *fb, MPI_Offset *pos, faint *extra,
                             MPI_Fint *ierr)
{
    (void)ub, (void)dt, (void)count, (void)fb, (void)pos, (void)extra;
    *ierr = MPI_SUCCESS;
}

/* ---- spawning (it fails here: dynamic.c; the strings are not read) ---- */
void pmpi_comm_spawn_(char *command, char *argv, MPI_Fint *maxprocs,
                      MPI_Fint *info, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *intercomm, MPI_Fint *errcodes,
                      MPI_Fint *ierror, size_t command_len, size_t argv_len)
{
    MPI_Comm ic = MPI_COMM_NULL;

    (void)command, (void)argv, (void)command_len, (void)argv_len;
    *ierror = MPI_Comm_spawn("", MPI_ARGV_NULL, *maxprocs,
                             MPI_Info_f2c(*info), *root,
                             MPI_Comm_f2c(*comm), &ic,
                             errcodes == mpi_fortran_errcodes_ignore_
                             ? MPI_ERRCODES_IGNORE : errcodes);
    *intercomm = MPI_Comm_c2f(ic);
}
WEAK(comm_spawn, (char *command, char *argv, MPI_Fint *maxprocs,
                  MPI_Fint *info, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                  size_t command_len, size_t argv_len))

void pmpi_comm_spawn_multiple_(MPI_Fint *count, char *commands, char *argvs,
                               MPI_Fint *maxprocs, MPI_Fint *infos,
                               MPI_Fint *root, MPI_Fint *comm,
                               MPI_Fint *intercomm, MPI_Fint *errcodes,
                               MPI_Fint *ierror, size_t commands_len,
                               size_t argvs_len)
{
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Info none[1] = { MPI_INFO_NULL };

    (void)commands, (void)argvs, (void)infos, (void)commands_len;
    (void)argvs_len;
    *ierror = MPI_Comm_spawn_multiple(*count, NULL, MPI_ARGVS_NULL, maxprocs,
                                      none, *root, MPI_Comm_f2c(*comm), &ic,
                                      errcodes == mpi_fortran_errcodes_ignore_
                                      ? MPI_ERRCODES_IGNORE : errcodes);
    *intercomm = MPI_Comm_c2f(ic);
}
WEAK(comm_spawn_multiple, (MPI_Fint *count, char *commands, char *argvs,
                           MPI_Fint *maxprocs, MPI_Fint *infos,
                           MPI_Fint *root, MPI_Fint *comm,
                           MPI_Fint *intercomm, MPI_Fint *errcodes,
                           MPI_Fint *ierror, size_t commands_len,
                           size_t argvs_len))

/* ---- functions without IERROR ---- */
faint pmpi_aint_add_(faint *base, faint *disp)
{
    return MPI_Aint_add(*base, *disp);
}
faint pmpi_aint_diff_(faint *a, faint *b)
{
    return MPI_Aint_diff(*a, *b);
}
faint mpi_aint_add_(faint *, faint *) __attribute__((weak,
                                                     alias("pmpi_aint_add_")));
faint mpi_aint_diff_(faint *, faint *) __attribute__((weak,
                                                      alias("pmpi_aint_diff_")));

/* MPI_F_SYNC_REG: a call the compiler cannot see through, so a variable
 * a nonblocking call will change is read from memory again after it
 * (MPI-3.1 17.1.17); it does nothing itself. */
void pmpi_f_sync_reg_(void *buf)
{
    __asm__ volatile("" : : "r"(buf) : "memory");
}
void mpi_f_sync_reg_(void *buf) __attribute__((weak,
                                               alias("pmpi_f_sync_reg_")));

/* MPI_SIZEOF's specific routines (mpi.f90's generic interface): each
 * knows its type's size; x (gfortran passes an assumed-rank argument's
 * descriptor) is not read.  A CHARACTER's is its length, passed after
 * the arguments as for every CHARACTER. */
#define SIZEOF(k, n)                                                    \
    void mpi_sizeof_##k##_(const void *x, MPI_Fint *size,              \
                           MPI_Fint *ierr)                              \
    {                                                                   \
        (void)x;                                                        \
        *size = n;                                                      \
        *ierr = MPI_SUCCESS;                                            \
    }
SIZEOF(i1, 1) SIZEOF(i2, 2) SIZEOF(i4, 4) SIZEOF(i8, 8) SIZEOF(i16, 16)
SIZEOF(r4, 4) SIZEOF(r8, 8) SIZEOF(r10, 16) SIZEOF(r16, 16)
SIZEOF(c4, 8) SIZEOF(c8, 16) SIZEOF(c10, 32) SIZEOF(c16, 32)
SIZEOF(l1, 1) SIZEOF(l2, 2) SIZEOF(l4, 4) SIZEOF(l8, 8)

void mpi_sizeof_ch_(const void *x, MPI_Fint *size, MPI_Fint *ierr,
                    size_t len)
{
    (void)x;
    *size = (MPI_Fint)len;
    *ierr = MPI_SUCCESS;
}
