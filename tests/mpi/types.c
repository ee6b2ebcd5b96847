/* SPDX-License-Identifier: MIT */
/* MPI-2 datatypes: subarray (C and Fortran order), darray (block, cyclic,
 * cyclic(k), none; every rank's share of a 2-D array together is every
 * element once), resized, indexed_block, hindexed_block, dup; extents and
 * true extents; envelope and contents of each constructor; names.  The
 * layouts are checked by packing arrays whose element i holds i and
 * comparing with the indexes computed here, and by sending to a rank. */
#include "mpitest.h"

#define MAXN 4096

/* Pack one item of t from an array a[i] = i (ints); out gets the indexes
 * in typemap order; returns how many. */
static int indexes_of(MPI_Datatype t, int count, int *out)
{
    static int a[MAXN];
    int size, pos = 0;

    for (int i = 0; i < MAXN; i++)
        a[i] = i;
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &size);
    MPI_Pack(a, count, t, out, MAXN * (int)sizeof(int), &pos,
             MPI_COMM_WORLD);
    CHECK(pos == size);
    return pos / (int)sizeof(int);
}

static void subarray(void)
{
    int sizes[3] = { 4, 5, 6 }, sub[3] = { 2, 3, 2 }, st[3] = { 1, 2, 3 };
    int got[MAXN], n, k = 0, size;
    MPI_Aint lb, ext, tlb, text;
    MPI_Datatype t, f;

    MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    n = indexes_of(t, 1, got);
    CHECK(n == 12);
    for (int i = 0; i < sub[0]; i++)        /* C: the last index fastest */
        for (int j = 0; j < sub[1]; j++)
            for (int l = 0; l < sub[2]; l++, k++)
                CHECK(got[k] == ((st[0] + i) * 5 + st[1] + j) * 6 + st[2] + l);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    MPI_Type_size(t, &size);
    CHECK(lb == 0 && ext == 4 * 5 * 6 * (MPI_Aint)sizeof(int));
    CHECK(size == 12 * (int)sizeof(int));
    CHECK(tlb == (MPI_Aint)sizeof(int) * ((1 * 5 + 2) * 6 + 3));
    CHECK(text == (MPI_Aint)sizeof(int) * (((2 * 5 + 4) * 6 + 4) -
                                           ((1 * 5 + 2) * 6 + 3) + 1));
    /* two items tile: the second is the same box one whole array on */
    n = indexes_of(t, 2, got);
    CHECK(n == 24 && got[12] == got[0] + 120 && got[23] == got[11] + 120);
    /* Fortran: the first index fastest */
    MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_INT,
                             &f);
    MPI_Type_commit(&f);
    n = indexes_of(f, 1, got);
    k = 0;
    for (int l = 0; l < sub[2]; l++)
        for (int j = 0; j < sub[1]; j++)
            for (int i = 0; i < sub[0]; i++, k++)
                CHECK(got[k] == ((st[2] + l) * 5 + st[1] + j) * 4 + st[0] + i);
    CHECK(n == 12);
    /* a bad box is refused */
    int bad[3] = { 4, 5, 6 };
    MPI_Datatype x;
    CHECK(MPI_Type_create_subarray(3, sizes, bad, st, MPI_ORDER_C, MPI_INT,
                                   &x) == MPI_ERR_ARG);
    MPI_Type_free(&t);
    MPI_Type_free(&f);
}

/* The owner of global index i of a dimension of g elements over p
 * processes, distribution d with argument b (as the standard defines
 * them, computed here independently of the library). */
static int owner(int i, int g, int d, int b, int p)
{
    if (d == MPI_DISTRIBUTE_NONE)
        return 0;
    if (d == MPI_DISTRIBUTE_BLOCK) {
        int blk = b == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : b;
        return i / blk;
    }
    return (i / (b == MPI_DISTRIBUTE_DFLT_DARG ? 1 : b)) % p;
}

/* Every process of a p0 x p1 grid (row-major) takes its darray share of
 * a 2-D array; the shares are checked element by element, and together
 * they cover each element exactly once. */
static void darray_case(int order, int d0, int b0, int d1, int b1, int p0,
                        int p1)
{
    int g[2] = { 7, 10 }, ds[2] = { d0, d1 }, as[2] = { b0, b1 };
    int ps[2] = { p0, p1 }, seen[70] = { 0 }, got[MAXN];

    for (int r = 0; r < p0 * p1; r++) {
        MPI_Datatype t;
        int n, k = 0, c0 = r / p1, c1 = r % p1;
        MPI_Aint lb, ext;
        CHECK(MPI_Type_create_darray(p0 * p1, r, 2, g, ds, as, ps, order,
                                     MPI_INT, &t) == MPI_SUCCESS);
        MPI_Type_commit(&t);
        n = indexes_of(t, 1, got);
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == 70 * (MPI_Aint)sizeof(int));
        /* the expected elements, in the array's storage order */
        for (int o = 0; o < 70; o++) {
            int i = order == MPI_ORDER_C ? o / 10 : o % 7;
            int j = order == MPI_ORDER_C ? o % 10 : o / 7;
            if (owner(i, 7, d0, b0, p0) != c0 ||
                owner(j, 10, d1, b1, p1) != c1)
                continue;
            CHECK(k < n && got[k] == o);
            k++;
            seen[o]++;
        }
        CHECK(k == n);
        MPI_Type_free(&t);
    }
    for (int o = 0; o < 70; o++)
        CHECK(seen[o] == 1);
}

static void darray(void)
{
    int D = MPI_DISTRIBUTE_DFLT_DARG;

    darray_case(MPI_ORDER_C, MPI_DISTRIBUTE_BLOCK, D, MPI_DISTRIBUTE_BLOCK,
                D, 2, 3);
    darray_case(MPI_ORDER_C, MPI_DISTRIBUTE_CYCLIC, D, MPI_DISTRIBUTE_CYCLIC,
                3, 3, 2);
    darray_case(MPI_ORDER_FORTRAN, MPI_DISTRIBUTE_BLOCK, 4,
                MPI_DISTRIBUTE_CYCLIC, 2, 2, 2);
    darray_case(MPI_ORDER_C, MPI_DISTRIBUTE_NONE, D, MPI_DISTRIBUTE_BLOCK, D,
                1, 4);
    /* blocks too small to cover the array are refused */
    int g[1] = { 10 }, ds[1] = { MPI_DISTRIBUTE_BLOCK }, as[1] = { 2 };
    int ps[1] = { 2 };
    MPI_Datatype t;
    CHECK(MPI_Type_create_darray(2, 0, 1, g, ds, as, ps, MPI_ORDER_C,
                                 MPI_INT, &t) == MPI_ERR_ARG);
}

static void resized_blocks(void)
{
    int got[MAXN], n, displs[3] = { 5, 0, 9 };
    MPI_Aint lb, ext, tlb, text, hd[2] = { 8, 40 };
    MPI_Datatype r, ib, hb, d, v;

    /* 2 ints, extent 5 ints, lower bound -1 int: items 5 ints apart */
    MPI_Type_contiguous(2, MPI_INT, &v);
    MPI_Type_create_resized(v, -(MPI_Aint)sizeof(int),
                            5 * (MPI_Aint)sizeof(int), &r);
    MPI_Type_commit(&r);
    MPI_Type_get_extent(r, &lb, &ext);
    MPI_Type_get_true_extent(r, &tlb, &text);
    CHECK(lb == -(MPI_Aint)sizeof(int) && ext == 5 * (MPI_Aint)sizeof(int));
    CHECK(tlb == 0 && text == 2 * (MPI_Aint)sizeof(int));
    n = indexes_of(r, 3, got);
    CHECK(n == 6 && got[0] == 0 && got[1] == 1 && got[2] == 5 &&
          got[3] == 6 && got[4] == 10 && got[5] == 11);
    /* blocks of 2 at 5, 0, 9 ints, in that order */
    MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &ib);
    MPI_Type_commit(&ib);
    n = indexes_of(ib, 1, got);
    CHECK(n == 6 && got[0] == 5 && got[1] == 6 && got[2] == 0 &&
          got[3] == 1 && got[4] == 9 && got[5] == 10);
    /* bytes 8 and 40: ints 2 and 10 */
    MPI_Type_create_hindexed_block(2, 3, hd, MPI_INT, &hb);
    MPI_Type_commit(&hb);
    n = indexes_of(hb, 1, got);
    CHECK(n == 6 && got[0] == 2 && got[2] == 4 && got[3] == 10 &&
          got[5] == 12);
    MPI_Type_dup(ib, &d);
    n = indexes_of(d, 1, got);
    CHECK(n == 6 && got[0] == 5 && got[4] == 9);
    /* a resized type through a real send: to the next rank and back */
    int src[12], dst[12], to = (t_rank + 1) % t_size;
    int from = (t_rank + t_size - 1) % t_size;
    for (int i = 0; i < 12; i++)
        src[i] = 100 * t_rank + i, dst[i] = -1;
    MPI_Sendrecv(src + 1, 2, r, to, 0, dst + 1, 2, r, from, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(dst[0] == -1 && dst[1] == 100 * from + 1 && dst[2] == 100 * from + 2
          && dst[3] == -1 && dst[6] == 100 * from + 6 && dst[8] == -1);
    MPI_Type_free(&v);
    MPI_Type_free(&r);
    MPI_Type_free(&ib);
    MPI_Type_free(&hb);
    MPI_Type_free(&d);
}

/* The envelope and contents give back each constructor's arguments. */
static void contents(void)
{
    int ni, na, nt, comb, ints[16];
    MPI_Aint aints[4];
    MPI_Datatype types[4], v, s, r, sub, blk;
    int sizes[2] = { 6, 7 }, subs[2] = { 2, 3 }, starts[2] = { 1, 4 };
    int lens[2] = { 1, 3 }, dsp[2] = { 2, 7 };
    MPI_Aint disps[2] = { 0, 16 };
    MPI_Datatype st[2] = { MPI_DOUBLE, MPI_CHAR };

    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nt == 0);
    MPI_Type_vector(3, 2, 5, MPI_FLOAT, &v);
    MPI_Type_get_envelope(v, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nt == 1);
    MPI_Type_get_contents(v, 16, 4, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 &&
          types[0] == MPI_FLOAT);
    MPI_Type_create_struct(2, lens, disps, st, &s);
    MPI_Type_get_envelope(s, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nt == 2);
    MPI_Type_get_contents(s, 16, 4, 4, ints, aints, types);
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 3 && aints[1] == 16 &&
          types[0] == MPI_DOUBLE && types[1] == MPI_CHAR);
    MPI_Type_create_resized(s, 4, 40, &r);
    MPI_Type_get_envelope(r, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(r, 16, 4, 4, ints, aints, types);
    CHECK(comb == MPI_COMBINER_RESIZED && na == 2 && aints[0] == 4 &&
          aints[1] == 40 && types[0] == s);
    MPI_Type_free(&types[0]);       /* contents' derived types are ours */
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN,
                             MPI_INT, &sub);
    MPI_Type_get_envelope(sub, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(sub, 16, 4, 4, ints, aints, types);
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && ints[0] == 2 &&
          ints[1] == 6 && ints[4] == 3 && ints[6] == 4 &&
          ints[7] == MPI_ORDER_FORTRAN);
    MPI_Type_create_indexed_block(2, 4, dsp, MPI_INT, &blk);
    MPI_Type_get_envelope(blk, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(blk, 16, 4, 4, ints, aints, types);
    CHECK(comb == MPI_COMBINER_INDEXED_BLOCK && ni == 4 && ints[1] == 4 &&
          ints[3] == 7);
    /* too little room, and a named type, are errors */
    CHECK(MPI_Type_get_contents(blk, 1, 0, 0, ints, aints, types) ==
          MPI_ERR_ARG);
    CHECK(MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, aints, types) ==
          MPI_ERR_TYPE);
    MPI_Type_free(&v);
    MPI_Type_free(&r);
    MPI_Type_free(&s);     /* still held by nothing: freed now */
    MPI_Type_free(&sub);
    MPI_Type_free(&blk);
}

static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Datatype t;

    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10);
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_get_name(t, name, &len);
    CHECK(len == 0 && name[0] == 0);
    MPI_Type_set_name(t, "three ints");
    MPI_Type_get_name(t, name, &len);
    CHECK(strcmp(name, "three ints") == 0 && len == 10);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "types");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    subarray();
    t_report("subarray-c-and-fortran");
    darray();
    t_report("darray-block-cyclic-none");
    resized_blocks();
    t_report("resized-indexed-block-dup");
    contents();
    t_report("envelope-contents");
    names();
    t_report("names");
    return t_finish();
}
