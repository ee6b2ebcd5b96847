/* SPDX-License-Identifier: MIT */
/*
 * attr.c: attribute caching (MPI-3.1 6.7) on communicators, windows and
 * datatypes: MPI_{Comm,Win,Type}_create_keyval/_free_keyval/_set_attr/
 * _get_attr/_delete_attr, and MPI-1's MPI_Keyval_create and MPI_Attr_*
 * (the communicator ones).  A keyval is a slot in one table, made for
 * one kind of object: using it on another kind is MPI_ERR_KEYVAL.
 * The predefined keys (MPI_TAG_UB ... MPI_APPNUM on communicators,
 * MPI_WIN_BASE ... MPI_WIN_MODEL on windows, win.c) are answered for
 * every object of their kind.  Duplicating a communicator or a type runs
 * each copy callback; freeing one, each delete callback.
 */
#include <stdlib.h>
#include "mpi_impl.h"
#include "rma.h"

/* Keys below this are predefined (communicators 0..6, windows 10..14):
 * a program's keyvals come after, so no key means two things. */
#define NPREDEF 16
#define NCOMM_PREDEF 7

/* The callbacks of a keyval, typed by the kind of object it is for. */
struct keyval {
    bool used;
    int refs;                   /* the handle + attributes using it */
    int kind;                   /* ATTR_COMM, ATTR_WIN, ATTR_TYPE */
    union {
        MPI_Comm_copy_attr_function *comm;
        MPI_Win_copy_attr_function *win;
        MPI_Type_copy_attr_function *type;
    } copy;
    union {
        MPI_Comm_delete_attr_function *comm;
        MPI_Win_delete_attr_function *win;
        MPI_Type_delete_attr_function *type;
    } del;
    void *extra;
};

/* Keyvals index this table, which grows as they are made (limited only
 * by memory); freed slots are taken again. */
static struct keyval *keys;
static int nkeys;
static int predef_vals[NCOMM_PREDEF] = { 0xfffffff, MPI_PROC_NULL,
                                         MPI_ANY_SOURCE, 0, 0, 0, 0 };

int MPI_DUP_FN(MPI_Comm c, int k, void *extra, void *in, void *out,
               int *flag)
{
    (void)c, (void)k, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win w, int k, void *extra, void *in, void *out,
                   int *flag)
{
    (void)w;
    return MPI_DUP_FN(MPI_COMM_NULL, k, extra, in, out, flag);
}

int MPI_TYPE_DUP_FN(MPI_Datatype t, int k, void *extra, void *in, void *out,
                    int *flag)
{
    (void)t;
    return MPI_DUP_FN(MPI_COMM_NULL, k, extra, in, out, flag);
}

static bool valid_key(int k, int kind)
{
    return k >= NPREDEF && k < nkeys && keys[k].used && keys[k].kind == kind;
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

static int key_new(struct keyval kv, int *keyval, const char *name)
{
    int k;

    if (keyval == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, name);
    *keyval = MPI_KEYVAL_INVALID;
    if ((k = key_slot()) < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, name);
    kv.used = true;
    kv.refs = 1;
    keys[k] = kv;
    *keyval = k;
    return MPI_SUCCESS;
}

static int key_free(int *keyval, int kind, const char *name)
{
    if (keyval == NULL || !valid_key(*keyval, kind))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_KEYVAL, name);
    key_release(*keyval);   /* attributes still using it keep it alive */
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* ---- attribute lists, whatever they hang on ---- */

struct obj {
    int kind;
    void *handle;               /* the MPI_Comm, MPI_Win or MPI_Datatype */
    struct attr **list;
};

static struct attr **find(struct attr **pp, int k)
{
    while (*pp != NULL && (*pp)->keyval != k)
        pp = &(*pp)->next;
    return pp;
}

static int call_delete(const struct obj *o, const struct attr *a)
{
    struct keyval *kv = &keys[a->keyval];

    switch (o->kind) {
    case ATTR_COMM:
        return kv->del.comm ? kv->del.comm(o->handle, a->keyval, a->value,
                                           kv->extra) : MPI_SUCCESS;
    case ATTR_WIN:
        return kv->del.win ? kv->del.win(o->handle, a->keyval, a->value,
                                         kv->extra) : MPI_SUCCESS;
    default:
        return kv->del.type ? kv->del.type(o->handle, a->keyval, a->value,
                                           kv->extra) : MPI_SUCCESS;
    }
}

/* Run the delete callback and drop the attribute. */
static int remove_attr(const struct obj *o, struct attr **pp)
{
    struct attr *a = *pp;
    int rc = call_delete(o, a);

    if (rc != MPI_SUCCESS)
        return rc;
    *pp = a->next;
    key_release(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

static int set_attr(const struct obj *o, int k, void *value)
{
    struct attr **pp = find(o->list, k), *a;
    int rc;

    if (*pp != NULL && (rc = remove_attr(o, pp)) != MPI_SUCCESS)
        return rc;
    if ((a = malloc(sizeof(*a))) == NULL)
        return MPI_ERR_NO_MEM;
    a->keyval = k;
    a->value = value;
    a->next = *o->list;
    *o->list = a;
    keys[k].refs++;
    return MPI_SUCCESS;
}

static int get_attr(const struct obj *o, int k, void *value, int *flag)
{
    struct attr *a;

    if (!valid_key(k, o->kind))
        return MPI_ERR_KEYVAL;
    if (value == NULL || flag == NULL)
        return MPI_ERR_ARG;
    a = *find(o->list, k);
    *flag = a != NULL;
    if (a != NULL)
        *(void **)value = a->value;
    return MPI_SUCCESS;
}

static int delete_attr(const struct obj *o, int k)
{
    struct attr **pp;

    if (!valid_key(k, o->kind))
        return MPI_ERR_KEYVAL;
    pp = find(o->list, k);
    return *pp ? remove_attr(o, pp) : MPI_ERR_KEYVAL;
}

static int call_copy(const struct obj *from, const struct attr *a,
                     void **out, int *flag)
{
    struct keyval *kv = &keys[a->keyval];

    switch (from->kind) {
    case ATTR_COMM:
        return kv->copy.comm(from->handle, a->keyval, kv->extra, a->value,
                             out, flag);
    case ATTR_WIN:
        return kv->copy.win(from->handle, a->keyval, kv->extra, a->value,
                            out, flag);
    default:
        return kv->copy.type(from->handle, a->keyval, kv->extra, a->value,
                             out, flag);
    }
}

static int copy_all(const struct obj *from, const struct obj *to)
{
    for (struct attr *a = *from->list; a != NULL; a = a->next) {
        void *out = NULL;
        int flag = 0, rc;

        if (keys[a->keyval].copy.comm == NULL)
            continue;       /* MPI_*_NULL_COPY_FN: not copied */
        if ((rc = call_copy(from, a, &out, &flag)) != MPI_SUCCESS)
            return rc;
        if (flag && (rc = set_attr(to, a->keyval, out)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int delete_all(const struct obj *o)
{
    int rc;

    while (*o->list != NULL)
        if ((rc = remove_attr(o, o->list)) != MPI_SUCCESS)
            return rc;
    return MPI_SUCCESS;
}

#define COMM(c) (struct obj){ ATTR_COMM, (c), &(c)->attrs }
#define WIN(w) (struct obj){ ATTR_WIN, (w), &(w)->attrs }
#define TYPE(t) (struct obj){ ATTR_TYPE, (t), &(t)->attrs }

int attr_copy_all(MPI_Comm from, MPI_Comm to)
{
    return copy_all(&COMM(from), &COMM(to));
}

int attr_delete_all(MPI_Comm c)
{
    return delete_all(&COMM(c));
}

int type_attr_copy_all(MPI_Datatype from, MPI_Datatype to)
{
    return copy_all(&TYPE(from), &TYPE(to));
}

int type_attr_delete_all(MPI_Datatype t)
{
    return delete_all(&TYPE(t));
}

int win_attr_delete_all(MPI_Win w)
{
    return delete_all(&WIN(w));
}

int win_attr_get(MPI_Win w, int keyval, void *value, int *flag)
{
    return get_attr(&WIN(w), keyval, value, flag);
}

/* ---- communicators ---- */

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval,
                           void *extra)
{
    struct keyval kv = { .kind = ATTR_COMM, .copy.comm = copy,
                         .del.comm = del, .extra = extra };
    return key_new(kv, keyval, "MPI_Comm_create_keyval");
}

int MPI_Comm_free_keyval(int *keyval)
{
    return key_free(keyval, ATTR_COMM, "MPI_Comm_free_keyval");
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && !valid_key(keyval, ATTR_COMM))
        rc = MPI_ERR_KEYVAL;
    if (rc == MPI_SUCCESS)
        rc = set_attr(&COMM(comm), keyval, value);
    return rc ? mpi_err(comm, rc, "MPI_Comm_set_attr") : MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    int rc;

    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Comm_get_attr");
    if (keyval >= 0 && keyval < NCOMM_PREDEF && value && flag) {
        predef_vals[MPI_LASTUSEDCODE] = err_last_used();
        predef_vals[MPI_UNIVERSE_SIZE] = MPI_COMM_WORLD->size;
        *(void **)value = &predef_vals[keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    rc = get_attr(&COMM(comm), keyval, value, flag);
    return rc ? mpi_err(comm, rc, "MPI_Comm_get_attr") : MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS)
        rc = delete_attr(&COMM(comm), keyval);
    return rc ? mpi_err(comm, rc, "MPI_Comm_delete_attr") : MPI_SUCCESS;
}

/* MPI-1's names for the same (deprecated, not removed) */
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
                      int *keyval, void *extra)
{
    return MPI_Comm_create_keyval(copy, del, keyval, extra);
}

int MPI_Keyval_free(int *keyval)
{
    return MPI_Comm_free_keyval(keyval);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    return MPI_Comm_set_attr(comm, keyval, value);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return MPI_Comm_get_attr(comm, keyval, value, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return MPI_Comm_delete_attr(comm, keyval);
}

/* ---- windows (their predefined keys: MPI_Win_get_attr, win.c) ---- */

int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy,
                          MPI_Win_delete_attr_function *del, int *keyval,
                          void *extra)
{
    struct keyval kv = { .kind = ATTR_WIN, .copy.win = copy,
                         .del.win = del, .extra = extra };
    return key_new(kv, keyval, "MPI_Win_create_keyval");
}

int MPI_Win_free_keyval(int *keyval)
{
    return key_free(keyval, ATTR_WIN, "MPI_Win_free_keyval");
}

int MPI_Win_set_attr(MPI_Win win, int keyval, void *value)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && !valid_key(keyval, ATTR_WIN))
        rc = MPI_ERR_KEYVAL;
    if (rc == MPI_SUCCESS)
        rc = set_attr(&WIN(win), keyval, value);
    return win_err(win, rc, "MPI_Win_set_attr");
}

int MPI_Win_delete_attr(MPI_Win win, int keyval)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS)
        rc = delete_attr(&WIN(win), keyval);
    return win_err(win, rc, "MPI_Win_delete_attr");
}

/* ---- datatypes (a predefined one's attributes stay till the end) ---- */

#define TERR(rc, name) ((rc) ? mpi_err(MPI_COMM_WORLD, rc, name) : 0)

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval,
                           void *extra)
{
    struct keyval kv = { .kind = ATTR_TYPE, .copy.type = copy,
                         .del.type = del, .extra = extra };
    return key_new(kv, keyval, "MPI_Type_create_keyval");
}

int MPI_Type_free_keyval(int *keyval)
{
    return key_free(keyval, ATTR_TYPE, "MPI_Type_free_keyval");
}

int MPI_Type_set_attr(MPI_Datatype dt, int keyval, void *value)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && !valid_key(keyval, ATTR_TYPE))
        rc = MPI_ERR_KEYVAL;
    if (rc == MPI_SUCCESS)
        rc = set_attr(&TYPE(dt), keyval, value);
    return TERR(rc, "MPI_Type_set_attr");
}

int MPI_Type_get_attr(MPI_Datatype dt, int keyval, void *value, int *flag)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS)
        rc = get_attr(&TYPE(dt), keyval, value, flag);
    return TERR(rc, "MPI_Type_get_attr");
}

int MPI_Type_delete_attr(MPI_Datatype dt, int keyval)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS)
        rc = delete_attr(&TYPE(dt), keyval);
    return TERR(rc, "MPI_Type_delete_attr");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Comm_create_keyval)
PMPI(MPI_Comm_free_keyval)
PMPI(MPI_Comm_set_attr)
PMPI(MPI_Comm_get_attr)
PMPI(MPI_Comm_delete_attr)
PMPI(MPI_Keyval_create)
PMPI(MPI_Keyval_free)
PMPI(MPI_Attr_put)
PMPI(MPI_Attr_get)
PMPI(MPI_Attr_delete)
PMPI(MPI_Win_create_keyval)
PMPI(MPI_Win_free_keyval)
PMPI(MPI_Win_set_attr)
PMPI(MPI_Win_delete_attr)
PMPI(MPI_Type_create_keyval)
PMPI(MPI_Type_free_keyval)
PMPI(MPI_Type_set_attr)
PMPI(MPI_Type_get_attr)
PMPI(MPI_Type_delete_attr)
