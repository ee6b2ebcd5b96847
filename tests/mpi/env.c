/* SPDX-License-Identifier: MIT */
/* The MPI-2/3 environment calls: thread level (FUNNELED, and another
 * thread is not the main one), Finalized, the library
 * version, info objects (set, get, truncation, order, delete, dup,
 * MPI_INFO_ENV, bad keys), error handlers of MPI-2 (create, set, get,
 * call), error classes, codes and strings added at run time (and the
 * MPI_LASTUSEDCODE attribute), MPI_Alloc_mem, address arithmetic,
 * communicator names and keyvals, and the MPI_Count forms. */
#include <pthread.h>
#include <stdint.h>
#include "mpitest.h"

static void info(void)
{
    MPI_Info i, d;
    char v[MPI_MAX_INFO_VAL + 1], k[MPI_MAX_INFO_KEY + 1];
    int flag, n, len;

    MPI_Info_create(&i);
    MPI_Info_get_nkeys(i, &n);
    CHECK(n == 0);
    MPI_Info_set(i, "cb_nodes", "4");
    MPI_Info_set(i, "striping_unit", "1048576");
    MPI_Info_set(i, "cb_nodes", "8");          /* replaces, keeps place */
    MPI_Info_get_nkeys(i, &n);
    CHECK(n == 2);
    MPI_Info_get_nthkey(i, 0, k);
    CHECK(strcmp(k, "cb_nodes") == 0);
    MPI_Info_get_nthkey(i, 1, k);
    CHECK(strcmp(k, "striping_unit") == 0);
    MPI_Info_get(i, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "8") == 0);
    MPI_Info_get(i, "striping_unit", 3, v, &flag);   /* truncated */
    CHECK(flag && strcmp(v, "104") == 0);
    MPI_Info_get_valuelen(i, "striping_unit", &len, &flag);
    CHECK(flag && len == 7);
    MPI_Info_get(i, "absent", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(!flag);
    /* MPI-3.1 9: valuelen is the room for characters, the terminator
     * after it; an absent key leaves value and valuelen as they were */
    strcpy(v, "zz");
    MPI_Info_get(i, "striping_unit", 0, v, &flag);
    CHECK(flag && v[0] == 0);
    strcpy(v, "zz");
    len = -5;
    MPI_Info_get(i, "absent", 1, v, &flag);
    MPI_Info_get_valuelen(i, "absent", &len, &flag);
    CHECK(!flag && len == -5 && strcmp(v, "zz") == 0);
    CHECK(MPI_Info_get_nthkey(i, 2, k) == MPI_ERR_ARG);    /* 0..N-1 */
    CHECK(MPI_Info_get_nthkey(i, -1, k) == MPI_ERR_ARG);
    memset(v, 'v', sizeof(v) - 1);
    v[sizeof(v) - 1] = 0;
    CHECK(MPI_Info_set(i, "big", v) == MPI_SUCCESS);       /* MAX fits */
    char bigger[MPI_MAX_INFO_VAL + 2];
    memset(bigger, 'v', sizeof(bigger) - 1);
    bigger[sizeof(bigger) - 1] = 0;
    CHECK(MPI_Info_set(i, "big", bigger) == MPI_ERR_INFO_VALUE);
    MPI_Info_delete(i, "big");
    MPI_Info_dup(i, &d);
    MPI_Info_delete(i, "cb_nodes");
    MPI_Info_get_nkeys(i, &n);
    CHECK(n == 1);
    MPI_Info_get(d, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "8") == 0);    /* the copy is its own */
    CHECK(MPI_Info_delete(i, "cb_nodes") == MPI_ERR_INFO_NOKEY);
    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof(longkey) - 1);
    longkey[sizeof(longkey) - 1] = 0;
    CHECK(MPI_Info_set(i, longkey, "x") == MPI_ERR_INFO_KEY);
    CHECK(MPI_Info_set(MPI_INFO_NULL, "a", "b") == MPI_ERR_INFO);
    MPI_Info_free(&i);
    MPI_Info_free(&d);
    CHECK(i == MPI_INFO_NULL && d == MPI_INFO_NULL);
    MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "MPI_THREAD_FUNNELED") == 0);
    /* a communicator keeps a copy of its info */
    MPI_Comm c;
    MPI_Info_create(&i);
    MPI_Info_set(i, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, i, &c);
    MPI_Info_free(&i);
    MPI_Comm_get_info(c, &d);
    MPI_Info_get(d, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0);
    MPI_Info_free(&d);
    MPI_Comm_free(&c);
}

static int seen_code;
static MPI_Comm seen_comm;

static void on_error(MPI_Comm *c, int *code, ...)
{
    seen_code = *code;
    seen_comm = *c;
}

static void errors(void)
{
    MPI_Errhandler eh, got;
    int cls, code, code2, len, rc, *last, flag;
    char s[MPI_MAX_ERROR_STRING];

    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    CHECK(got == eh);
    MPI_Errhandler_free(&got);
    rc = MPI_Send(&len, 1, MPI_INT, -5, 0, MPI_COMM_WORLD);
    CHECK(rc == MPI_ERR_RANK && seen_code == MPI_ERR_RANK &&
          seen_comm == MPI_COMM_WORLD);
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_code(cls, &code2);
    MPI_Add_error_string(code, "the sky fell");
    CHECK(cls > MPI_ERR_LASTCODE && code > cls && code2 > code);
    MPI_Error_class(code, &rc);
    CHECK(rc == cls);
    MPI_Error_class(cls, &rc);
    CHECK(rc == cls);
    MPI_Error_string(code, s, &len);
    CHECK(strcmp(s, "the sky fell") == 0 && len == 12);
    MPI_Error_string(code2, s, &len);
    CHECK(len == 0);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    CHECK(flag && *last == code2);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    CHECK(seen_code == code);
    /* a predefined code's string cannot change; a code needs a class */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Add_error_string(MPI_ERR_TAG, "no") == MPI_ERR_ARG);
    CHECK(MPI_Add_error_code(code, &code2) == MPI_ERR_ARG);
    MPI_Errhandler_free(&eh);
}

static void *ask_main(void *arg)
{
    MPI_Is_thread_main(arg);
    return NULL;
}

static void memory_and_names(void)
{
    double *p = NULL;
    char name[MPI_MAX_OBJECT_NAME], ver[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, flag, provided, main_thread, *usize;
    MPI_Aint a0, a1;
    MPI_Comm c;

    CHECK(MPI_Alloc_mem(1000 * sizeof(double), MPI_INFO_NULL, &p) == 0);
    for (int i = 0; i < 1000; i++)
        p[i] = i;
    MPI_Get_address(&p[10], &a0);
    MPI_Get_address(&p[3], &a1);
    CHECK(MPI_Aint_diff(a0, a1) == 7 * (MPI_Aint)sizeof(double));
    CHECK(MPI_Aint_add(a1, 7 * sizeof(double)) == a0);
    CHECK(*(double *)(intptr_t)MPI_Aint_add(a1, sizeof(double)) == 4.0);
    MPI_Free_mem(p);
    CHECK(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p) == MPI_ERR_ARG);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_name(c, name, &len);
    CHECK(len == 0);
    MPI_Comm_set_name(c, "solver");
    MPI_Comm_get_name(c, name, &len);
    CHECK(strcmp(name, "solver") == 0);
    MPI_Comm_free(&c);
    MPI_Query_thread(&provided);
    MPI_Is_thread_main(&main_thread);
    CHECK(provided == MPI_THREAD_FUNNELED && main_thread);
    /* another thread is not the main one (on the nodes threads run only
     * in yod's threads mode: without it there is none to ask) */
    pthread_t th;
    int other = -1;
    if (pthread_create(&th, NULL, ask_main, &other) == 0) {
        pthread_join(th, NULL);
        CHECK(other == 0);
    }
    MPI_Finalized(&flag);
    CHECK(!flag);
    MPI_Get_library_version(ver, &len);
    CHECK(len > 10 && len == (int)strlen(ver) && strstr(ver, "MPI") != NULL);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag);
    CHECK(flag && *usize == t_size);
}

/* Attributes through the MPI-2 names: copied on dup, deleted on free. */
static int deleted;

static int del_fn(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c, (void)k, (void)extra;
    deleted += *(int *)v;
    return MPI_SUCCESS;
}

static void keyvals(void)
{
    int key, val = 5, *got, flag;
    MPI_Comm c;

    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_fn, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_attr(c, key, &got, &flag);
    CHECK(flag && got == &val);
    MPI_Comm_free(&c);
    CHECK(deleted == 5);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    CHECK(deleted == 10);
    MPI_Comm_free_keyval(&key);
    CHECK(key == MPI_KEYVAL_INVALID);
}

static void counts(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    long v[3] = { t_rank, 2, 3 }, r[3] = { 0 };
    MPI_Count n, sz, lb, ext;
    MPI_Status st;
    MPI_Request q;

    MPI_Isend_c(v, 3, MPI_LONG, to, 1, MPI_COMM_WORLD, &q);
    MPI_Recv_c(r, 3, MPI_LONG, from, 1, MPI_COMM_WORLD, &st);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Get_count_c(&st, MPI_LONG, &n);
    CHECK(n == 3 && r[0] == from && r[2] == 3);
    MPI_Allreduce_c(v, r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(r[0] == (long)t_size * (t_size - 1) / 2);
    MPI_Type_size_c(MPI_DOUBLE_INT, &sz);
    MPI_Type_get_extent_x(MPI_DOUBLE_INT, &lb, &ext);
    CHECK(sz == 12 && lb == 0 && ext == 16);
    CHECK(MPI_Send_c(v, (MPI_Count)1 << 33, MPI_LONG, to, 1,
                     MPI_COMM_WORLD) == MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    int provided = -1, flag = -1;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    t_prog = "env";
    CHECK(provided == MPI_THREAD_FUNNELED);  /* the main thread calls MPI */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    info();
    t_report("info");
    errors();
    t_report("errhandlers-and-added-codes");
    memory_and_names();
    t_report("memory-names-versions");
    keyvals();
    t_report("comm-keyvals");
    counts();
    t_report("count-forms");
    MPI_Finalize();
    MPI_Finalized(&flag);
    if (flag != 1)
        printf("FAIL mpi.env.n%d.finalized (rank %d)\n", t_size, t_rank);
    return flag == 1 ? 0 : 1;
}
