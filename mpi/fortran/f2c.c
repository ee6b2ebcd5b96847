/* SPDX-License-Identifier: MIT */
/*
 * f2c.c: Fortran handles.  A C handle is a pointer; Fortran needs an
 * INTEGER.  Each kind of object has a table: index 0 is the null handle,
 * the predefined objects follow in mpif_predefs' order (their indices are
 * mpif.h's PARAMETERs), and every other object gets the first free index
 * when it first crosses to Fortran.  A hash from pointer to index makes
 * MPI_X_c2f give the same index every time; an index is freed when a
 * Fortran call sees its object freed (MPI_COMM_FREE, a completed request).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fmpi.h"

/* The sentinels' common blocks (fmpi.h). */
#define COMMON __attribute__((aligned(16)))    /* as gfortran's */
MPI_Fint mpi_fortran_bottom_ COMMON, mpi_fortran_in_place_ COMMON;
MPI_Fint mpi_fortran_status_ignore_[MPIF_STATUS_SIZE] COMMON;
MPI_Fint mpi_fortran_statuses_ignore_[MPIF_STATUS_SIZE] COMMON;
MPI_Fint mpi_fortran_errcodes_ignore_[1] COMMON;
MPI_Fint mpi_fortran_unweighted_[1] COMMON;
MPI_Fint mpi_fortran_weights_empty_[1] COMMON;
char mpi_fortran_argv_null_[1] COMMON, mpi_fortran_argvs_null_[1] COMMON;

#define P(name, kind, obj) { name, kind, obj }
#define T(name) { #name, MPIF_TYPE, name }
const struct mpif_predef mpif_predefs[] = {
    P("MPI_COMM_WORLD", MPIF_COMM, MPI_COMM_WORLD),
    P("MPI_COMM_SELF", MPIF_COMM, MPI_COMM_SELF),
    P("MPI_GROUP_EMPTY", MPIF_GROUP, MPI_GROUP_EMPTY),
    P("MPI_ERRORS_ARE_FATAL", MPIF_ERRH, MPI_ERRORS_ARE_FATAL),
    P("MPI_ERRORS_RETURN", MPIF_ERRH, MPI_ERRORS_RETURN),
    P("MPI_INFO_ENV", MPIF_INFO, MPI_INFO_ENV),
    P("MPI_MESSAGE_NO_PROC", MPIF_MSG, MPI_MESSAGE_NO_PROC),
    P("MPI_MAX", MPIF_OP, MPI_MAX), P("MPI_MIN", MPIF_OP, MPI_MIN),
    P("MPI_SUM", MPIF_OP, MPI_SUM), P("MPI_PROD", MPIF_OP, MPI_PROD),
    P("MPI_LAND", MPIF_OP, MPI_LAND), P("MPI_BAND", MPIF_OP, MPI_BAND),
    P("MPI_LOR", MPIF_OP, MPI_LOR), P("MPI_BOR", MPIF_OP, MPI_BOR),
    P("MPI_LXOR", MPIF_OP, MPI_LXOR), P("MPI_BXOR", MPIF_OP, MPI_BXOR),
    P("MPI_MAXLOC", MPIF_OP, MPI_MAXLOC), P("MPI_MINLOC", MPIF_OP, MPI_MINLOC),
    P("MPI_REPLACE", MPIF_OP, MPI_REPLACE), P("MPI_NO_OP", MPIF_OP, MPI_NO_OP),
    /* Fortran's types */
    T(MPI_INTEGER), T(MPI_REAL), T(MPI_DOUBLE_PRECISION), T(MPI_COMPLEX),
    T(MPI_DOUBLE_COMPLEX), T(MPI_LOGICAL), T(MPI_CHARACTER), T(MPI_BYTE),
    T(MPI_PACKED), T(MPI_UB), T(MPI_LB), T(MPI_2INTEGER), T(MPI_2REAL),
    T(MPI_2DOUBLE_PRECISION), T(MPI_INTEGER1), T(MPI_INTEGER2),
    T(MPI_INTEGER4), T(MPI_INTEGER8), T(MPI_INTEGER16), T(MPI_REAL4),
    T(MPI_REAL8), T(MPI_REAL16), T(MPI_COMPLEX8), T(MPI_COMPLEX16),
    T(MPI_COMPLEX32),
    /* C's and C++'s types, for programs that mix the languages */
    T(MPI_CHAR), T(MPI_SHORT), T(MPI_INT), T(MPI_LONG),
    T(MPI_UNSIGNED_CHAR), T(MPI_UNSIGNED_SHORT), T(MPI_UNSIGNED),
    T(MPI_UNSIGNED_LONG), T(MPI_FLOAT), T(MPI_DOUBLE), T(MPI_LONG_DOUBLE),
    T(MPI_LONG_LONG_INT), T(MPI_LONG_LONG), T(MPI_UNSIGNED_LONG_LONG),
    T(MPI_SIGNED_CHAR), T(MPI_INT8_T), T(MPI_INT16_T), T(MPI_INT32_T),
    T(MPI_INT64_T), T(MPI_UINT8_T), T(MPI_UINT16_T), T(MPI_UINT32_T),
    T(MPI_UINT64_T), T(MPI_WCHAR), T(MPI_C_BOOL), T(MPI_C_COMPLEX),
    T(MPI_C_FLOAT_COMPLEX), T(MPI_C_DOUBLE_COMPLEX),
    T(MPI_C_LONG_DOUBLE_COMPLEX), T(MPI_CXX_BOOL), T(MPI_CXX_FLOAT_COMPLEX),
    T(MPI_CXX_DOUBLE_COMPLEX), T(MPI_CXX_LONG_DOUBLE_COMPLEX),
    T(MPI_FLOAT_INT), T(MPI_DOUBLE_INT), T(MPI_LONG_INT), T(MPI_2INT),
    T(MPI_SHORT_INT), T(MPI_LONG_DOUBLE_INT), T(MPI_AINT), T(MPI_OFFSET),
    T(MPI_COUNT),
};
const int mpif_npredefs = sizeof(mpif_predefs) / sizeof(mpif_predefs[0]);

struct ftab {
    void **obj;         /* index -> C handle; NULL: free (or index 0) */
    int n, cap;         /* indices handed out so far, allocated */
    int npre;           /* 0 .. npre-1: null and predefined, never freed */
    int *freel, nfree;  /* freed indices, reused first */
    int *hash, hcap;    /* open addressing, index + 1 (0 empty); 2^k */
};
static struct ftab tabs[MPIF_NKINDS];
static int ready;

static unsigned slot_of(const struct ftab *t, const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (unsigned)(h >> 32) & (unsigned)(t->hcap - 1);
}

static int hash_find(const struct ftab *t, const void *p)
{
    if (t->hcap == 0)
        return -1;
    for (unsigned i = slot_of(t, p);; i = (i + 1) & (t->hcap - 1)) {
        int x = t->hash[i] - 1;
        if (x < 0)
            return -1;
        if (t->obj[x] == p)
            return x;
    }
}

static void hash_add(struct ftab *t, int idx);

static void hash_grow(struct ftab *t)
{
    int old = t->hcap, *oh = t->hash;
    t->hcap = old ? old * 2 : 64;
    t->hash = calloc((size_t)t->hcap, sizeof(int));
    if (t->hash == NULL)
        abort();        /* the library cannot go on without memory */
    for (int i = 0; i < old; i++)
        if (oh[i])
            hash_add(t, oh[i] - 1);
    free(oh);
}

static void hash_add(struct ftab *t, int idx)
{
    unsigned i = slot_of(t, t->obj[idx]);
    while (t->hash[i])
        i = (i + 1) & (t->hcap - 1);
    t->hash[i] = idx + 1;
}

/* Remove idx from the hash, shifting later entries of its run back so
 * every lookup still finds its entry before an empty slot. */
static void hash_del(struct ftab *t, int idx)
{
    unsigned mask = (unsigned)t->hcap - 1, i = slot_of(t, t->obj[idx]);
    while (t->hash[i] != idx + 1)
        i = (i + 1) & mask;
    t->hash[i] = 0;
    for (unsigned j = (i + 1) & mask; t->hash[j]; j = (j + 1) & mask) {
        unsigned k = slot_of(t, t->obj[t->hash[j] - 1]);
        /* does j's home slot k lie cyclically in (i, j]? then it stays */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        t->hash[i] = t->hash[j];
        t->hash[j] = 0;
        i = j;
    }
}

static int new_index(struct ftab *t, void *p)
{
    int idx;
    if (t->nfree > 0) {
        idx = t->freel[--t->nfree];
    } else {
        if (t->n == t->cap) {
            int cap = t->cap ? t->cap * 2 : 64;
            void **o = realloc(t->obj, (size_t)cap * sizeof(void *));
            int *f = realloc(t->freel, (size_t)cap * sizeof(int));
            if (o == NULL || f == NULL)
                abort();
            t->obj = o, t->freel = f, t->cap = cap;
        }
        idx = t->n++;
    }
    t->obj[idx] = p;
    if (p != NULL && hash_find(t, p) < 0) {   /* aliases keep the first */
        if (2 * (t->n - t->nfree) >= t->hcap)
            hash_grow(t);
        hash_add(t, idx);
    }
    return idx;
}

static void init(void)
{
    ready = 1;
    for (int k = 0; k < MPIF_NKINDS; k++)
        new_index(&tabs[k], NULL);             /* index 0: null */
    for (int i = 0; i < mpif_npredefs; i++) {
        const struct mpif_predef *d = &mpif_predefs[i];
        new_index(&tabs[d->kind], d->obj);
    }
    for (int k = 0; k < MPIF_NKINDS; k++)
        tabs[k].npre = tabs[k].n;
}

/* The index of the predefined handle called name (init gives them out in
 * mpif_predefs' order, after each kind's null); -1 for no such name. */
MPI_Fint mpif_predef_index(const char *name)
{
    int count[MPIF_NKINDS] = { 0 };
    for (int i = 0; i < mpif_npredefs; i++) {
        const struct mpif_predef *d = &mpif_predefs[i];
        count[d->kind]++;
        if (strcmp(d->name, name) == 0)
            return count[d->kind];
    }
    return -1;
}

void *mpif_get(int kind, MPI_Fint f)
{
    if (!ready)
        init();
    struct ftab *t = &tabs[kind];
    return f > 0 && f < t->n ? t->obj[f] : NULL;
}

MPI_Fint mpif_index_of(int kind, void *obj)
{
    if (!ready)
        init();
    return obj == NULL ? 0 : hash_find(&tabs[kind], obj);
}

MPI_Fint mpif_put(int kind, void *obj)
{
    int idx = mpif_index_of(kind, obj);
    return idx >= 0 ? idx : new_index(&tabs[kind], obj);
}

/* The object Fortran index old named is now `now' (a call freed it, or a
 * request completed): free old's index if it changed, give `now' one. */
MPI_Fint mpif_update(int kind, MPI_Fint old, void *now)
{
    struct ftab *t = &tabs[kind];
    if (mpif_get(kind, old) == now)
        return old;
    if (old >= t->npre && old < t->n && t->obj[old] != NULL) {
        if (hash_find(t, t->obj[old]) == old)
            hash_del(t, old);
        t->obj[old] = NULL;
        t->freel[t->nfree++] = old;
    }
    return mpif_put(kind, now);
}

/* Each MPI_X is also PMPI_X (the profiling interface; mpi_impl.h). */
#define PMPI_PRAGMA(x) _Pragma(#x)
#define PMPI(f) PMPI_PRAGMA(weak f)                                    \
    extern __typeof(f) P##f __attribute__((alias(#f)));

#define CONV(X, T, K)                                                   \
    T MPI_##X##_f2c(MPI_Fint f) { return (T)mpif_get(K, f); }         \
    MPI_Fint MPI_##X##_c2f(T c) { return mpif_put(K, (void *)c); }    \
    PMPI(MPI_##X##_f2c) PMPI(MPI_##X##_c2f)
CONV(Comm, MPI_Comm, MPIF_COMM)
CONV(Group, MPI_Group, MPIF_GROUP)
CONV(Type, MPI_Datatype, MPIF_TYPE)
CONV(Op, MPI_Op, MPIF_OP)
CONV(Request, MPI_Request, MPIF_REQ)
CONV(Errhandler, MPI_Errhandler, MPIF_ERRH)
CONV(Info, MPI_Info, MPIF_INFO)
CONV(Win, MPI_Win, MPIF_WIN)
CONV(File, MPI_File, MPIF_FILE)
CONV(Message, MPI_Message, MPIF_MSG)

/* A Fortran status is the C one's words (MPI_STATUS_SIZE of them). */
int MPI_Status_f2c(const MPI_Fint *f, MPI_Status *c)
{
    if (f == NULL || c == NULL || f == mpi_fortran_status_ignore_ ||
        f == mpi_fortran_statuses_ignore_)
        return MPI_ERR_ARG;
    memcpy(c, f, sizeof *c);
    return MPI_SUCCESS;
}

int MPI_Status_c2f(const MPI_Status *c, MPI_Fint *f)
{
    if (f == NULL || c == NULL)
        return MPI_ERR_ARG;
    memcpy(f, c, sizeof *c);
    return MPI_SUCCESS;
}

/* The mpi_f08 module's TYPE(MPI_Status) is the same words. */
int MPI_Status_f082c(const MPI_F08_status *f, MPI_Status *c)
{
    if (f == NULL || c == NULL)
        return MPI_ERR_ARG;
    memcpy(c, f, sizeof *c);
    return MPI_SUCCESS;
}

int MPI_Status_c2f08(const MPI_Status *c, MPI_F08_status *f)
{
    if (f == NULL || c == NULL)
        return MPI_ERR_ARG;
    memcpy(f, c, sizeof *c);
    return MPI_SUCCESS;
}

PMPI(MPI_Status_f2c) PMPI(MPI_Status_c2f)
PMPI(MPI_Status_f082c) PMPI(MPI_Status_c2f08)

_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "a Fortran 2008 status is a C status word for word");

int mpif_comm_size(MPI_Fint comm)
{
    MPI_Comm c = MPI_Comm_f2c(comm);
    int n = 0, inter = 0;

    if (c == MPI_COMM_NULL || MPI_Comm_test_inter(c, &inter) != MPI_SUCCESS)
        return 0;
    if (inter)
        MPI_Comm_remote_size(c, &n);
    else
        MPI_Comm_size(c, &n);
    return n;
}

int mpif_nbrs(MPI_Fint comm)
{
    MPI_Comm c = MPI_Comm_f2c(comm);
    int in = 0, out = 0, w, kind = MPI_UNDEFINED;

    if (c == MPI_COMM_NULL || MPI_Topo_test(c, &kind) != MPI_SUCCESS)
        return 0;
    if (kind == MPI_DIST_GRAPH)
        MPI_Dist_graph_neighbors_count(c, &in, &out, &w);
    else if (kind == MPI_GRAPH) {
        int r;
        MPI_Comm_rank(c, &r);
        MPI_Graph_neighbors_count(c, r, &in);
    } else if (kind == MPI_CART)
        MPI_Cartdim_get(c, &in), in *= 2;
    return in > out ? in : out;
}

void mpif_str_out(char *dst, size_t dstlen, const char *src, int srclen)
{
    size_t n = srclen < 0 ? 0 : (size_t)srclen;
    if (n > dstlen)
        n = dstlen;
    memcpy(dst, src, n);
    memset(dst + n, ' ', dstlen - n);
}

char *mpif_str_in(const char *src, size_t len)
{
    while (len > 0 && src[len - 1] == ' ')
        len--;
    char *s = malloc(len + 1);
    if (s != NULL) {
        memcpy(s, src, len);
        s[len] = '\0';
    }
    return s;
}
