/* SPDX-License-Identifier: MIT */
/*
 * attr.c: attribute caching on communicators (MPI_Keyval_*, MPI_Attr_*,
 * and MPI-2's MPI_Comm_*_keyval/_attr, the same calls).  Keyvals are
 * slots in a table; the predefined keys (MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_LASTUSEDCODE, MPI_UNIVERSE_SIZE, MPI_APPNUM)
 * are answered for every communicator.  MPI_Comm_dup runs each copy
 * callback; MPI_Comm_free each delete one.
 */
#include <stdlib.h>
#include "mpi_impl.h"

#define NPREDEF 7

struct keyval {
    bool used;
    int refs;                   /* the handle + attributes using it */
    MPI_Copy_function *copy;
    MPI_Delete_function *del;
    void *extra;
};

/* Keyvals index this table, which grows as they are made (limited only
 * by memory); freed slots are taken again. */
static struct keyval *keys;
static int nkeys;
static int predef_vals[NPREDEF] = { 0xfffffff, MPI_PROC_NULL, MPI_ANY_SOURCE,
                                    0, 0, 0, 0 };

int MPI_DUP_FN(MPI_Comm c, int k, void *extra, void *in, void *out,
               int *flag)
{
    (void)c, (void)k, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static bool valid_key(int k)
{
    return k >= NPREDEF && k < nkeys && keys[k].used;
}

static void key_release(int k)
{
    if (--keys[k].refs == 0)
        keys[k].used = false;
}

/* A free slot of the table (grown if none), or -1 out of memory. */
static int key_slot(void)
{
    int k = NPREDEF, n;
    struct keyval *t;

    while (k < nkeys && keys[k].used)
        k++;
    if (k < nkeys)
        return k;
    n = nkeys ? 2 * nkeys : 64;
    if ((t = realloc(keys, (size_t)n * sizeof(*t))) == NULL)
        return -1;
    for (int i = nkeys; i < n; i++)
        t[i] = (struct keyval){ 0 };
    keys = t;
    nkeys = n;
    return k;
}

int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
                      int *keyval, void *extra)
{
    int k;

    if (keyval == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Keyval_create");
    *keyval = MPI_KEYVAL_INVALID;
    if ((k = key_slot()) < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Keyval_create");
    keys[k] = (struct keyval){ true, 1, copy, del, extra };
    *keyval = k;
    return MPI_SUCCESS;
}

int MPI_Keyval_free(int *keyval)
{
    if (keyval == NULL || !valid_key(*keyval))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Keyval_free");
    key_release(*keyval);   /* attributes still using it keep it alive */
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static struct attr **find(MPI_Comm c, int k)
{
    struct attr **pp = &c->attrs;

    while (*pp != NULL && (*pp)->keyval != k)
        pp = &(*pp)->next;
    return pp;
}

/* Run the delete callback and drop the attribute. */
static int remove_attr(MPI_Comm c, struct attr **pp)
{
    struct attr *a = *pp;
    struct keyval *kv = &keys[a->keyval];
    int rc = MPI_SUCCESS;

    if (kv->del != NULL)
        rc = kv->del(c, a->keyval, a->value, kv->extra);
    if (rc != MPI_SUCCESS)
        return rc;
    *pp = a->next;
    key_release(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

static int set_attr(MPI_Comm c, int k, void *value)
{
    struct attr **pp = find(c, k), *a;
    int rc;

    if (*pp != NULL && (rc = remove_attr(c, pp)) != MPI_SUCCESS)
        return rc;
    if ((a = malloc(sizeof(*a))) == NULL)
        return MPI_ERR_INTERN;
    a->keyval = k;
    a->value = value;
    a->next = c->attrs;
    c->attrs = a;
    keys[k].refs++;
    return MPI_SUCCESS;
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && !valid_key(keyval))
        rc = MPI_ERR_KEYVAL;
    if (rc == MPI_SUCCESS)
        rc = set_attr(comm, keyval, value);
    return rc ? mpi_err(comm, rc, "MPI_Attr_put") : MPI_SUCCESS;
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    struct attr *a;

    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Attr_get");
    if (keyval >= 0 && keyval < NPREDEF) {
        predef_vals[MPI_LASTUSEDCODE] = err_last_used();
        predef_vals[MPI_UNIVERSE_SIZE] = MPI_COMM_WORLD->size;
        *(void **)value = &predef_vals[keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!valid_key(keyval))
        return mpi_err(comm, MPI_ERR_KEYVAL, "MPI_Attr_get");
    a = *find(comm, keyval);
    *flag = a != NULL;
    if (a != NULL)
        *(void **)value = a->value;
    return MPI_SUCCESS;
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    struct attr **pp;
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && !valid_key(keyval))
        rc = MPI_ERR_KEYVAL;
    if (rc == MPI_SUCCESS) {
        pp = find(comm, keyval);
        rc = *pp ? remove_attr(comm, pp) : MPI_ERR_KEYVAL;
    }
    return rc ? mpi_err(comm, rc, "MPI_Attr_delete") : MPI_SUCCESS;
}

int attr_copy_all(MPI_Comm from, MPI_Comm to)
{
    for (struct attr *a = from->attrs; a != NULL; a = a->next) {
        struct keyval *kv = &keys[a->keyval];
        void *out = NULL;
        int flag = 0, rc;

        if (kv->copy == NULL)
            continue;       /* MPI_NULL_COPY_FN: not copied */
        rc = kv->copy(from, a->keyval, kv->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag && (rc = set_attr(to, a->keyval, out)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int attr_delete_all(MPI_Comm c)
{
    int rc;

    while (c->attrs != NULL)
        if ((rc = remove_attr(c, &c->attrs)) != MPI_SUCCESS)
            return rc;
    return MPI_SUCCESS;
}

/* ---- MPI-2 names for the same ---- */

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval,
                           void *extra)
{
    return MPI_Keyval_create(copy, del, keyval, extra);
}

int MPI_Comm_free_keyval(int *keyval)
{
    return MPI_Keyval_free(keyval);
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    return MPI_Attr_put(comm, keyval, value);
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return MPI_Attr_get(comm, keyval, value, flag);
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return MPI_Attr_delete(comm, keyval);
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Keyval_create)
PMPI(MPI_Keyval_free)
PMPI(MPI_Attr_put)
PMPI(MPI_Attr_get)
PMPI(MPI_Attr_delete)
PMPI(MPI_Comm_create_keyval)
PMPI(MPI_Comm_free_keyval)
PMPI(MPI_Comm_set_attr)
PMPI(MPI_Comm_get_attr)
PMPI(MPI_Comm_delete_attr)
