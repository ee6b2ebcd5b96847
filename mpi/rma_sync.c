/* SPDX-License-Identifier: MIT */
/*
 * rma_sync.c: one-sided synchronisation: MPI_Win_fence (a flush and a
 * barrier), post-start-complete-wait (notices are atomic increments of a
 * counter per rank in the other side's state area, so neither waits for
 * the other's CPU), passive target locks (a lock word in the target's
 * state area, taken and given back by Portals atomics: shared holders
 * count up, a writer sets LOCK_EXCL), flushes and MPI_Win_sync.
 * Nothing here runs on the target's CPU.
 */
#include "rma.h"

static int in_group(MPI_Win w, MPI_Group g, int t)
{
    return group_rank_of_world(g, w->comm->local->world[t]) !=
           MPI_UNDEFINED;
}

bool rma_may_access(MPI_Win w, int t)
{
    switch (w->epoch) {
    case EP_FENCE:
    case EP_LOCK_ALL: return true;
    case EP_LOCK: return w->locked[t];
    case EP_PSCW: return in_group(w, w->start_grp, t);
    default: return false;
    }
}

/* The window's rank of member i of g. */
static int rank_in_win(MPI_Win w, MPI_Group g, int i)
{
    return group_rank_of_world(w->comm->local, g->world[i]);
}

/* ---- fence ---- */

int MPI_Win_fence(int assert, MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && (win->epoch == EP_PSCW ||
                              win->epoch == EP_LOCK ||
                              win->epoch == EP_LOCK_ALL || win->post_grp))
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(win);            /* ours are in their targets */
    if (rc == MPI_SUCCESS)
        rc = coll_barrier(win->comm);   /* ... and everybody's in ours */
    if (rc == MPI_SUCCESS)
        win->epoch = (assert & MPI_MODE_NOSUCCEED) ? EP_NONE : EP_FENCE;
    return win_err(win, rc, "MPI_Win_fence");
}

/* ---- post, start, complete, wait ---- */

/* Has a notice in state word `word` come that `seen` has not counted? */
static bool notice(MPI_Win w, int word, int64_t *seen)
{
    if (__atomic_load_n(&w->state[word], __ATOMIC_ACQUIRE) <= *seen)
        return false;
    ++*seen;
    return true;
}

int MPI_Win_post(MPI_Group g, int assert, MPI_Win win)
{
    int rc = win_check(win);

    (void)assert;
    if (rc == MPI_SUCCESS && (g == MPI_GROUP_NULL || g->refs <= 0))
        rc = MPI_ERR_GROUP;
    if (rc == MPI_SUCCESS && win->post_grp != NULL)
        rc = MPI_ERR_RMA_SYNC;
    for (int i = 0; rc == MPI_SUCCESS && i < g->size; i++)
        if (rank_in_win(win, g, i) == MPI_UNDEFINED)
            rc = MPI_ERR_GROUP;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_post");
    group_retain(g);
    win->post_grp = g;
    for (int i = 0; i < g->size; i++)       /* our window is open to it */
        rma_state_add(win, rank_in_win(win, g, i), ST_POSTS + win->comm->rank,
                      1);
    return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group g, int assert, MPI_Win win)
{
    int rc = win_check(win);

    (void)assert;
    if (rc == MPI_SUCCESS && (g == MPI_GROUP_NULL || g->refs <= 0))
        rc = MPI_ERR_GROUP;
    if (rc == MPI_SUCCESS && win->epoch != EP_NONE &&
        win->epoch != EP_FENCE)
        rc = MPI_ERR_RMA_SYNC;
    for (int i = 0; rc == MPI_SUCCESS && i < g->size; i++)
        if (rank_in_win(win, g, i) == MPI_UNDEFINED)
            rc = MPI_ERR_GROUP;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_start");
    for (int i = 0; i < g->size; i++) {     /* each target has posted */
        int t = rank_in_win(win, g, i);
        while (!notice(win, ST_POSTS + t, &win->posts_seen[t]))
            rma_wait_state(win);
    }
    group_retain(g);
    win->start_grp = g;
    win->epoch = EP_PSCW;
    return MPI_SUCCESS;
}

int MPI_Win_complete(MPI_Win win)
{
    int rc = win_check(win);
    MPI_Group g;

    if (rc == MPI_SUCCESS && win->epoch != EP_PSCW)
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(win);
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_complete");
    g = win->start_grp;
    for (int i = 0; i < g->size; i++)       /* ours are in: tell it */
        rma_state_add(win, rank_in_win(win, g, i),
                      ST_COMPLETES(win->comm->size) + win->comm->rank, 1);
    group_release(g);
    win->start_grp = NULL;
    win->epoch = EP_NONE;
    return MPI_SUCCESS;
}

/* Every origin of the exposure epoch has completed?  Counts them once. */
static bool all_completed(MPI_Win w, bool block)
{
    MPI_Group g = w->post_grp;
    int base = ST_COMPLETES(w->comm->size);

    for (int i = 0; i < g->size; i++) {
        int o = rank_in_win(w, g, i);
        /* peek, so a failed test consumes nothing */
        while (__atomic_load_n(&w->state[base + o], __ATOMIC_ACQUIRE) <=
               w->completes_seen[o]) {
            if (!block)
                return false;
            rma_wait_state(w);
        }
    }
    for (int i = 0; i < g->size; i++)
        w->completes_seen[rank_in_win(w, g, i)]++;
    group_release(g);
    w->post_grp = NULL;
    return true;
}

int MPI_Win_wait(MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && win->post_grp == NULL)
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        all_completed(win, true);
    return win_err(win, rc, "MPI_Win_wait");
}

int MPI_Win_test(MPI_Win win, int *flag)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && win->post_grp == NULL)
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS && flag == NULL)
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_test");
    proto_progress(false);
    *flag = all_completed(win, false);
    return MPI_SUCCESS;
}

/* ---- passive target ---- */

/* Take target t's lock word: shared holders add one and back off if a
 * writer holds it; a writer swaps 0 for LOCK_EXCL. */
static void lock_take(MPI_Win w, int t, int type)
{
    for (;;) {
        if (type == MPI_LOCK_EXCLUSIVE) {
            if (rma_state_swap(w, t, ST_LOCK, 0, LOCK_EXCL, PTL_CSWAP) == 0)
                return;
        } else {
            if (!(rma_state_swap(w, t, ST_LOCK, 0, 1, PTL_SUM) & LOCK_EXCL))
                return;
            rma_state_add(w, t, ST_LOCK, -1);
        }
        proto_progress(false);          /* held: try again shortly */
    }
}

static void lock_give(MPI_Win w, int t)
{
    int kind = w->lock_kind[t];

    if (kind == MPI_LOCK_EXCLUSIVE)
        rma_state_add(w, t, ST_LOCK, -LOCK_EXCL);
    else if (kind == MPI_LOCK_SHARED)
        rma_state_add(w, t, ST_LOCK, -1);
    w->locked[t] = false;               /* MPI_MODE_NOCHECK: nothing held */
}

int MPI_Win_lock(int type, int rank, int assert, MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && type != MPI_LOCK_EXCLUSIVE &&
        type != MPI_LOCK_SHARED)
        rc = MPI_ERR_LOCKTYPE;
    if (rc == MPI_SUCCESS && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;             /* as MPI_PROC_NULL's operations */
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= win->comm->size))
        rc = MPI_ERR_RANK;
    /* a fence's epoch ends where passive target begins */
    if (rc == MPI_SUCCESS && ((win->epoch != EP_NONE &&
                               win->epoch != EP_FENCE &&
                               win->epoch != EP_LOCK) || win->locked[rank]))
        rc = MPI_ERR_RMA_SYNC;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_lock");
    if (!(assert & MPI_MODE_NOCHECK))
        lock_take(win, rank, type);
    win->lock_kind[rank] = (assert & MPI_MODE_NOCHECK) ? 0 : type;
    win->locked[rank] = true;
    win->epoch = EP_LOCK;
    return MPI_SUCCESS;
}

static bool any_locked(MPI_Win w)
{
    for (int i = 0; i < w->comm->size; i++)
        if (w->locked[i])
            return true;
    return false;
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= win->comm->size))
        rc = MPI_ERR_RANK;
    if (rc == MPI_SUCCESS && (win->epoch != EP_LOCK || !win->locked[rank]))
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(win);            /* done at the target first */
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_unlock");
    lock_give(win, rank);
    if (!any_locked(win))
        win->epoch = EP_NONE;
    return MPI_SUCCESS;
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && win->epoch != EP_NONE &&
        win->epoch != EP_FENCE)
        rc = MPI_ERR_RMA_SYNC;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_lock_all");
    for (int t = 0; t < win->comm->size; t++) {
        if (!(assert & MPI_MODE_NOCHECK))
            lock_take(win, t, MPI_LOCK_SHARED);
        win->lock_kind[t] = (assert & MPI_MODE_NOCHECK) ? 0
                                                         : MPI_LOCK_SHARED;
        win->locked[t] = true;
    }
    win->epoch = EP_LOCK_ALL;
    return MPI_SUCCESS;
}

int MPI_Win_unlock_all(MPI_Win win)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && win->epoch != EP_LOCK_ALL)
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(win);
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_unlock_all");
    for (int t = 0; t < win->comm->size; t++)
        lock_give(win, t);
    win->epoch = EP_NONE;
    return MPI_SUCCESS;
}

/* One counter for all targets: a flush of one target completes every
 * operation, which the standard allows.  MPI_PROC_NULL's operations
 * did nothing, so there is nothing to wait for. */
static int flush(MPI_Win win, int rank, const char *name)
{
    int rc = win_check(win);

    if (rc == MPI_SUCCESS && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS && rank != -1 &&
        (rank < 0 || rank >= win->comm->size))
        rc = MPI_ERR_RANK;
    if (rc == MPI_SUCCESS && win->epoch != EP_LOCK &&
        win->epoch != EP_LOCK_ALL)
        rc = MPI_ERR_RMA_SYNC;
    if (rc == MPI_SUCCESS)
        rc = rma_flush(win);
    return win_err(win, rc, name);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    return flush(win, rank, "MPI_Win_flush");
}

int MPI_Win_flush_all(MPI_Win win)
{
    return flush(win, -1, "MPI_Win_flush_all");
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    return flush(win, rank, "MPI_Win_flush_local");
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    return flush(win, -1, "MPI_Win_flush_local_all");
}

/* The window's memory is the process's (MPI_WIN_UNIFIED): a barrier for
 * the compiler and the processor is all there is to synchronise. */
int MPI_Win_sync(MPI_Win win)
{
    int rc = win_check(win);

    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return win_err(win, rc, "MPI_Win_sync");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Win_fence)
PMPI(MPI_Win_post)
PMPI(MPI_Win_start)
PMPI(MPI_Win_complete)
PMPI(MPI_Win_wait)
PMPI(MPI_Win_test)
PMPI(MPI_Win_lock)
PMPI(MPI_Win_unlock)
PMPI(MPI_Win_lock_all)
PMPI(MPI_Win_unlock_all)
PMPI(MPI_Win_flush)
PMPI(MPI_Win_flush_all)
PMPI(MPI_Win_flush_local)
PMPI(MPI_Win_flush_local_all)
PMPI(MPI_Win_sync)
