/* SPDX-License-Identifier: MIT */
/*
 * datatype.c: the type constructors.  Every type is flattened at
 * construction into runs of one basic type (see struct dt_run), with
 * MPI-1 bounds: MPI_LB/MPI_UB markers are sticky and override the data's
 * own bounds; a struct is padded to the alignment of its widest member.
 * Then commit, free, the bounds and extent queries, addresses.  The
 * predefined types are dt_basic.c.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

/* Alignment used for struct padding: its basic types' widest. */
static MPI_Aint dt_align(const struct mpi_dt_s *dt)
{
    MPI_Aint a = 1;

    for (int i = 0; i < dt->nruns; i++) {
        MPI_Aint e = (MPI_Aint)dt_basic_align(dt->runs[i].base);
        if (e > a)
            a = e;
    }
    return a;
}

/* Where the data of one item lies (MPI's true lower and upper bound):
 * from the runs, whatever the markers or a resize say. */
static void true_bounds(struct mpi_dt_s *dt)
{
    for (int i = 0; i < dt->nruns; i++) {
        const struct mpi_dt_s *b = dt_basic(dt->runs[i].base);
        MPI_Aint lo = dt->runs[i].off;
        MPI_Aint hi = lo + (dt->runs[i].count - 1) * dt_extent(b) +
                      b->true_ub;
        if (i == 0 || lo < dt->true_lb)
            dt->true_lb = lo;
        if (i == 0 || hi > dt->true_ub)
            dt->true_ub = hi;
    }
}

/* ---- the builder: blocks of (count x type) at byte displacements ---- */

struct builder {
    struct mpi_dt_s *dt;
    int cap;
    bool lb_set, ub_set;
};

static int add_run(struct builder *b, MPI_Aint off, MPI_Aint count, int base)
{
    struct mpi_dt_s *dt = b->dt;
    struct dt_run *last = dt->nruns ? &dt->runs[dt->nruns - 1] : NULL;
    MPI_Aint sz = (MPI_Aint)dt_basic_size(base);

    if (count == 0)
        return MPI_SUCCESS;
    /* merge with the previous run if it continues it exactly */
    if (last && last->base == base && !dt_pair(base) &&
        last->off + last->count * sz == off) {
        last->count += count;
        return MPI_SUCCESS;
    }
    if (dt->nruns == b->cap) {
        int ncap = b->cap ? 2 * b->cap : 8;
        struct dt_run *n = realloc(dt->runs, (size_t)ncap * sizeof(*n));
        if (n == NULL)
            return MPI_ERR_INTERN;
        dt->runs = n;
        b->cap = ncap;
    }
    dt->runs[dt->nruns++] = (struct dt_run){ off, count, base };
    return MPI_SUCCESS;
}

static void add_bounds(struct builder *b, const struct mpi_dt_s *t,
                       MPI_Aint disp, MPI_Aint n)
{
    struct mpi_dt_s *dt = b->dt;
    MPI_Aint ext = dt_extent(t), span = (n - 1) * ext;
    MPI_Aint lo = disp + t->lb + (span < 0 ? span : 0);
    MPI_Aint hi = disp + t->ub + (span > 0 ? span : 0);

    /* A marked bound beats unmarked ones; among equals take min/max. */
    if (t->lb_marked && !dt->lb_marked) {
        dt->lb_marked = true;
        dt->lb = lo;
    } else if (t->lb_marked == dt->lb_marked && (!b->lb_set || lo < dt->lb)) {
        dt->lb = lo;
    }
    if (t->ub_marked && !dt->ub_marked) {
        dt->ub_marked = true;
        dt->ub = hi;
    } else if (t->ub_marked == dt->ub_marked && (!b->ub_set || hi > dt->ub)) {
        dt->ub = hi;
    }
    b->lb_set = b->ub_set = true;
}

static int add_block(struct builder *b, const struct mpi_dt_s *t,
                     MPI_Aint disp, MPI_Aint n)
{
    struct mpi_dt_s *dt = b->dt;
    MPI_Aint ext = dt_extent(t);
    int rc = MPI_SUCCESS;

    if (n <= 0)
        return MPI_SUCCESS;
    add_bounds(b, t, disp, n);
    dt->size += n * t->size;
    dt->nelems += n * t->nelems;
    if (t->base != -2)
        dt->base = (dt->base == -2 || dt->base == t->base) ? t->base : -1;
    if (t->nruns == 1 && !dt_pair(t->runs[0].base) && t->size == ext)
        return add_run(b, disp + t->runs[0].off, n * t->runs[0].count,
                       t->runs[0].base);
    for (MPI_Aint j = 0; j < n && rc == MPI_SUCCESS; j++)
        for (int k = 0; k < t->nruns && rc == MPI_SUCCESS; k++)
            rc = add_run(b, disp + j * ext + t->runs[k].off,
                         t->runs[k].count, t->runs[k].base);
    return rc;
}

/* The one constructor: block i is lens[i] items of types[i or 0] at byte
 * displacement disps[i]. */
static int build(int count, const int *lens, const MPI_Aint *disps,
                 const MPI_Datatype *types, bool one_type, bool pad,
                 MPI_Datatype *out)
{
    struct builder b = { 0 };
    int rc = MPI_SUCCESS;

    if (count < 0 || out == NULL)
        return count < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG;
    for (int i = 0; i < count; i++) {
        MPI_Datatype t = types[one_type ? 0 : i];
        if (t == MPI_DATATYPE_NULL || t->refs <= 0)
            return MPI_ERR_TYPE;
        if (lens[i] < 0)
            return MPI_ERR_ARG;
    }
    if ((b.dt = calloc(1, sizeof(*b.dt))) == NULL)
        return MPI_ERR_INTERN;
    b.dt->refs = 1;
    b.dt->base = -2;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = add_block(&b, types[one_type ? 0 : i], disps[i], lens[i]);
    if (rc != MPI_SUCCESS) {
        dt_release(b.dt);
        return rc;
    }
    if (b.dt->base == -2)
        b.dt->base = -1;
    true_bounds(b.dt);
    if (pad && !b.dt->ub_marked) {
        MPI_Aint a = dt_align(b.dt), ext = dt_extent(b.dt);
        if (ext % a)
            b.dt->ub += a - ext % a;
    }
    *out = b.dt;
    return MPI_SUCCESS;
}

/* Equal-stride blocks (vector/hvector/contiguous). */
static int build_strided(int count, int blocklen, MPI_Aint stride,
                         MPI_Datatype old, MPI_Datatype *out)
{
    int *lens;
    MPI_Aint *disps;
    int rc;

    if (count < 0)
        return MPI_ERR_COUNT;
    if (blocklen < 0)
        return MPI_ERR_ARG;
    lens = malloc(((size_t)count + 1) * sizeof(int));
    disps = malloc(((size_t)count + 1) * sizeof(MPI_Aint));
    if (lens == NULL || disps == NULL) {
        free(lens);
        free(disps);
        return MPI_ERR_INTERN;
    }
    for (int i = 0; i < count; i++) {
        lens[i] = blocklen;
        disps[i] = i * stride;
    }
    rc = build(count, lens, disps, &old, true, false, out);
    free(lens);
    free(disps);
    return rc;
}

static int TYPE_ERR(int rc, const char *name)
{
    return rc ? mpi_err(MPI_COMM_WORLD, rc, name) : MPI_SUCCESS;
}

int dt_build(int count, const int *lens, const MPI_Aint *disps,
             MPI_Datatype old, MPI_Datatype *out)
{
    return build(count, lens, disps, &old, true, false, out);
}

void dt_resize(MPI_Datatype dt, MPI_Aint lb, MPI_Aint extent)
{
    dt->lb = lb;
    dt->ub = lb + extent;
    dt->lb_marked = dt->ub_marked = true;
}

/* Each constructor records what it was given (typeinfo.c). */
static int record(int rc, MPI_Datatype *newt, int comb, int ni,
                  const int *ints, int na, const MPI_Aint *aints, int nt,
                  const MPI_Datatype *types)
{
    struct rec r;

    rec_init(&r, comb);
    rec_ints(&r, ints, ni);
    rec_aints(&r, aints, na);
    rec_types(&r, types, nt);
    return rec_keep(rc, newt, &r);
}

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newt)
{
    MPI_Aint d = 0;
    int rc = count < 0 ? MPI_ERR_COUNT : build(1, &count, &d, &old, true,
                                               false, newt);
    rc = record(rc, newt, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1,
                &old);
    return TYPE_ERR(rc, "MPI_Type_contiguous");
}

int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                    MPI_Datatype *newt)
{
    int a[3] = { count, blocklen, stride };
    int rc = (old == MPI_DATATYPE_NULL) ? MPI_ERR_TYPE :
             build_strided(count, blocklen, stride * dt_extent(old), old,
                           newt);
    rc = record(rc, newt, MPI_COMBINER_VECTOR, 3, a, 0, NULL, 1, &old);
    return TYPE_ERR(rc, "MPI_Type_vector");
}

int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride,
                            MPI_Datatype old, MPI_Datatype *newt)
{
    int a[2] = { count, blocklen };
    int rc = build_strided(count, blocklen, stride, old, newt);
    rc = record(rc, newt, MPI_COMBINER_HVECTOR, 2, a, 1, &stride, 1, &old);
    return TYPE_ERR(rc, "MPI_Type_create_hvector");
}

int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride,
                     MPI_Datatype old, MPI_Datatype *newt)
{
    return MPI_Type_create_hvector(count, blocklen, stride, old, newt);
}

/* indexed and indexed_block: displacements in extents of old */
static int indexed(int count, const int *lens, const int *displs,
                   MPI_Datatype old, MPI_Datatype *newt)
{
    MPI_Aint *d;
    int rc;

    if (count < 0 || old == MPI_DATATYPE_NULL)
        return count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE;
    if ((d = malloc(((size_t)count + 1) * sizeof(*d))) == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < count; i++)
        d[i] = (MPI_Aint)displs[i] * dt_extent(old);
    rc = build(count, lens, d, &old, true, false, newt);
    free(d);
    return rc;
}

int MPI_Type_indexed(int count, const int *lens, const int *displs,
                     MPI_Datatype old, MPI_Datatype *newt)
{
    struct rec r;
    int rc = indexed(count, lens, displs, old, newt);

    rec_init(&r, MPI_COMBINER_INDEXED);
    rec_ints(&r, &count, 1);
    rec_ints(&r, lens, rc ? 0 : count);
    rec_ints(&r, displs, rc ? 0 : count);
    rec_types(&r, &old, 1);
    return TYPE_ERR(rec_keep(rc, newt, &r), "MPI_Type_indexed");
}

/* The same block length for every block: one array of lengths. */
static int *same_lens(int count, int blocklen)
{
    int *lens = malloc(((size_t)(count > 0 ? count : 0) + 1) * sizeof(int));

    for (int i = 0; lens != NULL && i < count; i++)
        lens[i] = blocklen;
    return lens;
}

int MPI_Type_create_indexed_block(int count, int blocklen,
                                  const int *displs, MPI_Datatype old,
                                  MPI_Datatype *newt)
{
    int *lens = same_lens(count, blocklen), a[2] = { count, blocklen };
    int rc = lens ? indexed(count, lens, displs, old, newt) : MPI_ERR_NO_MEM;
    struct rec r;

    free(lens);
    rec_init(&r, MPI_COMBINER_INDEXED_BLOCK);
    rec_ints(&r, a, 2);
    rec_ints(&r, displs, rc ? 0 : count);
    rec_types(&r, &old, 1);
    return TYPE_ERR(rec_keep(rc, newt, &r), "MPI_Type_create_indexed_block");
}

int MPI_Type_create_hindexed_block(int count, int blocklen,
                                   const MPI_Aint *displs, MPI_Datatype old,
                                   MPI_Datatype *newt)
{
    int *lens = same_lens(count, blocklen), a[2] = { count, blocklen };
    int rc = count < 0 ? MPI_ERR_COUNT : lens == NULL ? MPI_ERR_NO_MEM :
             build(count, lens, displs, &old, true, false, newt);

    free(lens);
    rc = record(rc, newt, MPI_COMBINER_HINDEXED_BLOCK, 2, a,
                rc ? 0 : count, displs, 1, &old);
    return TYPE_ERR(rc, "MPI_Type_create_hindexed_block");
}

int MPI_Type_create_hindexed(int count, const int *lens,
                             const MPI_Aint *displs, MPI_Datatype old,
                             MPI_Datatype *newt)
{
    struct rec r;
    int rc = build(count, lens, displs, &old, true, false, newt);

    rec_init(&r, MPI_COMBINER_HINDEXED);
    rec_ints(&r, &count, 1);
    rec_ints(&r, lens, rc ? 0 : count);
    rec_aints(&r, displs, rc ? 0 : count);
    rec_types(&r, &old, 1);
    return TYPE_ERR(rec_keep(rc, newt, &r), "MPI_Type_create_hindexed");
}

int MPI_Type_hindexed(int count, int *lens, MPI_Aint *displs,
                      MPI_Datatype old, MPI_Datatype *newt)
{
    return MPI_Type_create_hindexed(count, lens, displs, old, newt);
}

int MPI_Type_create_struct(int count, const int *lens, const MPI_Aint *displs,
                           const MPI_Datatype *types, MPI_Datatype *newt)
{
    struct rec r;
    int rc = build(count, lens, displs, types, false, true, newt);

    rec_init(&r, MPI_COMBINER_STRUCT);
    rec_ints(&r, &count, 1);
    rec_ints(&r, lens, rc ? 0 : count);
    rec_aints(&r, displs, rc ? 0 : count);
    rec_types(&r, types, rc ? 0 : count);
    return TYPE_ERR(rec_keep(rc, newt, &r), "MPI_Type_create_struct");
}

int MPI_Type_struct(int count, int *lens, MPI_Aint *displs,
                    MPI_Datatype *types, MPI_Datatype *newt)
{
    return MPI_Type_create_struct(count, lens, displs, types, newt);
}

/* The same data with the bounds lb and lb+extent (MPI-2's way of
 * setting them; MPI_LB/MPI_UB markers are MPI-1's). */
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newt)
{
    MPI_Aint zero = 0, a[2] = { lb, extent };
    int one = 1, rc = newt == NULL ? MPI_ERR_ARG :
                      build(1, &one, &zero, &old, true, false, newt);

    if (rc == MPI_SUCCESS)
        dt_resize(*newt, lb, extent);
    rc = record(rc, newt, MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1, &old);
    return TYPE_ERR(rc, "MPI_Type_create_resized");
}

int MPI_Type_commit(MPI_Datatype *dt)
{
    if (dt == NULL || *dt == MPI_DATATYPE_NULL || (*dt)->refs <= 0)
        return TYPE_ERR(MPI_ERR_TYPE, "MPI_Type_commit");
    (*dt)->committed = true;
    return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *dt)
{
    int rc;

    if (dt == NULL || *dt == MPI_DATATYPE_NULL || (*dt)->builtin ||
        (*dt)->refs <= 0)
        return TYPE_ERR(MPI_ERR_TYPE, "MPI_Type_free");
    if ((rc = type_attr_delete_all(*dt)) != MPI_SUCCESS)
        return TYPE_ERR(rc, "MPI_Type_free");   /* a callback refused */
    dt_release(*dt);   /* pending requests keep their own reference */
    *dt = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

static int dt_query(MPI_Datatype dt, const char *name)
{
    return TYPE_ERR(dt_check_any(dt), name);
}

int MPI_Type_extent(MPI_Datatype dt, MPI_Aint *extent)
{
    int rc = dt_query(dt, "MPI_Type_extent");
    if (rc == MPI_SUCCESS)
        *extent = dt_extent(dt);
    return rc;
}

int MPI_Type_size(MPI_Datatype dt, int *size)
{
    int rc = dt_query(dt, "MPI_Type_size");
    if (rc == MPI_SUCCESS)
        *size = (int)dt->size;
    return rc;
}

int MPI_Type_lb(MPI_Datatype dt, MPI_Aint *lb)
{
    int rc = dt_query(dt, "MPI_Type_lb");
    if (rc == MPI_SUCCESS)
        *lb = dt->lb;
    return rc;
}

int MPI_Type_ub(MPI_Datatype dt, MPI_Aint *ub)
{
    int rc = dt_query(dt, "MPI_Type_ub");
    if (rc == MPI_SUCCESS)
        *ub = dt->ub;
    return rc;
}

int MPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    int rc = dt_query(dt, "MPI_Type_get_extent");
    if (rc == MPI_SUCCESS) {
        *lb = dt->lb;
        *extent = dt_extent(dt);
    }
    return rc;
}

int MPI_Address(void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Type_contiguous)
PMPI(MPI_Type_vector)
PMPI(MPI_Type_hvector)
PMPI(MPI_Type_create_hvector)
PMPI(MPI_Type_indexed)
PMPI(MPI_Type_hindexed)
PMPI(MPI_Type_create_hindexed)
PMPI(MPI_Type_struct)
PMPI(MPI_Type_create_struct)
PMPI(MPI_Type_create_indexed_block)
PMPI(MPI_Type_create_hindexed_block)
PMPI(MPI_Type_create_resized)
PMPI(MPI_Type_commit)
PMPI(MPI_Type_free)
PMPI(MPI_Type_extent)
PMPI(MPI_Type_size)
PMPI(MPI_Type_lb)
PMPI(MPI_Type_ub)
PMPI(MPI_Type_get_extent)
PMPI(MPI_Address)
PMPI(MPI_Get_address)
