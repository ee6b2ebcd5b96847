/* SPDX-License-Identifier: MIT */
/* Attributes: predefined keys, keyval create/free, put/get/delete, copy
 * callbacks on dup (copied, not copied), delete callbacks on free. */
#include "mpitest.h"

static int deleted, copied;

static int del_fn(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)k;
    deleted += *(int *)extra;
    (void)val;
    return MPI_SUCCESS;
}

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out,
                   int *flag)
{
    (void)c, (void)k, (void)extra;
    copied++;
    *(void **)out = (char *)in + 1;     /* a visibly different value */
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int *tagub, flag, k1, k2, k3, one = 1, ten = 10;
    void *v;
    MPI_Comm d;

    t_init(&argc, &argv, "attr");
    MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tagub, &flag);
    CHECK(flag && *tagub >= 32767);
    MPI_Attr_get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &tagub, &flag);
    CHECK(flag);
    t_report("predefined");

    MPI_Keyval_create(copy_fn, del_fn, &k1, &one);
    MPI_Keyval_create(MPI_NULL_COPY_FN, del_fn, &k2, &ten);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k3, NULL);
    CHECK(k1 != k2 && k2 != k3);
    MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag);
    CHECK(!flag);
    MPI_Attr_put(MPI_COMM_WORLD, k1, (void *)100);
    MPI_Attr_put(MPI_COMM_WORLD, k2, (void *)200);
    MPI_Attr_put(MPI_COMM_WORLD, k3, (void *)300);
    MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag);
    CHECK(flag && v == (void *)100);
    MPI_Attr_put(MPI_COMM_WORLD, k1, (void *)101);   /* replace: deletes */
    CHECK(deleted == 1);
    t_report("put-get-replace");

    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    CHECK(copied == 1);
    MPI_Attr_get(d, k1, &v, &flag);
    CHECK(flag && v == (void *)102);
    MPI_Attr_get(d, k2, &v, &flag);
    CHECK(!flag);                        /* null copy: not copied */
    MPI_Attr_get(d, k3, &v, &flag);
    CHECK(flag && v == (void *)300);     /* MPI_DUP_FN: same value */
    deleted = 0;
    MPI_Comm_free(&d);
    CHECK(deleted == 1);                 /* k1's delete ran; k3 has none */
    t_report("dup-copy-callbacks-free-delete");

    deleted = 0;
    MPI_Attr_delete(MPI_COMM_WORLD, k2);
    CHECK(deleted == 10);
    MPI_Attr_get(MPI_COMM_WORLD, k2, &v, &flag);
    CHECK(!flag);
    MPI_Keyval_free(&k1);
    CHECK(k1 == MPI_KEYVAL_INVALID);
    MPI_Attr_delete(MPI_COMM_WORLD, k3);
    MPI_Keyval_free(&k2);
    MPI_Keyval_free(&k3);
    t_report("delete-keyval-free");
    return t_finish();
}
