/* SPDX-License-Identifier: MIT */
/*
 * win.c: one-sided windows (rma.h describes them): MPI_Win_create,
 * _allocate, _create_dynamic with _attach and _detach, _free; the
 * window's attributes, group, name, info and error handler.
 *
 * A window gets a duplicate of its communicator, whose context names it
 * in match bits, and per rank a match entry over its memory and a state
 * area in a page of them (rma_state.c); the MD and counters are every
 * window's (rma.c).  A dynamic window has no memory entry: each attached
 * region is an entry of its own, listed in a table its rank publishes
 * (rma.c finds an address's region there), which doubles when it is
 * full.  So windows and regions are limited by Portals match entries
 * (README.md, Limits).
 */
#include <stdlib.h>
#include <string.h>
#include "rma.h"

struct attach {
    struct attach *next;
    void *base;
    MPI_Aint size;
    int64_t id;
    ptl_handle_me_t me;
};

/* A table a dynamic window outgrew, kept until the window goes (an
 * origin's Get may have matched it just before it was unlinked). */
struct retired {
    struct retired *next;
    struct dyn_table *table;
};

/* An entry on PT_ONE that posts no events; arrivals counted on ct. */
static int append(MPI_Win w, void *start, size_t len, uint64_t which,
                  ptl_handle_ct_t ct, ptl_handle_me_t *h)
{
    ptl_me_t me = me_make(start, len, PTL_ME_OP_PUT | PTL_ME_OP_GET |
                          PTL_ME_NO_TRUNCATE | PTL_ME_EVENT_COMM_DISABLE |
                          PTL_ME_EVENT_LINK_DISABLE |
                          PTL_ME_EVENT_UNLINK_DISABLE, PTL_RANK_ANY,
                          RMA_BITS(w->comm->ctx, which), 0);

    if (ct != PTL_CT_NONE) {
        me.ct_handle = ct;
        me.options |= PTL_ME_EVENT_CT_COMM;
    }
    if (entry_rc(PtlMEAppend(job.ni, PT_ONE, &me, PTL_PRIORITY_LIST, NULL, h),
                 "PtlMEAppend (window)") != MPI_SUCCESS)
        return ERRC_RMA_ENTRIES;        /* a message that names windows */
    return MPI_SUCCESS;
}

/* The entry and state area of a window, and its share of the MD and
 * counters (what was made before a failure is undone by portals_down);
 * *st: where its origins reach the state area. */
static int portals_up(MPI_Win w, struct where *st)
{
    int rc = rma_up();

    w->counted = rc == MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = state_alloc(ST_WORDS(w->comm->size) * 8, &w->state, st);
    if (rc == MPI_SUCCESS && w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        rc = append(w, w->table, TABLE_BYTES(w->table->cap), RMA_TABLE,
                    PTL_CT_NONE, &w->mem_me);
    else if (rc == MPI_SUCCESS)
        rc = append(w, w->base, (size_t)w->size, RMA_MEM, PTL_CT_NONE,
                    &w->mem_me);
    return rc;
}

static void portals_down(MPI_Win w)
{
    if (w->mem_me != PTL_INVALID_HANDLE)
        PtlMEUnlink(w->mem_me);
    if (w->state != NULL)
        state_free(w->state);
    if (w->counted)
        rma_down();
}

static void win_destroy(MPI_Win w)
{
    portals_down(w);
    free(w->states);
    free(w->sizes);
    free(w->units);
    free(w->locked);
    free(w->lock_kind);
    free(w->posts_seen);
    free(w->completes_seen);
    while (w->attached != NULL) {
        struct attach *a = w->attached;
        w->attached = a->next;
        PtlMEUnlink(a->me);
        free(a);
    }
    for (int i = 0; w->known != NULL && i < w->comm->size; i++)
        free(w->known[i]);
    free(w->known);
    free(w->table);
    while (w->retired != NULL) {
        struct retired *r = w->retired;
        w->retired = r->next;
        free(r->table);
        free(r);
    }
    if (w->base_ours)
        free(w->base);
    win_shared_free(w);
    errh_release(w->errh);
    free(w->name);
    info_free(w->info);
    if (w->comm != MPI_COMM_NULL)
        MPI_Comm_free(&w->comm);
    w->refs = 0;
    free(w);
}

/* Per-rank arrays, and every rank's size and unit (for range checks and
 * to scale displacements by the target's unit) and state area. */
#define SHARED 5        /* size, unit, error, state area's bits and offset */
static int win_tables(MPI_Win w)
{
    int n = w->comm->size, rc;
    MPI_Aint mine[SHARED] = { w->size, w->disp_unit, 0, 0, 0 }, *all;
    struct where st = { 0, 0 };

    w->states = calloc((size_t)n, sizeof(struct where));
    w->sizes = calloc((size_t)n, sizeof(MPI_Aint));
    w->units = calloc((size_t)n, sizeof(int));
    w->locked = calloc((size_t)n, sizeof(bool));
    w->lock_kind = calloc((size_t)n, sizeof(int));
    w->posts_seen = calloc((size_t)n, sizeof(int64_t));
    w->completes_seen = calloc((size_t)n, sizeof(int64_t));
    all = calloc(SHARED * (size_t)n, sizeof(MPI_Aint));
    if (!w->states || !w->sizes || !w->units || !w->locked ||
        !w->lock_kind || !w->posts_seen || !w->completes_seen || !all)
        mine[2] = MPI_ERR_NO_MEM;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC &&
        (!(w->table = calloc(1, TABLE_BYTES(16))) ||
         !(w->known = calloc((size_t)n, sizeof(*w->known)))))
        mine[2] = MPI_ERR_NO_MEM;
    else if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        w->table->cap = 16;
    /* the entries exist before anyone learns the window is there; every
     * rank learns whether every other could make its own */
    if (mine[2] == MPI_SUCCESS)
        mine[2] = portals_up(w, &st);
    mine[3] = (MPI_Aint)st.bits;
    mine[4] = (MPI_Aint)st.off;
    rc = all ? coll_allgather(mine, SHARED * (int)sizeof(MPI_Aint), MPI_BYTE,
                              all, SHARED * (int)sizeof(MPI_Aint), MPI_BYTE,
                              w->comm)
             : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        const MPI_Aint *a = all + SHARED * i;
        w->sizes[i] = a[0];
        w->units[i] = (int)a[1];
        rc = (int)a[2];
        w->states[i] = (struct where){ (uint64_t)a[3], (uint64_t)a[4] };
    }
    free(all);
    return rc;
}

int win_args(MPI_Aint size, int unit, MPI_Comm comm, MPI_Win *out)
{
    int rc = comm_check(comm);

    if (out != NULL)
        *out = MPI_WIN_NULL;            /* if the call fails */
    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && size < 0)
        rc = MPI_ERR_SIZE;
    if (rc == MPI_SUCCESS && unit <= 0)
        rc = MPI_ERR_DISP;
    if (rc == MPI_SUCCESS && out == NULL)
        rc = MPI_ERR_ARG;
    return rc;
}

int win_make(void *base, MPI_Aint size, int unit, int flavor,
             MPI_Info info, MPI_Comm comm, MPI_Win *out)
{
    MPI_Win w;
    int rc = win_args(size, unit, comm, out);

    if (rc == MPI_SUCCESS && size > 0 && base == NULL)
        rc = MPI_ERR_BASE;
    if (rc != MPI_SUCCESS)
        return rc;
    if ((w = calloc(1, sizeof(*w))) == NULL)
        return MPI_ERR_NO_MEM;
    *w = (struct mpi_win_s){ .refs = 1, .flavor = flavor, .base = base,
                             .size = size, .disp_unit = unit,
                             .errh = MPI_ERRORS_ARE_FATAL,
                             .mem_me = PTL_INVALID_HANDLE };
    rc = MPI_Comm_dup(comm, &w->comm);
    if (rc == MPI_SUCCESS)
        rc = info_copy(info, &w->info);
    if (rc == MPI_SUCCESS)
        rc = win_tables(w);
    if (rc != MPI_SUCCESS) {
        w->base = NULL;
        win_destroy(w);
        return rc;
    }
    *out = w;
    return MPI_SUCCESS;
}

#define WIN_MAKE(rc, comm, name) mpi_err(comm, rc, name)

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win)
{
    int rc = win_make(base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, info,
                      comm, win);
    return WIN_MAKE(rc, comm, "MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    void *base = size >= 0 ? malloc(size ? (size_t)size : 1) : NULL;
    int rc = size >= 0 && base == NULL ? MPI_ERR_NO_MEM :
             baseptr == NULL ? MPI_ERR_ARG :
             win_make(base, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, info,
                      comm, win);

    if (rc != MPI_SUCCESS)
        free(base);
    else {
        (*win)->base_ours = true;
        *(void **)baseptr = base;
    }
    return WIN_MAKE(rc, comm, "MPI_Win_allocate");
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = win_make(NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, info, comm, win);
    return WIN_MAKE(rc, comm, "MPI_Win_create_dynamic");
}

static int dynamic_check(MPI_Win w)
{
    int rc = win_check(w);

    if (rc == MPI_SUCCESS && w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        rc = MPI_ERR_RMA_FLAVOR;
    return rc;
}

/* A full table doubles: the bigger one is published under the same
 * match bits before the old one is unlinked, so an origin's Get always
 * finds one of them. */
static int table_grow(MPI_Win w)
{
    struct dyn_table *old = w->table, *tb;
    struct retired *r = malloc(sizeof(*r));
    ptl_handle_me_t me;
    int rc;

    tb = r ? malloc(TABLE_BYTES(2 * old->cap)) : NULL;
    if (tb == NULL) {
        free(r);
        return MPI_ERR_NO_MEM;
    }
    memcpy(tb, old, TABLE_BYTES(old->n));
    tb->cap = 2 * old->cap;
    if ((rc = append(w, tb, TABLE_BYTES(tb->cap), RMA_TABLE, PTL_CT_NONE,
                     &me)) != MPI_SUCCESS) {
        free(tb);
        free(r);
        return rc;
    }
    PtlMEUnlink(w->mem_me);
    w->mem_me = me;
    w->table = tb;
    *r = (struct retired){ w->retired, old };
    w->retired = r;
    return MPI_SUCCESS;
}

/* The region becomes an entry of its own and a line of the table. */
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    int rc = dynamic_check(win);
    struct attach *a = NULL;
    struct dyn_table *tb;

    if (rc == MPI_SUCCESS && (size < 0 || (size > 0 && base == NULL)))
        rc = MPI_ERR_RMA_ATTACH;
    if (rc == MPI_SUCCESS && win->table->n == win->table->cap)
        rc = table_grow(win);
    if (rc == MPI_SUCCESS && (a = malloc(sizeof(*a))) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        *a = (struct attach){ win->attached, base, size, win->next_region++,
                              PTL_INVALID_HANDLE };
        rc = append(win, base, (size_t)size, RMA_REGION(a->id),
                    PTL_CT_NONE, &a->me);
    }
    if (rc != MPI_SUCCESS) {
        free(a);
        return win_err(win, rc, "MPI_Win_attach");
    }
    win->attached = a;
    tb = win->table;
    tb->r[tb->n] = (struct region){ (int64_t)(intptr_t)base, size, a->id };
    tb->n++;
    return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
    int rc = dynamic_check(win);
    struct attach **pp = rc ? NULL : &win->attached;

    while (pp != NULL && *pp != NULL && (*pp)->base != base)
        pp = &(*pp)->next;
    if (rc == MPI_SUCCESS && *pp == NULL)
        rc = MPI_ERR_RMA_ATTACH;        /* never attached */
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_detach");
    struct attach *a = *pp;
    struct dyn_table *tb = win->table;
    *pp = a->next;
    PtlMEUnlink(a->me);
    for (int64_t i = 0; i < tb->n; i++)     /* out of the table */
        if (tb->r[i].id == a->id) {
            tb->r[i] = tb->r[--tb->n];
            break;
        }
    free(a);
    return MPI_SUCCESS;
}

/* Collective: once every rank is here nobody accesses the window. */
int MPI_Win_free(MPI_Win *win)
{
    MPI_Win w;
    int rc = win ? win_check(*win) : MPI_ERR_ARG;

    w = rc ? NULL : *win;
    if (rc == MPI_SUCCESS && (w->epoch == EP_LOCK ||
                              w->epoch == EP_LOCK_ALL ||
                              w->start_grp || w->post_grp))
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(w);
    if (rc == MPI_SUCCESS)
        rc = coll_barrier(w->comm);
    if (rc == MPI_SUCCESS)
        rc = win_attr_delete_all(w);
    if (rc != MPI_SUCCESS)
        return win_err(w, rc, "MPI_Win_free");
    win_destroy(w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* ---- what a window tells about itself ---- */

int MPI_Win_get_attr(MPI_Win win, int key, void *value, int *flag)
{
    static int flavor, model = MPI_WIN_UNIFIED;
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && (value == NULL || flag == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_get_attr");
    *flag = 1;
    switch (key) {
    case MPI_WIN_BASE: *(void **)value = win->base; break;
    case MPI_WIN_SIZE: *(MPI_Aint **)value = &win->size; break;
    case MPI_WIN_DISP_UNIT: *(int **)value = &win->disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR:
        flavor = win->flavor;
        *(int **)value = &flavor;
        break;
    case MPI_WIN_MODEL: *(int **)value = &model; break;
    default:
        return win_err(win, win_attr_get(win, key, value, flag),
                       "MPI_Win_get_attr");
    }
    return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && group == NULL)
        rc = MPI_ERR_ARG;
    else if (group != NULL)
        *group = MPI_GROUP_NULL;
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_group(win->comm, group);
    return win_err(win, rc, "MPI_Win_get_group");
}

int MPI_Win_set_name(MPI_Win win, const char *name)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS)
        rc = name_set(&win->name, name);
    return win_err(win, rc, "MPI_Win_set_name");
}

int MPI_Win_get_name(MPI_Win win, char *name, int *len)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS)
        rc = name_get(win->name, name, len);
    return win_err(win, rc, "MPI_Win_get_name");
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    MPI_Info copy = MPI_INFO_NULL;
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && (rc = info_copy(info, &copy)) == MPI_SUCCESS) {
        info_free(win->info);
        win->info = copy;
    }
    return win_err(win, rc, "MPI_Win_set_info");
}

int MPI_Win_get_info(MPI_Win win, MPI_Info *info)
{
    int rc = win_check(win);

    if (rc != MPI_SUCCESS && info != NULL)
        *info = MPI_INFO_NULL;
    if (rc == MPI_SUCCESS)
        rc = info_give(win->info, info);
    return win_err(win, rc, "MPI_Win_get_info");
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
                              MPI_Errhandler *eh)
{
    MPI_Errhandler e = fn && eh ? errh_new(ERRH_WIN) : NULL;

    if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;      /* if the call fails */
    if (e == NULL)
        return mpi_err(MPI_COMM_WORLD, fn && eh ? MPI_ERR_NO_MEM
                                                : MPI_ERR_ARG,
                       "MPI_Win_create_errhandler");
    e->wfn = fn;
    *eh = e;
    return MPI_SUCCESS;
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && !errh_fits(eh, ERRH_WIN))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_set_errhandler");
    errh_retain(eh);
    errh_release(win->errh);
    win->errh = eh;
    return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *eh)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && eh == NULL)
        rc = MPI_ERR_ARG;
    else if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_get_errhandler");
    *eh = win->errh;
    errh_retain(*eh);
    return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int code)
{
    int rc = win_check(win);

    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_call_errhandler");
    mpi_err_handler(win->errh, &win, code, "MPI_Win_call_errhandler");
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Win_create)
PMPI(MPI_Win_allocate)
PMPI(MPI_Win_create_dynamic)
PMPI(MPI_Win_attach)
PMPI(MPI_Win_detach)
PMPI(MPI_Win_free)
PMPI(MPI_Win_get_attr)
PMPI(MPI_Win_get_group)
PMPI(MPI_Win_set_name)
PMPI(MPI_Win_get_name)
PMPI(MPI_Win_set_info)
PMPI(MPI_Win_get_info)
PMPI(MPI_Win_create_errhandler)
PMPI(MPI_Win_set_errhandler)
PMPI(MPI_Win_get_errhandler)
PMPI(MPI_Win_call_errhandler)
