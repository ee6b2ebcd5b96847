/* SPDX-License-Identifier: MIT */
/* Attribute caching on windows and datatypes (MPI-3.1 6.7.3, 6.7.4) as on
 * communicators: a keyval's copy callback runs at MPI_Type_dup (windows
 * are not duplicated), its delete callback at MPI_Win_free,
 * MPI_Type_free and MPI_*_delete_attr; a keyval of one kind is
 * MPI_ERR_KEYVAL on another; the window's predefined attributes beside
 * a program's own.  Also MPI_Alltoallw and MPI_Ialltoallw within one
 * communicator, with a type per block and MPI_IN_PLACE. */
#include "mpitest.h"

static int copies, deletes;

static int type_copy(MPI_Datatype t, int k, void *extra, void *in,
                     void *out, int *flag)
{
    (void)t, (void)k;
    copies++;
    *(void **)out = (void *)((long)in + *(long *)extra);   /* + extra */
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)t, (void)k, (void)v, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int win_del(MPI_Win w, int k, void *v, void *extra)
{
    (void)w, (void)k, (void)extra;
    deletes += (int)(long)v;
    return MPI_SUCCESS;
}

static void type_attrs(void)
{
    long extra = 5;
    int k, flag = -1, kc;
    void *v;
    MPI_Datatype t, d;

    MPI_Type_create_keyval(type_copy, type_del, &k, &extra);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_attr(t, k, (void *)10L);
    MPI_Type_get_attr(t, k, &v, &flag);
    CHECK(flag && (long)v == 10);
    MPI_Type_dup(t, &d);
    MPI_Type_get_attr(d, k, &v, &flag);
    CHECK(copies == 1 && flag && (long)v == 15);
    MPI_Type_delete_attr(d, k);
    MPI_Type_get_attr(d, k, &v, &flag);
    CHECK(deletes == 1 && !flag);
    MPI_Type_free(&t);
    CHECK(deletes == 2);
    /* a predefined type's attribute */
    MPI_Type_set_attr(MPI_DOUBLE, k, (void *)3L);
    MPI_Type_get_attr(MPI_DOUBLE, k, &v, &flag);
    CHECK(flag && (long)v == 3);
    MPI_Type_delete_attr(MPI_DOUBLE, k);
    CHECK(deletes == 3);
    /* kinds do not mix */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &kc, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Type_set_attr(d, kc, NULL), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, k, NULL), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free_keyval(&kc);
    MPI_Type_free(&d);
    MPI_Type_free_keyval(&k);
    CHECK(k == MPI_KEYVAL_INVALID);
}

static void win_attrs(void)
{
    int buf[4], k, flag = -1, *unit;
    void *v;
    MPI_Win w;

    deletes = 0;
    MPI_Win_create(buf, sizeof(buf), 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_create_keyval(MPI_WIN_DUP_FN, win_del, &k, NULL);
    MPI_Win_set_attr(w, k, (void *)7L);
    MPI_Win_get_attr(w, k, &v, &flag);
    CHECK(flag && (long)v == 7);
    MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == 4);
    MPI_Win_get_attr(w, MPI_WIN_BASE, &v, &flag);
    CHECK(flag && v == buf);
    MPI_Win_free_keyval(&k);            /* the attribute keeps it alive */
    MPI_Win_free(&w);
    CHECK(deletes == 7);
}

/* alltoallw: to rank j, j+1 ints at byte 16j; from rank j, the same
 * count received as a pair type and ints at byte 24j */
static void alltoallw(bool nb, bool inplace)
{
    int n = t_size, sc[16], rc[16], sd[16], rd[16];
    int s[64], r[96];
    MPI_Datatype st[16], rt[16], pair;

    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    memset(r, -1, sizeof(r));
    for (int j = 0; j < n; j++) {
        int cnt = inplace ? t_rank + j + 1 : j + 1;
        sc[j] = cnt, sd[j] = 16 * j, st[j] = MPI_INT;
        rd[j] = 24 * j;
        /* what j sends me: j's count for me */
        int from = inplace ? t_rank + j + 1 : t_rank + 1;
        rt[j] = from % 2 ? MPI_INT : pair;
        rc[j] = from % 2 ? from : from / 2;
        for (int e = 0; e < cnt && e < 4; e++)
            s[4 * j + e] = 1000 * t_rank + 10 * j + e;
        if (inplace) {          /* the block to j is where j's will be */
            rt[j] = MPI_INT, rc[j] = cnt;
            for (int e = 0; e < cnt; e++)
                r[6 * j + e] = 1000 * t_rank + 10 * j + e;
        }
    }
    if (nb) {
        MPI_Request q;
        MPI_Ialltoallw(inplace ? MPI_IN_PLACE : s, sc, sd, st, r, rc, rd, rt,
                       MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Alltoallw(inplace ? MPI_IN_PLACE : s, sc, sd, st, r, rc, rd, rt,
                      MPI_COMM_WORLD);
    }
    for (int j = 0; j < n; j++) {
        int cnt = inplace ? t_rank + j + 1 : t_rank + 1;
        for (int e = 0; e < cnt && e < 4; e++)
            CHECK(r[6 * j + e] == 1000 * j + 10 * t_rank + e);
    }
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "keyvals");
    type_attrs();
    t_report("type-keyvals");
    win_attrs();
    t_report("win-keyvals");
    alltoallw(false, false);
    alltoallw(true, false);
    t_report("alltoallw-types-per-block");
    if (t_size <= 3) {          /* in place: at most 4 ints a block */
        alltoallw(false, true);
        alltoallw(true, true);
        t_report("alltoallw-in-place");
    }
    return t_finish();
}
