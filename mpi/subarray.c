/* SPDX-License-Identifier: MIT */
/*
 * subarray.c: datatypes for pieces of n-dimensional arrays:
 * MPI_Type_create_subarray (a box) and MPI_Type_create_darray (this
 * process's share of an array distributed block, cyclic or not at all
 * over a grid of processes).  Both come down to one list of indexes per
 * dimension; the type is their product, runs of consecutive indexes of
 * the fastest-varying dimension as blocks, with the whole array's extent
 * (lower bound 0), so consecutive items tile the array.
 */
#include <stdlib.h>
#include "mpi_impl.h"

/* The indexes of one dimension this piece holds, in increasing order. */
struct dim {
    int n, *idx;
};

static void dims_free(struct dim *d, int ndims)
{
    for (int i = 0; d != NULL && i < ndims; i++)
        free(d[i].idx);
    free(d);
}

/* The type of the elements at the product of the index lists of an array
 * of sizes[] elements of old; dimension order[k] is the k-th slowest. */
static int product_type(int ndims, const int *sizes, struct dim *d,
                        const int *order, MPI_Datatype old,
                        MPI_Datatype *out)
{
    MPI_Aint ext = dt_extent(old), *stride, total = ext;
    size_t nblk = 1, cap = 1;
    int inner = order[ndims - 1], *lens, rc;
    MPI_Aint *disps;

    if ((stride = malloc((size_t)ndims * sizeof(*stride))) == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = ndims - 1; k >= 0; k--) {      /* fastest first */
        stride[order[k]] = total;
        total *= sizes[order[k]];
    }
    for (int k = 0; k < ndims; k++)
        cap *= (size_t)d[k].n;
    lens = malloc((cap + 1) * sizeof(int));
    disps = malloc((cap + 1) * sizeof(MPI_Aint));
    if (lens == NULL || disps == NULL) {
        free(stride), free(lens), free(disps);
        return MPI_ERR_NO_MEM;
    }
    /* walk the outer dimensions like an odometer; the inner one's
     * consecutive indexes are merged into blocks */
    int *at = calloc((size_t)ndims, sizeof(int));
    nblk = 0;
    for (bool more = at != NULL && cap > 0; more;) {
        MPI_Aint base = 0;
        for (int k = 0; k < ndims - 1; k++)
            base += (MPI_Aint)d[order[k]].idx[at[k]] * stride[order[k]];
        for (int j = 0; j < d[inner].n; j++) {
            int i0 = d[inner].idx[j];
            if (j > 0 && d[inner].idx[j - 1] + 1 == i0) {
                lens[nblk - 1]++;
                continue;
            }
            lens[nblk] = 1;
            disps[nblk++] = base + (MPI_Aint)i0 * stride[inner];
        }
        more = false;
        for (int k = ndims - 2; k >= 0 && !more; k--) {
            if (++at[k] < d[order[k]].n)
                more = true;
            else
                at[k] = 0;
        }
    }
    rc = at == NULL ? MPI_ERR_NO_MEM :
         dt_build((int)nblk, lens, disps, old, out);
    if (rc == MPI_SUCCESS)
        dt_resize(*out, 0, total);
    free(at), free(stride), free(lens), free(disps);
    return rc;
}

/* The type of the product of the index lists d (freed here) of an
 * array stored in order (C: the last dimension fastest). */
static int array_type(int ndims, const int *sizes, struct dim *d, int order,
                      MPI_Datatype old, MPI_Datatype *newt)
{
    int *o = calloc((size_t)ndims, sizeof(int)), rc = MPI_ERR_NO_MEM;

    for (int k = 0; o != NULL && k < ndims; k++)    /* slowest first */
        o[k] = order == MPI_ORDER_C ? k : ndims - 1 - k;
    if (o != NULL)
        rc = product_type(ndims, sizes, d, o, old, newt);
    dims_free(d, ndims);
    free(o);
    return rc;
}

static int range(struct dim *d, int from, int n)
{
    d->n = n;
    if ((d->idx = malloc(((size_t)n + 1) * sizeof(int))) == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        d->idx[i] = from + i;
    return MPI_SUCCESS;
}

static int subarray_check(int ndims, const int *sizes, const int *subsizes,
                          const int *starts, int order, MPI_Datatype old)
{
    if (ndims <= 0 || !sizes || !subsizes || !starts)
        return MPI_ERR_ARG;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPI_ERR_ARG;
    for (int k = 0; k < ndims; k++)
        if (sizes[k] < 1 || subsizes[k] < 1 || subsizes[k] > sizes[k] ||
            starts[k] < 0 || starts[k] > sizes[k] - subsizes[k])
            return MPI_ERR_ARG;
    return dt_check_any(old);
}

int MPI_Type_create_subarray(int ndims, const int *sizes,
                             const int *subsizes, const int *starts,
                             int order, MPI_Datatype old,
                             MPI_Datatype *newt)
{
    int rc = subarray_check(ndims, sizes, subsizes, starts, order, old);
    struct dim *d = NULL;
    int a[2] = { ndims, order };
    struct rec r;

    if (rc == MPI_SUCCESS && !(d = calloc((size_t)ndims, sizeof(*d))))
        rc = MPI_ERR_NO_MEM;
    for (int k = 0; rc == MPI_SUCCESS && k < ndims; k++)
        rc = range(&d[k], starts[k], subsizes[k]);
    if (rc == MPI_SUCCESS)
        rc = array_type(ndims, sizes, d, order, old, newt);    /* frees d */
    else
        dims_free(d, ndims);
    rec_init(&r, MPI_COMBINER_SUBARRAY);
    rec_ints(&r, a, 1);
    rec_ints(&r, sizes, rc ? 0 : ndims);
    rec_ints(&r, subsizes, rc ? 0 : ndims);
    rec_ints(&r, starts, rc ? 0 : ndims);
    rec_ints(&r, &a[1], 1);
    rec_types(&r, &old, 1);
    rc = rec_keep(rc, newt, &r);
    return rc ? mpi_err(MPI_COMM_WORLD, rc, "MPI_Type_create_subarray") : 0;
}

/* ---- darray ---- */

/* The indexes of a dimension of gsize elements that process coordinate
 * c of p holds: blocks of b (BLOCK), cycles of b (CYCLIC), or all. */
static int distribute(struct dim *d, int gsize, int distrib, int darg, int c,
                      int p)
{
    int b;

    if (distrib == MPI_DISTRIBUTE_NONE)
        return p == 1 ? range(d, 0, gsize) : MPI_ERR_ARG;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + p - 1) / p : darg;
        if (b <= 0 || (long)b * p < gsize)
            return MPI_ERR_ARG;         /* the blocks must cover it */
        int from = c * b, to = from + b < gsize ? from + b : gsize;
        return range(d, from < gsize ? from : gsize, to > from ? to - from
                                                               : 0);
    }
    if (distrib != MPI_DISTRIBUTE_CYCLIC)
        return MPI_ERR_ARG;
    b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (b <= 0)
        return MPI_ERR_ARG;
    d->n = 0;
    if ((d->idx = malloc(((size_t)gsize + 1) * sizeof(int))) == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < gsize; i++)
        if ((i / b) % p == c)
            d->idx[d->n++] = i;
    return MPI_SUCCESS;
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int *gsizes,
                           const int *distribs, const int *dargs,
                           const int *psizes, int order, MPI_Datatype old,
                           MPI_Datatype *newt)
{
    int rc = dt_check_any(old), nprocs = 1, rest = rank;
    struct dim *d = NULL;
    int a[4] = { size, rank, ndims, order };
    struct rec r;

    if (rc == MPI_SUCCESS && (ndims <= 0 || !gsizes || !distribs ||
                              !dargs || !psizes ||
                              (order != MPI_ORDER_C &&
                               order != MPI_ORDER_FORTRAN)))
        rc = MPI_ERR_ARG;
    for (int k = 0; rc == MPI_SUCCESS && k < ndims; k++)
        nprocs *= psizes[k] > 0 ? psizes[k] : 0;
    if (rc == MPI_SUCCESS && (nprocs != size || rank < 0 || rank >= size))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && !(d = calloc((size_t)ndims, sizeof(*d))))
        rc = MPI_ERR_NO_MEM;
    /* the process grid is row-major whatever the array's order */
    for (int k = ndims - 1; rc == MPI_SUCCESS && k >= 0; k--) {
        rc = distribute(&d[k], gsizes[k], distribs[k], dargs[k],
                        rest % psizes[k], psizes[k]);
        rest /= psizes[k];
    }
    if (rc == MPI_SUCCESS)
        rc = array_type(ndims, gsizes, d, order, old, newt);   /* frees d */
    else
        dims_free(d, ndims);
    rec_init(&r, MPI_COMBINER_DARRAY);
    rec_ints(&r, a, 3);
    rec_ints(&r, gsizes, rc ? 0 : ndims);
    rec_ints(&r, distribs, rc ? 0 : ndims);
    rec_ints(&r, dargs, rc ? 0 : ndims);
    rec_ints(&r, psizes, rc ? 0 : ndims);
    rec_ints(&r, &a[3], 1);
    rec_types(&r, &old, 1);
    rc = rec_keep(rc, newt, &r);
    return rc ? mpi_err(MPI_COMM_WORLD, rc, "MPI_Type_create_darray") : 0;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Type_create_subarray)
PMPI(MPI_Type_create_darray)
